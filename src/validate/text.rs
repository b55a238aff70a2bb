//! Plan text to steps: IPC format, one `(action arg…)` a step, `;` comments, optional
//! `t: (…) [d]` timestamps and durations, names case-insensitive.

use crate::ast::{Name, Span};
use crate::diagnostics::{Code, Diagnostic};

/// One step of a plan as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub action: Name,
    pub args: Vec<Name>,
    /// The timestamp, when the plan has `t:` before the step.
    pub time: Option<f64>,
    /// The duration written as `[d]` after the step.
    pub duration: Option<f64>,
    /// The `( … )` of the step.
    pub span: Span,
    /// 1-based line of the step in the plan text.
    pub line: usize,
}

impl Step {
    /// `(action a b)`, as VAL and the JSON output write ground actions.
    pub fn text(&self) -> String {
        let mut out = format!("({}", self.action.text.to_lowercase());
        for a in &self.args {
            out.push(' ');
            out.push_str(&a.text.to_lowercase());
        }
        out.push(')');
        out
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Open,
    Close,
    /// `[d]`: the text between the brackets.
    Duration(String),
    /// `t:`: the text before the colon.
    Time(String),
    Word(String),
}

fn tokens(text: &str) -> Vec<(Token, Span)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => {
                out.push((Token::Open, Span::new(i, i + 1)));
                i += 1;
            }
            b')' => {
                out.push((Token::Close, Span::new(i, i + 1)));
                i += 1;
            }
            b'[' => {
                let start = i;
                let end = text[i..].find(']').map_or(bytes.len(), |n| i + n + 1);
                let inner = text[i + 1..end.saturating_sub(1).max(i + 1)]
                    .trim()
                    .to_string();
                out.push((Token::Duration(inner), Span::new(start, end)));
                i = end;
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let start = i;
                while i < bytes.len()
                    && !matches!(bytes[i], b'(' | b')' | b'[' | b';')
                    && !bytes[i].is_ascii_whitespace()
                {
                    i += 1;
                }
                // Stay on a character boundary for non-ASCII names.
                while !text.is_char_boundary(i) {
                    i += 1;
                }
                let word = &text[start..i];
                // `0.000 : (step)`: a time with blanks before its colon, as VAL reads it.
                let mut after = i;
                while after < bytes.len() && matches!(bytes[after], b' ' | b'\t') {
                    after += 1;
                }
                if after > i && bytes.get(after) == Some(&b':') && word.parse::<f64>().is_ok() {
                    out.push((Token::Time(word.to_string()), Span::new(start, after + 1)));
                    i = after + 1;
                    continue;
                }
                match word.strip_suffix(':') {
                    Some(time) if !time.is_empty() => {
                        out.push((Token::Time(time.to_string()), Span::new(start, i)))
                    }
                    _ => out.push((Token::Word(word.to_string()), Span::new(start, i))),
                }
            }
        }
    }
    out
}

/// Parses a plan; every malformed step is a `V301 plan-syntax` diagnostic.
pub fn parse(text: &str) -> (Vec<Step>, Vec<Diagnostic>) {
    let index = crate::diagnostics::LineIndex::new(text);
    let tokens = tokens(text);
    let mut steps = Vec::new();
    let mut diagnostics = Vec::new();
    let mut i = 0;
    let mut pending_time: Option<(f64, Span)> = None;
    while i < tokens.len() {
        let (token, span) = &tokens[i];
        match token {
            Token::Time(t) => {
                match t.parse::<f64>() {
                    Ok(value) if value.is_finite() => pending_time = Some((value, *span)),
                    _ => diagnostics.push(
                        Diagnostic::new(Code::PlanSyntax, format!("`{t}:` is not a time"), *span)
                            .with_help("write times as numbers, e.g. `0.000: (pick-up a)`"),
                    ),
                }
                i += 1;
            }
            Token::Open => {
                let open = *span;
                let mut words: Vec<Name> = Vec::new();
                let mut j = i + 1;
                let mut closed = None;
                while j < tokens.len() {
                    match &tokens[j].0 {
                        Token::Word(w) => words.push(Name::new(w.clone(), tokens[j].1)),
                        Token::Close => {
                            closed = Some(tokens[j].1);
                            break;
                        }
                        _ => break,
                    }
                    j += 1;
                }
                let Some(close) = closed else {
                    diagnostics.push(
                        Diagnostic::new(Code::PlanSyntax, "this step is never closed", open)
                            .with_help("end the step with `)`"),
                    );
                    // Skip to the next line's content: whatever follows is not this step.
                    i = j.max(i + 1);
                    pending_time = None;
                    continue;
                };
                i = j + 1;
                let mut duration = None;
                if let Some((Token::Duration(d), dspan)) = tokens.get(i) {
                    match d.parse::<f64>() {
                        Ok(v) => duration = Some(v),
                        Err(_) => diagnostics.push(Diagnostic::new(
                            Code::PlanSyntax,
                            format!("`[{d}]` is not a duration"),
                            *dspan,
                        )),
                    }
                    i += 1;
                }
                if words.is_empty() {
                    diagnostics.push(Diagnostic::new(
                        Code::PlanSyntax,
                        "empty step `()`",
                        open.to(close),
                    ));
                    pending_time = None;
                    continue;
                }
                let action = words.remove(0);
                steps.push(Step {
                    action,
                    args: words,
                    time: pending_time.take().map(|(t, _)| t),
                    duration,
                    span: open.to(close),
                    line: index.line(open.start),
                });
            }
            Token::Close => {
                diagnostics.push(
                    Diagnostic::new(Code::PlanSyntax, "this `)` closes no step", *span)
                        .with_help("remove it"),
                );
                i += 1;
            }
            Token::Duration(_) | Token::Word(_) => {
                let what = match token {
                    Token::Word(w) => format!("`{w}`"),
                    _ => "a duration".to_string(),
                };
                diagnostics.push(
                    Diagnostic::new(
                        Code::PlanSyntax,
                        format!("unexpected {what} outside a step"),
                        *span,
                    )
                    .with_help("a plan has one `(action arg…)` per step"),
                );
                i += 1;
            }
        }
    }
    (steps, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_plain_timed_and_commented_steps() {
        let text =
            "; a plan\n(pick-up A)\r\n0.5: (STACK a b) [1.000] ; inline\n\n  ( put-down  b )";
        let (steps, diagnostics) = parse(text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(steps.len(), 3);
        assert_eq!(steps[0].text(), "(pick-up a)");
        assert_eq!(steps[1].time, Some(0.5));
        assert_eq!(steps[1].duration, Some(1.0));
        assert_eq!(steps[1].line, 3);
        assert_eq!(steps[2].text(), "(put-down b)");
    }

    #[test]
    fn reads_a_time_with_blanks_before_its_colon() {
        let (steps, diagnostics) = parse("  0.500 :\t( jump a )  [ 1.000 ]\n");
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(steps[0].time, Some(0.5));
        assert_eq!(steps[0].duration, Some(1.0));
    }

    #[test]
    fn reports_unclosed_steps_and_stray_words() {
        let (steps, diagnostics) = parse("(pick-up a\n(stack a b)\nhello");
        assert_eq!(steps.len(), 1);
        assert_eq!(diagnostics.len(), 2);
    }
}
