//! VAL's interference (mutex) rules: what each step of a happening reads and changes, and the
//! first conflict between two steps.

use super::{Binding, Eval, Fact, Record, World};
use crate::ast::*;
use std::collections::HashMap;

/// What a step does with a fact or fluent, in VAL's ownership tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// Read positively in a conjunctive precondition.
    PositivePre,
    /// Read under `not`.
    NegativePre,
    /// Read under `or`, `imply` or a quantifier, or as a number.
    Pre,
    Add,
    Delete,
    Assign,
}

/// Facts (`false`) and fluents (`true`) to the step that uses them (`None` once two do) and how.
type Owners = HashMap<(bool, Fact), (Option<usize>, Use)>;

/// What a precondition reads: `(numeric, fact or fluent, how)`.
pub type Marks = Vec<(bool, Fact, Use)>;

/// One step of a happening for [`World::interference`]: its index, effects and reads.
pub type Claim = (usize, Record, Marks);

impl World<'_> {
    /// The facts and fluents a condition reads (for the facts of a `when`).
    pub(super) fn reads(
        &self,
        gd: &Gd,
        binding: &mut Binding,
        facts: &mut Vec<Fact>,
        fluents: &mut Vec<Fact>,
    ) -> Eval<()> {
        let mut marks = Vec::new();
        self.marks(gd, Use::PositivePre, binding, &mut marks)?;
        for (numeric, fact, _) in marks {
            if numeric {
                fluents.push(fact)
            } else {
                facts.push(fact)
            }
        }
        Ok(())
    }

    /// What a precondition reads and how: `(numeric, fact, use)`.
    fn marks(
        &self,
        gd: &Gd,
        how: Use,
        binding: &mut Binding,
        out: &mut Vec<(bool, Fact, Use)>,
    ) -> Eval<()> {
        match &gd.kind {
            GdKind::Atom(atom) => {
                if atom.predicate.text != "=" {
                    out.push((false, self.atom_fact(atom, binding)?, how));
                }
            }
            GdKind::And { args } => {
                for a in args {
                    self.marks(a, how, binding, out)?;
                }
            }
            GdKind::Not { arg } => {
                let flipped = match how {
                    Use::PositivePre => Use::NegativePre,
                    Use::NegativePre => Use::PositivePre,
                    other => other,
                };
                self.marks(arg, flipped, binding, out)?;
            }
            GdKind::Or { args } => {
                for a in args {
                    self.marks(a, Use::Pre, binding, out)?;
                }
            }
            GdKind::Imply {
                condition,
                consequence,
            } => {
                self.marks(condition, Use::Pre, binding, out)?;
                self.marks(consequence, Use::Pre, binding, out)?;
            }
            GdKind::Exists { variables, body } | GdKind::Forall { variables, body } => {
                self.each_binding(variables, binding, &mut |binding| {
                    self.marks(body, Use::Pre, binding, out)?;
                    Ok(false)
                })?;
            }
            GdKind::Compare { lhs, rhs, .. } => {
                let mut fluents = Vec::new();
                self.expr_reads(lhs, binding, &mut fluents)?;
                self.expr_reads(rhs, binding, &mut fluents)?;
                out.extend(fluents.into_iter().map(|f| (true, f, Use::Pre)));
            }
            GdKind::Preference { .. } | GdKind::Timed { .. } | GdKind::Modal { .. } => {}
        }
        Ok(())
    }

    /// VAL's interference check for one happening of several steps whose preconditions hold:
    /// the first conflict, as `(step, "(adds (p a))")`. Each step claims what its precondition
    /// reads; then, step by step, its adds, deletes, conditional effects, numeric updates and
    /// universal effects claim what they change, and a claim on something another step reads or
    /// changes the other way is a mutex. Two steps adding (or deleting) the same atom, or
    /// increasing the same fluent, do not interfere.
    pub fn interference(&self, steps: &[Claim]) -> Option<(usize, String)> {
        let mut owners: Owners = HashMap::new();
        for (step, _, marks) in steps {
            for (numeric, fact, how) in marks {
                let key = (*numeric, fact.clone());
                match owners.get(&key) {
                    Some((Some(owner), _)) if owner != step => {
                        owners.insert(key, (None, *how));
                    }
                    Some((None, _)) => {
                        owners.insert(key, (None, *how));
                    }
                    _ => {
                        owners.insert(key, (Some(*step), *how));
                    }
                }
            }
        }
        for (step, record, _) in steps {
            if let Some(conflict) = self.claim(*step, record, &mut owners) {
                return Some((*step, conflict));
            }
        }
        None
    }

    fn claim(&self, step: usize, record: &Record, owners: &mut Owners) -> Option<String> {
        for fact in &record.adds {
            let key = (false, fact.clone());
            match owners.get(&key).copied() {
                None => {
                    owners.insert(key, (Some(step), Use::Add));
                }
                Some((owner, how)) if owner != Some(step) && how != Use::Add => {
                    return Some(format!("(adds {})", self.show(&self.predicates, fact)));
                }
                Some((owner, _)) => {
                    owners.insert(key, (owner, Use::Add));
                }
            }
        }
        for fact in &record.deletes {
            let key = (false, fact.clone());
            match owners.get(&key).copied() {
                None => {
                    owners.insert(key, (Some(step), Use::Delete));
                }
                Some((owner, how)) if owner != Some(step) && how != Use::Delete => {
                    return Some(format!("(deletes {})", self.show(&self.predicates, fact)));
                }
                Some((owner, Use::Add)) => {
                    owners.insert(key, (owner, Use::Add));
                }
                Some((owner, _)) => {
                    owners.insert(key, (owner, Use::Delete));
                }
            }
        }
        for (condition, inner) in &record.conditionals {
            for fact in condition {
                let key = (false, fact.clone());
                match owners.get(&key).copied() {
                    Some((owner, Use::Add | Use::Delete)) if owner != Some(step) => {
                        return Some(format!("(requires {})", self.show(&self.predicates, fact)));
                    }
                    None => {
                        owners.insert(key, (Some(step), Use::PositivePre));
                    }
                    _ => {}
                }
            }
            if let Some(conflict) = self.claim(step, inner, owners) {
                return Some(conflict);
            }
        }
        for (op, lhs, _, reads) in &record.numeric {
            for fluent in reads {
                if let Some((owner, Use::Add | Use::Assign)) =
                    owners.get(&(true, fluent.clone())).copied()
                    && owner != Some(step)
                {
                    return Some(format!("(requires {})", self.show(&self.functions, fluent)));
                }
            }
            let commutes = matches!(op, AssignOp::Increase | AssignOp::Decrease);
            let key = (true, lhs.clone());
            let wanted = if commutes { Use::Add } else { Use::Assign };
            match owners.get(&key).copied() {
                None => {
                    owners.insert(key, (Some(step), wanted));
                }
                Some((owner, how)) if owner != Some(step) => {
                    if how == Use::Add && commutes {
                        owners.insert(key, (None, Use::Add));
                    } else {
                        return Some(format!("(expression {})", self.show(&self.functions, lhs)));
                    }
                }
                Some((owner, how)) => match (how, wanted) {
                    (Use::Assign, _) | (Use::Add, Use::Assign) => {
                        return Some(format!("(expression {})", self.show(&self.functions, lhs)));
                    }
                    _ => {
                        owners.insert(key, (owner, wanted));
                    }
                },
            }
        }
        for inner in &record.foralls {
            if let Some(conflict) = self.claim(step, inner, owners) {
                return Some(conflict);
            }
        }
        None
    }

    /// What a step's precondition reads, for [`World::interference`].
    pub fn precondition_marks(
        &self,
        gd: Option<&Gd>,
        binding: &mut Binding,
    ) -> Vec<(bool, Fact, Use)> {
        let mut out = Vec::new();
        if let Some(gd) = gd {
            let _ = self.marks(gd, Use::PositivePre, binding, &mut out);
        }
        out
    }
}
