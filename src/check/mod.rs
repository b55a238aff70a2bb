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
pub(crate) mod types;
mod usage;

use crate::ast::{Domain, Problem};
use crate::diagnostics::{Diagnostic, FileId};
use domain::Checker;

/// The candidate closest to `name`, when it is close enough to be a likely typo.
pub fn suggest_name<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    suggest::closest(name, candidates.iter().copied())
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
        crate::diagnostics::sort(&mut diagnostics);
        diagnostics
    })
}

/// Checks a problem against its domain. Returns only the problem's diagnostics; check the
/// domain itself with [`domain`].
pub fn problem(domain: &Domain, problem: &Problem, files: Files) -> Vec<Diagnostic> {
    crate::parse::with_stack(|| {
        let mut diagnostics = problem::check(domain, problem, files);
        crate::diagnostics::sort(&mut diagnostics);
        diagnostics
    })
}
