//! The PDDL in an LLM's answer, read as a person reads it (`check --extract`, clean scoring of
//! a response): any Markdown fence (backticks or tildes, any info string in any case: ```` ```pddl ````,
//! ```` ```lisp ````, ```` ```PDDL ````, none), prose before and after, several blocks (the one
//! holding `(define`, a domain's first), CRLF line ends. Everything else is blanked, byte for
//! byte, so that every position in what is parsed is the same position in the answer: diagnostics
//! name the answer's own lines and columns. Text2World's own extraction, quirks included, is
//! `text2world::extract_response`.

use super::prose;

/// One fenced block: where its body starts and ends (the lines between the fences).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Block {
    start: usize,
    end: usize,
}

/// The answer with everything but its definition blanked (spaces; line ends kept), so that byte
/// offsets and lines are the answer's. The block chosen is the first fenced block holding a
/// domain's `(define`, else the first holding any `(define`, else the longest non-blank block;
/// an answer without fences keeps its text, with prose around the definition blanked.
pub fn extract_answer(answer: &str) -> String {
    let blocks = fenced_blocks(answer);
    let chosen = choose(answer, &blocks);
    let kept = match chosen {
        Some(block) => blank_outside(answer, block.start, block.end),
        None => answer.to_string(),
    };
    // Prose left around the definition (inside the block, or in an answer without fences).
    match prose::unwrap(&kept, None) {
        Some((blanked, _)) => blanked,
        None => kept,
    }
}

fn choose(answer: &str, blocks: &[Block]) -> Option<Block> {
    let body = |b: &Block| &answer[b.start..b.end];
    let defines = |b: &&Block| prose::find_define(body(b)).is_some();
    blocks
        .iter()
        .filter(defines)
        .find(|b| defines_domain(body(b)))
        .or_else(|| blocks.iter().find(defines))
        .or_else(|| {
            blocks
                .iter()
                .filter(|b| !body(b).trim().is_empty())
                .max_by_key(|b| (b.end - b.start, std::cmp::Reverse(b.start)))
        })
        .copied()
}

/// Whether the text's first `(define` is followed by `(domain`.
fn defines_domain(text: &str) -> bool {
    let Some(at) = prose::find_define(text) else {
        return false;
    };
    let after = text[at + 1..].trim_start();
    let after = after.get(6..).unwrap_or("").trim_start();
    after.starts_with('(')
        && after[1..]
            .trim_start()
            .get(..6)
            .is_some_and(|w| w.eq_ignore_ascii_case("domain"))
}

/// The text with every byte outside `start..end` that is not a line end made a space.
fn blank_outside(text: &str, start: usize, end: usize) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for (i, byte) in bytes.iter_mut().enumerate() {
        if (i < start || i >= end) && !matches!(*byte, b'\n' | b'\r') {
            *byte = b' ';
        }
    }
    // Whole characters are blanked (every byte of one is outside or inside together, since
    // `start` and `end` are line boundaries), so the text stays UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// An opening or closing fence line: up to three spaces, then three or more backticks or
/// tildes; returns the character, the run's length and what follows it.
fn fence(line: &str) -> Option<(u8, usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let mark = *rest.as_bytes().first()?;
    if mark != b'`' && mark != b'~' {
        return None;
    }
    let run = rest.len() - rest.trim_start_matches(mark as char).len();
    (run >= 3).then(|| (mark, run, &rest[run..]))
}

/// The fenced blocks of a Markdown text, as CommonMark reads them: a fence opens with any info
/// string (a backtick fence's info has no backtick) and closes with a fence of the same
/// character, at least as long, and nothing after it; an unclosed block runs to the end.
fn fenced_blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<(u8, usize, usize)> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        match (open, fence(body)) {
            (None, Some((mark, run, info))) if mark == b'~' || !info.contains('`') => {
                open = Some((mark, run, offset));
            }
            (Some((mark, run, body_start)), Some((m, r, rest)))
                if m == mark && r >= run && rest.trim().is_empty() =>
            {
                blocks.push(Block {
                    start: body_start,
                    end: start,
                });
                open = None;
            }
            _ => {}
        }
    }
    if let Some((_, _, body_start)) = open {
        blocks.push(Block {
            start: body_start.min(text.len()),
            end: text.len(),
        });
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::extract_answer;

    /// The answer's lines that still hold text.
    fn kept(answer: &str) -> Vec<(usize, String)> {
        extract_answer(answer)
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i + 1, l.trim().to_string()))
            .collect()
    }

    #[test]
    fn any_fence_any_info_string_any_case() {
        for open in [
            "```lisp", "```PDDL", "```", "~~~", "~~~pddl", "````Lisp", "``` pddl",
        ] {
            let close = &open[..open
                .trim_end_matches(|c: char| c.is_alphanumeric() || c == ' ')
                .len()];
            let answer =
                format!("Here it is:\n{open}\n(define (domain d))\n{close}\nHope it helps.");
            assert_eq!(
                kept(&answer),
                vec![(3, "(define (domain d))".into())],
                "{open}"
            );
        }
    }

    #[test]
    fn crlf_lines_and_offsets_are_kept() {
        let answer =
            "Sure!\r\n```lisp\r\n(define (domain d)\r\n  (:predicates (p)))\r\n```\r\nBye\r\n";
        let extracted = extract_answer(answer);
        assert_eq!(extracted.len(), answer.len());
        let at = answer.find("(:predicates").unwrap();
        assert_eq!(&extracted[at..at + 12], "(:predicates");
        assert!(!extracted.contains("Sure") && !extracted.contains("```"));
    }

    #[test]
    fn the_block_with_the_domain_definition_wins() {
        let answer = "```\nnot pddl at all, longer than the rest\n```\n```pddl\n(define (problem p))\n```\n```lisp\n(define (domain d))\n```\n";
        assert_eq!(kept(answer), vec![(8, "(define (domain d))".into())]);
        let problem_only = "```text\nnotes\n```\n```pddl\n(define (problem p))\n```\n";
        assert_eq!(kept(problem_only), vec![(5, "(define (problem p))".into())]);
    }

    #[test]
    fn unclosed_fences_and_unfenced_answers() {
        assert_eq!(
            kept("```lisp\n(define (domain d))"),
            vec![(2, "(define (domain d))".into())]
        );
        assert_eq!(
            kept("I think:\n(define (domain d))\nDone."),
            vec![(2, "(define (domain d))".into())]
        );
        assert_eq!(
            kept("(define (domain d))"),
            vec![(1, "(define (domain d))".into())]
        );
    }

    #[test]
    fn non_ascii_prose_stays_utf8_and_keeps_offsets() {
        let answer = "Voilà — le domaine :\n```lisp\n(define (domain d))\n```\nÀ bientôt\n";
        let extracted = extract_answer(answer);
        assert_eq!(extracted.len(), answer.len());
        assert_eq!(extracted.lines().nth(2), Some("(define (domain d))"));
    }
}
