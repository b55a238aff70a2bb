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

/// The rows of a `--format jsonl` batch: one JSON object a line.
fn rows(out: &std::process::Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Every non-blank line of a batch is a row with its line number in the file and its `id`; a
/// line that cannot be scored is an error row, never dropped; blank lines are skipped without
/// shifting the numbers; the summary row counts pairs and errors, and the batch exits 1.
#[test]
fn score_batches_keep_every_line_with_its_number_and_id() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let gold = std::fs::read("domains/blocksworld/domain.pddl").expect("shipped domain");
    write(dir.path(), "gold.pddl", &gold);
    let lines = [
        r#"{"id": "first", "gold": "gold.pddl", "pred": "gold.pddl"}"#,
        "{not json",
        "   ",
        r#"{"id": 42, "gold": "gold.pddl"}"#,
        "",
        r#"{"id": "gone", "gold": "gold.pddl", "pred": "missing.pddl"}"#,
        "[1, 2]",
        r#"{"gold": "gold.pddl", "pred": "gold.pddl"}"#,
    ];
    let pairs = write(dir.path(), "pairs.jsonl", lines.join("\n").as_bytes());
    let pairs = pairs.to_string_lossy().to_string();
    let out = pddlc(&["score", "--mode", "text2world", "--pairs", &pairs]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let rows = rows(&out);
    // (line, id, scored, codes) of each row, in the order of the file.
    let seen: Vec<(u64, Value, bool, Value)> = rows[..rows.len() - 1]
        .iter()
        .map(|row| {
            assert_eq!(row["version"], 1, "{row}");
            let line = row["line"].as_u64().expect("a line number");
            (
                line,
                row["id"].clone(),
                row["error"].is_null(),
                row["codes"].clone(),
            )
        })
        .collect();
    let none = Value::Null;
    let no_codes = serde_json::json!([]);
    assert_eq!(
        seen,
        [
            (1, "first".into(), true, no_codes.clone()),
            (2, none.clone(), false, no_codes.clone()),
            (4, 42.into(), false, no_codes.clone()),
            (6, "gone".into(), false, serde_json::json!(["P090"])),
            (7, none.clone(), false, no_codes.clone()),
            (8, none, true, no_codes),
        ]
    );
    assert!(
        rows[1]["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("not valid JSON")),
        "{}",
        rows[1]
    );
    assert!(
        rows[2]["error"]
            .as_str()
            .is_some_and(|e| e.contains("pred")),
        "{}",
        rows[2]
    );
    assert!(
        rows[3]["error"]
            .as_str()
            .is_some_and(|e| e.contains("missing.pddl")),
        "{}",
        rows[3]
    );
    let summary = rows.last().expect("the summary row");
    assert_eq!(summary["version"], 1);
    assert_eq!(
        (summary["pairs"].clone(), summary["errors"].clone()),
        (6.into(), 4.into())
    );
    assert!(summary["summary"]["EXEC"].is_number(), "{summary}");

    // The same batch as one document: the same rows, in order, with the summary's fields.
    let out = pddlc(&[
        "score",
        "--mode",
        "text2world",
        "--pairs",
        &pairs,
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1);
    let document: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(document["version"], 1);
    assert_eq!(
        document["rows"],
        Value::Array(rows[..rows.len() - 1].to_vec())
    );
    assert_eq!(document["summary"], summary["summary"]);
    assert_eq!(
        (document["pairs"].clone(), document["errors"].clone()),
        (6.into(), 4.into())
    );

    // A batch file that cannot be read is one P090, in the document.
    let out = pddlc(&["score", "--pairs", "no/such.jsonl", "--format", "json"]);
    assert_eq!(code(&out), 2);
    let document: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(document["diagnostics"][0]["code"], "P090");
}

/// One pair whose files cannot be read: each is a P090 diagnostic, in the format asked for.
#[test]
fn score_reports_every_unreadable_input_of_a_pair() {
    let out = pddlc(&["score", "--format", "json", "no/gold.pddl", "no/pred.pddl"]);
    assert_eq!(code(&out), 2);
    let document: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(document["version"], 1);
    let files: Vec<&str> = document["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == "P090")
        .filter_map(|d| d["file"].as_str())
        .collect();
    assert_eq!(files, ["no/gold.pddl", "no/pred.pddl"]);
    let out = pddlc(&[
        "score",
        "--format",
        "human",
        "--color",
        "never",
        "domains/blocksworld/domain.pddl",
        "no/pred.pddl",
    ]);
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains("P090(io-error)") && stderr(&out).contains("no/pred.pddl"),
        "{}",
        stderr(&out)
    );
}

/// The acceptance line of issue 17: the chat answers of ../shared/text2world's dev pairs, scored
/// as a batch with the global `--response` (and, again, with `"response": true` on each line),
/// get the official scorer's values; without it they do not.
#[test]
fn score_response_batches_equal_the_official_scorer() {
    let Some(text2world) = crate::common::shared_part(
        "text2world/pairs/dev",
        "score_response_batches_equal_the_official_scorer",
    ) else {
        return;
    };
    let root = text2world.join("../..");
    let official: Vec<Value> = std::fs::read_to_string(text2world.join("scores.jsonl"))
        .expect("scores.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .filter(|row: &Value| row["kind"] == "response")
        .collect();
    assert!(official.len() > 300, "{} response pairs", official.len());
    let line = |row: &Value, per_line: bool| {
        let path = |key: &str| root.join(row[key].as_str().expect("a path"));
        let mut line = serde_json::json!({
            "id": row["pair"],
            "gold": path("gold").to_string_lossy(),
            "pred": path("pred").to_string_lossy(),
        });
        if per_line {
            line["response"] = true.into();
        }
        line.to_string()
    };
    let dir = tempfile::tempdir().expect("temporary directory");
    let batch = |per_line: bool, flag: bool| -> Vec<Value> {
        let text: Vec<String> = official.iter().map(|row| line(row, per_line)).collect();
        let pairs = write(dir.path(), "responses.jsonl", text.join("\n").as_bytes());
        let pairs = pairs.to_string_lossy().to_string();
        let mut args = vec!["score", "--mode", "text2world", "--pairs", &pairs];
        if flag {
            args.push("--response");
        }
        let out = pddlc(&args);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let mut rows = rows(&out);
        rows.pop();
        rows
    };
    let metrics = ["EXEC", "SIM", "F1_PRED", "F1_PARAM", "F1_PRECOND", "F1_EFF"];
    let differing = |rows: &[Value]| -> Vec<String> {
        assert_eq!(rows.len(), official.len());
        rows.iter()
            .zip(&official)
            .filter_map(|(row, expected)| {
                assert_eq!(row["id"], expected["pair"]);
                let differ: Vec<String> = metrics
                    .iter()
                    .filter(|m| row[**m].as_f64() != expected[**m].as_f64())
                    .map(|m| format!("{m} {} (official {})", row[*m], expected[*m]))
                    .collect();
                (!differ.is_empty()).then(|| format!("{}: {}", expected["pair"], differ.join(", ")))
            })
            .collect()
    };
    let global = differing(&batch(false, true));
    assert!(global.is_empty(), "with --response:\n{}", global.join("\n"));
    let per_line = differing(&batch(true, false));
    assert!(
        per_line.is_empty(),
        "with \"response\": true:\n{}",
        per_line.join("\n")
    );
    // Scored as raw text, the answers lose: the flag is what makes the values right.
    let raw = differing(&batch(false, false));
    assert!(
        raw.len() > official.len() / 2,
        "{} of {} differ raw",
        raw.len(),
        official.len()
    );
}

/// `--functional`: the verdicts, the alignment and the counterexamples in the JSON document,
/// the files in `--counterexamples DIR` (never overwritten without `--force`), and a section
/// in the human format (batches: tests/cli/score_functional.rs).
#[test]
fn functional_scoring_reports_and_writes_confirmed_counterexamples() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let gold = std::fs::read_to_string("domains/blocksworld/domain.pddl").expect("shipped domain");
    write(dir.path(), "gold.pddl", gold.as_bytes());
    let pred = gold.replace("arm-empty", "handempty").replace(
        "(and (on ?x ?y) (clear ?x) (handempty))",
        "(and (on ?x ?y) (handempty))",
    );
    write(dir.path(), "pred.pddl", pred.as_bytes());
    let gold_path = dir.path().join("gold.pddl").to_string_lossy().to_string();
    let pred_path = dir.path().join("pred.pddl").to_string_lossy().to_string();
    let examples = dir.path().join("examples").to_string_lossy().to_string();
    let args = [
        "score",
        "--functional",
        "--format",
        "json",
        &gold_path,
        &pred_path,
        "--counterexamples",
        &examples,
    ];
    let out = pddlc(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let document: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(
        document["F1_PRED"], 80.0,
        "the metrics are unchanged: {document}"
    );
    let functional = &document["functional"];
    assert_eq!(functional["verdict"], "different");
    assert_eq!(
        functional["alignment"]["predicates"]["arm-empty"],
        "handempty"
    );
    let unstack = functional["actions"]
        .as_array()
        .and_then(|a| a.iter().find(|a| a["gold"] == "unstack"))
        .expect("unstack's verdict");
    assert_eq!(unstack["verdict"], "weaker-precondition");
    let example = &functional["counterexamples"][0];
    for key in ["problem", "plan", "pred_problem", "pred_plan"] {
        let name = example[key].as_str().expect("a file name");
        assert!(
            dir.path().join("examples").join(name).is_file(),
            "{key}: {name}"
        );
    }
    let pred_problem = std::fs::read_to_string(
        dir.path()
            .join("examples")
            .join(example["pred_problem"].as_str().unwrap_or_default()),
    )
    .expect("the predicted domain's problem");
    assert!(pred_problem.contains("(handempty)"), "{pred_problem}");
    // Validated as a user would: the plan fails under the gold domain and passes under the
    // predicted one.
    let file = |key: &str| {
        dir.path()
            .join("examples")
            .join(example[key].as_str().unwrap_or_default())
            .to_string_lossy()
            .to_string()
    };
    let gold_run = pddlc(&["validate", &gold_path, &file("problem"), &file("plan")]);
    let pred_run = pddlc(&[
        "validate",
        &pred_path,
        &file("pred_problem"),
        &file("pred_plan"),
    ]);
    assert_eq!(
        (code(&gold_run), code(&pred_run)),
        (1, 0),
        "{}{}",
        stdout(&gold_run),
        stdout(&pred_run)
    );

    let again = pddlc(&args);
    assert_eq!(code(&again), 2, "an existing file is refused");
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    let mut forced = args.to_vec();
    forced.push("--force");
    assert_eq!(code(&pddlc(&forced)), 0);

    let human = pddlc(&["score", "--functional", &gold_path, &pred_path]);
    let text = stdout(&human);
    assert!(text.contains("\nfunctional: different\n"), "{text}");
    assert!(text.contains("counterexample: in a state where"), "{text}");
}
