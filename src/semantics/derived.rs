//! Derived predicates: rules ordered in strata (a rule reading a derived predicate
//! negatively after the rules defining it), and the derived atoms of a state.

use super::{Binding, Eval, State, World};
use crate::ast::*;
use std::collections::HashMap;

impl<'a> World<'a> {
    /// Orders derived rules so that a rule reading a derived predicate negatively comes in a
    /// later stratum than the rules defining it.
    pub(super) fn stratify(&self, rules: &[&'a Derived]) -> Vec<Vec<&'a Derived>> {
        let heads: Vec<String> = rules.iter().map(|r| r.predicate.name.key()).collect();
        let mut level: HashMap<String, usize> = heads.iter().map(|h| (h.clone(), 0)).collect();
        // Relax until stable; a cycle through negation (not stratifiable) stops at a bound.
        for _ in 0..=rules.len() {
            let mut changed = false;
            for (rule, head) in rules.iter().zip(&heads) {
                let mut reads = Vec::new();
                polarities(&rule.body, true, &mut reads);
                for (name, positive) in reads {
                    if let Some(&l) = level.get(&name) {
                        let need = if positive { l } else { l + 1 };
                        if level[head] < need && need <= rules.len() {
                            level.insert(head.clone(), need);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let top = level.values().copied().max().unwrap_or(0);
        (0..=top)
            .map(|l| {
                rules
                    .iter()
                    .zip(&heads)
                    .filter(|(_, h)| level[*h] == l)
                    .map(|(r, _)| *r)
                    .collect()
            })
            .filter(|s: &Vec<&Derived>| !s.is_empty())
            .collect()
    }

    /// Derived rules in strata: a rule reading a derived predicate negatively comes in a later
    /// stratum than the rules defining it.
    pub(crate) fn strata(&self) -> &[Vec<&'a Derived>] {
        &self.strata
    }

    /// Recomputes the derived atoms of `state` from its basic atoms. Each stratum is run to its
    /// fixpoint; after the first pass over a stratum, only the rules that read a predicate that
    /// gained atoms in the pass before are evaluated again (the basic atoms do not change, so
    /// no other rule can derive anything new).
    pub fn derive(&mut self, state: &mut State) -> Eval<()> {
        if self.strata.is_empty() {
            return Ok(());
        }
        state.derived.clear();
        let strata = self.strata.clone();
        for stratum in &strata {
            let reads: Vec<Vec<String>> = stratum
                .iter()
                .map(|rule| {
                    let mut read = Vec::new();
                    polarities(&rule.body, true, &mut read);
                    read.into_iter().map(|(name, _)| name).collect()
                })
                .collect();
            let mut changed: Option<Vec<String>> = None;
            loop {
                let mut grown: Vec<String> = Vec::new();
                for (rule, read) in stratum.iter().zip(&reads) {
                    if let Some(changed) = &changed
                        && !read.iter().any(|name| changed.contains(name))
                    {
                        continue;
                    }
                    let params = &rule.predicate.parameters;
                    let head = Atom {
                        predicate: rule.predicate.name.clone(),
                        args: params
                            .iter()
                            .map(|p| Term::Variable(p.item.clone()))
                            .collect(),
                        span: rule.span,
                    };
                    let mut found = Vec::new();
                    let body = Some(&rule.body);
                    let mut binding = Binding::default();
                    self.each_binding_where(params, body, state, &mut binding, &mut |binding| {
                        let fact = self.atom_fact(&head, binding)?;
                        if !state.derived.contains(&fact)
                            && self.holds(&rule.body, binding, state)?
                        {
                            found.push(fact);
                        }
                        Ok(false)
                    })?;
                    let mut added = false;
                    for fact in found {
                        added |= state.derived.insert(fact);
                    }
                    let name = rule.predicate.name.key();
                    if added && !grown.contains(&name) {
                        grown.push(name);
                    }
                }
                if grown.is_empty() {
                    break;
                }
                changed = Some(grown);
            }
        }
        Ok(())
    }
}

/// The derived-or-basic predicates a formula reads, with whether it reads them positively.
fn polarities(gd: &Gd, positive: bool, out: &mut Vec<(String, bool)>) {
    match &gd.kind {
        GdKind::Atom(atom) => out.push((atom.predicate.key(), positive)),
        GdKind::And { args } | GdKind::Or { args } => {
            args.iter().for_each(|a| polarities(a, positive, out))
        }
        GdKind::Not { arg } => polarities(arg, !positive, out),
        GdKind::Imply {
            condition,
            consequence,
        } => {
            polarities(condition, !positive, out);
            polarities(consequence, positive, out);
        }
        GdKind::Exists { body, .. } | GdKind::Forall { body, .. } => {
            polarities(body, positive, out)
        }
        GdKind::Preference { body, .. } | GdKind::Timed { body, .. } => {
            polarities(body, positive, out)
        }
        GdKind::Modal { args, .. } => args.iter().for_each(|a| polarities(a, positive, out)),
        GdKind::Compare { .. } => {}
    }
}
