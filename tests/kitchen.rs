//! The kitchen world and its executor: agreement with Simmer's verdicts on the dev plans,
//! Simmer's JSON world against ours, coverage of the model, fixtures, robustness.

mod common;

use pddlc::diagnostics::Code;
use pddlc::kitchen::{self, Env, Mode, World};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/kitchen` when it holds `needs` (`simmer`, Simmer's public files; `plans`, the
/// plans with its executor's verdicts), or `None` with a message naming `test`.
fn shared(test: &str, needs: &[&str]) -> Option<PathBuf> {
    common::shared_part_with("kitchen", needs, test)
}

fn read(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).expect("readable file")).into_owned()
}

/// The dev plans' verdicts; fails when there are fewer than `common::DEV_PLANS_AT_LEAST`.
fn verdicts(shared: &Path) -> Vec<Value> {
    let verdicts: Vec<Value> = read(&shared.join("plans/dev/verdicts.jsonl"))
        .lines()
        .map(|l| serde_json::from_str(l).expect("verdict"))
        .collect();
    assert!(
        verdicts.len() >= common::DEV_PLANS_AT_LEAST,
        "only {} dev verdicts",
        verdicts.len()
    );
    verdicts
}

struct Envs(HashMap<String, Env>);

impl Envs {
    fn get(&mut self, shared: &Path, path: &str) -> &Env {
        self.0
            .entry(path.to_string())
            .or_insert_with(|| Env::from_json(&read(&shared.join(path))).expect("the env loads"))
    }
}

/// The failures as the verdicts record them.
fn failures_json(outcome: &kitchen::Outcome) -> Value {
    serde_json::to_value(&outcome.failures).expect("json")
}

fn simmer_world(shared: &Path) -> World {
    let dir = shared.join("simmer/world_model");
    World::from_simmer(
        &read(&dir.join("action_def.json")),
        Some(&read(&dir.join("object_def.json"))),
        &World::embedded(),
    )
    .expect("Simmer's world loads")
}

#[test]
fn the_embedded_world_covers_every_action_and_class() {
    let world = World::embedded();
    assert_eq!(world.actions.len(), 77);
    assert_eq!(world.classes().len(), 262);
    assert!(world.actions.values().all(|a| a.handled));
}

/// The world embedded at build time (build.rs, binary form) is the one the TOML files give when
/// they are parsed and checked at run time.
#[test]
fn the_embedded_world_is_the_shipped_toml_world() {
    use pddlc::kitchen::{ACTIONS_TOML, CLASSES_TOML, WORLD_TOML};
    let parsed = World::from_toml(ACTIONS_TOML, WORLD_TOML, CLASSES_TOML)
        .expect("the shipped TOML world loads");
    assert!(World::embedded() == parsed);
}

#[test]
fn the_built_in_tasks_are_simmers_environments() {
    let Some(shared) = shared("the_built_in_tasks_are_simmers_environments", &["simmer"]) else {
        return;
    };
    let world = World::embedded();
    let mut compared = BTreeSet::new();
    for entry in std::fs::read_dir(shared.join("simmer/benchmark/tasks")).expect("Simmer's tasks") {
        let dir = entry.expect("a task folder").path();
        let task = dir
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let json = read(&dir.join(format!("env_{task}.json")));
        let built_in = kitchen::embedded_task(&task)
            .unwrap_or_else(|| panic!("Simmer's task {task} is not built in"));
        let ours = Env::from_toml(built_in.env, world.classes())
            .unwrap_or_else(|e| panic!("envs/{task}.toml does not load: {e:?}"));
        assert_eq!(
            ours,
            Env::from_json(&json).expect("Simmer's env loads"),
            "task {task}"
        );
        // The title Simmer's result files and prompts show is the built-in goal's.
        let goal = kitchen::TaskGoal::from_toml(built_in.goal.expect("a goal")).expect("goal");
        let line = read(&dir.join(format!("task_{task}.txt")));
        let line = line.lines().next().unwrap_or_default().trim().to_string();
        assert_eq!(format!("Task: {}", goal.title), line, "task {task}");
        compared.insert(task);
    }
    assert!(
        compared.len() >= 100,
        "only {} of Simmer's tasks compared",
        compared.len()
    );
    let built_in: BTreeSet<String> = kitchen::embedded_tasks()
        .iter()
        .map(|t| t.id.to_string())
        .collect();
    assert_eq!(
        built_in, compared,
        "the built-in tasks are Simmer's, no more"
    );
}

#[test]
fn simmer_mode_agrees_with_every_dev_verdict() {
    let Some(shared) = shared(
        "simmer_mode_agrees_with_every_dev_verdict",
        &["simmer", "plans"],
    ) else {
        return;
    };
    let world = World::embedded();
    let mut envs = Envs(HashMap::new());
    let mut by_mode: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut full_by_mode: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for v in verdicts(&shared) {
        let plan = v["plan"].as_str().expect("plan");
        let env = envs.get(&shared, v["env"].as_str().expect("env")).clone();
        let outcome = kitchen::run(&world, &env, &read(&shared.join(plan)), Mode::Simmer);
        let key = |f: &Value| {
            (
                f["step"].as_u64(),
                f["failure_type"].as_str().map(str::to_string),
                f["reversible"].as_bool(),
            )
        };
        let ours = failures_json(&outcome);
        let ours_keys: Vec<_> = ours.as_array().expect("array").iter().map(key).collect();
        let theirs_keys: Vec<_> = v["failures"]
            .as_array()
            .expect("array")
            .iter()
            .map(key)
            .collect();
        let mode = v["generator"]["mode"].as_str().unwrap_or("?").to_string();
        let entry = by_mode.entry(mode.clone()).or_default();
        entry.1 += 1;
        let full = full_by_mode.entry(mode).or_default();
        full.1 += 1;
        if ours_keys == theirs_keys {
            entry.0 += 1;
        }
        let flags = serde_json::to_value(&outcome.irreversible_actions).expect("json");
        if ours == v["failures"]
            && outcome.steps as u64 == v["steps"].as_u64().unwrap_or(0)
            && outcome.lines as u64 == v["lines"].as_u64().unwrap_or(0)
            && flags == v["irreversible_actions"]
        {
            full.0 += 1;
        } else if disagreements.len() < 10 {
            disagreements.push(format!(
                "{plan}:\n  ours:   {ours} {flags}\n  theirs: {} {}",
                v["failures"], v["irreversible_actions"]
            ));
        }
    }
    eprintln!("(step, type, reversible) agreement by generator mode: {by_mode:?}");
    eprintln!("full record agreement by generator mode: {full_by_mode:?}");
    assert!(
        disagreements.is_empty(),
        "disagreements:\n{}",
        disagreements.join("\n")
    );
}

/// Runs every dev plan in Simmer mode on the embedded world, each environment read once, and
/// hands `check` the plan's verdict, its text and its outcome.
fn each_dev_plan(shared: &Path, mut check: impl FnMut(&Value, &str, &kitchen::Outcome)) {
    let world = World::embedded();
    let mut envs = Envs(HashMap::new());
    for verdict in verdicts(shared) {
        let env = envs
            .get(shared, verdict["env"].as_str().expect("env"))
            .clone();
        let text = read(&shared.join(verdict["plan"].as_str().expect("plan")));
        check(
            &verdict,
            &text,
            &kitchen::run(&world, &env, &text, Mode::Simmer),
        );
    }
}

/// The first line of the task's `task_NNN.txt`, beside its environment.
fn task_line(shared: &Path, env: &str) -> String {
    let env = shared.join(env);
    let number = env
        .file_stem()
        .and_then(|s| s.to_str())
        .and_then(|s| s.strip_prefix("env_"))
        .expect("env_NNN.json");
    let task = env.with_file_name(format!("task_{number}.txt"));
    read(&task)
        .lines()
        .next()
        .unwrap_or_default()
        .trim()
        .to_string()
}

#[test]
fn result_files_are_simmers_byte_for_byte() {
    let Some(shared) = shared(
        "result_files_are_simmers_byte_for_byte",
        &["simmer", "plans"],
    ) else {
        return;
    };
    let mut differ = Vec::new();
    let mut compared = 0;
    each_dev_plan(&shared, |verdict, text, outcome| {
        let plan = verdict["plan"].as_str().expect("plan");
        let env = verdict["env"].as_str().expect("env");
        let ours = kitchen::result_file(&task_line(&shared, env), plan, text, &outcome.failures);
        let theirs = read(&shared.join(plan.replace(".txt", ".result.txt")));
        compared += 1;
        if ours != theirs && differ.len() < 3 {
            differ.push(format!("{plan}:\n--- ours\n{ours}\n--- Simmer's\n{theirs}"));
        }
    });
    assert_eq!(compared, 642);
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// Compares lists of state words as sets (COMBINE products build them from sets).
fn as_set(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn simmer_mode_reproduces_every_final_state() {
    let Some(shared) = shared(
        "simmer_mode_reproduces_every_final_state",
        &["simmer", "plans"],
    ) else {
        return;
    };
    let world = World::embedded();
    let mut envs = Envs(HashMap::new());
    let states: HashMap<String, Value> = read(&shared.join("plans/dev/states.jsonl"))
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("state");
            (
                v["plan"].as_str().unwrap_or_default().to_string(),
                v["final_state"].clone(),
            )
        })
        .collect();
    let mut bad = Vec::new();
    let mut total = 0;
    for v in verdicts(&shared) {
        let plan = v["plan"].as_str().expect("plan");
        let Some(expected) = states.get(plan) else {
            continue;
        };
        total += 1;
        let env = envs.get(&shared, v["env"].as_str().expect("env")).clone();
        let outcome = kitchen::run(&world, &env, &read(&shared.join(plan)), Mode::Simmer);
        let mut ours = kitchen::final_state_json(&outcome);
        let mut theirs = expected.clone();
        // Products' properties and states come from sets in Simmer: compare them as sets.
        for state in [&mut ours, &mut theirs] {
            if let Some(created) = state["created_objects"].as_array_mut() {
                for o in created {
                    for field in ["properties", "states"] {
                        let set: Vec<String> = as_set(&o[field]).into_iter().collect();
                        o[field] = serde_json::json!(set);
                    }
                }
            }
        }
        if ours != theirs && bad.len() < 5 {
            bad.push(format!("{plan}:\n  ours:   {ours}\n  theirs: {theirs}"));
        }
    }
    assert!(
        total >= common::DEV_PLANS_AT_LEAST,
        "only {total} final states compared"
    );
    assert!(bad.is_empty(), "final states differ:\n{}", bad.join("\n"));
}

#[test]
fn simmer_json_world_and_ours_give_the_same_verdicts() {
    let Some(shared) = shared(
        "simmer_json_world_and_ours_give_the_same_verdicts",
        &["simmer", "plans"],
    ) else {
        return;
    };
    let ours = World::embedded();
    let theirs = simmer_world(&shared);
    assert_eq!(theirs.actions.len(), 77);
    assert_eq!(theirs.classes().len(), 262);
    assert_eq!(theirs.classes(), ours.classes());
    let mut envs = Envs(HashMap::new());
    let mut differ = Vec::new();
    for v in verdicts(&shared) {
        let plan = v["plan"].as_str().expect("plan");
        let env = envs.get(&shared, v["env"].as_str().expect("env")).clone();
        let text = read(&shared.join(plan));
        let a = kitchen::run(&ours, &env, &text, Mode::Simmer);
        let b = kitchen::run(&theirs, &env, &text, Mode::Simmer);
        if a.failures != b.failures {
            differ.push(format!(
                "{plan}:\n  ours:   {:?}\n  theirs: {:?}",
                a.failures, b.failures
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} plans get other failures from Simmer's world files:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

#[test]
fn nothing_in_shared_kitchen_panics() {
    let Some(shared) = shared("nothing_in_shared_kitchen_panics", &["simmer"]) else {
        return;
    };
    let world = World::embedded();
    let mut files = Vec::new();
    let mut stack = vec![shared.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    let envs: Vec<Env> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter_map(|p| Env::from_json(&read(p)).ok())
        .collect();
    assert!(envs.len() >= 100);
    let plans: Vec<String> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .map(|p| read(p))
        .collect();
    // ../shared/kitchen holds 1,387 text files (plans, results, task texts).
    assert!(plans.len() >= 1_350, "only {} text files", plans.len());
    // Every plan and text file in the first env, and every env with a sample of plans.
    for text in &plans {
        kitchen::run(&world, &envs[0], text, Mode::Simmer);
        kitchen::run(&world, &envs[0], text, Mode::Strict);
    }
    for (i, env) in envs.iter().enumerate() {
        kitchen::run(&world, env, &plans[i % plans.len()], Mode::Simmer);
    }
}

#[test]
fn fixtures_produce_their_codes() {
    let dir = root().join("fixtures/kitchen");
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/kitchen")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    let cases: Vec<(String, PathBuf)> = entries
        .into_iter()
        .map(|path| {
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string();
            (name, path)
        })
        .filter(|(name, _)| {
            [
                "K401_", "K402_", "K403_", "K404_", "K405_", "K406_", "K407_", "K408_", "K409_",
                "K410_",
            ]
            .iter()
            .any(|c| name.starts_with(c))
        })
        .collect();
    assert!(
        cases.len() >= 10,
        "fixtures/kitchen holds a fixture per code"
    );
    common::run_each(cases, |name, path| {
        let text = read(&path);
        let codes: Vec<Code> = if name.starts_with("K401_") {
            let result = if name.ends_with(".toml") {
                World::from_toml(&text, kitchen::WORLD_TOML, kitchen::CLASSES_TOML)
            } else {
                World::from_simmer(&text, None, &World::embedded())
            };
            result
                .err()
                .unwrap_or_default()
                .iter()
                .map(|d| d.code)
                .collect()
        } else if name.starts_with("K402_") {
            Env::from_json(&text)
                .err()
                .unwrap_or_default()
                .iter()
                .map(|d| d.code)
                .collect()
        } else if name.starts_with("K403_") {
            let env = Env::default();
            kitchen::run(&World::embedded(), &env, &text, Mode::Simmer)
                .diagnostics()
                .iter()
                .map(|d| d.code)
                .collect()
        } else if ["K404_", "K405_", "K406_"]
            .iter()
            .any(|p| name.starts_with(p))
        {
            // Plans for the shipped salad kitchen: each fails in the way its code names, and
            // only in that way; every failure is labelled on its step's line, but the audits'.
            let env = Env::from_json(&read(
                &root().join("domains/kitchen/examples/salad/env.json"),
            ))
            .expect("the salad env loads");
            let outcome = kitchen::run(&World::embedded(), &env, &text, Mode::Simmer);
            for failure in &outcome.failures {
                let label = failure
                    .diagnostic
                    .primary()
                    .map(|l| &text[l.span.start..l.span.end]);
                if failure.step == 0 {
                    assert!(label.is_none(), "{name}: an audit failure is not located");
                } else {
                    let line = text.lines().nth(step_line(&text, failure.step) - 1);
                    assert_eq!(label, line.map(str::trim), "{name}: step {}", failure.step);
                }
            }
            assert_eq!(
                outcome.failures.len(),
                outcome.diagnostics().len(),
                "{name}"
            );
            // The step named in the fixture fails with its code first; Simmer may add more
            // (a step with a missing object still runs its handler, Q6).
            outcome
                .diagnostics()
                .iter()
                .take(1)
                .map(|d| d.code)
                .collect()
        } else if name.starts_with("K409_") {
            kitchen::not_a_plan(text.as_bytes())
                .iter()
                .map(|d| d.code)
                .collect()
        } else if name.starts_with("K407_") {
            kitchen::TaskGoal::from_toml(&text)
                .err()
                .unwrap_or_default()
                .iter()
                .map(|d| d.code)
                .collect()
        } else if name.starts_with("K410_") {
            // The goal loads, and says why it cannot be solved; the warning is on the reason.
            let goal = kitchen::TaskGoal::from_toml(&text).expect("the goal loads");
            let diagnostic = goal.unsolvable_diagnostic().expect("a K410 warning");
            let label = diagnostic
                .primary()
                .map(|l| &text[l.span.start..l.span.end]);
            assert_eq!(
                label,
                Some("\"the icing is not spreadable in this world\""),
                "{name}"
            );
            vec![diagnostic.code]
        } else if name.starts_with("K408_") {
            // A PDDL plan for the compiled salad kitchen: every step that cannot be translated
            // is reported on its own line.
            let env = Env::from_json(&read(
                &root().join("domains/kitchen/examples/salad/env.json"),
            ))
            .expect("the salad env loads");
            let diagnostics = kitchen::from_pddl_plan(&World::embedded(), &env, &text)
                .err()
                .unwrap_or_default();
            for diagnostic in &diagnostics {
                let label = diagnostic
                    .primary()
                    .map(|l| &text[l.span.start..l.span.end]);
                let line = label.and_then(|label| text.lines().find(|l| l.trim() == label));
                assert!(line.is_some(), "{name}: {diagnostic:?} is on a step's line");
            }
            diagnostics.iter().map(|d| d.code).collect()
        } else {
            unreachable!("only K401–K410 fixtures are run")
        };
        let expected = &name[..4];
        assert!(
            !codes.is_empty() && codes.iter().all(|c| c.as_str() == expected),
            "{name}: expected {expected}, got {codes:?}"
        );
    });
}

/// The 1-based line of parsed step `step` (1-based) in a plan whose every line is a step.
fn step_line(text: &str, step: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.contains('['))
        .nth(step - 1)
        .map_or(0, |(i, _)| i + 1)
}

/// A small environment for the mode tests: a pan on a stove that is on, a second stove that is
/// off, chicken in the pan, a double boiler and a trash bin.
const SMALL_ENV: &str = r#"{"initial_objects": [
  {"id": 1, "class_name": "stove", "properties": ["heatsource", "surface", "switchable"], "states": ["on"], "location": "kitchen"},
  {"id": 2, "class_name": "stove", "properties": ["heatsource", "surface", "switchable"], "states": ["off"], "location": "kitchen"},
  {"id": 1, "class_name": "pan", "properties": ["grabbable", "heatable", "receptacle"], "states": ["clean"], "location": "stove_2"},
  {"id": 1, "class_name": "chicken_breast", "properties": ["grabbable", "protein"], "states": ["raw"], "location": "pan_1"},
  {"id": 1, "class_name": "double_boiler", "properties": ["grabbable", "receptacle"], "states": ["clean"], "location": "counter"}
]}"#;

fn small(plan: &str, mode: Mode) -> kitchen::Outcome {
    let env = Env::from_json(SMALL_ENV).expect("env");
    kitchen::run(&World::embedded(), &env, plan, mode)
}

fn reasons(outcome: &kitchen::Outcome) -> Vec<String> {
    outcome
        .failures
        .iter()
        .filter(|f| f.step > 0)
        .map(|f| format!("{} {} {}", f.step, f.failure_type().as_str(), f.reason))
        .collect()
}

#[test]
fn strict_mode_applies_no_effect_of_a_failed_step() {
    // Fried on the wrong stove (it stands on stove_2, which is off; stove_1 is on).
    let plan = "[GRAB] <chicken_breast> (1)\n[PUT_IN] <chicken_breast> (1) <pan> (1)\n\
                [FRY] <chicken_breast> (1) <pan> (1) <stove> (1)";
    let simmer = small(plan, Mode::Simmer);
    assert_eq!(
        reasons(&simmer),
        ["3 immediate Precondition failed: receptacle has no oil"]
    );
    let chicken = simmer.state.get("chicken_breast_1").expect("chicken");
    assert!(chicken.has_state("cooked"));
    let strict = small(plan, Mode::Strict);
    assert_eq!(
        reasons(&strict),
        [
            "3 immediate Precondition failed: receptacle not on heatsource",
            "3 immediate Precondition failed: receptacle has no oil"
        ]
    );
    let chicken = strict.state.get("chicken_breast_1").expect("chicken");
    assert!(chicken.has_state("raw") && !chicken.has_state("cooked"));
}

#[test]
fn strict_mode_reads_ids_by_class_not_substring() {
    // A double boiler counts as oil to Simmer.
    let plan = "[GRAB] <double_boiler> (1)\n[PUT_IN] <double_boiler> (1) <pan> (1)\n\
                [GRAB] <chicken_breast> (1)\n[PUT_IN] <chicken_breast> (1) <pan> (1)\n\
                [GRAB] <pan> (1)\n[PUT_ON] <pan> (1) <stove> (1)\n\
                [FRY] <chicken_breast> (1) <pan> (1) <stove> (1)";
    assert!(reasons(&small(plan, Mode::Simmer)).is_empty());
    assert_eq!(
        reasons(&small(plan, Mode::Strict)),
        ["7 immediate Precondition failed: receptacle has no oil"]
    );
}

#[test]
fn strict_mode_stops_steps_with_bad_arguments_and_unknown_actions() {
    let plan = "[GRAB] <egg> (9)\n[TELEPORT] <pan> (1)\n[PUT ON] <pan> (1) <stove> (1)";
    let simmer = small(plan, Mode::Simmer);
    assert_eq!(
        reasons(&simmer),
        [
            "1 syntax Object not found: 'egg_9' (bound to role 'object')",
            "1 immediate Precondition failed: object not grabbable",
            "2 immediate Unknown action: teleport",
        ]
    );
    assert_eq!(simmer.state.held.as_deref(), Some("egg_9"));
    let strict = small(plan, Mode::Strict);
    assert_eq!(
        reasons(&strict),
        [
            "1 syntax Object not found: 'egg_9' (bound to role 'object')",
            "2 syntax Unknown action: teleport",
            "3 immediate Precondition failed: agent not holding object",
        ]
    );
    assert_eq!(strict.state.held, None);
}

#[test]
fn damaged_inputs_do_not_panic() {
    let Some(shared) = shared("damaged_inputs_do_not_panic", &["simmer"]) else {
        return;
    };
    let world = World::embedded();
    let env_text = read(&shared.join("simmer/benchmark/tasks/000/env_000.json"));
    let env = Env::from_json(&env_text).expect("env");
    let plan = read(&shared.join("simmer/examples/chicken_salad/plan_900.txt"));
    for cut in (0..env_text.len()).step_by(97) {
        let _ = Env::from_json(&env_text[..cut]);
    }
    let bytes = plan.as_bytes();
    for cut in (0..bytes.len()).step_by(7) {
        let mut damaged = bytes[..cut].to_vec();
        damaged.extend_from_slice(b"<[(\xff\r");
        damaged.extend_from_slice(&bytes[cut..]);
        let text = String::from_utf8_lossy(&damaged);
        kitchen::run(&world, &env, &text, Mode::Simmer);
        kitchen::run(&world, &env, &text, Mode::Strict);
    }
    let actions = kitchen::ACTIONS_TOML;
    for cut in (0..actions.len()).step_by(1013) {
        let _ = World::from_toml(&actions[..cut], kitchen::WORLD_TOML, kitchen::CLASSES_TOML);
    }
}
