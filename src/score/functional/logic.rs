//! Propositional reasoning over lifted atoms, on the planner's formulas (negation normal form,
//! constants folded): negation, exclusive or, and the search for a satisfying assignment by
//! Shannon expansion on one atom at a time with constant folding, under a step budget and an
//! optional time limit.

use super::TimeLimit;
pub use crate::solve::formula::Formula;

/// The atom `a`, holding.
pub fn atom(a: u32) -> Formula {
    Formula::Literal(a, true)
}

/// The negation, pushed down to the literals.
pub fn not(f: Formula) -> Formula {
    match f {
        Formula::True => Formula::False,
        Formula::False => Formula::True,
        Formula::Literal(a, positive) => Formula::Literal(a, !positive),
        Formula::And(parts) => Formula::or(parts.into_iter().map(not).collect()),
        Formula::Or(parts) => Formula::and(parts.into_iter().map(not).collect()),
    }
}

/// Exactly one of `a` and `b` holds.
pub fn xor(a: Formula, b: Formula) -> Formula {
    Formula::or(vec![
        Formula::and(vec![a.clone(), not(b.clone())]),
        Formula::and(vec![not(a), b]),
    ])
}

/// Whether the formula holds when exactly the atoms in `true_atoms` are true.
pub fn holds(f: &Formula, true_atoms: &[u32]) -> bool {
    let words = true_atoms.iter().max().map_or(1, |m| *m as usize / 64 + 1);
    let mut state = vec![0u64; words];
    for &a in true_atoms {
        state[a as usize / 64] |= 1u64 << (a % 64);
    }
    f.holds(&state)
}

/// The atoms the formula mentions, each once, in order of first mention.
pub fn atoms(f: &Formula) -> Vec<u32> {
    let mut found = Vec::new();
    collect_atoms(f, &mut found);
    found
}

fn collect_atoms(f: &Formula, found: &mut Vec<u32>) {
    match f {
        Formula::Literal(a, _) if !found.contains(a) => found.push(*a),
        Formula::And(parts) | Formula::Or(parts) => {
            parts.iter().for_each(|p| collect_atoms(p, found))
        }
        _ => {}
    }
}

/// The formula with `atom` fixed to `value`, constants folded.
fn restrict(f: &Formula, atom: u32, value: bool) -> Formula {
    match f {
        Formula::Literal(a, positive) if *a == atom => {
            if *positive == value {
                Formula::True
            } else {
                Formula::False
            }
        }
        Formula::And(parts) => {
            Formula::and(parts.iter().map(|p| restrict(p, atom, value)).collect())
        }
        Formula::Or(parts) => Formula::or(parts.iter().map(|p| restrict(p, atom, value)).collect()),
        other => other.clone(),
    }
}

/// The first atom the formula mentions, in a depth-first walk.
fn first_atom(f: &Formula) -> Option<u32> {
    match f {
        Formula::Literal(a, _) => Some(*a),
        Formula::And(parts) | Formula::Or(parts) => parts.iter().find_map(first_atom),
        Formula::True | Formula::False => None,
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
    /// The time limit was reached first.
    OutOfTime,
}

/// What a search may spend: splits, and time.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub splits: u64,
    pub time_limit: Option<TimeLimit>,
}

#[cfg(test)]
impl Budget {
    /// `splits` splits, and no time limit.
    pub fn splits(splits: u64) -> Budget {
        Budget {
            splits,
            time_limit: None,
        }
    }
}

/// How many splits pass between two readings of the clock: a reading costs about as much as a
/// split, and a thousand splits take well under a millisecond.
const SPLITS_PER_CLOCK_READING: u64 = 1024;

/// A satisfying assignment of `formula`, by splitting on its atoms in turn (false first, so that
/// the assignment found is small) and folding constants after each split, in at most `budget`
/// splits and before the time limit. The literals a conjunction requires outright are set
/// first, without a split (unit propagation), so that constraints such as "exactly one of
/// these" cost no search.
pub fn satisfy(formula: &Formula, budget: &mut Budget) -> Search {
    satisfy_owned(formula.clone(), budget)
}

/// [`satisfy`] on a formula of its own: each split builds its two restrictions anew, so the
/// formula a call receives is never copied again.
fn satisfy_owned(mut formula: Formula, budget: &mut Budget) -> Search {
    let mut forced: Vec<u32> = Vec::new();
    loop {
        match &formula {
            Formula::True => return Search::Satisfiable(forced),
            Formula::False => return Search::Unsatisfiable,
            _ => {}
        }
        let units = required_literals(&formula);
        if units.is_empty() {
            break;
        }
        formula = assign(&formula, &units);
        forced.extend(units.iter().filter(|(_, v)| *v).map(|(a, _)| *a));
    }
    let Some(atom) = first_atom(&formula) else {
        return Search::Unsatisfiable;
    };
    if budget.splits == 0 {
        return Search::OutOfBudget;
    }
    budget.splits -= 1;
    if budget.splits.is_multiple_of(SPLITS_PER_CLOCK_READING)
        && budget.time_limit.is_some_and(|limit| limit.reached())
    {
        return Search::OutOfTime;
    }
    let mut exhausted = false;
    for value in [false, true] {
        match satisfy_owned(restrict(&formula, atom, value), budget) {
            Search::Satisfiable(mut atoms) => {
                if value {
                    atoms.push(atom);
                }
                atoms.extend(&forced);
                return Search::Satisfiable(atoms);
            }
            Search::OutOfTime => return Search::OutOfTime,
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

/// Formulas one of which is satisfiable exactly when `f` is: the disjuncts of `f`, or of its
/// widest disjunctive conjunct (with the other conjuncts), when one has at least three.
pub fn cases(f: Formula) -> Vec<Formula> {
    match f {
        Formula::Or(parts) => parts,
        Formula::And(parts) => {
            let widest = parts
                .iter()
                .enumerate()
                .filter_map(|(i, p)| match p {
                    Formula::Or(disjuncts) if disjuncts.len() >= 3 => Some((i, disjuncts.len())),
                    _ => None,
                })
                .max_by_key(|(_, n)| *n)
                .map(|(i, _)| i);
            let Some(at) = widest else {
                return vec![Formula::And(parts)];
            };
            let mut rest = parts;
            let Formula::Or(disjuncts) = rest.remove(at) else {
                return vec![Formula::and(rest)];
            };
            disjuncts
                .into_iter()
                .map(|d| {
                    let mut conjuncts = rest.clone();
                    conjuncts.push(d);
                    Formula::and(conjuncts)
                })
                .collect()
        }
        other => vec![other],
    }
}

/// The literals the formula requires outright: itself, or its conjuncts that are literals.
fn required_literals(f: &Formula) -> Vec<(u32, bool)> {
    match f {
        Formula::Literal(a, value) => vec![(*a, *value)],
        Formula::And(parts) => parts
            .iter()
            .filter_map(|p| match p {
                Formula::Literal(a, value) => Some((*a, *value)),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The formula with every atom of `values` fixed, constants folded; an atom required both true
/// and false makes it false.
fn assign(f: &Formula, values: &[(u32, bool)]) -> Formula {
    match f {
        Formula::Literal(a, positive) => {
            let mut set = values.iter().filter(|(atom, _)| atom == a).map(|(_, v)| *v);
            match (set.next(), set.next()) {
                (Some(first), Some(second)) if first != second => Formula::False,
                (Some(value), _) if value == *positive => Formula::True,
                (Some(_), _) => Formula::False,
                (None, _) => f.clone(),
            }
        }
        Formula::And(parts) => Formula::and(parts.iter().map(|p| assign(p, values)).collect()),
        Formula::Or(parts) => Formula::or(parts.iter().map(|p| assign(p, values)).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Budget, Formula, Search, holds, not, satisfy, xor};

    fn atom(a: u32) -> Formula {
        super::atom(a)
    }

    #[test]
    fn a_reordered_conjunction_is_equivalent_and_a_dropped_conjunct_is_not() {
        let gold = Formula::and(vec![atom(0), atom(1), not(atom(2))]);
        let reordered = Formula::and(vec![not(atom(2)), atom(0), atom(1)]);
        let dropped = Formula::and(vec![atom(0), not(atom(2))]);
        let mut budget = Budget::splits(1000);
        assert_eq!(
            satisfy(&xor(gold.clone(), reordered), &mut budget),
            Search::Unsatisfiable
        );
        let Search::Satisfiable(witness) =
            satisfy(&xor(gold.clone(), dropped.clone()), &mut budget)
        else {
            panic!("a dropped conjunct must show");
        };
        assert!(
            holds(&dropped, &witness) && !holds(&gold, &witness),
            "{witness:?}"
        );
    }

    #[test]
    fn the_budget_bounds_the_search() {
        let parity = (0..10).fold(Formula::False, |acc, a| xor(acc, atom(a)));
        let contradiction = Formula::And(vec![parity.clone(), not(parity)]);
        let mut small = Budget::splits(100);
        assert_eq!(satisfy(&contradiction, &mut small), Search::OutOfBudget);
        let mut large = Budget::splits(100_000);
        assert_eq!(satisfy(&contradiction, &mut large), Search::Unsatisfiable);
    }

    #[test]
    fn a_time_limit_stops_the_search() {
        let parity = (0..14).fold(Formula::False, |acc, a| xor(acc, atom(a)));
        let contradiction = Formula::And(vec![parity.clone(), not(parity)]);
        let options = crate::score::functional::Options {
            time_limit: Some(std::time::Duration::from_nanos(1)),
            clock: None,
            no_sample: true,
        };
        let time_limit = crate::score::functional::TimeLimit::start(&options);
        std::thread::sleep(std::time::Duration::from_millis(1));
        let mut budget = Budget {
            splits: 1_000_000,
            time_limit,
        };
        assert_eq!(satisfy(&contradiction, &mut budget), Search::OutOfTime);
        let mut unlimited = Budget::splits(1_000_000);
        assert_eq!(
            satisfy(&contradiction, &mut unlimited),
            Search::Unsatisfiable
        );
    }
}
