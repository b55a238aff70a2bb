//! Simplifications of the ground task that keep its plans: constant folding, and the pruning
//! of what the goal does not depend on.
//!
//! ## Constant folding
//!
//! Atoms whose value no plan can change are read once.
//!
//! A basic atom no operator adds or deletes keeps its initial value. A derived atom is constant
//! true when one of its rules has a body of constant-true literals, and constant false when
//! every rule has a constant-false literal (or it has none). Grounding already drops the static
//! atoms of basic predicates; this pass catches the derived ones built on them (the kitchen's
//! cook's rules: thousands of axioms whose body is empty once the classes are read), which the
//! search would otherwise recompute in every state and the heuristic explore in every
//! evaluation. Folding is exact: the states the search reaches and the plans it finds are the
//! same, constant atoms keep their value in every state.

use super::task::{Conjunction, GroundTask, bit};

/// Removes what cannot matter to the goal (backward relevance, as Fast Downward's translator
/// does it): an atom is relevant when the goal reads it, or the condition of a relevant effect,
/// the precondition of an operator with a relevant effect, or a rule of a relevant derived atom;
/// an effect is relevant when it adds or deletes a relevant atom. Changes to irrelevant atoms
/// are dropped, then effects left with no change, operators left with no effect, and the
/// rules of irrelevant derived atoms.
///
/// Every plan stays a plan with its irrelevant steps removed (they change nothing the goal or a
/// relevant step reads), and a plan of the pruned task is a plan of the task: solvability is
/// unchanged, and the search no longer tells apart states that differ only in atoms nothing
/// needs (the kitchen's walks, and what an action does to objects the goal never mentions).
pub fn prune_irrelevant(task: &mut GroundTask) {
    let atoms = task.atoms.len();
    let mut relevant = vec![false; atoms];
    let mark = |conjunction: &Conjunction, relevant: &mut Vec<bool>| {
        for &a in conjunction.positive.iter().chain(&conjunction.negative) {
            if let Some(slot) = relevant.get_mut(a as usize) {
                *slot = true;
            }
        }
        if let Some(rest) = &conjunction.rest {
            rest.mark_atoms(relevant);
        }
    };
    for conjunction in &task.goal {
        mark(conjunction, &mut relevant);
    }
    let touches = |adds: &[u32], deletes: &[u32], relevant: &[bool]| {
        adds.iter()
            .chain(deletes)
            .any(|&a| relevant.get(a as usize).copied().unwrap_or(false))
    };
    let mut operator_relevant = vec![false; task.operators.len()];
    loop {
        let before = relevant.iter().filter(|&&r| r).count();
        for axiom in task.strata.iter().flatten() {
            if relevant.get(axiom.head as usize).copied().unwrap_or(false) {
                mark(&axiom.body, &mut relevant);
            }
        }
        for (i, op) in task.operators.iter().enumerate() {
            let mut any = false;
            for effect in &op.effects {
                if touches(&effect.adds, &effect.deletes, &relevant) {
                    mark(&effect.condition, &mut relevant);
                    any = true;
                }
            }
            if any && !operator_relevant[i] {
                operator_relevant[i] = true;
                mark(&op.precondition, &mut relevant);
            }
        }
        if relevant.iter().filter(|&&r| r).count() == before {
            break;
        }
    }
    let keep = |a: &u32| relevant.get(*a as usize).copied().unwrap_or(false);
    for stratum in &mut task.strata {
        stratum.retain(|axiom| keep(&axiom.head));
    }
    task.strata.retain(|stratum| !stratum.is_empty());
    let mut index = 0;
    task.operators.retain_mut(|op| {
        let relevant_op = operator_relevant.get(index).copied().unwrap_or(true);
        index += 1;
        if !relevant_op {
            return false;
        }
        for effect in &mut op.effects {
            effect.adds.retain(keep);
            effect.deletes.retain(keep);
        }
        op.effects
            .retain(|e| !e.adds.is_empty() || !e.deletes.is_empty());
        !op.effects.is_empty()
    });
}

/// Folds the constant atoms of `task` into its conditions: constant derived atoms lose their
/// axioms (and stay at their initial value), satisfied literals are dropped from every
/// condition, and operators, effects and axioms whose condition is constant false are removed.
/// A goal literal that is constant false is kept, so that the unreachable atom can be named.
pub fn fold_constants(task: &mut GroundTask) {
    let value = constant_values(task);
    if value.iter().all(Option::is_none) {
        return;
    }
    for (atom, constant) in value.iter().enumerate() {
        if constant.is_some()
            && let Some(derived) = task.derived.get_mut(atom)
        {
            *derived = false;
        }
    }
    for stratum in &mut task.strata {
        stratum.retain_mut(|axiom| {
            !matches!(value.get(axiom.head as usize), Some(Some(_)))
                && fold(&mut axiom.body, &value)
        });
    }
    task.strata.retain(|stratum| !stratum.is_empty());
    task.operators.retain_mut(|op| {
        op.effects
            .retain_mut(|effect| fold(&mut effect.condition, &value));
        fold(&mut op.precondition, &value)
    });
    for conjunction in &mut task.goal {
        let true_value = |a: u32, positive: bool| value.get(a as usize) == Some(&Some(positive));
        conjunction.positive.retain(|&a| !true_value(a, true));
        conjunction.negative.retain(|&a| !true_value(a, false));
    }
}

/// For each atom, its value if no plan can change it.
fn constant_values(task: &GroundTask) -> Vec<Option<bool>> {
    let atoms = task.atoms.len();
    let mut changed = vec![false; atoms];
    for op in &task.operators {
        for effect in &op.effects {
            for &a in effect.adds.iter().chain(&effect.deletes) {
                if let Some(slot) = changed.get_mut(a as usize) {
                    *slot = true;
                }
            }
        }
    }
    let mut value: Vec<Option<bool>> = (0..atoms)
        .map(|a| {
            let derived = task.derived.get(a).copied().unwrap_or(false);
            let changes = changed.get(a).copied().unwrap_or(true);
            (!derived && !changes).then(|| bit(&task.init, a as u32))
        })
        .collect();
    // The rules of each derived atom.
    let mut rules: Vec<Vec<&Conjunction>> = vec![Vec::new(); atoms];
    for axiom in task.strata.iter().flatten() {
        if let Some(list) = rules.get_mut(axiom.head as usize) {
            list.push(&axiom.body);
        }
    }
    loop {
        let mut progress = false;
        for atom in 0..atoms {
            if value[atom].is_some() || !task.derived.get(atom).copied().unwrap_or(false) {
                continue;
            }
            let bodies = &rules[atom];
            let decided = if bodies.iter().any(|b| status(b, &value) == Status::True) {
                Some(true)
            } else if bodies.iter().all(|b| status(b, &value) == Status::False) {
                Some(false)
            } else {
                None
            };
            if decided.is_some() {
                value[atom] = decided;
                progress = true;
            }
        }
        if !progress {
            return value;
        }
    }
}

#[derive(PartialEq)]
enum Status {
    True,
    False,
    Open,
}

fn status(conjunction: &Conjunction, value: &[Option<bool>]) -> Status {
    let read = |a: u32| value.get(a as usize).copied().flatten();
    if conjunction.positive.iter().any(|&a| read(a) == Some(false))
        || conjunction.negative.iter().any(|&a| read(a) == Some(true))
    {
        return Status::False;
    }
    if conjunction.rest.is_none()
        && conjunction.positive.iter().all(|&a| read(a) == Some(true))
        && conjunction.negative.iter().all(|&a| read(a) == Some(false))
    {
        return Status::True;
    }
    Status::Open
}

/// Drops the satisfied literals of `conjunction`; false when a literal is constant false.
fn fold(conjunction: &mut Conjunction, value: &[Option<bool>]) -> bool {
    if status(conjunction, value) == Status::False {
        return false;
    }
    let read = |a: u32| value.get(a as usize).copied().flatten();
    conjunction.positive.retain(|&a| read(a).is_none());
    conjunction.negative.retain(|&a| read(a).is_none());
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::task::{Axiom, EffectGroup, Operator, set_bit};

    fn conjunction(positive: &[u32], negative: &[u32]) -> Conjunction {
        Conjunction {
            positive: positive.to_vec(),
            negative: negative.to_vec(),
            rest: None,
        }
    }

    fn operator(name: &str, precondition: Conjunction, adds: &[u32], deletes: &[u32]) -> Operator {
        Operator {
            name: name.into(),
            precondition,
            effects: vec![EffectGroup {
                condition: Conjunction::default(),
                adds: adds.to_vec(),
                deletes: deletes.to_vec(),
            }],
            cost: 1,
        }
    }

    /// Atoms: 0 `static` (basic, true initially, never changed), 1 `usable` (derived from
    /// `static`), 2 `blocked` (derived from not `static`), 3 `done` (basic, the goal).
    fn task_with_rules() -> GroundTask {
        let mut task = GroundTask::default();
        task.atoms = ["(static)", "(usable)", "(blocked)", "(done)"]
            .map(String::from)
            .to_vec();
        task.derived = vec![false, true, true, false];
        task.strata = vec![vec![
            Axiom {
                head: 1,
                body: conjunction(&[0], &[]),
            },
            Axiom {
                head: 2,
                body: conjunction(&[], &[0]),
            },
        ]];
        task.operators = vec![
            operator("(finish)", conjunction(&[1], &[3]), &[3], &[]),
            operator("(shortcut)", conjunction(&[2], &[]), &[3], &[]),
        ];
        task.goal = vec![conjunction(&[3], &[])];
        let mut init = vec![0u64; 1].into_boxed_slice();
        set_bit(&mut init, 0, true);
        task.derive(&mut init);
        task.init = init;
        task
    }

    #[test]
    fn derived_atoms_over_constants_are_folded_away() {
        let mut task = task_with_rules();
        assert!(bit(&task.init, 1), "the rule makes (usable) true initially");
        fold_constants(&mut task);
        // (usable) is always true: no axiom left, no longer derived, gone from the condition.
        assert!(task.strata.is_empty());
        assert_eq!(task.derived, vec![false, false, false, false]);
        let names: Vec<&str> = task.operators.iter().map(|o| o.name.as_str()).collect();
        // (blocked) is always false: the operator that needs it can never apply.
        assert_eq!(names, ["(finish)"]);
        assert_eq!(task.operators[0].precondition, conjunction(&[], &[3]));
        // The state keeps the constant's value, which derive no longer resets.
        let mut state = task.init.clone();
        task.derive(&mut state);
        assert!(bit(&state, 1));
    }

    #[test]
    fn a_constant_false_goal_literal_is_kept_to_be_named() {
        let mut task = task_with_rules();
        task.goal = vec![conjunction(&[2, 3], &[])];
        fold_constants(&mut task);
        assert_eq!(task.goal, vec![conjunction(&[2, 3], &[])]);
        let mut task = task_with_rules();
        task.goal = vec![conjunction(&[1, 3], &[])];
        fold_constants(&mut task);
        assert_eq!(task.goal, vec![conjunction(&[3], &[])]);
    }

    #[test]
    fn what_the_goal_does_not_depend_on_is_pruned() {
        // Atoms: 0 goal, 1 needed (by the goal's achiever), 2 noise, 3 read by the noise maker.
        let mut task = GroundTask::default();
        task.atoms = ["(goal)", "(needed)", "(noise)", "(switch)"]
            .map(String::from)
            .to_vec();
        task.derived = vec![false; 4];
        task.operators = vec![
            operator("(reach)", conjunction(&[1], &[]), &[0], &[]),
            operator("(prepare)", conjunction(&[], &[]), &[1, 2], &[]),
            operator("(make-noise)", conjunction(&[3], &[]), &[2], &[1]),
            operator("(wander)", conjunction(&[], &[]), &[2], &[3]),
        ];
        task.goal = vec![conjunction(&[0], &[])];
        task.init = vec![0u64; 1].into_boxed_slice();
        prune_irrelevant(&mut task);
        let kept: Vec<(&str, &[u32], &[u32])> = task
            .operators
            .iter()
            .map(|o| {
                let effect = &o.effects[0];
                (o.name.as_str(), &effect.adds[..], &effect.deletes[..])
            })
            .collect();
        // (make-noise) deletes (needed): relevant, and so is (switch) it reads, which (wander)
        // deletes; only the changes to (noise) go.
        assert_eq!(
            kept,
            [
                ("(reach)", &[0][..], &[][..]),
                ("(prepare)", &[1][..], &[][..]),
                ("(make-noise)", &[][..], &[1][..]),
                ("(wander)", &[][..], &[3][..]),
            ]
        );
        task.operators.pop();
        task.operators.pop();
        task.operators
            .push(operator("(idle)", conjunction(&[], &[]), &[2], &[]));
        prune_irrelevant(&mut task);
        assert_eq!(
            task.operators.len(),
            2,
            "an operator changing only (noise) goes"
        );
    }
}
