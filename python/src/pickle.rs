//! Pickling: `__reduce__` of the result and input objects gives `(pddlc._restore, (kind,
//! state[, id]))`, the state a JSON text of what the object holds; `_restore` rebuilds it. So the
//! objects travel through `pickle`, Ray and `multiprocessing` as they are.

use crate::report::{Diagnostic, Label, Report, ReportState};
use crate::score::ScoresState;
use pddlc::diagnostics::SourceFile;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// `pddlc._restore`: a Python function, so that pickle finds it by its module and name.
pub fn restorer(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("pddlc")?.getattr("_restore")
}

/// The JSON text of what an object holds.
pub fn state(value: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(value)
        .map_err(|e| PyValueError::new_err(format!("cannot pickle the object: {e}")))
}

fn read<T: serde::de::DeserializeOwned>(kind: &str, state: &str) -> PyResult<T> {
    serde_json::from_str(state)
        .map_err(|e| PyValueError::new_err(format!("not a pickled pddlc {kind}: {e}")))
}

/// Rebuilds what `__reduce__` took apart (called by `pddlc._restore`).
#[pyfunction]
#[pyo3(name = "_restore", signature = (kind, state, id = None))]
pub fn restore(
    py: Python<'_>,
    kind: &str,
    state: &str,
    id: Option<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    Ok(match kind {
        "label" => Py::new(py, read::<Label>(kind, state)?)?.into_any(),
        "diagnostic" => {
            let row = read::<serde_json::Value>(kind, state)?;
            let diagnostic = Diagnostic::list(&serde_json::Value::Array(vec![row]))
                .into_iter()
                .next()
                .ok_or_else(|| PyValueError::new_err("not a pickled pddlc diagnostic"))?;
            Py::new(py, diagnostic)?.into_any()
        }
        "report" => Py::new(py, Report::from(read::<ReportState>(kind, state)?))?.into_any(),
        "tree" => crate::tree::parsed(py, read::<SourceFile>(kind, state)?)?,
        "scores" => Py::new(py, read::<ScoresState>(kind, state)?.with_id(id))?.into_any(),
        other => return Err(PyValueError::new_err(format!("no pickled pddlc {other}"))),
    })
}
