//! Runs made from Plancraft's reference files (`shared/plancraft/reference/`): each noisy
//! policy of `val-noisy.jsonl` as a method (one JSONL file of its sequences), and the oracle's
//! replays of `val-oracle.jsonl` as a run folder of Plancraft's result files.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The runs written under a folder, and the reference lines they were made from.
pub struct ReferenceRuns {
    /// The policies, in the order they first appear, and their runs (`<policy>.jsonl`).
    pub policies: Vec<String>,
    pub runs: Vec<PathBuf>,
    /// The oracle's run folder (`oracle/0/<id>.json`).
    pub oracle: PathBuf,
    pub noisy: Vec<Value>,
    pub oracle_lines: Vec<Value>,
}

/// The JSON values of a JSONL file's lines.
pub fn read_jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("reference file");
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).expect("JSON line"))
        .collect()
}

/// Plancraft's result file for an oracle replay: the actions as the assistant's messages.
pub fn oracle_record(line: &Value) -> Value {
    let mut dialogue = Vec::new();
    for action in line["actions"].as_array().cloned().unwrap_or_default() {
        dialogue.push(json!({"role": "user", "content": "observation"}));
        dialogue.push(json!({"role": "assistant", "content": action}));
    }
    json!({
        "success": line["evaluator"]["success"],
        "recipe_type": line["recipe_type"],
        "complexity": line["complexity_split"],
        "number_of_steps": line["evaluator"]["number_of_steps"],
        "model_trace": {"dialogue_history": dialogue},
        "example_id": line["id"],
    })
}

/// Writes the runs of `reference` (the reference folder) under `dir`.
pub fn reference_runs(reference: &Path, dir: &Path) -> ReferenceRuns {
    let noisy = read_jsonl(&reference.join("val-noisy.jsonl"));
    assert!(noisy.len() >= 1_000, "{} noisy sequences", noisy.len());
    let mut policies: Vec<String> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    for sequence in &noisy {
        let policy = sequence["policy"].as_str().expect("policy").to_string();
        let index = policies
            .iter()
            .position(|p| *p == policy)
            .unwrap_or_else(|| {
                policies.push(policy);
                lines.push(String::new());
                policies.len() - 1
            });
        lines[index].push_str(&format!("{sequence}\n"));
    }
    let mut runs = Vec::new();
    for (policy, text) in policies.iter().zip(&lines) {
        let path = dir.join(format!("{policy}.jsonl"));
        std::fs::write(&path, text).expect("write run");
        runs.push(path);
    }
    let oracle_dir = dir.join("oracle/0");
    std::fs::create_dir_all(&oracle_dir).expect("oracle dir");
    let oracle_lines = read_jsonl(&reference.join("val-oracle.jsonl"));
    assert!(
        oracle_lines.len() >= 570,
        "{} oracle lines",
        oracle_lines.len()
    );
    for line in &oracle_lines {
        let id = line["id"].as_str().expect("id");
        let record = oracle_record(line);
        std::fs::write(oracle_dir.join(format!("{id}.json")), record.to_string()).expect("write");
    }
    ReferenceRuns {
        policies,
        runs,
        oracle: dir.join("oracle"),
        noisy,
        oracle_lines,
    }
}
