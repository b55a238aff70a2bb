//! Diagnostics gathered within a bound while a stage finds them: the first
//! [`MAX_PER_FILE`](super::MAX_PER_FILE) by position are kept and the rest only counted, so that
//! an input with millions of faults costs bounded memory and its report stays readable.

use super::{Diagnostic, LeftOut};
use std::collections::HashSet;
use std::hash::BuildHasher;

/// How many diagnostics are held before the list is cut back to the first
/// [`MAX_PER_FILE`](super::MAX_PER_FILE): a multiple of it, so that cutting back (a sort of this
/// many) happens once per this many new diagnostics.
const CUT_BACK_AT: usize = 8 * super::MAX_PER_FILE;

/// Which diagnostic a stage may still amend (add labels to, change the help of): see
/// [`Bounded::push_amendable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handle(usize);

/// A list of diagnostics that keeps, of everything pushed, the ones [`Bounded::finish`] would
/// show: the first [`MAX_PER_FILE`](super::MAX_PER_FILE) in [`sort`](super::sort) order, one
/// of each, and counts the others for the closing `P019` note.
#[derive(Clone, Debug, Default)]
pub struct Bounded {
    /// Held diagnostics, each with the handle it was pushed under, if any.
    held: Vec<(Diagnostic, Option<Handle>)>,
    /// Where each handle's diagnostic is in `held`; `None` once it was counted out.
    handles: Vec<Option<usize>>,
    left_out: LeftOut,
    /// Fingerprints of the diagnostics counted out, so that a duplicate of one (two walks
    /// meeting the same construct) is not counted twice.
    counted: HashSet<u64, foldhash::fast::RandomState>,
    /// foldhash: seeded per list, and several times faster than SipHash on millions of
    /// diagnostics counted out of a damaged input.
    hasher: foldhash::fast::RandomState,
}

impl Bounded {
    pub fn new() -> Bounded {
        Bounded::default()
    }

    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.held.push((diagnostic, None));
        if self.held.len() >= CUT_BACK_AT {
            self.cut_back();
        }
    }

    /// Pushes a diagnostic that the stage will amend later through [`Bounded::get_mut`].
    pub fn push_amendable(&mut self, diagnostic: Diagnostic) -> Handle {
        let handle = Handle(self.handles.len());
        self.handles.push(Some(self.held.len()));
        self.held.push((diagnostic, Some(handle)));
        if self.held.len() >= CUT_BACK_AT {
            self.cut_back();
        }
        handle
    }

    /// The diagnostic pushed under `handle`, or `None` when it lies past the bound and was
    /// only counted.
    pub fn get_mut(&mut self, handle: Handle) -> Option<&mut Diagnostic> {
        let at = (*self.handles.get(handle.0)?)?;
        self.held.get_mut(at).map(|(diagnostic, _)| diagnostic)
    }

    /// Forgets everything pushed so far.
    pub fn clear(&mut self) {
        *self = Bounded::default();
    }

    /// The diagnostics sorted, one of each, the first [`MAX_PER_FILE`](super::MAX_PER_FILE)
    /// of them and, when there were more, a `P019` note counting the rest.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        let mut kept: Vec<Diagnostic> = self.held.drain(..).map(|(d, _)| d).collect();
        sort_once(&mut kept);
        if !self.counted.is_empty() {
            // A diagnostic equal to one already counted out: shown now, so no longer counted.
            for diagnostic in &kept {
                if self.counted.contains(&self.fingerprint(diagnostic)) {
                    self.left_out.uncount(diagnostic);
                }
            }
        }
        super::cap_counting(&mut kept, self.left_out);
        kept
    }

    /// Sorts what is held, keeps one of each and the first `MAX_PER_FILE`, and counts the rest.
    fn cut_back(&mut self) {
        let mut held = std::mem::take(&mut self.held);
        held.sort_by_key(|(d, _)| super::sort_key(d));
        let mut kept: Vec<(Diagnostic, Option<Handle>)> = Vec::with_capacity(super::MAX_PER_FILE);
        for (diagnostic, handle) in held {
            if let Some(twin) = twin_of(&kept, &diagnostic) {
                // A handle on a duplicate now names the copy that stays.
                if let Some(handle) = handle {
                    self.handles[handle.0] = Some(twin);
                }
                continue;
            }
            if kept.len() < super::MAX_PER_FILE {
                if let Some(handle) = handle {
                    self.handles[handle.0] = Some(kept.len());
                }
                kept.push((diagnostic, handle));
                continue;
            }
            if let Some(handle) = handle {
                self.handles[handle.0] = None;
            }
            if self.counted.insert(self.fingerprint(&diagnostic)) {
                self.left_out.count(&diagnostic);
            }
        }
        self.held = kept;
    }

    fn fingerprint(&self, diagnostic: &Diagnostic) -> u64 {
        self.hasher.hash_one(diagnostic)
    }
}

/// The index in `kept` (sorted) of a diagnostic equal to `diagnostic`: duplicates sit at the
/// same position, among the last ones kept.
fn twin_of(kept: &[(Diagnostic, Option<Handle>)], diagnostic: &Diagnostic) -> Option<usize> {
    let position = |d: &Diagnostic| d.primary().map(|l| (l.file, l.span));
    let at = position(diagnostic);
    kept.iter()
        .enumerate()
        .rev()
        .take_while(|(_, (k, _))| position(k) == at)
        .find(|(_, (k, _))| k == diagnostic)
        .map(|(index, _)| index)
}

/// Sorts diagnostics and keeps one of each: two walks that meet the same construct (a type
/// shared by several parameters, a formula checked in two roles) must not report it twice.
pub fn sort_once(diagnostics: &mut Vec<Diagnostic>) {
    super::sort(diagnostics);
    let mut kept: Vec<Diagnostic> = Vec::with_capacity(diagnostics.len());
    let position = |d: &Diagnostic| d.primary().map(|l| (l.file, l.span));
    for d in diagnostics.drain(..) {
        let duplicate = kept
            .iter()
            .rev()
            .take_while(|k| position(k) == position(&d))
            .any(|k| *k == d);
        if !duplicate {
            kept.push(d);
        }
    }
    *diagnostics = kept;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Span;
    use crate::diagnostics::{Code, MAX_PER_FILE, Severity};

    fn at(start: usize) -> Diagnostic {
        Diagnostic::new(
            Code::UndeclaredPredicate,
            format!("at {start}"),
            Span::new(start, start + 1),
        )
    }

    /// What the bound must equal: everything kept, sorted, deduplicated, then capped.
    fn unbounded(pushed: &[Diagnostic]) -> Vec<Diagnostic> {
        let mut all = pushed.to_vec();
        sort_once(&mut all);
        crate::diagnostics::cap(&mut all);
        all
    }

    #[test]
    fn keeps_what_an_unbounded_list_would_show_and_counts_the_rest() {
        // Out of order, with duplicates, across several cut-backs.
        let pushed: Vec<Diagnostic> = (0..5 * CUT_BACK_AT)
            .map(|i| at((i * 7919) % 3000))
            .map(|d| {
                if d.labels[0].span.start % 3 == 0 {
                    d.with_severity(Severity::Warning)
                } else {
                    d
                }
            })
            .collect();
        let mut bounded = Bounded::new();
        for d in &pushed {
            bounded.push(d.clone());
        }
        let got = bounded.finish();
        assert_eq!(got.len(), MAX_PER_FILE + 1);
        assert_eq!(got, unbounded(&pushed));
    }

    #[test]
    fn a_few_diagnostics_are_all_kept_without_a_note() {
        let mut bounded = Bounded::new();
        for start in [5, 1, 5, 3] {
            bounded.push(at(start));
        }
        let got = bounded.finish();
        let starts: Vec<usize> = got.iter().map(|d| d.labels[0].span.start).collect();
        assert_eq!(starts, [1, 3, 5]);
    }

    #[test]
    fn an_amendable_diagnostic_follows_its_handle_through_cut_backs() {
        let mut bounded = Bounded::new();
        let early = bounded.push_amendable(at(0));
        let late = bounded.push_amendable(at(1_000_000));
        for start in 1..3 * CUT_BACK_AT {
            bounded.push(at(start));
        }
        bounded
            .get_mut(early)
            .expect("the earliest diagnostic is kept")
            .help = Some("amended".to_string());
        assert!(
            bounded.get_mut(late).is_none(),
            "the latest was counted out"
        );
        let got = bounded.finish();
        assert_eq!(got[0].help.as_deref(), Some("amended"));
        let note = got.last().expect("a note");
        assert_eq!(note.code, Code::TooManyDiagnostics);
        let left_out = 3 * CUT_BACK_AT + 1 - MAX_PER_FILE;
        assert!(
            note.message.starts_with(&format!("{left_out} more")),
            "{}",
            note.message
        );
    }
}
