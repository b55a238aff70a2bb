//! Semantic checks of domains and problems.
//!
//! `check::domain` and `check::problem` take parsed ASTs and return diagnostics; they never
//! fail. Severities follow the PDDL definition and the IPC corpora's practice: every corpus file
//! checks without errors (see docs/diagnostics.md for each decision).

mod declarations;
mod domain;
mod effects;
mod expressions;
mod goals;
mod problem;
mod requirements;
mod suggest;
pub mod types;
mod usage;

use crate::ast::{Domain, PddlFile, Problem};

/// The checker's maps and sets: foldhash, several times faster than the standard SipHash on the
/// short names a task is made of, and seeded per map so hostile names cannot force collisions.
type Map<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
type Set<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;
use crate::diagnostics::{Diagnostic, FileId};
use domain::Checker;

/// The candidate closest to `name`, when it is close enough to be a likely typo.
pub fn suggest_name<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    suggest::closest(name, candidates.iter().copied())
}

/// Every flag `flag` (such as `:adl`) implies, directly or through others, sorted; empty for a
/// flag that implies nothing or is unknown.
pub fn requirement_implies(flag: &str) -> Vec<String> {
    let lower = flag.to_ascii_lowercase();
    let closure = requirements::Requirements::new([lower.as_str()]);
    requirements::KNOWN
        .iter()
        .filter(|k| **k != lower && closure.allows(k))
        .map(|k| k.to_string())
        .collect()
}

/// Every requirement flag pddlc knows, with its colon (`:strips`, `:typing`, …).
pub fn known_requirements() -> &'static [&'static str] {
    requirements::KNOWN
}

/// Whether `flag` (such as `:adl`) is a requirement flag pddlc knows.
pub fn is_known_requirement(flag: &str) -> bool {
    requirements::is_known(flag)
}

/// Which inputs the labels of a check point into.
#[derive(Clone, Copy, Debug)]
pub struct Files {
    pub domain: FileId,
    pub problem: FileId,
}

impl Default for Files {
    fn default() -> Files {
        Files {
            domain: FileId(0),
            problem: FileId(1),
        }
    }
}

/// Checks a domain on its own: names, arities, types, variables, requirements, duplicates, and
/// warnings for what is declared but unused.
pub fn domain(domain: &Domain, file: FileId) -> Vec<Diagnostic> {
    crate::parse::with_stack(|| {
        let mut checker = Checker::new(domain, file);
        checker.structures();
        let declared = checker.requirements.clone();
        let declares_any = checker.declares_requirements;
        checker.requirement_diagnostics(&declared, declares_any, false);
        checker.unused();
        let mut diagnostics = checker.diagnostics;
        once(&mut diagnostics);
        diagnostics
    })
}

/// Checks a problem against its domain. Returns only the problem's diagnostics; check the
/// domain itself with [`domain`].
pub fn problem(domain: &Domain, problem: &Problem, files: Files) -> Vec<Diagnostic> {
    crate::parse::with_stack(|| {
        let mut diagnostics = problem::check(domain, problem, files);
        once(&mut diagnostics);
        diagnostics
    })
}

/// Parses a problem and checks it against `domain` in one pass over its text: when the fast
/// path reads the initial facts and the goal, each is checked as it is read and dropped, so a
/// problem of millions of facts is never held in memory. Returns the parse, whose tree holds
/// everything but those facts and that goal, and the problem's diagnostics (those of
/// [`problem`], not the parse's), or `None` when the text is not a problem.
///
/// The diagnostics equal those of [`problem`] on the whole tree (`tests/streaming_check.rs`
/// compares both on every corpus problem).
pub fn problem_source(
    domain: &Domain,
    source: &str,
    files: Files,
) -> (
    crate::parse::Parsed<Option<PddlFile>>,
    Option<Vec<Diagnostic>>,
) {
    crate::parse::with_stack(|| {
        let mut check = problem::ProblemCheck::new(domain, files);
        let parsed = crate::parse::file_streaming(source, &mut check);
        let Some(PddlFile::Problem(tree)) = &parsed.value else {
            return (parsed, None);
        };
        if let Some(mut diagnostics) = check.finish(tree) {
            once(&mut diagnostics);
            return (parsed, Some(diagnostics));
        }
        // A goal literal that only the initial state decides, and the facts went by: check
        // the whole tree.
        let parsed = crate::parse::file(source);
        let diagnostics = match &parsed.value {
            Some(PddlFile::Problem(tree)) => Some(problem(domain, tree, files)),
            _ => None,
        };
        (parsed, diagnostics)
    })
}

/// Sorts the diagnostics and keeps one of each: two walks that meet the same construct (a type
/// shared by several parameters, a formula checked in two roles) must not report it twice.
fn once(diagnostics: &mut Vec<Diagnostic>) {
    crate::diagnostics::sort(diagnostics);
    let mut kept: Vec<Diagnostic> = Vec::with_capacity(diagnostics.len());
    for d in diagnostics.drain(..) {
        // Sorted by primary position, so a duplicate sits among the last ones at that position.
        let position = |d: &Diagnostic| d.primary().map(|l| (l.file, l.span));
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
    use crate::diagnostics::Code;

    fn codes(domain: &str) -> Vec<(Code, usize)> {
        let parsed = crate::parse::domain(domain);
        let domain = parsed.value.expect("the domain parses");
        super::domain(&domain, crate::diagnostics::FileId(0))
            .iter()
            .map(|d| (d.code, d.labels.len()))
            .collect()
    }

    #[test]
    fn one_undeclared_type_is_one_error_with_a_label_per_use() {
        let domain = "(define (domain d) (:requirements :typing) (:types t)
            (:predicates (p ?x - t) (q ?x ?y - foo))
            (:action a :parameters (?x ?y - foo) :precondition (q ?x ?y) :effect (p ?x)))";
        let found = codes(domain);
        let c107: Vec<_> = found
            .iter()
            .filter(|(c, _)| *c == Code::UndefinedType)
            .collect();
        assert_eq!(c107, [&(Code::UndefinedType, 2)], "{found:?}");
    }
}
