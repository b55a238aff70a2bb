//! Validation speed: steps per second on the largest problems of ../shared/plans.
//!
//! `cargo bench --bench validate`. For the planners' valid plans of the 12 largest problems, it
//! reports steps per second of `validate::validate` (median of several runs), and over all planner
//! plans together.

use serde_json::Value;
use std::path::Path;
use std::time::Instant;

fn main() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    let Ok(index) = std::fs::read_to_string(shared.join("plans/index.jsonl")) else {
        println!("skipping the validate benchmark: ../shared/plans is absent");
        return;
    };
    let mut cases = Vec::new();
    for line in index.lines() {
        let row: Value = serde_json::from_str(line).expect("index line");
        if row["kind"] != "planner" || row["val"]["valid"] != true {
            continue;
        }
        let read = |key: &str| {
            std::fs::read_to_string(shared.join(row[key].as_str().unwrap_or_default())).ok()
        };
        let (Some(d), Some(p), Some(plan)) = (read("domain"), read("problem"), read("plan")) else {
            continue;
        };
        let (
            Some(pddlc::ast::PddlFile::Domain(domain)),
            Some(pddlc::ast::PddlFile::Problem(problem)),
        ) = (pddlc::parse::file(&d).value, pddlc::parse::file(&p).value)
        else {
            continue;
        };
        cases.push((
            row["id"].as_str().unwrap_or_default().to_string(),
            p.len(),
            domain,
            problem,
            plan,
        ));
    }
    cases.sort_by_key(|c| std::cmp::Reverse(c.1));
    let options = pddlc::validate::ValidateOptions::default();
    println!(
        "{:<70} {:>8} {:>7} {:>12}",
        "largest problems (planner plans)", "problem", "steps", "steps/s"
    );
    for (id, size, domain, problem, plan) in cases.iter().take(12) {
        let mut rates = Vec::new();
        let mut steps = 0;
        for _ in 0..5 {
            let start = Instant::now();
            let report = pddlc::validate::validate(domain, problem, plan, &options);
            steps = report.steps;
            rates.push(report.steps as f64 / start.elapsed().as_secs_f64());
        }
        rates.sort_by(f64::total_cmp);
        println!(
            "{:<70} {:>7}K {:>7} {:>12.0}",
            id,
            size / 1024,
            steps,
            rates[2]
        );
    }
    let start = Instant::now();
    let mut total = 0;
    for (_, _, domain, problem, plan) in &cases {
        total += pddlc::validate::validate(domain, problem, plan, &options).steps;
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "all {} planner plans: {total} steps in {seconds:.3} s, {:.0} steps/s (including building each task's state)",
        cases.len(),
        total as f64 / seconds
    );
}
