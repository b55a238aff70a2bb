//! A temporal run under continuous change: the happenings in order, the running steps' `#t`
//! effects and `over all` conditions handed to the simulator between them, and what stopped
//! it reported.

use super::super::Report;
use super::super::continuous::{self, Broken, Continuous, Invariant, Owner, Source};
use super::{Run, Snap, Step, show_time};
use crate::diagnostics::Code;
use crate::semantics::State;

/// Whether the simulation stopped at something it does not interpret (V310): no verdict.
pub(super) fn gave_up(report: &Report) -> bool {
    report
        .failures
        .iter()
        .any(|f| f.code() == Code::ValidateUnsupported)
}

impl<'r, 'a: 'r> Run<'r, 'a> {
    /// Lets time run from `from` to `to` under continuous change; false when something failed.
    pub(super) fn flow(
        &mut self,
        simulator: &mut Continuous<'a>,
        state: &mut State,
        from: f64,
        to: f64,
        report: &mut Report,
    ) -> bool {
        let mut sources = Vec::new();
        let constraints = simulator.constraints();
        let mut invariants: Vec<Invariant> = continuous::invariants(&constraints).collect();
        for &index in &self.active {
            let Some(parts) = self.parts(index) else {
                continue;
            };
            if let Some(effect) = &parts.continuous {
                let name = self.steps.get(index).map(Step::text).unwrap_or_default();
                let binding = self.binding(index);
                sources.push(Source {
                    name,
                    effect,
                    binding,
                });
            }
            if let Some(condition) = &parts.over_all {
                invariants.push(Invariant {
                    owner: Owner::Step(index),
                    condition,
                    binding: self.binding(index),
                });
            }
        }
        let result = simulator.advance(self.world, state, from, to, &sources, &invariants);
        match result {
            Ok(()) => true,
            Err(broken) => {
                self.broken(broken, report);
                false
            }
        }
    }

    /// Fires the events triggered at `time` and checks the state constraints there.
    pub(super) fn settle(
        &mut self,
        simulator: &mut Continuous<'a>,
        state: &mut State,
        time: f64,
        report: &mut Report,
    ) -> bool {
        match simulator.settle_and_check(self.world, state, time) {
            Ok(()) => true,
            Err(broken) => {
                self.broken(broken, report);
                false
            }
        }
    }

    /// Reports why the simulation stopped.
    pub(super) fn broken(&self, broken: Broken, report: &mut Report) {
        match broken {
            Broken::Invariant {
                owner: Owner::Step(index),
                from,
                to,
                unmet,
            } => report.fail(
                self.invariant_failure(index, from, to, unmet)
                    .at(Some("invariant"), from),
            ),
            Broken::Invariant {
                owner: Owner::Constraint(name, span),
                from,
                to,
                unmet,
            } => report.fail(continuous::constraint_failure(
                &name, span, from, to, unmet, self.files,
            )),
            Broken::Cascade { event, span, time } => {
                report.fail(continuous::cascade_failure(&event, span, time, self.files))
            }
            Broken::Unsupported(what) => report.no_verdict(what),
            Broken::Evaluation(crate::validate::EvalError::Unsupported(what), time) => report
                .no_verdict(format!(
                    "at time {}: {what} is not supported by `validate`",
                    show_time(time)
                )),
            Broken::Evaluation(error, time) => {
                report.fail(self.evaluation_failure(usize::MAX, "step", time, &error))
            }
        }
    }

    /// Continuous change, when the task has it (processes and events, `#t` effects of durative
    /// steps, the domain's state constraints, which must hold at every moment): its simulator,
    /// settled at time 0. `None` when the run stops there (the report says why).
    pub(super) fn start_flow(
        &mut self,
        domain: &'a crate::ast::Domain,
        state: &mut State,
        report: &mut Report,
    ) -> Option<Option<Continuous<'a>>> {
        let flowing = continuous::has_processes(domain)
            || self.parts.values().any(|p| p.continuous.is_some())
            || domain
                .structures
                .iter()
                .any(|s| matches!(s, crate::ast::Structure::Constraint(_)));
        if !flowing {
            return Some(None);
        }
        let (ok, simulator) = match Continuous::new(domain, self.world) {
            Ok(mut simulator) => {
                let ok = self.settle(&mut simulator, state, 0.0, report);
                (ok, Some(simulator))
            }
            Err(broken) => {
                self.broken(broken, report);
                (false, None)
            }
        };
        if gave_up(report) {
            return None;
        }
        if !ok && !self.options.keep_going {
            report.valid = Some(false);
            return None;
        }
        Some(simulator)
    }

    /// Runs the happenings in order, with continuous change between them: the time of the
    /// last, or `None` when the run stops early (the report says why).
    pub(super) fn run_happenings(
        &mut self,
        happenings: &[Vec<Snap>],
        continuous: &mut Option<Continuous<'a>>,
        state: &mut State,
        report: &mut Report,
    ) -> Option<f64> {
        let mut previous = 0.0;
        let mut last_time = 0.0;
        for happening in happenings {
            let time = happening.first().map_or(0.0, |s| s.time);
            let mut ok = match continuous.as_mut() {
                Some(simulator) => self.flow(simulator, state, previous, time, report),
                None => true,
            };
            if gave_up(report) {
                return None;
            }
            if ok || self.options.keep_going {
                ok &= self.happening(happening, time, previous, state, report);
                if let Some(simulator) = continuous.as_mut() {
                    ok &= self.settle(simulator, state, time, report);
                }
            }
            if gave_up(report) {
                return None;
            }
            self.pddl3.after(time, state);
            last_time = time;
            previous = time;
            if !ok && !self.options.keep_going {
                report.valid = Some(false);
                return None;
            }
        }
        Some(last_time)
    }
}
