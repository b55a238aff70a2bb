//! PDDL3: trajectory constraints judged on the plan's state trajectory, and preferences counted
//! for `is-violated`. The trajectory is the initial state at time 0, then the state after each
//! happening at its time; a state holds from its time until the next one (the last one for
//! ever after). Hard constraints that fail make the plan invalid (V314); a preference that
//! fails counts once per violated instance (each binding of an enclosing `forall`, each
//! application of an action whose precondition holds it), as VAL counts them.

use super::{Failure, Report, TaskFiles};
use crate::ast::{Gd, GdKind, ModalOp, TimeSpec};
use crate::diagnostics::{Code, Diagnostic};
use crate::semantics::{Binding, Eval, EvalError, State, World};
use std::collections::HashMap;

/// The states a plan passes through, with the time each begins.
#[derive(Default)]
pub(super) struct Trajectory {
    pub times: Vec<f64>,
    pub states: Vec<State>,
}

impl Trajectory {
    pub fn push(&mut self, time: f64, state: &State) {
        self.times.push(time);
        self.states.push(state.clone());
    }
}

/// Violations per preference name.
pub(super) type Violations = HashMap<String, usize>;

/// Whether the task has anything this module judges.
pub(super) fn needed(domain: &crate::ast::Domain, problem: &crate::ast::Problem) -> bool {
    domain.constraints.is_some() || problem.constraints.is_some()
}

/// Counts the preferences of a condition that just held (a precondition, or the goal at the
/// end) whose body is false in `state`.
pub(super) fn count_preferences(
    world: &World,
    gd: &Gd,
    binding: &mut Binding,
    state: &State,
    counts: &mut Violations,
) -> Eval<()> {
    match &gd.kind {
        GdKind::And { args } => {
            for a in args {
                count_preferences(world, a, binding, state, counts)?;
            }
        }
        GdKind::Forall { variables, body } => {
            world.each_binding(variables, binding, &mut |b| {
                count_preferences(world, body, b, state, counts)?;
                Ok(false)
            })?;
        }
        GdKind::Preference { name, body } if !world.holds(body, binding, state)? => {
            *counts.entry(preference_key(name)).or_default() += 1;
        }
        GdKind::Timed { body, .. } => count_preferences(world, body, binding, state, counts)?,
        _ => {}
    }
    Ok(())
}

/// Whether a condition has a preference in it.
pub(super) fn has_preference(gd: &Gd) -> bool {
    match &gd.kind {
        GdKind::Preference { .. } => true,
        GdKind::And { args } | GdKind::Or { args } | GdKind::Modal { args, .. } => {
            args.iter().any(has_preference)
        }
        GdKind::Not { arg } => has_preference(arg),
        GdKind::Imply {
            condition,
            consequence,
        } => has_preference(condition) || has_preference(consequence),
        GdKind::Exists { body, .. } | GdKind::Forall { body, .. } | GdKind::Timed { body, .. } => {
            has_preference(body)
        }
        GdKind::Atom(_) | GdKind::Compare { .. } => false,
    }
}

fn preference_key(name: &Option<crate::ast::Name>) -> String {
    name.as_ref().map(|n| n.key()).unwrap_or_default()
}

/// Judges the domain's and the problem's constraints on `trajectory`: a failed hard
/// constraint is a V314 failure, a failed preference a count in `counts`.
pub(super) fn judge(
    world: &World,
    domain: &crate::ast::Domain,
    problem: &crate::ast::Problem,
    trajectory: &Trajectory,
    files: TaskFiles,
    report: &mut Report,
    counts: &mut Violations,
) {
    let sources = [
        (domain.constraints.as_ref(), files.domain),
        (problem.constraints.as_ref(), files.problem),
    ];
    for (constraints, file) in sources {
        let Some(gd) = constraints else { continue };
        let mut judge = Judge {
            world,
            trajectory,
            counts: &mut *counts,
            failures: Vec::new(),
        };
        if let Err(e) = judge.constraint(gd, &mut Binding::default()) {
            report.fail(Failure::new(
                None,
                Vec::new(),
                Diagnostic::new(
                    Code::EvaluationFailed,
                    format!("the trajectory constraints cannot be evaluated: {e}"),
                    gd.span,
                )
                .in_file(file),
            ));
            continue;
        }
        for (shown, when, span) in judge.failures {
            report.fail(Failure::new(
                None,
                vec![shown.clone()],
                Diagnostic::new(
                    Code::ConstraintViolated,
                    format!("the plan's trajectory breaks the constraint {shown}{when}"),
                    span,
                )
                .in_file(file)
                .with_primary_message("violated by the plan")
                .with_help(
                    "change the plan so that its states satisfy the constraint, or make it a \
                     preference if it may be violated at a cost",
                ),
            ));
        }
    }
}

struct Judge<'j, 'w> {
    world: &'j World<'w>,
    trajectory: &'j Trajectory,
    counts: &'j mut Violations,
    /// Hard constraints that fail, as written ground, with when they failed and their spans.
    failures: Vec<(String, String, crate::ast::Span)>,
}

impl Judge<'_, '_> {
    /// A constraint at the top: conjunctions and universal quantifiers distribute, preferences
    /// are soft.
    fn constraint(&mut self, gd: &Gd, binding: &mut Binding) -> Eval<()> {
        match &gd.kind {
            GdKind::And { args } => {
                for a in args {
                    self.constraint(a, binding)?;
                }
            }
            GdKind::Forall { variables, body } => {
                let world = self.world;
                let mut error = None;
                world.each_binding(variables, binding, &mut |b| {
                    if let Err(e) = self.constraint(body, b) {
                        error = Some(e);
                        return Ok(true);
                    }
                    Ok(false)
                })?;
                if let Some(e) = error {
                    return Err(e);
                }
            }
            GdKind::Preference { name, body } => {
                if !self.satisfied(body, binding)? {
                    *self.counts.entry(preference_key(name)).or_default() += 1;
                }
            }
            _ => {
                if !self.satisfied(gd, binding)? {
                    let shown = self.world.show_gd(gd, binding);
                    let mut when = String::new();
                    // For `always`, the first state that breaks it.
                    if let GdKind::Modal {
                        op: ModalOp::Always,
                        args,
                        ..
                    } = &gd.kind
                        && let Some(inner) = args.first()
                        && let Some(i) = self.each(inner, binding)?.iter().position(|h| !h)
                    {
                        let time = self.trajectory.times.get(i).copied().unwrap_or(0.0);
                        when = format!(
                            " (its condition is false from time {})",
                            super::temporal::show_time(time)
                        );
                    }
                    self.failures.push((shown, when, gd.span));
                }
            }
        }
        Ok(())
    }

    /// Whether `gd` holds in each state of the trajectory.
    fn each(&self, gd: &Gd, binding: &mut Binding) -> Eval<Vec<bool>> {
        self.trajectory
            .states
            .iter()
            .map(|s| self.world.holds(gd, binding, s))
            .collect()
    }

    /// Whether a trajectory constraint holds on the trajectory.
    fn satisfied(&self, gd: &Gd, binding: &mut Binding) -> Eval<bool> {
        let times = &self.trajectory.times;
        let last = self.trajectory.states.len().saturating_sub(1);
        // The time the state `i` stops holding; the last one holds for ever.
        let until = |i: usize| times.get(i + 1).copied().unwrap_or(f64::INFINITY);
        let time = |i: usize| times.get(i).copied().unwrap_or(0.0);
        match &gd.kind {
            GdKind::And { args } => {
                for a in args {
                    if !self.satisfied(a, binding)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            GdKind::Forall { variables, body } => {
                let broken = self
                    .world
                    .each_binding(variables, binding, &mut |b| Ok(!self.satisfied(body, b)?))?;
                Ok(!broken)
            }
            GdKind::Timed {
                time: TimeSpec::AtEnd,
                body,
            } => match self.trajectory.states.get(last) {
                Some(state) => self.world.holds(body, binding, state),
                None => Ok(false),
            },
            GdKind::Modal { op, numbers, args } => {
                let number = |k: usize| numbers.get(k).map_or(0.0, |n| n.value);
                let first = args.first().map(|a| self.each(a, binding)).transpose()?;
                let second = args.get(1).map(|a| self.each(a, binding)).transpose()?;
                let (Some(first), second) = (first, second) else {
                    return Err(EvalError::Unsupported(format!(
                        "`{}` without its condition",
                        op.keyword()
                    )));
                };
                let second = second.unwrap_or_default();
                let holds_at = |v: &[bool], i: usize| v.get(i).copied().unwrap_or(false);
                let n = first.len();
                Ok(match op {
                    ModalOp::Always => first.iter().all(|&h| h),
                    ModalOp::Sometime => first.iter().any(|&h| h),
                    ModalOp::Within => (0..n).any(|i| first[i] && time(i) <= number(0)),
                    ModalOp::AtMostOnce => {
                        (0..n)
                            .filter(|&i| first[i] && (i == 0 || !first[i - 1]))
                            .count()
                            <= 1
                    }
                    ModalOp::SometimeAfter => {
                        (0..n).all(|i| !first[i] || (i..n).any(|j| holds_at(&second, j)))
                    }
                    ModalOp::SometimeBefore => {
                        (0..n).all(|i| !first[i] || (0..i).any(|j| holds_at(&second, j)))
                    }
                    ModalOp::AlwaysWithin => (0..n).all(|i| {
                        !first[i]
                            || (i..n)
                                .any(|j| holds_at(&second, j) && time(j) - time(i) <= number(0))
                    }),
                    ModalOp::HoldDuring => (0..n)
                        .filter(|&i| time(i) < number(1) && until(i) > number(0))
                        .all(|i| first[i]),
                    ModalOp::HoldAfter => {
                        (0..n).filter(|&i| until(i) > number(0)).all(|i| first[i])
                    }
                })
            }
            _ => Err(EvalError::Unsupported(format!(
                "`{}` as a trajectory constraint",
                crate::fmt::gd_text(gd)
            ))),
        }
    }
}

/// What a run keeps for PDDL3: the trajectory, when there are constraints to judge on it, and
/// the preferences' violations, when the metric reads them.
pub(super) struct Pddl3 {
    judging: bool,
    counting: bool,
    trajectory: Trajectory,
    pub counts: Violations,
}

/// Whether a metric reads `(is-violated …)`.
pub(super) fn reads_violations(e: &crate::ast::Expr) -> bool {
    match &e.kind {
        crate::ast::ExprKind::IsViolated { .. } => true,
        crate::ast::ExprKind::Op { args, .. } | crate::ast::ExprKind::Call { args, .. } => {
            args.iter().any(reads_violations)
        }
        _ => false,
    }
}

impl Pddl3 {
    /// Starts with the initial state.
    pub fn new(domain: &crate::ast::Domain, problem: &crate::ast::Problem, state: &State) -> Pddl3 {
        let mut pddl3 = Pddl3 {
            judging: needed(domain, problem),
            counting: problem
                .metric
                .as_ref()
                .is_some_and(|m| reads_violations(&m.expr)),
            trajectory: Trajectory::default(),
            counts: Violations::new(),
        };
        pddl3.after(0.0, state);
        pddl3
    }

    /// The state after a happening at `time`.
    pub fn after(&mut self, time: f64, state: &State) {
        if self.judging {
            self.trajectory.push(time, state);
        }
    }

    /// A condition that held for a step: its preferences that do not are counted.
    pub fn condition(
        &mut self,
        world: &World,
        gd: Option<&Gd>,
        binding: &mut Binding,
        state: &State,
    ) -> Eval<()> {
        match gd {
            Some(gd) if self.counting => {
                count_preferences(world, gd, binding, state, &mut self.counts)
            }
            _ => Ok(()),
        }
    }

    /// After the goal: its preferences counted in the final state, the constraints judged.
    pub fn finish(
        &mut self,
        world: &World,
        domain: &crate::ast::Domain,
        problem: &crate::ast::Problem,
        state: &State,
        files: TaskFiles,
        report: &mut Report,
    ) {
        if let Some(goal) = &problem.goal
            && self.counting
        {
            let _ = count_preferences(
                world,
                goal,
                &mut Binding::default(),
                state,
                &mut self.counts,
            );
        }
        if self.judging {
            judge(
                world,
                domain,
                problem,
                &self.trajectory,
                files,
                report,
                &mut self.counts,
            );
        }
    }
}
