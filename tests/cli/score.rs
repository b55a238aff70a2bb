//! `score`: one pair, and batches of pairs (`--pairs`).

use crate::{code, pddlc, stderr, stdout, write};
use serde_json::Value;

#[test]
fn score_scores_pairs_and_batches_without_dropping_rows() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let gold = std::fs::read_to_string("domains/blocksworld/domain.pddl").expect("shipped domain");
    write(dir.path(), "gold.pddl", gold.as_bytes());
    let renamed = gold.replace("?x", "?top").replace("?y", "?below");
    write(dir.path(), "pred.pddl", renamed.as_bytes());
    let gold_path = dir.path().join("gold.pddl").to_string_lossy().to_string();
    let pred_path = dir.path().join("pred.pddl").to_string_lossy().to_string();

    // Renamed variables cost everything in text2world mode and nothing in clean mode.
    let out = pddlc(&[
        "score",
        "--format",
        "json",
        "--mode",
        "text2world",
        &gold_path,
        &pred_path,
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let t2w: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(t2w["EXEC"], 100.0);
    assert_eq!(t2w["F1_PARAM"], 0.0);
    // `codes` lists the diagnostic codes that made EXEC 0: none here.
    assert_eq!(t2w["codes"], serde_json::json!([]));
    let out = pddlc(&["score", "--format", "json", &gold_path, &pred_path]);
    let clean: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(clean["mode"], "clean");
    for key in ["F1_PRED", "F1_PARAM", "F1_PRECOND", "F1_EFF"] {
        assert_eq!(clean[key], 100.0, "{key}: {clean}");
    }

    // A batch: a file pair, an inline pair, a blank line and a broken line, in order, then the
    // summary.
    let inline = serde_json::json!({"id": "inline", "gold": gold, "pred": gold}).to_string();
    let lines = format!(
        "{{\"id\": \"files\", \"gold\": \"gold.pddl\", \"pred\": \"pred.pddl\"}}\n{inline}\n\n{{\"id\": \"broken\", \"gold\": \"missing.pddl\", \"pred\": \"pred.pddl\"}}\n"
    );
    let pairs = write(dir.path(), "pairs.jsonl", lines.as_bytes());
    let out = pddlc(&[
        "score",
        "--mode",
        "text2world",
        "--pairs",
        &pairs.to_string_lossy(),
    ]);
    // A failed line makes the batch exit 1; its row keeps the id and the file's line number.
    assert_eq!(code(&out), 1);
    let rows: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["id"], "files");
    assert_eq!(rows[1]["id"], "inline");
    assert_eq!(rows[1]["SIM"], 100.0);
    assert_eq!(rows[1]["codes"], serde_json::json!([]));
    assert_eq!(rows[2]["line"], 4);
    assert_eq!(rows[2]["id"], "broken");
    assert!(
        rows[2]["error"]
            .as_str()
            .is_some_and(|e| e.contains("missing.pddl")),
        "{}",
        rows[2]
    );
    assert_eq!(rows[2]["codes"], serde_json::json!(["P090"]));
    assert_eq!(rows[3]["pairs"], 3);
    assert_eq!(rows[3]["errors"], 1);

    // `--response` applies to every line that does not say otherwise: a chat answer with the
    // domain in a fence scores as the domain, as `score --response` does for one pair.
    let answer = format!("Here is the domain:\n```pddl\n{gold}\n```\nGood luck!");
    write(dir.path(), "answer.txt", answer.as_bytes());
    let lines = "{\"id\": \"chat\", \"gold\": \"gold.pddl\", \"pred\": \"answer.txt\"}\n\
                 {\"id\": \"raw\", \"gold\": \"gold.pddl\", \"pred\": \"answer.txt\", \"response\": false}\n";
    let pairs = write(dir.path(), "responses.jsonl", lines.as_bytes());
    let batch = pddlc(&[
        "score",
        "--mode",
        "text2world",
        "--response",
        "--pairs",
        &pairs.to_string_lossy(),
    ]);
    let rows: Vec<Value> = stdout(&batch)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let single = pddlc(&[
        "score",
        "--format",
        "json",
        "--mode",
        "text2world",
        "--response",
        &gold_path,
        &dir.path().join("answer.txt").to_string_lossy(),
    ]);
    let single: Value = serde_json::from_str(&stdout(&single)).expect("valid JSON");
    assert_eq!(single["EXEC"], 100.0, "{single}");
    for key in ["EXEC", "SIM", "F1_PRED", "F1_PARAM", "F1_PRECOND", "F1_EFF"] {
        assert_eq!(rows[0][key], single[key], "{key}: {}", rows[0]);
    }
    // The line that says `"response": false` is scored as raw text, which tarski rejects.
    assert_eq!(rows[1]["EXEC"], 0.0, "{}", rows[1]);
}
