//! A task grounded once and searched from many states: the states a plan's prefixes reach, as
//! `worldmodel make` asks of the planner (a dead end after each candidate action, the optimal
//! cost after each successor). [`solve`](super::solve) grounds for every question; on a kitchen
//! task grounding is a fifth of a search, and `make` asks dozens of them.

use super::search::{self, Ending};
use super::{
    Answer, Budget, Deadline, Limit, Options, Outcome, Statistics, Unsolvable, check_plan, ground,
    plan_and_cost, replay, simplify, support, unreachable_goal,
};
use crate::ast::{Domain, Problem};
use crate::diagnostics::Diagnostic;
use std::time::{Duration, Instant};

/// The grounded task, ready to be searched from the end of any valid prefix.
pub struct Session<'t> {
    domain: &'t Domain,
    problem: &'t Problem,
    options: Options,
    /// `None` when grounding ran out of its budget: every search is then unknown.
    grounded: Option<ground::Grounded>,
}

impl<'t> Session<'t> {
    /// Grounds `problem` in `domain` within `options`' limits. Errors: what `solve` reports for
    /// a task the planner does not handle (`S501`).
    pub fn new(
        domain: &'t Domain,
        problem: &'t Problem,
        options: &Options,
    ) -> Result<Session<'t>, Vec<Diagnostic>> {
        crate::parse::with_stack(|| {
            let files = options.files;
            let unsupported = support::unsupported(domain, problem, files.domain, files.problem);
            if !unsupported.is_empty() {
                return Err(unsupported);
            }
            let budget = Budget {
                deadline: options
                    .time_limit
                    .map(|limit| Deadline::after(limit, options.clock)),
                memory: options.memory_limit,
            };
            let grounded = match ground::ground(domain, problem, files.problem, &budget) {
                Ok(grounded) => Some(grounded),
                Err(ground::GroundFailure::Invalid(diagnostic)) => return Err(vec![diagnostic]),
                Err(ground::GroundFailure::Limit) => None,
            };
            Ok(Session {
                domain,
                problem,
                options: options.clone(),
                grounded,
            })
        })
    }

    /// A plan from the state `prefix` reaches (the prefix must run: it is a plan's), optimal or
    /// not, searched for at most `limit` on the session's clock. The answer is `solve`'s with
    /// `prefix` as its option, without grounding again. `check`: the plan found is validated
    /// with the prefix, as `solve` does (`S502` if the validator rejects it); a caller that
    /// asks only whether a plan exists (a dead end) can leave the validation out, which on a
    /// task with many derived predicates is most of the time.
    pub fn search(
        &self,
        prefix: &[String],
        optimal: bool,
        limit: Duration,
        check: bool,
    ) -> Result<Answer, Vec<Diagnostic>> {
        crate::parse::with_stack(|| self.run(prefix, optimal, limit, check))
    }

    fn run(
        &self,
        prefix: &[String],
        optimal: bool,
        limit: Duration,
        check: bool,
    ) -> Result<Answer, Vec<Diagnostic>> {
        let mut statistics = Statistics::default();
        let Some(grounded) = &self.grounded else {
            return Ok(Answer {
                outcome: Outcome::Unknown(Limit::Time),
                action_costs: false,
                statistics,
                warnings: Vec::new(),
            });
        };
        let action_costs = grounded.task.action_costs;
        let warnings =
            super::never_applicable_warnings(&grounded.never_applicable, self.options.files.domain);
        let answer = |outcome, statistics| {
            Ok(Answer {
                outcome,
                action_costs,
                statistics,
                warnings,
            })
        };
        if grounded.goal_false {
            let atoms = grounded.unreachable_goal.clone();
            return answer(
                Outcome::Unsolvable(Unsolvable::GoalUnreachable { atoms }),
                statistics,
            );
        }
        let budget = Budget {
            deadline: Some(Deadline::after(limit, self.options.clock)),
            memory: self.options.memory_limit,
        };
        let (start, names) = replay(&grounded.task, &prefix.join("\n"))?;
        let mut task = grounded.task.clone();
        simplify::prune_irrelevant(&mut task);
        task.reindex();
        let searching = Instant::now();
        let from = start.clone();
        let ending = if optimal {
            search::astar(&task, start, &budget, &mut statistics, &mut |_| {})
        } else {
            search::greedy(&task, start, &budget, &mut statistics, &mut |_| {})
        };
        statistics.search_seconds = searching.elapsed().as_secs_f64();
        let outcome = match ending {
            Ending::Plan(ops) => {
                let (plan, cost) = plan_and_cost(&task, &ops);
                if check {
                    let whole: Vec<String> = names.iter().chain(&plan).cloned().collect();
                    check_plan(self.domain, self.problem, &whole, &self.options)?;
                }
                Outcome::Solved { plan, cost }
            }
            Ending::Exhausted => Outcome::Unsolvable(Unsolvable::Exhausted {
                states: statistics.evaluated as usize,
            }),
            Ending::DeadStart => Outcome::Unsolvable(Unsolvable::GoalUnreachable {
                atoms: unreachable_goal(&task, &from),
            }),
            Ending::Limit if budget.out_of_time() => Outcome::Unknown(Limit::Time),
            Ending::Limit => Outcome::Unknown(Limit::Memory),
        };
        answer(outcome, statistics)
    }
}
