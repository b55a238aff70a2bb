//! The kitchen world: `kitchen.run`, `kitchen.describe` and `kitchen.compile` over the world
//! shipped in `domains/kitchen/` (compiled into the library).

use crate::input::{Source, source};
use crate::report::{Diagnostic, Report, render_in};
use crate::value::to_py;
use pddlc::diagnostics::render::{self, JSON_VERSION, Sources};
use pddlc::diagnostics::{self as diag, SourceFile};
use pddlc::kitchen::{self, CompileOptions, EmbeddedTask, Env, Flavour, Mode, TaskGoal, World};
use pyo3::exceptions::{PyTypeError, PyValueError};
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

    /// Every failure as Simmer records it: `step`, `type`, `action`, `reason`, …
    #[getter]
    fn failures(&self) -> Vec<KitchenFailure> {
        KitchenFailure::list(&self.row["failures"])
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

/// One failure of a plan in the kitchen, as Simmer records it: the step, its type, the action,
/// the reason, the severity, and whether it can be undone.
#[pyclass(frozen, module = "pddlc")]
pub struct KitchenFailure {
    /// The failure's row in the JSON outputs (`kitchen run`, `kitchen solve`).
    row: Value,
}

impl KitchenFailure {
    /// The failures of a JSON row's `failures` list (none for `null`).
    pub(crate) fn list(failures: &Value) -> Vec<KitchenFailure> {
        failures
            .as_array()
            .map(|rows| {
                rows.iter()
                    .map(|row| KitchenFailure { row: row.clone() })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn text(&self, key: &str) -> &str {
        self.row[key].as_str().unwrap_or_default()
    }
}

#[pymethods]
impl KitchenFailure {
    /// The 1-based step of the plan, or 0 for the end-of-plan audits.
    #[getter]
    fn step(&self) -> u64 {
        self.row["step"].as_u64().unwrap_or_default()
    }

    /// `"syntax"`, `"immediate"` or `"latent"` (the dict's `failure_type`).
    #[getter]
    fn r#type(&self) -> &str {
        self.text("failure_type")
    }

    /// The executor's rendering of the step (`[GRAB] <knife> (1)`), or the audit's name.
    #[getter]
    fn action(&self) -> &str {
        self.text("action")
    }

    /// Why the step failed, in Simmer's words.
    #[getter]
    fn reason(&self) -> &str {
        self.text("reason")
    }

    /// 1 for syntax and immediate failures, 2 for latent ones (0 for a step without handler).
    #[getter]
    fn severity(&self) -> u64 {
        self.row["severity"].as_u64().unwrap_or_default()
    }

    /// False only for food-safety failures, which no later step can undo.
    #[getter]
    fn reversible(&self) -> bool {
        self.row["reversible"].as_bool().unwrap_or_default()
    }

    /// The failure as a dict: the JSON outputs' record (`step`, `failure_type`, `action`,
    /// `reason`, `severity`, `reversible`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.row)
    }

    /// Simmer's one-line form: `[Step k] (type) reason  |  action: text`.
    fn __str__(&self) -> String {
        format!(
            "[Step {}] ({}) {}  |  action: {}",
            self.step(),
            self.r#type(),
            self.reason(),
            self.action()
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "KitchenFailure(step={}, type={:?}, reason={:?})",
            self.step(),
            self.r#type(),
            self.reason()
        )
    }
}

/// A report about one input that could not be used.
pub(crate) fn input_report(input: Source, diagnostics: Vec<diag::Diagnostic>) -> Report {
    Report::new(vec![input.file], diagnostics, None)
}

/// The environment, or the report on why it cannot be used (not decodable, malformed: K402):
/// Simmer's JSON or ours (TOML), whose objects take their classes from `world`.
pub(crate) fn env(world: &World, input: Source) -> Result<(Env, Source), Report> {
    let Some(text) = input.text() else {
        let diagnostics = input.undecodable.iter().cloned().collect();
        return Err(input_report(input, diagnostics));
    };
    match Env::from_text(text, world.classes()) {
        Ok(env) => Ok((env, input)),
        Err(diagnostics) => Err(input_report(input, diagnostics)),
    }
}

/// The built-in task numbered `id`, or a `ValueError` naming the tasks there are.
pub(crate) fn embedded(id: &str) -> PyResult<&'static EmbeddedTask> {
    kitchen::embedded_task(id).ok_or_else(|| {
        PyValueError::new_err(format!(
            "no built-in kitchen task `{id}` ({}): give its environment with `env=`",
            kitchen::embedded_task_range()
        ))
    })
}

/// A task's environment as an input: a built-in task's (`task="001"`) or the one `env` gives,
/// never both; `None` when neither is given.
pub(crate) struct TaskInput {
    pub env: Source,
    /// The built-in task, when it was named.
    pub task: Option<&'static EmbeddedTask>,
}

impl TaskInput {
    pub(crate) fn of(task: Option<&str>, env: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Self>> {
        match (task, env) {
            (Some(_), Some(_)) => Err(PyValueError::new_err(
                "give `task` (a built-in task, \"001\") or `env` (an environment), not both",
            )),
            (None, None) => Ok(None),
            (Some(id), None) => {
                let task = embedded(id)?;
                let env = Source {
                    file: SourceFile::new(task.env_name(), task.env.to_string()),
                    undecodable: None,
                };
                Ok(Some(TaskInput {
                    env,
                    task: Some(task),
                }))
            }
            (None, Some(env)) => Ok(Some(TaskInput {
                env: source(env, "env")?,
                task: None,
            })),
        }
    }

    /// As [`TaskInput::of`], for functions that need one of the two.
    pub(crate) fn required(task: Option<&str>, env: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Self::of(task, env)?.ok_or_else(|| {
            PyValueError::new_err(
                "give `task` (a built-in task, \"001\") or `env` (an environment: Simmer's JSON or ours, TOML)",
            )
        })
    }

    /// The built-in task's goal, as an input.
    pub(crate) fn builtin_goal(&self) -> Option<Source> {
        let task = self.task?;
        Some(Source {
            file: SourceFile::new(task.goal_name(), task.goal?.to_string()),
            undecodable: None,
        })
    }
}

pub(crate) fn report_object(py: Python<'_>, report: Report) -> PyResult<Py<PyAny>> {
    Ok(Py::new(py, report)?.into_any())
}

/// Runs a Simmer plan (`[PUT_ON] <lettuce> (1) <cutting_board> (1)`, one step a line) in a task
/// environment (a built-in task's, or Simmer's `env_NNN.json` or ours) and audits the end
/// state. `mode="simmer"` reproduces Simmer's executor exactly; `"strict"` fixes its quirks
/// (docs/kitchen.md). Returns a `KitchenRun`, or a `Report` when the environment or plan cannot
/// be read.
#[pyfunction]
#[pyo3(signature = (env = None, plan = None, mode = "simmer", task = None))]
pub fn kitchen_run(
    py: Python<'_>,
    env: Option<&Bound<'_, PyAny>>,
    plan: Option<&Bound<'_, PyAny>>,
    mode: &str,
    task: Option<&str>,
) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        let mode: Mode = mode.parse().map_err(PyValueError::new_err)?;
        let input = TaskInput::required(task, env)?;
        let plan =
            plan.ok_or_else(|| PyTypeError::new_err("`plan` is required: the Simmer plan to run"))?;
        let plan = source(plan, "plan")?;
        let world = World::embedded();
        let (env, _) = match py.detach(|| self::env(&world, input.env)) {
            Ok(env) => env,
            Err(report) => return report_object(py, report),
        };
        let Some(text) = plan.text() else {
            let diagnostics = plan.undecodable.iter().cloned().collect();
            return report_object(py, input_report(plan, diagnostics));
        };
        let (row, final_state, diagnostics) = py.detach(|| {
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

/// The world (and, given `env` or `task`, the task's title and objects) as text for an LLM
/// prompt, as `pddlc kitchen describe` prints it. Returns a `Report` when the environment
/// cannot be read.
#[pyfunction]
#[pyo3(signature = (env = None, task = None))]
pub fn kitchen_describe(
    py: Python<'_>,
    env: Option<&Bound<'_, PyAny>>,
    task: Option<&str>,
) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        let input = TaskInput::of(task, env)?;
        let text = py.detach(|| {
            let world = World::embedded();
            let Some(input) = input else {
                return Ok(kitchen::describe_world(&world));
            };
            let title = input.task.and_then(EmbeddedTask::title_line);
            let options = kitchen::DescribeOptions {
                goal: title.as_deref(),
                ..kitchen::DescribeOptions::default()
            };
            self::env(&world, input.env)
                .map(|(env, _)| kitchen::describe_task(&world, &env, &options))
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

/// A task goal (`NNN.toml`), or the report on why it cannot be used.
pub(crate) fn task_goal(input: Source) -> Result<(TaskGoal, Source), Report> {
    match input.text().map(TaskGoal::from_toml) {
        Some(Ok(parsed)) => Ok((parsed, input)),
        Some(Err(diagnostics)) => Err(input_report(input, diagnostics)),
        None => {
            let diagnostics = input.undecodable.iter().cloned().collect();
            Err(input_report(input, diagnostics))
        }
    }
}

/// Compiles the kitchen world and one task environment to PDDL: returns `(domain, problem)`
/// texts, or a `Report` when an input cannot be used. `task` is a built-in task (its
/// environment, and its goal unless `goal` is given); `env` an environment instead. `goal` is a
/// task goal (`NNN.toml`, as in `domains/kitchen/tasks/`), or None for the audits alone;
/// `flavour="audit"` follows the executor exactly, `"planning"` closes the gaps a planner would
/// exploit. `name` is the problem's (`task-NNN` for a built-in task, as the CLI names it,
/// else `task`). `plan`, a Simmer plan, declares the objects it creates and the ids it names
/// that do not exist, so that its translation validates against the problem.
#[pyfunction]
#[pyo3(signature = (env = None, goal = None, flavour = "audit", name = None, plan = None, task = None))]
pub fn kitchen_compile(
    py: Python<'_>,
    env: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
    flavour: &str,
    name: Option<&str>,
    plan: Option<&Bound<'_, PyAny>>,
    task: Option<&str>,
) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        let flavour: Flavour = flavour.parse().map_err(PyValueError::new_err)?;
        let input = TaskInput::required(task, env)?;
        let name = match (name, input.task) {
            (Some(name), _) => name.to_string(),
            (None, Some(task)) => format!("task-{}", task.id),
            (None, None) => "task".to_string(),
        };
        if !pddl_name(&name) {
            return Err(PyValueError::new_err(format!(
                "`name` must be a PDDL name (a letter, then letters, digits, `-` or `_`), not {name:?}"
            )));
        }
        let goal = match goal {
            Some(goal) => Some(source(goal, "goal")?),
            None => input.builtin_goal(),
        };
        let plan = plan.map(|p| source(p, "plan")).transpose()?;
        let result = py.detach(move || -> Result<(String, String), Report> {
            let world = World::embedded();
            let (env, _) = self::env(&world, input.env)?;
            let goal = goal.map(task_goal).transpose()?;
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

/// The numbers of the tasks built into pddlc (Simmer's), sorted: `["000", "001", …]`.
#[pyfunction]
pub fn kitchen_tasks() -> Vec<&'static str> {
    kitchen::embedded_tasks()
        .iter()
        .map(|task| task.id)
        .collect()
}
