//! A durative action split by when its parts hold or happen: `at start`, `at end` and
//! `over all` conditions, `at start` and `at end` effects (a universal effect split into one of
//! each, a conditional effect kept whole at one end), its continuous effects (`#t`), and its
//! duration constraint as bounds on `?duration`. What the validator does not interpret is an `Err` naming it.

use crate::ast::{
    CompareOp, DurativeAction, Effect, EffectKind, Expr, ExprKind, Gd, GdKind, Span, Term, TimeSpec,
};

/// A durative action split by when its parts hold or happen.
pub(super) struct Parts<'a> {
    pub action: &'a DurativeAction,
    pub at_start: Option<Gd>,
    pub at_end: Option<Gd>,
    pub over_all: Option<Gd>,
    pub start_effect: Option<Effect>,
    pub end_effect: Option<Effect>,
    /// The continuous effects (`(increase f (* #t rate))`), active while the step runs.
    pub continuous: Option<Effect>,
    pub bounds: Vec<Bound<'a>>,
}

/// One duration constraint: `?duration op value`, checked at the start or at the end.
pub(super) struct Bound<'a> {
    pub at: TimeSpec,
    pub op: CompareOp,
    pub value: &'a Expr,
    pub span: Span,
}

impl<'a> Parts<'a> {
    /// Splits `action`; `Err` names what the validator does not interpret.
    pub fn of(action: &'a DurativeAction) -> Result<Parts<'a>, String> {
        let span = action.span;
        let mut conditions: [Vec<Gd>; 3] = Default::default();
        if let Some(condition) = &action.condition {
            split_condition(condition, &mut conditions)?;
        }
        let mut split = Split::default();
        if let Some(effect) = &action.effect {
            split_effect(effect, &mut split)?;
        }
        let mut bounds = Vec::new();
        if let Some(duration) = &action.duration {
            duration_bounds(duration, TimeSpec::AtStart, &mut bounds)?;
        }
        let [at_start, at_end, over_all] = conditions;
        Ok(Parts {
            action,
            at_start: conjunction(at_start, span),
            at_end: conjunction(at_end, span),
            over_all: conjunction(over_all, span),
            start_effect: effects(split.starts, span),
            end_effect: effects(split.ends, span),
            continuous: effects(split.continuous, span),
            bounds,
        })
    }
}

/// The `at start` condition of a durative action: what must hold for it to start.
pub(super) fn start_condition(action: &DurativeAction) -> Result<Option<Gd>, String> {
    Parts::of(action).map(|parts| parts.at_start)
}

fn conjunction(mut parts: Vec<Gd>, span: Span) -> Option<Gd> {
    match parts.len() {
        0 => None,
        1 => parts.pop(),
        _ => Some(Gd {
            kind: GdKind::And { args: parts },
            span,
        }),
    }
}

fn effects(mut parts: Vec<Effect>, span: Span) -> Option<Effect> {
    match parts.len() {
        0 => None,
        1 => parts.pop(),
        _ => Some(Effect {
            kind: EffectKind::And { args: parts },
            span,
        }),
    }
}

/// Sorts a durative action's condition into `at start`, `at end` and `over all`.
fn split_condition(gd: &Gd, out: &mut [Vec<Gd>; 3]) -> Result<(), String> {
    match &gd.kind {
        GdKind::And { args } => args.iter().try_for_each(|a| split_condition(a, out)),
        GdKind::Timed { time, body } => {
            let slot = match time {
                TimeSpec::AtStart => 0,
                TimeSpec::AtEnd => 1,
                TimeSpec::OverAll => 2,
            };
            out[slot].push((**body).clone());
            Ok(())
        }
        // A preference over a timed condition is soft at that time: it never fails the step.
        GdKind::Preference { name, body } => {
            let mut inner: [Vec<Gd>; 3] = Default::default();
            split_condition(body, &mut inner)?;
            for (slot, parts) in inner.into_iter().enumerate() {
                if let Some(body) = conjunction(parts, gd.span) {
                    out[slot].push(Gd {
                        kind: GdKind::Preference {
                            name: name.clone(),
                            body: Box::new(body),
                        },
                        span: gd.span,
                    });
                }
            }
            Ok(())
        }
        _ => Err("a condition without `at start`, `at end` or `over all`".into()),
    }
}

/// A durative action's effects sorted by when they happen.
#[derive(Default)]
struct Split {
    starts: Vec<Effect>,
    ends: Vec<Effect>,
    continuous: Vec<Effect>,
}

/// Sorts a durative action's effect into `at start`, `at end` and continuous effects; a
/// universal effect is split into one of each.
fn split_effect(effect: &Effect, out: &mut Split) -> Result<(), String> {
    match &effect.kind {
        EffectKind::And { args } => args.iter().try_for_each(|a| split_effect(a, out)),
        EffectKind::Numeric { value, .. } if super::continuous::uses_time(value) => {
            out.continuous.push(effect.clone());
            Ok(())
        }
        EffectKind::Timed { time, body } => {
            if continuous(body) {
                return Err("a continuous effect (`#t`) under `at start` or `at end`".into());
            }
            match time {
                TimeSpec::AtStart => out.starts.push((**body).clone()),
                TimeSpec::AtEnd => out.ends.push((**body).clone()),
                TimeSpec::OverAll => return Err("an `over all` effect".into()),
            }
            Ok(())
        }
        EffectKind::Forall { variables, body } => {
            let mut inner = Split::default();
            split_effect(body, &mut inner)?;
            for (parts, slot) in [
                (inner.starts, &mut out.starts),
                (inner.ends, &mut out.ends),
                (inner.continuous, &mut out.continuous),
            ] {
                if let Some(body) = effects(parts, effect.span) {
                    slot.push(Effect {
                        kind: EffectKind::Forall {
                            variables: variables.clone(),
                            body: Box::new(body),
                        },
                        span: effect.span,
                    });
                }
            }
            Ok(())
        }
        EffectKind::When { condition, body } => {
            let mut conditions: [Vec<Gd>; 3] = Default::default();
            split_condition(condition, &mut conditions)?;
            let mut inner = Split::default();
            split_effect(body, &mut inner)?;
            if !inner.continuous.is_empty() {
                return Err("a conditional continuous effect (`#t`)".into());
            }
            let (inner_starts, inner_ends) = (inner.starts, inner.ends);
            let [at_start, at_end, over_all] = conditions;
            // A condition read at one end and an effect at the other (VAL's "communication
            // actions") is not interpreted.
            let (slot, condition, body) = match (at_start.is_empty(), at_end.is_empty()) {
                _ if !over_all.is_empty() => {
                    return Err("a conditional effect with an `over all` condition".into());
                }
                (false, true) if inner_ends.is_empty() => (0, at_start, inner_starts),
                (true, false) if inner_starts.is_empty() => (1, at_end, inner_ends),
                (true, true) if inner_ends.is_empty() => (0, at_start, inner_starts),
                (true, true) if inner_starts.is_empty() => (1, at_end, inner_ends),
                _ => {
                    return Err(
                        "a conditional effect whose condition and effect are at different ends"
                            .into(),
                    );
                }
            };
            let (Some(condition), Some(body)) = (
                conjunction(condition, effect.span).or(Some(Gd {
                    kind: GdKind::And { args: Vec::new() },
                    span: effect.span,
                })),
                effects(body, effect.span),
            ) else {
                return Ok(());
            };
            let when = Effect {
                kind: EffectKind::When {
                    condition,
                    body: Box::new(body),
                },
                span: effect.span,
            };
            if slot == 0 {
                out.starts.push(when)
            } else {
                out.ends.push(when)
            }
            Ok(())
        }
        _ => Err("an effect without `at start` or `at end`".into()),
    }
}

/// Whether an effect changes a value continuously (`#t`).
fn continuous(effect: &Effect) -> bool {
    match &effect.kind {
        EffectKind::And { args } => args.iter().any(continuous),
        EffectKind::Forall { body, .. }
        | EffectKind::When { body, .. }
        | EffectKind::Timed { body, .. } => continuous(body),
        EffectKind::Numeric { value, .. } => super::continuous::uses_time(value),
        EffectKind::Add { .. } | EffectKind::Delete { .. } => false,
    }
}

fn is_duration(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Term { term: Term::Variable(v) } if v.name.key() == "duration")
}

/// The duration constraint as bounds on `?duration`, each checked at the start unless it is
/// written under `at end`.
fn duration_bounds<'a>(gd: &'a Gd, at: TimeSpec, out: &mut Vec<Bound<'a>>) -> Result<(), String> {
    match &gd.kind {
        GdKind::And { args } => args.iter().try_for_each(|a| duration_bounds(a, at, out)),
        GdKind::Timed { time, body } => duration_bounds(body, *time, out),
        GdKind::Compare { op, lhs, rhs } if is_duration(lhs) => {
            out.push(Bound {
                at,
                op: *op,
                value: rhs,
                span: gd.span,
            });
            Ok(())
        }
        GdKind::Compare { op, lhs, rhs } if is_duration(rhs) => {
            let flipped = match op {
                CompareOp::Lt => CompareOp::Gt,
                CompareOp::Gt => CompareOp::Lt,
                CompareOp::Le => CompareOp::Ge,
                CompareOp::Ge => CompareOp::Le,
                CompareOp::Eq => CompareOp::Eq,
            };
            out.push(Bound {
                at,
                op: flipped,
                value: lhs,
                span: gd.span,
            });
            Ok(())
        }
        _ => Err("a duration constraint that is not a comparison of `?duration`".into()),
    }
}
