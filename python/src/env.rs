//! `pddlc.Env`: a PDDL task as an environment for agents, through the library's
//! `worldmodel::Env` (the validator's semantics, one step at a time).

use crate::input::source;
use crate::plan::task;
use crate::report::{Diagnostic, Report};
use crate::value::to_py;
use pddlc::diagnostics::SourceFile;
use pddlc::diagnostics::render::Sources;
use pddlc::task::Task;
use pddlc::worldmodel::{self, Snapshot, Transition};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFrozenSet, PySet};
use std::sync::{Arc, Mutex, MutexGuard};

pyo3::create_exception!(
    pddlc,
    TaskError,
    PyValueError,
    "The domain and problem cannot be used: `args[1]` (and `.report`) is the Report that says why."
);

/// The `TaskError` of a task that cannot be used: its first error in the message, the report
/// of every diagnostic (file 0 the domain, file 1 the problem) as `args[1]`.
pub(crate) fn task_error(
    py: Python<'_>,
    domain: SourceFile,
    problem: SourceFile,
    diagnostics: Vec<pddlc::diagnostics::Diagnostic>,
) -> PyErr {
    let message = diagnostics
        .iter()
        .find(|d| d.is_error())
        .map_or("the task cannot be used".to_string(), |d| {
            format!("the task cannot be used: {}: {}", d.code, d.message)
        });
    match Py::new(py, Report::new(vec![domain, problem], diagnostics, None)) {
        Ok(report) => TaskError::new_err((message, report)),
        Err(e) => e,
    }
}

self_cell::self_cell!(
    /// A task and the environment over it, which borrows it.
    struct Cell {
        owner: Arc<Task>,
        #[not_covariant]
        dependent: LiveEnv,
    }
);

type LiveEnv<'t> = worldmodel::Env<'t>;

/// A classical or numeric PDDL task as an environment: `reset()` gives the observation (the
/// true atoms, and `(= (f o) v)` for each fluent), `step(action)` returns
/// `(observation, reward, done, info)`. An action that cannot be applied leaves the state as it
/// was and puts the diagnostic that says why (`V301`–`V309`, `V315`) in `info["diagnostic"]`.
#[pyclass(module = "pddlc")]
pub struct Env {
    /// Behind a lock only because the world's caches are not `Sync`: each call takes it once.
    cell: Mutex<Cell>,
    /// The domain's and the problem's sources, for locating a refused step's diagnostic.
    inputs: Arc<[SourceFile; 2]>,
    /// The current observation, kept up to date from each step's change (formatting every
    /// atom at every step was most of a step's cost); `None` after a reset or a restore.
    cached: Mutex<Option<Py<PyFrozenSet>>>,
}

/// A state saved by `Env.snapshot()`, for `Env.restore()` of the same environment.
#[pyclass(frozen, module = "pddlc", name = "EnvState")]
pub struct EnvState {
    snapshot: Snapshot,
    task: Arc<Task>,
}

impl Env {
    fn build(task: Arc<Task>, inputs: Arc<[SourceFile; 2]>) -> PyResult<Env> {
        let cell = Cell::try_new(task, |task| {
            worldmodel::Env::new(&task.domain, &task.problem)
        });
        match cell {
            Ok(cell) => Ok(Env {
                cell: Mutex::new(cell),
                inputs,
                cached: Mutex::new(None),
            }),
            Err(diagnostic) => Err(PyValueError::new_err(format!(
                "{}: {}",
                diagnostic.code, diagnostic.message
            ))),
        }
    }

    fn cell(&self) -> MutexGuard<'_, Cell> {
        self.cell
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn with<R>(&self, f: impl FnOnce(&LiveEnv<'_>) -> R) -> R {
        self.cell().with_dependent(|_, env| f(env))
    }

    fn with_mut<R>(&mut self, f: impl FnOnce(&mut LiveEnv<'_>) -> R) -> R {
        let cell = self
            .cell
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        cell.with_dependent_mut(|_, env| f(env))
    }

    fn task(&self) -> Arc<Task> {
        self.cell().borrow_owner().clone()
    }

    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyFrozenSet>> {
        let mut cached = self.cached.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(observation) = cached.as_ref() {
            return Ok(observation.bind(py).clone());
        }
        let observation = self.full_observation(py)?;
        *cached = Some(observation.clone().unbind());
        Ok(observation)
    }

    /// The observation after `change`, from the one before it.
    fn observe_change<'py>(
        &self,
        py: Python<'py>,
        change: &worldmodel::Change,
    ) -> PyResult<Bound<'py, PyFrozenSet>> {
        let before = self.observation(py)?;
        if change.is_empty() {
            return Ok(before);
        }
        // `set(frozenset)` and `frozenset(set)` copy the hash table whole, without iterating.
        let set = py
            .get_type::<PySet>()
            .call1((before,))?
            .cast_into::<PySet>()?;
        for atom in &change.deleted {
            set.discard(atom)?;
        }
        for numeric in &change.numeric {
            if let Some(value) = numeric.before {
                set.discard(format!("(= {} {})", numeric.fluent, number(value)))?;
            }
            set.add(format!("(= {} {})", numeric.fluent, number(numeric.after)))?;
        }
        for atom in &change.added {
            set.add(atom)?;
        }
        let after = py
            .get_type::<PyFrozenSet>()
            .call1((set,))?
            .cast_into::<PyFrozenSet>()?;
        *self.cached.lock().unwrap_or_else(|p| p.into_inner()) = Some(after.clone().unbind());
        Ok(after)
    }

    fn forget_observation(&mut self) {
        *self.cached.get_mut().unwrap_or_else(|p| p.into_inner()) = None;
    }

    fn full_observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyFrozenSet>> {
        let items = self.with(|env| {
            let mut items = env.atoms();
            for (fluent, value) in env.fluents() {
                items.push(format!("(= {fluent} {})", number(value)));
            }
            items
        });
        PyFrozenSet::new(py, &items)
    }

    /// `info` of a step of the action text `action`.
    fn info<'py>(
        &self,
        py: Python<'py>,
        action: &str,
        t: &Transition,
    ) -> PyResult<Bound<'py, PyDict>> {
        let info = PyDict::new(py);
        info.set_item("applied", t.applied)?;
        info.set_item("action", &t.action)?;
        let diagnostic = t.diagnostic.as_ref().and_then(|d| {
            let [domain, problem] = &*self.inputs;
            let sources = [domain.clone(), problem.clone(), plan_source(action)];
            Diagnostic::located(std::slice::from_ref(d), &Sources::new(&sources))
                .into_iter()
                .next()
        });
        info.set_item("diagnostic", diagnostic)?;
        info.set_item("unsatisfied", &t.unsatisfied)?;
        info.set_item("added", &t.change.added)?;
        info.set_item("deleted", &t.change.deleted)?;
        let numeric = serde_json::to_value(&t.change.numeric).unwrap_or_default();
        info.set_item("numeric", to_py(py, &numeric)?)?;
        info.set_item("goal_reached", t.goal_reached)?;
        info.set_item("steps", self.with(|env| env.steps()))?;
        Ok(info)
    }
}

#[pymethods]
impl Env {
    /// The environment of `domain` and `problem` (PDDL text, bytes or paths), loaded and
    /// checked as `pddlc validate` loads them. A task with errors raises `pddlc.TaskError`
    /// (its `report` says why); a temporal task, or one with trajectory constraints, raises
    /// `ValueError` (`V310`: an environment runs one action at a time).
    #[new]
    fn new(py: Python<'_>, domain: &Bound<'_, PyAny>, problem: &Bound<'_, PyAny>) -> PyResult<Env> {
        crate::guarded(|| {
            let domain = source(domain, "domain")?;
            let problem = source(problem, "problem")?;
            let loaded = py.detach(|| task(&domain, &problem));
            match loaded {
                Ok((d, p)) => {
                    let task = Task {
                        domain: d,
                        problem: p,
                        warnings: Vec::new(),
                    };
                    let inputs = Arc::new([domain.file, problem.file]);
                    py.detach(|| Env::build(Arc::new(task), inputs))
                }
                Err(diagnostics) => Err(task_error(py, domain.file, problem.file, diagnostics)),
            }
        })
    }

    /// `Env(domain_path, problem_path)` from two file paths (`str` or `os.PathLike`).
    #[staticmethod]
    fn from_files(
        py: Python<'_>,
        domain: &Bound<'_, PyAny>,
        problem: &Bound<'_, PyAny>,
    ) -> PyResult<Env> {
        let pathlib = py.import("pathlib")?.getattr("Path")?;
        Env::new(py, &pathlib.call1((domain,))?, &pathlib.call1((problem,))?)
    }

    /// Back to the initial state; returns its observation.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyFrozenSet>> {
        self.with_mut(|env| env.reset());
        self.forget_observation();
        self.observation(py)
    }

    /// Applies one ground action, `"(unstack a b)"` (case and spacing free; the parentheses may
    /// be left out). Returns `(observation, reward, done, info)`: reward 1.0 on the step that
    /// reaches the goal, `done` whether the goal holds, `info` with `applied`, `action`,
    /// `diagnostic` (a `Diagnostic`, or None), `unsatisfied`, `added`, `deleted`, `numeric`,
    /// `goal_reached` and `steps`.
    fn step<'py>(&mut self, py: Python<'py>, action: &str) -> PyResult<Bound<'py, PyAny>> {
        crate::guarded(|| {
            let was_reached = self.with(|env| env.goal_reached());
            let transition = self.with_mut(|env| env.step(action));
            let reward = if transition.goal_reached && !was_reached {
                1.0
            } else {
                0.0
            };
            let observation = self.observe_change(py, &transition.change)?;
            let info = self.info(py, action, &transition)?;
            let tuple = (observation, reward, transition.goal_reached, info);
            Ok(tuple.into_pyobject(py)?.into_any())
        })
    }

    /// The ground actions applicable now, as `"(name arg…)"`, sorted.
    fn applicable(&mut self, py: Python<'_>) -> Vec<String> {
        py.detach(|| self.with_mut(|env| env.applicable()))
    }

    /// The current observation (as `reset` and `step` return it).
    #[getter(observation)]
    fn current<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyFrozenSet>> {
        self.observation(py)
    }

    /// The true atoms, sorted (derived atoms not included: see `derived`).
    #[getter]
    fn atoms(&self) -> Vec<String> {
        self.with(|env| env.atoms())
    }

    /// The true derived atoms, sorted.
    #[getter]
    fn derived(&self) -> Vec<String> {
        self.with(|env| env.derived_atoms())
    }

    /// The fluents with a value: `{"(fuel t1)": 5.0}`.
    #[getter]
    fn fluents<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (fluent, value) in self.with(|env| env.fluents()) {
            dict.set_item(fluent, value)?;
        }
        Ok(dict)
    }

    /// Whether the goal holds now.
    #[getter]
    fn done(&self) -> bool {
        self.with(|env| env.goal_reached())
    }

    /// The goal's atoms that are false now.
    #[getter]
    fn unmet_goals(&self) -> Vec<String> {
        self.with(|env| env.unmet_goals())
    }

    /// Actions applied since the last reset.
    #[getter]
    fn steps(&self) -> usize {
        self.with(|env| env.steps())
    }

    /// The state as text for a person or a language model: the true atoms, the fluents, and
    /// the goal's atoms that are still false.
    fn text(&self) -> String {
        self.with(|env| {
            let mut out = String::from("true atoms:\n");
            for atom in env.atoms().iter().chain(&env.derived_atoms()) {
                out.push_str(&format!("  {atom}\n"));
            }
            let fluents = env.fluents();
            if !fluents.is_empty() {
                out.push_str("fluents:\n");
                for (fluent, value) in fluents {
                    out.push_str(&format!("  {fluent} = {}\n", number(value)));
                }
            }
            let unmet = env.unmet_goals();
            if unmet.is_empty() {
                out.push_str("the goal holds\n");
            } else {
                out.push_str("goal atoms still false:\n");
                for atom in unmet {
                    out.push_str(&format!("  {atom}\n"));
                }
            }
            out
        })
    }

    /// The current state, to `restore` later.
    fn snapshot(&self) -> EnvState {
        EnvState {
            snapshot: self.with(|env| env.snapshot()),
            task: self.task(),
        }
    }

    /// Goes back to a state `snapshot()` of this environment (or of a `clone()` of it) saved.
    fn restore(&mut self, state: &EnvState) -> PyResult<()> {
        if !Arc::ptr_eq(&state.task, &self.task()) {
            return Err(PyValueError::new_err(
                "this state was saved by an environment of another task",
            ));
        }
        self.with_mut(|env| env.restore(&state.snapshot));
        self.forget_observation();
        Ok(())
    }

    /// A new environment of the same task in the same state; stepping one leaves the other.
    fn clone(&self, py: Python<'_>) -> PyResult<Env> {
        let task = self.task();
        let snapshot = self.with(|env| env.snapshot());
        let inputs = self.inputs.clone();
        let mut copy = py.detach(|| Env::build(task, inputs))?;
        copy.with_mut(|env| env.restore(&snapshot));
        Ok(copy)
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<Env> {
        self.clone(py)
    }

    fn __repr__(&self) -> String {
        let task = self.task();
        format!(
            "Env(domain={}, problem={}, steps={})",
            task.domain.name.text,
            task.problem.name.text,
            self.steps()
        )
    }
}

#[pymethods]
impl EnvState {
    fn __repr__(&self) -> String {
        "EnvState(…)".into()
    }
}

/// The action text as the third input (`<action>`), so that a step's diagnostic is located in
/// it.
fn plan_source(text: &str) -> SourceFile {
    SourceFile::new("<action>", text)
}

/// A value as PDDL writes it: `5` for a whole number, `2.5` otherwise.
fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}
