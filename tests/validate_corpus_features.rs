//! `validate` on every domain of ../shared/corpus that uses durative actions, timed initial
//! literals, PDDL3 (trajectory constraints, preferences) or PDDL+ (processes, events): for each
//! such domain file, the smallest problem paired with it (files told apart and paired by content
//! and name as ../shared/perf/corpus.py does), and a plan written here of up to three steps, each
//! one the library's `applicable` lists after the steps before it, a durative one given a
//! duration its constraint accepts. The plan need not reach the goal; what is asserted is that
//! `validate` gives a verdict (valid, or invalid with a located reason) and never "no verdict"
//! (V310), except for the domains listed in fixtures/plans/validate-unsupported-corpus.txt with
//! the construct that is not interpreted, which must give V310 (and must stop being listed once
//! they get a verdict). Prints the counts.

mod common;

use pddlc::ast::{Domain, Gd, GdKind, InitKind, PddlFile, Problem, Structure};
use pddlc::diagnostics::Code;
use pddlc::validate::{Report, ValidateOptions, applicable, validate};
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

/// Whether a file defines a domain or a problem, told by content as ../shared/perf/corpus.py
/// tells them: the form after the first `(define`, comments skipped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Domain,
    Problem,
}

/// The tokens of a PDDL text (parentheses and words), comments skipped.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .flat_map(|line| {
            line.split(';')
                .next()
                .unwrap_or_default()
                .split_inclusive(['(', ')', ' ', '\t', '\r'])
        })
        .flat_map(|piece| {
            let end = piece.len() - piece.ends_with(['(', ')', ' ', '\t', '\r']) as usize;
            [&piece[..end], &piece[end..]]
        })
        .filter(|token| !token.trim().is_empty())
}

/// The file's kind and the name after `(domain` (for a domain) or `(:domain` (for a problem).
fn kind_and_name(text: &str) -> Option<(Kind, String)> {
    let tokens: Vec<&str> = tokens(text).take(4096).collect();
    let at = tokens.windows(5).position(|w| {
        w[0] == "("
            && w[1].eq_ignore_ascii_case("define")
            && w[2] == "("
            && (w[3].eq_ignore_ascii_case("domain") || w[3].eq_ignore_ascii_case("problem"))
    })?;
    let kind = if tokens[at + 3].eq_ignore_ascii_case("domain") {
        Kind::Domain
    } else {
        Kind::Problem
    };
    let name = match kind {
        Kind::Domain => tokens.get(at + 4).copied(),
        Kind::Problem => tokens
            .windows(3)
            .find(|w| w[0] == "(" && w[1].eq_ignore_ascii_case(":domain"))
            .map(|w| w[2]),
    };
    Some((kind, name.unwrap_or_default().to_lowercase()))
}

/// The domain file of the problem at `problem`, by ../shared/perf/corpus.py's rules, first
/// match wins: a domain in the same folder named after the problem (`domain_<file>`,
/// `<stem>-domain.pddl`, `<prefix>_domain.pddl` with the name up to its first dot, …); for a
/// problem in `instances/`, `../domains/domain-<N>.pddl` with N its name's last number, then
/// `../domain.pddl`; `domain.pddl` beside it; the only domain file of its folder, else of the
/// parent; the first domain file there whose declared name is the problem's `(:domain …)`.
fn domain_of(
    problem: &Path,
    declared: &str,
    domains: &BTreeMap<PathBuf, String>,
) -> Option<PathBuf> {
    let folder = problem.parent()?;
    let base = problem.file_name()?.to_str()?;
    let stem = base.strip_suffix(".pddl").unwrap_or(base);
    let prefix = base.split('.').next().unwrap_or(base);
    let named = [
        format!("domain_{base}"),
        format!("domain-{base}"),
        format!("{stem}-domain.pddl"),
        format!("{stem}_domain.pddl"),
        format!("domain_{stem}.pddl"),
        format!("domain-{stem}.pddl"),
        format!("{prefix}_domain.pddl"),
    ];
    let is_domain = |path: &PathBuf| domains.contains_key(path);
    if let Some(found) = named.iter().map(|n| folder.join(n)).find(is_domain) {
        return Some(found);
    }
    let parent = folder.parent().unwrap_or(folder);
    if folder.file_name().is_some_and(|n| n == "instances") {
        let last_number = stem
            .split(|c: char| !c.is_ascii_digit())
            .rfind(|run| !run.is_empty())
            .and_then(|run| run.parse::<u64>().ok());
        if let Some(number) = last_number {
            let per_instance = parent.join(format!("domains/domain-{number}.pddl"));
            if is_domain(&per_instance) {
                return Some(per_instance);
            }
        }
        let shared = parent.join("domain.pddl");
        if is_domain(&shared) {
            return Some(shared);
        }
    }
    let beside = folder.join("domain.pddl");
    if is_domain(&beside) {
        return Some(beside);
    }
    let in_folder = |dir: &Path| -> Vec<&PathBuf> {
        domains.keys().filter(|d| d.parent() == Some(dir)).collect()
    };
    for dir in [folder, parent] {
        if let [only] = in_folder(dir)[..] {
            return Some(only.clone());
        }
    }
    [folder, parent].into_iter().find_map(|dir| {
        in_folder(dir)
            .into_iter()
            .find(|d| domains.get(*d).is_some_and(|name| name == declared))
            .cloned()
    })
}

/// Every domain file of the corpus with the problem files paired with it, smallest first, those
/// whose `(:domain …)` names the domain before those that name another (a misspelt name, as in
/// generator and 1D-powered-descent, does not stop VAL either). A domain that the rules pair
/// with no problem (a second domain beside `domain.pddl`, as agile_robot's `domain_no_jump`)
/// takes the problems of its `instances/` that name it.
fn corpus_tasks(corpus: &Path) -> Vec<(PathBuf, Vec<PathBuf>)> {
    let mut domains: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut problems: Vec<(PathBuf, String, u64)> = Vec::new();
    for path in common::pddl_files(corpus) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        match kind_and_name(&text) {
            Some((Kind::Domain, name)) => {
                domains.insert(path, name);
            }
            Some((Kind::Problem, name)) => problems.push((path, name, text.len() as u64)),
            None => {}
        }
    }
    let mut paired: BTreeMap<PathBuf, Vec<(bool, u64, PathBuf)>> = BTreeMap::new();
    for (path, declared, size) in &problems {
        if let Some(domain) = domain_of(path, declared, &domains) {
            let misnamed = domains.get(&domain) != Some(declared);
            paired
                .entry(domain)
                .or_default()
                .push((misnamed, *size, path.clone()));
        }
    }
    domains
        .iter()
        .map(|(domain, name)| {
            let mut candidates = paired.remove(domain).unwrap_or_default();
            if candidates.is_empty() {
                let instances = domain.parent().unwrap_or(corpus).join("instances");
                candidates = problems
                    .iter()
                    .filter(|(p, declared, _)| {
                        declared == name && p.parent() == Some(instances.as_path())
                    })
                    .map(|(p, _, size)| (false, *size, p.clone()))
                    .collect();
            }
            candidates.sort();
            (
                domain.clone(),
                candidates.into_iter().map(|(_, _, p)| p).collect(),
            )
        })
        .collect()
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
    // PDDL+ domain files that no problem of the corpus goes with.
    let mut pddl_plus_alone = Vec::new();
    for (path, paired) in corpus_tasks(&corpus) {
        let Some(PddlFile::Domain(domain)) = load(&path) else {
            continue;
        };
        // The smallest problem paired with this domain that parses.
        let problem = paired.iter().find_map(|p| match load(p) {
            Some(PddlFile::Problem(problem)) => Some(problem),
            _ => None,
        });
        let Some(problem) = problem else {
            if domain
                .structures
                .iter()
                .any(|s| matches!(s, Structure::Process(_) | Structure::Event(_)))
            {
                pddl_plus_alone.push(
                    path.strip_prefix(&corpus)
                        .unwrap_or(&path)
                        .display()
                        .to_string(),
                );
            }
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
         {no_verdict}; {total_steps} steps written, no step found for {empty_plans:?}; PDDL+ \
         domains without a problem {pddl_plus_alone:?}\n{}",
        seen.len(),
        step_failures.len(),
        step_failures.join("\n")
    );
    assert!(seen.len() >= 150, "only {} domains found", seen.len());
    // Every PDDL+ folder of the corpus, whatever its layout (descent.pddl with instances/,
    // AT1_domain.pddl beside AT1.1.instance.pddl, a misspelt `(:domain …)`), is reached.
    let pddl_plus = counts.get("pddl+").copied().unwrap_or(0);
    assert!(pddl_plus >= 33, "only {pddl_plus} PDDL+ domains found");
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
