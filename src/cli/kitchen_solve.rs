//! `pddlc kitchen solve`: a kitchen task compiled to the planning flavour, solved by the built-in
//! planner, the plan translated back to Simmer's format and run in strict mode, in one process.
//!
//! Human format: a line per task (status, steps, strict mode's verdict, times) on stdout, with
//! the Simmer plan under it for one task and strict mode's failures under any task that has
//! them. JSON: one document with a row per task and a summary. Exit 0 when every task was solved
//! and its plan ran clean, 1 when one was not (unsolvable, unknown, or failures in strict mode)
//! or an input is faulty, 2 on usage errors and unreadable inputs.

use super::kitchen::{KitchenFormat, Report, count, load_world};
use super::kitchen_task::{EnvSources, GoalSources};
use super::{Format, Outcome};
use pddlc::diagnostics::render::JSON_VERSION;
use pddlc::kitchen::{self, Env, SolveError, SolveOptions, TaskSolution, World};
use pddlc::solve::Outcome as Solved;
use serde_json::json;
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

/// What became of one task, and the time it took.
struct Solution {
    solution: TaskSolution,
    seconds: f64,
}

/// `shown`: how diagnostics about the inputs are shown (`KitchenFormat::resolve`).
pub fn run(args: &SolveArgs, format: KitchenFormat, shown: Format, color: bool) -> Outcome {
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
    let mut report = Report::new(shown, color);
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
        if let Some(solution) = solve_task(&world, &domain, &env, &goal, task, args, &mut report) {
            if format == KitchenFormat::Human {
                print!("{}", human(&solution, tasks.len() == 1));
            }
            solutions.push(solution);
        }
    }
    finish(report, &solutions, format)
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
    // reported unsolvable for the goal file's reason (`kitchen::solve_task`).
    if let Some(diagnostic) = goal.goal.unsolvable_diagnostic() {
        report.add_one(goal.name, goal.text, vec![diagnostic]);
    }
    Some((env?, goal.goal))
}

/// Compiles, solves, translates and runs one task (`kitchen::solve_task`), timed; `None` after
/// diagnostics when the planner refuses the task or the plan cannot be translated.
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
    let options = SolveOptions {
        time_limit: Some(Duration::from_secs_f64(args.time_limit)),
        clock: Some(super::solve::cpu_time),
    };
    match kitchen::solve_task(world, domain, env, goal, task, &options) {
        Ok(solution) => Some(Solution {
            solution,
            seconds: started.elapsed().as_secs_f64(),
        }),
        Err(SolveError::Problem { text, diagnostics }) => {
            report.add_one(format!("{task}.pddl"), text, diagnostics);
            None
        }
        Err(SolveError::Plan { text, diagnostics }) => {
            report.add_one(format!("{task}.plan"), text, diagnostics);
            None
        }
    }
}

fn human(timed: &Solution, with_plan: bool) -> String {
    let solution = &timed.solution;
    let statistics = &solution.answer.statistics;
    let times = format!(
        "grounding {:.1} s, search {:.1} s, total {:.1} s",
        statistics.grounding_seconds, statistics.search_seconds, timed.seconds
    );
    let mut out = match (&solution.answer.outcome, &solution.strict) {
        (Solved::Solved { plan, .. }, Some(strict)) => {
            let verdict = if strict.failures.is_empty() {
                "runs clean in strict mode".to_string()
            } else {
                let failures = count(strict.failures.len(), "failure", "failures");
                format!("{failures} in strict mode")
            };
            format!(
                "{}: solved, {}, {verdict} ({times})\n",
                solution.task,
                count(plan.len(), "step", "steps")
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

/// The summary line or document, and the exit code: input errors outrank a task not solved
/// clean, which outranks success.
fn finish(report: Report, solutions: &[Solution], format: KitchenFormat) -> Outcome {
    let solved = solutions
        .iter()
        .filter(|s| matches!(s.solution.answer.outcome, Solved::Solved { .. }))
        .count();
    let clean_count = solutions.iter().filter(|s| s.solution.clean()).count();
    let seconds: f64 = solutions
        .iter()
        .map(|s| s.seconds)
        .fold(0.0, |total, s| total + s);
    let with_status = |wanted: &str| {
        solutions
            .iter()
            .filter(|s| s.solution.status() == wanted)
            .count()
    };
    if format == KitchenFormat::Json {
        let document = json!({
            "version": JSON_VERSION,
            "diagnostics": report.json_diagnostics(),
            "tasks": solutions
                .iter()
                .map(|s| s.solution.row(Some(s.seconds)))
                .collect::<Vec<_>>(),
            "summary": {
                "tasks": solutions.len(),
                "solved": solved,
                "clean": clean_count,
                "unsolvable": with_status("unsolvable"),
                "unknown": with_status("unknown"),
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
                "{}: {solved} solved, {clean_count} running clean in strict mode, {} unsolvable, {} unknown; {seconds:.1} s in all",
                count(solutions.len(), "task", "tasks"),
                with_status("unsolvable"),
                with_status("unknown")
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
