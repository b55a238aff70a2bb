//! Text to AST: the only module that knows pest.
//!
//! Parsing never fails: every entry point returns whatever it could build plus every diagnostic
//! it could find. The pipeline is: [`decode`] bytes (UTF-8, not binary) → a lexical pass over
//! parentheses (nesting bound, unclosed forms) → the pest grammar with recovery rules → lowering
//! of pest pairs into [`crate::ast`].

mod answer;
mod bddl;
mod errors;
mod flat;
mod grammar;
mod lower;
mod prose;
mod scan;

pub use answer::extract_answer;
pub use bddl::bddl;
pub use scan::MAX_DEPTH;

/// The sections a domain may have, `:requirements` first.
pub const DOMAIN_SECTIONS: &[&str] = &[
    ":requirements",
    ":types",
    ":constants",
    ":predicates",
    ":functions",
    ":constraints",
    ":action",
    ":durative-action",
    ":process",
    ":event",
    ":derived",
];

/// The stack a recursive stage needs for [`MAX_DEPTH`] levels, with a margin of two in an
/// unoptimised build: the deepest inputs (`not`s or numeric terms nested to the bound) take
/// 2.9 MiB through parse, check, print and scoring there (pest's generated code needs about
/// 11 KiB a level), 0.5 MiB in the dev and release profiles. It is less than a main thread's
/// usual 8 MiB, so that a program (`pddlc` itself) calling stages on its main thread does not
/// map a new stack for each call. tests/robustness.rs runs the deepest inputs on a thread of
/// this much stack.
pub const STACK_NEEDED: usize = 6 * 1024 * 1024;

/// The stack a stage moves onto when the caller's has less than [`STACK_NEEDED`] left. It is
/// reserved, not committed: only the pages used cost memory.
pub const STACK_SIZE: usize = 64 * 1024 * 1024;

/// Runs `f` where at least [`STACK_NEEDED`] of stack is left: on the caller's stack when it has
/// that much, else on a new stack of [`STACK_SIZE`]. Recursion bounded by [`MAX_DEPTH`] cannot
/// overflow, and stages that call each other share one stack instead of nesting new ones.
pub fn with_stack<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(STACK_NEEDED, STACK_SIZE, f)
}

use crate::ast::{Domain, Gd, Init, Name, PddlFile, Problem, Span, Type};
use crate::diagnostics::{Code, Diagnostic};

/// A stage's result: the value it could build, and everything it found wrong on the way.
#[derive(Clone, Debug)]
pub struct Parsed<T> {
    pub value: T,
    pub diagnostics: Vec<Diagnostic>,
}

impl<T> Parsed<T> {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Reads bytes as PDDL source text: UTF-8 (a leading byte-order mark is allowed), no NUL bytes.
pub fn decode(bytes: &[u8]) -> Result<&str, Diagnostic> {
    // `contains` finds a byte with the platform's `memchr`; most inputs have no NUL.
    if bytes.contains(&0)
        && let Some(at) = bytes.iter().position(|&b| b == 0)
    {
        return Err(Diagnostic::new(
            Code::BinaryInput,
            "the input contains a NUL byte: it is not a text file",
            Span::new(at, at + 1),
        )
        .with_help("pass a PDDL text file; a UTF-16 file must be converted to UTF-8 first"));
    }
    std::str::from_utf8(bytes).map_err(|error| {
        let at = error.valid_up_to();
        let len = error.error_len().unwrap_or(bytes.len() - at).max(1);
        Diagnostic::new(
            Code::InvalidUtf8,
            format!("the input is not valid UTF-8 (byte 0x{:02x})", bytes[at]),
            Span::new(at, (at + len).min(bytes.len())),
        )
        .with_help("PDDL files are read as UTF-8; convert the file, e.g. with `iconv -t UTF-8`")
    })
}

/// Parses a domain or a problem, told apart by its `(define (domain …))` or
/// `(define (problem …))` header.
/// Markdown or prose around the definition (a chat answer) is reported once and blanked out, so
/// the definition inside is still read.
pub fn file(source: &str) -> Parsed<Option<PddlFile>> {
    file_by(source, Route::FlatListsFirst, None)
}

/// Takes a problem's objects, initial facts and goal from [`file_streaming`] one at a time
/// instead of the tree, for a caller that looks at each once (a check) and need not keep
/// millions of them.
pub trait FactSink {
    /// One name of the problem's `(:objects …)`, in order, before any fact or goal.
    fn object(&mut self, name: Name);
    /// The type written after the objects named since the previous type (`a b - t`).
    fn object_type(&mut self, ty: Type);
    /// The end of the objects (also when the problem has none), before any fact or goal; the
    /// names since the last type have none.
    fn objects_end(&mut self);
    /// One initial fact.
    fn fact(&mut self, fact: Init);
    /// The goal, or one conjunct of its top-level `(and …)`.
    fn goal(&mut self, goal: Gd);
    /// Forget everything received so far: the tree holds all of it after all.
    fn discard(&mut self);
}

/// Parses like [`file`], but hands a problem's objects, initial facts and goal to `sink`
/// instead of keeping them in the tree when the fast path reads them and the problem's objects
/// come before its facts and goal. The tree then has no objects, initial facts or goal; when
/// the sink was told to discard (a list that was not flat after all, any diagnostic), or
/// received nothing, the tree is whole.
pub fn file_streaming(source: &str, sink: &mut dyn FactSink) -> Parsed<Option<PddlFile>> {
    file_by(source, Route::FlatListsFirst, Some(sink))
}

/// The domain a problem's text names in `(:domain NAME)`, read from the bytes without parsing
/// (to pick the domain to check it against before it is parsed): `Some(None)` for a problem
/// that names none, `None` for a text that is not a problem. The parse decides: a caller
/// compares this with the tree's `Problem::domain`.
pub fn problem_domain(source: &str) -> Option<Option<&str>> {
    flat::problem_domain(source)
}

/// Whether the fast path for flat lists may read the file, or pest reads all of it.
#[derive(Clone, Copy, PartialEq)]
enum Route {
    FlatListsFirst,
    PestOnly,
}

fn file_by(
    source: &str,
    route: Route,
    sink: Option<&mut dyn FactSink>,
) -> Parsed<Option<PddlFile>> {
    // Nearly every text balances: one pass finds that, where its first form closes and the
    // sections' places; any other text is scanned again for what is wrong.
    let outline = scan::outline(source);
    let first_close = outline.as_ref().and_then(|outline| outline.top_level_close);
    let Some((unwrapped, diagnostic)) = prose::unwrap(source, first_close) else {
        return definition(source, outline, route, sink);
    };
    // The text around the definition is blanked: its parentheses are gone too.
    let outline = scan::outline(&unwrapped);
    let mut parsed = definition(&unwrapped, outline, route, sink);
    parsed.diagnostics.insert(0, diagnostic);
    crate::diagnostics::sort(&mut parsed.diagnostics);
    parsed
}

fn definition(
    source: &str,
    outline: Option<scan::Outline>,
    route: Route,
    mut sink: Option<&mut dyn FactSink>,
) -> Parsed<Option<PddlFile>> {
    let mut scan = match &outline {
        Some(outline) => outline.scan(),
        None => scan::scan(source),
    };
    if scan.diagnostics.iter().any(Diagnostic::is_error) {
        crate::diagnostics::cap(&mut scan.diagnostics);
        return Parsed {
            value: None,
            diagnostics: scan.diagnostics,
        };
    }
    if route == Route::FlatListsFirst
        && let Some(outline) = &outline
    {
        let flat = match flat::read_into(source, &outline.marks, sink.as_deref_mut()) {
            Ok(flat) => flat,
            // A list the sink was given part of is not flat after all: read again, keeping
            // every list in the tree.
            Err(flat::Interrupted) => {
                if let Some(sink) = sink.as_deref_mut() {
                    sink.discard();
                }
                flat::read(source, &outline.marks)
            }
        };
        if let Some(flat) = flat {
            let fed_sink = flat.fed_sink;
            if let Some(value) = with_stack(|| lower::file_with_flat_lists(source, flat)) {
                return Parsed {
                    value: Some(value),
                    diagnostics: Vec::new(),
                };
            }
            if fed_sink && let Some(sink) = sink {
                sink.discard();
            }
        }
    }
    pest_only(source, scan)
}

/// Whether the fast path reads some of this text's lists (a problem's objects, initial state
/// or goal) instead of pest. For tests that must know the fast path ran.
#[doc(hidden)]
pub fn reads_flat_lists(source: &str) -> bool {
    scan::outline(source).is_some_and(|outline| {
        flat::read(source, &outline.marks)
            .is_some_and(|flat| lower::file_with_flat_lists(source, flat).is_some())
    })
}

/// The whole source through pest, without the fast path for flat lists: what
/// [`file`] must equal. For tests that compare the two routes.
#[doc(hidden)]
pub fn file_through_pest_only(source: &str) -> Parsed<Option<PddlFile>> {
    file_by(source, Route::PestOnly, None)
}

fn pest_only(source: &str, scan: scan::Scan) -> Parsed<Option<PddlFile>> {
    let mut parsed = with_stack(|| lower::file(source, scan.top_level_close, scan.surplus_tail));
    crate::diagnostics::cap(&mut parsed.diagnostics);
    parsed
}

/// Parses a domain; a problem (or anything else) is an error.
pub fn domain(source: &str) -> Parsed<Option<Domain>> {
    let parsed = file(source);
    let mut diagnostics = parsed.diagnostics;
    let value = match parsed.value {
        Some(PddlFile::Domain(domain)) => Some(domain),
        Some(PddlFile::Problem(problem)) => {
            diagnostics.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    "expected a domain, found a problem",
                    problem.name.span,
                )
                .with_help("pass the domain file here"),
            );
            None
        }
        None => None,
    };
    Parsed { value, diagnostics }
}

/// Parses a problem; a domain (or anything else) is an error.
pub fn problem(source: &str) -> Parsed<Option<Problem>> {
    let parsed = file(source);
    let mut diagnostics = parsed.diagnostics;
    let value = match parsed.value {
        Some(PddlFile::Problem(problem)) => Some(problem),
        Some(PddlFile::Domain(domain)) => {
            diagnostics.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    "expected a problem, found a domain",
                    domain.name.span,
                )
                .with_help("pass the problem file here"),
            );
            None
        }
        None => None,
    };
    Parsed { value, diagnostics }
}
