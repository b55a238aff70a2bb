//! `validate` on every domain of ../shared/corpus that uses durative actions, timed initial
//! literals, PDDL3 (trajectory constraints, preferences) or PDDL+ (processes, events): for each
//! such domain file, its smallest instance, and a plan written here of up to three steps, each
//! one the library's `applicable` lists after the steps before it, a durative one given a
//! duration its constraint accepts. The plan need not reach the goal; what is asserted is that
//! `validate` gives a verdict (valid, or invalid with a located reason) and never "no verdict"
//! (V310), except for the domains listed in fixtures/plans/validate-unsupported-corpus.txt with
//! the construct that is not interpreted, which must give V310 (and must stop being listed once
//! they get a verdict). Prints the counts.

mod common;

use pddlc::ast::{Domain, Gd, GdKind, InitKind, PddlFile, Problem, Structure};
use pddlc::diagnostics::Code;
use pddlc::plan::{Report, ValidateOptions, applicable, validate};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn load(path: &Path) -> Option<PddlFile> {
    let text = std::fs::read_to_string(path).ok()?;
    pddlc::parse::file(&text).value
}

fn has_preference(gd: &Gd) -> bool {
    match &gd.kind {
        GdKind::Preference { .. } => true,
        GdKind::And { args } | GdKind::Or { args } => args.iter().any(has_preference),
        GdKind::Forall { body, .. } | GdKind::Exists { body, .. } => has_preference(body),
        GdKind::Timed { body, .. } => has_preference(body),
        _ => false,
    }
}

/// The features of a task that make it one this test is about, by name.
fn features(domain: &Domain, problem: &Problem) -> Vec<&'static str> {
    let mut found = Vec::new();
    if domain.durative_actions().next().is_some() {
        found.push("durative");
    }
    if domain
        .structures
        .iter()
        .any(|s| matches!(s, Structure::Process(_) | Structure::Event(_)))
    {
        found.push("pddl+");
    }
    if problem
        .init
        .iter()
        .any(|i| matches!(i.kind, InitKind::At { .. }))
    {
        found.push("til");
    }
    let durative_preference = domain
        .durative_actions()
        .any(|a| a.condition.as_ref().is_some_and(has_preference));
    let action_preference = domain
        .actions()
        .any(|a| a.precondition.as_ref().is_some_and(has_preference));
    if domain.constraints.is_some()
        || problem.constraints.is_some()
        || problem.goal.as_ref().is_some_and(has_preference)
        || durative_preference
        || action_preference
    {
        found.push("pddl3");
    }
    found
}

/// The instances of the domain file `domain_path`: `instances/instance-N.pddl` for a
/// per-instance `domains/domain-N.pddl`, otherwise every file of the variant's `instances/`
/// whose `(:domain …)` names this domain.
fn instances(domain_path: &Path) -> Vec<PathBuf> {
    let Some(parent) = domain_path.parent() else {
        return Vec::new();
    };
    let stem = domain_path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    if parent.file_name().is_some_and(|n| n == "domains") {
        let number = stem.trim_start_matches("domain-");
        let Some(variant) = parent.parent() else {
            return Vec::new();
        };
        let instance = variant.join(format!("instances/instance-{number}.pddl"));
        return if instance.exists() {
            vec![instance]
        } else {
            Vec::new()
        };
    }
    let dir = parent.join("instances");
    if !dir.is_dir() {
        return Vec::new();
    }
    common::pddl_files(&dir)
}

/// The duration a durative step is given: the value its duration constraint wants, read from
/// the V311-style failure of a first try with duration 1.
fn fitting_duration(message: &str) -> Option<f64> {
    let wants = message.split("wants `?duration ").nth(1)?;
    let (op, rest) = wants.split_once(' ')?;
    let value: f64 = rest.split('`').next()?.trim().parse().ok()?;
    Some(match op {
        "<" => value / 2.0,
        ">" => value + 1.0,
        _ => value,
    })
}

/// Up to three steps, each one of (at most 400 of) the ground actions the library's `applicable` lists after the steps
/// before it (an action not used yet first) that `validate` accepts after them; durative steps
/// one after the other, each ending a time unit before the next starts.
fn write_plan(domain: &Domain, problem: &Problem, temporal: bool) -> String {
    let durative: Vec<String> = domain
        .durative_actions()
        .map(|a| a.name.key().to_string())
        .collect();
    let name_of = |step: &str| -> String {
        step.trim_start_matches('(')
            .split([' ', ')'])
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let options = ValidateOptions::default();
    let mut plan = String::new();
    let mut used: Vec<String> = Vec::new();
    let mut time = 0.0;
    for _ in 0..3 {
        let Ok(mut candidates) = applicable(domain, problem, &plan) else {
            break;
        };
        candidates.sort_by_key(|s| used.contains(&name_of(s)));
        let mut chosen = None;
        // At most 400 candidates, spread over the list (a domain can ground thousands).
        let stride = candidates.len().div_ceil(400).max(1);
        for step in candidates.iter().step_by(stride) {
            let name = name_of(step);
            let (line, lasts) = if !temporal {
                (format!("{step}\n"), 0.0)
            } else if !durative.contains(&name) {
                (format!("{time}: {step}\n"), 0.0)
            } else {
                let tried = format!("{plan}{time}: {step} [1]\n");
                let report = validate(domain, problem, &tried, &options);
                let duration = report
                    .failures
                    .iter()
                    .filter(|f| f.code() == Code::DurationConstraint)
                    .find_map(|f| fitting_duration(&f.diagnostic.message))
                    .unwrap_or(1.0);
                (format!("{time}: {step} [{duration}]\n"), duration)
            };
            let report = validate(domain, problem, &format!("{plan}{line}"), &options);
            // Trajectory constraints and the goal are judged on the whole plan, not the step.
            let step_fails = report
                .failures
                .iter()
                .any(|f| !matches!(f.code(), Code::GoalUnsatisfied | Code::ConstraintViolated));
            if !step_fails {
                chosen = Some((line, lasts, name));
                break;
            }
        }
        let Some((line, lasts, name)) = chosen else {
            break;
        };
        plan.push_str(&line);
        used.push(name);
        time += lasts + 1.0;
    }
    plan
}

fn unsupported(report: &Report) -> Option<String> {
    report
        .failures
        .iter()
        .find(|f| f.code() == Code::ValidateUnsupported)
        .map(|f| f.diagnostic.message.clone())
}

#[test]
fn corpus_temporal_pddl3_and_pddl_plus_domains_get_a_verdict() {
    let Some(shared) = common::shared_with(
        &["corpus/potassco", "corpus/pddl-plus-domains"],
        "corpus_temporal_pddl3_and_pddl_plus_domains_get_a_verdict",
    ) else {
        return;
    };
    let corpus = shared.join("corpus");
    let listed: BTreeMap<String, (String, String)> = common::table(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/plans/validate-unsupported-corpus.txt"),
    )
    .into_iter()
    .map(|(path, construct, reason)| (path, (construct, reason)))
    .collect();
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let (mut valid, mut goal_only, mut no_verdict) = (0, 0, 0);
    let mut step_failures = Vec::new();
    let (mut total_steps, mut empty_plans) = (0, Vec::new());
    let mut problems = Vec::new();
    let mut seen = Vec::new();
    for path in common::pddl_files(&corpus) {
        if path.components().any(|c| c.as_os_str() == "instances") {
            continue;
        }
        let Some(PddlFile::Domain(domain)) = load(&path) else {
            continue;
        };
        // The smallest instance that names this domain.
        let mut candidates: Vec<(u64, PathBuf)> = instances(&path)
            .into_iter()
            .map(|p| (std::fs::metadata(&p).map_or(u64::MAX, |m| m.len()), p))
            .collect();
        candidates.sort();
        let problem = candidates.iter().find_map(|(_, p)| match load(p) {
            Some(PddlFile::Problem(problem))
                if problem
                    .domain
                    .as_ref()
                    .is_some_and(|d| d.key() == domain.name.key()) =>
            {
                Some(problem)
            }
            _ => None,
        });
        let Some(problem) = problem else {
            continue;
        };
        let found = features(&domain, &problem);
        if found.is_empty() {
            continue;
        }
        for feature in &found {
            *counts.entry(feature).or_default() += 1;
        }
        let id = path
            .strip_prefix(&corpus)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        seen.push(id.clone());
        let temporal = found.iter().any(|f| *f != "pddl3");
        let plan = write_plan(&domain, &problem, temporal);
        let steps = plan.lines().count();
        total_steps += steps;
        if steps == 0 && !found.contains(&"pddl+") {
            empty_plans.push(id.clone());
        }
        let report = validate(&domain, &problem, &plan, &ValidateOptions::default());
        match (unsupported(&report), listed.get(&id)) {
            (None, None) => match report.valid {
                Some(true) => valid += 1,
                Some(false) if !report.has_step_failures() => goal_only += 1,
                Some(false) => {
                    let codes: Vec<&str> =
                        report.failures.iter().map(|f| f.code().as_str()).collect();
                    step_failures.push(format!("{id} {codes:?}"));
                }
                None => problems.push(format!("{id}: no verdict and no V310:\n{plan}")),
            },
            (None, Some(_)) => {
                problems.push(format!("{id}: listed as V310 but gets a verdict now"));
            }
            (Some(what), None) => {
                problems.push(format!("{id}: V310 {what}\nplan:\n{plan}"));
            }
            (Some(what), Some((construct, _))) => {
                no_verdict += 1;
                if !what.contains(construct.as_str()) {
                    problems.push(format!(
                        "{id}: V310 {what}, listed for `{construct}` instead"
                    ));
                }
            }
        }
    }
    for id in listed.keys() {
        if !seen.contains(id) {
            problems.push(format!("{id}: listed but not a domain this test runs"));
        }
    }
    eprintln!(
        "corpus domains with these features {counts:?}: {} domains; plans valid {valid}, \
         invalid for the goal only {goal_only}, invalid at a step {}, listed V310 \
         {no_verdict}; {total_steps} steps written, no step found for {empty_plans:?}\n{}",
        seen.len(),
        step_failures.len(),
        step_failures.join("\n")
    );
    assert!(seen.len() >= 150, "only {} domains found", seen.len());
    assert!(
        empty_plans.len() <= 5,
        "no applicable first step for {empty_plans:?}"
    );
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
