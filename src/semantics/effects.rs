//! Effects: an action's ground effects, read in the state before it, grouped as VAL groups
//! them, and the changes they make.

use super::{Binding, Changes, Eval, EvalError, Fact, State, World};
use crate::ast::*;

/// An action's effects, ground, in the groups VAL handles them in when it looks for
/// interference: plain adds, plain deletes, conditional effects whose condition holds (with the
/// facts the condition reads), numeric updates (with the fluents they read), then `forall`s.
#[derive(Debug, Default)]
pub struct Record {
    pub(super) adds: Vec<Fact>,
    pub(super) deletes: Vec<Fact>,
    pub(super) conditionals: Vec<(Vec<Fact>, Record)>,
    /// Each update's operator, target, value (read in the state before), and the fluents read.
    pub(super) numeric: Vec<(AssignOp, Fact, f64, Vec<Fact>)>,
    pub(super) foralls: Vec<Record>,
}

impl Record {
    /// The changes to apply, in VAL's order: the numeric updates of conditional effects first,
    /// then the action's own, then those of universal effects.
    pub fn changes(&self, out: &mut Changes) {
        out.adds.extend(self.adds.iter().cloned());
        out.deletes.extend(self.deletes.iter().cloned());
        for (_, inner) in &self.conditionals {
            inner.changes(out);
        }
        out.updates.extend(
            self.numeric
                .iter()
                .map(|(op, fact, value, _)| (*op, fact.clone(), *value)),
        );
        for inner in &self.foralls {
            inner.changes(out);
        }
    }
}

impl World<'_> {
    /// The ground effect record of an action, conditions read in `state`.
    pub fn record(
        &self,
        effect: &Effect,
        binding: &mut Binding,
        state: &State,
        out: &mut Record,
    ) -> Eval<()> {
        match &effect.kind {
            EffectKind::And { args } => {
                for a in args {
                    self.record(a, binding, state, out)?;
                }
            }
            EffectKind::Add { atom } => out.adds.push(self.atom_fact(atom, binding)?),
            EffectKind::Delete { atom } => out.deletes.push(self.atom_fact(atom, binding)?),
            EffectKind::When { condition, body } => {
                if self.holds(condition, binding, state)? {
                    let mut read = Vec::new();
                    self.reads(condition, binding, &mut read, &mut Vec::new())?;
                    let mut inner = Record::default();
                    self.record(body, binding, state, &mut inner)?;
                    out.conditionals.push((read, inner));
                }
            }
            EffectKind::Forall { variables, body } => {
                let mut inner = Record::default();
                self.each_binding(variables, binding, &mut |binding| {
                    self.record(body, binding, state, &mut inner)?;
                    Ok(false)
                })?;
                out.foralls.push(inner);
            }
            EffectKind::Numeric { op, target, value } => {
                let lhs = self.target_fact(target, binding)?;
                let mut fluents = Vec::new();
                self.expr_reads(value, binding, &mut fluents)?;
                let value = self.value(value, binding, state)?;
                out.numeric.push((*op, lhs, value, fluents));
            }
            EffectKind::Timed { .. } => return Err(EvalError::Unsupported("timed effects".into())),
        }
        Ok(())
    }

    /// The fluents an expression reads.
    pub(super) fn expr_reads(&self, e: &Expr, binding: &Binding, out: &mut Vec<Fact>) -> Eval<()> {
        match &e.kind {
            ExprKind::Function(f) => out.push(self.function_fact(&f.name, &f.args, binding)?),
            ExprKind::Term {
                term: Term::Name(n),
            } => out.push(self.function_fact(n, &[], binding)?),
            ExprKind::Op { args, .. } | ExprKind::Call { args, .. } => {
                for a in args {
                    self.expr_reads(a, binding, out)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}
