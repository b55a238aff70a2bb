//! What the planner handles: classical tasks with ADL and action costs. Anything else is an
//! `S501` diagnostic on the construct, so that no answer is given for a task we would misread.

use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic, FileId};

/// The constructs of `domain` and `problem` the planner cannot honour, one diagnostic each.
pub fn unsupported(
    domain: &Domain,
    problem: &Problem,
    domain_file: FileId,
    problem_file: FileId,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut report = |file: FileId, span: Span, what: &str| {
        out.push(
            Diagnostic::new(
                Code::SolveUnsupported,
                format!("{what} are not supported by the planner"),
                span,
            )
            .in_file(file)
            .with_help("`pddlc solve` plans for classical tasks (STRIPS, ADL, derived predicates, action costs); use a numeric or temporal planner for this task"),
        );
    };
    for structure in &domain.structures {
        match structure {
            Structure::DurativeAction(a) => report(domain_file, a.span, "durative actions"),
            Structure::Process(a) | Structure::Event(a) => {
                report(domain_file, a.span, "processes and events")
            }
            Structure::Constraint(c) => report(domain_file, c.span, "global constraints"),
            Structure::Action(action) => {
                if let Some(first) = action.vars.first() {
                    report(domain_file, first.item.span(), "`:vars` of PDDL 1.2");
                }
                if let Some(pre) = &action.precondition {
                    condition(pre, &mut |span, what| report(domain_file, span, what));
                }
                if let Some(effect) = &action.effect {
                    effects(effect, false, &mut |span, what| {
                        report(domain_file, span, what)
                    });
                }
            }
            Structure::Derived(rule) => {
                condition(&rule.body, &mut |span, what| {
                    report(domain_file, span, what)
                });
            }
        }
    }
    if let Some(constraints) = &domain.constraints {
        report(domain_file, constraints.span, "trajectory constraints");
    }
    for init in &problem.init {
        if matches!(init.kind, InitKind::At { .. }) {
            report(problem_file, init.span, "timed initial literals");
        }
    }
    if let Some(goal) = &problem.goal {
        condition(goal, &mut |span, what| report(problem_file, span, what));
    }
    if let Some(constraints) = &problem.constraints {
        report(problem_file, constraints.span, "trajectory constraints");
    }
    if let Some(metric) = &problem.metric
        && !is_total_cost_minimised(metric)
    {
        report(
            problem_file,
            metric.span,
            "metrics other than `(minimize (total-cost))`",
        );
    }
    out
}

/// Whether the metric is `(minimize (total-cost))`, the one action costs are read under.
pub fn is_total_cost_minimised(metric: &Metric) -> bool {
    metric.optimization == Optimization::Minimize && is_total_cost(&metric.expr)
}

/// Whether an expression is `(total-cost)` (or the bare name).
pub fn is_total_cost(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Function(f) => f.args.is_empty() && f.name.is("total-cost"),
        ExprKind::Term {
            term: Term::Name(n),
        } => n.is("total-cost"),
        _ => false,
    }
}

fn condition(gd: &Gd, report: &mut dyn FnMut(Span, &str)) {
    match &gd.kind {
        GdKind::Atom(_) => {}
        GdKind::And { args } | GdKind::Or { args } => {
            args.iter().for_each(|a| condition(a, report))
        }
        GdKind::Not { arg } => condition(arg, report),
        GdKind::Imply {
            condition: c,
            consequence,
        } => {
            condition(c, report);
            condition(consequence, report);
        }
        GdKind::Exists { body, .. } | GdKind::Forall { body, .. } => condition(body, report),
        GdKind::Compare { .. } => report(gd.span, "numeric conditions"),
        GdKind::Preference { .. } => report(gd.span, "preferences"),
        GdKind::Timed { .. } => report(gd.span, "timed conditions"),
        GdKind::Modal { .. } => report(gd.span, "trajectory constraints"),
    }
}

/// Effects: only `(increase (total-cost) N)` is numeric, with `N` a number or a function the
/// actions never change, and not under a `when`.
fn effects(effect: &Effect, conditional: bool, report: &mut dyn FnMut(Span, &str)) {
    match &effect.kind {
        EffectKind::And { args } => args.iter().for_each(|a| effects(a, conditional, report)),
        EffectKind::Forall { body, .. } => effects(body, conditional, report),
        EffectKind::When { condition: c, body } => {
            condition(c, report);
            effects(body, true, report);
        }
        EffectKind::Add { .. } | EffectKind::Delete { .. } => {}
        EffectKind::Numeric { op, target, value } => {
            let cost_value = matches!(
                value.kind,
                ExprKind::Number(_) | ExprKind::Function(_) | ExprKind::Term { .. }
            );
            if *op != AssignOp::Increase || !is_total_cost(target) || !cost_value {
                report(effect.span, "numeric effects");
            } else if conditional {
                report(effect.span, "conditional action costs");
            }
        }
        EffectKind::Timed { .. } => report(effect.span, "timed effects"),
    }
}
