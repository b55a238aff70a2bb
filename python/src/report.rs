//! `Report`, `Diagnostic` and `Label`: the library's one `Diagnostic`, located through the JSON
//! renderer's own fields (so a Python diagnostic and `pddlc check --format json` agree field for
//! field), and rendered by the library's renderers.

use crate::value::to_py;
use pddlc::diagnostics::render::{self, HumanOptions, JSON_VERSION, Sources};
use pddlc::diagnostics::{self, Severity, SourceFile};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{Value, json};

/// A located part of a diagnostic; the first label of a diagnostic is its primary location.
#[pyclass(frozen, module = "pddlc")]
#[derive(Clone)]
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

fn text(value: &Value, key: &str) -> String {
    value[key].as_str().unwrap_or_default().to_string()
}

fn number(value: &Value, key: &str) -> usize {
    value[key].as_u64().unwrap_or_default() as usize
}

impl Diagnostic {
    /// From one entry of the renderer's `json_diagnostics`.
    pub fn from_json(value: &Value) -> Diagnostic {
        let labels = value["labels"]
            .as_array()
            .map(|labels| {
                labels
                    .iter()
                    .map(|l| Label {
                        file: text(l, "file"),
                        line: number(l, "line"),
                        column: number(l, "column"),
                        offset: number(l, "offset"),
                        length: number(l, "length"),
                        message: l["message"].as_str().map(str::to_string),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Diagnostic {
            code: text(value, "code"),
            name: text(value, "name"),
            severity: text(value, "severity"),
            message: text(value, "message"),
            help: value["help"].as_str().map(str::to_string),
            file: text(value, "file"),
            line: number(value, "line"),
            column: number(value, "column"),
            end_line: number(value, "end_line"),
            end_column: number(value, "end_column"),
            offset: number(value, "offset"),
            length: number(value, "length"),
            labels,
            json: value.clone(),
        }
    }

    pub fn list(values: &Value) -> Vec<Diagnostic> {
        values
            .as_array()
            .map(|items| items.iter().map(Diagnostic::from_json).collect())
            .unwrap_or_default()
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
        Diagnostic::list(&render::json_diagnostics(
            &kept,
            &Sources::new(&self.sources),
        ))
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
        Diagnostic::list(&self.json_diagnostics())
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
