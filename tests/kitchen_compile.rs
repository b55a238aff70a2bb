//! The kitchen world compiled to PDDL: the output checks clean, the audit flavour agrees with
//! the executor on the dev plans, and Fast Downward solves the planning flavour of small tasks.

mod common;

use pddlc::diagnostics::Code;
use pddlc::diagnostics::Severity;
use pddlc::kitchen::{self, CompileOptions, Env, FailureType, Flavour, Mode, TaskGoal, World};
use pddlc::validate::ValidateOptions;
use pddlc::{check, fmt, parse};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

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

fn env_of(shared: &Path, task: &str) -> Env {
    let path = shared.join(format!("simmer/benchmark/tasks/{task}/env_{task}.json"));
    Env::from_json(&read(&path)).expect("the env loads")
}

/// Every task goal in `domains/kitchen/tasks/`, by task number; fails unless there is one for
/// each of Simmer's 100 tasks, so that no loop over them passes on none.
fn goals() -> BTreeMap<String, TaskGoal> {
    let goals = goals_in(&root().join("domains/kitchen/tasks"));
    assert!(goals.len() >= 100, "only {} task goals", goals.len());
    goals
}

/// The task goals in a directory (`*.toml`), by task number.
fn goals_in(dir: &Path) -> BTreeMap<String, TaskGoal> {
    let mut out = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.extension().is_some_and(|x| x == "toml") {
            let goal = TaskGoal::from_toml(&read(&path))
                .unwrap_or_else(|err| panic!("{}: {err:?}", path.display()));
            out.insert(goal.task.clone(), goal);
        }
    }
    out
}

fn errors(diagnostics: &[pddlc::diagnostics::Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{:?}: {}", d.code, d.message))
        .collect()
}

/// Every one of Simmer's benchmark tasks has a goal file; at least 95 of them a goal, and the
/// rest say why none can be reached (`unsolvable`, which `kitchen compile` reports as K410).
#[test]
fn every_task_has_a_goal_or_says_why_not() {
    let Some(shared) = shared("every_task_has_a_goal_or_says_why_not", &["simmer"]) else {
        return;
    };
    let goals = goals();
    let mut tasks: Vec<String> = std::fs::read_dir(shared.join("simmer/benchmark/tasks"))
        .expect("Simmer's tasks")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    tasks.sort();
    assert_eq!(tasks.len(), 100, "Simmer's benchmark has 100 tasks");
    let missing: Vec<&String> = tasks.iter().filter(|t| !goals.contains_key(*t)).collect();
    assert!(missing.is_empty(), "tasks without a goal file: {missing:?}");
    let unsolvable: Vec<(&String, String)> = goals
        .iter()
        .filter_map(|(task, goal)| Some((task, goal.unsolvable.as_ref()?.get_ref().clone())))
        .collect();
    for (task, reason) in &unsolvable {
        assert!(reason.trim().len() > 20, "{task}: say why it is unsolvable");
    }
    assert!(
        tasks.len() - unsolvable.len() >= 95,
        "only {} of 100 tasks have a goal: {unsolvable:?}",
        tasks.len() - unsolvable.len()
    );
}

/// Prints, parses back and checks a compiled pair; returns the parsed pair.
fn round_trip(
    domain: &pddlc::ast::Domain,
    problem: &pddlc::ast::Problem,
) -> (pddlc::ast::Domain, pddlc::ast::Problem) {
    let dtext = fmt::domain(domain);
    let ptext = fmt::problem(problem);
    let d = parse::domain(&dtext);
    let p = parse::problem(&ptext);
    let d = d.value.expect("the domain parses");
    let p = p.value.expect("the problem parses");
    let de = errors(&check::domain(&d, Default::default()));
    assert!(de.is_empty(), "domain errors: {de:?}");
    let pe = errors(&check::problem(&d, &p, Default::default()));
    assert!(pe.is_empty(), "problem errors: {pe:?}");
    (d, p)
}

#[test]
fn compiled_domains_and_problems_check_clean() {
    let Some(shared) = shared("compiled_domains_and_problems_check_clean", &["simmer"]) else {
        return;
    };
    let world = World::embedded();
    // The goals that say they are unsolvable are compiled too (the CLI does not), and must
    // stay valid.
    let goals = goals();
    for flavour in [Flavour::Audit, Flavour::Planning] {
        let domain = kitchen::compile_domain(&world, flavour);
        for (task, goal) in &goals {
            let env = env_of(&shared, task);
            let options = CompileOptions {
                flavour,
                ..CompileOptions::default()
            };
            let problem = kitchen::compile_problem(
                &world,
                &env,
                Some(goal),
                &format!("task-{task}"),
                &options,
            );
            round_trip(&domain, &problem);
        }
    }
}

/// The failures an audit-flavour validation reports, in the executor's terms: the steps with a
/// failed check (immediate), the steps with a syntax failure (a stand-in step, or an object
/// that does not exist or is bound twice), and the audit reasons.
struct Verdict {
    immediate: BTreeSet<usize>,
    syntax: BTreeSet<usize>,
    audit: BTreeSet<String>,
}

fn normalise(reason: &str) -> String {
    reason.replace("unwashed raw ", "unwashed ")
}

fn pddl_verdict(world: &World, env: &Env, plan: &str) -> Verdict {
    let spares = kitchen::plan_spares(world, env, plan);
    let mut names: HashMap<String, String> = env
        .objects
        .iter()
        .map(|o| (o.id.clone(), o.name.clone()))
        .collect();
    for s in &spares {
        names.insert(s.id.clone(), s.name.clone());
    }
    let options = CompileOptions {
        flavour: Flavour::Audit,
        spares,
        phantoms: kitchen::plan_phantoms(world, env, plan),
    };
    let domain = kitchen::compile_domain(world, Flavour::Audit);
    let problem = kitchen::compile_problem(world, env, None, "dev", &options);
    if !options.phantoms.is_empty() {
        // The objects a plan hallucinates are declared, and the problem still checks clean.
        round_trip(&domain, &problem);
    }
    let pddl = kitchen::to_pddl_plan(world, env, plan);
    let report = pddlc::validate::validate(
        &domain,
        &problem,
        &pddl,
        &ValidateOptions {
            keep_going: true,
            ..ValidateOptions::default()
        },
    );
    let mut v = Verdict {
        immediate: BTreeSet::new(),
        syntax: BTreeSet::new(),
        audit: BTreeSet::new(),
    };
    let stand_ins: BTreeSet<usize> = pddl
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(kitchen::UNEXPRESSIBLE))
        .map(|(i, _)| i + 1)
        .collect();
    for f in &report.failures {
        assert!(
            matches!(
                f.code(),
                Code::PreconditionUnsatisfied | Code::GoalUnsatisfied
            ),
            "the translated plan does not fit the compiled problem: {f:?}"
        );
        if let (Code::PreconditionUnsatisfied, Some(s)) = (f.code(), f.step) {
            if stand_ins.contains(&s) {
                v.syntax.insert(s);
                continue;
            }
            for condition in &f.atoms {
                if kitchen::is_syntax_condition(condition) {
                    v.syntax.insert(s);
                } else {
                    v.immediate.insert(s);
                }
            }
        }
    }
    let class = |id: &str| names.get(id).cloned().unwrap_or_else(|| id.to_string());
    for g in &report.unmet_goals {
        let words: Vec<&str> = g
            .trim_start_matches("(not (")
            .trim_end_matches("))")
            .split_whitespace()
            .collect();
        let reason = match words.as_slice() {
            ["contaminated", o, s] => {
                format!("Food safety: {} contaminated by raw {}", class(o), class(s))
            }
            ["unwashed", o] => format!("Food safety: unwashed {}", class(o)),
            ["is", o, "s-on"] => {
                let name = class(o);
                let hazard = world
                    .config
                    .appliance_audit
                    .hazards
                    .iter()
                    .find(|h| h.names.contains(&name));
                match hazard {
                    Some(h) => h.reason.replace("{name}", &name),
                    None => g.clone(),
                }
            }
            _ => g.clone(),
        };
        v.audit.insert(reason);
    }
    v
}

fn simmer_verdict(world: &World, env: &Env, plan: &str) -> Verdict {
    let outcome = kitchen::run(world, env, plan, Mode::Simmer);
    let mut v = Verdict {
        immediate: BTreeSet::new(),
        syntax: BTreeSet::new(),
        audit: BTreeSet::new(),
    };
    for f in &outcome.failures {
        match f.failure_type() {
            FailureType::Syntax => {
                v.syntax.insert(f.step);
            }
            FailureType::Immediate if f.reason.starts_with("Unknown action") => {
                v.syntax.insert(f.step);
            }
            FailureType::Immediate => {
                v.immediate.insert(f.step);
            }
            FailureType::Latent => {
                v.audit.insert(normalise(&f.reason));
            }
        }
    }
    // A step whose handler does not run is one stand-in step in PDDL.
    let stand_ins: BTreeSet<usize> = outcome
        .failures
        .iter()
        .filter(|f| {
            ["Unknown action", "Too few arguments", "Too many arguments"]
                .iter()
                .any(|r| f.reason.starts_with(r))
        })
        .map(|f| f.step)
        .collect();
    v.immediate = &v.immediate - &stand_ins;
    v
}

/// Two quirks the audit flavour follows, on the shipped salad example (no `../shared` needed):
/// contents are lists, so an id poured into the fridge it is already in is there twice and
/// taking it out leaves a copy (step 6 succeeds); a step naming an object that does not exist
/// still runs its handler (Q6), so the hallucinated tomato enters the bowl and MIX finds
/// contents (step 8 succeeds).
#[test]
fn audit_flavour_follows_list_contents_and_hallucinated_objects() {
    let world = World::embedded();
    let env = Env::from_json(&read(
        &root().join("domains/kitchen/examples/salad/env.json"),
    ))
    .expect("the example env loads");
    let plan = "\
1. [OPEN] <fridge> (1)
2. [GRAB] <lettuce> (1)
3. [POUR] <lettuce> (1) <fridge> (1)
4. [TAKE_OUT] <lettuce> (1) <fridge> (1)
5. [PUT_ON] <lettuce> (1) <cutting_board> (1)
6. [TAKE_OUT] <lettuce> (1) <fridge> (1)
7. [PUT_IN] <tomato> (1) <bowl> (1)
8. [MIX] <bowl> (1)
";
    let theirs = simmer_verdict(&world, &env, plan);
    assert_eq!(theirs.syntax, BTreeSet::from([7]));
    assert!(theirs.immediate.contains(&3) && theirs.immediate.contains(&4));
    assert!(!theirs.immediate.contains(&6) && !theirs.immediate.contains(&8));
    assert_eq!(
        kitchen::plan_phantoms(&world, &env, plan),
        vec!["tomato_1".to_string()]
    );
    let pddl = kitchen::to_pddl_plan(&world, &env, plan);
    assert!(pddl.contains("missing-tomato_1"), "{pddl}");
    let back = kitchen::from_pddl_plan(&world, &env, &pddl).expect("the plan translates back");
    assert!(back.contains("[PUT_IN] <tomato> (1) <bowl> (1)"), "{back}");
    let ours = pddl_verdict(&world, &env, plan);
    assert_eq!(ours.syntax, theirs.syntax);
    assert_eq!(ours.immediate, theirs.immediate);
    assert_eq!(ours.audit, theirs.audit);
}

/// The most copies of one id that any contents list holds after any step of the plan.
fn most_copies(world: &World, env: &Env, plan: &str) -> usize {
    let mut most = 0;
    for state in &kitchen::states_after_steps(world, env, plan, Mode::Simmer) {
        for o in state.initial.iter().chain(&state.created) {
            for id in &o.contents {
                most = most.max(o.contents.iter().filter(|x| *x == id).count());
            }
        }
    }
    most
}

/// The planning flavour refuses what Simmer accepts but no cook would do (docs/kitchen.md,
/// "The two flavours"), each with its own precondition; on the shipped salad example.
#[test]
fn planning_flavour_refuses_the_executors_gaps() {
    let world = World::embedded();
    let env = Env::from_json(&read(
        &root().join("domains/kitchen/examples/salad/env.json"),
    ))
    .expect("the example env loads");
    let goal = TaskGoal::from_toml(
        "task = \"900\"\ntitle = \"lettuce\"\nserve = [\"lettuce_1\"]\ntools = [\"bowl_1\"]\n\
         [dish]\nname = \"salad_1\"\nin = \"bowl_1\"\n\
         [[ingredient]]\nobject = \"chicken_breast_1\"\nstates = [\"cooked\"]\n\
         [[ingredient]]\nobject = \"lettuce_1\"\nin = \"bowl_1\"\n",
    )
    .expect("the goal loads");
    let options = CompileOptions {
        flavour: Flavour::Planning,
        ..CompileOptions::default()
    };
    let domain = kitchen::compile_domain(&world, Flavour::Planning);
    let problem = kitchen::compile_problem(&world, &env, Some(&goal), "t", &options);
    let (domain, problem) = round_trip(&domain, &problem);
    let refused = |plan: &str, step: usize, wanted: &str| {
        let report =
            pddlc::validate::validate(&domain, &problem, plan, &ValidateOptions::default());
        assert_eq!(
            report.failed_step,
            Some(step),
            "{plan}: {:?}",
            report.failures
        );
        assert!(
            report.unsatisfied.iter().any(|u| u.contains(wanted)),
            "{plan}: {wanted} not among {:?}",
            report.unsatisfied
        );
    };
    // Nothing is grabbed through the closed fridge door.
    refused("(grab lettuce_1)", 1, "(not (enclosed lettuce_1))");
    // Only what the task serves is served.
    refused(
        "(open fridge_1)\n(grab chicken_breast_1)\n(serve chicken_breast_1 counter_1)",
        3,
        "(to-serve chicken_breast_1)",
    );
    // Food is not served into the fridge.
    refused(
        "(open fridge_1)\n(grab lettuce_1)\n(serve lettuce_1 fridge_1)",
        3,
        "(or (has fridge_1 p-grabbable)",
    );
    // Nothing is put through a closed door.
    refused(
        "(open fridge_1)\n(grab lettuce_1)\n(put_on lettuce_1 counter_1)\n(close fridge_1)\n(grab lettuce_1)\n(put_in lettuce_1 fridge_1)",
        6,
        "(not (is fridge_1 s-closed))",
    );
    // No baking in the fridge, which Simmer counts as "on".
    refused(
        "(bake lettuce_1 bowl_1 fridge_1)",
        1,
        "(has fridge_1 p-switchable)",
    );
    // What went into the dish is not touched again.
    refused(
        "(open fridge_1)\n(open cabinet_1)\n(grab lettuce_1)\n(put_in lettuce_1 bowl_1)\n(combine bowl_1 salad_1)\n(grab lettuce_1)",
        6,
        "(not (combined lettuce_1))",
    );
    // A solid is not drizzled into a bowl.
    refused(
        "(open fridge_1)\n(grab lettuce_1)\n(drizzle lettuce_1 bowl_1)",
        3,
        "(or (has lettuce_1 p-pourable) (has lettuce_1 p-receptacle))",
    );
}

#[test]
fn audit_flavour_agrees_with_the_executor() {
    let Some(shared) = shared(
        "audit_flavour_agrees_with_the_executor",
        &["simmer", "plans"],
    ) else {
        return;
    };
    let world = World::embedded();
    let mut envs: HashMap<String, Env> = HashMap::new();
    let (mut plans, mut same_steps, mut same_audit, mut expressible) = (0, 0, 0, 0);
    let mut copies = 0;
    let mut unexpected = Vec::new();
    for line in read(&shared.join("plans/dev/verdicts.jsonl")).lines() {
        let verdict: Value = serde_json::from_str(line).expect("verdict");
        let plan_path = verdict["plan"].as_str().expect("plan").to_string();
        let env_path = verdict["env"].as_str().expect("env");
        let env = envs
            .entry(env_path.to_string())
            .or_insert_with(|| Env::from_json(&read(&shared.join(env_path))).expect("env"));
        let text = read(&shared.join(&plan_path));
        copies = copies.max(most_copies(&world, env, &text));
        let ours = pddl_verdict(&world, env, &text);
        let theirs = simmer_verdict(&world, env, &text);
        plans += 1;
        if theirs.syntax.is_empty() {
            expressible += 1;
        }
        let steps_ok = ours.immediate == theirs.immediate && ours.syntax == theirs.syntax;
        let audit_ok = ours.audit == theirs.audit;
        same_steps += usize::from(steps_ok);
        same_audit += usize::from(audit_ok);
        let agrees = steps_ok && audit_ok;
        if !agrees {
            unexpected.push(format!(
                "{plan_path}: steps pddl {:?} / {:?}, simmer {:?} / {:?}; audit pddl {:?}, simmer {:?}",
                ours.immediate,
                ours.syntax,
                theirs.immediate,
                theirs.syntax,
                ours.audit,
                theirs.audit
            ));
        }
    }
    assert!(
        plans >= common::DEV_PLANS_AT_LEAST,
        "only {plans} dev verdicts"
    );
    eprintln!(
        "faithfulness: {plans} plans ({expressible} without syntax failures); same failing steps {same_steps}, same audit failures {same_audit}; at most {copies} copies of an id in one container"
    );
    // The audit flavour counts up to five copies (`IN_LEVELS` in compile/vocabulary.rs).
    assert!(
        copies <= 5,
        "a plan puts {copies} copies of an id in one container"
    );
    assert!(
        unexpected.is_empty(),
        "{} plans disagree:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
}

/// Simmer's own world files (`world_model/`) take everything but the role lists and classes
/// from the embedded world, the compiler's classes and places included: they compile to the
/// same PDDL.
#[test]
fn simmer_world_files_compile_as_the_embedded_world() {
    let Some(shared) = shared(
        "simmer_world_files_compile_as_the_embedded_world",
        &["simmer"],
    ) else {
        return;
    };
    let dir = shared.join("simmer/world_model");
    let simmer = World::from_simmer(
        &read(&dir.join("action_def.json")),
        Some(&read(&dir.join("object_def.json"))),
        &World::embedded(),
    )
    .expect("Simmer's world loads");
    let ours = World::embedded();
    let goals = goals();
    for flavour in [Flavour::Audit, Flavour::Planning] {
        assert_eq!(
            fmt::domain(&kitchen::compile_domain(&simmer, flavour)),
            fmt::domain(&kitchen::compile_domain(&ours, flavour)),
            "{flavour:?} domain"
        );
        for (task, goal) in goals.iter().take(5) {
            let env = env_of(&shared, task);
            let options = CompileOptions {
                flavour,
                ..CompileOptions::default()
            };
            let problem = |world: &World| {
                fmt::problem(&kitchen::compile_problem(
                    world,
                    &env,
                    Some(goal),
                    task,
                    &options,
                ))
            };
            assert_eq!(problem(&simmer), problem(&ours), "{flavour:?} task {task}");
        }
    }
}

/// The small tasks CI solves with Fast Downward (LAMA), each within 60 s.
const SOLVED_IN_CI: &[&str] = &["016", "017", "020", "043"];

#[test]
fn lama_solves_small_tasks_and_the_plans_run_clean() {
    let Some(shared) = shared(
        "lama_solves_small_tasks_and_the_plans_run_clean",
        &["simmer"],
    ) else {
        return;
    };
    let Some(fd) = common::fast_downward::fast_downward() else {
        common::skip(
            "the Fast Downward solvability test",
            "Fast Downward is not installed (pip install up-fast-downward)",
        );
        return;
    };
    let world = World::embedded();
    let goals = goals();
    for task in SOLVED_IN_CI {
        let goal = &goals[*task];
        let env = env_of(&shared, task);
        let options = CompileOptions {
            flavour: Flavour::Planning,
            ..CompileOptions::default()
        };
        let domain = kitchen::compile_domain(&world, Flavour::Planning);
        let problem =
            kitchen::compile_problem(&world, &env, Some(goal), &format!("task-{task}"), &options);
        let dir = std::env::temp_dir().join(format!("pddlc-lama-{}-{task}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a work directory");
        std::fs::write(dir.join("domain.pddl"), fmt::domain(&domain)).expect("write");
        std::fs::write(dir.join("problem.pddl"), fmt::problem(&problem)).expect("write");
        let start = Instant::now();
        let status = std::process::Command::new("timeout")
            .arg("60")
            .arg("python3")
            .arg(&fd)
            .args(["--alias", "lama-first", "domain.pddl", "problem.pddl"])
            .current_dir(&dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .expect("python3 runs");
        let seconds = start.elapsed().as_secs_f64();
        let plan = std::fs::read_to_string(dir.join("sas_plan"));
        let _ = std::fs::remove_dir_all(&dir);
        let plan = plan.unwrap_or_else(|_| {
            panic!("task {task}: no plan within 60 s ({status}, {seconds:.1} s)")
        });
        let simmer = kitchen::from_pddl_plan(&world, &env, &plan)
            .unwrap_or_else(|e| panic!("task {task}: the plan does not translate back: {e:?}"));
        let outcome = kitchen::run(&world, &env, &simmer, Mode::Simmer);
        let failures: Vec<String> = outcome
            .failures
            .iter()
            .map(|f| format!("step {}: {}", f.step, f.reason))
            .collect();
        assert!(
            failures.is_empty(),
            "task {task}: the plan fails under kitchen run: {failures:?}\n{simmer}"
        );
        eprintln!("task {task}: solved in {seconds:.1} s, clean under kitchen run");
    }
}
