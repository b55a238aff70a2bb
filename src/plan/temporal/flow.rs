//! A temporal run under continuous change: the running steps' `#t` effects and `over all`
//! conditions handed to the simulator between happenings, and what stopped it reported.

use super::super::Report;
use super::super::continuous::{self, Broken, Continuous, Invariant, Owner, Source};
use super::{Run, Step, show_time};
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
            Broken::Evaluation(crate::plan::EvalError::Unsupported(what), time) => report
                .no_verdict(format!(
                    "at time {}: {what} is not supported by `validate`",
                    show_time(time)
                )),
            Broken::Evaluation(error, time) => {
                report.fail(self.evaluation_failure(usize::MAX, "step", time, &error))
            }
        }
    }
}
