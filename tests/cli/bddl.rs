//! `pddlc bddl compare` (docs/bddl.md): text and JSON, exit codes, diagnostics for unreadable
//! files and bad pairs, paths in a pairs file.

use super::{code, pddlc, stderr, stdout};
use serde_json::Value;

const GOLD: &str = "fixtures/bddl/plan_gold.txt";
const PRED: &str = "fixtures/bddl/plan_pred.txt";

#[test]
fn the_command_prints_the_score_as_text_and_json() {
    let out = pddlc(&["bddl", "compare", GOLD, PRED, "--match", "normalised"]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(
        text.starts_with("score 0.8000  lcs 4  gold 5 steps  pred 4 steps\n"),
        "{text}"
    );
    let out = pddlc(&[
        "bddl", "compare", GOLD, PRED, "--mode", "compat", "--format", "json",
    ]);
    assert_eq!(code(&out), 0);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["version"], 1);
    assert_eq!(
        (json["lcs"].as_u64(), json["gold_steps"].as_u64()),
        (Some(3), Some(6))
    );
    assert_eq!(json["score"], 0.5);
    assert_eq!(json["matched"][2]["gold_index"], 5);
    assert_eq!(json["diagnostics"].as_array().map(Vec::len), Some(0));
}

#[test]
fn an_unreadable_plan_is_a_diagnostic_and_exit_two() {
    let out = pddlc(&["bddl", "compare", "no/such/gold.txt", PRED]);
    assert_eq!(code(&out), 2);
    let shown = stdout(&out) + &stderr(&out);
    assert!(
        shown.contains("no/such/gold.txt:1:1: error:") && shown.contains("[P090]"),
        "{shown}"
    );
    let out = pddlc(&[
        "bddl",
        "compare",
        "no/such/gold.txt",
        PRED,
        "--format",
        "json",
    ]);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["diagnostics"][0]["code"], "P090");
    assert!(!stderr(&out).contains("panicked"));
}

#[test]
fn a_pairs_file_gives_rows_a_summary_and_located_diagnostics() {
    let pairs = "fixtures/bddl/B701_pair_invalid.jsonl";
    let out = pddlc(&["bddl", "compare", "--pairs", pairs, "--format", "json"]);
    assert_eq!(code(&out), 1);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["summary"]["count"], 1);
    assert_eq!(json["pairs"][0]["line"], 1);
    assert_eq!(json["pairs"][0]["score"], 0.5);
    let diagnostics = json["diagnostics"].as_array().expect("diagnostics");
    let located: Vec<(&Value, &Value)> = diagnostics
        .iter()
        .map(|d| (&d["code"], &d["line"]))
        .collect();
    assert_eq!(
        located,
        [(&"B701".into(), &2.into()), (&"B701".into(), &3.into())],
        "{json}"
    );
    assert!(
        diagnostics[0]["help"]
            .as_str()
            .is_some_and(|h| h.contains("--mode compat"))
    );
    // Compat scores the gold-less pair against itself (1.0) and keeps the "" steps: line 1 is
    // 2/3 there.
    let out = pddlc(&[
        "bddl", "compare", "--pairs", pairs, "--mode", "compat", "--format", "json",
    ]);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["summary"]["count"], 2);
    assert_eq!(json["pairs"][1]["self_reference"], true);
    assert_eq!(json["summary"]["mean_score"], (2.0 / 3.0 + 1.0) / 2.0);
    // Paths in a pairs file are read relative to it.
    let dir = tempfile::tempdir().expect("temporary directory");
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::copy(format!("{root}/{GOLD}"), dir.path().join("gold.txt")).expect("copy");
    let line = format!("{{\"gold_path\": \"gold.txt\", \"pred_path\": \"{root}/{PRED}\"}}\n");
    std::fs::write(
        dir.path().join("pairs.jsonl"),
        line + "{\"gold_path\": \"gone.txt\", \"pred\": \"a\"}\n{\"gold\": 5, \"pred\": \"a\"}\n\n{\"gold\": \"a\", \"pred_path\": null}\n",
    )
    .expect("write");
    let listed = dir.path().join("pairs.jsonl");
    let out = pddlc(&["bddl", "compare", "--pairs", &listed.to_string_lossy()]);
    assert_eq!(code(&out), 2, "an unreadable listed file is P090");
    let text = stdout(&out);
    // Diagnostics are gcc lines on stderr off a terminal: the unreadable file, then the two
    // bad lines (a number for a plan, no predicted plan).
    let errors = stderr(&out);
    assert!(errors.contains("gone.txt:1:1: error:"), "{errors}");
    assert!(
        errors.contains("pairs.jsonl:3:1: error: `gold` is not a string [B701]"),
        "{errors}"
    );
    assert!(
        errors.contains("pairs.jsonl:5:1: error: the pair has no `pred`"),
        "{errors}"
    );
    assert!(text.contains("line     1  score 0.4000  lcs 2"), "{text}");
    assert!(
        text.ends_with("1 pairs  mean lcs 2.0000  mean score 0.4000\n"),
        "{text}"
    );
}
