//! The domain text Text2World scores for an LLM response (`extract_pddl` in its
//! `world_generation.py`).

use super::python;

/// The longest block fenced as ```` ```pddl\n…``` ````, or failing any, as ```` ```\n…``` ````,
/// stripped of Unicode whitespace like Python's `str.strip`; the whole response, unchanged, when
/// there is no such block or the longest one is blank.
pub fn extract_response(text: &str) -> String {
    let mut blocks = fenced_blocks(text, "```pddl\n");
    if blocks.is_empty() {
        blocks = fenced_blocks(text, "```\n");
    }
    // The first of the longest, counted in code points as Python counts `len`.
    let mut longest: Option<&str> = None;
    let mut longest_len = 0;
    for block in blocks {
        let len = block.chars().count();
        if longest.is_none() || len > longest_len {
            longest = Some(block);
            longest_len = len;
        }
    }
    match longest.map(python::strip) {
        Some(block) if !block.is_empty() => block.to_string(),
        _ => text.to_string(),
    }
}

/// The non-overlapping matches of `opening(.*?)```` with `.` matching newlines, as
/// `re.findall` returns them: the search resumes after the closing fence of each match.
fn fenced_blocks<'a>(text: &'a str, opening: &str) -> Vec<&'a str> {
    let mut blocks = Vec::new();
    let mut from = 0;
    while let Some(found) = find_fence(text, from, opening) {
        let body_start = found + opening.len();
        let Some(body_end) = find_fence(text, body_start, "```") else {
            break;
        };
        blocks.push(text.get(body_start..body_end).unwrap_or(""));
        from = body_end + 3;
    }
    blocks
}

/// Where `fence` (which starts with a backtick) first occurs in `text` at or after `from`:
/// `str::find` of the string, but found by looking for backticks, which `str::find` of a
/// character does a word of bytes at a time, then comparing there.
fn find_fence(text: &str, mut from: usize, fence: &str) -> Option<usize> {
    loop {
        let at = from + text.get(from..)?.find('`')?;
        if text[at..].starts_with(fence) {
            return Some(at);
        }
        from = at + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::extract_response;

    #[test]
    fn longest_pddl_block_wins() {
        let text = "a\n```pddl\n(x)\n```\nb\n```pddl\n  (longer)\n```\n";
        assert_eq!(extract_response(text), "(longer)");
    }

    #[test]
    fn plain_fence_only_without_pddl_fence() {
        assert_eq!(extract_response("```\n(p)\n```"), "(p)");
        assert_eq!(extract_response("```pddl\n(a)```\n```\n(bbbbbb)```"), "(a)");
    }

    #[test]
    fn no_fence_or_blank_block_keeps_the_response() {
        assert_eq!(extract_response("(define)"), "(define)");
        assert_eq!(extract_response("```pddl\n \n```"), "```pddl\n \n```");
        assert_eq!(extract_response("```pddl\n(open"), "```pddl\n(open");
    }

    #[test]
    fn strips_unicode_whitespace() {
        assert_eq!(extract_response("```pddl\n\u{3000}(a)\u{a0}\n```"), "(a)");
        assert_eq!(extract_response("```pddl\n\u{200b}(a)\n```"), "\u{200b}(a)");
    }
}
