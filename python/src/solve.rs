//! `solve`: the built-in planner, as `pddlc solve` runs it, through the library's task layer.

use crate::input::{Source, source};
use crate::report::{Diagnostic, Report};
use crate::value::to_py;
use pddlc::diagnostics::render::Sources;
use pddlc::diagnostics::{self as diag, SourceFile, TaskFiles};
use pddlc::solve::{self as planner, Answer, Options, SolveRow};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::time::Duration;

/// The planner's answer: `status` is `"solved"` (with `plan` and `cost`), `"unsolvable"` (with
/// `reason`, the proof in words), `"unknown"` (a limit was reached), or None when the task
/// could not be used (its `diagnostics` say why).
#[pyclass(frozen, module = "pddlc")]
pub struct Solution {
    answer: Option<Answer>,
    sources: Vec<SourceFile>,
    diagnostics: Vec<diag::Diagnostic>,
}

impl Solution {
    fn row(&self) -> serde_json::Value {
        let sources = Sources::new(&self.sources);
        let row = match &self.answer {
            Some(answer) => SolveRow::answer(answer, &sources, None, None),
            None => SolveRow::unusable(&self.diagnostics, &sources),
        };
        serde_json::to_value(row).unwrap_or_default()
    }
}

#[pymethods]
impl Solution {
    /// `"solved"`, `"unsolvable"`, `"unknown"`, or None when no search ran.
    #[getter]
    fn status(&self) -> Option<&'static str> {
        self.answer.as_ref().map(|a| planner::status(&a.outcome))
    }

    /// Whether a plan was found.
    #[getter]
    fn ok(&self) -> bool {
        self.status() == Some("solved")
    }

    /// The plan's steps, `"(action arg…)"`, when solved.
    #[getter]
    fn plan(&self) -> Option<Vec<String>> {
        match self.answer.as_ref().map(|a| &a.outcome) {
            Some(planner::Outcome::Solved { plan, .. }) => Some(plan.clone()),
            _ => None,
        }
    }

    /// The plan's cost (its length when the task has no action costs), when solved.
    #[getter]
    fn cost(&self) -> Option<u64> {
        match self.answer.as_ref().map(|a| &a.outcome) {
            Some(planner::Outcome::Solved { cost, .. }) => Some(*cost),
            _ => None,
        }
    }

    /// Why the task is unsolvable, in words, when it is.
    #[getter]
    fn reason(&self) -> Option<String> {
        match self.answer.as_ref().map(|a| &a.outcome) {
            Some(planner::Outcome::Unsolvable(proof)) => Some(proof.to_string()),
            _ => None,
        }
    }

    /// The plan in IPC format, as `pddlc solve` prints it, when solved.
    fn plan_text(&self) -> Option<String> {
        let answer = self.answer.as_ref()?;
        match &answer.outcome {
            planner::Outcome::Solved { plan, cost } => {
                Some(planner::plan_text(plan, *cost, answer.action_costs))
            }
            _ => None,
        }
    }

    /// The task's diagnostics: why it could not be used, or the warnings an answer rests on
    /// (`S503`: action instances left out because their cost has no value).
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        Diagnostic::located(&self.diagnostics, &Sources::new(&self.sources))
    }

    /// The diagnostics as a `Report` (domain and problem are its inputs).
    #[getter]
    fn report(&self) -> Report {
        Report::new(self.sources.clone(), self.diagnostics.clone(), None)
    }

    /// The document of `pddlc solve --format json` (without the process's peak memory).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.row())
    }

    fn __repr__(&self) -> String {
        format!(
            "Solution(status={}, cost={})",
            self.status()
                .map_or("None".to_string(), |s| format!("{s:?}")),
            self.cost().map_or("None".to_string(), |c| c.to_string())
        )
    }
}

/// Finds a plan for `problem` in `domain` with the built-in planner, or proves there is none, as
/// `pddlc solve` does (same option names: `time_limit` in seconds, `memory_limit` in MB,
/// `optimal`, and `from_` a plan prefix to continue from).
#[pyfunction]
#[pyo3(signature = (domain, problem, *, time_limit = None, memory_limit = None, optimal = false, from_ = None))]
pub fn solve(
    py: Python<'_>,
    domain: &Bound<'_, PyAny>,
    problem: &Bound<'_, PyAny>,
    time_limit: Option<f64>,
    memory_limit: Option<u64>,
    optimal: bool,
    from_: Option<&Bound<'_, PyAny>>,
) -> PyResult<Solution> {
    crate::guarded(|| {
        let mut options = Options {
            optimal,
            ..Options::default()
        };
        if let Some(seconds) = time_limit {
            if !(seconds.is_finite() && seconds > 0.0) {
                return Err(PyValueError::new_err(format!(
                    "`time_limit` must be a positive number of seconds, not {seconds}"
                )));
            }
            options.time_limit = Some(Duration::from_secs_f64(seconds));
        }
        if let Some(mb) = memory_limit {
            if mb == 0 {
                return Err(PyValueError::new_err(
                    "`memory_limit` must be at least 1 MB",
                ));
            }
            options.memory_limit = Some((mb as usize).saturating_mul(1 << 20));
        }
        let domain = source(domain, "domain")?;
        let problem = source(problem, "problem")?;
        let prefix = from_.map(|p| source(p, "from_")).transpose()?;
        let (answer, diagnostics) = py.detach(|| run(&domain, &problem, prefix.as_ref(), options));
        let mut sources = vec![domain.file, problem.file];
        sources.extend(prefix.map(|p| p.file));
        Ok(Solution {
            answer,
            sources,
            diagnostics,
        })
    })
}

/// The task through the task layer (as `validate` loads it), then the planner.
fn run(
    domain: &Source,
    problem: &Source,
    prefix: Option<&Source>,
    mut options: Options,
) -> (Option<Answer>, Vec<diag::Diagnostic>) {
    if let Some(prefix) = prefix {
        if let Some(undecodable) = &prefix.undecodable {
            return (
                None,
                vec![undecodable.clone().in_file(TaskFiles::default().plan)],
            );
        }
        options.prefix = prefix.text().map(str::to_string);
    }
    let (domain, problem) = match crate::plan::task(domain, problem) {
        Ok(task) => task,
        Err(diagnostics) => return (None, diagnostics),
    };
    match planner::solve(&domain, &problem, &options, &mut |_| {}) {
        Ok(answer) => {
            let warnings = answer.warnings.clone();
            (Some(answer), warnings)
        }
        Err(diagnostics) => (None, diagnostics),
    }
}
