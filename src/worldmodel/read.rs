//! Model output read the way LLMs write it (docs/worldmodel.md, "How answers are read"): an
//! action or atom with or without parentheses (`(unstack a b)`, `unstack a b`, `Unstack(A, B)`,
//! `1. (unstack a b)`, `0.000: (unstack a b) [1]`), in any case, inside a code fence or after a
//! line of prose; a verdict as a boolean or in words; lists as JSON arrays or as text, one
//! action a line. Everything read is put in one canonical form, `(name arg…)` in lowercase with
//! single spaces, the form the items are compared in.

use std::collections::HashMap;

/// The names a task gives actions or predicates, with their arities: text that names none of
/// them in its first word is searched for the first word that does (prose before an action).
#[derive(Clone, Debug, Default)]
pub(crate) struct Vocabulary {
    arity: HashMap<String, usize>,
}

impl Vocabulary {
    pub(crate) fn new<'a>(names: impl IntoIterator<Item = (&'a str, usize)>) -> Vocabulary {
        Vocabulary {
            arity: names
                .into_iter()
                .map(|(name, n)| (name.to_lowercase(), n))
                .collect(),
        }
    }

    fn arity(&self, name: &str) -> Option<usize> {
        self.arity.get(name).copied()
    }
}

/// The canonical form of an item's own action or atom text (already well formed).
pub(crate) fn canonical(text: &str) -> String {
    let inner = text.trim().trim_start_matches('(').trim_end_matches(')');
    format!(
        "({})",
        inner.split_whitespace().collect::<Vec<_>>().join(" ")
    )
    .to_lowercase()
}

/// One action or atom as a model wrote it, in canonical form; `None` when nothing in the text
/// reads as one.
pub(crate) fn term(text: &str, vocabulary: &Vocabulary) -> Option<String> {
    let text = strip_markers(text.trim());
    let words = match text.find('(') {
        Some(open) => parenthesized(text, open)?,
        None => text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(|w| {
                w.trim_matches(|c: char| "`'\".;:".contains(c))
                    .to_lowercase()
            })
            .filter(|w| !w.is_empty())
            .collect(),
    };
    let words = named(words, vocabulary)?;
    words
        .iter()
        .all(|w| is_name(w))
        .then(|| format!("({})", words.join(" ")))
}

/// The words of the first parenthesized term at `open`: `(name a b)`, or `name(a, b)` when a
/// name touches the parenthesis. A nested term (`(not (on a b))`) is not one action or atom.
fn parenthesized(text: &str, open: usize) -> Option<Vec<String>> {
    let close = open + text[open..].find(')')?;
    let inside = &text[open + 1..close];
    if inside.contains('(') {
        return None;
    }
    let called: String = text[..open]
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || "-_.".contains(*c))
        .collect::<Vec<char>>()
        .into_iter()
        .rev()
        .collect();
    let mut words: Vec<String> = Vec::new();
    if !called.is_empty() {
        words.push(called.to_lowercase());
    }
    words.extend(
        inside
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase),
    );
    (!words.is_empty()).then_some(words)
}

/// Words that start with a name of the vocabulary, or, when the first does not, the first name
/// and as many words after it as its arity (prose before and after is dropped). Without a
/// known name, the words as they are when they are one word or the vocabulary is empty.
fn named(words: Vec<String>, vocabulary: &Vocabulary) -> Option<Vec<String>> {
    let first = words.first()?;
    if vocabulary.arity.is_empty() || vocabulary.arity(first).is_some() {
        return Some(words);
    }
    let at = words.iter().position(|w| vocabulary.arity(w).is_some())?;
    let arity = vocabulary.arity(&words[at])?;
    let end = (at + 1 + arity).min(words.len());
    Some(words[at..end].to_vec())
}

/// A PDDL name: letters, digits, `-`, `_` and `.` (BDDL's `apple.n.01_1`).
fn is_name(word: &str) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || "-_.?".contains(c))
}

/// Leading list markers and step numbers: `1.`, `2)`, `3:`, `-`, `*`, `•`, `Step 4:`,
/// `0.000:`.
fn strip_markers(mut text: &str) -> &str {
    loop {
        let before = text;
        text = text
            .trim_start_matches(['-', '*', '•', '>', '#'])
            .trim_start();
        if text
            .get(..5)
            .is_some_and(|p| p.eq_ignore_ascii_case("step "))
        {
            text = text[5..].trim_start();
        }
        let digits = text
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(text.len());
        if digits > 0 && text[digits..].starts_with([':', ')', '.']) {
            text = text[digits + 1..].trim_start();
        } else if digits > 0 && text[..digits].ends_with('.') {
            text = text[digits..].trim_start();
        }
        if text == before {
            return text;
        }
    }
}

/// The actions of a list a model wrote as text: the answer is taken out of its code fence, then
/// each line (without what follows `;`) holds one action or several parenthesized ones. Lines
/// that do not read are returned apart (prose is expected around the list).
pub(crate) fn actions(text: &str, vocabulary: &Vocabulary) -> (Vec<String>, Vec<String>) {
    let answer = extract_fence(text);
    let mut read = Vec::new();
    let mut unread = Vec::new();
    for line in answer.lines() {
        let line = line.split(';').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let groups = top_level_groups(line);
        if groups.len() > 1 && !has_called_name(line) {
            for group in groups {
                match term(group, vocabulary) {
                    Some(action) => read.push(action),
                    None => unread.push(group.to_string()),
                }
            }
            continue;
        }
        match term(line, vocabulary) {
            Some(action) => read.push(action),
            None => unread.push(line.to_string()),
        }
    }
    (read, unread)
}

/// The text inside the answer's code fence, if it has one (any info string: ```` ```lisp ````,
/// ```` ```pddl ````, none), else the whole text.
fn extract_fence(text: &str) -> String {
    if text.contains("```") {
        let mut inside = false;
        let mut kept = String::new();
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                if inside {
                    return kept;
                }
                inside = true;
                continue;
            }
            if inside {
                kept.push_str(line);
                kept.push('\n');
            }
        }
        return kept;
    }
    text.to_string()
}

/// Whether a line writes a name against its parenthesis, as `move(a, b)`.
fn has_called_name(line: &str) -> bool {
    line.char_indices().any(|(i, c)| {
        c == '('
            && i > 0
            && line[..i]
                .chars()
                .last()
                .is_some_and(|p| p.is_alphanumeric())
    })
}

/// The top-level `(…)` groups of a line.
fn top_level_groups(line: &str) -> Vec<&str> {
    let mut groups = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in line.char_indices() {
        match c {
            '(' => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    groups.push(&line[start..=i]);
                }
            }
            _ => {}
        }
    }
    groups
}

/// A verdict: a JSON boolean, or the first decisive word of a text (`yes`, `valid`, `true`,
/// `succeeds`, `correct`, … against `no`, `invalid`, `false`, `fails`, `incorrect`, …), a
/// positive word turned negative by a `not`, `never` or `n't` in the two words before it.
pub(crate) fn verdict(text: &str) -> Option<bool> {
    let lower = extract_answer_text(text).to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    const POSITIVE: &[&str] = &[
        "yes",
        "true",
        "valid",
        "succeeds",
        "succeed",
        "success",
        "successful",
        "correct",
        "works",
        "work",
        "reaches",
        "achieves",
        "possible",
        "executable",
    ];
    const NEGATIVE: &[&str] = &[
        "no",
        "false",
        "invalid",
        "fails",
        "fail",
        "failure",
        "incorrect",
        "impossible",
        "inapplicable",
        "unreachable",
        "cannot",
        "can't",
        "won't",
    ];
    for (i, word) in words.iter().enumerate() {
        if NEGATIVE.contains(word) {
            return Some(false);
        }
        if POSITIVE.contains(word) {
            let negated = words[i.saturating_sub(2)..i]
                .iter()
                .any(|w| *w == "not" || *w == "never" || w.ends_with("n't"));
            return Some(!negated);
        }
    }
    None
}

/// An answer out of its fence; prose is kept (a verdict is often a sentence).
fn extract_answer_text(text: &str) -> String {
    if text.contains("```") {
        extract_fence(text)
    } else {
        text.to_string()
    }
}

/// The atoms a model says an action adds and deletes, from text: lines or sections headed
/// `add`/`added`/`+` and `delete`/`deleted`/`del`/`remove`/`-`, or atoms written `(not (…))`
/// for deletions. `None` when the text says neither which atoms are added nor which deleted.
pub(crate) fn change(text: &str, vocabulary: &Vocabulary) -> Option<(Vec<String>, Vec<String>)> {
    let answer = extract_answer_text(text);
    let mut added = Vec::new();
    let mut deleted = Vec::new();
    let mut section: Option<bool> = None;
    let mut headed = false;
    for line in answer.lines() {
        let mut rest = line.trim();
        if let Some((heading, after)) = heading(rest) {
            section = Some(heading);
            headed = true;
            rest = after;
        }
        for group in atoms_of(rest) {
            let (negated, atom) = negation(group);
            let Some(atom) = term(atom, vocabulary) else {
                continue;
            };
            match (negated, section) {
                (true, _) | (false, Some(false)) => deleted.push(atom),
                (false, _) => added.push(atom),
            }
        }
    }
    (headed || !deleted.is_empty() || !added.is_empty()).then_some((added, deleted))
}

/// `add:`/`delete:` and their kin at the start of a line (or `+` for added), and what follows
/// the heading.
fn heading(line: &str) -> Option<(bool, &str)> {
    let trimmed = line.trim_start_matches(['*', '#', ' ']);
    if let Some(after) = trimmed.strip_prefix('+') {
        return Some((true, after));
    }
    const HEADINGS: &[(&str, bool)] = &[
        ("added", true),
        ("adds", true),
        ("add", true),
        ("becomes true", true),
        ("true", true),
        ("deleted", false),
        ("deletes", false),
        ("delete", false),
        ("del", false),
        ("removed", false),
        ("removes", false),
        ("remove", false),
        ("becomes false", false),
        ("false", false),
    ];
    let (word, adds) = HEADINGS.iter().find(|(word, _)| {
        trimmed
            .get(..word.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(word))
            && !trimmed[word.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '-')
    })?;
    // What follows the heading: after its `:` (`Added atoms: …`), else after the word.
    let after = &trimmed[word.len()..];
    let colon = after.find(':').filter(|&at| !after[..at].contains('('));
    let after = colon.map_or(after, |at| &after[at + 1..]);
    Some((*adds, after.trim_start_matches([' ', '='])))
}

/// The atoms of a line: its top-level groups, or the line itself when it has none.
fn atoms_of(line: &str) -> Vec<&str> {
    let groups = top_level_groups(line);
    if groups.is_empty() {
        let line = line.trim();
        if line.is_empty() { vec![] } else { vec![line] }
    } else {
        groups
    }
}

/// `(not (on a b))` as a negated `(on a b)`.
fn negation(group: &str) -> (bool, &str) {
    let inner = group.trim();
    if let Some(rest) = inner.strip_prefix('(') {
        let rest = rest.trim_start();
        if rest.len() > 3 && rest.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("not")) {
            let after = rest[3..].trim_start();
            if after.starts_with('(') {
                let end = after.rfind(')').unwrap_or(after.len());
                let atom = after[..end].trim_end();
                let atom = atom.strip_suffix(')').map_or(atom, |a| a);
                return (true, if atom.ends_with(')') { atom } else { after });
            }
        }
    }
    (false, inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks() -> Vocabulary {
        Vocabulary::new([
            ("unstack", 2),
            ("stack", 2),
            ("pick-up", 1),
            ("put-down", 1),
        ])
    }

    #[test]
    fn actions_read_as_models_write_them() {
        let v = blocks();
        for text in [
            "(unstack a b)",
            "unstack a b",
            "Unstack(A, B)",
            "1. (unstack a b)",
            "0.000: (UNSTACK A B) [1]",
            "Step 3: unstack a b",
            "- `unstack a b`",
            "I would unstack a b.",
        ] {
            assert_eq!(term(text, &v).as_deref(), Some("(unstack a b)"), "{text}");
        }
        assert_eq!(term("I don't know", &v), None);
        assert_eq!(term("(not (on a b))", &v), None);
    }

    #[test]
    fn plans_come_out_of_fences_and_prose() {
        let v = blocks();
        let text = "Here is the plan:\n```lisp\n(unstack a b) (put-down a)\n; done\n```\n";
        let (read, unread) = actions(text, &v);
        assert_eq!(read, ["(unstack a b)", "(put-down a)"]);
        assert!(unread.is_empty());
        let (read, unread) = actions("Plan:\n1. unstack a b\n2. put-down a\nThat is all.", &v);
        assert_eq!(read, ["(unstack a b)", "(put-down a)"]);
        assert_eq!(unread, ["Plan:", "That is all."]);
    }

    #[test]
    fn verdicts_in_words() {
        for (text, want) in [
            ("Yes", Some(true)),
            ("The plan is valid.", Some(true)),
            ("The plan is not valid: step 2 fails.", Some(false)),
            ("Invalid", Some(false)),
            ("It doesn't succeed", Some(false)),
            ("Hmm, hard to say", None),
        ] {
            assert_eq!(verdict(text), want, "{text}");
        }
    }

    #[test]
    fn no_text_makes_the_reader_panic() {
        let v = blocks();
        let pieces = [
            "(", ")", "é", "K", "İ", "not", "(not", "step", "Step ", "1.", "0.5:", "add",
            "Deleted:", "```", "\n", " ", ",", "ſ", "💥", "unstack", "a", "\u{0}",
        ];
        let mut state = 7u64;
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..(state % 9) {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(state >> 33) as usize % pieces.len()]);
            }
            let _ = term(&text, &v);
            let _ = actions(&text, &v);
            let _ = verdict(&text);
            let _ = change(&text, &v);
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        }
    }

    #[test]
    fn changes_in_sections_or_negations() {
        let v = Vocabulary::new([("on", 2), ("clear", 1), ("holding", 1)]);
        let (added, deleted) =
            change("Added: (holding a), (clear b)\nDeleted: (on a b)", &v).unwrap();
        assert_eq!(added, ["(holding a)", "(clear b)"]);
        assert_eq!(deleted, ["(on a b)"]);
        let (added, deleted) = change("(holding a) (not (on a b))", &v).unwrap();
        assert_eq!(added, ["(holding a)"]);
        assert_eq!(deleted, ["(on a b)"]);
        assert_eq!(change("nothing to say", &v), None);
    }
}
