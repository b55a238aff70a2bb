//! A problem's objects as the check reads them: one name at a time, and after a run of names
//! the type they share (`a b - t`), so that a problem streamed by `parse::file_streaming` keeps
//! its objects here alone and not in its tree as well.

use super::domain::{Checker, type_names};
use crate::ast::{Name, Span, Type, Typed};
use crate::diagnostics::{Code, Diagnostic, FileId, Severity};
use compact_str::CompactString;
use std::hash::BuildHasher;

/// A run's types before the run's type is known.
const PENDING: u32 = u32::MAX;

/// The objects of a problem: each lower-cased name with the types it was given and where it is
/// first declared.
#[derive(Clone, Default)]
pub(super) struct Objects {
    /// In declaration order. The names are owned and inline up to 24 bytes, so that a lookup
    /// compares in the entry itself instead of following a pointer.
    entries: Vec<Object>,
    /// The positions in `entries`, by folded name: four bytes a slot and no copy of the name or
    /// of its hash (a large problem has hundreds of thousands of objects). Invariant: every
    /// position is below `entries.len()`, since one is inserted only with its entry pushed and
    /// entries are never removed, so indexing `entries` with it cannot fail.
    index: hashbrown::HashTable<u32>,
    hasher: foldhash::fast::RandomState,
    /// Each list of type names given to a run of objects, which its objects share.
    types: Vec<Box<[String]>>,
    /// Where the names read since the last type begin in `entries`.
    run_from: usize,
    /// The names of the current run declared before: each with the position of its first
    /// declaration.
    run_again: Vec<(Name, usize)>,
}

#[derive(Clone)]
struct Object {
    /// The name, folded.
    key: CompactString,
    /// The position of its types in `Objects::types`.
    types: u32,
    /// Where it is first declared.
    span: Span,
}

impl Objects {
    /// The type names of the object `key` (folded), if it is declared.
    pub fn get(&self, key: &str) -> Option<&[String]> {
        let hash = self.hasher.hash_one(key);
        let &at = self
            .index
            .find(hash, |&at| self.entries[at as usize].key == key)?;
        let types = self.entries[at as usize].types;
        self.types.get(types as usize).map(|t| &t[..])
    }

    /// The declared names, folded, in declaration order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|o| o.key.as_str())
    }

    /// Room for `additional` more objects.
    pub fn reserve(&mut self, additional: usize) {
        self.entries.reserve(additional);
        let entries = &self.entries;
        let hasher = &self.hasher;
        self.index.reserve(additional, |&at| {
            hasher.hash_one(entries[at as usize].key.as_str())
        });
    }

    /// Every object of a tree's typed list: consecutive objects of one type written in one
    /// place are a run, as `a b - t` reads (names compare without their places, so the type's
    /// span tells `a - t b - t` from `a b - t`).
    pub fn add_list(&mut self, objects: &[Typed<Name>], checker: &mut Checker, file: FileId) {
        self.reserve(objects.len());
        let written_at = |ty: &Option<Type>| ty.as_ref().map(Type::span);
        let mut run_type: Option<&Option<Type>> = None;
        for object in objects {
            if let Some(ty) = run_type
                && (*ty != object.ty || written_at(ty) != written_at(&object.ty))
            {
                self.end_run(ty.as_ref(), checker, file);
            }
            self.add(&object.item);
            run_type = Some(&object.ty);
        }
        if let Some(ty) = run_type {
            self.end_run(ty.as_ref(), checker, file);
        }
    }

    /// One object of the current run, whose type comes with [`Self::end_run`].
    pub fn add(&mut self, name: &Name) {
        let folded = name.folded();
        let key: &str = folded.as_ref();
        let Objects {
            entries,
            index,
            hasher,
            ..
        } = self;
        let hash = hasher.hash_one(key);
        // One probe of the table an object: a large problem has hundreds of thousands.
        let slot = index.entry(
            hash,
            |&at| entries[at as usize].key == key,
            |&at| hasher.hash_one(entries[at as usize].key.as_str()),
        );
        match slot {
            hashbrown::hash_table::Entry::Occupied(first) => {
                let first = *first.get() as usize;
                self.run_again.push((name.clone(), first));
            }
            hashbrown::hash_table::Entry::Vacant(vacant) => {
                // Positions are u32: four billion objects would be far more than any machine
                // holds in memory.
                vacant.insert(entries.len() as u32);
                entries.push(Object {
                    key: key.into(),
                    types: PENDING,
                    span: name.span,
                });
            }
        }
    }

    /// The end of a run of objects: `ty` is the type written after it, `None` for a run with
    /// none (the objects are then of type `object`). A name declared again keeps every type it
    /// is given, with a warning: IPC 2000 miconic and IPC 2011 machine shop give one object
    /// several types on purpose.
    pub fn end_run(&mut self, ty: Option<&Type>, checker: &mut Checker, file: FileId) {
        let new_objects = self.run_from < self.entries.len();
        if !new_objects && self.run_again.is_empty() {
            return;
        }
        let ty = ty.cloned();
        if let Some(ty) = &ty {
            checker.check_type(ty, file, true);
        }
        let names = type_names(&ty);
        if new_objects {
            let index = self.types.len() as u32;
            self.types.push(names.clone().into());
            for object in &mut self.entries[self.run_from..] {
                object.types = index;
            }
        }
        for (name, first) in std::mem::take(&mut self.run_again) {
            self.declared_again(&name, first, &names, checker, file);
        }
        self.run_from = self.entries.len();
    }

    /// `name` declared again, first as the object at `first`, now with the types `names`.
    fn declared_again(
        &mut self,
        name: &Name,
        first: usize,
        names: &[String],
        checker: &mut Checker,
        file: FileId,
    ) {
        let Some(object) = self.entries.get_mut(first) else {
            return;
        };
        let first_span = object.span;
        let had: &[String] = self
            .types
            .get(object.types as usize)
            .map_or(&[], |t| &t[..]);
        let new: Vec<String> = names.iter().filter(|t| !had.contains(t)).cloned().collect();
        let message = if new.is_empty() {
            format!("object `{}` is declared twice", name.text)
        } else {
            format!(
                "object `{}` is declared again with another type; it has both",
                name.text
            )
        };
        if !new.is_empty() {
            let merged: Box<[String]> = had.iter().cloned().chain(new).collect();
            object.types = self.types.len() as u32;
            self.types.push(merged);
        }
        checker.diagnostics.push(
            Diagnostic::new(Code::DuplicateDefinition, message, name.span)
                .with_severity(Severity::Warning)
                .in_file(file)
                .with_label(first_span, "first declared here")
                .with_help(
                    "declare each object once; for an object of two types, give it a type below both",
                ),
        );
    }
}
