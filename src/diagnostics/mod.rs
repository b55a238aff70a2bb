//! The one diagnostic type every stage reports with, its code registry, and its renderers.

mod bounded;
mod codes;
pub mod render;
mod source;

pub use bounded::{Bounded, Handle, sort_once};
pub use codes::Code;
pub use source::{LineCol, LineIndex, SourceFile};

use crate::ast::Span;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which input a label points into: an index into the list of sources given to a renderer.
/// Stages that read one input report in `FileId(0)`; callers combining inputs renumber.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct FileId(pub u32);

/// Which inputs the labels of a task's diagnostics point into: its domain, its problem and (for
/// validation) its plan. Checking, validation, planning and the task layer all label by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskFiles {
    pub domain: FileId,
    pub problem: FileId,
    pub plan: FileId,
}

impl Default for TaskFiles {
    /// The domain is input 0, the problem 1 and the plan 2, as the CLI numbers them.
    fn default() -> TaskFiles {
        TaskFiles {
            domain: FileId(0),
            problem: FileId(1),
            plan: FileId(2),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
    Advice,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Advice => "advice",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A located piece of a diagnostic. The first label of a diagnostic is its primary location.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Label {
    pub file: FileId,
    pub span: Span,
    pub message: Option<String>,
}

/// A problem found in the input: what every stage returns and every renderer shows.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// Lower-case, no trailing period, identifiers in backticks.
    pub message: String,
    /// The first label is the primary location; a diagnostic about a whole input may have none.
    pub labels: Vec<Label>,
    /// How to fix it, when we can say.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity and a primary label at `span` in file 0.
    pub fn new(code: Code, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.default_severity(),
            message: message.into(),
            labels: vec![Label {
                file: FileId::default(),
                span,
                message: None,
            }],
            help: None,
        }
    }

    /// A diagnostic about an input as a whole, with no location.
    pub fn unlocated(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.default_severity(),
            message: message.into(),
            labels: Vec::new(),
            help: None,
        }
    }

    /// A `P090 io-error`: an input that could not be read, located at the start of its (empty)
    /// source, with the reason; the front ends read files and report them so.
    pub fn io_error(message: impl Into<String>) -> Diagnostic {
        let message = message.into();
        let help = io_help(&message);
        Diagnostic::new(Code::IoError, message, Span::new(0, 0)).with_help(help)
    }

    /// Sets the message of the primary label.
    pub fn with_primary_message(mut self, message: impl Into<String>) -> Diagnostic {
        if let Some(label) = self.labels.first_mut() {
            label.message = Some(message.into());
        }
        self
    }

    /// Adds a secondary label in the same file as the primary one.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        let file = self.primary().map(|l| l.file).unwrap_or_default();
        self.labels.push(Label {
            file,
            span,
            message: Some(message.into()),
        });
        self
    }

    /// Adds a secondary label in `file`, which may differ from the primary label's.
    pub fn with_label_in(
        mut self,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        self.labels.push(Label {
            file,
            span,
            message: Some(message.into()),
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn with_severity(mut self, severity: Severity) -> Diagnostic {
        self.severity = severity;
        self
    }

    /// Moves every label into `file` (for diagnostics of a stage that read a single input).
    pub fn in_file(mut self, file: FileId) -> Diagnostic {
        for label in &mut self.labels {
            label.file = file;
        }
        self
    }

    /// Moves every label `by` bytes later: for a stage that read a slice of its input starting
    /// at byte `by`.
    pub fn shifted(mut self, by: usize) -> Diagnostic {
        for label in &mut self.labels {
            label.span = Span::new(label.span.start + by, label.span.end + by);
        }
        self
    }

    pub fn primary(&self) -> Option<&Label> {
        self.labels.first()
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Orders diagnostics by file and position, then by code, as every renderer presents them.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_key(sort_key);
}

/// What [`sort`] orders by: the primary label's file and span, then the code.
type SortKey = (FileId, usize, usize, Code);

/// A diagnostic's [`SortKey`]; unlocated diagnostics come first.
fn sort_key(diagnostic: &Diagnostic) -> SortKey {
    let (file, start, end) = diagnostic
        .primary()
        .map(|l| (l.file, l.span.start, l.span.end))
        .unwrap_or_default();
    (file, start, end, diagnostic.code)
}

/// The most diagnostics a stage reports for one input; [`cap`] folds the rest into one note.
pub const MAX_PER_FILE: usize = 100;

/// Diagnostics left out of a report: how many, how many of them errors, and the first of them
/// in [`sort`] order, where the note that counts them stands.
#[derive(Clone, Debug, Default)]
struct LeftOut {
    count: usize,
    errors: usize,
    warnings: usize,
    first: Option<(SortKey, Option<Label>)>,
}

impl LeftOut {
    fn count(&mut self, diagnostic: &Diagnostic) {
        self.count += 1;
        self.errors += usize::from(diagnostic.is_error());
        self.warnings += usize::from(diagnostic.severity == Severity::Warning);
        let key = sort_key(diagnostic);
        if self.first.as_ref().is_none_or(|(first, _)| key < *first) {
            self.first = Some((key, diagnostic.primary().cloned()));
        }
    }

    fn uncount(&mut self, diagnostic: &Diagnostic) {
        self.count = self.count.saturating_sub(1);
        self.errors = self
            .errors
            .saturating_sub(usize::from(diagnostic.is_error()));
        self.warnings = self
            .warnings
            .saturating_sub(usize::from(diagnostic.severity == Severity::Warning));
    }
}

/// Keeps the first [`MAX_PER_FILE`] of sorted diagnostics and replaces the others by one
/// `P019 too-many-diagnostics` note at the first one left out, saying how many there were. The
/// note is an error when any diagnostic it stands for is, else a warning when any is, so that
/// severities (and exit codes, `--deny-warnings` included) stay what they were. Bounds the output, and the rendering time, of a damaged input.
pub fn cap(diagnostics: &mut Vec<Diagnostic>) {
    cap_counting(diagnostics, LeftOut::default());
}

/// [`cap`], where `left_out` were left out already (they all sort after what is kept).
fn cap_counting(diagnostics: &mut Vec<Diagnostic>, mut left_out: LeftOut) {
    if diagnostics.len() > MAX_PER_FILE {
        for diagnostic in &diagnostics[MAX_PER_FILE..] {
            left_out.count(diagnostic);
        }
        diagnostics.truncate(MAX_PER_FILE);
    }
    if left_out.count == 0 {
        return;
    }
    let LeftOut {
        count,
        errors,
        warnings,
        first,
    } = left_out;
    let mut note = match first.and_then(|(_, label)| label) {
        Some(label) => {
            Diagnostic::new(Code::TooManyDiagnostics, String::new(), label.span).in_file(label.file)
        }
        None => Diagnostic::unlocated(Code::TooManyDiagnostics, String::new()),
    };
    note.message = format!(
        "{count} more diagnostic{} from here on {} not shown ({errors} of them errors)",
        if count == 1 { "" } else { "s" },
        if count == 1 { "is" } else { "are" },
    );
    note = note.with_help(format!(
        "only the first {MAX_PER_FILE} diagnostics of an input are reported; fix these and run \
         again"
    ));
    if errors > 0 {
        note = note.with_severity(Severity::Error);
    } else if warnings > 0 {
        note = note.with_severity(Severity::Warning);
    }
    diagnostics.push(note);
}

/// The fix for an input that could not be read, by the operating system's reason (`os error N`
/// reads the same in every locale).
fn io_help(message: &str) -> &'static str {
    if message.ends_with("(os error 21)") {
        "this argument is a file, not a directory (`check` and `fmt` take directories of .pddl files)"
    } else if message.ends_with("(os error 13)") {
        "you have no permission to read it"
    } else if message.contains("can be read only once") {
        "give standard input (`-`) to one argument only"
    } else {
        "check the path; `-` reads standard input, once"
    }
}
