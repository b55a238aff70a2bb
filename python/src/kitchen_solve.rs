//! `kitchen.solve`: a kitchen task compiled, solved by the built-in planner, its plan translated
//! to Simmer's format and run in strict mode, through the library's `kitchen::solve_task`, as
//! `pddlc kitchen solve` does it.

use crate::input::{Source, source};
use crate::kitchen::{KitchenFailure, TaskInput, env, input_report, report_object, task_goal};
use crate::report::Report;
use crate::value::to_py;
use pddlc::diagnostics::SourceFile;
use pddlc::kitchen::{self, Flavour, SolveError, SolveOptions, World};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// What became of one kitchen task: its status, the plan in Simmer's format and in PDDL,
/// strict mode's verdict on it, and why there is none when there is none.
#[pyclass(frozen, module = "pddlc")]
pub struct KitchenSolution {
    row: Value,
}

#[pymethods]
impl KitchenSolution {
    /// The task's name (`"008"`).
    #[getter]
    fn task(&self) -> &str {
        self.row["task"].as_str().unwrap_or_default()
    }

    /// `"solved"`, `"unsolvable"` or `"unknown"`.
    #[getter]
    fn status(&self) -> &str {
        self.row["status"].as_str().unwrap_or_default()
    }

    /// The plan's steps in Simmer's format (`"1. [OPEN] <fridge> (1)"`), when solved.
    #[getter]
    fn plan(&self) -> Option<Vec<String>> {
        strings(&self.row["plan"])
    }

    /// The plan's steps in the compiled domain's PDDL (`"(open fridge_1)"`), when solved.
    #[getter]
    fn pddl_plan(&self) -> Option<Vec<String>> {
        strings(&self.row["pddl_plan"])
    }

    /// Whether the task was solved and its plan ran without a failure in strict mode.
    #[getter]
    fn clean(&self) -> bool {
        self.row["clean"].as_bool().unwrap_or_default()
    }

    /// Strict mode's failures of the plan found (empty when none was found).
    #[getter]
    fn failures(&self) -> Vec<KitchenFailure> {
        KitchenFailure::list(&self.row["strict"]["failures"])
    }

    /// Why there is no plan: the goal file's reason, or the planner's proof in words.
    #[getter]
    fn reason(&self) -> Option<&str> {
        self.row["reason"].as_str()
    }

    /// The planner's counts and times, and the whole task's time (`total_seconds`).
    #[getter]
    fn statistics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.row["statistics"])
    }

    /// The task's row of `pddlc kitchen solve --format json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.row)
    }

    fn __repr__(&self) -> String {
        format!(
            "KitchenSolution(task={:?}, status={:?}, clean={})",
            self.task(),
            self.status(),
            if self.clean() { "True" } else { "False" }
        )
    }
}

/// A JSON list of strings, or `None` for anything else (`null`).
fn strings(value: &Value) -> Option<Vec<String>> {
    value.as_array().map(|items| {
        items
            .iter()
            .filter_map(|item| item.as_str().map(str::to_string))
            .collect()
    })
}

/// Solves a kitchen task as `pddlc kitchen solve` does: `task` is a built-in task (its
/// environment, and its goal unless `goal` is given), or `env` an environment with `goal` its
/// task goal (TOML, as in `domains/kitchen/tasks/`). `time_limit` is in seconds of wall time.
/// Returns a `KitchenSolution`, or a `Report` when an input cannot be used or the planner
/// refuses the task.
#[pyfunction]
#[pyo3(signature = (task = None, env = None, goal = None, time_limit = 60.0))]
pub fn kitchen_solve(
    py: Python<'_>,
    task: Option<&str>,
    env: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
    time_limit: f64,
) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        if !(time_limit.is_finite() && time_limit > 0.0) {
            return Err(PyValueError::new_err(format!(
                "`time_limit` must be a positive number of seconds, not {time_limit}"
            )));
        }
        let input = TaskInput::required(task, env)?;
        let goal = match goal {
            Some(goal) => source(goal, "goal")?,
            None => input.builtin_goal().ok_or_else(|| {
                PyValueError::new_err(
                    "`goal` is needed: the task has no built-in goal to plan for (domains/kitchen/tasks/NNN.toml shows the format)",
                )
            })?,
        };
        let name = task_name(&input);
        let options = SolveOptions {
            time_limit: Some(Duration::from_secs_f64(time_limit)),
            clock: None,
        };
        let result = py.detach(move || solve(&name, input.env, goal, &options));
        match result {
            Ok(row) => Ok(Py::new(py, KitchenSolution { row })?.into_any()),
            Err(report) => report_object(py, report),
        }
    })
}

/// The task's name: the built-in task's number, else the environment file's (`env_004.json`
/// is task 004, as the CLI names it), else `task`.
fn task_name(input: &TaskInput) -> String {
    if let Some(task) = input.task {
        return task.id.to_string();
    }
    let name = &input.env.file.name;
    match Path::new(name).file_stem() {
        Some(stem) if !name.starts_with('<') => {
            kitchen::task_of_env_file(&stem.to_string_lossy()).to_string()
        }
        _ => "task".to_string(),
    }
}

/// The task solved, as its JSON row with the time it took; or the report on why it cannot be.
fn solve(task: &str, env: Source, goal: Source, options: &SolveOptions) -> Result<Value, Report> {
    let started = Instant::now();
    let world = World::embedded();
    let (env, _) = self::env(&world, env)?;
    let (goal, _) = task_goal(goal)?;
    let domain = kitchen::compile_domain(&world, Flavour::Planning);
    let (file, text, diagnostics) =
        match kitchen::solve_task(&world, &domain, &env, &goal, task, options) {
            Ok(solution) => {
                let seconds = started.elapsed().as_secs_f64();
                return Ok(serde_json::to_value(solution.row(Some(seconds))).unwrap_or_default());
            }
            // Named as the CLI names them: the compiled problem, and the plan found.
            Err(SolveError::Problem { text, diagnostics }) => {
                (format!("{task}.pddl"), text, diagnostics)
            }
            Err(SolveError::Plan { text, diagnostics }) => {
                (format!("{task}.plan"), text, diagnostics)
            }
        };
    let input = Source {
        file: SourceFile::new(file, text),
        undecodable: None,
    };
    Err(input_report(input, diagnostics))
}
