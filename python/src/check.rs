//! `check`: a domain, or a problem against its domain, as `pddlc check` checks them.

use crate::input::{Source, source};
use crate::report::Report;
use pddlc::ast::PddlFile;
use pddlc::check::{self as checker, Profile};
use pddlc::diagnostics::TaskFiles;
use pddlc::diagnostics::{Diagnostic, FileId};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The library's profile, spelled as `pddlc check --profile` spells it.
fn profile(name: &str) -> PyResult<Profile> {
    name.parse().map_err(PyValueError::new_err)
}

/// The diagnostic of an input that could not be decoded, in file `id`.
pub(crate) fn undecodable(input: &Source, id: FileId) -> Vec<Diagnostic> {
    input
        .undecodable
        .iter()
        .map(|d| d.clone().in_file(id))
        .collect()
}

/// Replaces a decoded chat answer by the PDDL in it, as the profile reads answers (as `pddlc
/// check --extract` does): with PDDL's, the rest blanked so that positions are the answer's own.
fn extracted(input: &mut Source, profile: Profile) {
    if input.undecodable.is_none() {
        input.file.text = profile.extract_answer(&input.file.text);
    }
}

/// Checks one input on its own: a domain fully, a problem for its syntax only (with a note).
fn check_one(input: &Source) -> (Vec<Diagnostic>, Option<String>) {
    let Some(text) = input.text() else {
        return (undecodable(input, FileId(0)), None);
    };
    let parsed = pddlc::parse::file(text);
    let mut diagnostics = parsed.diagnostics;
    let mut note = None;
    match &parsed.value {
        Some(PddlFile::Domain(domain)) => diagnostics.extend(checker::domain(domain, FileId(0))),
        Some(PddlFile::Problem(_)) => {
            note = Some("a problem without its domain: only its syntax was checked".to_string())
        }
        None => {}
    }
    (diagnostics, note)
}

/// Checks a domain (file 0) and a problem (file 1) against it, through the library's task layer
/// (as `pddlc validate` loads a task): a problem given as the domain, or the two swapped, is
/// named as such.
fn check_pair(domain: &Source, problem: &Source) -> (Vec<Diagnostic>, Option<String>) {
    let files = TaskFiles::default();
    let parsed_domain = domain.text().map(pddlc::parse::file);
    let parsed_problem = problem.text().map(pddlc::parse::file);
    let checked = pddlc::task::check_parsed(parsed_domain.as_ref(), parsed_problem.as_ref(), files);
    let mut diagnostics = checked.diagnostics;
    diagnostics.extend(undecodable(domain, files.domain));
    diagnostics.extend(undecodable(problem, files.problem));
    let domain_parsed = parsed_domain.is_some_and(|p| p.value.is_some());
    let problem_parsed = parsed_problem.is_some_and(|p| p.value.is_some());
    let note = (!domain_parsed && problem_parsed).then(|| {
        "the domain could not be parsed, so only the problem's syntax was checked".to_string()
    });
    (diagnostics, note)
}

/// Checks a domain, or a problem against its domain, and reports every problem found.
///
/// `domain` and `problem` are PDDL text (`str`, or `bytes` read as UTF-8) or paths
/// (`os.PathLike`). With `profile="tarski"`, the domain is accepted or rejected exactly as
/// tarski 0.8.2 does (Text2World's EXEC); that profile checks domains only. With
/// `extract=True` each input is an LLM's answer: the PDDL in it is checked as `pddlc check
/// --extract` reads it (the fenced block holding `(define`, any fence and info string, prose and
/// CRLF allowed), and the diagnostics name the answer's own lines and columns.
#[pyfunction]
#[pyo3(signature = (domain, problem = None, profile = "pddl", extract = false))]
pub fn check(
    py: Python<'_>,
    domain: &Bound<'_, PyAny>,
    problem: Option<&Bound<'_, PyAny>>,
    profile: &str,
    extract: bool,
) -> PyResult<Report> {
    crate::guarded(|| {
        let profile = self::profile(profile)?;
        if profile == Profile::Tarski && problem.is_some() {
            return Err(PyValueError::new_err(
                "the tarski profile checks domains only: call check(domain, profile=\"tarski\")",
            ));
        }
        let mut domain = source(domain, "domain")?;
        let mut problem = problem.map(|p| source(p, "problem")).transpose()?;
        if extract {
            py.detach(|| {
                extracted(&mut domain, profile);
                if let Some(problem) = problem.as_mut() {
                    extracted(problem, profile);
                }
            });
        }
        let (diagnostics, note) = py.detach(|| match (profile, &problem) {
            (Profile::Tarski, _) => match domain.text() {
                Some(text) => (pddlc::text2world::tarski::check(text), None),
                None => (undecodable(&domain, FileId(0)), None),
            },
            (Profile::Pddl, None) => check_one(&domain),
            (Profile::Pddl, Some(problem)) => check_pair(&domain, problem),
        });
        let mut sources = vec![domain.file];
        sources.extend(problem.map(|p| p.file));
        Ok(Report::new(sources, diagnostics, note))
    })
}
