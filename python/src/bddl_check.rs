//! BDDL for Python: `bddl_check`, `bddl_format` and `bddl_compare`, through the library's front
//! doors (`bddl::check_file`, `fmt::bddl`, `bddl::compare_with`), as `pddlc check`, `pddlc fmt`
//! and `pddlc bddl compare` do.

use crate::check::undecodable;
use crate::input::source;
use crate::report::Report;
use pddlc::ast::bddl::{BddlDomain, BddlFile};
use pddlc::bddl::{self, Comparison, Matching, Mode, StepMatcher, Synsets};
use pddlc::diagnostics::{Diagnostic, FileId};
use pddlc::fmt::PrintOptions;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;

/// Checks a BDDL problem (or domain) as `pddlc check` checks a `.bddl` file: against `domain`
/// (a BDDL domain) when given, else the shipped iGibson domain for `igibson` problems; synsets
/// against `hierarchy` (bddl's `hierarchy_*.json` text) when given. A path as `problem` names
/// its activity (`…/<activity>/problem<n>.bddl`) for the problem-name check.
#[pyfunction]
#[pyo3(signature = (problem, domain = None, hierarchy = None))]
pub fn bddl_check(
    py: Python<'_>,
    problem: &Bound<'_, PyAny>,
    domain: Option<&Bound<'_, PyAny>>,
    hierarchy: Option<&str>,
) -> PyResult<Report> {
    crate::guarded(|| {
        let problem = source(problem, "problem")?;
        let domain = domain.map(|d| source(d, "domain")).transpose()?;
        let synsets = hierarchy
            .map(|text| Synsets::from_hierarchy_json(text, None))
            .transpose()
            .map_err(|d| PyValueError::new_err(format!("hierarchy: {}", d.message)))?;
        let (diagnostics, note) = py.detach(|| {
            let mut diagnostics = undecodable(&problem, FileId(0));
            let parsed_domain = domain
                .as_ref()
                .and_then(|d| d.text())
                .map(pddlc::parse::bddl);
            if let Some(domain) = &domain {
                diagnostics.extend(undecodable(domain, FileId(1)));
            }
            if let Some(parsed) = &parsed_domain {
                diagnostics.extend(
                    parsed
                        .diagnostics
                        .iter()
                        .map(|d| d.clone().in_file(FileId(1))),
                );
            }
            let domains: Vec<&BddlDomain> =
                match parsed_domain.as_ref().and_then(|p| p.value.as_ref()) {
                    Some(BddlFile::Domain(domain)) => vec![domain],
                    _ => Vec::new(),
                };
            let mut note = None;
            if let Some(text) = problem.text() {
                let parsed = pddlc::parse::bddl(text);
                diagnostics.extend(parsed.diagnostics);
                if let Some(file) = &parsed.value {
                    let path = Some(problem.file.name.as_str());
                    let (found, checked) = bddl::check_file(file, &domains, synsets.as_ref(), path);
                    diagnostics.extend(found);
                    note = checked.note;
                }
            }
            pddlc::diagnostics::sort(&mut diagnostics);
            (diagnostics, note)
        });
        let mut sources = vec![problem.file];
        sources.extend(domain.map(|d| d.file));
        Ok(Report::new(sources, diagnostics, note))
    })
}

/// Formats BDDL text canonically (comments kept), as `pddlc fmt` formats a `.bddl` file. A
/// text with syntax errors is not formatted: its `Report` is returned instead.
#[pyfunction]
#[pyo3(signature = (text, *, width = 80))]
pub fn bddl_format(py: Python<'_>, text: &Bound<'_, PyAny>, width: usize) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        let input = source(text, "input")?;
        let Some(text) = input.text() else {
            let report = Report::new(
                vec![input.file.clone()],
                undecodable(&input, FileId(0)),
                None,
            );
            return Ok(Py::new(py, report)?.into_any());
        };
        let (diagnostics, printed) = py.detach(|| {
            let parsed = pddlc::parse::bddl(text);
            let clean = !parsed.diagnostics.iter().any(|d| d.is_error());
            let options = PrintOptions {
                width,
                comments_from: Some(text),
            };
            let printed = parsed
                .value
                .as_ref()
                .filter(|_| clean)
                .map(|file| pddlc::fmt::bddl(file, &options));
            (parsed.diagnostics, printed)
        });
        match printed {
            Some(printed) => Ok(printed.into_pyobject(py)?.into_any().unbind()),
            None => Ok(Py::new(py, Report::new(vec![input.file], diagnostics, None))?.into_any()),
        }
    })
}

/// A Python callable as the step relation: `similarity(gold, predicted)` returning a bool, or
/// a number compared with `threshold`. Each distinct pair of steps is asked once; the first
/// exception stops asking and is raised after the comparison.
struct PythonMatcher<'py> {
    similarity: Bound<'py, PyAny>,
    threshold: f64,
    asked: RefCell<HashMap<(String, String), bool>>,
    error: RefCell<Option<PyErr>>,
}

impl StepMatcher for PythonMatcher<'_> {
    fn matches(&self, gold: &str, predicted: &str) -> bool {
        if self.error.borrow().is_some() {
            return false;
        }
        let key = (gold.to_string(), predicted.to_string());
        if let Some(known) = self.asked.borrow().get(&key) {
            return *known;
        }
        let answer = self.similarity.call1((gold, predicted)).and_then(|value| {
            if let Ok(flag) = value.extract::<bool>() {
                Ok(flag)
            } else {
                value
                    .extract::<f64>()
                    .map(|number| number >= self.threshold)
            }
        });
        match answer {
            Ok(answer) => {
                self.asked.borrow_mut().insert(key, answer);
                answer
            }
            Err(error) => {
                *self.error.borrow_mut() = Some(error);
                false
            }
        }
    }
}

/// ActPlan-1K's plan metric, as `pddlc bddl compare`: the LCS of the two plans' steps over
/// the longer plan. `match` is `"exact"`, `"normalised"` or a callable
/// `similarity(gold_step, predicted_step)` returning a bool or a number (a match when it is
/// at least `threshold`; the paper's MiniLM cosine at 0.8). `gold=None` is scored as the
/// reference script does in `mode="compat"` (the candidate against itself) and refused
/// otherwise. Returns the comparison as a dict (the CLI's JSON row).
#[pyfunction]
#[pyo3(signature = (gold, predicted, *, mode = "default", r#match = None, threshold = 0.8))]
pub fn bddl_compare(
    py: Python<'_>,
    gold: Option<&str>,
    predicted: &str,
    mode: &str,
    r#match: Option<&Bound<'_, PyAny>>,
    threshold: f64,
) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        let mode: Mode = mode.parse().map_err(PyValueError::new_err)?;
        let comparison: Result<Comparison, Diagnostic> = match r#match {
            Some(callable) if callable.is_callable() => {
                let matcher = PythonMatcher {
                    similarity: callable.clone(),
                    threshold,
                    asked: RefCell::new(HashMap::new()),
                    error: RefCell::new(None),
                };
                let comparison = bddl::compare_with(gold, predicted, mode, &matcher);
                if let Some(error) = matcher.error.into_inner() {
                    return Err(error);
                }
                comparison
            }
            Some(word) => {
                let word: String = word.extract()?;
                let matching: Matching = word.parse().map_err(PyValueError::new_err)?;
                py.detach(|| bddl::compare(gold, predicted, mode, matching))
            }
            None => py.detach(|| bddl::compare(gold, predicted, mode, Matching::Exact)),
        };
        let comparison = comparison.map_err(|d| PyValueError::new_err(d.message))?;
        let value =
            serde_json::to_value(&comparison).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(crate::value::to_py(py, &value)?.unbind())
    })
}
