//! The planner: grounds a classical task and searches it for a plan, or proves there is none.
//!
//! `solve::solve` grounds the task by relaxed reachability (`ground`), folds its constants and
//! prunes what the goal does not depend on (`simplify`), then runs greedy best-first search with
//! h^FF, the landmark count and preferred operators, a portfolio of two configurations
//! (`search::greedy`), or A* with LM-cut for an optimal plan. Every plan is checked by
//! `validate::validate` before it is returned. The answer is one of three, never confused: solved
//! (with the plan), unsolvable (with the reason: goal atoms no relaxed plan reaches, or every
//! reachable state visited), unknown (a limit reached).
//!
//! No I/O and no printing: limits come in through [`Options`], progress goes out through a
//! callback, and what cannot be planned for is a diagnostic (`S501`).

mod explore;
pub(crate) mod formula;
mod greedy;
mod ground;
mod heuristic;
mod landmarks;
mod row;
mod search;
mod session;
mod simplify;
mod support;
mod task;

use crate::ast::{Domain, Problem};
use crate::diagnostics::{Code, Diagnostic, FileId};
use crate::validate::{TaskFiles, ValidateOptions};
pub use row::{Reason, SolveRow, StatisticsRow, status};
use search::Ending;
pub use session::Session;
use std::time::{Duration, Instant};

/// How to solve.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Stop with `unknown` after this long (grounding included).
    pub time_limit: Option<Duration>,
    /// Stop with `unknown` once the planner's own tables (states, open lists, operators) are
    /// estimated to take this many bytes.
    pub memory_limit: Option<usize>,
    /// A* with LM-cut: a plan of least cost, or none.
    pub optimal: bool,
    /// Which inputs the diagnostics' labels point into.
    pub files: TaskFiles,
    /// A plan prefix (IPC plan text): plan from the state it reaches. The plan returned is the
    /// continuation; the prefix followed by it is what is validated.
    pub prefix: Option<String>,
    /// The clock `time_limit` is measured on: a function returning a time that only grows,
    /// such as the process's CPU time, which the CLI passes so that a loaded machine does not
    /// shorten the search (as Fast Downward's `--overall-time-limit` counts CPU time). `None`:
    /// wall time.
    pub clock: Option<fn() -> Duration>,
}

/// The limits of one run.
pub struct Budget {
    deadline: Option<Deadline>,
    memory: Option<usize>,
}

/// When the time is up: a wall-clock instant, or a reading of the caller's clock. Functional
/// scoring (`score::functional`) keeps its time limit the same way.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Deadline {
    Wall(Instant),
    Clock(fn() -> Duration, Duration),
}

impl Deadline {
    /// The moment `limit` from now on `clock` (wall time when `None`).
    pub(crate) fn after(limit: Duration, clock: Option<fn() -> Duration>) -> Deadline {
        match clock {
            None => Deadline::Wall(Instant::now() + limit),
            Some(clock) => Deadline::Clock(clock, clock().saturating_add(limit)),
        }
    }

    pub(crate) fn passed(&self) -> bool {
        match *self {
            Deadline::Wall(instant) => Instant::now() >= instant,
            Deadline::Clock(clock, end) => clock() >= end,
        }
    }
}

impl Budget {
    /// Whether the time is up or `bytes` exceeds the memory limit.
    pub fn expired(&self, bytes: usize) -> bool {
        self.memory.is_some_and(|m| bytes > m) || self.out_of_time()
    }

    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| d.passed())
    }
}

/// What the search has done so far, for a progress line.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Progress {
    pub expanded: u64,
    pub evaluated: u64,
    pub best_h: Option<u64>,
}

/// The counts and times of a run.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Statistics {
    pub atoms: usize,
    pub operators: usize,
    pub axioms: usize,
    pub expanded: u64,
    pub generated: u64,
    pub evaluated: u64,
    /// The best heuristic value met (the start state's for `unsolvable` from the start).
    pub best_h: Option<u64>,
    pub grounding_seconds: f64,
    pub search_seconds: f64,
}

impl From<&Statistics> for Progress {
    fn from(s: &Statistics) -> Progress {
        Progress {
            expanded: s.expanded,
            evaluated: s.evaluated,
            best_h: s.best_h,
        }
    }
}

/// Why a task has no plan.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Unsolvable {
    /// Goal atoms that no plan reaches even when deletes and negative conditions are ignored.
    GoalUnreachable { atoms: Vec<String> },
    /// Every state reachable from the start was visited; none satisfies the goal.
    Exhausted { states: usize },
}

impl std::fmt::Display for Unsolvable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsolvable::GoalUnreachable { atoms } if atoms.is_empty() => {
                f.write_str("the goal is unreachable in the delete relaxation")
            }
            Unsolvable::GoalUnreachable { atoms } => write!(
                f,
                "unreachable in the delete relaxation: {}",
                atoms.join(", ")
            ),
            Unsolvable::Exhausted { states } => write!(
                f,
                "the reachable state space is exhausted ({states} states) without reaching the goal"
            ),
        }
    }
}

/// Which limit stopped the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    Time,
    Memory,
}

/// The answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A plan, validated: its steps as `(action args)` and its cost (the number of steps when
    /// the task has no action costs).
    Solved {
        plan: Vec<String>,
        cost: u64,
    },
    Unsolvable(Unsolvable),
    Unknown(Limit),
}

/// An outcome with the statistics of the run.
#[derive(Clone, Debug)]
pub struct Answer {
    pub outcome: Outcome,
    /// Whether costs are the actions' own (`(:metric minimize (total-cost))`), else unit.
    pub action_costs: bool,
    pub statistics: Statistics,
    /// What the answer rests on that the user should know: action instances left out
    /// because applying them is an error (`S503`).
    pub warnings: Vec<Diagnostic>,
}

/// Solves `problem` in `domain`. Errors: diagnostics for a task the planner does not handle
/// (`S501`), and `S502` if a plan found fails validation (a bug, never a wrong answer).
pub fn solve(
    domain: &Domain,
    problem: &Problem,
    options: &Options,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Answer, Vec<Diagnostic>> {
    crate::parse::with_stack(|| run(domain, problem, options, progress))
}

fn run(
    domain: &Domain,
    problem: &Problem,
    options: &Options,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Answer, Vec<Diagnostic>> {
    let started = Instant::now();
    let budget = Budget {
        deadline: options
            .time_limit
            .map(|limit| Deadline::after(limit, options.clock)),
        memory: options.memory_limit,
    };
    let files = options.files;
    let unsupported = support::unsupported(domain, problem, files.domain, files.problem);
    if !unsupported.is_empty() {
        return Err(unsupported);
    }
    check_prefix(domain, problem, options)?;
    let mut statistics = Statistics::default();
    let limit = |budget: &Budget| {
        if budget.out_of_time() {
            Limit::Time
        } else {
            Limit::Memory
        }
    };
    let grounded = match ground::ground(domain, problem, files.problem, &budget) {
        Ok(grounded) => grounded,
        Err(ground::GroundFailure::Invalid(diagnostic)) => return Err(vec![diagnostic]),
        Err(ground::GroundFailure::Limit) => {
            statistics.grounding_seconds = started.elapsed().as_secs_f64();
            return Ok(Answer {
                outcome: Outcome::Unknown(limit(&budget)),
                action_costs: false,
                statistics,
                warnings: Vec::new(),
            });
        }
    };
    let mut task = grounded.task;
    statistics.atoms = task.atoms.len();
    statistics.operators = task.operators.len();
    statistics.axioms = task.strata.iter().map(Vec::len).sum();
    statistics.grounding_seconds = started.elapsed().as_secs_f64();
    let action_costs = task.action_costs;
    let warnings = never_applicable_warnings(&grounded.never_applicable, files.domain);
    let answer = |outcome, statistics| {
        Ok(Answer {
            outcome,
            action_costs,
            statistics,
            warnings,
        })
    };
    if grounded.goal_false {
        return answer(
            Outcome::Unsolvable(Unsolvable::GoalUnreachable {
                atoms: grounded.unreachable_goal,
            }),
            statistics,
        );
    }
    let (start, prefix) = match &options.prefix {
        None => (task.init.clone(), Vec::new()),
        Some(text) => replay(&task, text)?,
    };
    // After the prefix is replayed: its steps may be ones the goal does not need.
    simplify::prune_irrelevant(&mut task);
    task.reindex();
    let searching = Instant::now();
    let from = start.clone();
    let ending = if options.optimal {
        search::astar(&task, start, &budget, &mut statistics, progress)
    } else {
        search::greedy(&task, start, &budget, &mut statistics, progress)
    };
    statistics.search_seconds = searching.elapsed().as_secs_f64();
    let outcome = match ending {
        Ending::Plan(ops) => {
            let (plan, cost) = plan_and_cost(&task, &ops);
            let whole: Vec<String> = prefix.iter().chain(&plan).cloned().collect();
            check_plan(domain, problem, &whole, options)?;
            Outcome::Solved { plan, cost }
        }
        Ending::Exhausted => Outcome::Unsolvable(Unsolvable::Exhausted {
            states: statistics.evaluated as usize,
        }),
        Ending::DeadStart => Outcome::Unsolvable(Unsolvable::GoalUnreachable {
            atoms: unreachable_goal(&task, &from),
        }),
        Ending::Limit => Outcome::Unknown(limit(&budget)),
    };
    answer(outcome, statistics)
}

/// One `S503` warning per action with instances left out of the ground task, labelled on its
/// cost effect in the domain.
fn never_applicable_warnings(
    list: &[ground::NeverApplicable],
    domain_file: FileId,
) -> Vec<Diagnostic> {
    list.iter()
        .map(|left_out| {
            let (count, its, them) = match left_out.instances {
                1 => ("1 instance".to_string(), "its", "it"),
                n => (format!("{n} instances"), "their", "them"),
            };
            Diagnostic::new(
                Code::SolveNeverApplicable,
                format!(
                    "{count} of `{}` can never be applied: {its} cost has no value (`{}` reads \
                     `{}`, which `:init` does not set), and the validator rejects such a step \
                     (V309); no plan uses {them}",
                    left_out.action, left_out.example, left_out.fluent
                ),
                left_out.span,
            )
            .in_file(domain_file)
            .with_help(format!(
                "give the cost a value in the problem's `:init`, e.g. `(= {} 1)`, if these steps \
                 are meant to be possible",
                left_out.fluent
            ))
        })
        .collect()
}

/// Checks that the prefix to extend runs: the validator says where it fails, labelled in the
/// plan file.
fn check_prefix(
    domain: &Domain,
    problem: &Problem,
    options: &Options,
) -> Result<(), Vec<Diagnostic>> {
    let Some(prefix) = &options.prefix else {
        return Ok(());
    };
    let validate = ValidateOptions {
        files: options.files,
        ..ValidateOptions::default()
    };
    let report = crate::validate::validate(domain, problem, prefix, &validate);
    if report.has_step_failures() || report.valid.is_none() {
        return Err(report.diagnostics().cloned().collect());
    }
    Ok(())
}

/// A plan's step names and its cost: the sum of its operators' costs under action costs, else
/// its length.
fn plan_and_cost(task: &task::GroundTask, ops: &[u32]) -> (Vec<String>, u64) {
    let plan: Vec<String> = ops
        .iter()
        .filter_map(|&op| task.operators.get(op as usize).map(|o| o.name.clone()))
        .collect();
    let cost = if task.action_costs {
        ops.iter()
            .filter_map(|&op| task.operators.get(op as usize).map(|o| o.cost))
            .sum()
    } else {
        plan.len() as u64
    };
    (plan, cost)
}

/// The goal atoms the delete relaxation (h^max) cannot reach from `start` (the initial state,
/// or the state a prefix reaches), for a start state the search found dead.
fn unreachable_goal(task: &task::GroundTask, start: &task::Bits) -> Vec<String> {
    let mut relaxed = heuristic::Relaxed::new(task, heuristic::Kind::Max);
    relaxed.evaluate(start, None);
    let mut atoms: Vec<u32> = Vec::new();
    for conjunction in &task.goal {
        atoms.extend(&conjunction.positive);
    }
    relaxed
        .unreachable(&atoms)
        .iter()
        .filter_map(|&a| task.atoms.get(a as usize).cloned())
        .collect()
}

/// A next action and how close the state it leads to is to the goal.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Ranked {
    /// `(action args)`.
    pub action: String,
    /// h^FF of the successor (unit costs; 0 at a goal state), `None` for a dead end: no plan
    /// reaches the goal from it even when deletes are ignored.
    pub h: Option<u64>,
}

/// The `k` actions applicable after `prefix` (the initial state for an empty one) whose
/// successors are closest to the goal by h^FF, closest first (ties by name), dead ends last:
/// action proposal. A prefix that cannot run is the validator's diagnostics; a task the planner
/// does not handle is `S501`.
pub fn rank(
    domain: &Domain,
    problem: &Problem,
    prefix: &str,
    k: usize,
    files: TaskFiles,
) -> Result<Vec<Ranked>, Vec<Diagnostic>> {
    crate::parse::with_stack(|| {
        let unsupported = support::unsupported(domain, problem, files.domain, files.problem);
        if !unsupported.is_empty() {
            return Err(unsupported);
        }
        let validate = ValidateOptions {
            files,
            ..ValidateOptions::default()
        };
        let report = crate::validate::validate(domain, problem, prefix, &validate);
        if report.has_step_failures() || report.valid.is_none() {
            return Err(report.diagnostics().cloned().collect());
        }
        let unlimited = Budget {
            deadline: None,
            memory: None,
        };
        let task = match ground::ground(domain, problem, files.problem, &unlimited) {
            Ok(grounded) => grounded.task,
            Err(ground::GroundFailure::Invalid(diagnostic)) => return Err(vec![diagnostic]),
            Err(ground::GroundFailure::Limit) => return Ok(Vec::new()),
        };
        let (state, _) = replay(&task, prefix)?;
        let mut relaxed = heuristic::Relaxed::new(&task, heuristic::Kind::FastForward);
        let mut applicable = Vec::new();
        task.applicable(&state, &mut applicable);
        let mut ranked: Vec<Ranked> = Vec::new();
        for op in applicable {
            let Some(operator) = task.operators.get(op as usize) else {
                continue;
            };
            let next = task.successor(&state, op);
            let h = if task.is_goal(&next) {
                Some(0)
            } else {
                Some(relaxed.evaluate(&next, None)).filter(|&h| h != heuristic::INFINITE)
            };
            // Operators of one action (one per disjunct of its precondition) count once.
            match ranked.iter_mut().find(|r| r.action == operator.name) {
                Some(known) => {
                    known.h = match (known.h, h) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    }
                }
                None => ranked.push(Ranked {
                    action: operator.name.clone(),
                    h,
                }),
            }
        }
        ranked
            .sort_by(|a, b| (a.h.is_none(), a.h, &a.action).cmp(&(b.h.is_none(), b.h, &b.action)));
        ranked.truncate(k);
        Ok(ranked)
    })
}

/// The state a plan prefix reaches in the ground task, and its steps as `(action args)`. The
/// validator has run the prefix already, so a step with no applicable ground operator is a
/// grounding bug (`S502`).
fn replay(
    task: &task::GroundTask,
    text: &str,
) -> Result<(task::Bits, Vec<String>), Vec<Diagnostic>> {
    let mut by_name: std::collections::HashMap<&str, Vec<u32>> = std::collections::HashMap::new();
    for (i, op) in task.operators.iter().enumerate() {
        by_name.entry(op.name.as_str()).or_default().push(i as u32);
    }
    let (steps, _) = crate::validate::text::parse(text);
    let mut state = task.init.clone();
    let mut names = Vec::new();
    for step in steps {
        let name = step.text();
        let op = by_name.get(name.as_str()).and_then(|ops| {
            ops.iter().copied().find(|&op| {
                task.operators
                    .get(op as usize)
                    .is_some_and(|o| o.precondition.holds(&state))
            })
        });
        let Some(op) = op else {
            return Err(vec![Diagnostic::unlocated(
                Code::SolvePlanRejected,
                format!("step {} of the prefix, `{name}`, runs in the validator but has no applicable ground operator", step.line),
            )
            .with_help("this is a bug in pddlc's planner; please report it with the task")]);
        };
        state = task.successor(&state, op);
        names.push(name);
    }
    Ok((state, names))
}

/// The plan as IPC plan text: one `(action args)` a line, then `; cost = N`.
pub fn plan_text(plan: &[String], cost: u64, action_costs: bool) -> String {
    let mut out = String::new();
    for step in plan {
        out.push_str(step);
        out.push('\n');
    }
    let kind = if action_costs { "general" } else { "unit" };
    out.push_str(&format!("; cost = {cost} ({kind} cost)\n"));
    out
}

/// Runs the plan through the validator; a rejection is `S502`, with the validator's reasons.
fn check_plan(
    domain: &Domain,
    problem: &Problem,
    plan: &[String],
    options: &Options,
) -> Result<(), Vec<Diagnostic>> {
    let text = plan_text(plan, 0, false);
    let validate = ValidateOptions {
        files: options.files,
        ..ValidateOptions::default()
    };
    let report = crate::validate::validate(domain, problem, &text, &validate);
    if report.valid == Some(true) {
        return Ok(());
    }
    let reasons: Vec<String> = report.diagnostics().map(|d| d.message.clone()).collect();
    Err(vec![
        Diagnostic::unlocated(
            Code::SolvePlanRejected,
            format!(
                "the plan found ({} steps) is rejected by the validator: {}",
                plan.len(),
                reasons.join("; ")
            ),
        )
        .with_help("this is a bug in pddlc's planner; please report it with the task"),
    ])
}
