//! `pddlc worldmodel make` and `score` as a user runs them: items made in one folder and scored
//! from another (the task records' paths found from the items file's folder), exit codes for
//! unusable items, unreadable files and formats that do not apply.

use super::{code, pddlc, pddlc_in, stderr, stdout, write};
use serde_json::Value;

#[test]
fn items_made_here_are_scored_from_elsewhere() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["domain.pddl", "problem.pddl"] {
        std::fs::copy(
            root.join("domains/blocksworld").join(name),
            dir.path().join(name),
        )
        .expect("copy");
    }
    let made = pddlc_in(
        dir.path(),
        &[
            "worldmodel",
            "make",
            "domain.pddl",
            "problem.pddl",
            "--no-proposals",
        ],
    );
    assert_eq!(code(&made), 0, "{}", stderr(&made));
    let items = write(dir.path(), "items.jsonl", &made.stdout);
    // The truth for every verification item, and nothing else.
    let answers: String = stdout(&made)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["kind"] == "verification")
        .map(|v| {
            format!(
                "{{\"id\": {}, \"verdict\": {}}}\n",
                v["id"], v["label"]["valid"]
            )
        })
        .collect();
    let predictions = write(dir.path(), "predictions.jsonl", answers.as_bytes());
    let items = items.display().to_string();
    let predictions = predictions.display().to_string();
    // From the repository's root: domain.pddl is found beside items.jsonl.
    let scored = pddlc(&[
        "worldmodel",
        "score",
        &items,
        &predictions,
        "--format",
        "json",
    ]);
    assert_eq!(code(&scored), 0, "{}", stderr(&scored));
    let document: Value = serde_json::from_str(&stdout(&scored)).expect("JSON");
    let verification = &document["overall"]["verification"];
    assert_eq!(verification["accuracy"]["value"], 1.0);
    assert_eq!(verification["items"], verification["predicted"]);
    assert_eq!(document["overall"]["next_state"]["predicted"], 0);
    assert_eq!(document["overall"]["next_state"]["exact"]["value"], 0.0);
    assert!(
        document["diagnostics"]
            .as_array()
            .is_some_and(Vec::is_empty)
    );
    // The table says the same.
    let table = pddlc(&["worldmodel", "score", &items, &predictions]);
    assert!(stdout(&table).contains("verification: accuracy                    1.000"));
}

#[test]
fn unusable_inputs_and_formats_are_errors() {
    let fixtures = "fixtures/worldmodel/W803_bad_items";
    let bad = pddlc(&[
        "worldmodel",
        "score",
        &format!("{fixtures}/items.jsonl"),
        &format!("{fixtures}/predictions.jsonl"),
    ]);
    assert_eq!(code(&bad), 1);
    assert!(stderr(&bad).contains("[W803]"), "{}", stderr(&bad));
    let missing = pddlc(&[
        "worldmodel",
        "score",
        "no-such-items.jsonl",
        "no-such.jsonl",
    ]);
    assert_eq!(code(&missing), 2);
    assert!(stderr(&missing).contains("no-such-items.jsonl"));
    let csv = pddlc(&[
        "worldmodel",
        "score",
        &format!("{fixtures}/items.jsonl"),
        &format!("{fixtures}/predictions.jsonl"),
        "--format",
        "csv",
    ]);
    assert_eq!(code(&csv), 2);
    let k = pddlc(&[
        "worldmodel",
        "score",
        &format!("{fixtures}/items.jsonl"),
        &format!("{fixtures}/predictions.jsonl"),
        "--top-k",
        "0",
    ]);
    assert_eq!(code(&k), 2);
}
