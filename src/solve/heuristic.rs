//! Delete-relaxation heuristics: h^add with the FF relaxed plan (and its preferred operators)
//! for satisficing search, h^max (admissible) for optimal search.
//!
//! The relaxation drops deletes and negative conditions, so it reaches a superset of what the
//! task reaches: an atom it cannot reach from a state is unreachable from it, and a state whose
//! goal is relaxed-unreachable is a dead end. Conditional effects are relaxed operators of their
//! own (precondition plus condition); axioms are relaxed operators of cost 0; each disjunct of
//! the goal is a relaxed operator adding an artificial goal atom.

use super::task::{GroundTask, bit};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The value of a relaxed-unreachable goal.
pub const INFINITE: u64 = u64::MAX;

/// No real operator behind a relaxed one (an axiom, the goal).
const NONE: u32 = u32::MAX;

struct RelaxedOperator {
    precondition: Vec<u32>,
    adds: Vec<u32>,
    cost: u64,
    operator: u32,
}

/// Which estimate to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The FF relaxed plan's cost, under unit costs (as LAMA's first iteration reads them).
    FastForward,
    /// The most costly atom of the goal, under the task's costs.
    Max,
}

/// The relaxed task and the scratch space of its exploration, reused state after state.
pub struct Relaxed {
    kind: Kind,
    operators: Vec<RelaxedOperator>,
    /// For each atom, the relaxed operators needing it.
    needed_by: Vec<Vec<u32>>,
    goal_atom: u32,
    cost: Vec<u64>,
    supporter: Vec<u32>,
    unsatisfied: Vec<u32>,
    reached_cost: Vec<u64>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    marked_atom: Vec<bool>,
    marked_operator: Vec<bool>,
}

impl Relaxed {
    pub fn new(task: &GroundTask, kind: Kind) -> Relaxed {
        let goal_atom = task.atoms.len() as u32;
        let mut operators = Vec::new();
        for (i, op) in task.operators.iter().enumerate() {
            let cost = match kind {
                Kind::FastForward => 1,
                Kind::Max => op.cost,
            };
            for effect in &op.effects {
                if effect.adds.is_empty() {
                    continue;
                }
                let mut precondition = op.precondition.positive.clone();
                for &a in &effect.condition.positive {
                    if !precondition.contains(&a) {
                        precondition.push(a);
                    }
                }
                operators.push(RelaxedOperator {
                    precondition,
                    adds: effect.adds.clone(),
                    cost,
                    operator: i as u32,
                });
            }
        }
        for stratum in &task.strata {
            for axiom in stratum {
                operators.push(RelaxedOperator {
                    precondition: axiom.body.positive.clone(),
                    adds: vec![axiom.head],
                    cost: 0,
                    operator: NONE,
                });
            }
        }
        for conjunction in &task.goal {
            operators.push(RelaxedOperator {
                precondition: conjunction.positive.clone(),
                adds: vec![goal_atom],
                cost: 0,
                operator: NONE,
            });
        }
        let atoms = task.atoms.len() + 1;
        let mut needed_by = vec![Vec::new(); atoms];
        for (i, op) in operators.iter().enumerate() {
            for &a in &op.precondition {
                if let Some(list) = needed_by.get_mut(a as usize) {
                    list.push(i as u32);
                }
            }
        }
        Relaxed {
            kind,
            needed_by,
            goal_atom,
            cost: vec![INFINITE; atoms],
            supporter: vec![NONE; atoms],
            unsatisfied: vec![0; operators.len()],
            reached_cost: vec![0; operators.len()],
            heap: BinaryHeap::new(),
            marked_atom: vec![false; atoms],
            marked_operator: vec![false; task.operators.len()],
            operators,
        }
    }

    /// The estimate for `state`; with `preferred`, the real operators of the relaxed plan that
    /// are applicable in it (FF only).
    pub fn evaluate(&mut self, state: &[u64], preferred: Option<&mut Vec<u32>>) -> u64 {
        self.explore(state);
        let goal = self
            .cost
            .get(self.goal_atom as usize)
            .copied()
            .unwrap_or(INFINITE);
        if goal == INFINITE || self.kind == Kind::Max {
            return goal;
        }
        self.relaxed_plan(state, preferred)
    }

    /// The relaxed-unreachable atoms among `atoms` from `state` (after `evaluate` on it).
    pub fn unreachable(&self, atoms: &[u32]) -> Vec<u32> {
        atoms
            .iter()
            .copied()
            .filter(|&a| self.cost.get(a as usize).is_none_or(|&c| c == INFINITE))
            .collect()
    }

    fn explore(&mut self, state: &[u64]) {
        self.cost.fill(INFINITE);
        self.supporter.fill(NONE);
        self.heap.clear();
        for (i, op) in self.operators.iter().enumerate() {
            self.unsatisfied[i] = op.precondition.len() as u32;
            self.reached_cost[i] = 0;
        }
        for atom in 0..self.goal_atom {
            if bit(state, atom) {
                self.cost[atom as usize] = 0;
                self.heap.push(Reverse((0, atom)));
            }
        }
        for i in 0..self.operators.len() {
            if self.unsatisfied[i] == 0 {
                self.fire(i, 0);
            }
        }
        while let Some(Reverse((cost, atom))) = self.heap.pop() {
            if cost > self.cost[atom as usize] {
                continue;
            }
            if atom == self.goal_atom {
                break;
            }
            let needed_by = std::mem::take(&mut self.needed_by[atom as usize]);
            for &op in &needed_by {
                let op = op as usize;
                self.reached_cost[op] = match self.kind {
                    Kind::FastForward => self.reached_cost[op].saturating_add(cost),
                    Kind::Max => self.reached_cost[op].max(cost),
                };
                self.unsatisfied[op] -= 1;
                if self.unsatisfied[op] == 0 {
                    self.fire(op, self.reached_cost[op]);
                }
            }
            self.needed_by[atom as usize] = needed_by;
        }
    }

    fn fire(&mut self, op: usize, precondition_cost: u64) {
        let operator = &self.operators[op];
        let cost = precondition_cost.saturating_add(operator.cost);
        for &a in &operator.adds {
            let slot = &mut self.cost[a as usize];
            if cost < *slot {
                *slot = cost;
                self.supporter[a as usize] = op as u32;
                self.heap.push(Reverse((cost, a)));
            }
        }
    }

    /// FF's relaxed plan from the best supporters: its number of distinct real operators.
    fn relaxed_plan(&mut self, state: &[u64], mut preferred: Option<&mut Vec<u32>>) -> u64 {
        self.marked_atom.fill(false);
        self.marked_operator.fill(false);
        if let Some(list) = preferred.as_deref_mut() {
            list.clear();
        }
        let mut stack = vec![self.goal_atom];
        let mut total = 0u64;
        while let Some(atom) = stack.pop() {
            if self.marked_atom[atom as usize] || (atom != self.goal_atom && bit(state, atom)) {
                continue;
            }
            self.marked_atom[atom as usize] = true;
            let supporter = self.supporter[atom as usize];
            let Some(op) = self.operators.get(supporter as usize) else {
                continue;
            };
            if op.operator != NONE && !self.marked_operator[op.operator as usize] {
                self.marked_operator[op.operator as usize] = true;
                total += op.cost;
                if let Some(list) = preferred.as_deref_mut()
                    && op.precondition.iter().all(|&a| bit(state, a))
                {
                    list.push(op.operator);
                }
            }
            stack.extend(op.precondition.iter().copied());
        }
        total
    }
}
