//! `--mode clean`: the six metrics computed on the AST, measuring what they were meant to.
//!
//! - EXEC: `pddlc check` finds no error in the predicted domain.
//! - SIM: the text2world similarity of the two domains' canonical prints (comments, layout,
//!   case and section order no longer count), or of the raw texts when one does not parse.
//! - F1_PRED: predicates as `name/arity(types…)`, case-insensitive.
//! - Per gold action, matched by name (case-insensitive): F1 of the parameters as
//!   `(position, type)`, and of the precondition's and the effect's literals after renaming
//!   variables by position (`?x`, `?block` → `?1`) and quantified ones by depth. A conditional or
//!   quantified part is one element, printed canonically. Increases of `total-cost` are the
//!   action's cost, not an effect. A gold action the prediction lacks scores 0 on its own.
//! - Renamed actions: each unmatched gold action is paired with the most similar unmatched
//!   predicted action, reported separately with what its scores would be.

use super::{Metrics, Side, sim};
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic, FileId};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};

/// A gold action the prediction names differently, and how it would score if matched.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Renamed {
    pub gold: String,
    pub pred: String,
    pub f1_param: f64,
    pub f1_precond: f64,
    pub f1_eff: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CleanScore {
    /// Percentages rounded to one decimal, like the text2world values.
    pub metrics: Metrics,
    /// Gold actions absent from the prediction (by name).
    pub missing_actions: Vec<String>,
    /// Predicted actions absent from the gold.
    pub extra_actions: Vec<String>,
    pub renamed: Vec<Renamed>,
    /// The gold domain's parse errors. When there are any, only EXEC and SIM are computed.
    pub gold_errors: Vec<Diagnostic>,
    /// The errors that make EXEC 0: the predicted domain's parse errors (then only EXEC and SIM
    /// are computed) or, when it parses, the errors `pddlc check` finds in it.
    pub pred_errors: Vec<Diagnostic>,
    /// The domain that does not parse, when one does not (the gold when neither does).
    pub unreadable: Option<Side>,
}

impl CleanScore {
    /// Why a domain could not be read, in words: its first parse error.
    pub fn note(&self) -> Option<String> {
        let (which, errors) = match self.unreadable? {
            Side::Gold => ("gold", &self.gold_errors),
            Side::Pred => ("predicted", &self.pred_errors),
        };
        let first = errors.first()?;
        Some(format!(
            "the {which} domain does not parse: {}: {}",
            first.code, first.message
        ))
    }
}

/// F1 of two sets: 1 when both are empty.
pub fn f1<T: Ord>(pred: &BTreeSet<T>, gold: &BTreeSet<T>) -> f64 {
    if pred.is_empty() && gold.is_empty() {
        return 1.0;
    }
    let tp = pred.intersection(gold).count() as f64;
    let precision = if pred.is_empty() {
        0.0
    } else {
        tp / pred.len() as f64
    };
    let recall = if gold.is_empty() {
        0.0
    } else {
        tp / gold.len() as f64
    };
    if precision + recall == 0.0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    }
}

fn percent(x: f64) -> f64 {
    (x * 1000.0).round() / 10.0
}

/// Scores `pred` against `gold`, both domain texts.
pub fn score(gold: &str, pred: &str) -> CleanScore {
    score_prepared(&Gold::new(gold), pred)
}

/// A gold domain read once to score many predictions against: its text, its tree or its parse
/// errors, and its canonical print.
#[derive(Debug)]
pub struct Gold {
    text: String,
    domain: Result<Domain, Vec<Diagnostic>>,
    printed: Option<String>,
}

impl Gold {
    pub fn new(text: &str) -> Gold {
        crate::parse::with_stack(|| {
            let domain = domain_of(text);
            let printed = domain.as_ref().ok().map(crate::fmt::domain);
            Gold {
                text: text.to_string(),
                domain,
                printed,
            }
        })
    }
}

/// [`score`] with the gold read beforehand.
pub fn score_prepared(gold: &Gold, pred: &str) -> CleanScore {
    crate::parse::with_stack(|| score_inner(gold, pred))
}

/// The domain in `text`, or its parse errors.
fn domain_of(text: &str) -> Result<Domain, Vec<Diagnostic>> {
    let parsed = crate::parse::domain(text);
    let errors: Vec<Diagnostic> = parsed
        .diagnostics
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    match parsed.value {
        Some(domain) if errors.is_empty() => Ok(domain),
        _ if errors.is_empty() => Err(vec![Diagnostic::unlocated(
            Code::InternalError,
            "the parser returned no domain and no error",
        )]),
        _ => Err(errors),
    }
}

/// The clean score of `pred_text` against the prepared gold.
fn score_inner(prepared: &Gold, pred_text: &str) -> CleanScore {
    let gold_text = prepared.text.as_str();
    let mut out = CleanScore {
        metrics: Metrics::default(),
        missing_actions: Vec::new(),
        extra_actions: Vec::new(),
        renamed: Vec::new(),
        gold_errors: Vec::new(),
        pred_errors: Vec::new(),
        unreadable: None,
    };
    let gold = &prepared.domain;
    let pred = domain_of(pred_text);
    out.pred_errors = match &pred {
        Ok(d) => crate::check::domain(d, FileId(0))
            .into_iter()
            .filter(Diagnostic::is_error)
            .collect(),
        Err(errors) => errors.clone(),
    };
    if let Err(errors) = gold {
        out.gold_errors = errors.clone();
    }
    let exec = if out.pred_errors.is_empty() {
        100.0
    } else {
        0.0
    };
    let (gold, pred) = match (gold, pred) {
        (Ok(g), Ok(p)) => (g, p),
        (gold, _) => {
            out.unreadable = Some(if gold.is_err() {
                Side::Gold
            } else {
                Side::Pred
            });
            out.metrics.exec = exec;
            out.metrics.sim = percent(sim::ratio(gold_text, pred_text));
            return out;
        }
    };
    let gold_printed = prepared.printed.as_deref().unwrap_or_default();
    let sim = sim::ratio(gold_printed, &crate::fmt::domain(&pred));
    let f1_pred = f1(&predicate_keys(&pred), &predicate_keys(gold));

    let gold_actions: Vec<&Action> = gold.actions().collect();
    let pred_actions: HashMap<String, &Action> =
        pred.actions().map(|a| (a.name.key(), a)).collect();
    let mut sums = (0.0, 0.0, 0.0);
    let mut unmatched_gold = Vec::new();
    for g in &gold_actions {
        match pred_actions.get(&g.name.key()) {
            Some(p) => {
                let (a, b, c) = compare_actions(g, p);
                sums = (sums.0 + a, sums.1 + b, sums.2 + c);
            }
            None => {
                out.missing_actions.push(g.name.text.to_string());
                unmatched_gold.push(*g);
            }
        }
    }
    let gold_names: BTreeSet<String> = gold_actions.iter().map(|a| a.name.key()).collect();
    let unmatched_pred: Vec<&Action> = pred
        .actions()
        .filter(|a| !gold_names.contains(&a.name.key()))
        .collect();
    out.extra_actions = unmatched_pred
        .iter()
        .map(|a| a.name.text.to_string())
        .collect();
    out.renamed = pair_renamed(&unmatched_gold, &unmatched_pred);
    let n = gold_actions.len().max(1) as f64;
    out.metrics = Metrics {
        exec,
        sim: percent(sim),
        f1_pred: percent(f1_pred),
        f1_param: percent(sums.0 / n),
        f1_precond: percent(sums.1 / n),
        f1_eff: percent(sums.2 / n),
    };
    out
}

/// The key of each predicate of `d`: its name, arity and parameter types.
fn predicate_keys(d: &Domain) -> BTreeSet<String> {
    d.predicates
        .iter()
        .map(|p| {
            let types: Vec<String> = p.parameters.iter().map(|t| type_key(&t.ty)).collect();
            format!(
                "{}/{}({})",
                p.name.key(),
                p.parameters.len(),
                types.join(" ")
            )
        })
        .collect()
}

/// The renamed pairs among the actions left unmatched by name on either side.
fn pair_renamed(unmatched_gold: &[&Action], unmatched_pred: &[&Action]) -> Vec<Renamed> {
    // Pair renamed actions by how alike they are, name and content together: the most alike
    // pair first, then the most alike of the rest, and so on.
    let mut candidates = Vec::new();
    for (gi, g) in unmatched_gold.iter().enumerate() {
        for (pi, p) in unmatched_pred.iter().enumerate() {
            let (a, b, c) = compare_actions(g, p);
            let name = strsim::jaro_winkler(&g.name.key(), &p.name.key());
            candidates.push((name + a + b + c, gi, pi, a, b, c));
        }
    }
    candidates.sort_by(|x, y| y.0.total_cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    let (mut gold_taken, mut pred_taken) = (BTreeSet::new(), BTreeSet::new());
    let mut renamed = Vec::new();
    for (_, gi, pi, a, b, c) in candidates {
        if gold_taken.contains(&gi) || pred_taken.contains(&pi) {
            continue;
        }
        gold_taken.insert(gi);
        pred_taken.insert(pi);
        renamed.push(Renamed {
            gold: unmatched_gold[gi].name.text.to_string(),
            pred: unmatched_pred[pi].name.text.to_string(),
            f1_param: percent(a),
            f1_precond: percent(b),
            f1_eff: percent(c),
        });
    }
    renamed
}

fn type_key(ty: &Option<Type>) -> String {
    match ty {
        None => "object".into(),
        Some(Type::Name(n)) => n.key(),
        Some(Type::Either { types, .. }) => {
            let mut names: Vec<String> = types.iter().map(Name::key).collect();
            names.sort();
            format!("(either {})", names.join(" "))
        }
    }
}

/// (F1 params, F1 preconditions, F1 effects) of two actions.
fn compare_actions(gold: &Action, pred: &Action) -> (f64, f64, f64) {
    let params = |a: &Action| -> BTreeSet<String> {
        a.parameters
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{}:{}", i + 1, type_key(&p.ty)))
            .collect()
    };
    let (g, p) = (Renamer::for_action(gold), Renamer::for_action(pred));
    (
        f1(&params(pred), &params(gold)),
        f1(&p.conditions(pred), &g.conditions(gold)),
        f1(&p.effects(pred), &g.effects(gold)),
    )
}

/// Renames variables by position: parameters `?1`, `?2`…, quantified variables `?q1`… by depth.
struct Renamer {
    names: HashMap<String, String>,
}

impl Renamer {
    fn for_action(a: &Action) -> Renamer {
        Renamer {
            names: a
                .parameters
                .iter()
                .chain(&a.vars)
                .enumerate()
                .map(|(i, p)| (p.item.name.key(), format!("{}", i + 1)))
                .collect(),
        }
    }

    fn conditions(&self, a: &Action) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        if let Some(pre) = &a.precondition {
            let renamed = self.gd(pre, 0);
            conjuncts(&renamed, &mut out);
        }
        out
    }

    fn effects(&self, a: &Action) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        if let Some(e) = &a.effect {
            let renamed = self.effect(e, 0);
            effect_parts(&renamed, &mut out);
        }
        out
    }

    fn variable(&self, v: &Variable) -> Variable {
        let key = v.name.key();
        let text = self.names.get(&key).cloned().unwrap_or(key);
        Variable {
            name: Name::new(text, Span::default()),
        }
    }

    fn term(&self, t: &Term) -> Term {
        match t {
            Term::Variable(v) => Term::Variable(self.variable(v)),
            Term::Name(n) => Term::Name(Name::new(n.key(), Span::default())),
        }
    }

    fn atom(&self, a: &Atom) -> Atom {
        Atom {
            predicate: Name::new(a.predicate.key(), Span::default()),
            args: a.args.iter().map(|t| self.term(t)).collect(),
            span: Span::default(),
        }
    }

    /// A renamer that also renames `variables`, bound at quantifier `depth`.
    fn bind(&self, variables: &[Typed<Variable>], depth: usize) -> (Renamer, Vec<Typed<Variable>>) {
        let mut names = self.names.clone();
        let mut renamed = Vec::new();
        for (i, v) in variables.iter().enumerate() {
            let new = format!("q{depth}_{}", i + 1);
            names.insert(v.item.name.key(), new.clone());
            renamed.push(Typed {
                item: Variable {
                    name: Name::new(new, Span::default()),
                },
                ty: v
                    .ty
                    .as_ref()
                    .map(|t| Type::Name(Name::new(type_key(&Some(t.clone())), Span::default()))),
            });
        }
        (Renamer { names }, renamed)
    }

    fn expr(&self, e: &Expr) -> Expr {
        let kind = match &e.kind {
            ExprKind::Term { term } => ExprKind::Term {
                term: self.term(term),
            },
            ExprKind::Function(f) => ExprKind::Function(FunctionTerm {
                name: Name::new(f.name.key(), Span::default()),
                args: f.args.iter().map(|t| self.term(t)).collect(),
                span: Span::default(),
            }),
            ExprKind::Op { op, args } => ExprKind::Op {
                op: *op,
                args: args.iter().map(|a| self.expr(a)).collect(),
            },
            ExprKind::Call { function, args } => ExprKind::Call {
                function: Name::new(function.key(), Span::default()),
                args: args.iter().map(|a| self.expr(a)).collect(),
            },
            other => other.clone(),
        };
        Expr {
            kind,
            span: Span::default(),
        }
    }

    fn gd(&self, g: &Gd, depth: usize) -> Gd {
        let kind = match &g.kind {
            GdKind::Atom(a) => GdKind::Atom(self.atom(a)),
            GdKind::And { args } => GdKind::And {
                args: args.iter().map(|a| self.gd(a, depth)).collect(),
            },
            GdKind::Or { args } => GdKind::Or {
                args: args.iter().map(|a| self.gd(a, depth)).collect(),
            },
            GdKind::Not { arg } => GdKind::Not {
                arg: Box::new(self.gd(arg, depth)),
            },
            GdKind::Imply {
                condition,
                consequence,
            } => GdKind::Imply {
                condition: Box::new(self.gd(condition, depth)),
                consequence: Box::new(self.gd(consequence, depth)),
            },
            GdKind::Exists { variables, body } => {
                let (inner, variables) = self.bind(variables, depth + 1);
                GdKind::Exists {
                    variables,
                    body: Box::new(inner.gd(body, depth + 1)),
                }
            }
            GdKind::Forall { variables, body } => {
                let (inner, variables) = self.bind(variables, depth + 1);
                GdKind::Forall {
                    variables,
                    body: Box::new(inner.gd(body, depth + 1)),
                }
            }
            GdKind::Compare { op, lhs, rhs } => GdKind::Compare {
                op: *op,
                lhs: Box::new(self.expr(lhs)),
                rhs: Box::new(self.expr(rhs)),
            },
            GdKind::Preference { name, body } => GdKind::Preference {
                name: name.clone(),
                body: Box::new(self.gd(body, depth)),
            },
            GdKind::Timed { time, body } => GdKind::Timed {
                time: *time,
                body: Box::new(self.gd(body, depth)),
            },
            GdKind::Modal { op, numbers, args } => GdKind::Modal {
                op: *op,
                numbers: numbers.clone(),
                args: args.iter().map(|a| self.gd(a, depth)).collect(),
            },
        };
        Gd {
            kind,
            span: Span::default(),
        }
    }

    fn effect(&self, e: &Effect, depth: usize) -> Effect {
        let kind = match &e.kind {
            EffectKind::And { args } => EffectKind::And {
                args: args.iter().map(|a| self.effect(a, depth)).collect(),
            },
            EffectKind::Forall { variables, body } => {
                let (inner, variables) = self.bind(variables, depth + 1);
                EffectKind::Forall {
                    variables,
                    body: Box::new(inner.effect(body, depth + 1)),
                }
            }
            EffectKind::When { condition, body } => EffectKind::When {
                condition: self.gd(condition, depth),
                body: Box::new(self.effect(body, depth)),
            },
            EffectKind::Add { atom } => EffectKind::Add {
                atom: self.atom(atom),
            },
            EffectKind::Delete { atom } => EffectKind::Delete {
                atom: self.atom(atom),
            },
            EffectKind::Numeric { op, target, value } => EffectKind::Numeric {
                op: *op,
                target: self.expr(target),
                value: self.expr(value),
            },
            EffectKind::Timed { time, body } => EffectKind::Timed {
                time: *time,
                body: Box::new(self.effect(body, depth)),
            },
        };
        Effect {
            kind,
            span: Span::default(),
        }
    }
}

/// The conjuncts of a condition, each printed canonically (nested `and`s flattened).
fn conjuncts(g: &Gd, out: &mut BTreeSet<String>) {
    match &g.kind {
        GdKind::And { args } => args.iter().for_each(|a| conjuncts(a, out)),
        _ => {
            out.insert(crate::fmt::gd_text(g));
        }
    }
}

/// The parts of an effect, each printed canonically; `total-cost` increases are left out.
fn effect_parts(e: &Effect, out: &mut BTreeSet<String>) {
    match &e.kind {
        EffectKind::And { args } => args.iter().for_each(|a| effect_parts(a, out)),
        EffectKind::Numeric {
            op: AssignOp::Increase,
            target,
            ..
        } if matches!(&target.kind, ExprKind::Function(f) if f.name.is("total-cost"))
            || matches!(&target.kind, ExprKind::Term { term: Term::Name(n) } if n.is("total-cost")) =>
            {}
        _ => {
            out.insert(crate::fmt::effect_text(e));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOLD: &str = "(define (domain d) (:requirements :strips :typing) (:types block)
      (:predicates (on ?x - block ?y - block) (clear ?x - block) (holding ?x - block))
      (:action stack :parameters (?x - block ?y - block)
        :precondition (and (holding ?x) (clear ?y))
        :effect (and (on ?x ?y) (not (holding ?x)) (not (clear ?y)))))";

    #[test]
    fn renaming_variables_and_reordering_costs_nothing() {
        let pred = "(define (domain d) (:requirements :strips :typing) (:types block)
          (:predicates (holding ?b - block) (clear ?b - block) (on ?a - block ?b - block))
          (:action STACK :parameters (?top - block ?below - block)
            :precondition (and (clear ?below) (holding ?top))
            :effect (and (not (clear ?below)) (on ?top ?below) (not (holding ?top)))))";
        let s = score(GOLD, pred);
        assert_eq!(s.metrics.exec, 100.0);
        assert_eq!(
            (
                s.metrics.f1_pred,
                s.metrics.f1_param,
                s.metrics.f1_precond,
                s.metrics.f1_eff
            ),
            (100.0, 100.0, 100.0, 100.0)
        );
    }

    #[test]
    fn a_missing_action_costs_only_itself_and_renames_are_paired() {
        let gold = GOLD.replace(
            "(:action stack",
            "(:action drop :parameters (?x - block) :precondition (holding ?x) :effect (not (holding ?x))) (:action stack",
        );
        let pred = GOLD.replace("(:action stack", "(:action put-on");
        let s = score(&gold, &pred);
        assert_eq!(s.missing_actions, vec!["drop", "stack"]);
        assert_eq!(s.metrics.f1_eff, 0.0);
        assert_eq!(s.renamed.len(), 1);
        assert_eq!(s.renamed[0].gold, "stack");
        assert_eq!(s.renamed[0].pred, "put-on");
        assert_eq!(s.renamed[0].f1_eff, 100.0);
    }

    #[test]
    fn errors_that_make_exec_zero_are_kept_as_diagnostics() {
        let undeclared = GOLD.replace(
            "(clear ?y))\n        :effect",
            "(free ?y))\n        :effect",
        );
        let s = score(GOLD, &undeclared);
        assert_eq!(s.metrics.exec, 0.0);
        assert_eq!(s.unreadable, None);
        assert_eq!(s.note(), None);
        let codes: Vec<&str> = s.pred_errors.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["C101"]);

        let s = score(GOLD, "(define (domain d) (:predicates (p))");
        assert_eq!(s.unreadable, Some(Side::Pred));
        assert_eq!(s.pred_errors[0].code.as_str(), "P001");
        let note = s.note().expect("a note");
        assert!(
            note.starts_with("the predicted domain does not parse: P001: "),
            "{note}"
        );
        assert!(s.gold_errors.is_empty());

        let s = score("(define", GOLD);
        assert_eq!(s.unreadable, Some(Side::Gold));
        assert_eq!(s.metrics.exec, 100.0);
        assert!(s.pred_errors.is_empty());
    }

    #[test]
    fn a_substring_and_in_a_name_is_not_split() {
        let gold = "(define (domain d) (:predicates (handempty) (standing ?x))
          (:action a :parameters (?x) :precondition (and (handempty) (standing ?x)) :effect (not (handempty))))";
        let s = score(gold, gold);
        assert_eq!(s.metrics.f1_precond, 100.0);
        let wrong = gold.replace("(and (handempty) (standing ?x))", "(handempty)");
        assert_eq!(score(gold, &wrong).metrics.f1_precond, 66.7);
    }
}
