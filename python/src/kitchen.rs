//! The kitchen world: `kitchen.run`, `kitchen.describe` and `kitchen.compile` over the world
//! shipped in `domains/kitchen/` (compiled into the library).

use crate::input::{Source, source};
use crate::report::{Diagnostic, Report, render_in};
use crate::value::to_py;
use pddlc::diagnostics::render::{self, JSON_VERSION, Sources};
use pddlc::diagnostics::{self as diag, SourceFile};
use pddlc::kitchen::{self, CompileOptions, Env, Flavour, Mode, TaskGoal, World};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{Value, json};

/// One plan's run in the kitchen: every failure (Simmer's records), their counts, the
/// irreversible actions, the final state, and one diagnostic per failure located on the plan
/// step's line.
#[pyclass(frozen, module = "pddlc")]
pub struct KitchenRun {
    row: Value,
    final_state: Value,
    plan: SourceFile,
    diagnostics: Vec<diag::Diagnostic>,
}

#[pymethods]
impl KitchenRun {
    /// The number of steps read from the plan.
    #[getter]
    fn steps(&self) -> usize {
        self.row["steps"].as_u64().unwrap_or_default() as usize
    }

    /// Whether the plan ran without any failure (steps and end-of-plan audits).
    #[getter]
    fn ok(&self) -> bool {
        self.row["failures"].as_array().is_some_and(Vec::is_empty)
    }

    /// Every failure as Simmer records it (`failure_type`, `step`, `action`, `reason`, …).
    #[getter]
    fn failures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.row["failures"])
    }

    /// Failures by kind: `any`, `syntax`, `immediate`, `latent`, `irreversible`.
    #[getter]
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.row["counts"])
    }

    /// Transforming steps that ran despite a failed precondition.
    #[getter]
    fn irreversible_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.row["irreversible_actions"])
    }

    /// The world after the last step: the agent, the flags, the objects that changed and the
    /// objects created.
    #[getter]
    fn final_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.final_state)
    }

    /// One diagnostic per failure (K404 syntax, K405 immediate, K406 latent), and K403 for a
    /// plan without any step.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        Diagnostic::list(&self.row["diagnostics"])
    }

    /// The diagnostics as a `Report` on the plan text.
    #[getter]
    fn report(&self) -> Report {
        Report::new(vec![self.plan.clone()], self.diagnostics.clone(), None)
    }

    /// The diagnostics rendered: `"human"`, `"gcc"`, `"val"` or `"json"`.
    #[pyo3(signature = (format = "human", *, color = false, width = 80))]
    fn render(&self, format: &str, color: bool, width: usize) -> PyResult<String> {
        render_in(
            format,
            &self.diagnostics,
            std::slice::from_ref(&self.plan),
            color,
            width,
        )
    }

    /// The plan's row of `pddlc kitchen run --format json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.row)
    }

    fn __repr__(&self) -> String {
        format!(
            "KitchenRun(steps={}, failures={})",
            self.steps(),
            self.row["failures"].as_array().map_or(0, Vec::len)
        )
    }
}

/// A report about one input that could not be used.
fn input_report(input: Source, diagnostics: Vec<diag::Diagnostic>) -> Report {
    Report::new(vec![input.file], diagnostics, None)
}

/// The environment, or the report on why it cannot be used (not decodable, malformed: K402).
fn env(input: Source) -> Result<(Env, Source), Report> {
    let Some(text) = input.text() else {
        let diagnostics = input.undecodable.iter().cloned().collect();
        return Err(input_report(input, diagnostics));
    };
    match Env::from_json(text) {
        Ok(env) => Ok((env, input)),
        Err(diagnostics) => Err(input_report(input, diagnostics)),
    }
}

fn report_object(py: Python<'_>, report: Report) -> PyResult<Py<PyAny>> {
    Ok(Py::new(py, report)?.into_any())
}

/// Runs a Simmer plan (`[PUT_ON] <lettuce> (1) <cutting_board> (1)`, one step a line) in a task
/// environment (Simmer's `env_NNN.json`) and audits the end state. `mode="simmer"` reproduces
/// Simmer's executor exactly; `"strict"` fixes its quirks (docs/kitchen.md). Returns a
/// `KitchenRun`, or a `Report` when the environment or plan cannot be read.
#[pyfunction]
#[pyo3(signature = (env, plan, mode = "simmer"))]
pub fn kitchen_run(
    py: Python<'_>,
    env: &Bound<'_, PyAny>,
    plan: &Bound<'_, PyAny>,
    mode: &str,
) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        let mode: Mode = mode.parse().map_err(PyValueError::new_err)?;
        let env_input = source(env, "env")?;
        let plan = source(plan, "plan")?;
        let (env, _) = match py.detach(|| self::env(env_input)) {
            Ok(env) => env,
            Err(report) => return report_object(py, report),
        };
        let Some(text) = plan.text() else {
            let diagnostics = plan.undecodable.iter().cloned().collect();
            return report_object(py, input_report(plan, diagnostics));
        };
        let (row, final_state, diagnostics) = py.detach(|| {
            let world = World::embedded();
            let outcome = kitchen::run(&world, &env, text, mode);
            let diagnostics = outcome.diagnostics();
            let mut row = kitchen::plan_json(&plan.file.name, &outcome);
            row["diagnostics"] = render::json_diagnostics(
                &diagnostics,
                &Sources::new(std::slice::from_ref(&plan.file)),
            );
            row["version"] = json!(JSON_VERSION);
            (row, kitchen::final_state_json(&outcome), diagnostics)
        });
        let run = KitchenRun {
            row,
            final_state,
            plan: plan.file,
            diagnostics,
        };
        Ok(Py::new(py, run)?.into_any())
    })
}

/// The world (and, given `env`, the task environment's objects) as text for an LLM prompt.
/// Returns a `Report` when the environment cannot be read.
#[pyfunction]
#[pyo3(signature = (env = None))]
pub fn kitchen_describe(py: Python<'_>, env: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        let env = env.map(|e| source(e, "env")).transpose()?;
        let text = py.detach(|| {
            let world = World::embedded();
            match env {
                None => Ok(kitchen::describe_world(&world)),
                Some(input) => self::env(input).map(|(env, _)| kitchen::describe_env(&world, &env)),
            }
        });
        match text {
            Ok(text) => Ok(text.into_pyobject(py)?.into_any().unbind()),
            Err(report) => report_object(py, report),
        }
    })
}

/// Whether `name` can stand as a PDDL name: a letter, then letters, digits, `-` and `_`.
fn pddl_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Compiles the kitchen world and one task environment to PDDL: returns `(domain, problem)`
/// texts, or a `Report` when an input cannot be used. `goal` is a task goal (`NNN.toml`, as in
/// `domains/kitchen/tasks/`), or None for the audits alone; `flavour="audit"` follows the
/// executor exactly, `"planning"` closes the gaps a planner would exploit. `plan`, a Simmer
/// plan, declares the objects it creates and the ids it names that do not exist, so that its
/// translation validates against the problem.
#[pyfunction]
#[pyo3(signature = (env, goal = None, flavour = "audit", name = "task", plan = None))]
pub fn kitchen_compile(
    py: Python<'_>,
    env: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    flavour: &str,
    name: &str,
    plan: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        let flavour: Flavour = flavour.parse().map_err(PyValueError::new_err)?;
        if !pddl_name(name) {
            return Err(PyValueError::new_err(format!(
                "`name` must be a PDDL name (a letter, then letters, digits, `-` or `_`), not {name:?}"
            )));
        }
        let env = source(env, "env")?;
        let goal = goal.map(|g| source(g, "goal")).transpose()?;
        let plan = plan.map(|p| source(p, "plan")).transpose()?;
        let name = name.to_string();
        let result = py.detach(move || -> Result<(String, String), Report> {
            let (env, _) = self::env(env)?;
            let goal = match goal {
                None => None,
                Some(input) => match input.text().map(TaskGoal::from_toml) {
                    Some(Ok(parsed)) => Some((parsed, input)),
                    Some(Err(diagnostics)) => return Err(input_report(input, diagnostics)),
                    None => {
                        let diagnostics = input.undecodable.iter().cloned().collect();
                        return Err(input_report(input, diagnostics));
                    }
                },
            };
            let world = World::embedded();
            let options = match plan {
                None => CompileOptions {
                    flavour,
                    ..CompileOptions::default()
                },
                Some(plan) => match plan.text() {
                    Some(text) => CompileOptions::for_plan(flavour, &world, &env, text),
                    None => {
                        let diagnostics = plan.undecodable.iter().cloned().collect();
                        return Err(input_report(plan, diagnostics));
                    }
                },
            };
            // A goal that says it cannot be solved is reported (`K410`), as the CLI reports it.
            let task_goal = goal.as_ref().map(|(parsed, _)| parsed);
            let problem = kitchen::compile_task(&world, &env, task_goal, &name, &options).map_err(
                |unsolvable| match goal {
                    Some((_, input)) => input_report(input, vec![unsolvable]),
                    None => Report::new(Vec::new(), vec![unsolvable], None),
                },
            )?;
            let domain = pddlc::fmt::domain(&kitchen::compile_domain(&world, flavour));
            Ok((domain, pddlc::fmt::problem(&problem)))
        });
        match result {
            Ok(texts) => Ok(texts.into_pyobject(py)?.into_any().unbind()),
            Err(report) => report_object(py, report),
        }
    })
}
