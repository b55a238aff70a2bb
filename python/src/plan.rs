//! `validate` and `applicable`: plans against a domain and problem, as `pddlc validate` runs
//! them.

use crate::input::{Source, source};
use crate::report::{Diagnostic, Report, render_in};
use crate::value::to_py;
use pddlc::ast::{Domain, Problem};
use pddlc::diagnostics::render::{self, Sources};
use pddlc::diagnostics::{self as diag, FileId, SourceFile, TaskFiles};
use pddlc::validate::{self as validator, PlanRow, ValidateOptions};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::Value;

/// The verdict on a plan: valid or not, the first failing step, the unmet goals, the metric,
/// every failure, and their diagnostics (located on the plan step, and on the precondition or
/// goal). When the domain and problem themselves have errors, nothing is validated: `valid`
/// is None and `diagnostics` holds the task's errors.
#[pyclass(frozen, module = "pddlc")]
pub struct PlanReport {
    report: Option<validator::Report>,
    sources: Vec<SourceFile>,
    diagnostics: Vec<diag::Diagnostic>,
}

impl PlanReport {
    fn new(
        report: Option<validator::Report>,
        sources: Vec<SourceFile>,
        diagnostics: Vec<diag::Diagnostic>,
    ) -> PlanReport {
        PlanReport {
            report,
            sources,
            diagnostics,
        }
    }

    /// The row of `pddlc validate --format json` (the library's typed `PlanRow`), with
    /// `version`.
    fn row(&self) -> Value {
        let sources = Sources::new(&self.sources);
        let name = self.sources.get(2).map_or("", |s| s.name.as_str());
        let row = PlanRow::new(name, self.report.as_ref(), &self.diagnostics, &sources);
        let mut value = serde_json::to_value(row).unwrap_or_default();
        if let Some(object) = value.as_object_mut() {
            object.insert("version".into(), render::JSON_VERSION.into());
        }
        value
    }
}

#[pymethods]
impl PlanReport {
    /// True valid, False invalid, None when no verdict could be given (the task has errors, or
    /// the plan uses what the validator does not support).
    #[getter]
    fn valid(&self) -> Option<bool> {
        self.report.as_ref().and_then(|r| r.valid)
    }

    /// Whether the plan is valid.
    #[getter]
    fn ok(&self) -> bool {
        self.valid() == Some(true)
    }

    /// The number of steps in the plan (0 when nothing was validated).
    #[getter]
    fn steps(&self) -> usize {
        self.report.as_ref().map_or(0, |r| r.steps)
    }

    /// The first step that could not be executed, 1-based.
    #[getter]
    fn failed_step(&self) -> Option<usize> {
        self.report.as_ref().and_then(|r| r.failed_step)
    }

    /// The ground preconditions of the first failed step that do not hold.
    #[getter]
    fn unsatisfied(&self) -> Vec<String> {
        self.report
            .as_ref()
            .map_or_else(Vec::new, |r| r.unsatisfied.clone())
    }

    /// The goals the plan leaves unmet.
    #[getter]
    fn unmet_goals(&self) -> Vec<String> {
        self.report
            .as_ref()
            .map_or_else(Vec::new, |r| r.unmet_goals.clone())
    }

    /// The metric's value after a valid plan (the number of steps when there is no metric).
    #[getter]
    fn metric(&self) -> Option<f64> {
        self.report.as_ref().and_then(|r| r.metric)
    }

    /// Every failure as a dict: `step`, `kind`, `code`, `atoms`, `message`.
    #[getter]
    fn failures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let failures = match &self.report {
            Some(report) => serde_json::to_value(&report.failures).unwrap_or_default(),
            None => Value::Array(Vec::new()),
        };
        to_py(py, &failures)
    }

    /// The failures' diagnostics, or the task's errors when nothing was validated.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        Diagnostic::located(&self.diagnostics, &Sources::new(&self.sources))
    }

    /// The diagnostics as a `Report` (domain, problem and plan are its inputs).
    #[getter]
    fn report(&self) -> Report {
        Report::new(self.sources.clone(), self.diagnostics.clone(), None)
    }

    /// The diagnostics rendered: `"human"`, `"gcc"`, `"val"` or `"json"`.
    #[pyo3(signature = (format = "human", *, color = false, width = 80))]
    fn render(&self, format: &str, color: bool, width: usize) -> PyResult<String> {
        render_in(format, &self.diagnostics, &self.sources, color, width)
    }

    /// The plan's row of `pddlc validate --format json` (with `version`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.row())
    }

    fn __repr__(&self) -> String {
        let valid = match self.valid() {
            Some(true) => "True",
            Some(false) => "False",
            None => "None",
        };
        format!(
            "PlanReport(valid={valid}, steps={}, failed_step={}, failures={})",
            self.steps(),
            self.failed_step()
                .map_or("None".to_string(), |s| s.to_string()),
            self.report.as_ref().map_or(0, |r| r.failures.len())
        )
    }
}

/// The task, parsed and checked by the library's task layer (as `pddlc validate` loads it); or
/// the errors that keep it from being used (file 0 is the domain, file 1 the problem).
pub(crate) fn task(
    domain: &Source,
    problem: &Source,
) -> Result<(Domain, Problem), Vec<diag::Diagnostic>> {
    let files = TaskFiles::default();
    let mut unreadable: Vec<diag::Diagnostic> = Vec::new();
    unreadable.extend(
        domain
            .undecodable
            .iter()
            .map(|d| d.clone().in_file(files.domain)),
    );
    unreadable.extend(
        problem
            .undecodable
            .iter()
            .map(|d| d.clone().in_file(files.problem)),
    );
    match pddlc::task::load(domain.text(), problem.text(), files) {
        Ok(task) if unreadable.is_empty() => Ok((task.domain, task.problem)),
        Ok(_) => Err(unreadable),
        Err(mut diagnostics) => {
            diagnostics.retain(diag::Diagnostic::is_error);
            diagnostics.extend(unreadable);
            diag::sort(&mut diagnostics);
            Err(diagnostics)
        }
    }
}

/// The three inputs and their sources (domain, problem, plan).
fn inputs(
    domain: &Bound<'_, PyAny>,
    problem: &Bound<'_, PyAny>,
    plan: &Bound<'_, PyAny>,
) -> PyResult<(Source, Source, Source)> {
    Ok((
        source(domain, "domain")?,
        source(problem, "problem")?,
        source(plan, "plan")?,
    ))
}

/// What a run gives: a report, or the task's (or the plan text's) errors.
enum Outcome<T> {
    Done(T),
    Failed(Option<validator::Report>, Vec<diag::Diagnostic>),
}

/// Validates `plan` (IPC plan text: one `(action arg…)` a line, optional `t: (…) [d]`) against
/// `domain` and `problem`. With `keep_going=True` the simulation goes on after a failure
/// (applying the step's effects anyway) and reports every one.
#[pyfunction]
#[pyo3(signature = (domain, problem, plan, keep_going = false, tolerance = 0.01))]
pub fn validate(
    py: Python<'_>,
    domain: &Bound<'_, PyAny>,
    problem: &Bound<'_, PyAny>,
    plan: &Bound<'_, PyAny>,
    keep_going: bool,
    tolerance: f64,
) -> PyResult<PlanReport> {
    crate::guarded(|| {
        if !(tolerance.is_finite() && tolerance >= 0.0) {
            return Err(PyValueError::new_err(format!(
                "`tolerance` must be a finite number of at least 0, not {tolerance}"
            )));
        }
        let (domain, problem, plan) = inputs(domain, problem, plan)?;
        let outcome = py.detach(|| {
            let (d, p) = match task(&domain, &problem) {
                Ok(task) => task,
                Err(errors) => return Outcome::Failed(None, errors),
            };
            let Some(text) = plan.text() else {
                let d = plan
                    .undecodable
                    .iter()
                    .map(|d| d.clone().in_file(FileId(2)));
                return Outcome::Failed(None, d.collect());
            };
            let options = ValidateOptions {
                keep_going,
                tolerance,
                files: TaskFiles::default(),
            };
            Outcome::Done(validator::validate(&d, &p, text, &options))
        });
        let sources = vec![domain.file, problem.file, plan.file];
        Ok(match outcome {
            Outcome::Done(report) => {
                let diagnostics = report.diagnostics().cloned().collect();
                PlanReport::new(Some(report), sources, diagnostics)
            }
            Outcome::Failed(report, diagnostics) => PlanReport::new(report, sources, diagnostics),
        })
    })
}

/// The ground actions applicable after the plan prefix `prefix` (in the initial state when it
/// is empty), as `"(action obj…)"`, sorted. When the task has errors or the prefix cannot be
/// executed, the `PlanReport` that says why is returned instead.
#[pyfunction]
#[pyo3(signature = (domain, problem, prefix = None))]
pub fn applicable(
    py: Python<'_>,
    domain: &Bound<'_, PyAny>,
    problem: &Bound<'_, PyAny>,
    prefix: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        let domain = source(domain, "domain")?;
        let problem = source(problem, "problem")?;
        let prefix = match prefix {
            Some(p) => source(p, "prefix")?,
            None => crate::input::from_bytes("<prefix>".into(), Vec::new()),
        };
        let outcome = py.detach(|| {
            let (d, p) = match task(&domain, &problem) {
                Ok(task) => task,
                Err(errors) => return Outcome::Failed(None, errors),
            };
            let Some(text) = prefix.text() else {
                let d = prefix
                    .undecodable
                    .iter()
                    .map(|d| d.clone().in_file(FileId(2)));
                return Outcome::Failed(None, d.collect());
            };
            match validator::applicable(&d, &p, text) {
                Ok(actions) => Outcome::Done(actions),
                Err(report) => {
                    let diagnostics = report.diagnostics().cloned().collect();
                    Outcome::Failed(Some(*report), diagnostics)
                }
            }
        });
        let sources = vec![domain.file, problem.file, prefix.file];
        match outcome {
            Outcome::Done(actions) => Ok(actions.into_pyobject(py)?.into_any().unbind()),
            Outcome::Failed(report, diagnostics) => {
                Ok(Py::new(py, PlanReport::new(report, sources, diagnostics))?.into_any())
            }
        }
    })
}
