//! Lowering of pest pairs into the AST, with a diagnostic for every recovery pair.
//!
//! The grammar fixes the shape of every pair, so a shape this code does not expect is a bug in
//! pddlc: it is reported as `P000 internal-error` instead of a panic.
//!
//! This module holds the entry point, the file level (preamble, trailing forms) and the shared
//! helpers; each grammar construct has a `parse_<construct>.rs` of its own.

use super::Parsed;
use super::errors::{from_pest, locate, missing_definition};
use super::flat::Cuts;
use super::grammar::{PddlParser, Rule};
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic};
use pest::Parser;
use pest::iterators::{Pair, Pairs};

mod parse_action;
mod parse_domain;
mod parse_effect;
mod parse_expr;
mod parse_gd;
mod parse_problem;
mod parse_sections;
mod parse_tokens;

type P<'a> = Pair<'a, Rule>;

/// A pair of a shape the grammar rules out: where it was met, and what was expected.
struct Bug {
    span: Span,
    expected: &'static str,
}

type R<T> = Result<T, Bug>;

pub(super) fn file(
    source: &str,
    top_level_close: Option<usize>,
    surplus_tail: Option<usize>,
) -> Parsed<Option<PddlFile>> {
    let mut lower = Lower {
        source,
        diagnostics: Vec::new(),
        top_level_close,
        surplus_tail: None,
        cuts: None,
    };
    if is_blank(source) {
        lower.diagnostics.push(
            Diagnostic::new(
                Code::EmptyInput,
                "the input is empty: expected `(define (domain …))` or `(define (problem …))`",
                Span::new(source.len(), source.len()),
            )
            .with_help("pass a PDDL domain or problem file"),
        );
        return lower.finish(None);
    }
    let whole = Span::new(0, source.len());
    // A run of surplus `)` ending the input is counted here rather than parsed pair by pair.
    let text = match surplus_tail {
        Some(start) => {
            let tail = &source[start..];
            let count = tail.bytes().filter(|&b| b == b')').count();
            let last = start + tail.rfind(')').unwrap_or(0);
            lower.surplus_tail = Some((
                Span::new(start, start + 1),
                Span::new(last, last + 1),
                count,
            ));
            &source[..start]
        }
        None => source,
    };
    if surplus_tail.is_none()
        && let Some(missing) = missing_definition(source)
    {
        lower.diagnostics.push(missing);
        return lower.finish(None);
    }
    let value = match PddlParser::parse(Rule::file, text) {
        Err(error) => {
            // Rare: report the error exactly as a parse of the whole input does (when the
            // surplus `)` were left out of this one).
            let error = if text.len() < source.len() {
                PddlParser::parse(Rule::file, source).err().unwrap_or(error)
            } else {
                error
            };
            lower.diagnostics.push(from_pest(source, whole, &error));
            None
        }
        Ok(mut pairs) => match pairs.next() {
            Some(pair) => match lower.file(pair) {
                Ok(value) => value,
                Err(bug) => {
                    lower.bug(bug);
                    None
                }
            },
            None => {
                lower.bug(Bug {
                    span: whole,
                    expected: "a file",
                });
                None
            }
        },
    };
    lower.finish(value)
}

/// Whether the text has nothing but whitespace and comments.
fn is_blank(source: &str) -> bool {
    source.lines().all(|line| {
        let code = line.split(';').next().unwrap_or("");
        code.chars()
            .all(|c| c.is_whitespace() || c == '\u{FEFF}' || c == '\u{A0}')
    })
}

struct Lower<'s> {
    source: &'s str,
    /// When pest parses a text with flat lists cut out (`super::flat`), where they were.
    cuts: Option<&'s Cuts>,
    diagnostics: Vec<Diagnostic>,
    top_level_close: Option<usize>,
    /// The run of surplus `)` ending the input, left out of the parse: its first and last `)`
    /// and how many there are.
    surplus_tail: Option<(Span, Span, usize)>,
}

/// Which sections a definition has seen, for duplicate reporting.
#[derive(Default)]
struct Seen {
    sections: Vec<(String, Span)>,
}

impl Seen {
    /// Records `keyword` at `span`; returns the span of an earlier occurrence.
    pub(super) fn first(&mut self, keyword: &str, span: Span) -> Option<Span> {
        let keyword = keyword.to_ascii_lowercase();
        if let Some((_, earlier)) = self.sections.iter().find(|(k, _)| *k == keyword) {
            return Some(*earlier);
        }
        self.sections.push((keyword, span));
        None
    }
}

/// A problem parsed by pest with its flat lists cut out and read by `super::flat`; `None` when
/// the result is not certain to equal [`file`]'s (any diagnostic, any unexpected shape), so the
/// caller parses the whole source with pest instead.
pub(super) fn file_with_flat_lists(source: &str, flat: super::flat::Flat) -> Option<PddlFile> {
    let mut lower = Lower {
        source,
        diagnostics: Vec::new(),
        top_level_close: None,
        surplus_tail: None,
        cuts: Some(&flat.cuts),
    };
    let pair = PddlParser::parse(Rule::file, &flat.text).ok()?.next()?;
    let value = lower.file(pair).ok()??;
    if !lower.diagnostics.is_empty() {
        return None;
    }
    let mut problem = match value {
        PddlFile::Problem(problem) if flat.structures.is_empty() && flat.predicates.is_none() => {
            problem
        }
        PddlFile::Domain(mut domain) if flat.objects.is_none() && flat.init.is_none() => {
            if let Some(predicates) = flat.predicates {
                // pest read the section's placeholder: no predicates.
                if !domain.predicates.is_empty() {
                    return None;
                }
                domain.predicates = predicates;
            }
            // The structures read from the bytes take their places among those pest read:
            // their spans are disjoint, so source order is span order.
            domain.structures.extend(flat.structures);
            domain.structures.sort_by_key(|s| s.span().start);
            return Some(PddlFile::Domain(domain));
        }
        _ => return None,
    };
    if let Some(objects) = flat.objects {
        if !problem.objects.is_empty() {
            return None;
        }
        problem.objects = objects;
    }
    if let Some(init) = flat.init {
        if !problem.init.is_empty() {
            return None;
        }
        problem.init = init;
    }
    if flat.goal_taken {
        // pest read the placeholder `()`; the goal went to the sink.
        match &problem.goal {
            Some(Gd {
                kind: GdKind::And { args },
                ..
            }) if args.is_empty() => problem.goal = None,
            _ => return None,
        }
    }
    if let Some(goal) = flat.goal {
        // pest read the placeholder `()`, an empty conjunction.
        match &problem.goal {
            Some(Gd {
                kind: GdKind::And { args },
                ..
            }) if args.is_empty() => problem.goal = Some(goal),
            _ => return None,
        }
    }
    Some(PddlFile::Problem(problem))
}

fn span(pair: &P) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn next<'a>(pairs: &mut Pairs<'a, Rule>, within: Span, expected: &'static str) -> R<P<'a>> {
    pairs.next().ok_or(Bug {
        span: within,
        expected,
    })
}

fn unexpected<T>(pair: &P, expected: &'static str) -> R<T> {
    Err(Bug {
        span: span(pair),
        expected,
    })
}

impl<'s> Lower<'s> {
    /// A pair's span in the source.
    fn span(&self, pair: &P) -> Span {
        let at = pair.as_span();
        match self.cuts {
            None => Span::new(at.start(), at.end()),
            Some(cuts) => Span::new(
                cuts.source_position(at.start()),
                cuts.source_position(at.end()),
            ),
        }
    }

    fn finish<T>(self, value: T) -> Parsed<T> {
        let mut diagnostics = self.diagnostics;
        crate::diagnostics::sort(&mut diagnostics);
        Parsed { value, diagnostics }
    }

    pub(super) fn bug(&mut self, bug: Bug) {
        self.diagnostics.push(
            Diagnostic::new(
                Code::InternalError,
                format!("internal parser error: expected {} here", bug.expected),
                bug.span,
            )
            .with_help("this is a bug in pddlc; please report it with this input"),
        );
    }

    pub(super) fn file(&mut self, pair: P<'s>) -> R<Option<PddlFile>> {
        let mut value = None;
        let mut trailing: Vec<Span> = Vec::new();
        let mut definition_span = None;
        for child in pair.into_inner() {
            match child.as_rule() {
                Rule::preamble => self.diagnostics.push(
                    Diagnostic::new(
                        Code::LispPreamble,
                        "a Lisp `(in-package …)` form before the definition is ignored",
                        self.span(&child),
                    )
                    .with_help("PDDL files hold one `(define …)`; remove this line"),
                ),
                Rule::domain => {
                    definition_span = Some(self.span(&child));
                    value = Some(PddlFile::Domain(self.domain(child)?));
                }
                Rule::problem => {
                    definition_span = Some(self.span(&child));
                    value = Some(PddlFile::Problem(self.problem(child)?));
                }
                Rule::bad_definition => self.bad_definition(&child),
                Rule::leading => self.diagnostics.push(
                    Diagnostic::new(
                        Code::SyntaxError,
                        format!("unexpected `{}` before the definition", child.as_str()),
                        self.span(&child),
                    )
                    .with_help("a PDDL file starts with `(define`; remove this"),
                ),
                Rule::trailing => trailing.push(self.span(&child)),
                Rule::EOI => {}
                _ => return unexpected(&child, "a definition"),
            }
        }
        self.trailing(&trailing, definition_span);
        Ok(value)
    }

    fn bad_definition(&mut self, pair: &P) {
        let at = self.span(pair);
        let text = pair.as_str().to_ascii_lowercase();
        let looks_like_problem = text.contains("(problem");
        let rule = if looks_like_problem {
            Rule::problem_exact
        } else {
            Rule::domain_exact
        };
        let what = if looks_like_problem {
            "problem"
        } else {
            "domain"
        };
        let diagnostic = if text.starts_with('(') && text[1..].trim_start().starts_with("define") {
            locate(self.source, at, rule, what)
        } else {
            Diagnostic::new(
                Code::SyntaxError,
                "expected `(define (domain …))` or `(define (problem …))`",
                at,
            )
        };
        self.diagnostics.push(diagnostic);
    }

    /// Reports what stands after the definition: surplus `)` are a warning, anything else an
    /// error (it is content the definition does not hold).
    fn trailing(&mut self, trailing: &[Span], definition: Option<Span>) {
        let tail = self.surplus_tail;
        let Some(first) = trailing
            .first()
            .or(tail.as_ref().map(|(first, _, _)| first))
        else {
            return;
        };
        let content = trailing
            .iter()
            .find(|s| &self.source[s.start..s.end] != ")");
        match content {
            None => {
                let (last, count) = match tail {
                    Some((_, last, count)) => (last, trailing.len() + count),
                    None => (trailing[trailing.len() - 1], trailing.len()),
                };
                let mut diagnostic = Diagnostic::new(
                    Code::SurplusClose,
                    if count == 1 {
                        "surplus `)` after the end of the definition".to_string()
                    } else {
                        format!("{count} surplus `)` after the end of the definition")
                    },
                    first.to(last),
                )
                .with_help("remove it; every form is already closed");
                if let Some(definition) = definition {
                    diagnostic = diagnostic.with_label(
                        Span::new(definition.end - 1, definition.end),
                        "the definition ends here",
                    );
                }
                self.diagnostics.push(diagnostic);
            }
            Some(content) => {
                let mut diagnostic = Diagnostic::new(
                    Code::ContentAfterDefinition,
                    format!(
                        "{} stands after the end of the definition",
                        describe_form(&self.source[content.start..content.end])
                    ),
                    *content,
                )
                .with_primary_message("outside the definition");
                let close = self
                    .top_level_close
                    .or(definition.map(|d| d.end.saturating_sub(1)));
                if let Some(close) = close {
                    diagnostic = diagnostic
                        .with_label(Span::new(close, close + 1), "the definition ends here")
                        .with_help(
                            "a `)` too many before this point closes the definition early; \
                             remove it so that what follows is part of the definition",
                        );
                }
                self.diagnostics.push(diagnostic);
            }
        }
    }

    /// A recovery pair where `exact` was expected.
    pub(super) fn bad(&mut self, pair: &P, exact: Rule, what: &str) {
        self.diagnostics
            .push(locate(self.source, self.span(pair), exact, what));
    }
}

fn list_keywords(keywords: &[&str]) -> String {
    let quoted: Vec<String> = keywords.iter().map(|k| format!("`{k}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}

/// "`(foo …)`" or "`bar`" for a form's text.
fn describe_form(text: &str) -> String {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix('(') {
        let head: String = rest
            .trim_start()
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '(' && *c != ')')
            .collect();
        if head.is_empty() {
            "`(…)`".to_string()
        } else {
            format!("`({head} …)`")
        }
    } else {
        format!("`{}`", text.chars().take(40).collect::<String>())
    }
}
