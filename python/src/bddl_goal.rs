//! BDDL goals for Python: `bddl_parse` (the tree as dicts), and `BddlGoal`, a problem's goal
//! compiled once (`bddl::compile_problem_goal`, as `pddlc bddl goal` compiles it) and
//! evaluated on states given as atoms.

use crate::input::source;
use crate::report::Report;
use pddlc::ast::bddl::BddlFile;
use pddlc::bddl::{self, CompiledGoal, Forn, GoalSemantics, Pairs, State};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Parses BDDL text: `(tree, report)`, the tree as dicts (`None` when none could be built) and
/// the parse's diagnostics.
#[pyfunction]
pub fn bddl_parse(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<(Py<PyAny>, Report)> {
    crate::guarded(|| {
        let input = source(text, "input")?;
        let Some(text) = input.text() else {
            let diagnostics = crate::check::undecodable(&input, pddlc::diagnostics::FileId(0));
            return Ok((py.None(), Report::new(vec![input.file], diagnostics, None)));
        };
        let parsed = py.detach(|| pddlc::parse::bddl(text));
        let tree = match &parsed.value {
            Some(file) => {
                let value = pddlc::parse::with_stack(|| serde_json::to_value(file))
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
                crate::value::to_py(py, &value)?.unbind()
            }
            None => py.None(),
        };
        Ok((
            tree,
            Report::new(vec![input.file], parsed.diagnostics, None),
        ))
    })
}

/// A BDDL problem's goal, compiled once, evaluated on any number of states. `pairs` is
/// `"reference"` (bddl's forpairs and fornpairs) or `"matching"`; `forn` is `"exactly"`
/// (bddl's) or `"at-least"`. When bddl could not load the goal, `report` says why and
/// `evaluate` raises `ValueError`.
#[pyclass(frozen, module = "pddlc")]
pub struct BddlGoal {
    goal: Option<CompiledGoal>,
    /// The problem's parse and the goal's compilation diagnostics.
    #[pyo3(get)]
    report: Py<Report>,
}

#[pymethods]
impl BddlGoal {
    #[new]
    #[pyo3(signature = (problem, *, pairs = "reference", forn = "exactly"))]
    fn new(
        py: Python<'_>,
        problem: &Bound<'_, PyAny>,
        pairs: &str,
        forn: &str,
    ) -> PyResult<BddlGoal> {
        crate::guarded(|| {
            let semantics = GoalSemantics {
                pairs: pairs.parse::<Pairs>().map_err(PyValueError::new_err)?,
                forn: forn.parse::<Forn>().map_err(PyValueError::new_err)?,
            };
            let input = source(problem, "problem")?;
            let (goal, diagnostics) = match input.text() {
                None => (
                    None,
                    crate::check::undecodable(&input, pddlc::diagnostics::FileId(0)),
                ),
                Some(text) => py.detach(|| {
                    let parsed = pddlc::parse::bddl(text);
                    let mut diagnostics = parsed.diagnostics;
                    let goal = match (&parsed.value, diagnostics.iter().any(|d| d.is_error())) {
                        (Some(BddlFile::Problem(problem)), false) => {
                            let (goal, found) = bddl::compile_problem_goal(problem, semantics);
                            diagnostics.extend(found);
                            goal
                        }
                        _ => None,
                    };
                    (goal, diagnostics)
                }),
            };
            let report = Py::new(py, Report::new(vec![input.file], diagnostics, None))?;
            Ok(BddlGoal { goal, report })
        })
    }

    /// Whether the goal can be evaluated (bddl loads it).
    #[getter]
    fn ok(&self) -> bool {
        self.goal.is_some()
    }

    /// The verdict on the state where exactly `atoms` are true (`"(pred a b)"` strings):
    /// `{"satisfied": bool, "conjuncts": [bool, …]}`, one entry per top-level conjunct.
    fn evaluate(&self, py: Python<'_>, atoms: Vec<String>) -> PyResult<Py<PyAny>> {
        crate::guarded(|| {
            let Some(goal) = &self.goal else {
                return Err(PyValueError::new_err(
                    "the goal cannot be evaluated: see this object's report",
                ));
            };
            let state = State::from_atoms(atoms.iter().map(String::as_str))
                .map_err(PyValueError::new_err)?;
            let verdict = py.detach(|| goal.evaluate(&state));
            let value =
                serde_json::to_value(&verdict).map_err(|e| PyValueError::new_err(e.to_string()))?;
            Ok(crate::value::to_py(py, &value)?.unbind())
        })
    }

    fn __repr__(&self) -> String {
        match &self.goal {
            Some(goal) => format!("BddlGoal(conjuncts={})", goal.conjunct_spans().len()),
            None => "BddlGoal(not loadable)".into(),
        }
    }
}
