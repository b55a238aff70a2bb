//! `Report`, `Diagnostic` and `Label`: the library's one `Diagnostic`, located through the JSON
//! renderer's own fields (so a Python diagnostic and `pddlc check --format json` agree field for
//! field), and rendered by the library's renderers.

use crate::value::to_py;
use pddlc::diagnostics::render::{self, DiagnosticRow, HumanOptions, JSON_VERSION, Sources};
use pddlc::diagnostics::{self, Severity, SourceFile};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{Value, json};

/// A located part of a diagnostic; the first label of a diagnostic is its primary location.
#[pyclass(frozen, module = "pddlc")]
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub struct Label {
    /// The input the label points into (`<domain>`, `<problem>`, `<plan>` … or a path).
    #[pyo3(get)]
    file: String,
    /// 1-based line.
    #[pyo3(get)]
    line: usize,
    /// 1-based column, in characters.
    #[pyo3(get)]
    column: usize,
    /// Byte offset in the input's UTF-8 text.
    #[pyo3(get)]
    offset: usize,
    /// Length in bytes.
    #[pyo3(get)]
    length: usize,
    /// What the label says there, if anything.
    #[pyo3(get)]
    message: Option<String>,
}

#[pymethods]
impl Label {
    /// Pickled as its fields (`pickle`, Ray, multiprocessing).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        Ok((
            crate::pickle::restorer(py)?,
            ("label", crate::pickle::state(self)?),
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "Label({}:{}:{}{})",
            self.file,
            self.line,
            self.column,
            self.message
                .as_ref()
                .map(|m| format!(", {}", crate::value::repr(Some(m))))
                .unwrap_or_default()
        )
    }
}

/// One problem found in the input: code, name, severity, message, location, labels, help.
#[pyclass(frozen, module = "pddlc")]
#[derive(Clone)]
pub struct Diagnostic {
    /// The stable code, such as `"C101"` (docs/diagnostics.md has a section per code).
    #[pyo3(get)]
    code: String,
    /// The code's kebab-case name, such as `"undeclared-predicate"`.
    #[pyo3(get)]
    name: String,
    /// `"error"`, `"warning"` or `"advice"`.
    #[pyo3(get)]
    severity: String,
    /// Lower case, no trailing period, identifiers in backticks.
    #[pyo3(get)]
    message: String,
    /// How to fix it, when pddlc can say.
    #[pyo3(get)]
    help: Option<String>,
    /// The input the primary label points into.
    #[pyo3(get)]
    file: String,
    /// 1-based line of the primary label's start (1 for a diagnostic about a whole input).
    #[pyo3(get)]
    line: usize,
    /// 1-based column of its start, in characters.
    #[pyo3(get)]
    column: usize,
    /// 1-based line of its end.
    #[pyo3(get)]
    end_line: usize,
    /// 1-based column of its end (exclusive), in characters.
    #[pyo3(get)]
    end_column: usize,
    /// Byte offset of the primary label.
    #[pyo3(get)]
    offset: usize,
    /// Length in bytes of the primary label.
    #[pyo3(get)]
    length: usize,
    labels: Vec<Label>,
    json: Value,
}

impl Diagnostic {
    /// From the library's typed row of the JSON contract (`render::DiagnosticRow`), field for
    /// field: nothing is rebuilt here.
    pub fn from_row(row: &DiagnosticRow) -> Diagnostic {
        Diagnostic {
            code: row.code.to_string(),
            name: row.name.to_string(),
            severity: row.severity.to_string(),
            message: row.message.to_string(),
            help: row.help.as_ref().map(|h| h.to_string()),
            file: row.file.to_string(),
            line: row.line,
            column: row.column,
            end_line: row.end_line,
            end_column: row.end_column,
            offset: row.offset,
            length: row.length,
            labels: row
                .labels
                .iter()
                .map(|l| Label {
                    file: l.file.to_string(),
                    line: l.line,
                    column: l.column,
                    offset: l.offset,
                    length: l.length,
                    message: l.message.as_ref().map(|m| m.to_string()),
                })
                .collect(),
            json: serde_json::to_value(row).unwrap_or_default(),
        }
    }

    /// The library's diagnostics, located in `sources`.
    pub fn located(diagnostics: &[diagnostics::Diagnostic], sources: &Sources) -> Vec<Diagnostic> {
        render::rows(diagnostics, sources)
            .iter()
            .map(Diagnostic::from_row)
            .collect()
    }

    /// From the `diagnostics` array of a JSON row the library serialized (a score or kitchen
    /// row), read back into the typed row; an entry that is not one is left out.
    pub fn list(values: &Value) -> Vec<Diagnostic> {
        let rows: Vec<DiagnosticRow<'static>> =
            serde_json::from_value(values.clone()).unwrap_or_default();
        rows.iter().map(Diagnostic::from_row).collect()
    }
}

#[pymethods]
impl Diagnostic {
    /// `(end_line, end_column)` of the primary label.
    #[getter]
    fn end(&self) -> (usize, usize) {
        (self.end_line, self.end_column)
    }

    /// Every label, the primary one first.
    #[getter]
    fn labels(&self) -> Vec<Label> {
        self.labels.clone()
    }

    /// The diagnostic as `pddlc check --format json` writes it.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.json)
    }

    /// Pickled as its `to_dict()` row, which it is rebuilt from.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        Ok((
            crate::pickle::restorer(py)?,
            ("diagnostic", self.json.to_string()),
        ))
    }

    /// Two diagnostics are equal when every field of `to_dict()` is (Gymnasium's checker
    /// compares the `info` of two identical steps).
    fn __eq__(&self, other: &Self) -> bool {
        self.json == other.json
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.json.to_string().hash(&mut hasher);
        hasher.finish()
    }

    /// A field of `to_dict()`: `diagnostic["code"]` is `diagnostic.code`.
    fn __getitem__<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.json.get(key) {
            Some(value) => to_py(py, value),
            None => Err(pyo3::exceptions::PyKeyError::new_err(key.to_string())),
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "Diagnostic({}:{}:{}: {}[{}] {})",
            self.file, self.line, self.column, self.severity, self.code, self.message
        )
    }

    /// `file:line:column: severity[CODE]: message`.
    fn __str__(&self) -> String {
        format!(
            "{}:{}:{}: {}[{}]: {}",
            self.file, self.line, self.column, self.severity, self.code, self.message
        )
    }
}

/// The diagnostics found in one or more inputs, and the inputs they point into.
#[pyclass(frozen, module = "pddlc")]
pub struct Report {
    sources: Vec<SourceFile>,
    diagnostics: Vec<diagnostics::Diagnostic>,
    note: Option<String>,
}

/// What a pickled `Report` holds.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct ReportState {
    sources: Vec<SourceFile>,
    diagnostics: Vec<diagnostics::Diagnostic>,
    note: Option<String>,
}

impl From<ReportState> for Report {
    fn from(state: ReportState) -> Report {
        Report::new(state.sources, state.diagnostics, state.note)
    }
}

impl Report {
    /// A report on `sources`, whose `FileId`s index that list; diagnostics are sorted as every
    /// renderer shows them.
    pub fn new(
        sources: Vec<SourceFile>,
        mut diagnostics: Vec<diagnostics::Diagnostic>,
        note: Option<String>,
    ) -> Report {
        diagnostics::sort(&mut diagnostics);
        Report {
            sources,
            diagnostics,
            note,
        }
    }

    /// The inputs the diagnostics point into.
    pub fn sources(&self) -> &[SourceFile] {
        &self.sources
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(diagnostics::Diagnostic::is_error)
    }

    pub fn json_diagnostics(&self) -> Value {
        render::json_diagnostics(&self.diagnostics, &Sources::new(&self.sources))
    }

    fn select(&self, keep: impl Fn(Severity) -> bool) -> Vec<Diagnostic> {
        let kept: Vec<diagnostics::Diagnostic> = self
            .diagnostics
            .iter()
            .filter(|d| keep(d.severity))
            .cloned()
            .collect();
        Diagnostic::located(&kept, &Sources::new(&self.sources))
    }
}

/// Renders `diagnostics` about `sources` in `format`: the one rendering path of every object.
pub fn render_in(
    format: &str,
    diagnostics: &[diagnostics::Diagnostic],
    sources: &[SourceFile],
    color: bool,
    width: usize,
) -> PyResult<String> {
    let view = Sources::new(sources);
    match format {
        "human" => {
            if width == 0 {
                return Err(PyValueError::new_err("`width` must be at least 1"));
            }
            Ok(render::human(
                diagnostics,
                &view,
                &HumanOptions { color, width },
            ))
        }
        "json" => Ok(render::json(diagnostics, &view)),
        "gcc" => Ok(render::gcc(diagnostics, &view)),
        "val" => Ok(render::val(diagnostics, &view)),
        other => Err(PyValueError::new_err(format!(
            "unknown format {other:?}: use \"human\", \"gcc\", \"val\" or \"json\""
        ))),
    }
}

#[pymethods]
impl Report {
    /// Whether no diagnostic is an error (warnings and advice allowed).
    #[getter]
    fn ok(&self) -> bool {
        !self.has_errors()
    }

    /// Every diagnostic, sorted by input and position.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        Diagnostic::located(&self.diagnostics, &Sources::new(&self.sources))
    }

    /// The diagnostics of severity error.
    #[getter]
    fn errors(&self) -> Vec<Diagnostic> {
        self.select(|s| s == Severity::Error)
    }

    /// The diagnostics of severity warning.
    #[getter]
    fn warnings(&self) -> Vec<Diagnostic> {
        self.select(|s| s == Severity::Warning)
    }

    /// What was not checked and why (a problem given without its domain), or None.
    #[getter]
    fn note(&self) -> Option<String> {
        self.note.clone()
    }

    /// The diagnostics as text: `"human"` (miette's report), `"gcc"` (`file:line:col: error:
    /// …`), `"val"` (VAL's lines, read by the VS Code PDDL extension) or `"json"` (the
    /// versioned envelope of `pddlc check --format json`).
    #[pyo3(signature = (format = "human", *, color = false, width = 80))]
    fn render(&self, format: &str, color: bool, width: usize) -> PyResult<String> {
        render_in(format, &self.diagnostics, &self.sources, color, width)
    }

    /// Pickled as its inputs, diagnostics and note.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        let state = ReportState {
            sources: self.sources.clone(),
            diagnostics: self.diagnostics.clone(),
            note: self.note.clone(),
        };
        Ok((
            crate::pickle::restorer(py)?,
            ("report", crate::pickle::state(&state)?),
        ))
    }

    /// `{"version": 1, "diagnostics": [...], "note": ...}`, the diagnostics as in the CLI's JSON.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value = json!({
            "version": JSON_VERSION,
            "diagnostics": self.json_diagnostics(),
            "note": self.note,
        });
        to_py(py, &value)
    }

    fn __repr__(&self) -> String {
        let count = |severity| {
            self.diagnostics
                .iter()
                .filter(|d| d.severity == severity)
                .count()
        };
        format!(
            "Report(ok={}, errors={}, warnings={})",
            if self.has_errors() { "False" } else { "True" },
            count(Severity::Error),
            count(Severity::Warning)
        )
    }
}
