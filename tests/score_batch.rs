//! `pddlc score --pairs`: the list format of ../shared/perf/perf.py (`GOLD<TAB>PRED<TAB>KIND`)
//! next to JSON lines, the `ok` field, and golds that many lines share.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn pddlc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("pddlc runs")
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("temporary file");
    path
}

fn rows(output: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// The metrics of a row, without what says where it came from.
fn metrics(row: &Value) -> Value {
    let mut row = row.clone();
    if let Some(object) = row.as_object_mut() {
        object.remove("id");
        object.remove("line");
    }
    row
}

#[test]
fn tab_separated_lines_score_as_json_lines_do() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let gold = std::fs::read_to_string("domains/blocksworld/domain.pddl").expect("shipped domain");
    write(dir.path(), "gold.pddl", gold.as_bytes());
    let renamed = gold.replace("?x", "?top");
    write(dir.path(), "pred.pddl", renamed.as_bytes());
    let answer = format!("Sure:\n```pddl\n{renamed}```\n");
    write(dir.path(), "answer.md", answer.as_bytes());
    let absolute = |name: &str| dir.path().join(name).to_string_lossy().to_string();

    // The same three pairs, as perf.py writes them (absolute paths, a kind) and as JSON lines.
    let tsv = format!(
        "{gold}\t{pred}\tdomain\n{gold}\t{answer}\tresponse\n{gold}\t{gold}\n",
        gold = absolute("gold.pddl"),
        pred = absolute("pred.pddl"),
        answer = absolute("answer.md"),
    );
    let tsv = write(dir.path(), "pairs.tsv", tsv.as_bytes());
    let jsonl = "{\"gold\": \"gold.pddl\", \"pred\": \"pred.pddl\"}\n\
                 {\"gold\": \"gold.pddl\", \"pred\": \"answer.md\", \"response\": true}\n\
                 {\"gold\": \"gold.pddl\", \"pred\": \"gold.pddl\"}\n";
    let jsonl = write(dir.path(), "pairs.jsonl", jsonl.as_bytes());
    for mode in ["text2world", "clean"] {
        let from_tsv = pddlc(&["score", "--mode", mode, "--pairs", &tsv.to_string_lossy()]);
        let from_jsonl = pddlc(&["score", "--mode", mode, "--pairs", &jsonl.to_string_lossy()]);
        assert_eq!(from_tsv.status.code(), Some(0), "{mode}");
        let (from_tsv, from_jsonl) = (rows(&from_tsv), rows(&from_jsonl));
        assert_eq!(from_tsv.len(), 4, "{mode}: three rows and the summary");
        for (a, b) in from_tsv.iter().zip(&from_jsonl) {
            assert_eq!(metrics(a), metrics(b), "{mode}");
        }
        assert!(from_tsv[..3].iter().all(|row| row["ok"] == true), "{mode}");
        // The extracted answer scores as the prediction it holds.
        assert_eq!(metrics(&from_tsv[0]), metrics(&from_tsv[1]), "{mode}");
        assert_eq!(from_tsv[2]["SIM"], 100.0, "{mode}");
    }
}

#[test]
fn lines_that_cannot_be_scored_are_rows_with_ok_false() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let gold = std::fs::read_to_string("domains/blocksworld/domain.pddl").expect("shipped domain");
    write(dir.path(), "gold.pddl", gold.as_bytes());
    let lines = "gold.pddl\tgold.pddl\tprose\n\
                 just one field\n\
                 missing.pddl\tgold.pddl\n\
                 gold.pddl\tmissing.pddl\n\
                 gold.pddl\tgold.pddl\n";
    let pairs = write(dir.path(), "pairs.tsv", lines.as_bytes());
    let out = pddlc(&[
        "score",
        "--mode",
        "text2world",
        "--pairs",
        &pairs.to_string_lossy(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a failed line makes the batch exit 1"
    );
    let rows = rows(&out);
    assert_eq!(rows.len(), 6);
    let error = |i: usize| rows[i]["error"].as_str().unwrap_or("").to_string();
    assert!(error(0).contains("kind `prose`"), "{}", rows[0]);
    assert!(error(1).contains("separated by tabs"), "{}", rows[1]);
    assert!(error(2).starts_with("gold: ") && error(2).contains("missing.pddl"));
    assert_eq!(rows[2]["codes"], serde_json::json!(["P090"]));
    assert!(error(3).starts_with("pred: ") && error(3).contains("missing.pddl"));
    for (i, row) in rows[..4].iter().enumerate() {
        assert_eq!(row["ok"], false, "{row}");
        assert_eq!(row["line"], i + 1, "{row}");
    }
    assert_eq!(rows[4]["ok"], true);
    assert_eq!(rows[4]["EXEC"], 100.0);
    assert_eq!(rows[5]["pairs"], 5);
    assert_eq!(rows[5]["errors"], 4);
}
