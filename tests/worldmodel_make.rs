//! `worldmodel::make`: every verification item's label is what `validate::validate` says of
//! `prefix` followed by its actions (the step and the code); every proposal set is what an
//! exhaustive search of the state space says (breadth first, through `Env`, independent of the
//! planner that made the sets); a dead end inserted by a mutation leaves the goal unreachable;
//! and the reference plans of ../shared/plans give items whose labels validate the same way.

mod common;

use pddlc::diagnostics::Code;
use pddlc::task::{Task, TaskFiles};
use pddlc::validate::{ValidateOptions, validate};
use pddlc::worldmodel::{Env, Item, MakeOptions, make};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::Path;

fn load(domain: &Path, problem: &Path) -> Task {
    let read = |p: &Path| std::fs::read_to_string(p).expect("task file");
    match pddlc::task::load(
        Some(&read(domain)),
        Some(&read(problem)),
        TaskFiles::default(),
    ) {
        Ok(task) => task,
        Err(d) => panic!("{}: {d:?}", domain.display()),
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Checks each verification item against the validator; returns how many were checked.
fn check_verification(task: &Task, items: &[Item]) -> usize {
    let mut checked = 0;
    for item in items {
        let Item::Verification {
            id,
            prefix,
            actions,
            label,
            ..
        } = item
        else {
            continue;
        };
        let plan: Vec<&String> = prefix.iter().chain(actions).collect();
        let text: Vec<&str> = plan.iter().map(|s| s.as_str()).collect();
        let report = validate(
            &task.domain,
            &task.problem,
            &text.join("\n"),
            &ValidateOptions::default(),
        );
        assert_eq!(report.valid, Some(label.valid), "{id}: {report:?}");
        if !label.valid {
            assert_eq!(report.failed_step, label.plan_step, "{id}");
            let first = report
                .failures
                .iter()
                .find(|f| f.code() != Code::GoalUnsatisfied)
                .or(report.failures.first())
                .map(|f| f.code());
            assert_eq!(first, label.code, "{id}: {report:?}");
        }
        checked += 1;
    }
    checked
}

/// Unit-cost distances to the goal of every state reachable from the initial state, keyed by
/// the state's atoms: a breadth-first search forward, then backward over the edges.
fn distances(env: &mut Env) -> HashMap<Vec<String>, u64> {
    env.reset();
    let mut edges: HashMap<Vec<String>, Vec<Vec<String>>> = HashMap::new();
    let mut goals = Vec::new();
    let mut seen: HashMap<Vec<String>, pddlc::worldmodel::Snapshot> = HashMap::new();
    let mut queue = VecDeque::new();
    seen.insert(env.atoms(), env.snapshot());
    queue.push_back(env.atoms());
    while let Some(key) = queue.pop_front() {
        let snapshot = seen[&key].clone();
        env.restore(&snapshot);
        if env.goal_reached() {
            goals.push(key.clone());
        }
        for action in env.applicable() {
            env.restore(&snapshot);
            assert!(env.step(&action).applied, "{action}");
            let next = env.atoms();
            edges.entry(next.clone()).or_default().push(key.clone());
            if !seen.contains_key(&next) {
                seen.insert(next.clone(), env.snapshot());
                queue.push_back(next);
            }
        }
    }
    let mut distance: HashMap<Vec<String>, u64> = HashMap::new();
    let mut queue: VecDeque<Vec<String>> = goals.into_iter().collect();
    for g in &queue {
        distance.insert(g.clone(), 0);
    }
    while let Some(key) = queue.pop_front() {
        let d = distance[&key];
        for before in edges.get(&key).cloned().unwrap_or_default() {
            if !distance.contains_key(&before) {
                distance.insert(before.clone(), d + 1);
                queue.push_back(before);
            }
        }
    }
    distance
}

/// Checks each proposal item against the exhaustive distances; returns how many.
fn check_proposals(task: &Task, items: &[Item]) -> usize {
    let mut env = Env::new(&task.domain, &task.problem).expect("env");
    let distance = distances(&mut env);
    let mut checked = 0;
    for item in items {
        let Item::Proposal {
            id,
            prefix,
            state,
            reference,
            applicable,
            keeps_goal_reachable,
            on_optimal_plan,
            optimal_cost,
        } = item
        else {
            continue;
        };
        env.reset();
        for step in prefix {
            assert!(env.step(step).applied, "{id}");
        }
        assert_eq!(&env.atoms(), state, "{id}");
        assert_eq!(&env.applicable(), applicable, "{id}");
        assert!(applicable.contains(reference), "{id}");
        let here = env.snapshot();
        let best = distance.get(state).copied();
        assert_eq!(*optimal_cost, best, "{id}");
        let mut keeps = Vec::new();
        let mut optimal = Vec::new();
        for action in applicable {
            env.restore(&here);
            env.step(action);
            if let Some(d) = distance.get(&env.atoms()) {
                keeps.push(action.clone());
                if Some(d + 1) == best {
                    optimal.push(action.clone());
                }
            }
        }
        assert_eq!(keeps_goal_reachable.as_ref(), Some(&keeps), "{id}");
        assert_eq!(on_optimal_plan.as_ref(), Some(&optimal), "{id}");
        checked += 1;
    }
    checked
}

#[test]
fn blocksworld_items_are_what_validate_and_an_exhaustive_search_say() {
    let blocks = root().join("domains/blocksworld");
    let task = load(&blocks.join("domain.pddl"), &blocks.join("problem.pddl"));
    for seed in 0..5 {
        let options = MakeOptions {
            seed,
            ..MakeOptions::default()
        };
        let items = make(&task.domain, &task.problem, None, &options).expect("items");
        let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
        for item in &items {
            let kind = match item {
                Item::NextState { .. } => "next",
                Item::Verification { mutation: None, .. } => "positive",
                Item::Verification { .. } => "mutation",
                Item::Proposal { .. } => "proposal",
                Item::Planning { .. } => "planning",
            };
            *kinds.entry(kind).or_default() += 1;
        }
        // The built-in planner's plan for reversing three blocks has six steps.
        assert_eq!(kinds["proposal"], 6, "{kinds:?}");
        assert_eq!(kinds["positive"], 4, "{kinds:?}");
        assert_eq!(kinds["planning"], 4, "{kinds:?}");
        assert!(kinds["mutation"] >= 12, "{kinds:?}");
        assert!(kinds["next"] >= 6, "{kinds:?}");
        assert_eq!(
            check_verification(&task, &items),
            kinds["positive"] + kinds["mutation"]
        );
        assert_eq!(check_proposals(&task, &items), 6);
    }
}

#[test]
fn a_dead_end_mutation_leaves_the_goal_unreachable() {
    let dir = root().join("fixtures/worldmodel/dead_end");
    let task = load(&dir.join("domain.pddl"), &dir.join("problem.pddl"));
    let plan = std::fs::read_to_string(dir.join("plan.txt")).expect("plan");
    let items = make(
        &task.domain,
        &task.problem,
        Some(&plan),
        &MakeOptions::default(),
    )
    .expect("items");
    check_verification(&task, &items);
    check_proposals(&task, &items);
    let mut env = Env::new(&task.domain, &task.problem).expect("env");
    let distance = distances(&mut env);
    let mut dead_ends = 0;
    for item in &items {
        if let Item::Verification {
            prefix,
            actions,
            label,
            mutation: Some(m),
            ..
        } = item
            && m.kind == "dead_end"
        {
            let at = label.dead_end_step.expect("the dead end's step");
            env.reset();
            for step in prefix.iter().chain(&actions[..at]) {
                assert!(env.step(step).applied);
            }
            assert!(!distance.contains_key(&env.atoms()), "{}", m.detail);
            assert!(!label.valid);
            dead_ends += 1;
        }
    }
    assert_eq!(dead_ends, 4, "one per fraction");
}

#[test]
fn a_plan_short_of_the_goal_is_w801() {
    let blocks = root().join("domains/blocksworld");
    let task = load(&blocks.join("domain.pddl"), &blocks.join("problem.pddl"));
    let plan = std::fs::read_to_string(
        root().join("fixtures/worldmodel/W801_plan_short_of_goal/plan.txt"),
    )
    .expect("plan");
    let Err(diagnostics) = make(
        &task.domain,
        &task.problem,
        Some(&plan),
        &MakeOptions::default(),
    ) else {
        panic!("items from a plan short of the goal");
    };
    assert_eq!(diagnostics[0].code, Code::WorldmodelNoPlan);
    let Err(diagnostics) = make(
        &task.domain,
        &task.problem,
        Some("(unstack a b)\n(stack a c)"),
        &MakeOptions::default(),
    ) else {
        panic!("items from a failing plan");
    };
    let codes: Vec<Code> = diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        [Code::WorldmodelNoPlan, Code::PreconditionUnsatisfied]
    );
}

#[test]
fn reference_plans_give_items_that_validate_as_labelled() {
    let Some(shared) = common::shared_with(&["plans", "corpus"], "worldmodel_make_reference")
    else {
        return;
    };
    let rows: Vec<Value> = common::index_records(&shared.join("plans/index.jsonl"));
    let mut tasks = 0;
    let mut checked = 0;
    for row in rows.iter().filter(|r| {
        r["kind"] == "planner"
            && r["val"]["category"] == "valid"
            && r["features"].as_array().is_some_and(|f| {
                f.iter().all(|x| {
                    ["typing", "constants", "negative-preconditions", "equality"]
                        .contains(&x.as_str().unwrap_or_default())
                })
            })
    }) {
        let task = load(
            &shared.join(row["domain"].as_str().unwrap_or_default()),
            &shared.join(row["problem"].as_str().unwrap_or_default()),
        );
        let plan = std::fs::read_to_string(shared.join(row["plan"].as_str().unwrap_or_default()))
            .expect("plan");
        let options = MakeOptions {
            proposals: false,
            ..MakeOptions::default()
        };
        let items = make(&task.domain, &task.problem, Some(&plan), &options)
            .unwrap_or_else(|d| panic!("{}: {d:?}", row["id"]));
        checked += check_verification(&task, &items);
        tasks += 1;
    }
    eprintln!("{checked} verification items of {tasks} reference plans agree with validate");
    assert!(tasks >= 30, "{tasks} tasks");
    assert!(checked >= 500, "{checked} items");
}
