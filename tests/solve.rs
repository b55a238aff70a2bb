//! The planner (`pddlc::solve`): the fixtures under fixtures/solve, whose directory names say
//! the outcome (`solved_`, `optimal_`, `unsolvable_`, or an error's code; a warning's code
//! before the outcome, `S503_solved_…`); `--optimal`
//! against an exhaustive search through the validator; a selection of ../shared/plans problems
//! that Fast Downward solved; and impossible variants of them, built by removing an initial
//! fact the reference plan needs (as Plancraft builds its impossible tasks), with the
//! originals as solvable controls.

mod common;

use pddlc::ast::{Domain, PddlFile, Problem};
use pddlc::solve::{Options, Outcome, Unsolvable, solve};
use pddlc::validate::{ValidateOptions, validate};
use std::path::Path;

fn domain_of(text: &str, what: &str) -> Domain {
    match pddlc::parse::file(text).value {
        Some(PddlFile::Domain(domain)) => domain,
        _ => panic!("{what}: not a domain"),
    }
}

fn problem_of(text: &str, what: &str) -> Problem {
    match pddlc::parse::file(text).value {
        Some(PddlFile::Problem(problem)) => problem,
        _ => panic!("{what}: not a problem"),
    }
}

fn read(dir: &Path, name: &str) -> String {
    let own = dir.join(name);
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("domains/blocksworld")
        .join(name);
    std::fs::read_to_string(if own.exists() { own } else { shipped }).expect("task file")
}

fn run(domain: &Domain, problem: &Problem, optimal: bool) -> Outcome {
    answer(domain, problem, optimal).outcome
}

fn answer(domain: &Domain, problem: &Problem, optimal: bool) -> pddlc::solve::Answer {
    let options = Options {
        optimal,
        ..Options::default()
    };
    match solve(domain, problem, &options, &mut |_| {}) {
        Ok(answer) => answer,
        Err(diagnostics) => panic!("no answer: {diagnostics:?}"),
    }
}

/// Checks a plan with the validator, independently of the planner's own check.
fn assert_valid(domain: &Domain, problem: &Problem, plan: &[String], what: &str) {
    let text = plan.join("\n");
    let report = validate(domain, problem, &text, &ValidateOptions::default());
    assert_eq!(report.valid, Some(true), "{what}: invalid plan {plan:?}");
}

fn shown(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Solved { plan, cost } => format!("solved, cost {cost}\n{}", plan.join("\n")),
        Outcome::Unsolvable(why) => format!("unsolvable: {why}"),
        Outcome::Unknown(limit) => format!("unknown: {limit:?}"),
    }
}

#[test]
fn solve_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/solve");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("fixtures/solve")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 6);
    let mut snapshot = String::new();
    for dir in dirs {
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let domain = domain_of(&read(&dir, "domain.pddl"), &name);
        let problem = problem_of(&read(&dir, "problem.pddl"), &name);
        // A warning's code first (`S503_unsolvable_…`): an answer that carries it, the outcome
        // in the next word. An error's code: no answer, that diagnostic.
        let mut words = name.split('_');
        let code = words.next().filter(|c| c.starts_with('S'));
        let warned = code.filter(|c| {
            pddlc::diagnostics::Code::ALL.iter().any(|k| {
                k.as_str() == *c && k.default_severity() == pddlc::diagnostics::Severity::Warning
            })
        });
        let kind = if warned.is_some() {
            words.next()
        } else {
            name.split('_').next()
        };
        if let Some(code) = code.filter(|_| warned.is_none()) {
            let Err(diagnostics) = solve(&domain, &problem, &Options::default(), &mut |_| {})
            else {
                panic!("{name}: expected {code}");
            };
            assert!(
                diagnostics.iter().any(|d| d.code.as_str() == code),
                "{name}"
            );
            snapshot.push_str(&format!("## {name}\n{}\n\n", diagnostics[0].message));
            continue;
        }
        // Both searches, each on its own: the same verdict, valid plans; warnings shown.
        for optimal in [false, true] {
            let answer = answer(&domain, &problem, optimal);
            if let Some(code) = warned {
                assert!(
                    answer.warnings.iter().any(|w| w.code.as_str() == code),
                    "{name}: expected the warning {code}"
                );
            }
            let outcome = answer.outcome;
            match (&outcome, kind) {
                (Outcome::Solved { plan, .. }, Some("solved" | "optimal")) => {
                    assert_valid(&domain, &problem, plan, &name)
                }
                (Outcome::Unsolvable(_), Some("unsolvable")) => {}
                _ => panic!("{name} (optimal: {optimal}): {outcome:?}"),
            }
            let search = if optimal { "A*" } else { "greedy" };
            snapshot.push_str(&format!("## {name} ({search})\n"));
            for warning in &answer.warnings {
                snapshot.push_str(&format!("{}: {}\n", warning.code, warning.message));
            }
            snapshot.push_str(&format!("{}\n\n", shown(&outcome)));
        }
    }
    insta::assert_snapshot!(snapshot);
}

/// The least cost of a plan of at most `depth` steps, by trying every sequence of applicable
/// actions through the validator (`validate::applicable` and `validate::validate` only): the optimum
/// for the tiny tasks it is run on, found without the planner's grounding or search.
fn exhaustive_optimum(domain: &Domain, problem: &Problem, depth: usize) -> Option<f64> {
    let mut best: Option<f64> = None;
    let mut frontier = vec![String::new()];
    for _ in 0..=depth {
        let mut next = Vec::new();
        for prefix in frontier {
            let report = validate(domain, problem, &prefix, &ValidateOptions::default());
            if report.valid == Some(true) {
                let value = report.metric.unwrap_or(0.0);
                best = Some(best.map_or(value, |b: f64| b.min(value)));
                continue;
            }
            if let Ok(actions) = pddlc::validate::applicable(domain, problem, &prefix) {
                for action in actions {
                    next.push(format!("{prefix}{action}\n"));
                }
            }
        }
        frontier = next;
    }
    best
}

#[test]
fn optimal_plans_cost_what_exhaustive_search_finds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/solve");
    // (fixture, depth bound: at least the optimum's number of steps, each action costing 1 or
    // more).
    for (name, depth) in [
        ("optimal_costs_detour", 4),
        ("solved_action_costs", 3),
        ("solved_adl_briefcase", 6),
        ("unsolvable_cyclic_tower", 0),
    ] {
        let dir = root.join(name);
        let domain = domain_of(&read(&dir, "domain.pddl"), name);
        let problem = problem_of(&read(&dir, "problem.pddl"), name);
        let expected = exhaustive_optimum(&domain, &problem, depth);
        match run(&domain, &problem, true) {
            Outcome::Solved { cost, .. } => {
                let steps_or_metric = expected.expect("the exhaustive search finds a plan");
                assert_eq!(cost as f64, steps_or_metric, "{name}");
            }
            Outcome::Unsolvable(_) => assert_eq!(expected, None, "{name}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

/// Problems of ../shared/plans that Fast Downward (lama-first) solved, small enough to solve in
/// a test: STRIPS, ADL, derived predicates, action costs.
const SELECTION: &[&str] = &[
    "potassco/ipc-1998-assembly-round-1-adl/instance-1",
    "potassco/ipc-1998-grid-round-2-strips/instance-1",
    "potassco/ipc-1998-movie-round-1-adl/instance-1",
    "potassco/ipc-1998-mystery-round-1-strips/instance-1",
    "potassco/ipc-2000-blocks-strips-typed/instance-2",
    "potassco/ipc-2002-driverlog-strips-automatic/instance-1",
    "potassco/ipc-2002-freecell-strips-automatic/instance-1",
    "potassco/ipc-2002-satellite-strips-automatic/instance-1",
    "potassco/ipc-2004-airport-nontemporal-adl/instance-1",
    "potassco/ipc-2004-promela-dining-philosophers-derived-predicates-strips/instance-1",
    "potassco/ipc-2006-trucks-propositional-strips/instance-1",
    "potassco/ipc-2008-elevator-sequential-satisficing-strips/instance-1",
    "potassco/ipc-2008-openstacks-sequential-satisficing-adl/instance-3",
    "potassco/ipc-2014-genome-edit-distances-sequential-satisficing/instance-3",
];

/// The selection's domain, problem and Fast Downward's plan, from ../shared/plans/index.jsonl.
fn selection(shared: &Path) -> Vec<(String, Domain, Problem, String)> {
    let index = std::fs::read_to_string(shared.join("plans/index.jsonl")).expect("index");
    let mut out = Vec::new();
    for line in index.lines() {
        let row: serde_json::Value = serde_json::from_str(line).expect("index line");
        let id = row["id"].as_str().unwrap_or_default();
        let Some(task) = id.strip_suffix("/planner") else {
            continue;
        };
        if !SELECTION.contains(&task) {
            continue;
        }
        let text = |key: &str| {
            std::fs::read_to_string(shared.join(row[key].as_str().unwrap_or_default()))
                .expect("a file of the index")
        };
        let domain = domain_of(&text("domain"), task);
        let problem = problem_of(&text("problem"), task);
        out.push((task.to_string(), domain, problem, text("plan")));
    }
    assert_eq!(
        out.len(),
        SELECTION.len(),
        "every selected task is in the index"
    );
    out
}

#[test]
fn solves_what_fast_downward_solved() {
    let Some(shared) =
        common::shared_with(&["corpus", "plans"], "solves_what_fast_downward_solved")
    else {
        return;
    };
    let mut table = String::new();
    for (task, domain, problem, reference) in selection(&shared) {
        let Outcome::Solved { plan, cost } = run(&domain, &problem, false) else {
            panic!("{task}: not solved");
        };
        assert_valid(&domain, &problem, &plan, &task);
        let steps = reference
            .lines()
            .filter(|l| l.trim_start().starts_with('('))
            .count();
        table.push_str(&format!(
            "{task}: {} steps, cost {cost} (Fast Downward: {steps} steps)\n",
            plan.len()
        ));
    }
    insta::assert_snapshot!(table);
}

/// The planner's answer under a memory bound (an estimate of its tables, not a clock), so that
/// a large state space ends as `unknown` instead of running on.
fn bounded(domain: &Domain, problem: &Problem, optimal: bool) -> Outcome {
    let options = Options {
        optimal,
        memory_limit: Some(64 << 20),
        ..Options::default()
    };
    solve(domain, problem, &options, &mut |_| {})
        .map(|a| a.outcome)
        .unwrap_or_else(|d| panic!("no answer: {d:?}"))
}

#[test]
fn impossible_variants_are_never_solved_and_controls_never_unsolvable() {
    let Some(shared) = common::shared_with(
        &["corpus", "plans"],
        "impossible_variants_are_never_solved_and_controls_never_unsolvable",
    ) else {
        return;
    };
    let (mut proven, mut unknown, mut solved, mut variants) = (0, 0, 0, 0);
    let mut table = String::new();
    for (task, domain, problem, reference) in selection(&shared) {
        // The control: the task as given is solvable, and must never be called unsolvable.
        let control = bounded(&domain, &problem, false);
        assert!(
            matches!(control, Outcome::Solved { .. }),
            "{task}: control {control:?}"
        );
        // Variants: one initial fact removed that the reference plan needs (it fails without
        // it); at most eight per task.
        let mut row = (0, 0, 0);
        for index in 0..problem.init.len() {
            if row.0 + row.1 + row.2 == 8 {
                break;
            }
            let mut variant = problem.clone();
            variant.init.remove(index);
            let report = validate(&domain, &variant, &reference, &ValidateOptions::default());
            if report.valid == Some(true) {
                continue;
            }
            variants += 1;
            match bounded(&domain, &variant, false) {
                Outcome::Solved { plan, .. } => {
                    // Another plan does without the fact: it must be valid on the variant.
                    assert_valid(&domain, &variant, &plan, &task);
                    solved += 1;
                    row.0 += 1;
                }
                Outcome::Unsolvable(why) => {
                    // The other search must agree: it may not find a plan.
                    if let Outcome::Solved { plan, .. } = bounded(&domain, &variant, true) {
                        panic!(
                            "{task} without init #{index}: unsolvable ({why}), yet A* finds {plan:?}"
                        );
                    }
                    if let Unsolvable::GoalUnreachable { atoms } = &why {
                        assert!(!atoms.is_empty(), "{task}: the unreachable atoms are named");
                    }
                    proven += 1;
                    row.1 += 1;
                }
                Outcome::Unknown(_) => {
                    unknown += 1;
                    row.2 += 1;
                }
            }
        }
        table.push_str(&format!(
            "{task}: {} solved another way, {} unsolvable, {} unknown\n",
            row.0, row.1, row.2
        ));
    }
    table.push_str(&format!(
        "\n{variants} variants: {solved} solved another way, {proven} proven unsolvable, {unknown} unknown\n"
    ));
    insta::assert_snapshot!(table);
    // Of the variants no plan was found for, at least 90% are proven unsolvable.
    assert!(proven * 10 >= (proven + unknown) * 9, "{table}");
}

#[test]
fn plans_from_the_state_a_prefix_reaches() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("domains/blocksworld");
    let domain = domain_of(&read(&dir, "domain.pddl"), "blocksworld");
    let problem = problem_of(&read(&dir, "problem.pddl"), "blocksworld");
    let prefix = "(unstack a b)\n(put-down a)\n";
    let options = Options {
        prefix: Some(prefix.to_string()),
        ..Options::default()
    };
    let answer = solve(&domain, &problem, &options, &mut |_| {}).expect("an answer");
    let Outcome::Solved { plan, cost } = answer.outcome else {
        panic!("{:?}", answer.outcome);
    };
    // The continuation alone does not solve the task; after the prefix it does.
    assert_eq!(cost as usize, plan.len());
    let whole = format!("{prefix}{}", plan.join("\n"));
    let report = validate(&domain, &problem, &whole, &ValidateOptions::default());
    assert_eq!(report.valid, Some(true), "{whole}");
    let alone = validate(
        &domain,
        &problem,
        &plan.join("\n"),
        &ValidateOptions::default(),
    );
    assert_ne!(alone.valid, Some(true));

    // A prefix that cannot run is the validator's diagnostic, and no answer.
    let options = Options {
        prefix: Some("(pick-up a)\n".into()),
        ..Options::default()
    };
    let Err(diagnostics) = solve(&domain, &problem, &options, &mut |_| {}) else {
        panic!("a failing prefix has no answer");
    };
    assert!(
        diagnostics.iter().any(|d| d.code.as_str() == "V306"),
        "{diagnostics:?}"
    );
}

#[test]
fn ranks_next_actions_by_how_close_they_lead_to_the_goal() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("domains/blocksworld");
    let domain = domain_of(&read(&dir, "domain.pddl"), "blocksworld");
    let problem = problem_of(&read(&dir, "problem.pddl"), "blocksworld");
    let files = pddlc::validate::TaskFiles::default();
    let prefix = "(unstack a b)\n(put-down a)\n";
    let ranked = pddlc::solve::rank(&domain, &problem, prefix, 10, files).expect("a ranking");
    // Every applicable action is ranked once, closest first.
    let mut applicable =
        pddlc::validate::applicable(&domain, &problem, prefix).expect("applicable");
    let mut names: Vec<String> = ranked.iter().map(|r| r.action.clone()).collect();
    applicable.sort();
    names.sort();
    assert_eq!(names, applicable);
    assert!(
        ranked
            .windows(2)
            .all(|w| w[0].h.is_some() && w[0].h <= w[1].h || w[1].h.is_none())
    );
    // The step of an optimal plan from here comes first.
    assert_eq!(ranked[0].action, "(unstack b c)");
    let top = pddlc::solve::rank(&domain, &problem, prefix, 1, files).expect("a ranking");
    assert_eq!(top.len(), 1);
    // A goal reached by the action is 0.
    let near = "(unstack a b)\n(put-down a)\n(unstack b c)\n(stack b a)\n(pick-up c)\n";
    let last = pddlc::solve::rank(&domain, &problem, near, 1, files).expect("a ranking");
    assert_eq!(last[0].action, "(stack c b)");
    assert_eq!(last[0].h, Some(0));
}

/// After a prefix that makes the goal unreachable, the proof names the goal atoms no relaxed
/// plan reaches from the prefix's state (from the initial state every atom is reachable).
#[test]
fn a_dead_end_after_a_prefix_names_the_atoms_unreachable_from_its_state() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/worldmodel/dead_end");
    let domain = domain_of(&read(&dir, "domain.pddl"), "dead_end");
    let problem = problem_of(&read(&dir, "problem.pddl"), "dead_end");
    for optimal in [false, true] {
        let options = Options {
            prefix: Some("(take k)\n(throw k)\n".to_string()),
            optimal,
            ..Options::default()
        };
        let answer = solve(&domain, &problem, &options, &mut |_| {}).expect("solvable input");
        assert_eq!(
            answer.outcome,
            Outcome::Unsolvable(Unsolvable::GoalUnreachable {
                atoms: vec!["(open d)".to_string()]
            }),
            "optimal: {optimal}"
        );
    }
    // Through a session, the same proof.
    let session =
        pddlc::solve::Session::new(&domain, &problem, &Options::default()).expect("session");
    let prefix = ["(take k)".to_string(), "(throw k)".to_string()];
    let answer = session
        .search(&prefix, false, std::time::Duration::from_secs(5), true)
        .expect("search");
    assert!(
        matches!(&answer.outcome, Outcome::Unsolvable(Unsolvable::GoalUnreachable { atoms }) if atoms == &["(open d)"]),
        "{:?}",
        answer.outcome
    );
}
