//! `pddlc check` and `pddlc fmt` on BDDL files (docs/bddl.md): the dialect chosen by the
//! extension or `--dialect`, a problem checked against a domain among the inputs, the notes
//! for what is not checked, `fmt --write` and `--check`, the language server agreeing.

use super::{code, pddlc, pddlc_in, stderr, stdout, write};
use serde_json::Value;

const DROPPED: &str = "fixtures/bddl/check/B709_goal_dropped.bddl";

fn codes(json: &Value) -> Vec<String> {
    json["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().expect("code").to_string())
        .collect()
}

#[test]
fn a_bddl_problem_is_checked_as_bddl_in_every_format() {
    let out = pddlc(&["check", DROPPED, "--format", "json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(codes(&json), ["B702", "B702", "B709"]);
    assert_eq!(json["files"][0]["kind"], "problem");
    assert_eq!(json["diagnostics"][2]["line"], 18);
    let out = pddlc(&["check", DROPPED, "--format", "gcc"]);
    assert!(
        stdout(&out)
            .contains("B709_goal_dropped.bddl:18:9: error: :goal holds more than one formula"),
        "{}",
        stdout(&out)
    );
    // The same text read as PDDL is not BDDL: names with dots are a PDDL syntax error.
    let out = pddlc(&["check", DROPPED, "--dialect", "pddl", "--format", "json"]);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(codes(&json).iter().all(|c| c.starts_with('P')), "{json}");
}

#[test]
fn a_problem_is_checked_against_the_domain_it_names_among_the_inputs() {
    let out = pddlc(&[
        "check",
        "fixtures/bddl/check/B721_domain_mismatch",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let files = json["files"].as_array().expect("files");
    assert_eq!(files.len(), 2, "a directory is searched for .bddl files");
    let problem = files
        .iter()
        .find(|f| f["kind"] == "problem")
        .expect("the problem");
    assert!(
        problem["checked_against"]
            .as_str()
            .is_some_and(|d| d.ends_with("domain.bddl")),
        "{problem}"
    );
    assert!(codes(&json).contains(&"B721".to_string()));
}

#[test]
fn a_domain_that_is_not_shipped_leaves_predicates_unchecked_and_says_so() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let text = "(define (problem p-0) (:domain omnigibson)\n  (:objects a.n.01_1 - a.n.01)\n  (:init (filled a.n.01_1 a.n.01_1))\n  (:goal (and (real a.n.01_1))))\n";
    let path = write(dir.path(), "problem.bddl", text.as_bytes());
    let out = pddlc(&["check", path.to_str().expect("UTF-8"), "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(codes(&json), Vec::<String>::new());
    let note = json["files"][0]["note"].as_str().expect("a note");
    assert!(note.contains("predicates are not checked"), "{note}");
    assert!(note.contains("synsets are not checked"), "{note}");
    // Standard input is read as BDDL when asked.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .args(["check", "-", "--dialect", "bddl", "--format", "json"])
        .stdin(std::fs::File::open(&path).expect("the file"))
        .output()
        .expect("pddlc runs");
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["files"][0]["kind"], "problem");
    // A taxonomy that cannot be read is an unreadable input.
    let out = pddlc(&["check", DROPPED, "--hierarchy", "no/such/hierarchy.json"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

#[test]
fn fmt_prints_rewrites_and_checks_bddl() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let text = "(define (problem p) (:domain igibson) ; d\n(:objects a.n.01_1 - a.n.01)\n(:init (cooked a.n.01_1))\n(:goal (and (cooked a.n.01_1))))\n";
    let path = write(dir.path(), "problem.bddl", text.as_bytes());
    let name = path.to_str().expect("UTF-8");
    let out = pddlc(&["fmt", name, "--check"]);
    assert_eq!(code(&out), 1, "not canonical");
    let out = pddlc(&["fmt", name]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let printed = stdout(&out);
    assert!(printed.contains("(:domain igibson) ; d"), "{printed}");
    let out = pddlc(&["fmt", name, "--write"]);
    assert_eq!(code(&out), 0);
    assert_eq!(std::fs::read_to_string(&path).expect("rewritten"), printed);
    let out = pddlc_in(dir.path(), &["fmt", "problem.bddl", "--check"]);
    assert_eq!(code(&out), 0, "canonical now");
    // A file with a syntax error is reported and left as it is.
    let broken = write(
        dir.path(),
        "broken.bddl",
        b"(define (problem p) (:goal (cooked (a))))",
    );
    let out = pddlc(&["fmt", broken.to_str().expect("UTF-8"), "--write"]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        std::fs::read(&broken).expect("kept"),
        b"(define (problem p) (:goal (cooked (a))))"
    );
}

#[test]
fn parse_prints_a_bddl_tree() {
    let out = pddlc(&["parse", "fixtures/bddl/check/B723_ignored_argument.bddl"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["tree"]["kind"], "problem");
    let sections = json["tree"]["sections"].as_array().expect("sections");
    let goal = sections
        .iter()
        .find(|s| s["section"] == "goal")
        .expect("a goal");
    // `(not a b)` keeps both arguments in the tree; the checker says the second is ignored.
    assert_eq!(goal["formulas"][0]["kind"]["op"], "not");
    assert_eq!(
        goal["formulas"][0]["kind"]["args"].as_array().map(Vec::len),
        Some(2)
    );
}
