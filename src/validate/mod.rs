//! Plans: their text, and their simulation against a domain and problem (the validator).
//!
//! `validate::validate` reads a plan and runs it step by step from the initial state, as VAL does
//! for sequential plans: a step's preconditions are read in the state before it, its
//! conditional effects' conditions too, deletes apply before adds. Nothing is grounded ahead:
//! the cost is the plan's length times the size of its actions (and their quantifiers).
//! Timestamped plans run as VAL runs them: steps sorted by time, steps closer than the
//! tolerance forming one happening whose preconditions all read the same state.
//!
//! Every failure is a [`Diagnostic`] (codes `V3xx`), labelled on the plan step and, where it
//! helps, on the precondition in the domain or the goal in the problem. The task need not have
//! been checked: what cannot be evaluated is a diagnostic, never a panic.

mod applicable;
mod continuous;
mod durative;
mod failure;
mod polynomial;
mod temporal;
pub mod text;
mod trajectory;

pub use crate::semantics::EvalError;
pub use applicable::applicable;
pub(crate) use applicable::{Operator, applicable_in};
pub use failure::{Failure, PlanRow, Report};
pub use text::Step;

use crate::ast::{Domain, ExprKind, Problem};
use crate::diagnostics::{Code, Diagnostic};
use crate::semantics::{self, Binding, Changes, State, World};

pub use crate::diagnostics::TaskFiles;

/// How to validate.
#[derive(Clone, Debug)]
pub struct ValidateOptions {
    /// Keep going after a failed step, applying its effects anyway, and report every failure.
    pub keep_going: bool,
    /// Steps whose times differ by less than this form one happening (VAL's `-t`, 0.01).
    pub tolerance: f64,
    /// The file ids of the domain, the problem and the plan, for the diagnostics' labels.
    pub files: TaskFiles,
}

impl Default for ValidateOptions {
    fn default() -> Self {
        ValidateOptions {
            keep_going: false,
            tolerance: 0.01,
            files: TaskFiles::default(),
        }
    }
}

/// Validates `plan` (IPC plan text) against `domain` and `problem`.
pub fn validate(
    domain: &Domain,
    problem: &Problem,
    plan: &str,
    options: &ValidateOptions,
) -> Report {
    crate::parse::with_stack(|| run(domain, problem, plan, options, None))
}

/// A state constraint: its condition, name and span.
pub(crate) type StateConstraint = continuous::Constraint;

/// The domain's state constraints (`:constraint`, as ENHSP writes them), which hold in every
/// state of a run.
pub(crate) fn state_constraints(domain: &Domain) -> Vec<StateConstraint> {
    continuous::state_constraints(domain)
}

/// Whether a sequential run of `domain` and `problem` cannot be had: the domain has durative
/// actions, processes or events, or the problem timed initial literals.
pub(crate) fn is_temporal(domain: &Domain, problem: &Problem) -> bool {
    domain.durative_actions().next().is_some() || temporal::needed(domain, problem, &[])
}

/// Called with the world and the state after the last step, before the goal is checked.
type AtEnd<'c> = Option<&'c mut dyn FnMut(&mut World, &State)>;

fn run(
    domain: &Domain,
    problem: &Problem,
    plan: &str,
    options: &ValidateOptions,
    at_end: AtEnd,
) -> Report {
    let files = options.files;
    let (steps, syntax) = text::parse(plan);
    let mut report = Report::new(steps.len());
    if !syntax.is_empty() {
        report.valid = Some(false);
        for diagnostic in syntax {
            report.failures.push(Failure::new(
                None,
                Vec::new(),
                diagnostic.in_file(files.plan),
            ));
        }
        return report;
    }

    if temporal::needed(domain, problem, &steps) {
        return temporal::run(domain, problem, &steps, options, at_end, report);
    }

    let mut world = World::new(domain, problem);
    world.warm();

    // Every step must name an action, with the right number of known objects of the right types.
    let grounded: Vec<Option<(&crate::ast::Action, Vec<u32>)>> = steps
        .iter()
        .enumerate()
        .map(|(i, step)| ground(&world, step, i + 1, files, &mut report))
        .collect();
    if report.has_step_failures() {
        report.valid = Some(false);
        return report;
    }

    let Some(mut state) = initial_state(&mut world, &mut report) else {
        return report;
    };

    // The domain's state constraints (`:constraint`, as ENHSP writes them) hold in every state.
    let constraints = continuous::state_constraints(domain);
    let holds = check_state_constraints(&world, &constraints, &state, None, files, &mut report);
    if gave_up(&report) {
        return report;
    }
    if !holds && !options.keep_going {
        report.valid = Some(false);
        return report;
    }

    let mut pddl3 = trajectory::Pddl3::new(domain, problem, &state);
    let sequential = Sequential {
        steps: &steps,
        grounded: &grounded,
        constraints: &constraints,
        options,
    };
    let mut last_time = 0.0;
    for happening in &happenings(&steps, options.tolerance) {
        last_time = happening.time;
        let go_on =
            sequential.happening(&mut world, &mut pddl3, happening, &mut state, &mut report);
        if !go_on {
            return report;
        }
    }

    if let Some(callback) = at_end {
        callback(&mut world, &state);
    }
    check_goal(&world, problem, &state, files, &mut report);
    pddl3.finish(&world, domain, problem, &state, files, &mut report);
    report.valid = Some(report.failures.is_empty());
    if report.valid == Some(true) {
        report.metric = plan_value(
            domain,
            problem,
            &world,
            &state,
            last_time,
            steps.len(),
            &pddl3,
        );
    }
    report
}

/// VAL's value of a valid sequential plan: the metric, or the number of steps. `total-time` is
/// the last happening's time in a domain declaring `:durative-actions` or `:time`, else the
/// number of steps. A metric that cannot be evaluated (an undefined fluent) has no value; it
/// is not replaced by anything.
fn plan_value(
    domain: &Domain,
    problem: &Problem,
    world: &World,
    state: &State,
    last_time: f64,
    steps: usize,
    pddl3: &trajectory::Pddl3,
) -> Option<f64> {
    let durative = domain
        .requirements
        .iter()
        .any(|r| r.is(":durative-actions") || r.is(":time"));
    let total_time = if durative { last_time } else { steps as f64 };
    match &problem.metric {
        Some(m) => metric_value(world, &m.expr, state, total_time, &pddl3.counts).ok(),
        None => Some(steps as f64),
    }
}

/// A sequential run: the plan's steps resolved against the domain, the domain's state
/// constraints, and the options.
struct Sequential<'s, 'a> {
    steps: &'s [Step],
    grounded: &'s [Option<(&'a crate::ast::Action, Vec<u32>)>],
    constraints: &'s [continuous::Constraint],
    options: &'s ValidateOptions,
}

impl Sequential<'_, '_> {
    /// Runs one happening: its steps' preconditions in the state before it, their interference,
    /// their effects, then the state constraints. False when the run stops here (the report
    /// says why).
    fn happening(
        &self,
        world: &mut World,
        pddl3: &mut trajectory::Pddl3,
        happening: &Happening,
        state: &mut State,
        report: &mut Report,
    ) -> bool {
        let (files, keep_going) = (self.options.files, self.options.keep_going);
        let (claims, failed) = self.claims(world, pddl3, &happening.steps, state, report);
        if failed && !keep_going {
            report.valid = Some(false);
            return false;
        }
        // Several steps at one time must not interfere (VAL's mutex rules).
        if !failed
            && claims.len() > 1
            && let Some((i, conflict)) = world.interference(&claims)
        {
            let step = &self.steps[i];
            let message = format!("mutex violation: {} {conflict}", step.text());
            report.fail(Failure::new(
                Some(i + 1),
                Vec::new(),
                Diagnostic::new(Code::MutexSteps, message, step.span)
                    .in_file(files.plan)
                    .with_help("steps at the same time must not read or change what another changes; give them different times"),
            ));
            if !keep_going {
                report.valid = Some(false);
                return false;
            }
        }
        let mut all = Changes::default();
        for (_, record, _) in &claims {
            record.changes(&mut all);
        }
        if let Err(e) = world.apply(&all, state) {
            let first = happening.steps.first().copied().unwrap_or(0);
            let message = format!("{}: {e}", self.steps[first].text());
            report.fail(Failure::new(
                Some(first + 1),
                Vec::new(),
                Diagnostic::new(Code::EvaluationFailed, message, self.steps[first].span)
                    .in_file(files.plan)
                    .with_help("give the fluent a value in the problem's `:init`"),
            ));
            if !keep_going {
                report.valid = Some(false);
                return false;
            }
        }
        if let Some(&first) = happening.steps.first() {
            let after = Some((first + 1, &self.steps[first]));
            let holds =
                check_state_constraints(world, self.constraints, state, after, files, report);
            if gave_up(report) {
                return false;
            }
            if !holds && !keep_going {
                report.valid = Some(false);
                return false;
            }
        }
        pddl3.after(happening.time, state);
        true
    }

    /// What the steps of one happening read and change, each precondition read in `state`, and
    /// whether one of them failed (each that fails is reported: they all read the same state).
    fn claims(
        &self,
        world: &World,
        pddl3: &mut trajectory::Pddl3,
        indices: &[usize],
        state: &State,
        report: &mut Report,
    ) -> (Vec<semantics::Claim>, bool) {
        let (files, keep_going) = (self.options.files, self.options.keep_going);
        let mut claims: Vec<semantics::Claim> = Vec::new();
        let mut failed = false;
        for &i in indices {
            let Some((action, objects)) = &self.grounded[i] else {
                continue;
            };
            let step = &self.steps[i];
            let (mut binding, ok) = bind_step(world, action, objects, state);
            let ok = ok.and_then(|holds| {
                if holds {
                    pddl3.condition(world, action.precondition.as_ref(), &mut binding, state)?;
                }
                Ok(holds)
            });
            match ok {
                Ok(true) => {}
                Ok(false) => {
                    let mut unmet = Vec::new();
                    if let Some(pre) = &action.precondition {
                        world.unsatisfied(pre, &mut binding, state, &mut unmet);
                    }
                    report.fail(precondition_failure(step, i + 1, unmet, files));
                    // With `--keep-going`, its effects still apply.
                    failed = true;
                    if !keep_going {
                        continue;
                    }
                }
                Err(e) => {
                    report.fail(evaluation_failure(step, i + 1, &e, files));
                    failed = true;
                    if !keep_going {
                        break;
                    }
                    continue;
                }
            }
            let mut record = semantics::Record::default();
            if let Some(effect) = &action.effect
                && let Err(e) = world.record(effect, &mut binding, state, &mut record)
            {
                report.fail(evaluation_failure(step, i + 1, &e, files));
                failed = true;
                if !keep_going {
                    break;
                }
            }
            let marks = if indices.len() > 1 {
                world.precondition_marks(action.precondition.as_ref(), &mut binding)
            } else {
                Vec::new()
            };
            claims.push((i, record, marks));
        }
        (claims, failed)
    }
}

/// A step's parameters bound to its objects, and whether its precondition holds in `state`.
/// PDDL 1.2 `:vars` are bound by the precondition: the first binding of them that satisfies
/// it is the one the effects use.
pub(crate) fn bind_step(
    world: &World,
    action: &crate::ast::Action,
    objects: &[u32],
    state: &State,
) -> (Binding, Result<bool, EvalError>) {
    let mut binding = Binding::default();
    for (param, &o) in action.parameters.iter().zip(objects) {
        binding.push(&param.item, o);
    }
    let ok = match &action.precondition {
        None => Ok(true),
        Some(pre) if !action.vars.is_empty() => {
            let mut found = None;
            let search = world.each_binding(&action.vars, &mut binding, &mut |b| {
                let holds = world.holds(pre, b, state)?;
                if holds {
                    found = Some(b.clone());
                }
                Ok(holds)
            });
            match (search, found) {
                (Err(e), _) => Err(e),
                (Ok(_), Some(b)) => {
                    binding = b;
                    Ok(true)
                }
                (Ok(_), None) => Ok(false),
            }
        }
        Some(pre) => world.holds(pre, &mut binding, state),
    };
    (binding, ok)
}

/// Whether the run found something it does not interpret: no verdict.
pub(crate) fn gave_up(report: &Report) -> bool {
    report
        .failures
        .iter()
        .any(|f| f.code() == Code::ValidateUnsupported)
}

/// Checks the domain's state constraints in a state of a sequential run: the initial one
/// (`after` is `None`) or the one after a happening, given by its first step's number and step.
/// Reports each that is false (V315) or cannot be evaluated; returns whether they all hold.
pub(crate) fn check_state_constraints(
    world: &World,
    constraints: &[StateConstraint],
    state: &State,
    after: Option<(usize, &Step)>,
    files: TaskFiles,
    report: &mut Report,
) -> bool {
    let mut holds = true;
    for (condition, name, span) in constraints {
        let mut binding = Binding::default();
        match world.holds(condition, &mut binding, state) {
            Ok(true) => continue,
            Ok(false) => {
                let mut unmet = Vec::new();
                world.unsatisfied(condition, &mut binding, state, &mut unmet);
                let atoms: Vec<String> = unmet.iter().map(|(atom, _)| atom.clone()).collect();
                let failure = match after {
                    None => continuous::constraint_diagnostic(
                        name,
                        *span,
                        "in the initial state",
                        format!(
                            "the problem's initial state must satisfy {}; no plan can repair it",
                            atoms.join(" and ")
                        ),
                        unmet,
                        files,
                    ),
                    Some((number, step)) => {
                        let mut failure = continuous::constraint_diagnostic(
                            name,
                            *span,
                            &format!("after step {number} {}", step.text()),
                            format!(
                                "change the plan so that {} stays true after step {number}",
                                atoms.join(" and ")
                            ),
                            unmet,
                            files,
                        );
                        failure.step = Some(number);
                        failure.diagnostic = failure.diagnostic.with_label_in(
                            files.plan,
                            step.span,
                            "the state after this step violates it",
                        );
                        failure
                    }
                };
                report.fail(failure);
            }
            Err(EvalError::Unsupported(what)) => {
                report.no_verdict(format!(
                    "the state constraint `{name}`: {what} is not supported by `validate`"
                ));
            }
            Err(e) => report.fail(Failure::new(
                after.map(|(number, _)| number),
                Vec::new(),
                Diagnostic::new(
                    Code::EvaluationFailed,
                    format!("the state constraint `{name}` cannot be evaluated: {e}"),
                    *span,
                )
                .in_file(files.domain),
            )),
        }
        holds = false;
    }
    holds
}

/// Checks the goal in the final state, reporting what is false.
fn check_goal(
    world: &World,
    problem: &Problem,
    state: &State,
    files: TaskFiles,
    report: &mut Report,
) {
    if let Some(goal) = &problem.goal {
        let mut binding = Binding::default();
        match world.holds(goal, &mut binding, state) {
            Ok(true) => {}
            Ok(false) => {
                let mut unmet = Vec::new();
                world.unsatisfied(goal, &mut binding, state, &mut unmet);
                report.unmet_goals = unmet.iter().map(|(atom, _)| atom.clone()).collect();
                report.fail(goal_failure(unmet, files));
            }
            Err(e) => report.fail(Failure::new(
                None,
                Vec::new(),
                Diagnostic::new(
                    Code::EvaluationFailed,
                    format!("the goal cannot be evaluated: {e}"),
                    goal.span,
                )
                .in_file(files.problem),
            )),
        }
    }
}

/// The metric's value: `total-time` is `total_time`, `(is-violated p)` the violations of `p`.
fn metric_value(
    world: &World,
    e: &crate::ast::Expr,
    state: &State,
    total_time: f64,
    violations: &trajectory::Violations,
) -> Result<f64, EvalError> {
    match &e.kind {
        ExprKind::TotalTime => Ok(total_time),
        ExprKind::IsViolated { preference } => {
            Ok(violations.get(&preference.key()).copied().unwrap_or(0) as f64)
        }
        ExprKind::Op { op, args }
            if args.iter().any(|a| {
                matches!(
                    a.kind,
                    ExprKind::TotalTime | ExprKind::Op { .. } | ExprKind::IsViolated { .. }
                )
            }) =>
        {
            let values = args
                .iter()
                .map(|a| metric_value(world, a, state, total_time, violations))
                .collect::<Result<Vec<f64>, _>>()?;
            let folded = crate::ast::Expr {
                kind: ExprKind::Op {
                    op: *op,
                    args: values
                        .iter()
                        .map(|v| crate::ast::Expr {
                            kind: ExprKind::Number(crate::ast::Number {
                                text: v.to_string(),
                                value: *v,
                                span: e.span,
                            }),
                            span: e.span,
                        })
                        .collect(),
                },
                span: e.span,
            };
            world.value(&folded, &Binding::default(), state)
        }
        _ => world.value(e, &Binding::default(), state),
    }
}

/// Steps that run together, as VAL forms them: untimed steps at times 1, 2, … (counted over
/// untimed steps), all steps sorted by time (ties in plan order), and each happening takes the
/// steps with `t <= start + tolerance / 10`, `start` being the time of its first step. The sum
/// is computed in f64 exactly as VAL does: `0.009 + 0.001` falls short of `0.010`.
struct Happening {
    time: f64,
    steps: Vec<usize>,
}

fn happenings(steps: &[Step], tolerance: f64) -> Vec<Happening> {
    let mut next_default = 1.0;
    let times: Vec<f64> = steps
        .iter()
        .map(|s| match s.time {
            Some(t) => t,
            None => {
                let t = next_default;
                next_default += 1.0;
                t
            }
        })
        .collect();
    let mut order: Vec<usize> = (0..steps.len()).collect();
    order.sort_by(|&a, &b| times[a].total_cmp(&times[b]));
    let mut out: Vec<Happening> = Vec::new();
    for i in order {
        let t = times[i];
        match out.last_mut() {
            Some(h) if t <= h.time + tolerance / 10.0 => h.steps.push(i),
            _ => out.push(Happening {
                time: t,
                steps: vec![i],
            }),
        }
    }
    out
}

/// A step whose precondition does not hold: labelled on the step, and on each condition of
/// the action's precondition that is false.
pub(crate) fn precondition_failure(
    step: &Step,
    number: usize,
    unmet: Vec<(String, crate::ast::Span)>,
    files: TaskFiles,
) -> Failure {
    let atoms: Vec<String> = unmet.iter().map(|(atom, _)| atom.clone()).collect();
    let message = format!(
        "{} has an unsatisfied precondition at step {number}: {} must be true before it",
        step.text(),
        atoms.join(" and ")
    );
    let mut diagnostic = Diagnostic::new(Code::PreconditionUnsatisfied, message, step.span)
        .in_file(files.plan)
        .with_primary_message(format!("step {number}"))
        .with_help(format!(
            "make {} true before step {number}, or remove the step",
            atoms.join(" and ")
        ));
    for (atom, span) in &unmet {
        diagnostic = diagnostic.with_label_in(files.domain, *span, format!("{atom} is false"));
    }
    Failure::new(Some(number), atoms, diagnostic)
}

/// The plan ends short of the goal: labelled on each goal condition that is false.
fn goal_failure(unmet: Vec<(String, crate::ast::Span)>, files: TaskFiles) -> Failure {
    let atoms: Vec<String> = unmet.iter().map(|(atom, _)| atom.clone()).collect();
    let message = format!(
        "the goal is not satisfied: {} must be true at the end",
        atoms.join(" and ")
    );
    let mut labelled = unmet.iter();
    let mut diagnostic = match labelled.next() {
        Some((atom, span)) => Diagnostic::new(Code::GoalUnsatisfied, message, *span)
            .in_file(files.problem)
            .with_primary_message(format!("{atom} is false at the end")),
        None => Diagnostic::unlocated(Code::GoalUnsatisfied, message),
    };
    for (atom, span) in labelled {
        diagnostic =
            diagnostic.with_label_in(files.problem, *span, format!("{atom} is false at the end"));
    }
    let diagnostic = diagnostic.with_help(format!(
        "extend the plan so that {} {} after its last step",
        atoms.join(" and "),
        if atoms.len() == 1 { "holds" } else { "hold" }
    ));
    Failure::new(None, atoms, diagnostic)
}

/// Step `number` could not be evaluated.
pub(crate) fn evaluation_failure(
    step: &Step,
    number: usize,
    error: &EvalError,
    files: TaskFiles,
) -> Failure {
    let message = format!("{}: {error}", step.text());
    Failure::new(
        Some(number),
        Vec::new(),
        Diagnostic::new(Code::EvaluationFailed, message, step.span).in_file(files.plan),
    )
}

/// Resolves a step to its action and objects, reporting what does not fit.
pub(crate) fn ground<'w>(
    world: &World<'w>,
    step: &Step,
    number: usize,
    files: TaskFiles,
    report: &mut Report,
) -> Option<(&'w crate::ast::Action, Vec<u32>)> {
    let Some(&action) = world.actions.get(&step.action.key()) else {
        let names: Vec<&str> = world.actions.keys().map(String::as_str).collect();
        report.fail(unknown_action(step, number, &names, files));
        return None;
    };
    let objects = ground_args(
        world,
        step,
        number,
        &action.name,
        &action.parameters,
        files,
        report,
    )?;
    Some((action, objects))
}

/// A step naming no action of the domain, with the nearest of `names` as a suggestion.
fn unknown_action(step: &Step, number: usize, names: &[&str], files: TaskFiles) -> Failure {
    let help = crate::check::suggest_name(&step.action.text, names)
        .map(|n| format!("did you mean `{n}`?"))
        .unwrap_or_else(|| "the step must name an action of the domain".into());
    let message = format!("the domain has no action `{}`", step.action.text);
    Failure::new(
        Some(number),
        Vec::new(),
        Diagnostic::new(Code::UnknownAction, message, step.action.span)
            .in_file(files.plan)
            .with_help(help),
    )
}

/// Resolves a step's arguments against the parameters of the action `name`, reporting what
/// does not fit: their number, unknown objects, objects of the wrong type.
fn ground_args(
    world: &World<'_>,
    step: &Step,
    number: usize,
    name: &crate::ast::Name,
    parameters: &[crate::ast::Typed<crate::ast::Variable>],
    files: TaskFiles,
    report: &mut Report,
) -> Option<Vec<u32>> {
    if parameters.len() != step.args.len() {
        let message = format!(
            "`{}` takes {} argument{}, step {number} gives {}",
            name.text,
            parameters.len(),
            if parameters.len() == 1 { "" } else { "s" },
            step.args.len()
        );
        report.fail(Failure::new(
            Some(number),
            Vec::new(),
            Diagnostic::new(Code::StepArity, message, step.span)
                .in_file(files.plan)
                .with_label_in(files.domain, name.span, "the action is declared here"),
        ));
        return None;
    }
    let mut objects = Vec::new();
    let mut ok = true;
    for (arg, param) in step.args.iter().zip(parameters) {
        match world.object(&arg.text) {
            None => {
                ok = false;
                let message = format!("`{}` is not an object of the problem", arg.text);
                let names: Vec<&str> = world.objects.iter().map(String::as_str).collect();
                let help = crate::check::suggest_name(&arg.text, &names)
                    .map(|n| format!("did you mean `{n}`?"))
                    .unwrap_or_else(|| {
                        "use an object of the problem or a constant of the domain".into()
                    });
                report.fail(Failure::new(
                    Some(number),
                    Vec::new(),
                    Diagnostic::new(Code::UnknownObject, message, arg.span)
                        .in_file(files.plan)
                        .with_help(help),
                ));
            }
            Some(o) => {
                if world.typed && !world.fits(o, &param.ty) {
                    ok = false;
                    let wanted = match &param.ty {
                        Some(t) => crate::fmt::type_text(t),
                        None => "object".into(),
                    };
                    let message = format!(
                        "`{}` is a `{}`, but `?{}` of `{}` wants a `{wanted}`",
                        arg.text,
                        world.object_types(o).join(" "),
                        param.item.name.text,
                        name.text
                    );
                    report.fail(Failure::new(
                        Some(number),
                        Vec::new(),
                        Diagnostic::new(Code::StepTypeMismatch, message, arg.span)
                            .in_file(files.plan)
                            .with_label_in(
                                files.domain,
                                param.item.span(),
                                format!("`?{}` is declared here", param.item.name.text),
                            ),
                    ));
                }
                objects.push(o);
            }
        }
    }
    ok.then_some(objects)
}

/// The task's initial state, or the failure that says why it cannot be built (the report is
/// then invalid).
fn initial_state(world: &mut World, report: &mut Report) -> Option<semantics::State> {
    match world.initial_state() {
        Ok(state) => Some(state),
        Err(e) => {
            report.valid = Some(false);
            report.fail(Failure::new(
                None,
                Vec::new(),
                Diagnostic::unlocated(
                    Code::EvaluationFailed,
                    format!("the initial state cannot be built: {e}"),
                ),
            ));
            None
        }
    }
}

/// Moves `index` to the next combination of one member per domain, like an odometer (the first
/// position turns fastest); `false` once every combination has been visited.
pub(crate) fn next_combination<T>(index: &mut [usize], domains: &[Vec<T>]) -> bool {
    for (at, digit) in index.iter_mut().enumerate() {
        *digit += 1;
        if *digit < domains.get(at).map_or(0, Vec::len) {
            return true;
        }
        *digit = 0;
    }
    false
}
