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

const PAIRS: &str = "fixtures/bddl/pairs_problem.bddl";
const STAR: &str = "fixtures/bddl/star_state.txt";

#[test]
fn goal_prints_the_verdict_and_each_conjunct() {
    let out = pddlc(&["bddl", "goal", PAIRS, "--state", STAR, "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        json,
        serde_json::json!({"version": 1, "satisfied": false, "conjuncts": [true, false], "diagnostics": []})
    );
    let out = pddlc(&[
        "bddl", "goal", PAIRS, "--state", STAR, "--pairs", "matching", "--format", "json",
    ]);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["conjuncts"], serde_json::json!([false, false]));
    // A state line that is not an atom: located, and no verdict.
    let out = pddlc(&[
        "bddl",
        "goal",
        "fixtures/bddl/check/B705_unused_variable.bddl",
        "--state",
        "fixtures/bddl/B740_state_invalid.txt",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["satisfied"], Value::Null);
    assert_eq!(json["diagnostics"][0]["code"], "B740");
    assert_eq!(json["diagnostics"][0]["line"], 3);
    // A goal bddl cannot load: the error, no verdict.
    let out = pddlc(&[
        "bddl",
        "goal",
        "fixtures/bddl/check/B715_unbound_category.bddl",
        "--state",
        STAR,
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        (json["satisfied"].clone(), json["conjuncts"].clone()),
        (Value::Null, serde_json::json!([]))
    );
    assert!(codes(&json).contains(&"B715".to_string()), "{json}");
}

#[test]
fn goal_over_many_states_gives_the_reference_verdicts() {
    let Some(root) = super::common::shared_part("bddl", "goal_over_many_states") else {
        return;
    };
    let records =
        std::fs::read_to_string(root.join("reference/goal-eval.jsonl")).expect("reference");
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut compared = 0;
    // Every 13th problem (21 of 266), each through one `--states` run.
    for line in records.lines().step_by(13) {
        let record: Value = serde_json::from_str(line).expect("a record");
        let atoms = record["atoms"].as_array().expect("atoms");
        let samples = record["samples"].as_array().expect("samples");
        let states: String = samples
            .iter()
            .map(|s| {
                let true_atoms: Vec<&Value> = s["true"]
                    .as_array()
                    .expect("indices")
                    .iter()
                    .map(|i| &atoms[i.as_u64().expect("index") as usize])
                    .collect();
                serde_json::json!({"id": s["id"], "true": true_atoms}).to_string() + "\n"
            })
            .collect();
        let path = write(dir.path(), "states.jsonl", states.as_bytes());
        let problem = root.join(record["file"].as_str().expect("file"));
        let out = pddlc(&[
            "bddl",
            "goal",
            problem.to_str().expect("UTF-8"),
            "--states",
            path.to_str().expect("UTF-8"),
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let rows: Vec<Value> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        assert_eq!(rows.len(), samples.len());
        for (row, sample) in rows.iter().zip(samples) {
            assert_eq!(
                (&row["id"], &row["satisfied"], &row["conjuncts"]),
                (&sample["id"], &sample["goal"], &sample["conjuncts"])
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 21 * 20);
    // A line that is not a state: its own row says why, the others are evaluated.
    let path = write(dir.path(), "bad.jsonl", b"{\"id\": 1, \"true\": []}\n[1]\n");
    let out = pddlc(&[
        "bddl",
        "goal",
        PAIRS,
        "--states",
        path.to_str().expect("UTF-8"),
    ]);
    assert_eq!(code(&out), 1);
    let rows: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(rows[0]["satisfied"], false);
    assert_eq!(
        (
            rows[1]["satisfied"].clone(),
            rows[1]["diagnostics"][0]["code"].clone()
        ),
        (Value::Null, "B740".into())
    );
}
