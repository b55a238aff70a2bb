//! `validate` against VAL's verdicts on ../shared/plans: the same verdict, the same failing step
//! for failed preconditions, the same plan value within 1e-6. Cases where VAL crashes or is
//! wrong are listed in fixtures/plans/val-exceptions.txt with the reason.

mod common;

use pddlc::ast::{Domain, PddlFile, Problem};
use pddlc::diagnostics::Code;
use pddlc::validate::{ValidateOptions, validate};
use rayon::prelude::*;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

fn normalise(step: &str) -> String {
    step.to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether our report says what VAL's verdict says; `Err` with the difference otherwise.
fn agrees(val: &Value, report: &pddlc::validate::Report, timed: bool) -> Result<(), String> {
    let category = val["category"].as_str().unwrap_or_default();
    let ours = format!(
        "ours: valid {:?}, failed step {:?}, kinds {:?}, metric {:?}",
        report.valid,
        report.failed_step,
        report.failures.iter().map(|f| f.kind()).collect::<Vec<_>>(),
        report.metric
    );
    match category {
        "valid" => {
            let value = val["value"].as_f64();
            if report.valid != Some(true) {
                return Err(format!("VAL valid (value {value:?}); {ours}"));
            }
            match (value, report.metric) {
                (Some(v), Some(m)) if (v - m).abs() <= 1e-6 => Ok(()),
                _ => Err(format!("VAL value {value:?}; {ours}")),
            }
        }
        "precondition" if !timed => {
            let step = val["failed_step"].as_u64().map(|s| s as usize);
            let first = report.failures.first();
            if report.valid == Some(false) && report.failed_step == step && first.is_some() {
                Ok(())
            } else {
                Err(format!("VAL precondition at step {step:?}; {ours}"))
            }
        }
        // In a happening of several steps VAL checks them in the order of their heap addresses
        // (`std::sort` on `(time, Action*)`), so which failing step it names is arbitrary; the
        // index maps it back to a line through its time. Agreeing means: the action VAL names is
        // one of the steps that fail in the first failing happening.
        "precondition" => {
            let named = normalise(val["failed_action"].as_str().unwrap_or_default());
            let failing: Vec<String> = report
                .failures
                .iter()
                .filter(|f| f.code() == Code::PreconditionUnsatisfied)
                .filter_map(|f| {
                    f.diagnostic
                        .message
                        .split(" has an unsatisfied")
                        .next()
                        .map(normalise)
                })
                .collect();
            if report.valid == Some(false) && failing.contains(&named) {
                Ok(())
            } else {
                Err(format!(
                    "VAL precondition in {named}; ours fail {failing:?}; {ours}"
                ))
            }
        }
        "goal" => {
            let only_goal = report
                .failures
                .iter()
                .all(|f| f.code() == Code::GoalUnsatisfied);
            if report.valid == Some(false) && only_goal && !report.unmet_goals.is_empty() {
                Ok(())
            } else {
                Err(format!("VAL goal not satisfied; {ours}"))
            }
        }
        // VAL segfaults on a step with the wrong number of arguments: pddlc names the step.
        "crash" => {
            let arity = report.failures.iter().any(|f| f.code() == Code::StepArity);
            if report.valid == Some(false) && arity {
                Ok(())
            } else {
                Err(format!("VAL crashed; expected an arity failure; {ours}"))
            }
        }
        _ => {
            if report.valid == Some(false) {
                Ok(())
            } else {
                Err(format!("VAL {category}; {ours}"))
            }
        }
    }
}

#[test]
fn validate_agrees_with_val() {
    let Some(shared) = common::shared_with(&["plans", "corpus"], "validate_agrees_with_val") else {
        return;
    };
    let index = shared.join("plans/index.jsonl");
    let rows: Vec<Value> = common::index_records(&index);
    // The index holds 2,942 records, and every one is checked below (a task that does not parse
    // is a disagreement), so an emptied or truncated index fails here.
    assert!(rows.len() > 2900, "only {} records", rows.len());
    let tasks: HashMap<String, Option<PddlFile>> = common::parsed_tasks(&shared, &rows);
    let exceptions: BTreeMap<String, String> = common::table(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/plans/val-exceptions.txt"),
    )
    .into_iter()
    .map(|(id, _, reason)| (id, reason))
    .collect();
    let results: Vec<(String, Result<(), String>)> = rows
        .par_iter()
        .map(|row| {
            let id = row["id"].as_str().unwrap_or_default().to_string();
            let domain: Option<&Domain> =
                match tasks.get(row["domain"].as_str().unwrap_or_default()) {
                    Some(Some(PddlFile::Domain(d))) => Some(d),
                    _ => None,
                };
            let problem: Option<&Problem> =
                match tasks.get(row["problem"].as_str().unwrap_or_default()) {
                    Some(Some(PddlFile::Problem(p))) => Some(p),
                    _ => None,
                };
            let (Some(domain), Some(problem)) = (domain, problem) else {
                return (id, Err("the task does not parse".to_string()));
            };
            let plan = std::fs::read(shared.join(row["plan"].as_str().unwrap_or_default()))
                .expect("plan file");
            let plan = String::from_utf8_lossy(&plan);
            let report = validate(domain, problem, &plan, &ValidateOptions::default());
            let timed = plan
                .lines()
                .any(|l| l.split(';').next().unwrap_or("").contains(':'));
            (id, agrees(&row["val"], &report, timed))
        })
        .collect();
    let mut disagreements = Vec::new();
    let mut agreed = 0;
    for (id, result) in &results {
        match (result, exceptions.contains_key(id)) {
            (Ok(()), false) => agreed += 1,
            (Ok(()), true) => {
                disagreements.push(format!("{id}: listed as an exception but agrees"))
            }
            (Err(e), false) => disagreements.push(format!("{id}: {e}")),
            (Err(_), true) => {}
        }
    }
    eprintln!(
        "agree with VAL on {agreed} of {} cases; {} listed exceptions",
        results.len(),
        exceptions.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements
            .iter()
            .take(60)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
