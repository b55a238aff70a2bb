//! Markdown and prose around a definition, as chat answers carry it: found before anything else
//! reads the text, reported once, and blanked out so that the definition inside still parses.

use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic};

/// The text with the lines around the definition that are not PDDL blanked out (byte offsets
/// kept), and the diagnostic that says so; `None` when there is nothing of the kind.
///
/// `first_close`: where the text's first form closes, when the scan's balanced pass found it.
pub(super) fn unwrap(source: &str, first_close: Option<usize>) -> Option<(String, Diagnostic)> {
    let define = find_define(source)?;
    // Only whole lines count (but a fence right after the last `)`): a stray token on the line
    // of `(define` or after its last `)` is the parser's to report (P005, P004).
    let line_start = source[..define].rfind('\n').map_or(0, |at| at + 1);
    let mut foreign = foreign_lines(source, 0, line_start);
    let trailing = match definition_end(source, define, first_close) {
        // A fence right after the last `)`, as in `…)))```, closes the block all the same.
        Ok(close) if is_fence(&source[close..]) => close,
        Ok(close) => source[close..]
            .find('\n')
            .map_or(source.len(), |at| close + at + 1),
        Err(fence) => fence,
    };
    foreign.extend(foreign_lines(source, trailing, source.len()));
    // Lines with only blank lines between them make one run, and each run one label.
    let mut runs: Vec<Span> = Vec::new();
    for &span in &foreign {
        match runs.last_mut() {
            Some(run) if source[run.end..span.start].trim().is_empty() => run.end = span.end,
            _ => runs.push(span),
        }
    }
    let has_fence = |span: &Span| source[span.start..span.end].lines().any(is_fence);
    let message = if runs.iter().any(has_fence) {
        "the definition is wrapped in Markdown: a code fence is not PDDL"
    } else {
        "the text around the definition is prose, not PDDL"
    };
    let label = |span: &Span| {
        if has_fence(span) {
            "Markdown, not PDDL"
        } else {
            "prose, not PDDL"
        }
    };
    let first = *runs.first()?;
    let mut diagnostic = Diagnostic::new(Code::TextAroundDefinition, message, first)
        .with_primary_message(label(&first))
        .with_help(
            "strip the text around `(define …)`, or use `--extract`, which takes the PDDL out of a chat answer",
        );
    for run in &runs[1..] {
        diagnostic = diagnostic.with_label(*run, label(run));
    }
    let mut blanked = source.as_bytes().to_vec();
    for span in &foreign {
        for byte in &mut blanked[span.start..span.end] {
            *byte = b' ';
        }
    }
    // Whole lines are blanked and line ends kept, so the text stays UTF-8.
    let blanked = String::from_utf8(blanked).ok()?;
    Some((blanked, diagnostic))
}

/// Where the first `(define` outside a comment starts: a `(`, whitespace on the same line, and
/// the word `define` in any case, ended by whitespace, a parenthesis, a comment or the end. One
/// pass over the bytes: each `(` looks only at what follows it up to its first word, so a text
/// of millions of `(` costs one look each.
pub(super) fn find_define(source: &str) -> Option<usize> {
    let bytes = source.as_bytes();
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            // A comment runs to the end of its line.
            b';' => at += source[at..].find('\n')? + 1,
            b'(' if defines(source, at + 1) => return Some(at),
            b'(' => at += 1,
            // Eight bytes at a time up to the next `(` or `;`. The lowest flag is exact: only
            // bytes above a zero byte can be flagged wrongly.
            _ => match bytes[at..].first_chunk::<8>() {
                Some(chunk) => {
                    let word = u64::from_le_bytes(*chunk);
                    let hits = zero_bytes(word ^ (SPREAD * u64::from(b'(')))
                        | zero_bytes(word ^ (SPREAD * u64::from(b';')));
                    at += if hits == 0 {
                        8
                    } else {
                        hits.trailing_zeros() as usize / 8
                    };
                }
                None => at += 1,
            },
        }
    }
    None
}

/// A byte's value in each of the eight bytes of a word.
const SPREAD: u64 = 0x0101_0101_0101_0101;

/// The high bit of each zero byte of `word` set (and perhaps of bytes above a zero byte, never
/// below the lowest one).
fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(SPREAD) & !word & (SPREAD << 7)
}

/// Whether the text after a `(` at `from` starts with the word `define` (any case) after
/// whitespace that does not end the line.
fn defines(source: &str, from: usize) -> bool {
    // Most `(` are followed by a name or another `(`: an ASCII byte that is neither
    // whitespace nor the word's first letter decides at once.
    match source.as_bytes().get(from) {
        Some(&next) if next.is_ascii() && !matches!(next, b'd' | b'D' | b'\t'..=b'\r' | b' ') => {
            return false;
        }
        _ => {}
    }
    let word = source[from..].trim_start_matches(|c: char| c.is_whitespace() && c != '\n');
    let Some(head) = word.get(..6) else {
        return false;
    };
    head.eq_ignore_ascii_case("define")
        && word[6..]
            .chars()
            .next()
            .is_none_or(|c| c.is_whitespace() || matches!(c, '(' | ')' | ';'))
}

/// Where the definition that opens at `define` ends: `Ok` after its matching `)`, or, when it
/// is never closed, `Err` at the start of the first Markdown fence line after it (the end of
/// the text without one).
fn definition_end(source: &str, define: usize, first_close: Option<usize>) -> Result<usize, usize> {
    let bytes = source.as_bytes();
    // When nothing before `(define` opens or closes a form, the definition is the text's first
    // form, whose end the balanced pass already found: the walk below would find it again.
    if let Some(close) = first_close
        && close > define
        && memchr::memchr2(b'(', b')', &bytes[..define]).is_none()
    {
        return Ok(close + 1);
    }
    let mut depth = 0usize;
    let mut at = define;
    // Bytes, not characters: the delimiters are ASCII, and this runs on every input. Only
    // parentheses and comments matter: memchr jumps to the next one.
    while let Some(found) = memchr::memchr3(b'(', b')', b';', &bytes[at..]) {
        let i = at + found;
        match bytes[i] {
            b';' => match memchr::memchr(b'\n', &bytes[i..]) {
                Some(line_end) => at = i + line_end + 1,
                None => break,
            },
            b'(' => {
                depth += 1;
                at = i + 1;
            }
            _ => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Ok(i + 1);
                }
                at = i + 1;
            }
        }
    }
    let mut offset = define;
    for line in source[define..].split_inclusive('\n') {
        if is_fence(line) && offset > define {
            return Err(offset);
        }
        offset += line.len();
    }
    Err(source.len())
}

/// The lines (or the part of a line) between `from` and `to` that hold text outside any form
/// and outside comments: Markdown fences, headings, sentences. Their spans end before the line
/// break. Balanced forms (a Lisp preamble, a second definition) and stray parentheses are left
/// to the parser, which has diagnostics of its own for them.
fn foreign_lines(source: &str, from: usize, to: usize) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut depth = 0usize;
    let mut offset = from;
    for line in source[from..to].split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let mut line_depth = depth;
        let mut prose = false;
        for c in body.chars() {
            match c {
                ';' => break,
                '(' => line_depth += 1,
                ')' => line_depth = line_depth.saturating_sub(1),
                _ if c.is_whitespace() || c == '\u{FEFF}' => {}
                _ if line_depth == 0 => prose = true,
                _ => {}
            }
        }
        if prose || is_fence(body) {
            // The whole line goes: its parentheses belong to the sentence, not to a form.
            let text_start = start + (body.len() - body.trim_start().len());
            spans.push(Span::new(text_start, start + body.trim_end().len()));
        } else {
            depth = line_depth;
        }
    }
    spans
}

/// Whether a line is a Markdown code fence (```` ``` ```` or `~~~`, with an info string).
fn is_fence(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("```") || line.starts_with("~~~")
}

#[cfg(test)]
mod tests {
    use super::{find_define, unwrap};

    #[test]
    fn define_is_found_after_whitespace_on_its_line_outside_comments() {
        assert_eq!(
            find_define("; (define\n (\u{2003}DEFINE (domain d))"),
            Some(11)
        );
        assert_eq!(find_define("(definex (define"), Some(9));
        assert_eq!(find_define("(define;c\n"), Some(0));
        assert_eq!(find_define("(\ndefine"), None);
        assert_eq!(find_define("( ;define\n"), None);
        assert_eq!(find_define(&"(".repeat(1000)), None);
        assert_eq!(find_define(&format!("{}(define", "x".repeat(37))), Some(37));
        assert_eq!(find_define("abcdefghij;(define\n(define"), Some(19));
        assert_eq!(find_define("éééé ééé(define"), Some(15));
        assert_eq!(find_define(&")".repeat(1001)), None);
    }

    #[test]
    fn a_fenced_definition_is_blanked_around() {
        let text = "Here it is:\n```pddl\n(define (domain d))\n```\nHope this helps (really).\n";
        let (blanked, diagnostic) = unwrap(text, None).expect("prose found");
        assert_eq!(blanked.len(), text.len());
        assert_eq!(blanked.trim(), "(define (domain d))");
        assert_eq!(diagnostic.labels.len(), 2);
    }

    #[test]
    fn plain_pddl_is_left_alone() {
        assert!(unwrap("; c\n(in-package :x)\n(define (domain d))\n; end\n", None).is_none());
        assert!(unwrap("(define (domain d)))\n", None).is_none());
        assert!(unwrap("no definition here", None).is_none());
        assert!(unwrap("qq(define (domain d))\n", None).is_none());
        assert!(unwrap("(define (domain d)) qq\n", None).is_none());
    }

    #[test]
    fn a_fence_on_the_line_of_the_last_parenthesis_counts() {
        let text = "```pddl\n(define (domain d))```\nDone.";
        let (blanked, diagnostic) = unwrap(text, None).expect("prose found");
        assert_eq!(blanked.trim(), "(define (domain d))");
        assert_eq!(diagnostic.labels.len(), 2);
    }

    #[test]
    fn an_unclosed_definition_ends_at_the_fence() {
        let text = "```pddl\n(define (domain d)\n```\nDone.";
        let (blanked, _) = unwrap(text, None).expect("prose found");
        assert_eq!(blanked.trim(), "(define (domain d)");
    }
}
