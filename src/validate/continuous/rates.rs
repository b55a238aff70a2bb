//! Continuous effects made ground, and expressions as polynomials in time: the rates of the
//! active processes and running steps, the polynomial of every value they change (in the order
//! of their dependencies; a cycle is not polynomial), and the differences of the numeric
//! comparisons a condition watches.

use super::super::polynomial::{MAX_DEGREE, Polynomial};
use super::{Broken, Outcome, uses_time};
use crate::ast::{
    ArithOp, AssignOp, Effect, EffectKind, Expr, ExprKind, Gd, GdKind, Number, Span, Term,
};
use crate::semantics::{Binding, EvalError, Fact, State, World};
use std::collections::HashMap;

/// The tolerance `World::holds` compares numbers within, as VAL does (`a > b` holds when
/// `a - b > -0.0001`).
const COMPARISON_TOLERANCE: f64 = 0.0001;
/// The polynomial of every value that changes on a piece.
pub(super) type Flows = HashMap<Fact, Polynomial>;

/// A continuous effect, ground: `fact` changes at `sign * rate`.
pub(super) struct Rate {
    fact: Fact,
    sign: f64,
    rate: Expr,
    binding: Binding,
    /// The process or step it comes from, for messages.
    source: String,
}

fn number(value: f64, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Number(Number {
            text: value.to_string(),
            value,
            span,
        }),
        span,
    }
}

/// The rate of a continuous update's value: `#t` is 1, `(* #t e…)` the product of the `e`s.
fn rate_of(value: &Expr) -> Option<Expr> {
    match &value.kind {
        ExprKind::Time => Some(number(1.0, value.span)),
        ExprKind::Op {
            op: ArithOp::Mul,
            args,
        } => {
            let times = args
                .iter()
                .filter(|a| matches!(a.kind, ExprKind::Time))
                .count();
            let rest: Vec<Expr> = args
                .iter()
                .filter(|a| !matches!(a.kind, ExprKind::Time))
                .cloned()
                .collect();
            if times != 1 || rest.iter().any(uses_time) {
                return None;
            }
            Some(match rest.len() {
                0 => number(1.0, value.span),
                1 => rest.into_iter().next()?,
                _ => Expr {
                    kind: ExprKind::Op {
                        op: ArithOp::Mul,
                        args: rest,
                    },
                    span: value.span,
                },
            })
        }
        _ => None,
    }
}

/// The continuous effects of `effect`, ground.
pub(super) fn collect_rates(
    world: &World,
    effect: &Effect,
    binding: &mut Binding,
    source: &str,
    time: f64,
    out: &mut Vec<Rate>,
) -> Outcome<()> {
    let eval = |e: EvalError| Broken::Evaluation(e, time);
    match &effect.kind {
        EffectKind::And { args } => {
            for a in args {
                collect_rates(world, a, binding, source, time, out)?;
            }
            Ok(())
        }
        EffectKind::Forall { variables, body } => {
            let mut bindings = Vec::new();
            world
                .each_binding(variables, binding, &mut |b| {
                    bindings.push(b.clone());
                    Ok(false)
                })
                .map_err(eval)?;
            for mut b in bindings {
                collect_rates(world, body, &mut b, source, time, out)?;
            }
            Ok(())
        }
        EffectKind::Numeric {
            op: op @ (AssignOp::Increase | AssignOp::Decrease),
            target,
            value,
        } if uses_time(value) => {
            let Some(rate) = rate_of(value) else {
                return Err(Broken::Unsupported(format!(
                    "the continuous effect of `{source}` that is not of the form `(* #t rate)`"
                )));
            };
            let fact = world.target_fact(target, binding).map_err(eval)?;
            out.push(Rate {
                fact,
                sign: if *op == AssignOp::Increase { 1.0 } else { -1.0 },
                rate,
                binding: binding.clone(),
                source: source.to_string(),
            });
            Ok(())
        }
        _ => Err(Broken::Unsupported(format!(
            "an effect of `{source}` other than `(increase f (* #t rate))` or \
             `(decrease f (* #t rate))` (a process changes values only continuously)"
        ))),
    }
}

/// The polynomial of every value the rates change, from its value in `state`; an `Err` names a
/// rate that is not a polynomial in time (it depends on its own value, directly or through
/// others).
pub(super) fn flows(world: &World, state: &State, rates: &[Rate], time: f64) -> Outcome<Flows> {
    let mut by_fact: HashMap<Fact, Vec<&Rate>> = HashMap::new();
    for rate in rates {
        by_fact.entry(rate.fact.clone()).or_default().push(rate);
    }
    let mut flows = Flows::new();
    // In the order the effects come, so that a message names the same rate on every run.
    for fact in rates.iter().map(|r| &r.fact) {
        solve(
            world,
            state,
            &by_fact,
            fact,
            &mut flows,
            &mut Vec::new(),
            time,
        )?;
    }
    Ok(flows)
}

fn solve(
    world: &World,
    state: &State,
    by_fact: &HashMap<Fact, Vec<&Rate>>,
    fact: &Fact,
    flows: &mut Flows,
    visiting: &mut Vec<Fact>,
    time: f64,
) -> Outcome<()> {
    if flows.contains_key(fact) {
        return Ok(());
    }
    let Some(rates) = by_fact.get(fact) else {
        return Ok(());
    };
    let show = |f: &Fact| world.show_value(f);
    visiting.push(fact.clone());
    let mut derivative = Polynomial::constant(0.0);
    for rate in rates {
        let mut read = Vec::new();
        reads(world, &rate.rate, &rate.binding, &mut read);
        for other in &read {
            if !by_fact.contains_key(other) {
                continue;
            }
            // A rate that reads a value whose own rate is being computed: a cycle.
            if visiting.contains(other) {
                let what = if other == fact {
                    format!("{} itself", show(other))
                } else {
                    format!("{}, whose rate depends on {}", show(other), show(fact))
                };
                return Err(Broken::Unsupported(format!(
                    "non-linear continuous change: the rate of {} in `{}` reads {what}",
                    show(fact),
                    rate.source,
                )));
            }
            solve(world, state, by_fact, other, flows, visiting, time)?;
        }
        let value = polynomial(world, &rate.rate, &rate.binding, state, flows, time).map_err(
            |b| match b {
                Broken::Unsupported(what) => Broken::Unsupported(format!(
                    "non-linear continuous change: the rate of {} in `{}` has {what}",
                    show(fact),
                    rate.source
                )),
                other => other,
            },
        )?;
        derivative = derivative.add(&value.scale(rate.sign));
    }
    visiting.pop();
    let start = state
        .values
        .get(fact)
        .copied()
        .ok_or_else(|| Broken::Evaluation(EvalError::Undefined(show(fact)), time))?;
    let Some(change) = derivative.integral() else {
        return Err(Broken::Unsupported(format!(
            "continuous change of {} of a degree above {MAX_DEGREE}",
            show(fact)
        )));
    };
    flows.insert(fact.clone(), Polynomial::constant(start).add(&change));
    Ok(())
}

/// The fluents an expression reads.
fn reads(world: &World, e: &Expr, binding: &Binding, out: &mut Vec<Fact>) {
    match &e.kind {
        ExprKind::Function(_)
        | ExprKind::Term {
            term: Term::Name(_),
        } => {
            if let Ok(fact) = world.target_fact(e, binding) {
                out.push(fact);
            }
        }
        ExprKind::Op { args, .. } | ExprKind::Call { args, .. } => {
            for a in args {
                reads(world, a, binding, out);
            }
        }
        _ => {}
    }
}

/// An expression as a polynomial in the time since the start of the piece.
pub(super) fn polynomial(
    world: &World,
    e: &Expr,
    binding: &Binding,
    state: &State,
    flows: &Flows,
    time: f64,
) -> Outcome<Polynomial> {
    let eval = |e: EvalError| Broken::Evaluation(e, time);
    match &e.kind {
        ExprKind::Function(_)
        | ExprKind::Term {
            term: Term::Name(_),
        } => {
            let fact = world.target_fact(e, binding).map_err(eval)?;
            if let Some(p) = flows.get(&fact) {
                return Ok(p.clone());
            }
            world
                .value(e, binding, state)
                .map(Polynomial::constant)
                .map_err(eval)
        }
        ExprKind::Op { op, args } => {
            let values = args
                .iter()
                .map(|a| polynomial(world, a, binding, state, flows, time))
                .collect::<Outcome<Vec<Polynomial>>>()?;
            arithmetic(op, &values, time)
        }
        ExprKind::Call { function, args } => {
            let mut read = Vec::new();
            for a in args {
                reads(world, a, binding, &mut read);
            }
            if read.iter().any(|f| flows.contains_key(f)) {
                return Err(Broken::Unsupported(format!(
                    "`{}` of a changing value",
                    function.text
                )));
            }
            // ENHSP's functions of one value, on a value that does not change.
            let values = args
                .iter()
                .map(|a| polynomial(world, a, binding, state, flows, time))
                .collect::<Outcome<Vec<Polynomial>>>()?;
            match values.as_slice() {
                [x] => match function_of(&function.key(), x.at_start()) {
                    Some(v) if v.is_finite() => Ok(Polynomial::constant(v)),
                    Some(_) => Err(eval(EvalError::Arithmetic(format!(
                        "`{}` of {} has no value",
                        function.text,
                        x.at_start()
                    )))),
                    None => Err(Broken::Unsupported(format!(
                        "the function `{}`",
                        function.text
                    ))),
                },
                _ => Err(Broken::Unsupported(format!(
                    "the function `{}` with {} arguments",
                    function.text,
                    args.len()
                ))),
            }
        }
        ExprKind::Time => Err(Broken::Unsupported("`#t` inside the rate".into())),
        _ => world
            .value(e, binding, state)
            .map(Polynomial::constant)
            .map_err(eval),
    }
}

/// An arithmetic operator applied to the polynomials of its arguments.
#[inline]
fn arithmetic(op: &ArithOp, values: &[Polynomial], time: f64) -> Outcome<Polynomial> {
    let eval = |e: EvalError| Broken::Evaluation(e, time);
    let degree = || Broken::Unsupported(format!("a degree above {MAX_DEGREE}"));
    match (op, values) {
        (ArithOp::Sub, [x]) => Ok(x.scale(-1.0)),
        (ArithOp::Sub, [x, rest @ ..]) => Ok(rest.iter().fold(x.clone(), |a, b| a.sub(b))),
        (ArithOp::Add, _) => Ok(values
            .iter()
            .fold(Polynomial::constant(0.0), |a, b| a.add(b))),
        (ArithOp::Mul, _) => values
            .iter()
            .try_fold(Polynomial::constant(1.0), |a, b| a.mul(b))
            .ok_or_else(degree),
        (ArithOp::Div, [x, y]) if y.is_constant() => {
            if y.at_start() == 0.0 {
                return Err(eval(EvalError::Arithmetic("division by zero".into())));
            }
            Ok(x.scale(1.0 / y.at_start()))
        }
        (ArithOp::Div, [_, _]) => Err(Broken::Unsupported("a division by a changing value".into())),
        (ArithOp::Pow, [x, y]) if x.is_constant() && y.is_constant() => {
            Ok(Polynomial::constant(x.at_start().powf(y.at_start())))
        }
        (ArithOp::Pow, [x, y])
            if y.is_constant()
                && y.at_start().fract() == 0.0
                && (0.0..=MAX_DEGREE as f64).contains(&y.at_start()) =>
        {
            let mut out = Polynomial::constant(1.0);
            for _ in 0..y.at_start() as usize {
                out = out.mul(x).ok_or_else(degree)?;
            }
            Ok(out)
        }
        (ArithOp::Pow, _) => Err(Broken::Unsupported(
            "a power of a changing value that is not a small whole number".into(),
        )),
        _ => Err(eval(EvalError::Unsupported(
            "an operator with this many arguments".into(),
        ))),
    }
}

/// ENHSP's function of one value named `key` at `x`, or `None` if there is no such function.
#[inline]
fn function_of(key: &str, x: f64) -> Option<f64> {
    Some(match key {
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tan" => x.tan(),
        "asin" => x.asin(),
        "acos" => x.acos(),
        "atan" => x.atan(),
        "sqrt" => x.sqrt(),
        "abs" => x.abs(),
        "exp" => x.exp(),
        _ => return None,
    })
}

/// The differences `lhs - rhs` of the numeric comparisons of `gd` that change with time.
pub(super) fn comparisons(
    world: &World,
    gd: &Gd,
    binding: &mut Binding,
    state: &State,
    flows: &Flows,
    time: f64,
    out: &mut Vec<Polynomial>,
) -> Outcome<()> {
    match &gd.kind {
        GdKind::And { args } | GdKind::Or { args } => {
            for a in args {
                comparisons(world, a, binding, state, flows, time, out)?;
            }
            Ok(())
        }
        GdKind::Not { arg } => comparisons(world, arg, binding, state, flows, time, out),
        GdKind::Imply {
            condition,
            consequence,
        } => {
            comparisons(world, condition, binding, state, flows, time, out)?;
            comparisons(world, consequence, binding, state, flows, time, out)
        }
        GdKind::Exists { variables, body } | GdKind::Forall { variables, body } => {
            let mut bindings = Vec::new();
            world
                .each_binding(variables, binding, &mut |b| {
                    bindings.push(b.clone());
                    Ok(false)
                })
                .map_err(|e| Broken::Evaluation(e, time))?;
            for mut b in bindings {
                comparisons(world, body, &mut b, state, flows, time, out)?;
            }
            Ok(())
        }
        GdKind::Preference { body, .. } | GdKind::Timed { body, .. } => {
            comparisons(world, body, binding, state, flows, time, out)
        }
        GdKind::Compare { lhs, rhs, .. } => {
            let mut read = Vec::new();
            reads(world, lhs, binding, &mut read);
            reads(world, rhs, binding, &mut read);
            if !read.iter().any(|f| flows.contains_key(f)) {
                return Ok(());
            }
            let left = polynomial(world, lhs, binding, state, flows, time)?;
            let right = polynomial(world, rhs, binding, state, flows, time)?;
            let difference = left.sub(&right);
            if !difference.is_constant() {
                // `World::holds` compares within VAL's tolerance: the truth changes where the
                // difference is the tolerance above or below zero.
                out.push(difference.add(&Polynomial::constant(COMPARISON_TOLERANCE)));
                out.push(difference.sub(&Polynomial::constant(COMPARISON_TOLERANCE)));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
