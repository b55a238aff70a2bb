//! Ground formulas in negation normal form over atom ids, and their disjunctive normal form.

use super::task::{Conjunction, bit};

/// A ground condition: constants folded, negation only on atoms.
#[derive(Clone, Debug, PartialEq)]
pub enum Formula {
    True,
    False,
    /// An atom id and whether it must hold (`true`) or must not (`false`).
    Literal(u32, bool),
    And(Vec<Formula>),
    Or(Vec<Formula>),
}

impl Formula {
    /// Whether the formula holds in a state (one bit per atom).
    pub fn holds(&self, state: &[u64]) -> bool {
        match self {
            Formula::True => true,
            Formula::False => false,
            Formula::Literal(atom, positive) => bit(state, *atom) == *positive,
            Formula::And(parts) => parts.iter().all(|p| p.holds(state)),
            Formula::Or(parts) => parts.iter().any(|p| p.holds(state)),
        }
    }

    /// Marks every atom the formula reads.
    pub fn mark_atoms(&self, marked: &mut [bool]) {
        match self {
            Formula::True | Formula::False => {}
            Formula::Literal(atom, _) => {
                if let Some(slot) = marked.get_mut(*atom as usize) {
                    *slot = true;
                }
            }
            Formula::And(parts) | Formula::Or(parts) => {
                parts.iter().for_each(|p| p.mark_atoms(marked));
            }
        }
    }

    /// The literals every way of satisfying the formula needs: those of its top-level
    /// conjunction.
    pub fn necessary(&self) -> Conjunction {
        let mut out = Conjunction::default();
        let parts = match self {
            Formula::And(parts) => parts.as_slice(),
            other => std::slice::from_ref(other),
        };
        for part in parts {
            if let Formula::Literal(atom, positive) = part {
                let list = if *positive {
                    &mut out.positive
                } else {
                    &mut out.negative
                };
                if !list.contains(atom) {
                    list.push(*atom);
                }
            }
        }
        out
    }

    /// A conjunction with constants folded.
    pub fn and(parts: Vec<Formula>) -> Formula {
        let mut kept = Vec::with_capacity(parts.len());
        for part in parts {
            match part {
                Formula::True => {}
                Formula::False => return Formula::False,
                Formula::And(inner) => kept.extend(inner),
                other => kept.push(other),
            }
        }
        match kept.len() {
            0 => Formula::True,
            1 => kept.pop().unwrap_or(Formula::True),
            _ => Formula::And(kept),
        }
    }

    /// A disjunction with constants folded.
    pub fn or(parts: Vec<Formula>) -> Formula {
        let mut kept = Vec::with_capacity(parts.len());
        for part in parts {
            match part {
                Formula::False => {}
                Formula::True => return Formula::True,
                Formula::Or(inner) => kept.extend(inner),
                other => kept.push(other),
            }
        }
        match kept.len() {
            0 => Formula::False,
            1 => kept.pop().unwrap_or(Formula::False),
            _ => Formula::Or(kept),
        }
    }
}

/// The formula as conjunctions one of which must hold: its disjunctive normal form when that
/// takes at most `limit` conjunctions, else one conjunction of the literals it needs with the
/// formula itself as the rest.
pub fn conjunctions(formula: &Formula, limit: usize) -> Vec<Conjunction> {
    match dnf(formula, limit) {
        Some(list) => list,
        None => {
            let mut needed = formula.necessary();
            needed.rest = Some(Box::new(formula.clone()));
            vec![needed]
        }
    }
}

/// The formula as a disjunction of conjunctions, contradictory ones dropped; `None` when it
/// would take more than `limit` conjunctions.
pub fn dnf(formula: &Formula, limit: usize) -> Option<Vec<Conjunction>> {
    let mut out = Vec::new();
    for clause in dnf_rec(formula, limit)? {
        let mut conjunction = Conjunction::default();
        let mut contradictory = false;
        for (atom, positive) in clause {
            let (same, other) = if positive {
                (&mut conjunction.positive, &conjunction.negative)
            } else {
                (&mut conjunction.negative, &conjunction.positive)
            };
            if other.contains(&atom) {
                contradictory = true;
                break;
            }
            if !same.contains(&atom) {
                same.push(atom);
            }
        }
        if !contradictory && !out.contains(&conjunction) {
            out.push(conjunction);
        }
    }
    Some(out)
}

type Clause = Vec<(u32, bool)>;

fn dnf_rec(formula: &Formula, limit: usize) -> Option<Vec<Clause>> {
    Some(match formula {
        Formula::True => vec![Vec::new()],
        Formula::False => Vec::new(),
        Formula::Literal(atom, positive) => vec![vec![(*atom, *positive)]],
        Formula::Or(parts) => {
            let mut out = Vec::new();
            for part in parts {
                out.extend(dnf_rec(part, limit)?);
                if out.len() > limit {
                    return None;
                }
            }
            out
        }
        Formula::And(parts) => {
            let mut out: Vec<Clause> = vec![Vec::new()];
            for part in parts {
                let options = dnf_rec(part, limit)?;
                if options.len() == 1 {
                    for clause in &mut out {
                        clause.extend(options[0].iter().copied());
                    }
                    continue;
                }
                if out.len().saturating_mul(options.len()) > limit {
                    return None;
                }
                let mut next = Vec::with_capacity(out.len() * options.len());
                for clause in &out {
                    for option in &options {
                        let mut joined = clause.clone();
                        joined.extend(option.iter().copied());
                        next.push(joined);
                    }
                }
                out = next;
            }
            out
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distributes_and_over_or_and_drops_contradictions() {
        let formula = Formula::and(vec![
            Formula::Literal(0, true),
            Formula::or(vec![Formula::Literal(0, false), Formula::Literal(1, true)]),
        ]);
        let clauses = dnf(&formula, 16).unwrap_or_default();
        assert_eq!(
            clauses,
            vec![Conjunction {
                positive: vec![0, 1],
                negative: vec![],
                rest: None,
            }]
        );
    }

    #[test]
    fn refuses_past_the_limit() {
        let pair = |a| {
            Formula::or(vec![
                Formula::Literal(a, true),
                Formula::Literal(a + 1, true),
            ])
        };
        let formula = Formula::and(vec![pair(0), pair(2), pair(4)]);
        assert!(dnf(&formula, 4).is_none());
        assert_eq!(dnf(&formula, 8).map(|c| c.len()), Some(8));
    }
}
