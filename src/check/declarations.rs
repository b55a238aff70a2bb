//! The symbol tables of a domain: requirement flags, types, constants, predicates, functions
//! and structure names, with their duplicates and clashes; type and parameter lists.

use super::domain::{Checker, type_names};
use super::requirements;
use super::suggest;
use super::types::OBJECT;
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic, FileId};
use std::collections::HashMap;

impl<'a> Checker<'a> {
    pub(super) fn declarations(&mut self) {
        let d = self.domain;
        let file = self.file;
        for flag in &d.requirements {
            if !requirements::is_known(&flag.text) {
                let help = suggest::help(&flag.text, requirements::KNOWN, || {
                    format!("the flags are {}", requirements::KNOWN.join(" "))
                });
                self.push(
                    Diagnostic::new(
                        Code::UnknownRequirement,
                        format!("unknown requirement `{}`", flag.text),
                        flag.span,
                    )
                    .in_file(file)
                    .with_help(help),
                );
            }
        }
        // Types.
        let mut declared: HashMap<String, Span> = HashMap::new();
        for t in &d.types {
            let key = t.item.key();
            if let Some(first) = declared.get(&key) {
                if key != OBJECT {
                    let first = *first;
                    self.redeclared(
                        "type",
                        &t.item,
                        first,
                        file,
                        "it gets each parent it is declared with (IPC 2006 storage declares a type under two parents)",
                    );
                }
            } else {
                declared.insert(key.clone(), t.item.span);
            }
            match &t.ty {
                // Declaring `object` itself, as some IPC domains do, adds nothing.
                _ if key == OBJECT => {}
                None => self.types.add(&key, Some(OBJECT)),
                Some(ty) => {
                    for parent in type_names(&Some(ty.clone())) {
                        self.types.add(&key, Some(&parent));
                    }
                }
            }
        }
        if !d.types.is_empty() {
            self.need(&[":typing"], file, d.types[0].item.span, "types");
        }
        // Parents must be declared (or be `object`).
        for t in &d.types {
            if let Some(ty) = &t.ty {
                self.check_type(ty, file, false);
            }
        }
        for cycle in self.types.cycles() {
            let span = d
                .types
                .iter()
                .find(|t| cycle.contains(&t.item.key()))
                .map(|t| t.item.span)
                .unwrap_or(d.name.span);
            self.push(
                Diagnostic::new(
                    Code::TypeCycle,
                    format!(
                        "the types {} are each other's ancestors",
                        cycle
                            .iter()
                            .map(|c| format!("`{c}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    span,
                )
                .in_file(file)
                .with_help("a type hierarchy is a tree (or a DAG): remove one parent link"),
            );
        }
        // Constants.
        for c in &d.constants {
            if let Some(ty) = &c.ty {
                self.check_type(ty, file, true);
            }
            let key = c.item.key();
            if let Some(first) = self.constants.get(&key) {
                let (first_span, same) =
                    (first.item.span, type_names(&first.ty) == type_names(&c.ty));
                if same {
                    self.redeclared(
                        "constant",
                        &c.item,
                        first_span,
                        file,
                        "both declarations give it the same type",
                    );
                } else {
                    self.duplicate("constant", &c.item, first_span, file);
                }
            } else {
                self.constants.insert(key, c);
            }
        }
        // Predicates.
        for p in &d.predicates {
            self.parameters(&p.parameters, file, "predicate parameter");
            let key = p.name.key();
            if let Some(first) = self.predicates.get(&key).and_then(|all| all.first()) {
                let first = first.name.span;
                self.redeclared(
                    "predicate",
                    &p.name,
                    first,
                    file,
                    "uses are checked against each declaration",
                );
            }
            self.predicates.entry(key).or_default().push(p);
        }
        // Derived predicates are predicates too, declared or not.
        for s in &d.structures {
            if let Structure::Derived(derived) = s {
                let key = derived.predicate.name.key();
                self.predicates
                    .entry(key.clone())
                    .or_insert_with(|| vec![&derived.predicate]);
                self.added.insert(key);
            }
        }
        // Functions.
        for f in &d.functions {
            self.parameters(&f.parameters, file, "function parameter");
            match &f.ty {
                Some(Type::Name(n)) if n.is("number") => {}
                None => {}
                Some(ty) => {
                    self.check_type(ty, file, true);
                    self.need(
                        &[":object-fluents"],
                        file,
                        f.span,
                        "object-valued functions",
                    );
                }
            }
            let key = f.name.key();
            if let Some(first) = self.functions.get(&key).and_then(|all| all.first()) {
                let first = first.name.span;
                self.redeclared(
                    "function",
                    &f.name,
                    first,
                    file,
                    "uses are checked against each declaration",
                );
            }
            self.functions.entry(key).or_default().push(f);
        }
        // Structure names.
        let mut names: HashMap<String, Span> = HashMap::new();
        for s in &d.structures {
            let name = match s {
                Structure::Action(a) | Structure::Process(a) | Structure::Event(a) => &a.name,
                Structure::DurativeAction(a) => &a.name,
                Structure::Constraint(c) => &c.name,
                Structure::Derived(_) => continue,
            };
            if let Some(first) = names.get(&name.key()) {
                self.duplicate("action", name, *first, file);
            } else {
                names.insert(name.key(), name.span);
            }
        }
        self.name_clashes();
    }

    fn duplicate(&mut self, what: &str, name: &Name, first: Span, file: FileId) {
        self.push(
            Diagnostic::new(
                Code::DuplicateDefinition,
                format!("{what} `{}` is defined twice", name.text),
                name.span,
            )
            .in_file(file)
            .with_label(first, "first defined here")
            .with_help(format!("remove one of the two, or rename this {what}")),
        );
    }

    /// A declaration repeated in a way that loses nothing: a warning.
    fn redeclared(
        &mut self,
        what: &str,
        name: &Name,
        first: Span,
        file: FileId,
        consequence: &str,
    ) {
        self.push(
            Diagnostic::new(
                Code::DuplicateDefinition,
                format!("{what} `{}` is declared twice", name.text),
                name.span,
            )
            .with_severity(crate::diagnostics::Severity::Warning)
            .in_file(file)
            .with_label(first, "first declared here")
            .with_help(format!("{consequence}; keep one declaration")),
        );
    }

    /// PDDL gives predicates and functions one namespace, and constants and types another
    /// each; a predicate that is also a function cannot be told apart in a formula.
    fn name_clashes(&mut self) {
        let mut clashes = Vec::new();
        for (key, fs) in &self.functions {
            if let (Some(f), Some(p)) =
                (fs.first(), self.predicates.get(key).and_then(|p| p.first()))
            {
                clashes.push((f.name.clone(), p.name.span, "function", "predicate"));
            }
        }
        clashes.sort_by_key(|c| c.0.span);
        for (name, other, what, other_what) in clashes {
            self.push(
                Diagnostic::new(
                    Code::NameClash,
                    format!("`{}` is both a {other_what} and a {what}", name.text),
                    name.span,
                )
                .in_file(self.file)
                .with_label(other, format!("the {other_what} is declared here"))
                .with_help(format!("rename the {what} or the {other_what}")),
            );
        }
    }

    /// Checks that every type in `ty` is declared; `constant_like` items may also be typed by
    /// predicates in PDDL 1.x style.
    pub fn check_type(&mut self, ty: &Type, file: FileId, _constant_like: bool) {
        let names: Vec<&Name> = match ty {
            Type::Name(n) => vec![n],
            Type::Either { types, .. } => types.iter().collect(),
        };
        for name in names {
            let key = name.key();
            self.used_types.insert(key.clone());
            if self.types.contains(&key) {
                continue;
            }
            // PDDL 1.x domains use unary predicates as types; accept those.
            if !self.typed
                && self
                    .predicates
                    .get(&key)
                    .is_some_and(|ps| ps.iter().any(|p| p.parameters.len() == 1))
            {
                continue;
            }
            let candidates: Vec<&str> = self.types.names().collect();
            let help = suggest::help(&name.text, &candidates, || {
                if self.typed {
                    format!("declare it in `(:types …)`, e.g. `{} - object`", name.text)
                } else {
                    format!(
                        "declare the types of the domain in `(:types {} …)`",
                        name.text
                    )
                }
            });
            self.push(
                Diagnostic::new(
                    Code::UndefinedType,
                    format!("type `{}` is not declared", name.text),
                    name.span,
                )
                .in_file(file)
                .with_help(help),
            );
        }
    }

    /// Checks the types and the uniqueness of a typed list of variables.
    pub fn parameters(&mut self, params: &[Typed<Variable>], file: FileId, what: &str) {
        // In a declaration the names are placeholders: a repeated one loses nothing.
        let declaration = what.starts_with("predicate") || what.starts_with("function");
        let mut seen: HashMap<String, Span> = HashMap::new();
        for p in params {
            if let Some(ty) = &p.ty {
                self.check_type(ty, file, false);
                self.need(&[":typing"], file, ty.span(), "typed parameters");
            }
            let key = p.item.name.key();
            if let Some(first) = seen.get(&key) {
                let mut diagnostic = Diagnostic::new(
                    Code::DuplicateDefinition,
                    format!("{what} `?{}` is defined twice", p.item.name.text),
                    p.item.span(),
                )
                .in_file(file)
                .with_label(*first, "first defined here")
                .with_help("rename one of the two");
                if declaration {
                    diagnostic = diagnostic.with_severity(crate::diagnostics::Severity::Warning);
                }
                self.push(diagnostic);
            } else {
                seen.insert(key, p.item.span());
            }
        }
    }
}
