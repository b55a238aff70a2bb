//! `score --functional` in batches (`--pairs`): the `functional` object of every row, the
//! verdicts counted in the summary, a subfolder of counterexamples per row, and `--time-limit`.

use crate::{code, pddlc, stderr, stdout, write};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The shipped blocks world and a copy whose `unstack` lacks `(clear ?x)`.
fn blocks_pair(dir: &Path) {
    let gold = std::fs::read_to_string("domains/blocksworld/domain.pddl").expect("shipped domain");
    let dropped = gold.replace(
        "(and (on ?x ?y) (clear ?x) (arm-empty))",
        "(and (on ?x ?y) (arm-empty))",
    );
    assert_ne!(
        gold, dropped,
        "the precondition to drop is in the shipped domain"
    );
    write(dir, "gold.pddl", gold.as_bytes());
    write(dir, "pred.pddl", dropped.as_bytes());
}

fn lines(out: &std::process::Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The counts the summary must hold, computed from the rows.
fn counted(rows: &[Value]) -> (BTreeMap<String, u64>, BTreeMap<String, u64>) {
    let (mut verdicts, mut actions) = (BTreeMap::new(), BTreeMap::new());
    for functional in rows.iter().filter_map(|r| r.get("functional")) {
        let verdict = functional["verdict"].as_str().expect("a verdict");
        *verdicts.entry(verdict.to_string()).or_default() += 1;
        for action in functional["actions"].as_array().expect("actions") {
            let verdict = action["verdict"].as_str().expect("an action verdict");
            *actions.entry(verdict.to_string()).or_default() += 1;
        }
    }
    (verdicts, actions)
}

/// The summary's counts without the zeros.
fn nonzero(counts: &Value) -> BTreeMap<String, u64> {
    counts
        .as_object()
        .expect("counts")
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), v.as_u64().filter(|&n| n > 0)?)))
        .collect()
}

#[test]
fn functional_batches_give_every_row_its_comparison_and_count_the_verdicts() {
    let dir = tempfile::tempdir().expect("temporary directory");
    blocks_pair(dir.path());
    let pairs = write(
        dir.path(),
        "pairs.jsonl",
        concat!(
            "{\"id\": \"same\", \"gold\": \"gold.pddl\", \"pred\": \"gold.pddl\"}\n",
            "{\"id\": \"dropped\", \"gold\": \"gold.pddl\", \"pred\": \"pred.pddl\"}\n",
            "\n",
            "{\"gold\": \"gold.pddl\", \"pred\": \"pred.pddl\"}\n",
            "{\"id\": \"gone\", \"gold\": \"gold.pddl\", \"pred\": \"missing.pddl\"}\n",
        )
        .as_bytes(),
    );
    let pairs = pairs.to_string_lossy().to_string();
    let examples = dir.path().join("cx");
    let examples_arg = examples.to_string_lossy().to_string();
    let args = [
        "score",
        "--functional",
        "--pairs",
        &pairs,
        "--counterexamples",
        &examples_arg,
        "--jobs",
        "2",
    ];
    let out = pddlc(&args);
    // The unreadable line makes the batch exit 1, as without --functional.
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let rows = lines(&out);
    assert_eq!(rows.len(), 5, "four rows and the summary");
    let verdict = |row: &Value| row["functional"]["verdict"].clone();
    assert_eq!(verdict(&rows[0]), "equivalent");
    assert_eq!(verdict(&rows[1]), "different");
    assert_eq!(verdict(&rows[2]), "different");
    assert_eq!(rows[3]["ok"], false);
    assert!(rows[3].get("functional").is_none(), "{}", rows[3]);
    let unstack = rows[1]["functional"]["actions"]
        .as_array()
        .and_then(|a| a.iter().find(|a| a["gold"] == "unstack"))
        .expect("unstack's verdict");
    assert_eq!(unstack["verdict"], "weaker-precondition");

    // The summary counts what the rows say, every verdict listed.
    let summary = &rows[4]["functional"];
    let (verdicts, actions) = counted(&rows[..4]);
    assert_eq!(nonzero(&summary["verdicts"]), verdicts);
    assert_eq!(nonzero(&summary["actions"]), actions);
    assert_eq!(summary["verdicts"]["unknown"], 0, "{summary}");
    assert_eq!(summary["actions"]["missing"], 0, "{summary}");
    assert_eq!(actions["weaker-precondition"], 2);

    // Each row with counterexamples has its subfolder: its id, else its line number.
    assert!(rows[0].get("counterexamples_folder").is_none());
    assert_eq!(rows[1]["counterexamples_folder"], "dropped");
    assert_eq!(rows[2]["counterexamples_folder"], "4");
    assert!(!examples.join("same").exists());
    for row in &rows[1..3] {
        let folder = examples.join(row["counterexamples_folder"].as_str().unwrap_or_default());
        let example = &row["functional"]["counterexamples"][0];
        let file = |key: &str| {
            folder
                .join(example[key].as_str().unwrap_or_default())
                .to_string_lossy()
                .to_string()
        };
        // The plan fails under the gold domain and passes under the prediction.
        let domain = |name: &str| dir.path().join(name).to_string_lossy().to_string();
        let gold_run = pddlc(&[
            "validate",
            &domain("gold.pddl"),
            &file("problem"),
            &file("plan"),
        ]);
        let pred_run = pddlc(&[
            "validate",
            &domain("pred.pddl"),
            &file("problem"),
            &file("plan"),
        ]);
        assert_eq!((code(&gold_run), code(&pred_run)), (1, 0), "{row}");
    }

    // Every file is checked before any is written: with one folder gone, a second run without
    // --force is refused and does not write it again.
    std::fs::remove_dir_all(examples.join("4")).expect("remove a folder");
    let again = pddlc(&args);
    assert_eq!(code(&again), 2);
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    assert!(stdout(&again).is_empty(), "{}", stdout(&again));
    assert!(
        !examples.join("4").exists(),
        "nothing is written on refusal"
    );
    let mut forced = args.to_vec();
    forced.push("--force");
    assert_eq!(code(&pddlc(&forced)), 1);
    assert!(examples.join("4").is_dir());

    // One JSON document: the rows, and the counts beside the metrics' summary.
    let document = pddlc(&[
        "score",
        "--functional",
        "--pairs",
        &pairs,
        "--format",
        "json",
    ]);
    let document: Value = serde_json::from_str(&stdout(&document)).expect("one document");
    assert_eq!(document["rows"][1]["functional"], rows[1]["functional"]);
    assert_eq!(document["functional"], rows[4]["functional"]);

    // The row's `functional` is the one-pair document's.
    let gold = dir.path().join("gold.pddl").to_string_lossy().to_string();
    let pred = dir.path().join("pred.pddl").to_string_lossy().to_string();
    let one = pddlc(&["score", "--functional", "--format", "json", &gold, &pred]);
    let one: Value = serde_json::from_str(&stdout(&one)).expect("one document");
    assert_eq!(one["functional"], rows[1]["functional"]);
}

#[test]
fn rows_that_would_share_a_counterexample_folder_are_refused() {
    let dir = tempfile::tempdir().expect("temporary directory");
    blocks_pair(dir.path());
    let line = "{\"id\": \"x\", \"gold\": \"gold.pddl\", \"pred\": \"pred.pddl\"}\n";
    let pairs = write(dir.path(), "pairs.jsonl", line.repeat(2).as_bytes());
    let examples = dir.path().join("cx").to_string_lossy().to_string();
    let out = pddlc(&[
        "score",
        "--functional",
        "--pairs",
        &pairs.to_string_lossy(),
        "--counterexamples",
        &examples,
    ]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("distinct ids"), "{}", stderr(&out));
    assert!(!dir.path().join("cx").exists());
}

#[test]
fn a_time_limit_must_be_positive_and_needs_functional() {
    let gold = "domains/blocksworld/domain.pddl";
    for limit in ["0", "-1", "nan"] {
        let flag = format!("--time-limit={limit}");
        let out = pddlc(&["score", "--functional", &flag, gold, gold]);
        assert_eq!(code(&out), 2, "{limit}");
        assert!(stderr(&out).contains("positive number"), "{}", stderr(&out));
    }
    let out = pddlc(&["score", "--time-limit", "1", gold, gold]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--functional"), "{}", stderr(&out));
}

/// A limit far shorter than reading a domain leaves every `same` dev pair that is otherwise
/// proved equivalent `unknown`, each action saying why.
#[test]
fn a_time_limit_reached_gives_unknown_with_the_reason() {
    let test = "a_time_limit_reached_gives_unknown_with_the_reason";
    let Some(root) = crate::common::shared_part("text2world", test) else {
        return;
    };
    let labels = std::fs::read_to_string(root.join("pairs/dev/semantics.jsonl")).expect("labels");
    let scores = std::fs::read_to_string(root.join("pairs/dev/scores.jsonl")).expect("pairs");
    let same: Vec<String> = labels
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["label"] == "same")
        .filter_map(|v| v["pair"].as_str().map(str::to_string))
        .collect();
    let list: String = scores
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["kind"] == "domain" && same.iter().any(|p| v["pair"] == p.as_str()))
        .take(12)
        .map(|v| {
            let path = |key: &str| root.join(v[key].as_str().unwrap_or_default());
            format!("{}\t{}\n", path("gold").display(), path("pred").display())
        })
        .collect();
    let dir = tempfile::tempdir().expect("temporary directory");
    let pairs = write(dir.path(), "pairs.tsv", list.as_bytes());
    let pairs = pairs.to_string_lossy().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec!["score", "--functional", "--pairs", &pairs, "--jobs", "1"];
        args.extend(extra);
        let out = pddlc(&args);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        lines(&out)
    };
    let free = run(&[]);
    let limited = run(&["--time-limit", "0.000001"]);
    let reason = "the time limit (0.000001 s) was reached";
    let mut proved = 0;
    for (free, limited) in free.iter().zip(&limited) {
        if free["functional"]["verdict"] != "equivalent" {
            continue;
        }
        proved += 1;
        assert_eq!(limited["functional"]["verdict"], "unknown", "{limited}");
        assert_eq!(limited["functional"]["reason"], reason, "{limited}");
        for action in limited["functional"]["actions"]
            .as_array()
            .expect("actions")
        {
            assert_eq!(action["verdict"], "unknown", "{action}");
            assert_eq!(action["reason"], reason, "{action}");
        }
    }
    assert!(
        proved >= 5,
        "only {proved} of the pairs are proved equivalent"
    );
    let summary = &limited[limited.len() - 1]["functional"]["verdicts"];
    assert!(summary["unknown"].as_u64() >= Some(proved), "{summary}");
}
