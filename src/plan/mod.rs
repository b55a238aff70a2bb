//! Plans: their text, and their simulation against a domain and problem (the validator).
//!
//! `plan::validate` reads a plan and runs it step by step from the initial state, as VAL does
//! for sequential plans: a step's preconditions are read in the state before it, its
//! conditional effects' conditions too, deletes apply before adds. Nothing is grounded ahead:
//! the cost is the plan's length times the size of its actions (and their quantifiers).
//! Timestamped plans run as VAL runs them: steps sorted by time, steps closer than the
//! tolerance forming one happening whose preconditions all read the same state.

pub mod text;
mod world;

pub use text::Step;
pub use world::EvalError;

use crate::ast::{Domain, ExprKind, InitKind, Problem};
use crate::diagnostics::{Code, Diagnostic};
use serde::Serialize;
use world::{Binding, Changes, State, World};

/// How to validate.
#[derive(Clone, Debug)]
pub struct ValidateOptions {
    /// Keep going after a failed step, applying its effects anyway, and report every failure.
    pub keep_going: bool,
    /// Steps whose times differ by less than this form one happening (VAL's `-t`, 0.01).
    pub tolerance: f64,
}

impl Default for ValidateOptions {
    fn default() -> Self {
        ValidateOptions {
            keep_going: false,
            tolerance: 0.01,
        }
    }
}

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The plan text does not parse.
    Syntax,
    UnknownAction,
    WrongArgumentCount,
    UnknownObject,
    TypeMismatch,
    Precondition,
    /// Two steps of one happening interfere.
    Mutex,
    /// A numeric value is read before it has one, or arithmetic fails.
    Evaluation,
    Goal,
    /// The task uses something the validator does not interpret: no verdict.
    Unsupported,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Failure {
    /// 1-based index of the step in the plan as written; `None` for the goal or the whole plan.
    pub step: Option<usize>,
    pub kind: FailureKind,
    /// The ground atoms or conditions involved (unsatisfied preconditions, unmet goals).
    pub atoms: Vec<String>,
    pub message: String,
}

/// The verdict on a plan.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// `Some(true)` valid, `Some(false)` invalid, `None` when the validator cannot say.
    pub valid: Option<bool>,
    /// The number of steps in the plan.
    pub steps: usize,
    /// The first step that could not be executed, 1-based.
    pub failed_step: Option<usize>,
    /// The ground preconditions of the first failed step that do not hold.
    pub unsatisfied: Vec<String>,
    pub unmet_goals: Vec<String>,
    /// The metric's value after a valid plan; the number of steps when the problem has no
    /// metric, as VAL reports.
    pub metric: Option<f64>,
    pub failures: Vec<Failure>,
    /// Located problems in the plan text (syntax, unknown names, failed steps).
    #[serde(skip)]
    pub diagnostics: Vec<Diagnostic>,
}

impl Report {
    fn new(steps: usize) -> Report {
        Report {
            valid: None,
            steps,
            failed_step: None,
            unsatisfied: Vec::new(),
            unmet_goals: Vec::new(),
            metric: None,
            failures: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    fn fail(&mut self, failure: Failure, diagnostic: Option<Diagnostic>) {
        if self.failed_step.is_none() && failure.kind != FailureKind::Goal {
            self.failed_step = failure.step;
            if failure.kind == FailureKind::Precondition {
                self.unsatisfied = failure.atoms.clone();
            }
        }
        self.failures.push(failure);
        if let Some(d) = diagnostic {
            self.diagnostics.push(d);
        }
    }

    /// Step `i` (0-based) could not be evaluated.
    fn evaluation_failed(&mut self, i: usize, step: &Step, error: &EvalError) {
        let message = format!("{}: {error}", step.text());
        self.fail(
            Failure {
                step: Some(i + 1),
                kind: FailureKind::Evaluation,
                atoms: Vec::new(),
                message: message.clone(),
            },
            Some(Diagnostic::new(Code::EvaluationFailed, message, step.span)),
        );
    }

    /// No verdict. The diagnostic has no label: it is about the task, and the report's
    /// diagnostics are located in the plan.
    fn unsupported(mut self, what: String) -> Report {
        self.valid = None;
        self.failures.push(Failure {
            step: None,
            kind: FailureKind::Unsupported,
            atoms: Vec::new(),
            message: what.clone(),
        });
        self.diagnostics.push(
            Diagnostic::unlocated(Code::ValidateUnsupported, what)
                .with_help("pddlc validates sequential plans of classical and numeric tasks"),
        );
        self
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

/// The ground actions applicable in the state the plan prefix `plan` reaches (the initial state
/// for an empty plan), as `(action obj…)`, sorted. When the prefix cannot be executed, its report
/// says why.
pub fn applicable(
    domain: &Domain,
    problem: &Problem,
    plan: &str,
) -> Result<Vec<String>, Box<Report>> {
    crate::parse::with_stack(|| {
        let mut found = Vec::new();
        let mut collect = |world: &mut World, state: &State| {
            world.warm();
            for action in domain.actions() {
                let domains: Vec<Vec<u32>> = action
                    .parameters
                    .iter()
                    .map(|p| world.members(&p.ty))
                    .collect();
                let mut index = vec![0usize; domains.len()];
                if domains.iter().any(Vec::is_empty) {
                    continue;
                }
                loop {
                    let mut binding = Binding::default();
                    for ((param, d), &k) in action.parameters.iter().zip(&domains).zip(&index) {
                        binding.push(&param.item, d[k]);
                    }
                    let ok = match &action.precondition {
                        None => true,
                        Some(pre) => world.holds(pre, &mut binding, state).unwrap_or(false),
                    };
                    if ok {
                        let mut text = format!("({}", action.name.text.to_lowercase());
                        for (d, &k) in domains.iter().zip(&index) {
                            text.push(' ');
                            text.push_str(&world.objects[d[k] as usize]);
                        }
                        text.push(')');
                        found.push(text);
                    }
                    // Next binding, like an odometer.
                    let mut at = 0;
                    loop {
                        if at == index.len() {
                            break;
                        }
                        index[at] += 1;
                        if index[at] < domains[at].len() {
                            break;
                        }
                        index[at] = 0;
                        at += 1;
                    }
                    if at == index.len() {
                        break;
                    }
                }
            }
        };
        let options = ValidateOptions::default();
        let report = run(domain, problem, plan, &options, Some(&mut collect));
        if report.failures.iter().any(|f| f.kind != FailureKind::Goal) {
            return Err(Box::new(report));
        }
        found.sort();
        Ok(found)
    })
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
    let (steps, syntax) = text::parse(plan);
    let mut report = Report::new(steps.len());
    if !syntax.is_empty() {
        report.valid = Some(false);
        for d in syntax {
            report.failures.push(Failure {
                step: None,
                kind: FailureKind::Syntax,
                atoms: Vec::new(),
                message: d.message.clone(),
            });
            report.diagnostics.push(d);
        }
        return report;
    }

    // What the sequential validator does not interpret: say so rather than guess.
    // Processes and events change the state between steps, and a durative action in the plan
    // needs the temporal semantics: both are beyond the sequential validator.
    let names_durative = |step: &Step| domain.durative_actions().any(|a| a.name == step.action);
    let has_process = domain.structures.iter().any(|s| {
        matches!(
            s,
            crate::ast::Structure::Process(_) | crate::ast::Structure::Event(_)
        )
    });
    if has_process || steps.iter().any(names_durative) {
        return report.unsupported(
            "durative actions, processes and events are not supported by `validate` yet".into(),
        );
    }
    if problem
        .init
        .iter()
        .any(|i| matches!(i.kind, InitKind::At { .. }))
    {
        return report
            .unsupported("timed initial literals are not supported by `validate` yet".into());
    }
    if problem.constraints.is_some() {
        return report
            .unsupported("trajectory constraints are not supported by `validate` yet".into());
    }

    let mut world = World::new(domain, problem);
    world.warm();

    // Every step must name an action, with the right number of known objects of the right types.
    let mut grounded: Vec<Option<(&crate::ast::Action, Vec<u32>)>> = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        grounded.push(ground(&world, step, i + 1, &mut report));
    }
    if report.failures.iter().any(|f| f.kind != FailureKind::Goal) {
        report.valid = Some(false);
        return report;
    }

    let mut state = match world.initial_state() {
        Ok(state) => state,
        Err(e) => {
            report.valid = Some(false);
            report.fail(
                Failure {
                    step: None,
                    kind: FailureKind::Evaluation,
                    atoms: Vec::new(),
                    message: format!("the initial state cannot be built: {e}"),
                },
                Some(Diagnostic::unlocated(
                    Code::EvaluationFailed,
                    format!("the initial state cannot be built: {e}"),
                )),
            );
            return report;
        }
    };

    let happenings = happenings(&steps, options.tolerance);
    let mut last_time = 0.0;
    for happening in &happenings {
        last_time = happening.time;
        let mut claims: Vec<world::Claim> = Vec::new();
        let mut failed = false;
        for &i in &happening.steps {
            let Some((action, objects)) = &grounded[i] else {
                continue;
            };
            let step = &steps[i];
            let mut binding = Binding::default();
            for (param, &o) in action.parameters.iter().zip(objects) {
                binding.push(&param.item, o);
            }
            // PDDL 1.2 `:vars` are bound by the precondition: the first binding of them that
            // satisfies it is the one the effects use.
            let ok = match &action.precondition {
                None => Ok(true),
                Some(pre) if !action.vars.is_empty() => {
                    let mut found = None;
                    let search = world.each_binding(&action.vars, &mut binding, &mut |b| {
                        let holds = world.holds(pre, b, &state)?;
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
                Some(pre) => world.holds(pre, &mut binding, &state),
            };
            match ok {
                Ok(true) => {}
                Ok(false) => {
                    let mut atoms = Vec::new();
                    if let Some(pre) = &action.precondition {
                        world.unsatisfied(pre, &mut binding, &state, &mut atoms);
                    }
                    let message = format!(
                        "{} has an unsatisfied precondition at step {}: {} must be true before it",
                        step.text(),
                        i + 1,
                        atoms.join(" and ")
                    );
                    report.fail(
                        Failure {
                            step: Some(i + 1),
                            kind: FailureKind::Precondition,
                            atoms: atoms.clone(),
                            message: message.clone(),
                        },
                        Some(
                            Diagnostic::new(
                                Code::PreconditionUnsatisfied,
                                format!("{} cannot be applied", step.text()),
                                step.span,
                            )
                            .with_primary_message(format!("step {}", i + 1))
                            .with_help(format!(
                                "{} must be true before step {}",
                                atoms.join(" and "),
                                i + 1
                            )),
                        ),
                    );
                    // Every step of a happening reads the same state: report each that fails in it.
                    // With `--continue`, its effects still apply.
                    failed = true;
                    if !options.keep_going {
                        continue;
                    }
                }
                Err(e) => {
                    report.evaluation_failed(i, step, &e);
                    failed = true;
                    if !options.keep_going {
                        break;
                    }
                    continue;
                }
            }
            let mut record = world::Record::default();
            if let Some(effect) = &action.effect
                && let Err(e) = world.record(effect, &mut binding, &state, &mut record)
            {
                report.evaluation_failed(i, step, &e);
                failed = true;
                if !options.keep_going {
                    break;
                }
            }
            let marks = if happening.steps.len() > 1 {
                world.precondition_marks(action.precondition.as_ref(), &mut binding)
            } else {
                Vec::new()
            };
            claims.push((i, record, marks));
        }
        if failed && !options.keep_going {
            report.valid = Some(false);
            return report;
        }
        // Several steps at one time must not interfere (VAL's mutex rules).
        if !failed
            && claims.len() > 1
            && let Some((i, conflict)) = world.interference(&claims)
        {
            let step = &steps[i];
            let message = format!("mutex violation: {} {conflict}", step.text());
            report.fail(
                Failure {
                    step: Some(i + 1),
                    kind: FailureKind::Mutex,
                    atoms: Vec::new(),
                    message: message.clone(),
                },
                Some(
                    Diagnostic::new(Code::MutexSteps, message, step.span)
                        .with_help("steps at the same time must not read or change what another changes; give them different times"),
                ),
            );
            if !options.keep_going {
                report.valid = Some(false);
                return report;
            }
        }
        let mut all = Changes::default();
        for (_, record, _) in &claims {
            record.changes(&mut all);
        }
        if let Err(e) = world.apply(&all, &mut state) {
            let first = happening.steps.first().copied().unwrap_or(0);
            let message = format!("{}: {e}", steps[first].text());
            report.fail(
                Failure {
                    step: Some(first + 1),
                    kind: FailureKind::Evaluation,
                    atoms: Vec::new(),
                    message: message.clone(),
                },
                Some(
                    Diagnostic::new(Code::EvaluationFailed, message, steps[first].span)
                        .with_help("give the fluent a value in the problem's `:init`"),
                ),
            );
            if !options.keep_going {
                report.valid = Some(false);
                return report;
            }
        }
    }

    if let Some(callback) = at_end {
        callback(&mut world, &state);
    }
    if let Some(goal) = &problem.goal {
        let mut binding = Binding::default();
        match world.holds(goal, &mut binding, &state) {
            Ok(true) => {}
            Ok(false) => {
                let mut atoms = Vec::new();
                world.unsatisfied(goal, &mut binding, &state, &mut atoms);
                report.unmet_goals = atoms.clone();
                report.fail(
                    Failure {
                        step: None,
                        kind: FailureKind::Goal,
                        message: format!(
                            "the goal is not satisfied: {} must be true at the end",
                            atoms.join(" and ")
                        ),
                        atoms,
                    },
                    Some(
                        Diagnostic::unlocated(
                            Code::GoalUnsatisfied,
                            "the plan does not reach the goal",
                        )
                        .with_help(format!(
                            "{} must be true at the end",
                            report.unmet_goals.join(" and ")
                        )),
                    ),
                );
            }
            Err(e) => report.fail(
                Failure {
                    step: None,
                    kind: FailureKind::Evaluation,
                    atoms: Vec::new(),
                    message: format!("the goal cannot be evaluated: {e}"),
                },
                None,
            ),
        }
    }
    report.valid = Some(report.failures.is_empty());
    if report.valid == Some(true) {
        // VAL's value: the metric, or the number of steps. `total-time` is the last happening's
        // time in a domain declaring `:durative-actions` or `:time`, else the number of steps.
        let durative = domain
            .requirements
            .iter()
            .any(|r| r.is(":durative-actions") || r.is(":time"));
        let total_time = if durative {
            last_time
        } else {
            steps.len() as f64
        };
        // A metric that cannot be evaluated (an undefined fluent) has no value; it is not
        // replaced by anything.
        report.metric = match &problem.metric {
            Some(m) => metric_value(&world, &m.expr, &state, total_time).ok(),
            None => Some(steps.len() as f64),
        };
    }
    report
}

fn metric_value(
    world: &World,
    e: &crate::ast::Expr,
    state: &State,
    total_time: f64,
) -> Result<f64, EvalError> {
    match &e.kind {
        ExprKind::TotalTime => Ok(total_time),
        ExprKind::Op { op, args }
            if args
                .iter()
                .any(|a| matches!(a.kind, ExprKind::TotalTime | ExprKind::Op { .. })) =>
        {
            let values = args
                .iter()
                .map(|a| metric_value(world, a, state, total_time))
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

/// Resolves a step to its action and objects, reporting what does not fit.
fn ground<'w>(
    world: &World<'w>,
    step: &Step,
    number: usize,
    report: &mut Report,
) -> Option<(&'w crate::ast::Action, Vec<u32>)> {
    let Some(&action) = world.actions.get(&step.action.key()) else {
        let names: Vec<&str> = world.actions.keys().map(String::as_str).collect();
        let help = crate::check::suggest_name(&step.action.text, &names)
            .map(|n| format!("did you mean `{n}`?"))
            .unwrap_or_else(|| "the step must name an action of the domain".into());
        report.fail(
            Failure {
                step: Some(number),
                kind: FailureKind::UnknownAction,
                atoms: Vec::new(),
                message: format!("the domain has no action `{}`", step.action.text),
            },
            Some(
                Diagnostic::new(
                    Code::UnknownAction,
                    format!("the domain has no action `{}`", step.action.text),
                    step.action.span,
                )
                .with_help(help),
            ),
        );
        return None;
    };
    if action.parameters.len() != step.args.len() {
        let message = format!(
            "`{}` takes {} argument{}, step {number} gives {}",
            action.name.text,
            action.parameters.len(),
            if action.parameters.len() == 1 {
                ""
            } else {
                "s"
            },
            step.args.len()
        );
        report.fail(
            Failure {
                step: Some(number),
                kind: FailureKind::WrongArgumentCount,
                atoms: Vec::new(),
                message: message.clone(),
            },
            Some(Diagnostic::new(Code::StepArity, message, step.span)),
        );
        return None;
    }
    let mut objects = Vec::new();
    let mut ok = true;
    for (arg, param) in step.args.iter().zip(&action.parameters) {
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
                report.fail(
                    Failure {
                        step: Some(number),
                        kind: FailureKind::UnknownObject,
                        atoms: Vec::new(),
                        message: message.clone(),
                    },
                    Some(Diagnostic::new(Code::UnknownObject, message, arg.span).with_help(help)),
                );
            }
            Some(o) => {
                if world.typed && !world.fits(o, &param.ty) {
                    ok = false;
                    let wanted = match &param.ty {
                        Some(t) => crate::print::type_text(t),
                        None => "object".into(),
                    };
                    let message = format!(
                        "`{}` is a `{}`, but `?{}` of `{}` wants a `{wanted}`",
                        arg.text,
                        world.object_types(o).join(" "),
                        param.item.name.text,
                        action.name.text
                    );
                    report.fail(
                        Failure {
                            step: Some(number),
                            kind: FailureKind::TypeMismatch,
                            atoms: Vec::new(),
                            message: message.clone(),
                        },
                        Some(Diagnostic::new(Code::StepTypeMismatch, message, arg.span)),
                    );
                }
                objects.push(o);
            }
        }
    }
    ok.then_some((action, objects))
}
