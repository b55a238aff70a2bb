//! `validate` on temporal plans against VAL's verdicts on ../shared/plans-temporal, every record
//! at its own tolerance: the same verdict; for invalid plans the same kind of failure on the
//! action VAL names, and the same part of it (start, end, invariant, duration); for valid plans
//! VAL's makespan within 1e-6. Cases where VAL is at fault are listed in
//! fixtures/plans/val-temporal-exceptions.txt with the reason and what pddlc answers there.
//! Prints the agreement table, category by category.

mod common;

use pddlc::ast::{PddlFile, Problem};
use pddlc::diagnostics::Code;
use pddlc::validate::{Report, ValidateOptions, validate};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

fn normalise(step: &str) -> String {
    step.to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The ground action of each failure of `code` with `part`, as VAL writes it.
fn failing(report: &Report, plan: &str, code: Code, part: Option<&str>) -> Vec<String> {
    let (steps, _) = pddlc::validate::text::parse(plan);
    report
        .failures
        .iter()
        .filter(|f| f.code() == code && (part.is_none() || f.part == part))
        .filter_map(|f| f.step.and_then(|s| steps.get(s - 1)).map(|s| s.text()))
        .map(|s| normalise(&s))
        .collect()
}

/// Whether our report says what VAL's verdict says; `Err` with the difference otherwise.
fn agrees(val: &Value, report: &Report, plan: &str) -> Result<(), String> {
    let category = val["category"].as_str().unwrap_or_default();
    let named = normalise(val["failed_action"].as_str().unwrap_or_default());
    let ours = format!(
        "ours: valid {:?}, failures {:?}, metric {:?}",
        report.valid,
        report
            .failures
            .iter()
            .map(|f| (
                f.code().as_str(),
                f.step,
                f.part,
                f.diagnostic.message.clone()
            ))
            .collect::<Vec<_>>(),
        report.metric
    );
    let named_in = |code: Code, part: Option<&str>| {
        let found = failing(report, plan, code, part);
        if report.valid == Some(false) && found.contains(&named) {
            Ok(())
        } else {
            Err(format!("VAL {category} in {named} ({part:?}); {ours}"))
        }
    };
    match category {
        "valid" => {
            let value = val["value"].as_f64();
            match (report.valid, value, report.metric) {
                (Some(true), Some(v), Some(m)) if (v - m).abs() <= 1e-6 => Ok(()),
                _ => Err(format!("VAL valid, value {value:?}; {ours}")),
            }
        }
        "precondition" => named_in(Code::PreconditionUnsatisfied, val["failed_part"].as_str()),
        "duration" => named_in(Code::DurationConstraint, Some("duration")),
        "invariant" => named_in(Code::InvariantViolated, Some("invariant")),
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
        // VAL names one snap action of the happening; which one depends on its heap addresses.
        "mutex" => {
            if report.valid == Some(false)
                && report.failures.iter().any(|f| f.code() == Code::MutexSteps)
            {
                Ok(())
            } else {
                Err(format!("VAL mutex; {ours}"))
            }
        }
        // VAL: `Object with unknown type`, the misspelt object of a typed domain.
        "type_error" => {
            if report.valid == Some(false)
                && report
                    .failures
                    .iter()
                    .any(|f| f.code() == Code::UnknownObject)
            {
                Ok(())
            } else {
                Err(format!("VAL type error; {ours}"))
            }
        }
        _ => Err(format!("VAL {category}; {ours}")),
    }
}

#[test]
fn temporal_validate_agrees_with_val() {
    let Some(shared) = common::shared_with(
        &["plans-temporal", "corpus"],
        "temporal_validate_agrees_with_val",
    ) else {
        return;
    };
    let rows: Vec<Value> = common::index_records(&shared.join("plans-temporal/index.jsonl"));
    // The index holds 402 records, and every one is checked below (a task that does not parse
    // is a disagreement), so an emptied or truncated index fails here.
    assert!(rows.len() >= 402, "{} records", rows.len());
    let tasks: HashMap<String, Option<PddlFile>> = common::parsed_tasks(&shared, &rows);
    // id | what pddlc answers (a code, or `valid`) | why VAL is wrong there.
    let exceptions: BTreeMap<String, (String, String)> = common::table(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/plans/val-temporal-exceptions.txt"),
    )
    .into_iter()
    .map(|(id, ours, reason)| (id, (ours, reason)))
    .collect();
    let mut table: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for row in &rows {
        let id = row["id"].as_str().unwrap_or_default();
        let category = row["val"]["category"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let tolerance = row["tolerance"].as_f64().expect("tolerance");
        let (Some(Some(PddlFile::Domain(domain))), Some(Some(PddlFile::Problem(problem)))) = (
            tasks.get(row["domain"].as_str().unwrap_or_default()),
            tasks.get(row["problem"].as_str().unwrap_or_default()),
        ) else {
            disagreements.push(format!("{id}: the task does not parse"));
            continue;
        };
        let problem: &Problem = problem;
        let plan = std::fs::read(shared.join(row["plan"].as_str().unwrap_or_default()))
            .expect("plan file");
        let plan = String::from_utf8_lossy(&plan);
        let options = ValidateOptions {
            tolerance,
            ..ValidateOptions::default()
        };
        let report = validate(domain, problem, &plan, &options);
        let entry = table
            .entry((category.clone(), format!("{tolerance}")))
            .or_default();
        entry.0 += 1;
        match (agrees(&row["val"], &report, &plan), exceptions.get(id)) {
            (Ok(()), None) => entry.1 += 1,
            (Ok(()), Some(_)) => {
                disagreements.push(format!("{id}: listed as an exception but agrees"))
            }
            (Err(e), None) => disagreements.push(format!("{id}: {e}")),
            // A listed case: pddlc must give the answer the list says.
            (Err(_), Some((ours, _))) => {
                let given = if report.valid == Some(true) {
                    "valid".to_string()
                } else {
                    report
                        .failures
                        .first()
                        .map(|f| f.code().as_str().to_string())
                        .unwrap_or_default()
                };
                if &given != ours {
                    disagreements.push(format!("{id}: listed with {ours}, pddlc gives {given}"));
                }
            }
        }
    }
    let mut shown = String::from("VAL category | tolerance | records | agree\n");
    for ((category, tolerance), (records, agree)) in &table {
        shown.push_str(&format!("{category} | {tolerance} | {records} | {agree}\n"));
    }
    let agreed: usize = table.values().map(|(_, a)| a).sum();
    eprintln!(
        "{shown}agree with VAL on {agreed} of {} records; {} listed exceptions",
        rows.len(),
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
