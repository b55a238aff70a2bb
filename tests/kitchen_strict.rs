//! Strict mode, the cook's semantics, and the planning flavour that compiles it: every exploit
//! a planner found in Simmer's gaps fails in strict mode and is forbidden by a precondition of
//! the planning flavour (or an audit goal), and seeded random walks in the compiled planning
//! domain agree with strict mode step by step and at the audit.

mod common;

use pddlc::kitchen::{
    self, CompileOptions, Env, FailureType, Flavour, Mode, SplitMix64, TaskGoal, World,
};
use pddlc::validate::ValidateOptions;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/kitchen` with Simmer's task environments, or `None` with a message naming `test`.
fn shared(test: &str) -> Option<PathBuf> {
    common::shared_part_with("kitchen", &["simmer"], test)
}

fn read(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).expect("readable file")).into_owned()
}

fn env_of(shared: &Path, task: &str) -> Env {
    let path = shared.join(format!("simmer/benchmark/tasks/{task}/env_{task}.json"));
    Env::from_json(&read(&path)).expect("the env loads")
}

/// Every task goal in `domains/kitchen/tasks/`, by task number.
fn goals() -> BTreeMap<String, TaskGoal> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(root().join("domains/kitchen/tasks"))
        .expect("the tasks directory")
        .flatten()
    {
        let path = entry.path();
        if path.extension().is_some_and(|x| x == "toml") {
            let goal = TaskGoal::from_toml(&read(&path)).expect("the goal loads");
            out.insert(goal.task.clone(), goal);
        }
    }
    out
}

/// One task compiled in the planning flavour, with the environment its problem keeps.
struct Compiled {
    env: Env,
    domain: pddlc::ast::Domain,
    problem: pddlc::ast::Problem,
    /// Class names by PDDL object, for the audit's messages.
    classes: HashMap<String, String>,
}

fn compiled(world: &World, env: &Env, goal: &TaskGoal) -> Compiled {
    let options = CompileOptions {
        flavour: Flavour::Planning,
        ..CompileOptions::default()
    };
    let domain = kitchen::compile_domain(world, Flavour::Planning);
    let problem = kitchen::compile_problem(world, env, Some(goal), "strict", &options);
    let env = kitchen::relevant_env(world, env, goal);
    let mut classes: HashMap<String, String> = env
        .objects
        .iter()
        .map(|o| (o.id.clone(), o.name.clone()))
        .collect();
    for spare in kitchen::default_spares(world, &env, Some(goal)) {
        classes.insert(spare.id, spare.name);
    }
    Compiled {
        env,
        domain,
        problem,
        classes,
    }
}

/// The strict-mode audit failures and the ones the planning flavour's unmet audit goals name,
/// both as Simmer's reasons (class names, "unwashed raw" read as "unwashed").
fn audits(world: &World, task: &Compiled, simmer_plan: &str, pddl_plan: &str) -> [Vec<String>; 2] {
    let outcome = kitchen::run(world, &task.env, simmer_plan, Mode::Strict);
    let strict: BTreeSet<String> = outcome
        .failures
        .iter()
        .filter(|f| f.failure_type() == FailureType::Latent)
        .map(|f| f.reason.replace("unwashed raw ", "unwashed "))
        .collect();
    let report = pddlc::validate::validate(
        &task.domain,
        &task.problem,
        pddl_plan,
        &ValidateOptions::default(),
    );
    let class = |id: &str| task.classes.get(id).cloned().unwrap_or_else(|| id.into());
    let mut pddl = BTreeSet::new();
    for goal in &report.unmet_goals {
        let words: Vec<&str> = goal
            .trim_start_matches("(not (")
            .trim_end_matches("))")
            .split_whitespace()
            .collect();
        let reason = match words.as_slice() {
            ["contaminated", o, s] => {
                format!("Food safety: {} contaminated by raw {}", class(o), class(s))
            }
            ["unwashed", o] => format!("Food safety: unwashed {}", class(o)),
            ["is", o, "s-on"] => world
                .config
                .appliance_audit
                .hazards
                .iter()
                .find(|h| h.names.contains(&class(o)))
                .map_or_else(|| goal.clone(), |h| h.reason.replace("{name}", &class(o))),
            // The task's own result is no audit.
            _ => continue,
        };
        pddl.insert(reason);
    }
    [strict.into_iter().collect(), pddl.into_iter().collect()]
}

/// An exploit a planner found: a plan whose last step (or, without `pddl`, whose end) a cook
/// would not accept, the strict-mode failures it must get, and a word of the planning
/// flavour's precondition that must be unsatisfied at that step.
struct Exploit {
    name: &'static str,
    task: &'static str,
    plan: &'static str,
    strict: &'static [&'static str],
    pddl: Option<&'static str>,
}

const EXPLOITS: &[Exploit] = &[
    Exploit {
        name: "105: the air fryer brushed onto the onion with a knife",
        task: "105",
        plan: "[OPEN] <drawer> (1)\n[GRAB] <knife> (1)\n[BRUSH] <air_fryer> (1) <onion> (1) <knife> (1)",
        strict: &[
            "Precondition failed: tool is not a brush",
            "Precondition failed: liquid cannot be brushed on",
        ],
        pddl: Some("affords-brush"),
    },
    Exploit {
        name: "017: the beef dipped into the fridge",
        task: "017",
        plan: "[OPEN] <fridge> (1)\n[GRAB] <beef> (1)\n[DIP] <beef> (1) <fridge> (1)",
        strict: &[
            "Precondition failed: receptacle is not a vessel one works in",
            "Precondition failed: receptacle holds no liquid or coating",
        ],
        pddl: Some("p-grabbable"),
    },
    Exploit {
        name: "017: the beef grilled on the bare stove",
        task: "017",
        plan: "[OPEN] <fridge> (1)\n[GRAB] <beef> (1)\n[PUT_ON] <beef> (1) <stove> (1)\n[SWITCH_ON] <stove> (1)\n[GRILL] <beef> (1) <stove> (1)",
        strict: &["Precondition failed: appliance is not a grill"],
        pddl: Some("affords-grill"),
    },
    Exploit {
        name: "048: the potato chopped unwashed and unpeeled, with scissors",
        task: "048",
        plan: "[GRAB] <potato> (1)\n[PUT_ON] <potato> (1) <cutting_board> (1)\n[OPEN] <drawer> (1)\n[GRAB] <scissors> (1)\n[CHOP] <potato> (1) <cutting_board> (1) <scissors> (1)",
        strict: &[
            "Precondition failed: tool is not a knife",
            "Precondition failed: object not washed",
            "Precondition failed: object not peeled",
        ],
        pddl: Some("affords-cutter"),
    },
    Exploit {
        name: "048: the potato \"drained\" in the sink without water",
        task: "048",
        plan: "[GRAB] <potato> (1)\n[PUT_IN] <potato> (1) <sink> (1)\n[DRAIN] <potato> (1) <sink> (1)",
        // The sink holds the tap's water, which Simmer counts as a liquid.
        strict: &["Precondition failed: receptacle is not cookware"],
        pddl: Some("affords-cookware"),
    },
    Exploit {
        name: "048: the dirty potatoes hidden in the cutlery drawer",
        task: "048",
        plan: "[OPEN] <drawer> (1)\n[GRAB] <potato> (1)\n[PUT_IN] <potato> (1) <drawer> (1)\n[GRAB] <potato> (2)\n[PUT_IN] <potato> (2) <drawer> (1)\n[GRAB] <potato> (3)\n[PUT_IN] <potato> (3) <drawer> (1)\n[CLOSE] <drawer> (1)",
        strict: &["Food safety: unwashed raw potato"],
        pddl: None,
    },
    Exploit {
        name: "097: the empty pan grilled",
        task: "097",
        plan: "[OPEN] <cabinet> (1)\n[GRAB] <pan> (1)\n[PUT_ON] <pan> (1) <stove> (1)\n[SWITCH_ON] <stove> (1)\n[GRILL] <pan> (1) <stove> (1)",
        strict: &[
            "Precondition failed: appliance is not a grill",
            "Precondition failed: object is not food",
        ],
        pddl: Some("affords-food"),
    },
    Exploit {
        name: "033: the pike heated \"on the stove\" while its sheet is in the oven",
        task: "033",
        plan: "[OPEN] <fridge> (1)\n[OPEN] <cabinet> (1)\n[GRAB] <pike_fillet> (1)\n[PUT_IN] <pike_fillet> (1) <baking_sheet> (1)\n[OPEN] <oven> (1)\n[GRAB] <baking_sheet> (1)\n[PUT_IN] <baking_sheet> (1) <oven> (1)\n[SWITCH_ON] <stove> (1)\n[HEAT] <pike_fillet> (1) <baking_sheet> (1) <stove> (1)",
        strict: &["Precondition failed: receptacle not on heatsource"],
        pddl: Some("resolves"),
    },
    Exploit {
        name: "028: the strawberry served onto the bare counter",
        task: "028",
        plan: "[OPEN] <freezer> (1)\n[GRAB] <strawberry> (1)\n[SERVE] <strawberry> (1) <counter> (1)",
        strict: &["Precondition failed: target is not a dish"],
        pddl: Some("affords-dish"),
    },
    Exploit {
        name: "105: a knife as the tool to take the flour out of the pantry",
        task: "105",
        plan: "[OPEN] <drawer> (1)\n[OPEN] <pantry> (1)\n[GRAB] <knife> (1)\n[TAKE_OUT] <flour> (1) <pantry> (1) <knife> (1)",
        strict: &["Precondition failed: tool cannot lift food"],
        pddl: Some("affords-lifter"),
    },
    Exploit {
        name: "000: the rosemary heated in a microwave-safe bowl on the stove",
        task: "000",
        plan: "[OPEN] <fridge> (1)\n[OPEN] <cabinet> (1)\n[GRAB] <bowl> (1)\n[PUT_ON] <bowl> (1) <stove> (1)\n[GRAB] <rosemary> (1)\n[PUT_IN] <rosemary> (1) <bowl> (1)\n[SWITCH_ON] <stove> (1)\n[HEAT] <rosemary> (1) <bowl> (1) <stove> (1)",
        strict: &["Precondition failed: receptacle does not go on the stove"],
        pddl: Some("rule-heat-stovetop-hob"),
    },
    Exploit {
        name: "097: a knife heated in the pan on the stove",
        task: "097",
        plan: "[OPEN] <cabinet> (1)\n[GRAB] <pan> (1)\n[PUT_ON] <pan> (1) <stove> (1)\n[OPEN] <drawer> (1)\n[GRAB] <knife> (1)\n[PUT_IN] <knife> (1) <pan> (1)\n[SWITCH_ON] <stove> (1)\n[HEAT] <pan> (1) <stove> (1)",
        strict: &["Precondition failed: a utensil is in the receptacle"],
        pddl: Some("rule-heat-without-object-utensil"),
    },
    Exploit {
        name: "097: the bare wonton wrapper fried, never filled",
        task: "097",
        plan: "[OPEN] <cabinet> (1)\n[GRAB] <pan> (1)\n[PUT_ON] <pan> (1) <stove> (1)\n[OPEN] <pantry> (1)\n[GRAB] <oil> (1)\n[POUR] <oil> (1) <pan> (1)\n[PUT_ON] <oil> (1) <counter> (1)\n[OPEN] <fridge> (1)\n[GRAB] <wonton_wrapper> (1)\n[PUT_IN] <wonton_wrapper> (1) <pan> (1)\n[SWITCH_ON] <stove> (1)\n[FRY] <wonton_wrapper> (1) <pan> (1) <stove> (1)",
        strict: &["Precondition failed: a bare wrapper is cooked (fill and fold it first)"],
        pddl: Some("rule-fry-wrapper"),
    },
];

/// Each exploit fails in strict mode with the cook's reasons (and is accepted by Simmer mode,
/// which is why a planner could use it), and the planning flavour forbids it: the step fails a
/// precondition naming the rule, or the audit goal is unmet.
#[test]
fn every_known_exploit_fails_in_strict_mode_and_in_the_planning_flavour() {
    let Some(shared) =
        shared("every_known_exploit_fails_in_strict_mode_and_in_the_planning_flavour")
    else {
        return;
    };
    let world = World::embedded();
    let goals = goals();
    for exploit in EXPLOITS {
        let goal = &goals[exploit.task];
        let task = compiled(&world, &env_of(&shared, exploit.task), goal);
        let steps = exploit.plan.lines().count();
        let simmer = kitchen::run(&world, &task.env, exploit.plan, Mode::Simmer);
        let strict = kitchen::run(&world, &task.env, exploit.plan, Mode::Strict);
        let reasons: Vec<&str> = strict.failures.iter().map(|f| f.reason.as_str()).collect();
        for wanted in exploit.strict {
            assert!(
                reasons.contains(wanted),
                "{}: strict mode misses `{wanted}`: {reasons:?}",
                exploit.name
            );
        }
        let pddl = kitchen::to_pddl_plan(&world, &task.env, exploit.plan);
        let report = pddlc::validate::validate(
            &task.domain,
            &task.problem,
            &pddl,
            &ValidateOptions::default(),
        );
        match exploit.pddl {
            Some(word) => {
                // Simmer accepts the step: it is a gap of Simmer's, not a plain failure.
                assert!(
                    simmer.failures.iter().all(|f| f.step != steps),
                    "{}: Simmer mode rejects it too: {:?}",
                    exploit.name,
                    simmer.failures
                );
                assert!(
                    strict
                        .failures
                        .iter()
                        .all(|f| f.step == steps || f.step == 0),
                    "{}: strict mode fails before the exploit: {:?}",
                    exploit.name,
                    strict.failures
                );
                assert_eq!(
                    report.failed_step,
                    Some(steps),
                    "{}: the planning flavour does not stop at the exploit: {:?}",
                    exploit.name,
                    report.failures
                );
                assert!(
                    report.unsatisfied.iter().any(|a| a.contains(word)),
                    "{}: no unsatisfied precondition names `{word}`: {:?}",
                    exploit.name,
                    report.unsatisfied
                );
            }
            None => {
                assert!(
                    !simmer
                        .failures
                        .iter()
                        .any(|f| exploit.strict.contains(&f.reason.as_str())),
                    "{}: Simmer mode sees it too",
                    exploit.name
                );
                let [strict_audit, pddl_audit] = audits(&world, &task, exploit.plan, &pddl);
                assert_eq!(strict_audit, pddl_audit, "{}", exploit.name);
            }
        }
    }
}

/// What a differential walk saw: steps taken, applicable actions checked against strict mode,
/// inapplicable ones checked, and the disagreements (each described).
#[derive(Default)]
struct WalkStats {
    steps: usize,
    applicable_checked: usize,
    inapplicable_checked: usize,
    audits_compared: usize,
    /// Inapplicable actions strict mode accepts that only the goal's pruning forbids.
    goal_pruned: usize,
    disagreements: Vec<String>,
}

/// The planning flavour's preconditions that are about the task, not the world: what the task
/// serves, where its dish is made, the spares a plan may create, and that what went into the
/// dish is not touched again. Strict mode, which runs any plan for any goal, has none of them.
const GOAL_PRUNING: &[&str] = &[
    "to-serve",
    "dish-in",
    "dish",
    "spare",
    "spare-of",
    "spare-product",
    "combined",
    "part-of",
];

/// Whether an unsatisfied precondition atom (`(not (combined egg_1))`) is goal pruning.
fn is_goal_pruning(atom: &str) -> bool {
    let inner = atom.trim_start_matches("(not ").trim_start_matches('(');
    let predicate = inner.split([' ', ')']).next().unwrap_or("");
    GOAL_PRUNING.contains(&predicate)
}

/// Whether strict mode runs the plan's last step without a failure of that step (syntax or
/// immediate). `None` when the PDDL plan does not translate.
fn strict_accepts_last(world: &World, env: &Env, pddl_plan: &str) -> Option<bool> {
    let simmer = kitchen::from_pddl_plan(world, env, pddl_plan).ok()?;
    let steps = simmer.lines().filter(|l| !l.trim().is_empty()).count();
    let outcome = kitchen::run(world, env, &simmer, Mode::Strict);
    Some(!outcome.failures.iter().any(|f| f.step == steps))
}

/// A seeded random walk of `steps` steps in the planning flavour of one task. At every state:
/// up to `sample` applicable ground actions must run in strict mode without a failure, and up
/// to `sample` inapplicable ones (an applicable action with one argument changed) must fail in
/// strict mode; the walk then takes a random applicable action. At the end, strict mode's audit
/// and the planning flavour's unmet audit goals must name the same failures.
fn walk(world: &World, task: &Compiled, seed: u64, steps: usize, sample: usize) -> WalkStats {
    let mut rng = SplitMix64::new(seed);
    let mut stats = WalkStats::default();
    let objects: Vec<&String> = task.classes.keys().collect();
    let mut prefix = String::new();
    let parameters: HashMap<String, Vec<bool>> = task
        .domain
        .actions()
        .map(|a| {
            let created = a
                .parameters
                .iter()
                .map(|p| p.item.name.text.trim_start_matches('?') == "new")
                .collect();
            (a.name.text.to_lowercase().to_string(), created)
        })
        .collect();
    for _ in 0..steps {
        let applicable = match pddlc::validate::applicable(&task.domain, &task.problem, &prefix) {
            Ok(list) => list,
            Err(report) => {
                stats.disagreements.push(format!(
                    "the walk's prefix does not run: {:?}",
                    report.failures
                ));
                break;
            }
        };
        if applicable.is_empty() {
            break;
        }
        let known: BTreeSet<&String> = applicable.iter().collect();
        for _ in 0..sample.min(applicable.len()) {
            let step = &applicable[rng.below(applicable.len())];
            stats.applicable_checked += 1;
            match strict_accepts_last(world, &task.env, &format!("{prefix}{step}\n")) {
                Some(true) => {}
                Some(false) => stats.disagreements.push(format!(
                    "applicable in PDDL, failing in strict mode: {step} after\n{prefix}"
                )),
                None => stats
                    .disagreements
                    .push(format!("applicable in PDDL, untranslatable: {step}")),
            }
        }
        for _ in 0..sample {
            let base = &applicable[rng.below(applicable.len())];
            let mut words: Vec<String> = base
                .trim_matches(|c| c == '(' || c == ')')
                .split_whitespace()
                .map(String::from)
                .collect();
            let created = parameters.get(&words[0]).cloned().unwrap_or_default();
            let changeable: Vec<usize> = (1..words.len())
                .filter(|&i| !created.get(i - 1).copied().unwrap_or(true))
                .collect();
            if changeable.is_empty() {
                continue;
            }
            let at = changeable[rng.below(changeable.len())];
            words[at] = objects[rng.below(objects.len())].clone();
            let step = format!("({})", words.join(" "));
            if known.contains(&step) {
                continue;
            }
            stats.inapplicable_checked += 1;
            let plan = format!("{prefix}{step}\n");
            if strict_accepts_last(world, &task.env, &plan) == Some(true) {
                let report = pddlc::validate::validate(
                    &task.domain,
                    &task.problem,
                    &plan,
                    &ValidateOptions::default(),
                );
                if report.unsatisfied.iter().all(|a| is_goal_pruning(a)) {
                    stats.goal_pruned += 1;
                } else {
                    stats.disagreements.push(format!(
                        "inapplicable in PDDL ({:?}), accepted by strict mode: {step} after\n{prefix}",
                        report.unsatisfied
                    ));
                }
            }
        }
        let step = &applicable[rng.below(applicable.len())];
        prefix.push_str(step);
        prefix.push('\n');
        stats.steps += 1;
    }
    if let Ok(simmer) = kitchen::from_pddl_plan(world, &task.env, &prefix) {
        let [strict, pddl] = audits(world, task, &simmer, &prefix);
        stats.audits_compared += 1;
        if strict != pddl {
            stats.disagreements.push(format!(
                "the audits differ: strict {strict:?}, PDDL {pddl:?} after\n{prefix}"
            ));
        }
    }
    stats
}

/// Runs the walks over `tasks` tasks (every `stride`-th task with a goal), `walks` per task,
/// and asserts that nothing disagrees. Returns the totals.
fn walks(tasks: usize, walks: usize, steps: usize, sample: usize) -> Option<WalkStats> {
    let shared = shared("random_walks_in_the_planning_flavour_agree_with_strict_mode")?;
    let world = World::embedded();
    let goals = goals();
    let stride = (goals.len() / tasks.max(1)).max(1);
    let mut total = WalkStats::default();
    let mut tasks_walked = 0;
    for (i, (number, goal)) in goals.iter().enumerate() {
        if i % stride != 0 || tasks_walked == tasks {
            continue;
        }
        tasks_walked += 1;
        let task = compiled(&world, &env_of(&shared, number), goal);
        for w in 0..walks {
            let seed = (i * 1000 + w) as u64;
            let stats = walk(&world, &task, seed, steps, sample);
            total.steps += stats.steps;
            total.applicable_checked += stats.applicable_checked;
            total.inapplicable_checked += stats.inapplicable_checked;
            total.audits_compared += stats.audits_compared;
            total.goal_pruned += stats.goal_pruned;
            total.disagreements.extend(
                stats
                    .disagreements
                    .into_iter()
                    .map(|d| format!("task {number} seed {seed}: {d}")),
            );
        }
    }
    eprintln!(
        "{tasks_walked} tasks, {} steps, {} applicable and {} inapplicable actions checked ({} of these forbidden only by the goal's pruning), {} audits compared, {} disagreements",
        total.steps,
        total.applicable_checked,
        total.inapplicable_checked,
        total.goal_pruned,
        total.audits_compared,
        total.disagreements.len()
    );
    Some(total)
}

/// A small seeded run; `KITCHEN_WALK=TASKS,WALKS,STEPS,SAMPLE` sizes a longer one (the closing
/// note of issue 14 reports one).
#[test]
fn random_walks_in_the_planning_flavour_agree_with_strict_mode() {
    let sizes: Vec<usize> = std::env::var("KITCHEN_WALK")
        .ok()
        .map(|v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_default();
    let [tasks, walks_per_task, steps, sample] = match sizes.as_slice() {
        [a, b, c, d] => [*a, *b, *c, *d],
        _ => [4, 1, 20, 4],
    };
    let Some(total) = walks(tasks, walks_per_task, steps, sample) else {
        return;
    };
    assert!(total.steps > 0, "no walk took a step");
    let shown: Vec<&String> = total.disagreements.iter().take(8).collect();
    assert!(
        total.disagreements.is_empty(),
        "{} disagreements, the first ones:\n{}",
        total.disagreements.len(),
        shown
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n---\n")
    );
}
