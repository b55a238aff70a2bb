//! LLM answers as they come (fixtures/cli/answer-*.md): a `~~~Lisp` fence, a second block with a
//! problem, prose before, between and after, CRLF line ends. `check --extract` and `score
//! --response` in clean mode read the domain in them, and positions name the answer's own lines.

use super::{code, pddlc, stdout};

const ANSWER: &str = "fixtures/cli/answer-lisp-crlf.md";
const TYPO: &str = "fixtures/cli/answer-lisp-typo.md";
const GOLD: &str = "domains/blocksworld/domain.pddl";

/// The 1-based line of the answer that holds `needle`.
fn line_of(path: &str, needle: &str) -> usize {
    let text = std::fs::read_to_string(path).expect("fixture");
    text.lines()
        .position(|l| l.contains(needle))
        .expect("needle")
        + 1
}

#[test]
fn check_extract_names_the_answer_s_own_line_and_column() {
    let out = pddlc(&["check", "--extract", "--format", "gcc", TYPO]);
    assert_eq!(code(&out), 1);
    let line = line_of(TYPO, "(claer ?y)");
    let text = std::fs::read_to_string(TYPO).expect("fixture");
    let column = text
        .lines()
        .nth(line - 1)
        .expect("line")
        .find("claer")
        .expect("typo");
    let expected = format!(
        "{TYPO}:{line}:{}: error: predicate `claer` is not declared [C101]",
        column + 1
    );
    assert_eq!(
        stdout(&out).lines().next(),
        Some(expected.as_str()),
        "{}",
        stdout(&out)
    );
    // The clean answer checks clean: the prose, the fences and the problem's block are not read.
    let out = pddlc(&["check", "--extract", "--format", "gcc", ANSWER]);
    assert_eq!((code(&out), stdout(&out)), (0, String::new()));
}

#[test]
fn clean_scoring_reads_the_answer_and_text2world_mode_keeps_the_official_extraction() {
    let out = pddlc(&["score", "--response", "--format", "json", GOLD, ANSWER]);
    let scores: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(code(&out), 0);
    for metric in ["EXEC", "SIM", "F1_PRED", "F1_PARAM", "F1_PRECOND", "F1_EFF"] {
        assert_eq!(scores[metric], 100.0, "{metric}: {scores}");
    }
    // Text2World extracts only ```pddl and bare ``` blocks: the answer is scored whole, as the
    // official scorer scores it, and tarski rejects it.
    let out = pddlc(&[
        "score",
        "--mode",
        "text2world",
        "--response",
        "--format",
        "json",
        GOLD,
        ANSWER,
    ]);
    let scores: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(scores["EXEC"], 0.0, "{scores}");
}
