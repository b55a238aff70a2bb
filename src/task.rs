//! The task layer: a domain and a problem, from text to a parsed and checked task, with every
//! diagnostic. It is what every front end calls (the CLI's `validate`, `applicable` and `solve`,
//! the language server's plan diagnostics, the Python binding, the tests), so that they cannot
//! disagree on what makes a task usable.
//!
//! Inputs are told apart by their content, never by file name: a problem given where the domain
//! belongs is a located `P005` that says so, and a domain and problem given in each other's
//! places are named as swapped, with the fix in the help.

use crate::ast::{Domain, PddlFile, Problem};
use crate::check;
use crate::diagnostics::{self, Code, Diagnostic, FileId};
use crate::parse::{self, Parsed};

pub use crate::diagnostics::TaskFiles;

/// What an input holds, by its content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Domain,
    Problem,
}

impl Kind {
    /// `domain` or `problem`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Domain => "domain",
            Kind::Problem => "problem",
        }
    }

    /// Which argument of a task this kind of input is.
    fn argument(self) -> &'static str {
        match self {
            Kind::Domain => "first",
            Kind::Problem => "second",
        }
    }
}

/// A domain and a problem that parsed as what they were given as, and checked without errors;
/// the warnings of both are kept (they count under `--deny-warnings`).
#[derive(Clone, Debug)]
pub struct Task {
    pub domain: Domain,
    pub problem: Problem,
    pub warnings: Vec<Diagnostic>,
}

/// A task that could not be loaded: every diagnostic found (errors, and the warnings beside
/// them), sorted by file and position. At least one is an error, unless an input could not be
/// read (the caller reports that).
pub type Unusable = Vec<Diagnostic>;

/// Parses `domain` and `problem` (`None` for an input the caller could not read and reports
/// itself; the task is then unusable) and checks the domain on its own and the problem against it. The
/// diagnostics are labelled in `files.domain` and `files.problem`.
pub fn load(
    domain: Option<&str>,
    problem: Option<&str>,
    files: TaskFiles,
) -> Result<Task, Unusable> {
    let domain = domain.map(parse::file);
    let problem = problem.map(parse::file);
    let checked = check_parsed(domain.as_ref(), problem.as_ref(), files);
    if checked.has_errors() {
        return Err(checked.diagnostics);
    }
    let warnings = checked.diagnostics;
    match (domain.and_then(|p| p.value), problem.and_then(|p| p.value)) {
        // An input the caller could not read, and reports: the other's findings are kept.
        (None, _) | (_, None) => Err(warnings),
        (Some(PddlFile::Domain(domain)), Some(PddlFile::Problem(problem))) => Ok(Task {
            domain,
            problem,
            warnings,
        }),
        // `check_parsed` reports an error for every other shape; this is never reached.
        _ => Err(vec![Diagnostic::unlocated(
            Code::InternalError,
            "the task was neither usable nor reported unusable",
        )]),
    }
}

/// The diagnostics of a task whose inputs are parsed already (the language server keeps its
/// documents parsed), and the domain and problem when both are what they were given as.
#[derive(Debug)]
pub struct Checked<'t> {
    /// The domain and the problem, when each input holds what its place asks for.
    pub pair: Option<(&'t Domain, &'t Problem)>,
    /// Parse diagnostics of both inputs, wrong or swapped inputs, and the checks' findings,
    /// sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
}

impl<'t> Checked<'t> {
    /// Whether any diagnostic is an error: the task cannot be validated or solved.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The domain and problem when the task has no errors.
    pub fn usable(&self) -> Option<(&'t Domain, &'t Problem)> {
        if self.has_errors() { None } else { self.pair }
    }

    /// The errors alone.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }
}

/// [`load`] on inputs parsed already (each parsed on its own, so labelled in `FileId(0)`; they
/// are moved into `files.domain` and `files.problem` here). `None` is an input that could not
/// be read.
pub fn check_parsed<'t>(
    domain: Option<&'t Parsed<Option<PddlFile>>>,
    problem: Option<&'t Parsed<Option<PddlFile>>>,
    files: TaskFiles,
) -> Checked<'t> {
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    for (parsed, file) in [(domain, files.domain), (problem, files.problem)] {
        if let Some(parsed) = parsed {
            diagnostics.extend(parsed.diagnostics.iter().map(|d| d.clone().in_file(file)));
        }
    }
    let domain_file = domain.and_then(|p| p.value.as_ref());
    let problem_file = problem.and_then(|p| p.value.as_ref());
    diagnostics.extend(misplaced(domain_file, problem_file, files));
    let pair = match (domain_file, problem_file) {
        (Some(PddlFile::Domain(d)), Some(PddlFile::Problem(p))) => Some((d, p)),
        _ => None,
    };
    if let Some((d, p)) = pair {
        diagnostics.extend(check::domain(d, files.domain));
        diagnostics.extend(check::problem(d, p, files));
    } else if let Some(PddlFile::Domain(d)) = domain_file {
        // The problem is missing or misplaced: the domain is still checked on its own.
        diagnostics.extend(check::domain(d, files.domain));
    }
    diagnostics::sort(&mut diagnostics);
    Checked { pair, diagnostics }
}

/// `P005` for an input that holds the wrong kind of definition: a problem where the domain
/// belongs, a domain where the problem belongs, or both (the inputs are swapped), each located on
/// the definition's name.
fn misplaced(
    domain: Option<&PddlFile>,
    problem: Option<&PddlFile>,
    files: TaskFiles,
) -> Vec<Diagnostic> {
    let swapped = matches!(
        (domain, problem),
        (Some(PddlFile::Problem(_)), Some(PddlFile::Domain(_)))
    );
    let mut found = Vec::new();
    if let Some(file @ PddlFile::Problem(_)) = domain {
        found.push(wrong_kind(file, Kind::Domain, swapped, files.domain));
    }
    if let Some(file @ PddlFile::Domain(_)) = problem {
        found.push(wrong_kind(file, Kind::Problem, swapped, files.problem));
    }
    found
}

fn wrong_kind(file: &PddlFile, expected: Kind, swapped: bool, id: FileId) -> Diagnostic {
    let (found, span) = match file {
        PddlFile::Domain(d) => (Kind::Domain, d.name.span),
        PddlFile::Problem(p) => (Kind::Problem, p.name.span),
    };
    let help = if swapped {
        "the domain and the problem are swapped: give the domain first, then the problem"
            .to_string()
    } else {
        format!(
            "this is a {}; pass it as the {} argument, and a {} here",
            found.as_str(),
            found.argument(),
            expected.as_str()
        )
    };
    Diagnostic::new(
        Code::SyntaxError,
        format!(
            "expected a {}, found a {}",
            expected.as_str(),
            found.as_str()
        ),
        span,
    )
    .with_primary_message(format!("this is a {}", found.as_str()))
    .with_help(help)
    .in_file(id)
}
