//! The Text2World-compatible scorer against the official scorer's own outputs: every metric of
//! the 1,200 dev pairs and the 229 hand-made pairs of ../shared/text2world, rounded and raw,
//! must be equal, and so must the dataset summaries of `pairs/dev/summary.json`.

mod common;

use pddlc::score::Metrics;
use pddlc::score::text2world::{Text2WorldScore, score, summary};
use pddlc::text2world::extract_response;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// `../shared/text2world` with its scored pairs and gold domains, or `None` with a message.
fn text2world(test: &str) -> Option<PathBuf> {
    common::shared_part_with("text2world", &["pairs", "domains"], test)
}

/// The file as UTF-8, byte for byte: no newline translation, no trimming.
fn read(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    String::from_utf8(bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One line of a `scores.jsonl` with the texts it names.
struct Pair {
    row: Value,
    /// The `raw` values read from the line's text with Rust's correctly rounded `f64` parser
    /// (serde_json's default parser can be one ulp off on 17-digit numbers).
    raw: HashMap<String, f64>,
    gold: String,
    /// The text passed to `eval`: extracted from the response for `kind: "response"`.
    pred: String,
}

fn pairs(dir: &Path, set: &str) -> Vec<Pair> {
    let scores = read(&dir.join("pairs").join(set).join("scores.jsonl"));
    scores
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let row: Value = serde_json::from_str(line).expect("a JSON line");
            let gold = read(&dir.join(row["gold"].as_str().expect("gold path")));
            let pred = read(&dir.join(row["pred"].as_str().expect("pred path")));
            let pred = if row["kind"] == "response" {
                extract_response(&pred)
            } else {
                pred
            };
            Pair {
                raw: raw_values(line),
                row,
                gold,
                pred,
            }
        })
        .collect()
}

/// The `"raw": {…}` object of a line, its booleans as 1 and 0.
fn raw_values(line: &str) -> HashMap<String, f64> {
    let Some((_, rest)) = line.split_once("\"raw\": {") else {
        return HashMap::new();
    };
    let body = rest.split('}').next().unwrap_or("");
    body.split(',')
        .filter_map(|entry| {
            let (key, value) = entry.split_once(':')?;
            let value = match value.trim() {
                "true" => 1.0,
                "false" => 0.0,
                number => number.parse().ok()?,
            };
            Some((key.trim().trim_matches('"').to_string(), value))
        })
        .collect()
}

const NAMES: [&str; 6] = ["EXEC", "SIM", "F1_PRED", "F1_PARAM", "F1_PRECOND", "F1_EFF"];

fn values(m: &Metrics) -> [f64; 6] {
    [m.exec, m.sim, m.f1_pred, m.f1_param, m.f1_precond, m.f1_eff]
}

/// A reference value as a number: JSON booleans (raw EXEC) are 1 and 0.
fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        other => other.as_f64(),
    }
}

/// Every disagreement between our score and the reference row, one line each.
fn disagreements(pair: &Pair, ours: &Text2WorldScore) -> Vec<String> {
    let id = pair.row["pair"].as_str().unwrap_or("?");
    let mut out = Vec::new();
    if pair.row["EXEC"].is_null() {
        if ours.eval_error.is_none() {
            out.push(format!(
                "{id}: the official eval raises ({}), we score {:?}",
                pair.row["eval_error"], ours.official
            ));
        }
        return out;
    }
    if let Some(error) = &ours.eval_error {
        out.push(format!(
            "{id}: we raise ({error}), the official eval does not"
        ));
        return out;
    }
    let official = values(&ours.official);
    let raw = values(&ours.raw);
    for (i, name) in NAMES.iter().enumerate() {
        let expected = number(&pair.row[name]);
        if expected != Some(official[i]) {
            out.push(format!(
                "{id}: {name} official {:?}, ours {} (diag {}; ours {:?})",
                expected,
                official[i],
                pair.row["diag"],
                notes(ours)
            ));
        }
        let expected_raw = pair.raw.get(*name).copied();
        if expected_raw != Some(raw[i]) {
            out.push(format!(
                "{id}: {name} raw {:?}, ours {} (diag {}; ours {:?})",
                expected_raw,
                raw[i],
                pair.row["diag"],
                notes(ours)
            ));
        }
    }
    out
}

fn notes(ours: &Text2WorldScore) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(e) = &ours.gold_rejection {
        notes.push(format!("gold_rejection: {}", e.message));
    }
    if let Some(e) = &ours.pred_rejection {
        notes.push(format!("pred_rejection: {}", e.message));
    }
    if !ours.missing_gold_actions.is_empty() {
        notes.push(format!(
            "missing_gold_actions: {:?}",
            ours.missing_gold_actions
        ));
    }
    if let Some(e) = &ours.preprocess_error {
        notes.push(format!("preprocess_error: {e}"));
    }
    notes
}

fn set_agrees(set: &str, expected_pairs: usize) {
    let Some(dir) = text2world(&format!("{set}_pairs_score_as_the_official_scorer")) else {
        return;
    };
    let pairs = pairs(&dir, set);
    assert_eq!(pairs.len(), expected_pairs);
    let mut failures = Vec::new();
    let mut agreeing = 0;
    for pair in &pairs {
        let found = disagreements(pair, &score(&pair.gold, &pair.pred));
        if found.is_empty() {
            agreeing += 1;
        }
        failures.extend(found);
    }
    eprintln!("{set}: {agreeing} of {} pairs agree", pairs.len());
    assert!(
        failures.is_empty(),
        "{} of {} {set} pairs disagree:\n{}",
        pairs.len() - agreeing,
        pairs.len(),
        failures.join("\n")
    );
}

#[test]
fn dev_pairs_score_as_the_official_scorer() {
    set_agrees("dev", 1200);
}

#[test]
fn handmade_pairs_score_as_the_official_scorer() {
    set_agrees("handmade", 229);
}

#[test]
fn dev_summaries_are_the_official_ones() {
    let Some(dir) = text2world("dev_summaries_are_the_official_ones") else {
        return;
    };
    let scored: HashMap<String, Metrics> = pairs(&dir, "dev")
        .iter()
        .map(|pair| {
            let id = pair.row["pair"].as_str().expect("pair id").to_string();
            (id, score(&pair.gold, &pair.pred).official)
        })
        .collect();
    assert_eq!(scored.len(), 1200, "the dev set holds 1,200 pairs");
    let summaries: Value =
        serde_json::from_str(&read(&dir.join("pairs/dev/summary.json"))).expect("summary JSON");
    let models = summaries["models"].as_array().expect("a list of models");
    assert_eq!(models.len(), 3);
    let mut differ = Vec::new();
    for model in models {
        let name = model["model"].as_str().unwrap_or("?");
        let per_domain: Vec<Metrics> = model["pairs"]
            .as_array()
            .expect("pair ids")
            .iter()
            .map(|id| scored[id.as_str().expect("a pair id")])
            .collect();
        assert_eq!(
            per_domain.len() as u64,
            model["n_domains"].as_u64().unwrap()
        );
        // Each model's summary covers 53 domains; an emptied list of pairs must not pass.
        assert!(
            per_domain.len() >= 53,
            "{name}: only {} pairs",
            per_domain.len()
        );
        let ours = values(&summary(&per_domain));
        for (i, metric) in NAMES.iter().enumerate() {
            if Some(ours[i]) != model[metric].as_f64() {
                differ.push(format!(
                    "{name}: {metric} is {}, the official summary says {}",
                    ours[i], model[metric]
                ));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
