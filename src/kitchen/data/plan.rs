//! Simmer plan text → steps, exactly as Simmer's executor reads it (semantics §2.1).

use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic};
use compact_str::CompactString;

/// One `<name> (id)` argument; `id` is empty when the parenthesised part is absent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    pub name: CompactString,
    pub id: CompactString,
}

/// One parsed step: the lower-case action name and its arguments, from one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// 1-based step number (parsed steps, not file lines).
    pub number: usize,
    pub action: CompactString,
    pub args: Vec<Arg>,
    /// 1-based physical line of the file.
    pub line: usize,
    /// Byte span of the trimmed line in the plan text.
    pub span: Span,
}

impl Step {
    /// Simmer's rendering of the step: `[ACTION] <name> (id) …`, with a trailing space when
    /// there are no arguments and `()` for a bare argument.
    pub fn text(&self) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| format!("<{}> ({})", a.name, a.id))
            .collect();
        format!("[{}] {}", self.action.to_uppercase(), args.join(" "))
    }
}

/// A parsed plan: its steps and the number of physical lines of the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub steps: Vec<Step>,
    pub lines: usize,
}

/// Python 3's `\w` on `str`: letters, digits and `_`.
fn is_word(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Python's `str.isspace()`, which also counts the information separators U+001C–U+001F.
fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The physical lines of `text`, under Python's universal newlines.
pub fn physical_lines(text: &str) -> Vec<&str> {
    lines(text).into_iter().map(|(_, line)| line).collect()
}

/// The physical lines of `text` with their byte offsets, under Python's universal newlines.
fn lines(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() / 32 + 1);
    let mut start = 0;
    for at in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        // The `\n` of a `\r\n`, already passed.
        if at < start {
            continue;
        }
        out.push((start, &text[start..at]));
        let crlf = bytes.get(at) == Some(&b'\r') && bytes.get(at + 1) == Some(&b'\n');
        start = at + if crlf { 2 } else { 1 };
    }
    if start < bytes.len() {
        out.push((start, &text[start..]));
    }
    out
}

/// Reads a run of word characters starting at byte `at`; returns its end.
fn word_end(line: &str, at: usize) -> usize {
    line[at..]
        .char_indices()
        .find(|&(_, c)| !is_word(c))
        .map_or(line.len(), |(i, _)| at + i)
}

/// The first `[word]` anywhere in the line.
fn action_of(line: &str) -> Option<&str> {
    for (i, c) in line.char_indices() {
        if c != '[' {
            continue;
        }
        let end = word_end(line, i + 1);
        if end > i + 1 && line[end..].starts_with(']') {
            return Some(&line[i + 1..end]);
        }
    }
    None
}

/// Every non-overlapping `<word>\s*(\(word\))?` of the line, left to right.
fn args_of(line: &str) -> Vec<Arg> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(offset) = line[at..].find('<') {
        let open = at + offset;
        let end = word_end(line, open + 1);
        if end == open + 1 || !line[end..].starts_with('>') {
            at = open + 1;
            continue;
        }
        let name = CompactString::from(&line[open + 1..end]);
        let mut cursor = end + 1;
        cursor += line[cursor..]
            .char_indices()
            .find(|&(_, c)| !is_space(c))
            .map_or(line.len() - cursor, |(i, _)| i);
        let mut id = CompactString::default();
        if line[cursor..].starts_with('(') {
            let id_end = word_end(line, cursor + 1);
            if id_end > cursor + 1 && line[id_end..].starts_with(')') {
                id = CompactString::from(&line[cursor + 1..id_end]);
                cursor = id_end + 1;
            }
        }
        out.push(Arg { name, id });
        at = cursor;
    }
    out
}

/// The action name in lower case, as Simmer looks it up (ASCII names without a copy to the heap).
fn lower(action: &str) -> CompactString {
    if action.is_ascii() {
        let mut out = CompactString::from(action);
        out.make_ascii_lowercase();
        out
    } else {
        CompactString::from(action.to_lowercase())
    }
}

/// Parses plan text: every non-empty trimmed line with a bracketed word is a step.
pub fn parse(text: &str) -> Plan {
    parse_with(text, false)
}

/// Strict mode's repair of a line before it is read: `[PUT ON]` and `[PUT-ON]` become
/// `[PUT_ON]`, `<olive oil>` becomes `<olive_oil>`, `( 1 )` becomes `(1)`. Simmer drops or
/// mangles these (semantics Q1, Q2).
fn repair(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        let close = match c {
            '[' => Some(']'),
            '<' => Some('>'),
            '(' => Some(')'),
            _ => None,
        };
        if let Some(close) = close
            && let Some(end) = rest[1..].find(close)
        {
            let inner = rest[1..1 + end].trim_matches(is_space);
            let words_ok =
                !inner.is_empty() && inner.chars().all(|x| is_word(x) || x == '-' || is_space(x));
            if words_ok {
                let joined: Vec<&str> = inner
                    .split(|x: char| x == '-' || is_space(x))
                    .filter(|w| !w.is_empty())
                    .collect();
                out.push(c);
                out.push_str(&joined.join("_"));
                out.push(close);
                rest = &rest[1 + end + 1..];
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Parses plan text, repairing bracket spacing first when `strict`.
pub fn parse_with(text: &str, strict: bool) -> Plan {
    let physical = lines(text);
    let mut steps = Vec::new();
    for (index, (offset, raw)) in physical.iter().enumerate() {
        let trimmed = raw.trim_matches(is_space);
        if trimmed.is_empty() {
            continue;
        }
        let repaired;
        let read = if strict {
            repaired = repair(trimmed);
            repaired.as_str()
        } else {
            trimmed
        };
        let Some(action) = action_of(read) else {
            continue;
        };
        let start = offset + (trimmed.as_ptr() as usize - raw.as_ptr() as usize);
        steps.push(Step {
            number: steps.len() + 1,
            action: lower(action),
            args: args_of(read),
            line: index + 1,
            span: Span::new(start, start + trimmed.len()),
        });
    }
    Plan {
        steps,
        lines: physical.len(),
    }
}

/// Why a file given or found as a plan is not one to run (K409): Simmer's annotated result file,
/// an empty or binary file, or a failed generation (§10.1: its first line starts with `Error:`).
/// Told by content, not by name. `None` for a plan, even one without a bracketed action (K403).
pub fn not_a_plan(bytes: &[u8]) -> Option<Diagnostic> {
    let code = Code::KitchenNotAPlan;
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Some(
            Diagnostic::new(
                code,
                "the file holds a NUL byte: it is binary, not a plan",
                Span::new(at, at + 1),
            )
            .with_help("a plan is text, one step a line: `[GRAB] <knife> (1)`"),
        );
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    };
    if text.chars().all(is_space) {
        return Some(
            Diagnostic::new(
                code,
                "the file is empty: there is no plan to run",
                Span::new(0, 0),
            )
            .with_help("Simmer leaves a task with an empty plan out of the statistics"),
        );
    }
    let first = lines(&text)
        .into_iter()
        .map(|(_, l)| l)
        .find(|l| !l.trim().is_empty());
    let found = |at: usize, len: usize, message: &str, help: &str| {
        Some(Diagnostic::new(code, message, Span::new(at, at + len)).with_help(help))
    };
    if let Some(first) = first.filter(|l| l.trim_start().starts_with("Error:")) {
        return found(
            first.as_ptr() as usize - text.as_ptr() as usize,
            first.len(),
            "the plan is a failed generation: its first line starts with `Error:`",
            "Simmer leaves the task out of the statistics; regenerate the plan",
        );
    }
    const MARK: &str = "# === Annotated Plan ===";
    if text.starts_with("# ")
        && let Some(at) = text.find(MARK)
    {
        return found(
            at,
            MARK.len(),
            "this is Simmer's annotated result file of a plan, not a plan",
            "give the plan itself; `kitchen eval --results DIR` writes these files",
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Step {
        parse(line).steps.remove(0)
    }

    #[test]
    fn reads_arguments_the_way_simmer_does() {
        let step = one("3. [PUT_ON] <lettuce> (1) <cutting_board>(2)");
        assert_eq!(step.action, "put_on");
        assert_eq!(
            step.text(),
            "[PUT_ON] <lettuce> (1) <cutting_board> (2)".to_string()
        );
        assert_eq!(one("[POUR] <olive oil> (1) <pan> (1)").args.len(), 1);
        assert_eq!(one("[GRAB] <pan> ( 1 )").args[0].id, "");
        assert_eq!(one("[WAIT]").text(), "[WAIT] ");
        assert_eq!(
            one("[BAKE] <x> (1) <5_minutes>").text(),
            "[BAKE] <x> (1) <5_minutes> ()"
        );
        assert!(parse("[PUT ON] <a> (1)\n\n```\n").steps.is_empty());
    }

    #[test]
    fn strict_reading_repairs_spaces_and_hyphens() {
        let plan = parse_with("[PUT ON] <olive oil> ( 1 ) <pan-lid> (1)", true);
        assert_eq!(
            plan.steps[0].text(),
            "[PUT_ON] <olive_oil> (1) <pan_lid> (1)"
        );
    }

    #[test]
    fn tells_result_files_empty_binary_and_failed_generations_from_plans() {
        let kind = |bytes: &[u8]| not_a_plan(bytes).map(|d| d.message);
        assert!(
            kind(b"# Task: x\n# Plan: p\n#\n# === Annotated Plan ===\n\n[GRAB] <a> (1)\n")
                .is_some_and(|m| m.contains("result file"))
        );
        assert!(kind(b" \n\t\n").is_some_and(|m| m.contains("empty")));
        assert!(kind(b"").is_some_and(|m| m.contains("empty")));
        assert!(kind(b"\x89PNG\r\n\x1a\n\0\0").is_some_and(|m| m.contains("binary")));
        assert!(kind(b"\nError: rate limit\n").is_some_and(|m| m.contains("failed generation")));
        assert_eq!(kind(b"[GRAB] <knife> (1)\n"), None);
        // A plan with a comment line is a plan; so is prose without steps (K403 says so).
        assert_eq!(kind(b"# my plan\n[GRAB] <knife> (1)\n"), None);
        assert_eq!(kind(b"I cannot help with that."), None);
    }

    #[test]
    fn counts_physical_lines_with_universal_newlines() {
        let plan = parse("[A]\r\n[B]\r[C]\n\n");
        assert_eq!(plan.lines, 4);
        assert_eq!(plan.steps.len(), 3);
        assert_eq!(plan.steps[2].line, 3);
    }
}
