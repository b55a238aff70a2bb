//! `pddlc kitchen solve`: a kitchen task compiled to the planning flavour, solved by the built-in
//! planner, the plan translated back to Simmer's format and run in strict mode, in one process.
//!
//! Human format: a line per task (status, steps, strict mode's verdict, times) on stdout, with
//! the Simmer plan under it for one task and strict mode's failures under any task that has
//! them. JSON: one document with a row per task and a summary. Exit 0 when every task was solved
//! and its plan ran clean, 1 when one was not (unsolvable, unknown, or failures in strict mode)
//! or an input is faulty, 2 on usage errors and unreadable inputs.

use super::Outcome;
use super::kitchen::{KitchenFormat, Report, load_world};
use super::kitchen_task::{EnvSources, GoalSources};
use pddlc::diagnostics::render::JSON_VERSION;
use pddlc::kitchen::{self, Env, Mode, World};
use pddlc::solve::{self, Options, Outcome as Solved};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(clap::Args)]
#[command(group(
    clap::ArgGroup::new("tasks").required(true).multiple(true).args(["task", "env", "all"])
))]
pub struct SolveArgs {
    #[command(flatten)]
    sources: EnvSources,
    #[command(flatten)]
    goals: GoalSources,
    /// Every task that has a goal (built in, or in `--tasks-dir`).
    #[arg(long, conflicts_with_all = ["task", "env", "goal"])]
    all: bool,
    /// A world directory instead of the built-in one.
    #[arg(long)]
    world: Option<PathBuf>,
    /// Give up on a task (`unknown`) after this many seconds of CPU time, grounding included.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    time_limit: f64,
}

/// What became of one task.
struct Solution {
    task: String,
    answer: solve::Answer,
    /// The plan in Simmer's format, one step a line, when one was found.
    simmer_plan: Option<String>,
    /// The plan's run in strict mode.
    strict: Option<kitchen::Outcome>,
    seconds: f64,
    /// The goal file's own reason why no plan reaches the task (`unsolvable = "…"`, K410):
    /// the task is reported unsolvable for that reason and not planned, as `kitchen compile`
    /// compiles no problem for it.
    declared: Option<String>,
}

pub fn run(args: &SolveArgs, format: KitchenFormat, color: bool) -> Outcome {
    if !matches!(format, KitchenFormat::Human | KitchenFormat::Json) {
        eprintln!("error: kitchen solve prints plans and verdicts: use --format human or json");
        return Outcome::Failure;
    }
    if !args.time_limit.is_finite() || args.time_limit <= 0.0 {
        eprintln!(
            "error: --time-limit must be a positive number, not {}",
            args.time_limit
        );
        return Outcome::Failure;
    }
    let mut report = Report::new(format.diagnostics(), color);
    let Some(world) = load_world(args.world.as_deref(), &mut report) else {
        return finish(report, &[], format);
    };
    let Some(tasks) = super::kitchen_task::task_names(&args.sources, &args.goals, &mut report)
    else {
        return finish(report, &[], format);
    };
    let domain = kitchen::compile_domain(&world, kitchen::Flavour::Planning);
    let mut solutions = Vec::new();
    for task in &tasks {
        let Some((env, goal)) = inputs(args, &world, task, &mut report) else {
            continue;
        };
        let solution = match &goal.unsolvable {
            Some(reason) => Some(declared_unsolvable(task, reason.get_ref())),
            None => solve_task(&world, &domain, &env, &goal, task, args, &mut report),
        };
        if let Some(solution) = solution {
            if format == KitchenFormat::Human {
                print!("{}", human(&solution, tasks.len() == 1));
            }
            solutions.push(solution);
        }
    }
    finish(report, &solutions, format)
}

/// A task whose goal file says why no plan reaches it: unsolvable for that reason, with no
/// search run (the goal file may not even state a goal, as 023's does not).
fn declared_unsolvable(task: &str, reason: &str) -> Solution {
    Solution {
        task: task.to_string(),
        answer: solve::Answer {
            outcome: Solved::Unsolvable(solve::Unsolvable::GoalUnreachable { atoms: Vec::new() }),
            action_costs: false,
            statistics: solve::Statistics::default(),
        },
        simmer_plan: None,
        strict: None,
        seconds: 0.0,
        declared: Some(reason.to_string()),
    }
}

/// The environment and goal of `task`; `None` after their diagnostics (a task without a goal
/// is a `P090`: there is nothing to plan for). A goal marked `unsolvable` adds its `K410`.
fn inputs(
    args: &SolveArgs,
    world: &World,
    task: &str,
    report: &mut Report,
) -> Option<(Env, kitchen::TaskGoal)> {
    let env = match args.sources.for_task(task) {
        Ok(source) => source.load(world, report),
        Err(message) => {
            report.usage_error(message);
            return None;
        }
    };
    let Some(goal) = args.goals.load(task, report)? else {
        let message = format!(
            "task {task} has no goal to plan for: give one with --goal FILE (domains/kitchen/tasks/NNN.toml shows the format)"
        );
        report.io_error(Path::new(task), message);
        return None;
    };
    // A goal that says why no plan reaches it (`K410`): the warning is shown, and the task is
    // reported unsolvable for the goal file's reason (`declared_unsolvable`).
    if let Some(diagnostic) = goal.goal.unsolvable_diagnostic() {
        report.add_one(goal.name, goal.text, vec![diagnostic]);
    }
    Some((env?, goal.goal))
}

/// Compiles, solves, translates and runs one task; `None` after diagnostics when the planner
/// refuses the task or the plan cannot be translated.
fn solve_task(
    world: &World,
    domain: &pddlc::ast::Domain,
    env: &Env,
    goal: &kitchen::TaskGoal,
    task: &str,
    args: &SolveArgs,
    report: &mut Report,
) -> Option<Solution> {
    let started = Instant::now();
    let options = kitchen::CompileOptions {
        flavour: kitchen::Flavour::Planning,
        ..kitchen::CompileOptions::default()
    };
    let problem =
        kitchen::compile_problem(world, env, Some(goal), &format!("task-{task}"), &options);
    let solve_options = Options {
        time_limit: Some(Duration::from_secs_f64(args.time_limit)),
        clock: Some(super::solve::cpu_time),
        ..Options::default()
    };
    let answer = match solve::solve(domain, &problem, &solve_options, &mut |_| {}) {
        Ok(answer) => answer,
        Err(diagnostics) => {
            report.add_one(
                format!("{task}.pddl"),
                pddlc::fmt::problem(&problem),
                diagnostics,
            );
            return None;
        }
    };
    let (simmer_plan, strict) = match &answer.outcome {
        Solved::Solved { plan, cost } => {
            let text = solve::plan_text(plan, *cost, answer.action_costs);
            match kitchen::from_pddl_plan(world, env, &text) {
                Ok(simmer) => {
                    let outcome = kitchen::run(world, env, &simmer, Mode::Strict);
                    (Some(simmer), Some(outcome))
                }
                Err(diagnostics) => {
                    report.add_one(format!("{task}.plan"), text, diagnostics);
                    return None;
                }
            }
        }
        _ => (None, None),
    };
    Some(Solution {
        task: task.to_string(),
        answer,
        simmer_plan,
        strict,
        seconds: started.elapsed().as_secs_f64(),
        declared: None,
    })
}

fn status(solution: &Solution) -> &'static str {
    match solution.answer.outcome {
        Solved::Solved { .. } => "solved",
        Solved::Unsolvable(_) => "unsolvable",
        Solved::Unknown(_) => "unknown",
    }
}

/// Whether the task was solved and its plan ran without a failure in strict mode.
fn clean(solution: &Solution) -> bool {
    solution
        .strict
        .as_ref()
        .is_some_and(|outcome| outcome.failures.is_empty())
}

fn human(solution: &Solution, with_plan: bool) -> String {
    let statistics = &solution.answer.statistics;
    let times = format!(
        "grounding {:.1} s, search {:.1} s, total {:.1} s",
        statistics.grounding_seconds, statistics.search_seconds, solution.seconds
    );
    let mut out = match (&solution.answer.outcome, &solution.strict) {
        (Solved::Solved { plan, .. }, Some(strict)) => {
            let verdict = if strict.failures.is_empty() {
                "runs clean in strict mode".to_string()
            } else {
                format!("{} failure(s) in strict mode", strict.failures.len())
            };
            format!(
                "{}: solved, {} steps, {verdict} ({times})\n",
                solution.task,
                plan.len()
            )
        }
        (Solved::Unsolvable(why), _) => match &solution.declared {
            Some(reason) => format!(
                "{}: unsolvable, as its goal file says: {reason}\n",
                solution.task
            ),
            None => format!("{}: unsolvable: {why} ({times})\n", solution.task),
        },
        _ => format!(
            "{}: unknown: the limit was reached before a plan or a proof was found ({times})\n",
            solution.task
        ),
    };
    if let Some(strict) = &solution.strict {
        for failure in &strict.failures {
            out.push_str(&format!("  {}\n", failure.line()));
        }
    }
    if with_plan && let Some(plan) = &solution.simmer_plan {
        out.push_str(plan);
        if !plan.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

fn row(solution: &Solution) -> Value {
    let answer = &solution.answer;
    let plan: Option<Vec<&str>> = solution
        .simmer_plan
        .as_ref()
        .map(|text| text.lines().filter(|l| !l.trim().is_empty()).collect());
    let pddl_plan = match &answer.outcome {
        Solved::Solved { plan, .. } => json!(plan),
        _ => Value::Null,
    };
    let reason = match (&answer.outcome, &solution.declared) {
        (_, Some(reason)) => json!(format!("as its goal file says: {reason}")),
        (Solved::Unsolvable(why), None) => json!(why.to_string()),
        _ => Value::Null,
    };
    let limit = match &answer.outcome {
        Solved::Unknown(limit) => serde_json::to_value(limit).unwrap_or_default(),
        _ => Value::Null,
    };
    let strict = solution.strict.as_ref().map(|outcome| {
        json!({
            "failures": outcome.failures,
            "counts": outcome.counts(),
        })
    });
    let mut statistics = serde_json::to_value(&answer.statistics).unwrap_or_default();
    if let Some(object) = statistics.as_object_mut() {
        object.insert("total_seconds".into(), json!(solution.seconds));
    }
    json!({
        "task": solution.task,
        "status": status(solution),
        "plan": plan,
        "pddl_plan": pddl_plan,
        "strict": strict,
        "clean": clean(solution),
        "reason": reason,
        "limit": limit,
        "statistics": statistics,
    })
}

/// The summary line or document, and the exit code: input errors outrank a task not solved
/// clean, which outranks success.
fn finish(report: Report, solutions: &[Solution], format: KitchenFormat) -> Outcome {
    let solved = solutions
        .iter()
        .filter(|s| matches!(s.answer.outcome, Solved::Solved { .. }))
        .count();
    let clean_count = solutions.iter().filter(|s| clean(s)).count();
    let seconds: f64 = solutions
        .iter()
        .map(|s| s.seconds)
        .fold(0.0, |total, s| total + s);
    let count = |wanted: &str| solutions.iter().filter(|s| status(s) == wanted).count();
    if format == KitchenFormat::Json {
        let document = json!({
            "version": JSON_VERSION,
            "diagnostics": report.json_diagnostics(),
            "tasks": solutions.iter().map(row).collect::<Vec<_>>(),
            "summary": {
                "tasks": solutions.len(),
                "solved": solved,
                "clean": clean_count,
                "unsolvable": count("unsolvable"),
                "unknown": count("unknown"),
                "total_seconds": seconds,
            },
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&document).unwrap_or_default()
        );
    } else {
        eprint!("{}", report.rendered());
        if solutions.len() > 1 {
            println!(
                "{} tasks: {solved} solved, {clean_count} running clean in strict mode, {} unsolvable, {} unknown; {seconds:.1} s in all",
                solutions.len(),
                count("unsolvable"),
                count("unknown")
            );
        }
    }
    let tasks = if clean_count == solutions.len() {
        Outcome::Clean
    } else {
        Outcome::InputErrors
    };
    // The convention (docs/cli.md): 2 for usage and unreadable inputs, 1 for faulty ones or a
    // task not solved clean.
    report.outcome().max(tasks)
}
