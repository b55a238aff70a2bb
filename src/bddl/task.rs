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
/// the taxonomy when given. For many files, [`Shipped::check_file`] reads the shipped data once.
pub fn check_file(
    file: &BddlFile,
    domains: &[&BddlDomain],
    hierarchy: Option<&Synsets>,
    path: Option<&str>,
) -> (Vec<Diagnostic>, Checked) {
    Shipped::new().check_file(file, domains, hierarchy, path)
}

/// The shipped iGibson domain and BEHAVIOR-100 taxonomy, read once for checking many files.
#[derive(Clone, Debug)]
pub struct Shipped {
    igibson: Vocabulary,
    synsets: Synsets,
}

impl Default for Shipped {
    fn default() -> Self {
        Shipped::new()
    }
}

impl Shipped {
    pub fn new() -> Shipped {
        Shipped {
            igibson: Vocabulary::igibson(),
            synsets: Synsets::embedded(),
        }
    }

    /// [`check_file`] with the shipped data read already.
    pub fn check_file(
        &self,
        file: &BddlFile,
        domains: &[&BddlDomain],
        hierarchy: Option<&Synsets>,
        path: Option<&str>,
    ) -> (Vec<Diagnostic>, Checked) {
        let BddlFile::Problem(problem) = file else {
            let context = context_for(&self.igibson, &self.synsets, None);
            return (check(file, &context), Checked::default());
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
        let owned;
        let vocabulary = match given {
            Some(index) => {
                owned = Vocabulary::of_domain(domains[index]);
                &owned
            }
            None if named == "igibson" => &self.igibson,
            None => {
                // Only without any domain given.
                notes.push(format!(
                    "domain {named} is not given: predicates are not checked"
                ));
                owned = Vocabulary::unknown(&named);
                &owned
            }
        };
        let none = Synsets::default();
        let for_igibson =
            named == "igibson" || given.is_some_and(|d| domains[d].name.is("igibson"));
        let synsets = match hierarchy {
            Some(hierarchy) => hierarchy,
            None if for_igibson => &self.synsets,
            None => {
                notes.push("no taxonomy is shipped for it: synsets are not checked".into());
                &none
            }
        };
        let activity = path.and_then(super::activity_of_path);
        let activity = activity.as_ref().map(|(a, n)| (a.as_str(), *n));
        let found = check(file, &context_for(vocabulary, synsets, activity));
        let note = (!notes.is_empty()).then(|| notes.join("; "));
        (
            found,
            Checked {
                domain: given,
                note,
            },
        )
    }
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
