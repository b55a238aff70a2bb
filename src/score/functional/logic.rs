//! Propositional formulas over lifted atoms and the search for a satisfying assignment:
//! Shannon expansion on one atom at a time with constant folding, under a step budget.

/// A propositional formula whose atoms are indices into an action pair's atom table.
#[derive(Clone, Debug, PartialEq)]
pub enum Formula {
    True,
    False,
    Atom(u32),
    Not(Box<Formula>),
    And(Vec<Formula>),
    Or(Vec<Formula>),
}

impl Formula {
    pub fn not(f: Formula) -> Formula {
        match f {
            Formula::True => Formula::False,
            Formula::False => Formula::True,
            Formula::Not(inner) => *inner,
            other => Formula::Not(Box::new(other)),
        }
    }

    pub fn and(parts: Vec<Formula>) -> Formula {
        Formula::And(parts).simplified()
    }

    pub fn or(parts: Vec<Formula>) -> Formula {
        Formula::Or(parts).simplified()
    }

    /// Exactly one of `a` and `b` holds.
    pub fn xor(a: Formula, b: Formula) -> Formula {
        Formula::or(vec![
            Formula::and(vec![a.clone(), Formula::not(b.clone())]),
            Formula::and(vec![Formula::not(a), b]),
        ])
    }

    /// The formula with constants folded one level (its parts are simplified already).
    fn simplified(self) -> Formula {
        match self {
            Formula::And(parts) => {
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
            Formula::Or(parts) => {
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
            Formula::Not(inner) => Formula::not(*inner),
            other => other,
        }
    }

    /// The formula with `atom` fixed to `value`, constants folded.
    fn restrict(&self, atom: u32, value: bool) -> Formula {
        match self {
            Formula::Atom(a) if *a == atom => {
                if value {
                    Formula::True
                } else {
                    Formula::False
                }
            }
            Formula::Not(inner) => Formula::not(inner.restrict(atom, value)),
            Formula::And(parts) => {
                Formula::and(parts.iter().map(|p| p.restrict(atom, value)).collect())
            }
            Formula::Or(parts) => {
                Formula::or(parts.iter().map(|p| p.restrict(atom, value)).collect())
            }
            other => other.clone(),
        }
    }

    /// The first atom the formula mentions, in a depth-first walk.
    fn first_atom(&self) -> Option<u32> {
        match self {
            Formula::Atom(a) => Some(*a),
            Formula::Not(inner) => inner.first_atom(),
            Formula::And(parts) | Formula::Or(parts) => parts.iter().find_map(Formula::first_atom),
            Formula::True | Formula::False => None,
        }
    }

    /// The atoms the formula mentions, each once, in order of first mention.
    pub fn atoms(&self) -> Vec<u32> {
        let mut found = Vec::new();
        self.collect_atoms(&mut found);
        found
    }

    fn collect_atoms(&self, found: &mut Vec<u32>) {
        match self {
            Formula::Atom(a) if !found.contains(a) => found.push(*a),
            Formula::Not(inner) => inner.collect_atoms(found),
            Formula::And(parts) | Formula::Or(parts) => {
                parts.iter().for_each(|p| p.collect_atoms(found))
            }
            _ => {}
        }
    }

    /// Whether the formula holds when exactly the atoms in `true_atoms` are true.
    pub fn holds(&self, true_atoms: &[u32]) -> bool {
        match self {
            Formula::True => true,
            Formula::False => false,
            Formula::Atom(a) => true_atoms.contains(a),
            Formula::Not(inner) => !inner.holds(true_atoms),
            Formula::And(parts) => parts.iter().all(|p| p.holds(true_atoms)),
            Formula::Or(parts) => parts.iter().any(|p| p.holds(true_atoms)),
        }
    }
}

/// What the search found.
#[derive(Clone, Debug, PartialEq)]
pub enum Search {
    /// A satisfying assignment: the atoms set true (every other atom is false).
    Satisfiable(Vec<u32>),
    Unsatisfiable,
    /// The step budget ran out first.
    OutOfBudget,
}

/// A satisfying assignment of `formula`, by splitting on its atoms in turn (false first, so that
/// the assignment found is small) and folding constants after each split, in at most `budget`
/// splits.
pub fn satisfy(formula: &Formula, budget: &mut u64) -> Search {
    match formula {
        Formula::True => return Search::Satisfiable(Vec::new()),
        Formula::False => return Search::Unsatisfiable,
        _ => {}
    }
    let Some(atom) = formula.first_atom() else {
        return Search::Unsatisfiable;
    };
    if *budget == 0 {
        return Search::OutOfBudget;
    }
    *budget -= 1;
    let mut exhausted = false;
    for value in [false, true] {
        match satisfy(&formula.restrict(atom, value), budget) {
            Search::Satisfiable(mut atoms) => {
                if value {
                    atoms.push(atom);
                }
                return Search::Satisfiable(atoms);
            }
            Search::OutOfBudget => exhausted = true,
            Search::Unsatisfiable => {}
        }
    }
    if exhausted {
        Search::OutOfBudget
    } else {
        Search::Unsatisfiable
    }
}

#[cfg(test)]
mod tests {
    use super::{Formula, Search, satisfy};

    fn atom(a: u32) -> Formula {
        Formula::Atom(a)
    }

    #[test]
    fn a_reordered_conjunction_is_equivalent_and_a_dropped_conjunct_is_not() {
        let gold = Formula::and(vec![atom(0), atom(1), Formula::not(atom(2))]);
        let reordered = Formula::and(vec![Formula::not(atom(2)), atom(0), atom(1)]);
        let dropped = Formula::and(vec![atom(0), Formula::not(atom(2))]);
        let mut budget = 1000;
        assert_eq!(
            satisfy(&Formula::xor(gold.clone(), reordered), &mut budget),
            Search::Unsatisfiable
        );
        let Search::Satisfiable(witness) =
            satisfy(&Formula::xor(gold.clone(), dropped.clone()), &mut budget)
        else {
            panic!("a dropped conjunct must show");
        };
        assert!(
            dropped.holds(&witness) && !gold.holds(&witness),
            "{witness:?}"
        );
    }

    #[test]
    fn the_budget_bounds_the_search() {
        let parity = (0..10).fold(Formula::False, |acc, a| Formula::xor(acc, atom(a)));
        let contradiction = Formula::And(vec![parity.clone(), Formula::not(parity)]);
        assert_eq!(satisfy(&contradiction, &mut 100), Search::OutOfBudget);
        assert_eq!(satisfy(&contradiction, &mut 100_000), Search::Unsatisfiable);
    }
}
