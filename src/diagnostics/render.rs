//! Renderers: one list of diagnostics, shown for people (miette), as JSON, or as one-line formats
//! for editors and scripts. They return text; printing it is the caller's business.

use super::{Diagnostic, FileId, LineCol, LineIndex, Severity, SourceFile};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::cell::OnceCell;
use std::fmt;

/// The sources diagnostics point into, indexed by [`FileId`]. A file's line index is built the
/// first time a diagnostic points into it, so a view over large inputs is cheap to make and
/// files nothing points into are never scanned.
pub struct Sources<'a> {
    files: Vec<(&'a SourceFile, OnceCell<LineIndex>)>,
}

impl<'a> Sources<'a> {
    pub fn new(files: &'a [SourceFile]) -> Sources<'a> {
        Sources {
            files: files.iter().map(|f| (f, OnceCell::new())).collect(),
        }
    }

    fn get(&self, file: FileId) -> Option<(&'a SourceFile, &LineIndex)> {
        self.files
            .get(file.0 as usize)
            .map(|(f, index)| (*f, index.get_or_init(|| LineIndex::new(&f.text))))
    }

    /// The file, without building its line index.
    fn source(&self, file: FileId) -> Option<&'a SourceFile> {
        self.files.get(file.0 as usize).map(|(f, _)| *f)
    }

    fn name(&self, file: FileId) -> &str {
        self.source(file).map_or("<input>", |f| f.name.as_str())
    }

    fn line_col(&self, file: FileId, offset: usize) -> LineCol {
        match self.get(file) {
            Some((f, index)) => index.line_col(&f.text, offset),
            None => LineCol { line: 1, column: 1 },
        }
    }

    /// The line and GCC's display column (tabs to stops of 8).
    fn display_line_col(&self, file: FileId, offset: usize) -> LineCol {
        match self.get(file) {
            Some((f, index)) => index.display_line_col(&f.text, offset),
            None => LineCol { line: 1, column: 1 },
        }
    }
}

/// Options of the graphical renderer.
#[derive(Clone, Debug)]
pub struct HumanOptions {
    pub color: bool,
    /// Terminal width the report wraps to.
    pub width: usize,
}

impl Default for HumanOptions {
    fn default() -> HumanOptions {
        HumanOptions {
            color: false,
            width: 80,
        }
    }
}

/// miette's graphical report of every diagnostic, one after another.
pub fn human(diagnostics: &[Diagnostic], sources: &Sources, options: &HumanOptions) -> String {
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(options.width)
        .with_links(false);
    let mut out = String::new();
    for diagnostic in diagnostics {
        let report = Report::new(diagnostic, sources);
        if handler.render_report(&mut out, &report).is_err() {
            // Rendering into a String cannot fail; fall back to the one-line form regardless.
            out.push_str(&gcc(std::slice::from_ref(diagnostic), sources));
        }
        out.push('\n');
    }
    out
}

/// A diagnostic as miette sees it: labels in the primary file go on its source, labels in other
/// files become related reports on theirs.
#[derive(Debug)]
struct Report {
    code: String,
    severity: miette::Severity,
    message: String,
    help: Option<String>,
    source: Option<NamedSource<String>>,
    labels: Vec<LabeledSpan>,
    related: Vec<Report>,
}

impl Report {
    fn new(diagnostic: &Diagnostic, sources: &Sources) -> Report {
        let severity = match diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Advice => miette::Severity::Advice,
        };
        let primary_file = diagnostic.primary().map(|l| l.file);
        let mut report = Report {
            code: format!("{}({})", diagnostic.code, diagnostic.code.name()),
            severity,
            message: diagnostic.message.clone(),
            help: diagnostic.help.clone(),
            source: primary_file.and_then(|f| named_source(sources, f)),
            labels: Vec::new(),
            related: Vec::new(),
        };
        for (i, label) in diagnostic.labels.iter().enumerate() {
            let span = (label.span.start, label.span.len());
            let labeled = if i == 0 {
                LabeledSpan::new_primary_with_span(label.message.clone(), span)
            } else {
                LabeledSpan::new_with_span(label.message.clone(), span)
            };
            if Some(label.file) == primary_file {
                report.labels.push(labeled);
            } else {
                report.related.push(Report {
                    // miette heads a related report with its severity and code: "Advice: see
                    // also", not an empty "Advice:".
                    code: "see also".into(),
                    severity: miette::Severity::Advice,
                    message: label.message.clone().unwrap_or_else(|| "see here".into()),
                    help: None,
                    source: named_source(sources, label.file),
                    labels: vec![LabeledSpan::new_primary_with_span(None, span)],
                    related: Vec::new(),
                });
            }
        }
        report
    }
}

fn named_source(sources: &Sources, file: FileId) -> Option<NamedSource<String>> {
    sources
        .source(file)
        .map(|f| NamedSource::new(f.name.clone(), f.text.clone()).with_language("lisp"))
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        (!self.code.is_empty()).then(|| Box::new(&self.code) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() || self.source.is_none() {
            return None;
        }
        Some(Box::new(self.labels.iter().cloned()))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
}

/// The version of the JSON shape; bumped on any incompatible change.
pub const JSON_VERSION: u32 = 1;

#[derive(Serialize)]
struct JsonOutput<'a> {
    version: u32,
    diagnostics: Vec<DiagnosticRow<'a>>,
}

/// One diagnostic as the JSON contract writes it (docs/cli.md): the row every surface shares,
/// typed, so that the CLI's JSON, the Python binding's objects and the language server read the
/// same fields. Lines and columns are 1-based (columns in characters), offsets and lengths in
/// bytes; `file` is the input's shown name. Read back from JSON, every string is owned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiagnosticRow<'a> {
    pub file: Cow<'a, str>,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub offset: usize,
    pub length: usize,
    /// `error`, `warning` or `advice`.
    pub severity: Cow<'a, str>,
    /// The stable code, such as `C101`.
    pub code: Cow<'a, str>,
    /// The code's kebab-case name.
    pub name: Cow<'a, str>,
    pub message: Cow<'a, str>,
    pub help: Option<Cow<'a, str>>,
    /// Every label, the primary one first.
    pub labels: Vec<LabelRow<'a>>,
}

/// One label of a [`DiagnosticRow`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelRow<'a> {
    pub file: Cow<'a, str>,
    pub line: usize,
    pub column: usize,
    pub offset: usize,
    pub length: usize,
    pub message: Option<Cow<'a, str>>,
}

/// The versioned JSON envelope: 1-based lines and columns (columns in characters), byte offsets
/// and lengths, every label (the primary one first).
pub fn json(diagnostics: &[Diagnostic], sources: &Sources) -> String {
    let output = JsonOutput {
        version: JSON_VERSION,
        diagnostics: rows(diagnostics, sources),
    };
    serde_json::to_string_pretty(&output).unwrap_or_else(|e| {
        // Serialising plain strings and numbers cannot fail; keep the envelope regardless.
        format!("{{\"version\":{JSON_VERSION},\"diagnostics\":[],\"error\":\"{e}\"}}")
    })
}

/// The envelope's `diagnostics` array, for outputs that embed diagnostics in their own JSON
/// (a plan's report, a kitchen run).
pub fn json_diagnostics(diagnostics: &[Diagnostic], sources: &Sources) -> serde_json::Value {
    serde_json::to_value(rows(diagnostics, sources)).unwrap_or_default()
}

/// The diagnostics as the JSON contract's typed rows, located in `sources`.
pub fn rows<'a>(diagnostics: &'a [Diagnostic], sources: &'a Sources) -> Vec<DiagnosticRow<'a>> {
    diagnostics.iter().map(|d| row(d, sources)).collect()
}

/// One diagnostic as a typed row, located in `sources`.
fn row<'a>(d: &'a Diagnostic, sources: &'a Sources) -> DiagnosticRow<'a> {
    let file = d.primary().map(|l| l.file).unwrap_or_default();
    let span = d.primary().map(|l| l.span).unwrap_or_default();
    let start = sources.line_col(file, span.start);
    let end = sources.line_col(file, span.end);
    DiagnosticRow {
        file: Cow::Borrowed(sources.name(file)),
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
        offset: span.start,
        length: span.len(),
        severity: Cow::Borrowed(d.severity.as_str()),
        code: Cow::Borrowed(d.code.as_str()),
        name: Cow::Borrowed(d.code.name()),
        message: Cow::Borrowed(&d.message),
        help: d.help.as_deref().map(Cow::Borrowed),
        labels: d
            .labels
            .iter()
            .map(|l| {
                let at = sources.line_col(l.file, l.span.start);
                LabelRow {
                    file: Cow::Borrowed(sources.name(l.file)),
                    line: at.line,
                    column: at.column,
                    offset: l.span.start,
                    length: l.span.len(),
                    message: l.message.as_deref().map(Cow::Borrowed),
                }
            })
            .collect(),
    }
}

/// GCC's shape, which Vim's quickfix and Emacs's compile-mode read: a line per diagnostic,
/// `file:line:col: error: message [P005]` (severity `error`, `warning` or `note` for advice),
/// then a `note:` line per secondary label at its own place, and `note: help: …` with the help
/// at the primary place. Columns are display columns, tabs to stops of 8, as GCC counts them.
/// A diagnostic without a place (an empty plan, a task that is refused as a whole) is
/// `file: error: message [CODE]`, without line and column, as GCC writes a file's own
/// messages: an editor then lists it without sending the cursor to a line it is not about.
pub fn gcc(diagnostics: &[Diagnostic], sources: &Sources) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let file = d.primary().map(|l| l.file).unwrap_or_default();
        let place = match d.primary() {
            Some(primary) => {
                let at = sources.display_line_col(primary.file, primary.span.start);
                format!("{}:{}:{}", sources.name(file), at.line, at.column)
            }
            None => sources.name(file).to_string(),
        };
        let severity = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Advice => "note",
        };
        out.push_str(&format!(
            "{place}: {severity}: {} [{}]\n",
            one_line(&d.message),
            d.code,
        ));
        for label in d.labels.iter().skip(1) {
            let Some(message) = &label.message else {
                continue;
            };
            let at = sources.display_line_col(label.file, label.span.start);
            out.push_str(&format!(
                "{}:{}:{}: note: {}\n",
                sources.name(label.file),
                at.line,
                at.column,
                one_line(message),
            ));
        }
        if let Some(help) = &d.help {
            out.push_str(&format!("{place}: note: help: {}\n", one_line(help)));
        }
    }
    out
}

/// A message on one line: runs of whitespace, newlines included, become one space, so that a
/// one-line format stays one line a diagnostic.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// VAL's shape, which the VS Code PDDL extension reads with
/// `^(file)\s*:\s*line\s*:\s*(\d*)\s*:\s*(Error|Warning)\s*:\s*(.*)$` (case-insensitive):
/// `file: line: N: Error: [P005] message; help: …` (`Warning` for warnings and advice). The help
/// stays on that line, so that the message the extension shows carries it. Each secondary label
/// follows as `file: line: M: Note: …` at its own place: the extension's pattern, which accepts
/// `Error` and `Warning` only, skips those lines instead of counting them as problems.
pub fn val(diagnostics: &[Diagnostic], sources: &Sources) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let file = d.primary().map(|l| l.file).unwrap_or_default();
        let at = sources.line_col(file, d.primary().map(|l| l.span.start).unwrap_or(0));
        let severity = match d.severity {
            Severity::Error => "Error",
            Severity::Warning | Severity::Advice => "Warning",
        };
        let help = d
            .help
            .as_deref()
            .map(|help| format!("; help: {}", one_line(help)))
            .unwrap_or_default();
        out.push_str(&format!(
            "{}: line: {}: {severity}: [{}] {}{help}\n",
            sources.name(file),
            at.line,
            d.code,
            one_line(&d.message),
        ));
        for label in d.labels.iter().skip(1) {
            let Some(message) = &label.message else {
                continue;
            };
            let at = sources.line_col(label.file, label.span.start);
            out.push_str(&format!(
                "{}: line: {}: Note: {}\n",
                sources.name(label.file),
                at.line,
                one_line(message),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::{Code, Span};

    #[test]
    fn gcc_lines_give_a_place_only_to_a_located_diagnostic() {
        let files = [SourceFile::new("plan.txt", "\t(move a b)\n(stack c d)\n")];
        let sources = Sources::new(&files);
        let located = Diagnostic::new(Code::ValidateUnsupported, "here", Span::new(13, 24))
            .with_help("a help");
        let unlocated = Diagnostic::unlocated(Code::ValidateUnsupported, "the task as a whole")
            .with_help("about\n  no line");
        assert_eq!(
            gcc(&[located, unlocated], &sources),
            "plan.txt:2:2: error: here [V310]\n\
             plan.txt:2:2: note: help: a help\n\
             plan.txt: error: the task as a whole [V310]\n\
             plan.txt: note: help: about no line\n"
        );
    }
}
