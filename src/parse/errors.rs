//! Turning pest failures into located diagnostics that say what was expected and what was found.

use super::grammar::{PddlParser, Rule};
use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic};
use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};
use std::sync::Mutex;

/// Serialises the re-parses that locate errors. They switch on pest's process-wide error
/// detail (which tracks literal tokens such as `)` too, at half the speed) and off again; the
/// lock keeps every re-parse detailed however many threads parse at once, so messages do not
/// depend on timing. Parses outside this path may run detailed meanwhile: slower, never wrong.
static DETAIL: Mutex<()> = Mutex::new(());

fn detailed_parse(rule: Rule, text: &str) -> Result<(), pest::error::Error<Rule>> {
    let _guard = DETAIL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    pest::set_error_detail(true);
    let result = PddlParser::parse(rule, text).map(|_| ());
    pest::set_error_detail(false);
    result
}

/// Parses `span` of `source` again with the exact-match `rule` that was expected there, and
/// reports where and why it fails. `what` names the construct for the secondary label.
pub(super) fn locate(source: &str, span: Span, rule: Rule, what: &str) -> Diagnostic {
    let text = &source[span.start..span.end];
    match detailed_parse(rule, text) {
        Err(error) => {
            let head = token_span(source, span.start, span.end);
            let head = match source.as_bytes().get(span.start) {
                // Point at `(head` rather than the whole form, so the labels do not overlap.
                Some(b'(') => {
                    let word = token_span(
                        source,
                        skip_space(source, span.start + 1, span.end),
                        span.end,
                    );
                    Span::new(span.start, word.end.max(span.start + 1))
                }
                _ => head,
            };
            let diagnostic = from_pest(source, span, &error);
            if diagnostic
                .primary()
                .is_some_and(|l| l.span.start == head.start)
            {
                diagnostic
            } else {
                diagnostic.with_label(head, format!("in this {what}"))
            }
        }
        // The construct parses on its own but not where it stands; say so about all of it.
        Ok(_) => Diagnostic::new(
            Code::SyntaxError,
            format!("unexpected {} here", found(source, span.start, span.end)),
            span,
        ),
    }
}

/// A diagnostic for a pest error raised while parsing `within` of `source`.
pub(super) fn from_pest(
    source: &str,
    within: Span,
    error: &pest::error::Error<Rule>,
) -> Diagnostic {
    let mut relative = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((start, _)) => start,
    };
    let mut expected = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => expected_from(positives, &[]),
        ErrorVariant::CustomError { message } => Some(message.clone()),
    };
    // With error detail, pest also knows the literal tokens it tried, which often reach further.
    if let Some(attempts) = error.parse_attempts()
        && attempts.max_position >= relative
        && within.start + attempts.max_position < within.end
    {
        let rules: Vec<Rule> = attempts
            .call_stacks()
            .iter()
            .filter_map(|stack| stack.deepest.get_rule().copied())
            .collect();
        let tokens: Vec<String> = attempts
            .expected_tokens()
            .iter()
            // pest's types for tokens are not exported; their text is: the literal itself, upper
            // case for a case-insensitive one, `a..b` for a range, `BUILTIN_RULE` for the rest.
            .map(|token| token.to_string())
            .filter(|token| token != "BUILTIN_RULE" && !token.contains(".."))
            .map(|token| token.to_lowercase())
            // Single characters other than `)` start names and numbers (`_`, `.`, `+`, `#`):
            // the rules describe those better. `(` only matters when no rule is named.
            .filter(|token| token == ")" || token.chars().count() > 1 || token == "(")
            .map(|token| format!("`{token}`"))
            .collect();
        if let Some(better) = expected_from(&rules, &tokens) {
            relative = attempts.max_position;
            expected = Some(better);
        }
    }
    let at = (within.start + relative).min(within.end);
    let found_span = token_span(source, at, within.end);
    let found = found(source, at, within.end);
    // A term that is a form, as in `(clear (loc ?b))`: PDDL 3.1's object fluents.
    let object_fluent = expected
        .as_deref()
        .is_some_and(|e| e.contains("a name, a variable"))
        && source[at..].starts_with('(');
    let message = match expected {
        Some(expected) => format!("expected {expected}, found {found}"),
        None => format!("unexpected {found}"),
    };
    let diagnostic = Diagnostic::new(Code::SyntaxError, message, found_span);
    if object_fluent {
        diagnostic.with_help(
            "an argument is a name or a variable; a function's value as an argument is an object fluent (PDDL 3.1 `:object-fluents`), which pddlc does not read yet",
        )
    } else {
        diagnostic
    }
}

/// pest's error for a text without parentheses outside comments (and not blank): every token
/// is read as a stray one before the definition, which is then missing at the end. Decided in
/// one pass over the bytes, so that a name of megabytes is neither matched character by
/// character nor copied into pest's error (which quotes the whole line) to say just this.
/// `None` when the text has a parenthesis: pest decides.
pub(super) fn missing_definition(source: &str) -> Option<Diagnostic> {
    let bytes = source.as_bytes();
    let mut at = 0;
    while let Some(found) = bytes[at..]
        .iter()
        .position(|&b| matches!(b, b'(' | b')' | b';'))
    {
        let semicolon = at + found;
        if bytes[semicolon] != b';' {
            return None;
        }
        // A comment runs to the end of its line.
        match bytes[semicolon..].iter().position(|&b| b == b'\n') {
            Some(newline) => at = semicolon + newline + 1,
            None => break,
        }
    }
    let end = source.len();
    let expected = describe(Rule::domain).unwrap_or_default();
    Some(Diagnostic::new(
        Code::SyntaxError,
        format!("expected {expected}, found {}", found(source, end, end)),
        token_span(source, end, end),
    ))
}

/// The span of the token or form head starting at `at`, or an empty span at the end.
fn token_span(source: &str, at: usize, limit: usize) -> Span {
    let bytes = source.as_bytes();
    if at >= limit || at >= bytes.len() {
        return Span::new(at, at);
    }
    if matches!(bytes[at], b'(' | b')') {
        return Span::new(at, at + 1);
    }
    let mut end = at;
    while end < limit
        && !matches!(
            bytes[end],
            b'(' | b')' | b';' | b' ' | b'\t' | b'\r' | b'\n'
        )
    {
        end += 1;
    }
    // Keep the end on a character boundary.
    while !source.is_char_boundary(end) {
        end += 1;
    }
    Span::new(at, end.max(at + 1).min(source.len()))
}

/// How the text at `at` reads in a message: "`)`", "`(foo`", "`bar`", "the end of the form".
fn found(source: &str, at: usize, limit: usize) -> String {
    let bytes = source.as_bytes();
    if at >= limit || at >= bytes.len() {
        return if limit >= source.len() {
            "the end of the input".to_string()
        } else {
            "the end of the form".to_string()
        };
    }
    if bytes[at] == b'(' {
        let after = token_span(source, skip_space(source, at + 1, limit), limit);
        let head = &source[after.start..after.end];
        return if head.is_empty() || head == "(" || head == ")" {
            "`(`".to_string()
        } else {
            format!("`({head}`")
        };
    }
    let span = token_span(source, at, limit);
    format!("`{}`", &source[span.start..span.end])
}

fn skip_space(source: &str, mut at: usize, limit: usize) -> usize {
    let bytes = source.as_bytes();
    while at < limit && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

/// "a goal description or `)`" from the rules and literal tokens pest expected at the failure.
fn expected_from(rules: &[Rule], tokens: &[String]) -> Option<String> {
    let described = rules.iter().any(|r| describe(*r).is_some());
    let mut items: Vec<String> = Vec::new();
    for text in rules
        .iter()
        .filter_map(|r| describe(*r))
        .map(str::to_string)
        .chain(
            tokens
                .iter()
                // Whitespace and comment tokens are never what the user is missing.
                .filter(|t| !(described && t.as_str() == "`(`"))
                .filter(|t| {
                    !matches!(
                        t.as_str(),
                        "`;`"
                            | "` `"
                            | "`\t`"
                            | "`\r`"
                            | "`\n`"
                            | "`\u{c}`"
                            | "`\u{a0}`"
                            | "`\u{feff}`"
                    )
                })
                .cloned(),
        )
    {
        if !items.contains(&text) {
            items.push(text);
        }
    }
    match items.len() {
        0 => None,
        1 => Some(items[0].to_string()),
        n => Some(format!("{} or {}", items[..n - 1].join(", "), items[n - 1])),
    }
}

fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::name | Rule::predicate_name => "a name",
        Rule::variable => "a variable",
        Rule::number => "a number",
        Rule::requirement => "a requirement flag such as `:strips`",
        Rule::gd => "a goal description",
        Rule::effect => "an effect",
        Rule::atom => "an atom",
        Rule::atomic_skeleton => "a predicate declaration such as `(on ?x ?y)`",
        Rule::function_group => "a function declaration",
        Rule::f_exp => "a numeric expression",
        Rule::f_head => "a function term",
        Rule::function_term => "a function term",
        Rule::compare_op => "a comparison operator",
        Rule::arith_op => "an arithmetic operator",
        Rule::assign_op => "`assign`, `increase`, `decrease`, `scale-up` or `scale-down`",
        Rule::time_spec => "`at start`, `at end` or `over all`",
        Rule::either_type => "`(either …)`",
        Rule::typed_variable_group | Rule::typed_variables => "a typed list of variables",
        Rule::typed_name_group | Rule::typed_names => "a typed list of names",
        Rule::kw_define => "`define`",
        Rule::kw_domain => "`domain`",
        Rule::kw_problem => "`problem`",
        Rule::kw_and => "`and`",
        Rule::kw_not => "`not`",
        Rule::kw_either => "`either`",
        Rule::kw_start => "`start`",
        Rule::kw_end => "`end`",
        Rule::kw_all => "`all`",
        Rule::kw_minimize | Rule::kw_maximize => "`minimize` or `maximize`",
        Rule::kw_s_serial | Rule::kw_s_parallel => "`:serial` or `:parallel`",
        Rule::kw_s_parameters => "`:parameters`",
        Rule::length_item => "`(:serial n)` or `(:parallel n)`",
        Rule::init_element | Rule::timed_init | Rule::numeric_init | Rule::not_init => {
            "an initial fact"
        }
        Rule::domain | Rule::problem => "`(define …)`",
        Rule::EOI => "the end of the input",
        _ => return None,
    })
}
