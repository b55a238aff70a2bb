//! One kitchen task solved end to end, as `kitchen solve` and Python's `kitchen.solve` do it:
//! the planning flavour's problem compiled, solved by the built-in planner, the plan translated
//! to Simmer's format and run in strict mode. A goal that says why no plan reaches it is
//! reported unsolvable for that reason, without a search.

use super::compile::{CompileOptions, Flavour, TaskGoal, from_pddl_plan, problem};
use super::data::simmer::Env;
use super::data::world::World;
use super::execute::{Failure, Mode, Outcome, run};
use super::report::Counts;
use crate::ast::Domain;
use crate::diagnostics::Diagnostic;
use crate::solve::{self as planner, Answer, Limit, Outcome as Solved, Statistics};
use serde::Serialize;
use std::time::Duration;

/// How to solve a kitchen task: the planner's limits, and the clock they are measured on.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveOptions {
    /// Give up (`unknown`) after this long, grounding included.
    pub time_limit: Option<Duration>,
    /// The clock `time_limit` is measured on (`solve::Options::clock`); `None`: wall time.
    pub clock: Option<fn() -> Duration>,
}

/// What became of one task.
#[derive(Clone, Debug)]
pub struct TaskSolution {
    /// The task's name, `"008"`.
    pub task: String,
    /// The planner's answer (a declared unsolvable task has one without a search).
    pub answer: Answer,
    /// The plan in Simmer's format, one step a line, when one was found.
    pub simmer_plan: Option<String>,
    /// The plan's run in strict mode.
    pub strict: Option<Outcome>,
    /// The goal file's own reason why no plan reaches the task (`unsolvable = "…"`, K410).
    pub declared: Option<String>,
}

/// Why a task could not be solved at all: the text the diagnostics point into.
#[derive(Clone, Debug)]
pub enum SolveError {
    /// The planner refuses the compiled problem (`S501`), or rejected its own plan (`S502`):
    /// the problem's PDDL text.
    Problem {
        text: String,
        diagnostics: Vec<Diagnostic>,
    },
    /// The plan found cannot be translated to Simmer's format (`K408`): the PDDL plan's text.
    Plan {
        text: String,
        diagnostics: Vec<Diagnostic>,
    },
}

/// Solves task `task` (its environment and goal) in `world`, whose planning flavour's domain is
/// `domain` (`compile_domain(world, Flavour::Planning)`, compiled once for many tasks).
pub fn solve_task(
    world: &World,
    domain: &Domain,
    env: &Env,
    goal: &TaskGoal,
    task: &str,
    options: &SolveOptions,
) -> Result<TaskSolution, SolveError> {
    if let Some(reason) = &goal.unsolvable {
        return Ok(declared_unsolvable(task, reason.get_ref()));
    }
    let compile = CompileOptions {
        flavour: Flavour::Planning,
        ..CompileOptions::default()
    };
    let problem = problem(world, env, Some(goal), &format!("task-{task}"), &compile);
    let solve_options = planner::Options {
        time_limit: options.time_limit,
        clock: options.clock,
        ..planner::Options::default()
    };
    let answer =
        planner::solve(domain, &problem, &solve_options, &mut |_| {}).map_err(|diagnostics| {
            SolveError::Problem {
                text: crate::fmt::problem(&problem),
                diagnostics,
            }
        })?;
    let (simmer_plan, strict) = match &answer.outcome {
        Solved::Solved { plan, cost } => {
            let text = planner::plan_text(plan, *cost, answer.action_costs);
            let simmer = from_pddl_plan(world, env, &text)
                .map_err(|diagnostics| SolveError::Plan { text, diagnostics })?;
            let outcome = run(world, env, &simmer, Mode::Strict);
            (Some(simmer), Some(outcome))
        }
        _ => (None, None),
    };
    Ok(TaskSolution {
        task: task.to_string(),
        answer,
        simmer_plan,
        strict,
        declared: None,
    })
}

/// A task whose goal file says why no plan reaches it: unsolvable for that reason, with no
/// search run (the goal file may not even state a goal, as 023's does not).
fn declared_unsolvable(task: &str, reason: &str) -> TaskSolution {
    TaskSolution {
        task: task.to_string(),
        answer: Answer {
            outcome: Solved::Unsolvable(planner::Unsolvable::GoalUnreachable { atoms: Vec::new() }),
            action_costs: false,
            statistics: Statistics::default(),
            warnings: Vec::new(),
        },
        simmer_plan: None,
        strict: None,
        declared: Some(reason.to_string()),
    }
}

impl TaskSolution {
    /// `solved`, `unsolvable` or `unknown`.
    pub fn status(&self) -> &'static str {
        planner::status(&self.answer.outcome)
    }

    /// Whether the task was solved and its plan ran without a failure in strict mode.
    pub fn clean(&self) -> bool {
        self.strict
            .as_ref()
            .is_some_and(|outcome| outcome.failures.is_empty())
    }

    /// The plan's steps in Simmer's format, when one was found.
    pub fn simmer_steps(&self) -> Option<Vec<&str>> {
        self.simmer_plan
            .as_ref()
            .map(|text| text.lines().filter(|l| !l.trim().is_empty()).collect())
    }

    /// The plan's steps in the compiled domain's PDDL, `(action args)`, when one was found.
    pub fn pddl_plan(&self) -> Option<&[String]> {
        match &self.answer.outcome {
            Solved::Solved { plan, .. } => Some(plan),
            _ => None,
        }
    }

    /// Why the task has no plan: the goal file's reason, or the planner's proof in words.
    pub fn reason(&self) -> Option<String> {
        match (&self.answer.outcome, &self.declared) {
            (_, Some(reason)) => Some(format!("as its goal file says: {reason}")),
            (Solved::Unsolvable(why), None) => Some(why.to_string()),
            _ => None,
        }
    }

    /// Which limit ended the search, when the answer is unknown.
    pub fn limit(&self) -> Option<&Limit> {
        match &self.answer.outcome {
            Solved::Unknown(limit) => Some(limit),
            _ => None,
        }
    }

    /// The task's row of `kitchen solve --format json`; `total_seconds` is the time the caller
    /// measured around [`solve_task`], when it did.
    pub fn row(&self, total_seconds: Option<f64>) -> SolutionRow<'_> {
        SolutionRow {
            task: &self.task,
            status: self.status(),
            plan: self.simmer_steps(),
            pddl_plan: self.pddl_plan(),
            strict: self.strict.as_ref().map(|outcome| StrictRow {
                failures: &outcome.failures,
                counts: outcome.counts(),
            }),
            clean: self.clean(),
            reason: self.reason(),
            limit: self.limit(),
            statistics: SolutionStatistics {
                statistics: &self.answer.statistics,
                total_seconds,
            },
        }
    }
}

/// One task's row of `kitchen solve --format json` (a contract, docs/kitchen.md).
#[derive(Debug, Serialize)]
pub struct SolutionRow<'a> {
    pub task: &'a str,
    pub status: &'static str,
    /// The Simmer plan's steps.
    pub plan: Option<Vec<&'a str>>,
    pub pddl_plan: Option<&'a [String]>,
    pub strict: Option<StrictRow<'a>>,
    pub clean: bool,
    pub reason: Option<String>,
    pub limit: Option<&'a Limit>,
    pub statistics: SolutionStatistics<'a>,
}

/// Strict mode's verdict on the plan found.
#[derive(Debug, Serialize)]
pub struct StrictRow<'a> {
    pub failures: &'a [Failure],
    pub counts: Counts,
}

/// The planner's statistics and the time the whole task took, when the caller measured it.
#[derive(Debug, Serialize)]
pub struct SolutionStatistics<'a> {
    #[serde(flatten)]
    pub statistics: &'a Statistics,
    pub total_seconds: Option<f64>,
}
