//! `parse` and `format`, and the Python views of a parsed domain or problem.

use crate::input::source;
use crate::report::Report;
use crate::value::{strip_spans, to_py};
use pddlc::ast::{self, PddlFile, Type, Typed};
use pddlc::diagnostics::SourceFile;
use pddlc::fmt::{PrintOptions, file_with};
use pyo3::exceptions::{PyRecursionError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

/// A parsed domain: its names as Python values, the whole tree with `to_dict()`, and the
/// parse's `report` (recovered errors and warnings, if any).
#[pyclass(frozen, module = "pddlc")]
pub struct Domain {
    domain: ast::Domain,
    report: Py<Report>,
}

/// A parsed problem: its names as Python values, the whole tree with `to_dict()`, and the
/// parse's `report`.
#[pyclass(frozen, module = "pddlc")]
pub struct Problem {
    problem: ast::Problem,
    report: Py<Report>,
}

fn type_text(ty: &Option<Type>) -> Option<String> {
    ty.as_ref().map(pddlc::fmt::type_text)
}

/// Typed names as a dict `name -> type` (None when untyped), in declaration order.
fn typed<'py>(py: Python<'py>, items: &[Typed<ast::Name>]) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for item in items {
        dict.set_item(item.item.text.as_str(), type_text(&item.ty))?;
    }
    Ok(dict)
}

fn names<'a>(items: impl Iterator<Item = &'a ast::Name>) -> Vec<String> {
    items.map(|n| n.text.to_string()).collect()
}

/// The tree as the CLI's `pddlc parse --json` writes it (`"file": "domain"` first), as Python
/// objects. The JSON text is made on a stack deep enough for any nesting the parser accepts and
/// read by Python's own `json.loads`, several times quicker than building each dict here; a tree
/// nested deeper than the interpreter's recursion limit allows `json.loads` is built here.
fn tree_to_py<'py, T: serde::Serialize + Sync>(
    py: Python<'py>,
    kind: &str,
    tree: &T,
    spans: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let error =
        |e: serde_json::Error| PyValueError::new_err(format!("cannot serialise the tree: {e}"));
    let value = py
        .detach(|| {
            pddlc::parse::with_stack(|| {
                let mut value = serde_json::to_value(tree)?;
                if !spans {
                    strip_spans(&mut value);
                }
                let mut out = serde_json::Map::new();
                out.insert("file".into(), Value::String(kind.into()));
                if let Value::Object(fields) = value {
                    out.extend(fields);
                }
                let value = Value::Object(out);
                let text = serde_json::to_string(&value)?;
                Ok((value, text))
            })
        })
        .map_err(error)?;
    let (value, text) = value;
    match py.import("json")?.getattr("loads")?.call1((text,)) {
        Ok(object) => Ok(object),
        Err(e) if e.is_instance_of::<PyRecursionError>(py) => to_py(py, &value),
        Err(e) => Err(e),
    }
}

#[pymethods]
impl Domain {
    /// Pickled as the input it was parsed from.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        reduce_tree(py, &self.report)
    }

    /// `"domain"`.
    #[getter]
    fn kind(&self) -> &'static str {
        "domain"
    }

    /// The domain's name, as written.
    #[getter]
    fn name(&self) -> String {
        self.domain.name.text.to_string()
    }

    /// Requirement flags as written, with their leading `:`.
    #[getter]
    fn requirements(&self) -> Vec<String> {
        names(self.domain.requirements.iter())
    }

    /// `{type: parent type or None}`, in declaration order.
    #[getter]
    fn types<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        typed(py, &self.domain.types)
    }

    /// `{constant: type or None}`, in declaration order.
    #[getter]
    fn constants<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        typed(py, &self.domain.constants)
    }

    /// Predicate names, in declaration order.
    #[getter]
    fn predicates(&self) -> Vec<String> {
        names(self.domain.predicates.iter().map(|p| &p.name))
    }

    /// Function (numeric or object fluent) names, in declaration order.
    #[getter]
    fn functions(&self) -> Vec<String> {
        names(self.domain.functions.iter().map(|f| &f.name))
    }

    /// Names of the actions, durative actions, processes and events, in source order.
    #[getter]
    fn actions(&self) -> Vec<String> {
        self.domain
            .structures
            .iter()
            .filter_map(|s| match s {
                ast::Structure::Action(a)
                | ast::Structure::Process(a)
                | ast::Structure::Event(a) => Some(a.name.text.to_string()),
                ast::Structure::DurativeAction(a) => Some(a.name.text.to_string()),
                _ => None,
            })
            .collect()
    }

    /// The parse's diagnostics (empty for a clean file).
    #[getter]
    fn report(&self, py: Python<'_>) -> Py<Report> {
        self.report.clone_ref(py)
    }

    /// Whether the parse found no error.
    #[getter]
    fn ok(&self) -> bool {
        !self.report.get().has_errors()
    }

    /// The syntax tree as `pddlc parse --json` writes it under `tree`; `spans=False` drops the
    /// byte spans.
    #[pyo3(signature = (*, spans = true))]
    fn to_dict<'py>(&self, py: Python<'py>, spans: bool) -> PyResult<Bound<'py, PyAny>> {
        tree_to_py(py, "domain", &self.domain, spans)
    }

    fn __repr__(&self) -> String {
        format!(
            "Domain(name={}, predicates={}, actions={})",
            crate::value::repr(Some(self.domain.name.text.as_str())),
            self.domain.predicates.len(),
            self.actions().len()
        )
    }
}

#[pymethods]
impl Problem {
    /// Pickled as the input it was parsed from.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        reduce_tree(py, &self.report)
    }

    /// `"problem"`.
    #[getter]
    fn kind(&self) -> &'static str {
        "problem"
    }

    /// The problem's name, as written.
    #[getter]
    fn name(&self) -> String {
        self.problem.name.text.to_string()
    }

    /// The domain named in `(:domain …)`, or None when the section is missing.
    #[getter]
    fn domain(&self) -> Option<String> {
        self.problem.domain.as_ref().map(|n| n.text.to_string())
    }

    /// Requirement flags as written, with their leading `:`.
    #[getter]
    fn requirements(&self) -> Vec<String> {
        names(self.problem.requirements.iter())
    }

    /// `{object: type or None}`, in declaration order.
    #[getter]
    fn objects<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        typed(py, &self.problem.objects)
    }

    /// The number of elements of `:init`.
    #[getter]
    fn init_size(&self) -> usize {
        self.problem.init.len()
    }

    /// The goal as canonical PDDL text, or None when the problem has none.
    #[getter]
    fn goal(&self) -> Option<String> {
        self.problem
            .goal
            .as_ref()
            .map(|g| pddlc::parse::with_stack(|| pddlc::fmt::gd_text(g)))
    }

    /// The parse's diagnostics (empty for a clean file).
    #[getter]
    fn report(&self, py: Python<'_>) -> Py<Report> {
        self.report.clone_ref(py)
    }

    /// Whether the parse found no error.
    #[getter]
    fn ok(&self) -> bool {
        !self.report.get().has_errors()
    }

    /// The syntax tree as `pddlc parse --json` writes it under `tree`; `spans=False` drops the
    /// byte spans.
    #[pyo3(signature = (*, spans = true))]
    fn to_dict<'py>(&self, py: Python<'py>, spans: bool) -> PyResult<Bound<'py, PyAny>> {
        tree_to_py(py, "problem", &self.problem, spans)
    }

    fn __repr__(&self) -> String {
        format!(
            "Problem(name={}, domain={}, objects={}, init={})",
            crate::value::repr(Some(self.problem.name.text.as_str())),
            crate::value::repr(self.domain().as_deref()),
            self.problem.objects.len(),
            self.problem.init.len()
        )
    }
}

/// Parses a domain or a problem (told apart by its header). Returns a `Domain` or a `Problem`,
/// whose `report` holds the diagnostics of a parse that recovered from errors; or, when no tree
/// could be built at all, the `Report` that says why.
#[pyfunction]
pub fn parse(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        let input = source(text, "input")?;
        if input.text().is_none() {
            let diagnostics = input.undecodable.iter().cloned().collect();
            let report = Report::new(vec![input.file], diagnostics, None);
            return Ok(Py::new(py, report)?.into_any());
        }
        parsed(py, input.file)
    })
}

/// The `Domain` or `Problem` of a decoded input, or the `Report` saying why there is none.
pub fn parsed(py: Python<'_>, file: SourceFile) -> PyResult<Py<PyAny>> {
    let parsed = py.detach(|| pddlc::parse::file(&file.text));
    let report = Py::new(py, Report::new(vec![file], parsed.diagnostics, None))?;
    Ok(match parsed.value {
        Some(PddlFile::Domain(domain)) => Py::new(py, Domain { domain, report })?.into_any(),
        Some(PddlFile::Problem(problem)) => Py::new(py, Problem { problem, report })?.into_any(),
        None => report.into_any(),
    })
}

/// What a pickled `Domain` or `Problem` holds: the input it was parsed from, parsed again
/// when unpickled (the same text gives the same tree, spans and diagnostics).
fn reduce_tree<'py>(
    py: Python<'py>,
    report: &Py<Report>,
) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
    let file = report.get().sources().first().cloned();
    let file = file.ok_or_else(|| PyValueError::new_err("the tree has lost its input"))?;
    Ok((
        crate::pickle::restorer(py)?,
        ("tree", crate::pickle::state(&file)?),
    ))
}

/// Formats a domain or problem as canonical PDDL (comments kept, lists fitted into `width`).
/// A text with errors is not formatted (printing it would drop what did not parse): its
/// `Report` is returned instead.
#[pyfunction]
#[pyo3(signature = (text, *, width = 80))]
pub fn format(py: Python<'_>, text: &Bound<'_, PyAny>, width: usize) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        let input = source(text, "input")?;
        let Some(text) = input.text() else {
            let diagnostics = input.undecodable.iter().cloned().collect();
            let report = Report::new(vec![input.file], diagnostics, None);
            return Ok(Py::new(py, report)?.into_any());
        };
        let (diagnostics, printed) = py.detach(|| {
            let parsed = pddlc::parse::file(text);
            let clean = !parsed.diagnostics.iter().any(|d| d.is_error());
            let printed = parsed.value.as_ref().filter(|_| clean).map(|file| {
                file_with(
                    file,
                    &PrintOptions {
                        width,
                        comments_from: Some(text),
                    },
                )
            });
            (parsed.diagnostics, printed)
        });
        match printed {
            Some(printed) => Ok(printed.into_pyobject(py)?.into_any().unbind()),
            None => {
                let report = Report::new(vec![input.file.clone()], diagnostics, None);
                Ok(Py::new(py, report)?.into_any())
            }
        }
    })
}
