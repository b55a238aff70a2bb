//! `pddlc.plancraft`: Plancraft's crafting world from Python: an environment object for agent
//! loops (`PlancraftEnv`), a whole run of messages, the solver, the PDDL compilation, through
//! the library's `plancraft` façade, as `pddlc plancraft` does it.

use crate::input::source;
use crate::value::to_py;
use pddlc::diagnostics::FileId;
use pddlc::plancraft::{
    self, Episode, EpisodeOptions, Example, Handler, SolveOptions, World, inventory_row,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{Value, json};
use std::sync::OnceLock;

/// The embedded world, loaded once per process: it is immutable data, and an environment
/// object borrows it for its whole life.
fn world() -> PyResult<&'static World> {
    static WORLD: OnceLock<Result<World, String>> = OnceLock::new();
    WORLD
        .get_or_init(|| World::embedded().map_err(|d| d.message))
        .as_ref()
        .map_err(|message| PyValueError::new_err(message.clone()))
}

/// The example an argument names: a dataset record as a `dict`, or JSON text, bytes or a path
/// (one record, or a split with `id`).
fn example(
    py: Python<'_>,
    world: &World,
    obj: &Bound<'_, PyAny>,
    id: Option<&str>,
) -> PyResult<Example> {
    let text = if obj.is_instance_of::<pyo3::types::PyDict>() {
        let json = py.import("json")?;
        json.call_method1("dumps", (obj,))?.extract::<String>()?
    } else {
        let source = source(obj, "example")?;
        source
            .text()
            .ok_or_else(|| PyValueError::new_err("the example is not UTF-8 text"))?
            .to_string()
    };
    Example::select(world, &text, id).map_err(|d| PyValueError::new_err(d.message))
}

fn read_handlers(names: Option<Vec<String>>) -> PyResult<Vec<Handler>> {
    let Some(names) = names else {
        return Ok(Handler::DEFAULT.to_vec());
    };
    let handlers = names
        .iter()
        .map(|name| {
            Handler::from_name(name).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "`{name}` is not one of move, smelt, think, search, impossible"
                ))
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    if handlers.is_empty() {
        return Err(PyValueError::new_err(
            "`handlers` needs at least one handler",
        ));
    }
    Ok(handlers)
}

/// One Plancraft episode, stepped by an agent: `reset()` gives the first observation, and
/// `step(message)` returns `(observation, reward, done, info)` as Plancraft's evaluator runs
/// the message. A malformed or refused message never raises: `info` says what happened.
#[pyclass(module = "pddlc")]
pub struct PlancraftEnv {
    example: Example,
    options: EpisodeOptions,
    episode: Episode<'static>,
}

#[pymethods]
impl PlancraftEnv {
    #[new]
    #[pyo3(signature = (example, id = None, max_steps = 30, handlers = None))]
    fn new(
        py: Python<'_>,
        example: &Bound<'_, PyAny>,
        id: Option<&str>,
        max_steps: usize,
        handlers: Option<Vec<String>>,
    ) -> PyResult<PlancraftEnv> {
        crate::guarded(|| {
            if max_steps == 0 {
                return Err(PyValueError::new_err("`max_steps` must be at least 1"));
            }
            let world = world()?;
            let example = self::example(py, world, example, id)?;
            let options = EpisodeOptions {
                max_steps,
                handlers: read_handlers(handlers)?,
            };
            let episode = Episode::new(world, &example, options.clone());
            Ok(PlancraftEnv {
                example,
                options,
                episode,
            })
        })
    }

    /// Starts the episode again from the example's inventory; returns the observation text.
    fn reset(&mut self) -> PyResult<String> {
        let world = world()?;
        self.episode = Episode::new(world, &self.example, self.options.clone());
        Ok(self.episode.observation())
    }

    /// The observation text of the current state.
    #[getter]
    fn observation(&self) -> String {
        self.episode.observation()
    }

    /// The slots: `{slot index: (type, quantity)}`.
    #[getter]
    fn inventory<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let world = world()?;
        to_py(py, &json!(inventory_row(world, self.episode.slots())))
    }

    /// Whether the episode has ended (success, an `impossible:` claim, or the budget).
    #[getter]
    fn done(&self) -> bool {
        self.episode.ended().is_some()
    }

    /// Messages used so far.
    #[getter]
    fn steps(&self) -> usize {
        self.episode.steps_used()
    }

    /// Runs one message. Returns `(observation, reward, done, info)`: the text the agent sees
    /// next (the inventory, or the format error, `Ok`, search answer …), 1.0 on success,
    /// whether the episode ended, and `info` (`kind`, `changed`, `delta`, `refused`,
    /// `success`, `stopped_by`). Stepping an ended episode raises `ValueError`.
    fn step<'py>(&mut self, py: Python<'py>, message: &str) -> PyResult<Bound<'py, PyAny>> {
        crate::guarded(|| {
            let world = world()?;
            let step = self.episode.step(message).ok_or_else(|| {
                PyValueError::new_err("the episode has ended: call reset() to start again")
            })?;
            let observation = step
                .reply
                .clone()
                .unwrap_or_else(|| self.episode.observation());
            let ended = self.episode.ended();
            let success = ended.is_some_and(|(_, success)| success);
            let delta: serde_json::Map<String, Value> = step
                .delta
                .iter()
                .map(|(slot, stack)| {
                    let value = stack.map_or(
                        Value::Null,
                        |s| json!({"type": world.name(s.item), "quantity": s.quantity}),
                    );
                    (slot.to_string(), value)
                })
                .collect();
            let info = json!({
                "kind": step.kind.name(),
                "action": step.message.canonical(),
                "changed": step.changed(),
                "delta": delta,
                "refused": step.refusal.as_ref().map(|r| r.describe(world)),
                "success": success,
                "stopped_by": ended.map(|(why, _)| why.name()),
                "impossible_emitted": self.episode.impossible_emitted(),
            });
            let reward = if success { 1.0 } else { 0.0 };
            let tuple = (observation, reward, ended.is_some(), to_py(py, &info)?);
            Ok(tuple.into_pyobject(py)?.into_any())
        })
    }
}

/// Runs messages (a list, or text with one a line) on an example; returns the document
/// `pddlc plancraft run --format json` prints, as a dict.
#[pyfunction]
#[pyo3(signature = (example, actions, id = None, max_steps = 30, handlers = None))]
pub fn plancraft_run<'py>(
    py: Python<'py>,
    example: &Bound<'_, PyAny>,
    actions: &Bound<'_, PyAny>,
    id: Option<&str>,
    max_steps: usize,
    handlers: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    crate::guarded(|| {
        if max_steps == 0 {
            return Err(PyValueError::new_err("`max_steps` must be at least 1"));
        }
        let world = world()?;
        let example = self::example(py, world, example, id)?;
        let text = match actions.extract::<Vec<String>>() {
            Ok(list) if !actions.is_instance_of::<pyo3::types::PyString>() => {
                if list.iter().any(|m| m.contains('\n')) {
                    return Err(PyValueError::new_err("a message cannot hold a line break"));
                }
                list.join("\n")
            }
            _ => source(actions, "actions")?
                .text()
                .ok_or_else(|| PyValueError::new_err("the actions are not UTF-8 text"))?
                .to_string(),
        };
        let options = EpisodeOptions {
            max_steps,
            handlers: read_handlers(handlers)?,
        };
        let result = py.detach(|| plancraft::run(world, &example, &text, FileId(0), options));
        to_py(py, &serde_json::to_value(&result.row).unwrap_or_default())
    })
}

/// Solves an example: the document `pddlc plancraft solve --format json` prints, as a dict.
#[pyfunction]
#[pyo3(signature = (example, id = None, max_states = 200_000))]
pub fn plancraft_solve<'py>(
    py: Python<'py>,
    example: &Bound<'_, PyAny>,
    id: Option<&str>,
    max_states: usize,
) -> PyResult<Bound<'py, PyAny>> {
    crate::guarded(|| {
        let world = world()?;
        let example = self::example(py, world, example, id)?;
        let options = SolveOptions { max_states };
        let row = py.detach(|| plancraft::solve(world, &example, options));
        to_py(py, &serde_json::to_value(&row).unwrap_or_default())
    })
}

/// The encoding a name gives (`counts` or `grid`); another name is a `ValueError`.
fn encoding(name: &str) -> PyResult<plancraft::Encoding> {
    plancraft::Encoding::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = plancraft::Encoding::ALL.iter().map(|e| e.name()).collect();
        PyValueError::new_err(format!(
            "unknown encoding `{name}`: expected one of {}",
            names.join(", ")
        ))
    })
}

/// The example compiled to PDDL at the counter level (or the grid level): `(domain, problem)`
/// texts.
#[pyfunction]
#[pyo3(signature = (example, id = None, encoding = "counts"))]
pub fn plancraft_compile(
    py: Python<'_>,
    example: &Bound<'_, PyAny>,
    id: Option<&str>,
    encoding: &str,
) -> PyResult<(String, String)> {
    crate::guarded(|| {
        let encoding = self::encoding(encoding)?;
        let world = world()?;
        let example = self::example(py, world, example, id)?;
        Ok(plancraft::compile_pddl(world, &example, encoding))
    })
}

/// A plan for the compiled example turned into messages and replayed: a dict like `solve`'s.
#[pyfunction]
#[pyo3(signature = (example, plan, id = None, encoding = "counts"))]
pub fn plancraft_from_pddl_plan<'py>(
    py: Python<'py>,
    example: &Bound<'_, PyAny>,
    plan: &str,
    id: Option<&str>,
    encoding: &str,
) -> PyResult<Bound<'py, PyAny>> {
    crate::guarded(|| {
        let encoding = self::encoding(encoding)?;
        let world = world()?;
        let example = self::example(py, world, example, id)?;
        let row = plancraft::from_pddl_plan_in(world, &example, plan, encoding);
        to_py(py, &serde_json::to_value(&row).unwrap_or_default())
    })
}
