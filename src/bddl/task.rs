//! One front door for checking BDDL files, which the CLI, the language server and Python all
//! call: a problem is checked against the BDDL domain among the given ones that its
//! `(:domain …)` names, else the shipped iGibson domain for `igibson` (or no `:domain`), else
//! with its predicates unchecked; its synsets against the given taxonomy, else the shipped
//! BEHAVIOR-100 one for iGibson problems, else not at all. Each "not checked" is a note.

use super::check::{CheckContext, check};
use super::vocabulary::{Synsets, Vocabulary};
use crate::ast::bddl::{BddlDomain, BddlFile, ProblemSection};
use crate::diagnostics::Diagnostic;

/// What a BDDL file was checked against.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// The position, among the domains given, of the one a problem was checked against.
    pub domain: Option<usize>,
    /// What was not checked, and why.
    pub note: Option<String>,
}

/// Checks `file` (at `path`, when it has one: `…/<activity>/problem<n>.bddl` gives the name it
/// should have) against the first of `domains` its `(:domain …)` names, with `hierarchy` as
/// the taxonomy when given.
pub fn check_file(
    file: &BddlFile,
    domains: &[&BddlDomain],
    hierarchy: Option<&Synsets>,
    path: Option<&str>,
) -> (Vec<Diagnostic>, Checked) {
    let BddlFile::Problem(problem) = file else {
        let found = check(
            file,
            &context_for(&Vocabulary::igibson(), &Synsets::default(), None),
        );
        return (found, Checked::default());
    };
    let named = problem
        .sections
        .iter()
        .find_map(|s| match s {
            ProblemSection::Domain {
                name: Some(name), ..
            } => Some(name.as_str().to_lowercase()),
            _ => None,
        })
        .unwrap_or_else(|| "igibson".into());
    // A problem naming a domain none of the given is named checks against the first given
    // (the reference compares the name with its simulator's domain and fails: B721).
    let given = domains
        .iter()
        .position(|d| d.name.is(&named))
        .or((!domains.is_empty()).then_some(0));
    let mut notes = Vec::new();
    let vocabulary = match given {
        Some(index) => Vocabulary::of_domain(domains[index]),
        None if named == "igibson" => Vocabulary::igibson(),
        None => {
            // Only without any domain given.
            notes.push(format!(
                "domain {named} is not given: predicates are not checked"
            ));
            Vocabulary::unknown(&named)
        }
    };
    let shipped;
    let synsets = match hierarchy {
        Some(hierarchy) => hierarchy,
        None if named == "igibson" || given.is_some_and(|d| domains[d].name.is("igibson")) => {
            shipped = Synsets::embedded();
            &shipped
        }
        None => {
            notes.push("no taxonomy is shipped for it: synsets are not checked".into());
            shipped = Synsets::default();
            &shipped
        }
    };
    let activity = path.and_then(super::activity_of_path);
    let activity = activity.as_ref().map(|(a, n)| (a.as_str(), *n));
    let found = check(file, &context_for(&vocabulary, synsets, activity));
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    (
        found,
        Checked {
            domain: given,
            note,
        },
    )
}

fn context_for<'c>(
    vocabulary: &'c Vocabulary,
    synsets: &'c Synsets,
    activity: Option<(&'c str, usize)>,
) -> CheckContext<'c> {
    CheckContext {
        vocabulary,
        synsets,
        activity,
    }
}
