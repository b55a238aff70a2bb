//! Temporal plans, as PDDL 2.1 defines them and VAL runs them. A durative step `t: (a …) [d]`
//! is two snap actions: its start at `t`, which needs the `at start` conditions and the duration
//! constraints and applies the `at start` effects, and its end at `t + d`, which needs the
//! `at end` conditions and applies the `at end` effects; its `over all` condition must hold on
//! the open interval between them, that is in the state after every happening from its start up
//! to (not including) its end. Timed initial literals are happenings of their own. Snap actions
//! closer in time than the tolerance form one happening, whose conditions all read the state
//! before it and whose effects must not interfere (VAL's mutex rules). The plan's value is its
//! makespan, the time of its last happening, unless the problem has a metric (where
//! `total-time` is the makespan).

mod flow;

use super::continuous::{self, Continuous};
use super::durative::Parts;
use super::text::Step;
use super::trajectory;
use super::{AtEnd, Failure, Report, TaskFiles, ValidateOptions, initial_state};
use crate::ast::{
    Action, AssignOp, CompareOp, Effect, EffectKind, Gd, InitKind, Problem, Span, TimeSpec,
};
use crate::diagnostics::{Code, Diagnostic};
use crate::semantics::{self, Binding, Changes, State, World};
use std::collections::HashMap;

/// What a plan step runs.
#[derive(Clone, Copy)]
enum Operator<'a> {
    Instant(&'a Action),
    /// The key of the action's parts.
    Durative(&'a str),
}

/// A step resolved against the domain.
struct Grounded<'a> {
    operator: Operator<'a>,
    objects: Vec<u32>,
    parameters: &'a [crate::ast::Typed<crate::ast::Variable>],
}

/// When a snap action happens within its step.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Moment {
    Start,
    End,
    Instant,
    /// A timed initial literal; its index in the problem's list of them.
    Literal,
}

#[derive(Clone, Copy, Debug)]
struct Snap {
    time: f64,
    /// The step's index, or the timed initial literal's.
    index: usize,
    moment: Moment,
}

/// Whether the plan needs the temporal semantics: a step names a durative action, the domain
/// has processes or events, or the problem has timed initial literals.
pub(super) fn needed(domain: &crate::ast::Domain, problem: &Problem, steps: &[Step]) -> bool {
    steps
        .iter()
        .any(|s| domain.durative_actions().any(|a| a.name == s.action))
        || continuous::has_processes(domain)
        || problem
            .init
            .iter()
            .any(|i| matches!(i.kind, InitKind::At { .. }))
}

/// Times as VAL prints them: at most six decimals, trailing zeros dropped.
pub(super) fn show_time(t: f64) -> String {
    let text = format!("{t:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

pub(super) fn run(
    domain: &crate::ast::Domain,
    problem: &Problem,
    steps: &[Step],
    options: &ValidateOptions,
    at_end: AtEnd,
    mut report: Report,
) -> Report {
    let files = options.files;
    let parts = match durative_parts(domain, steps) {
        Ok(parts) => parts,
        Err(message) => return report.unsupported(message),
    };
    if let Some(message) = uninterpreted(domain, problem, &parts) {
        return report.unsupported(message);
    }
    let mut world = World::new(domain, problem);
    world.warm();
    let grounded = ground_steps(domain, &world, &parts, steps, files, &mut report);
    if report.has_step_failures() {
        report.valid = Some(false);
        return report;
    }
    let Some(mut state) = initial_state(&mut world, &mut report) else {
        return report;
    };
    let literals = timed_literals(problem);
    let happenings = happenings(steps, &grounded, &literals, options.tolerance);
    let pddl3 = trajectory::Pddl3::new(domain, problem, &state);
    let mut run = Run {
        pddl3,
        world: &mut world,
        parts: &parts,
        steps,
        grounded: &grounded,
        literals: &literals,
        options,
        files,
        active: Vec::new(),
    };
    let Some(mut continuous) = run.start_flow(domain, &mut state, &mut report) else {
        return report;
    };
    let Some(last_time) = run.run_happenings(&happenings, &mut continuous, &mut state, &mut report)
    else {
        return report;
    };
    let mut pddl3 = run.pddl3;
    if let Some(callback) = at_end {
        callback(&mut world, &state);
    }
    super::check_goal(&world, problem, &state, files, &mut report);
    if let Some(simulator) = &continuous {
        name_fired_events(simulator, &mut report);
    }
    pddl3.finish(&world, domain, problem, &state, files, &mut report);
    report.valid = Some(report.failures.is_empty());
    if report.valid == Some(true) {
        report.metric = match &problem.metric {
            Some(m) => super::metric_value(&world, &m.expr, &state, last_time, &pddl3.counts).ok(),
            None => Some(last_time),
        };
    }
    report
}

/// The parts of every durative action the plan names, by key; the message of `V310` when one
/// of them has a construct `validate` does not interpret.
fn durative_parts<'a>(
    domain: &'a crate::ast::Domain,
    steps: &[Step],
) -> Result<HashMap<String, Parts<'a>>, String> {
    let mut parts: HashMap<String, Parts> = HashMap::new();
    for action in domain.durative_actions() {
        let key = action.name.key();
        if parts.contains_key(&key) || !steps.iter().any(|s| s.action.key() == key) {
            continue;
        }
        match Parts::of(action) {
            Ok(split) => {
                parts.insert(key, split);
            }
            Err(what) => {
                return Err(format!(
                    "`{}` has {what}, which `validate` does not interpret yet",
                    action.name.text
                ));
            }
        }
    }
    Ok(parts)
}

/// The message of `V310` for the combinations of temporal and PDDL3 features that are not
/// interpreted yet.
fn uninterpreted(
    domain: &crate::ast::Domain,
    problem: &Problem,
    parts: &HashMap<String, Parts>,
) -> Option<String> {
    // PDDL3 trajectory constraints are judged on the states at happenings; under continuous
    // change the states between them count too, which is not interpreted yet.
    if (continuous::has_processes(domain) || parts.values().any(|p| p.continuous.is_some()))
        && (domain.constraints.is_some() || problem.constraints.is_some())
    {
        return Some(
            "PDDL3 trajectory constraints with continuous change (processes, events or `#t` \
             effects) are not supported by `validate` yet"
                .into(),
        );
    }
    // Preferences on an interval would need counting over it: not interpreted yet.
    if problem
        .metric
        .as_ref()
        .is_some_and(|m| trajectory::reads_violations(&m.expr))
        && parts
            .values()
            .any(|p| p.over_all.as_ref().is_some_and(trajectory::has_preference))
    {
        return Some(
            "preferences in `over all` conditions, read by `is-violated` in the metric, are \
             not supported by `validate` yet"
                .into(),
        );
    }
    None
}

/// Every step resolved against the domain (`None` where it cannot be), with a failure for a
/// step that names no action, has objects that do not fit, or starts before time 0.
fn ground_steps<'a>(
    domain: &'a crate::ast::Domain,
    world: &World<'a>,
    parts: &'a HashMap<String, Parts<'a>>,
    steps: &[Step],
    files: TaskFiles,
    report: &mut Report,
) -> Vec<Option<Grounded<'a>>> {
    let mut grounded: Vec<Option<Grounded>> = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let number = i + 1;
        if let Some(time) = step.time
            && time < 0.0
        {
            let message = format!(
                "step {number} {} starts at time {}, before the plan begins at 0",
                step.text(),
                show_time(time)
            );
            report.fail(Failure::new(
                Some(number),
                Vec::new(),
                Diagnostic::new(Code::StepBeforeZero, message, step.span)
                    .in_file(files.plan)
                    .with_help("a plan starts at time 0: shift every step by the same amount"),
            ));
        }
        let key = step.action.key();
        let (operator, name, parameters) = if let Some(&action) = world.actions.get(&key) {
            (
                Operator::Instant(action),
                &action.name,
                action.parameters.as_slice(),
            )
        } else if let Some((key, split)) = parts.get_key_value(&key) {
            (
                Operator::Durative(key.as_str()),
                &split.action.name,
                split.action.parameters.as_slice(),
            )
        } else {
            let mut names: Vec<&str> = world.actions.keys().map(String::as_str).collect();
            let durative: Vec<String> = domain.durative_actions().map(|a| a.name.key()).collect();
            names.extend(durative.iter().map(String::as_str));
            report.fail(super::unknown_action(step, number, &names, files));
            grounded.push(None);
            continue;
        };
        let objects = super::ground_args(world, step, number, name, parameters, files, report);
        grounded.push(objects.map(|objects| Grounded {
            operator,
            objects,
            parameters,
        }));
    }
    grounded
}

/// The problem's timed initial literals as effects of their own, with their times.
fn timed_literals(problem: &Problem) -> Vec<(f64, Effect)> {
    problem
        .init
        .iter()
        .filter_map(|init| match &init.kind {
            InitKind::At { time, fact } => {
                let kind = match &fact.kind {
                    InitKind::Atom(atom) => EffectKind::Add { atom: atom.clone() },
                    InitKind::Not { atom } => EffectKind::Delete { atom: atom.clone() },
                    InitKind::Assign { target, value } => EffectKind::Numeric {
                        op: AssignOp::Assign,
                        target: (**target).clone(),
                        value: (**value).clone(),
                    },
                    InitKind::At { .. } => return None,
                };
                Some((
                    time.value,
                    Effect {
                        kind,
                        span: init.span,
                    },
                ))
            }
            _ => None,
        })
        .collect()
}

/// What the events did, added to a goal failure's message: it is part of why the goal fails.
fn name_fired_events(simulator: &Continuous, report: &mut Report) {
    if simulator.log.is_empty() {
        return;
    }
    let Some(failure) = report
        .failures
        .iter_mut()
        .find(|f| f.code() == Code::GoalUnsatisfied)
    else {
        return;
    };
    let fired: Vec<String> = simulator
        .log
        .iter()
        .map(|(time, event)| format!("{event} at {}", show_time(*time)))
        .collect();
    failure
        .diagnostic
        .message
        .push_str(&format!(" (events fired: {})", fired.join(", ")));
}

/// The snap actions of the plan and the timed initial literals, sorted by time (ties in plan
/// order) and grouped into happenings as VAL groups them; happenings of literals alone after
/// the plan's last step are not part of the plan.
fn happenings(
    steps: &[Step],
    grounded: &[Option<Grounded>],
    literals: &[(f64, Effect)],
    tolerance: f64,
) -> Vec<Vec<Snap>> {
    let mut snaps = Vec::new();
    let mut next_default = 1.0;
    for (index, (step, ground)) in steps.iter().zip(grounded).enumerate() {
        let time = match step.time {
            Some(t) => t,
            None => {
                let t = next_default;
                next_default += 1.0;
                t
            }
        };
        match ground.as_ref().map(|g| g.operator) {
            Some(Operator::Durative(_)) => {
                snaps.push(Snap {
                    time,
                    index,
                    moment: Moment::Start,
                });
                // A missing duration fails at the start; the end is then never reached.
                snaps.push(Snap {
                    time: time + step.duration.unwrap_or(0.0),
                    index,
                    moment: Moment::End,
                });
            }
            _ => snaps.push(Snap {
                time,
                index,
                moment: Moment::Instant,
            }),
        }
    }
    let plan_end = snaps
        .iter()
        .map(|s| s.time)
        .fold(None, |end: Option<f64>, t| {
            Some(end.map_or(t, |e| e.max(t)))
        });
    for (index, (time, _)) in literals.iter().enumerate() {
        if plan_end.is_some_and(|end| *time <= end) {
            snaps.push(Snap {
                time: *time,
                index,
                moment: Moment::Literal,
            });
        }
    }
    snaps.sort_by(|a, b| a.time.total_cmp(&b.time));
    let mut out: Vec<Vec<Snap>> = Vec::new();
    for snap in snaps {
        match out.last_mut() {
            Some(h)
                if h.first()
                    .is_some_and(|f| snap.time <= f.time + tolerance / 10.0) =>
            {
                h.push(snap)
            }
            _ => out.push(vec![snap]),
        }
    }
    out
}

/// The state of a run between happenings.
struct Run<'r, 'a> {
    /// The trajectory and preference counts, for PDDL3.
    pddl3: trajectory::Pddl3,
    world: &'r mut World<'a>,
    parts: &'r HashMap<String, Parts<'a>>,
    steps: &'r [Step],
    grounded: &'r [Option<Grounded<'a>>],
    literals: &'r [(f64, Effect)],
    options: &'r ValidateOptions,
    files: TaskFiles,
    /// The durative steps that have started and not ended, in the order they started.
    active: Vec<usize>,
}

impl<'r, 'a: 'r> Run<'r, 'a> {
    /// The step's parameters bound to its objects, and `?duration` to its duration.
    fn binding(&self, index: usize) -> Binding {
        let mut binding = Binding::default();
        if let Some(Some(g)) = self.grounded.get(index) {
            for (param, &o) in g.parameters.iter().zip(&g.objects) {
                binding.push(&param.item, o);
            }
        }
        if let Some(d) = self.steps.get(index).and_then(|s| s.duration) {
            binding.set_duration(d);
        }
        binding
    }

    fn parts(&self, index: usize) -> Option<&'r Parts<'a>> {
        let (grounded, parts): (&'r [Option<Grounded<'a>>], &'r HashMap<String, Parts<'a>>) =
            (self.grounded, self.parts);
        match grounded.get(index) {
            Some(Some(Grounded {
                operator: Operator::Durative(key),
                ..
            })) => parts.get(*key),
            _ => None,
        }
    }

    /// The condition a snap action needs.
    fn condition(&self, snap: &Snap) -> Option<&'r Gd> {
        let grounded: &'r [Option<Grounded<'a>>] = self.grounded;
        match snap.moment {
            Moment::Start => self.parts(snap.index).and_then(|p| p.at_start.as_ref()),
            Moment::End => self.parts(snap.index).and_then(|p| p.at_end.as_ref()),
            Moment::Instant => match grounded.get(snap.index) {
                Some(Some(Grounded {
                    operator: Operator::Instant(action),
                    ..
                })) => action.precondition.as_ref(),
                _ => None,
            },
            Moment::Literal => None,
        }
    }

    /// The effect a snap action applies.
    fn effect(&self, snap: &Snap) -> Option<&Effect> {
        match snap.moment {
            Moment::Start => self.parts(snap.index).and_then(|p| p.start_effect.as_ref()),
            Moment::End => self.parts(snap.index).and_then(|p| p.end_effect.as_ref()),
            Moment::Instant => match self.grounded.get(snap.index) {
                Some(Some(Grounded {
                    operator: Operator::Instant(action),
                    ..
                })) => action.effect.as_ref(),
                _ => None,
            },
            Moment::Literal => self.literals.get(snap.index).map(|(_, e)| e),
        }
    }

    /// `(a x) - start`, as VAL names a snap action.
    fn name(&self, snap: &Snap) -> String {
        match snap.moment {
            Moment::Literal => format!("the timed initial literal at {}", show_time(snap.time)),
            Moment::Instant | Moment::Start | Moment::End => {
                let text = self
                    .steps
                    .get(snap.index)
                    .map(Step::text)
                    .unwrap_or_default();
                match snap.moment {
                    Moment::Start => format!("{text} - start"),
                    Moment::End => format!("{text} - end"),
                    _ => text,
                }
            }
        }
    }

    /// Runs one happening at `time`; `previous` is the time of the one before. Returns false
    /// when something failed.
    fn happening(
        &mut self,
        happening: &[Snap],
        time: f64,
        previous: f64,
        state: &mut State,
        report: &mut Report,
    ) -> bool {
        let keep_going = self.options.keep_going;
        let mut ok = self.invariants(previous, time, state, report);
        if !ok && !keep_going {
            return false;
        }
        let claims = self.claims(happening, state, report, &mut ok);
        if !ok && !keep_going {
            return false;
        }
        // Snap actions of one happening must not interfere.
        if ok
            && claims.len() > 1
            && let Some((position, conflict)) = self.world.interference(&claims)
            && let Some(snap) = happening.get(position)
        {
            report.fail(self.mutex_failure(happening, snap, &conflict, time));
            if !keep_going {
                return false;
            }
            ok = false;
        }
        let mut all = Changes::default();
        for (_, record, _) in &claims {
            record.changes(&mut all);
        }
        if let Err(e) = self.world.apply(&all, state) {
            let index = happening.first().map_or(usize::MAX, |s| s.index);
            report.fail(self.evaluation_failure(index, "effects", time, &e));
            ok = false;
            if !keep_going {
                return false;
            }
        }
        self.update_active(happening);
        ok
    }

    /// Checks the `over all` conditions of the running steps on the interval before this
    /// happening; false when one fails (the first, unless the run keeps going).
    fn invariants(&mut self, previous: f64, time: f64, state: &State, report: &mut Report) -> bool {
        let keep_going = self.options.keep_going;
        let mut ok = true;
        for &index in &self.active.clone() {
            let Some(invariant) = self.parts(index).and_then(|p| p.over_all.as_ref()) else {
                continue;
            };
            let mut binding = self.binding(index);
            match self.world.holds(invariant, &mut binding, state) {
                Ok(true) => {}
                Ok(false) => {
                    let mut unmet = Vec::new();
                    self.world
                        .unsatisfied(invariant, &mut binding, state, &mut unmet);
                    report.fail(self.invariant_failure(index, previous, time, unmet));
                    ok = false;
                }
                Err(e) => {
                    report.fail(self.evaluation_failure(index, "invariant", time, &e));
                    ok = false;
                }
            }
            if !ok && !keep_going {
                return false;
            }
        }
        ok
    }

    /// What the snap actions of one happening read and change, each condition read in the
    /// state before it; `ok` turns false when one fails (each that fails is reported).
    fn claims(
        &mut self,
        happening: &[Snap],
        state: &State,
        report: &mut Report,
        ok: &mut bool,
    ) -> Vec<semantics::Claim> {
        let keep_going = self.options.keep_going;
        let mut claims: Vec<semantics::Claim> = Vec::new();
        for (position, snap) in happening.iter().enumerate() {
            let mut binding = self.binding(snap.index);
            let part = match snap.moment {
                Moment::Start => Some("start"),
                Moment::End => Some("end"),
                Moment::Instant | Moment::Literal => None,
            };
            let mut usable = true;
            if matches!(snap.moment, Moment::Start | Moment::End)
                && let Some(failure) = self.duration_failure(snap, &binding, state)
            {
                report.fail(failure);
                *ok = false;
                if !keep_going {
                    continue;
                }
            }
            if let Some(condition) = self.condition(snap) {
                match self.world.holds(condition, &mut binding, state) {
                    Ok(true) => {
                        if let Err(e) =
                            self.pddl3
                                .condition(self.world, Some(condition), &mut binding, state)
                        {
                            report.fail(self.evaluation_failure(
                                snap.index,
                                part.unwrap_or("step"),
                                snap.time,
                                &e,
                            ));
                            *ok = false;
                        }
                    }
                    Ok(false) => {
                        let mut unmet = Vec::new();
                        self.world
                            .unsatisfied(condition, &mut binding, state, &mut unmet);
                        report.fail(self.condition_failure(snap, part, unmet));
                        *ok = false;
                        if !keep_going {
                            continue;
                        }
                    }
                    Err(e) => {
                        report.fail(self.evaluation_failure(
                            snap.index,
                            part.unwrap_or("step"),
                            snap.time,
                            &e,
                        ));
                        *ok = false;
                        usable = false;
                    }
                }
            }
            if !usable {
                continue;
            }
            let mut record = semantics::Record::default();
            if let Some(effect) = self.effect(snap)
                && let Err(e) = self.world.record(effect, &mut binding, state, &mut record)
            {
                let index = if snap.moment == Moment::Literal {
                    usize::MAX
                } else {
                    snap.index
                };
                report.fail(self.evaluation_failure(index, part.unwrap_or("step"), snap.time, &e));
                *ok = false;
                continue;
            }
            let marks = if happening.len() > 1 {
                self.world
                    .precondition_marks(self.condition(snap), &mut binding)
            } else {
                Vec::new()
            };
            claims.push((position, record, marks));
        }
        claims
    }

    /// The mutex failure of a happening in which `snap` interferes with another snap action.
    fn mutex_failure(&self, happening: &[Snap], snap: &Snap, conflict: &str, time: f64) -> Failure {
        // A timed initial literal has no line in the plan: the failure is located on a plan
        // step of the happening, and the literal is labelled in the problem.
        let located = if snap.moment == Moment::Literal {
            happening.iter().find(|s| s.moment != Moment::Literal)
        } else {
            Some(snap)
        };
        let mut message = format!(
            "mutex violation at time {}: {} {conflict}",
            show_time(time),
            self.name(snap)
        );
        if let Some(other) = located.filter(|_| snap.moment == Moment::Literal) {
            message.push_str(&format!(", in the happening of {}", self.name(other)));
        }
        let step = located.map(|s| s.index + 1);
        let span = located
            .and_then(|s| self.steps.get(s.index))
            .map(|s| s.span);
        let mut diagnostic = match span {
            Some(span) => {
                Diagnostic::new(Code::MutexSteps, message, span).in_file(self.files.plan)
            }
            None => Diagnostic::unlocated(Code::MutexSteps, message),
        }
        .with_help("snap actions in one happening must not read or change what another changes; move one of the steps by more than the tolerance");
        if snap.moment == Moment::Literal
            && let Some((_, effect)) = self.literals.get(snap.index)
        {
            diagnostic = diagnostic.with_label_in(
                self.files.problem,
                effect.span,
                "the timed initial literal",
            );
        }
        let part = match located.map(|s| s.moment) {
            Some(Moment::Start) => Some("start"),
            Some(Moment::End) => Some("end"),
            _ => None,
        };
        Failure::new(step, Vec::new(), diagnostic).at(part, time)
    }

    /// Steps that end in this happening stop running; steps that start in it run from now on,
    /// unless they also end in it.
    fn update_active(&mut self, happening: &[Snap]) {
        for snap in happening.iter().filter(|s| s.moment == Moment::End) {
            self.active.retain(|&i| i != snap.index);
        }
        for snap in happening.iter().filter(|s| s.moment == Moment::Start) {
            let ends_here = happening
                .iter()
                .any(|s| s.moment == Moment::End && s.index == snap.index);
            if !ends_here {
                self.active.push(snap.index);
            }
        }
    }

    /// The duration constraints checked at this snap action, or a missing or negative duration
    /// at the start.
    fn duration_failure(&self, snap: &Snap, binding: &Binding, state: &State) -> Option<Failure> {
        let parts = self.parts(snap.index)?;
        let step = self.steps.get(snap.index)?;
        let number = snap.index + 1;
        let at = if snap.moment == Moment::Start {
            TimeSpec::AtStart
        } else {
            TimeSpec::AtEnd
        };
        let tolerance = self.options.tolerance;
        let text = step.text();
        let fail = |message: String, help: String, span: Option<Span>| {
            let mut diagnostic = Diagnostic::new(Code::DurationConstraint, message, step.span)
                .in_file(self.files.plan)
                .with_primary_message(format!("step {number}"))
                .with_help(help);
            if let Some(span) = span {
                diagnostic =
                    diagnostic.with_label_in(self.files.domain, span, "the duration constraint");
            }
            Failure::new(Some(number), Vec::new(), diagnostic).at(Some("duration"), snap.time)
        };
        // The value an `=` bound asks for, for the repair hint.
        let wanted = parts
            .bounds
            .iter()
            .find(|b| b.op == CompareOp::Eq)
            .and_then(|b| self.world.value(b.value, binding, state).ok());
        let Some(duration) = step.duration else {
            if snap.moment != Moment::Start {
                return None;
            }
            let help = match wanted {
                Some(v) => format!("write the duration after the step: `[{}]`", show_time(v)),
                None => "write the duration after the step: `t: (action …) [d]`".into(),
            };
            return Some(fail(
                format!("{text} is a durative action, but step {number} gives no duration `[d]`"),
                help,
                parts.action.duration.as_ref().map(|d| d.span),
            ));
        };
        if duration < 0.0 && snap.moment == Moment::Start {
            return Some(fail(
                format!(
                    "{text} is given the negative duration {}",
                    show_time(duration)
                ),
                "a durative step lasts 0 or more".into(),
                None,
            ));
        }
        for bound in parts.bounds.iter().filter(|b| b.at == at) {
            let value = match self.world.value(bound.value, binding, state) {
                Ok(v) => v,
                Err(e) => {
                    return Some(fail(
                        format!("the duration constraint of {text} cannot be evaluated: {e}"),
                        "give the fluents it reads a value in `:init`".into(),
                        Some(bound.span),
                    ));
                }
            };
            // VAL's tests: strict bounds exactly, the others within the tolerance.
            let (holds, off, help) = match bound.op {
                CompareOp::Gt => (
                    duration > value,
                    value - duration,
                    format!("make the duration more than {}", show_time(value)),
                ),
                CompareOp::Lt => (
                    duration < value,
                    duration - value,
                    format!("make the duration less than {}", show_time(value)),
                ),
                CompareOp::Ge => (
                    tolerance >= value - duration,
                    value - duration,
                    format!("increase the duration to at least {}", show_time(value)),
                ),
                CompareOp::Le => (
                    duration - value <= tolerance,
                    duration - value,
                    format!("decrease the duration to at most {}", show_time(value)),
                ),
                CompareOp::Eq => (
                    (duration - value).abs() < tolerance,
                    (duration - value).abs(),
                    format!("set the duration to {}", show_time(value)),
                ),
            };
            if !holds {
                return Some(fail(
                    format!(
                        "{text} lasts {}, but its duration constraint wants `?duration {} {}` \
                         (off by {}, more than the tolerance {})",
                        show_time(duration),
                        bound.op.symbol(),
                        show_time(value),
                        show_time(off),
                        show_time(tolerance)
                    ),
                    help,
                    Some(bound.span),
                ));
            }
        }
        None
    }

    /// A snap action whose condition does not hold.
    fn condition_failure(
        &self,
        snap: &Snap,
        part: Option<&'static str>,
        unmet: Vec<(String, Span)>,
    ) -> Failure {
        let atoms: Vec<String> = unmet.iter().map(|(atom, _)| atom.clone()).collect();
        let number = snap.index + 1;
        let when = match snap.moment {
            Moment::Start => "when it starts",
            Moment::End => "when it ends",
            _ => "before it",
        };
        let message = format!(
            "{} has an unsatisfied precondition at time {} (step {number}): {} must be true {when}",
            self.name(snap),
            show_time(snap.time),
            atoms.join(" and ")
        );
        let span = self
            .steps
            .get(snap.index)
            .map(|s| s.span)
            .unwrap_or_default();
        let mut diagnostic = Diagnostic::new(Code::PreconditionUnsatisfied, message, span)
            .in_file(self.files.plan)
            .with_primary_message(format!("step {number}"))
            .with_help(format!(
                "make {} true before time {}, or move the step",
                atoms.join(" and "),
                show_time(snap.time)
            ));
        for (atom, span) in &unmet {
            diagnostic =
                diagnostic.with_label_in(self.files.domain, *span, format!("{atom} is false"));
        }
        Failure::new(Some(number), atoms, diagnostic).at(part, snap.time)
    }

    /// A running step whose `over all` condition broke between two happenings.
    fn invariant_failure(
        &self,
        index: usize,
        from: f64,
        to: f64,
        unmet: Vec<(String, Span)>,
    ) -> Failure {
        let atoms: Vec<String> = unmet.iter().map(|(atom, _)| atom.clone()).collect();
        let number = index + 1;
        let text = self.steps.get(index).map(Step::text).unwrap_or_default();
        let when = if from == to {
            format!("at time {}", show_time(from))
        } else {
            format!("between time {} and {}", show_time(from), show_time(to))
        };
        let message = format!(
            "the `over all` condition of {text} (step {number}) does not hold {when}: {} must stay true while it runs",
            atoms.join(" and ")
        );
        let span = self.steps.get(index).map(|s| s.span).unwrap_or_default();
        let mut diagnostic = Diagnostic::new(Code::InvariantViolated, message, span)
            .in_file(self.files.plan)
            .with_primary_message(format!("step {number}"))
            .with_help(format!(
                "keep {} true from the start of step {number} to its end, or move the step",
                atoms.join(" and ")
            ));
        for (atom, span) in &unmet {
            diagnostic =
                diagnostic.with_label_in(self.files.domain, *span, format!("{atom} is false"));
        }
        Failure::new(Some(number), atoms, diagnostic).at(Some("invariant"), to)
    }

    /// A step (or, for `usize::MAX`, a timed initial literal) that could not be evaluated.
    fn evaluation_failure(
        &self,
        index: usize,
        part: &'static str,
        time: f64,
        error: &super::EvalError,
    ) -> Failure {
        let Some(step) = self.steps.get(index) else {
            return Failure::new(
                None,
                Vec::new(),
                Diagnostic::unlocated(
                    Code::EvaluationFailed,
                    format!("at time {}: {error}", show_time(time)),
                ),
            )
            .at(None, time);
        };
        let part = matches!(part, "start" | "end" | "invariant").then_some(part);
        super::evaluation_failure(step, index + 1, error, self.files).at(part, time)
    }
}
