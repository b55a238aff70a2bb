//! A lexical pass over parentheses before pest runs: bounds the nesting depth (so no later
//! recursion can overflow the stack) and finds the form a missing `)` belongs to.

use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic, LineIndex};

/// The deepest nesting pddlc reads. The IPC corpora nest at most 153 deep (a grounded IPC 2006
/// trucks problem); every recursive stage (lowering, printing, checking, serialising, dropping)
/// is safe at this depth on a 2 MiB thread stack.
pub const MAX_DEPTH: usize = 256;

/// Section keywords that only ever stand directly inside `(define …)`.
const SECTION_KEYWORDS: &[&str] = &[
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
    ":constraint",
    ":domain",
    ":objects",
    ":init",
    ":goal",
    ":metric",
    ":length",
];

/// Part keywords that only ever stand directly inside an action-like definition.
const PART_KEYWORDS: &[&str] = &[
    ":parameters",
    ":precondition",
    ":effect",
    ":duration",
    ":condition",
];

const STRUCTURE_KEYWORDS: &[&str] = &[
    ":action",
    ":durative-action",
    ":process",
    ":event",
    ":constraint",
];

/// A form whose placement shows that an earlier form was left open.
struct Misplaced {
    /// The keyword token that stands where it cannot.
    at: Span,
    /// The open form it stands in: the one that should have been closed before it.
    parent: usize,
}

/// What the pass found; `diagnostics` is empty when parentheses balance.
pub(super) struct Scan {
    pub diagnostics: Vec<Diagnostic>,
    /// Offset of the `)` that closes the outermost form, when it closes before the end.
    pub top_level_close: Option<usize>,
    /// Where the run of surplus `)` that ends the input starts (only whitespace between and
    /// after them). The parser reads the text before it and counts the run itself, so that a
    /// megabyte of `)` is not a megabyte of pest pairs.
    pub surplus_tail: Option<usize>,
}

/// A form directly inside an outermost one, as the balanced pass meets it: where it opens (its
/// `(`) or closes (its `)`). The fast path finds its sections from these without walking the
/// text again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mark {
    Open(usize),
    Close(usize),
}

/// What the pass over a balanced text found: what [`Scan`] would say of it (no diagnostics, no
/// surplus `)`), and the [`Mark`]s of the forms at depth two.
pub(super) struct Outline {
    pub top_level_close: Option<usize>,
    pub marks: Vec<Mark>,
}

impl Outline {
    /// The scan's result for this text, which [`outline`] found balanced.
    pub fn scan(&self) -> Scan {
        Scan {
            diagnostics: Vec::new(),
            top_level_close: self.top_level_close,
            surplus_tail: None,
        }
    }
}

/// The pass over a text whose parentheses balance within [`MAX_DEPTH`] (nearly every input):
/// `None` for any other text, which [`scan`] then reads to say what is wrong. It steps from
/// parenthesis to parenthesis several bytes at a time, and is the only pass over the bytes the
/// fast path needs before it reads its sections.
pub(super) fn outline(source: &str) -> Option<Outline> {
    let bytes = source.as_bytes();
    let mut marks = Vec::new();
    let mut top_level_close = None;
    let mut depth = 0usize;
    let mut at = 0;
    while let Some(offset) = memchr::memchr3(b'(', b')', b';', &bytes[at..]) {
        let found = at + offset;
        at = found + 1;
        match bytes[found] {
            b'(' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return None;
                }
                if depth == 2 {
                    marks.push(Mark::Open(found));
                }
            }
            b')' => {
                depth = depth.checked_sub(1)?;
                match depth {
                    1 => marks.push(Mark::Close(found)),
                    0 if top_level_close.is_none() => top_level_close = Some(found),
                    _ => {}
                }
            }
            _ => match memchr::memchr(b'\n', &bytes[at..]) {
                Some(newline) => at += newline + 1,
                None => at = bytes.len(),
            },
        }
    }
    (depth == 0).then_some(Outline {
        top_level_close,
        marks,
    })
}

/// The bytes the scan acts on: comments and parentheses, and keywords when it looks for
/// misplaced ones.
const fn significant(keywords: bool) -> [bool; 256] {
    let mut table = [false; 256];
    table[b';' as usize] = true;
    table[b'(' as usize] = true;
    table[b')' as usize] = true;
    table[b':' as usize] = keywords;
    table
}

fn token_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && !matches!(bytes[i], b'(' | b')' | b';' | b' ' | b'\t' | b'\r' | b'\n')
    {
        i += 1;
    }
    i
}

fn head_of(source: &str, open: usize) -> &str {
    let bytes = source.as_bytes();
    let mut i = open + 1;
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    &source[i..token_end(bytes, i)]
}

fn is_one_of(token: &str, list: &[&str]) -> bool {
    list.iter().any(|k| token.eq_ignore_ascii_case(k))
}

pub(super) fn scan(source: &str) -> Scan {
    // Keywords only matter to say where a form left open belongs: nearly every input is
    // balanced, so they are looked at in a second pass over the rare one that is not.
    match scan_with(source, false) {
        (_, true) => scan_with(source, true).0,
        (scan, false) => scan,
    }
}

/// The scan, and whether a form is left open at the end; `keywords`: look for misplaced
/// section and part keywords, which the diagnostic for a form left open names.
fn scan_with(source: &str, keywords: bool) -> (Scan, bool) {
    let significant = const { [significant(false), significant(true)] }[usize::from(keywords)];
    let bytes = source.as_bytes();
    let mut stack: Vec<usize> = Vec::new();
    let mut diagnostics = Vec::new();
    let mut misplaced: Option<Misplaced> = None;
    let mut top_level_close = None;
    let mut surplus_tail = None;
    let mut i = 0;
    while i < bytes.len() {
        if surplus_tail.is_none() {
            // Most bytes change nothing here: step over them without the dispatch below.
            while i < bytes.len() && !significant[usize::from(bytes[i])] {
                i += 1;
            }
            if i == bytes.len() {
                break;
            }
        } else if !matches!(bytes[i], b')' | b' ' | b'\t' | b'\r' | b'\n') {
            surplus_tail = None;
        }
        match bytes[i] {
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' => {
                if stack.len() >= MAX_DEPTH {
                    diagnostics.push(nesting_too_deep(i, stack[0]));
                    let scan = Scan {
                        diagnostics,
                        top_level_close,
                        surplus_tail: None,
                    };
                    return (scan, false);
                }
                stack.push(i);
            }
            b')' => {
                if stack.pop().is_none() {
                    if top_level_close.is_none() {
                        // A `)` before any `(`: nothing to recover, pest reports it. A run of
                        // them (only whitespace and comments between) is one diagnostic, so
                        // that a file of `)` costs one, not one per byte.
                        let run_start = i;
                        let (after, last, count) = unmatched_close_run(bytes, i);
                        i = after;
                        diagnostics.push(unmatched_close(run_start, last, count));
                        continue;
                    }
                    surplus_tail.get_or_insert(i);
                } else if stack.is_empty() && top_level_close.is_none() {
                    top_level_close = Some(i);
                }
            }
            b':' if misplaced.is_none() && i > 0 => {
                let end = token_end(bytes, i);
                misplaced = misplaced_keyword(source, &stack, i, end);
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    let open = !stack.is_empty();
    if open {
        diagnostics.push(unclosed(source, &stack, misplaced));
    }
    let scan = Scan {
        diagnostics,
        top_level_close,
        surplus_tail,
    };
    (scan, open)
}

/// The diagnostic for a `(` at `at` that nests deeper than [`MAX_DEPTH`], the outermost form
/// opening at `outer`.
fn nesting_too_deep(at: usize, outer: usize) -> Diagnostic {
    Diagnostic::new(
        Code::NestingTooDeep,
        format!("parentheses nest deeper than {MAX_DEPTH} levels"),
        Span::new(at, at + 1),
    )
    .with_primary_message(format!("level {} opens here", MAX_DEPTH + 1))
    .with_label(Span::new(outer, outer + 1), "the outermost form opens here")
    .with_help(
        "real PDDL nests a few dozen levels deep; this input is probably \
         generated or corrupt",
    )
}

/// The run of unmatched `)` starting at `first`, with only whitespace and comments between:
/// (the index after it, the index of its last `)`, how many `)` it has).
fn unmatched_close_run(bytes: &[u8], first: usize) -> (usize, usize, usize) {
    let mut count = 1;
    let mut last = first;
    let mut i = first + 1;
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b';' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if i < bytes.len() && bytes[i] == b')' {
            count += 1;
            last = i;
            i += 1;
        } else {
            break;
        }
    }
    (i, last, count)
}

/// The misplaced section or part keyword that the token `source[at..end]` (starting with `:`)
/// is, given the forms open around it, if it is one.
fn misplaced_keyword(source: &str, stack: &[usize], at: usize, end: usize) -> Option<Misplaced> {
    let bytes = source.as_bytes();
    let token = &source[at..end];
    let depth = stack.len();
    let previous = bytes[..at]
        .iter()
        .rev()
        .find(|b| !b.is_ascii_whitespace())
        .copied();
    let opens_form = previous == Some(b'(');
    if opens_form && is_one_of(token, SECTION_KEYWORDS) && depth > 2 {
        return Some(Misplaced {
            at: Span::new(at - 1, end),
            parent: stack[depth - 2],
        });
    }
    if !opens_form && is_one_of(token, PART_KEYWORDS) && depth >= 2 {
        let parent = stack[depth - 1];
        if !is_one_of(head_of(source, parent), STRUCTURE_KEYWORDS) {
            return Some(Misplaced {
                at: Span::new(at, end),
                parent,
            });
        }
    }
    None
}

/// The diagnostic for a run of `count` unmatched `)`, the first at `first`, the last at `last`.
fn unmatched_close(first: usize, last: usize, count: usize) -> Diagnostic {
    if count == 1 {
        return Diagnostic::new(
            Code::UnmatchedClose,
            "this `)` closes nothing",
            Span::new(first, first + 1),
        )
        .with_help("remove it");
    }
    Diagnostic::new(
        Code::UnmatchedClose,
        format!("these {count} `)` close nothing"),
        Span::new(first, last + 1),
    )
    .with_help("remove them")
}

/// The diagnostic for forms still open at the end of the input.
fn unclosed(source: &str, stack: &[usize], misplaced: Option<Misplaced>) -> Diagnostic {
    let index = LineIndex::new(source);
    // The last character that is not whitespace: a label past the last line shows nothing.
    let last = source.trim_end().len().max(1);
    let last_start = source[..last]
        .char_indices()
        .next_back()
        .map_or(0, |(i, _)| i);
    let end = Span::new(last_start, last);
    let describe = |open: usize| {
        let head = head_of(source, open);
        let line = index.line_col(source, open).line;
        let form = match head {
            "" => "(".to_string(),
            _ => format!("({head}"),
        };
        let name = {
            let bytes = source.as_bytes();
            let mut j = open + 1;
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            j = token_end(bytes, j);
            while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
                j += 1;
            }
            let name = &source[j..token_end(bytes, j)];
            if head.starts_with(':') && !name.is_empty() && !name.starts_with(':') {
                format!(" {name}")
            } else {
                String::new()
            }
        };
        (format!("`{form}{name}`"), line)
    };
    match misplaced {
        Some(m) => {
            let (form, line) = describe(m.parent);
            Diagnostic::new(
                Code::UnclosedForm,
                format!("{form} opened at line {line} is never closed"),
                Span::new(m.parent, m.parent + 1),
            )
            .with_primary_message("this form is missing its `)`")
            .with_label(m.at, "so this ends up inside it")
            .with_label(end, "the input ends with forms still open")
            .with_help({
                let (next, next_line) = describe(m.at.start);
                let next = if source[m.at.start..].starts_with('(') {
                    next
                } else {
                    format!("`{}`", &source[m.at.start..m.at.end])
                };
                format!("add the missing `)` to close {form} before {next} at line {next_line}")
            })
        }
        None => {
            // No form is out of place, so the missing `)` is somewhere inside the innermost
            // form still open; name it, and the outermost one the input ends in.
            let innermost = stack[stack.len() - 1];
            let (form, line) = describe(innermost);
            let mut diagnostic = Diagnostic::new(
                Code::UnclosedForm,
                format!("{form} opened at line {line} is never closed"),
                Span::new(innermost, innermost + 1),
            )
            .with_primary_message("this form is missing its `)`")
            .with_label(end, "the input ends here");
            if stack.len() > 1 {
                diagnostic = diagnostic.with_help(format!(
                    "{} forms are open at the end of the input; add the missing `)` where the \
                     form above should end",
                    stack.len()
                ));
            } else {
                diagnostic = diagnostic.with_help("add `)` at the end of the form");
            }
            diagnostic
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The balanced pass stands in for the scan: it must accept exactly the texts the scan finds
    /// nothing wrong with (and no surplus `)`), and find the same outermost close.
    #[test]
    fn outline_agrees_with_the_scan() {
        let deep = format!("{}{}", "(".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
        let too_deep = format!("{}{}", "(".repeat(MAX_DEPTH + 1), ")".repeat(MAX_DEPTH + 1));
        let texts = [
            "",
            "no parentheses",
            "(define (domain d) (:predicates (p)))",
            "(define (problem p) ; a comment with ( and )\n (:init (a)))",
            "; (\n(a)",
            "(a) (b)",
            "(a))",
            "(a)) ",
            ")(a)",
            "((a)",
            "(a ; )\n",
            "(a) ) (b)",
            deep.as_str(),
            too_deep.as_str(),
        ];
        for text in texts {
            let scan = scan(text);
            let clean = scan.diagnostics.is_empty() && scan.surplus_tail.is_none();
            match outline(text) {
                Some(outline) => {
                    assert!(clean, "{text:?}: outlined, but the scan reports something");
                    assert_eq!(outline.top_level_close, scan.top_level_close, "{text:?}");
                }
                // `(a) ) (b)`: the scan forgets a surplus `)` that more text follows (pest
                // reports it); the balanced pass declines it, which only costs the fast path.
                None => assert!(!clean || text == "(a) ) (b)", "{text:?}: not outlined"),
            }
        }
    }

    #[test]
    fn outline_marks_the_forms_at_depth_two() {
        let text = "(define (domain d) ; (not a form)\n (:action a (x)))";
        let marks = outline(text).map(|outline| outline.marks);
        let at = |needle: &str| text.find(needle).unwrap_or(usize::MAX);
        assert_eq!(
            marks,
            Some(vec![
                Mark::Open(at("(domain")),
                Mark::Close(at(") ;")),
                Mark::Open(at("(:action")),
                Mark::Close(text.len() - 2),
            ])
        );
    }
}
