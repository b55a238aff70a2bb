//! Delete-relaxation heuristics: h^add with the FF relaxed plan (and its preferred operators)
//! for satisficing search, h^max (admissible) for optimal search.
//!
//! The relaxation drops deletes and negative conditions, so it reaches a superset of what the
//! task reaches: an atom it cannot reach from a state is unreachable from it, and a state whose
//! goal is relaxed-unreachable is a dead end. Conditional effects are relaxed operators of their
//! own (precondition plus condition); axioms are relaxed operators of cost 0; each disjunct of
//! the goal is a relaxed operator adding an artificial goal atom.

use super::task::{Conjunction, GroundTask, bit};
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
    /// The atoms with a complement, in the order of their complements' ids (after the task's).
    negated: Vec<u32>,
    /// The id of the first complement: the number of the task's atoms.
    first_complement: u32,
    cost: Vec<u64>,
    supporter: Vec<u32>,
    unsatisfied: Vec<u32>,
    /// Each relaxed operator's number of preconditions, copied into `unsatisfied` per state.
    preconditions: Vec<u32>,
    /// The relaxed operators without preconditions.
    free: Vec<u32>,
    reached_cost: Vec<u64>,
    queue: Queue,
    marked_atom: Vec<bool>,
    marked_operator: Vec<bool>,
}

impl Relaxed {
    pub fn new(task: &GroundTask, kind: Kind) -> Relaxed {
        // Basic atoms read negatively get a complementary atom, true when the atom is false and
        // added by the operators that delete it (as a translation to finite-domain variables
        // would have it), so that a negative condition counts when the atom holds. Negated
        // derived atoms are left out: nothing deletes them, so they stay free.
        let atoms = task.atoms.len() as u32;
        let mut complement_of: Vec<u32> = vec![NONE; task.atoms.len()];
        let mut negated: Vec<u32> = Vec::new();
        let mut note = |conjunction: &Conjunction| {
            for &a in &conjunction.negative {
                let derived = task.derived.get(a as usize).copied().unwrap_or(true);
                if let Some(slot) = complement_of.get_mut(a as usize)
                    && *slot == NONE
                    && !derived
                {
                    *slot = atoms + negated.len() as u32;
                    negated.push(a);
                }
            }
        };
        for op in &task.operators {
            note(&op.precondition);
            op.effects.iter().for_each(|e| note(&e.condition));
        }
        task.strata.iter().flatten().for_each(|a| note(&a.body));
        task.goal.iter().for_each(&mut note);
        // An operator with several effects reaches an atom of its own once its precondition
        // holds, and its effects need that atom: the precondition is then counted once per
        // operator, not once per effect.
        let mut next_atom = atoms + negated.len() as u32;
        let literals = |conjunction: &Conjunction, out: &mut Vec<u32>| {
            for &a in &conjunction.positive {
                if !out.contains(&a) {
                    out.push(a);
                }
            }
            for &a in &conjunction.negative {
                if let Some(&c) = complement_of.get(a as usize)
                    && c != NONE
                    && !out.contains(&c)
                {
                    out.push(c);
                }
            }
        };
        let mut operators = Vec::new();
        for (i, op) in task.operators.iter().enumerate() {
            let cost = match kind {
                Kind::FastForward => 1,
                Kind::Max => op.cost,
            };
            let mut effects = Vec::new();
            for effect in &op.effects {
                let mut adds = effect.adds.clone();
                for &d in &effect.deletes {
                    if let Some(&c) = complement_of.get(d as usize)
                        && c != NONE
                    {
                        adds.push(c);
                    }
                }
                if !adds.is_empty() {
                    effects.push((effect, adds));
                }
            }
            let mut shared = Vec::new();
            literals(&op.precondition, &mut shared);
            if effects.len() > 1 && shared.len() > 1 {
                operators.push(RelaxedOperator {
                    precondition: std::mem::take(&mut shared),
                    adds: vec![next_atom],
                    cost: 0,
                    operator: NONE,
                });
                shared.push(next_atom);
                next_atom += 1;
            }
            for (effect, adds) in effects {
                let mut precondition = shared.clone();
                literals(&effect.condition, &mut precondition);
                operators.push(RelaxedOperator {
                    precondition,
                    adds,
                    cost,
                    operator: i as u32,
                });
            }
        }
        let goal_atom = next_atom;
        for axiom in task.strata.iter().flatten() {
            let mut precondition = Vec::new();
            literals(&axiom.body, &mut precondition);
            operators.push(RelaxedOperator {
                precondition,
                adds: vec![axiom.head],
                cost: 0,
                operator: NONE,
            });
        }
        for conjunction in &task.goal {
            let mut precondition = Vec::new();
            literals(conjunction, &mut precondition);
            operators.push(RelaxedOperator {
                precondition,
                adds: vec![goal_atom],
                cost: 0,
                operator: NONE,
            });
        }
        let atoms = goal_atom as usize + 1;
        let mut needed_by = vec![Vec::new(); atoms];
        for (i, op) in operators.iter().enumerate() {
            for &a in &op.precondition {
                if let Some(list) = needed_by.get_mut(a as usize) {
                    list.push(i as u32);
                }
            }
        }
        let preconditions: Vec<u32> = operators
            .iter()
            .map(|op| op.precondition.len() as u32)
            .collect();
        let free = (0..operators.len() as u32)
            .filter(|&i| preconditions[i as usize] == 0)
            .collect();
        Relaxed {
            kind,
            negated,
            first_complement: task.atoms.len() as u32,
            needed_by,
            goal_atom,
            cost: vec![INFINITE; atoms],
            supporter: vec![NONE; atoms],
            unsatisfied: preconditions.clone(),
            preconditions,
            free,
            reached_cost: vec![0; operators.len()],
            queue: match kind {
                Kind::FastForward => Queue::Buckets(Vec::new(), 0),
                Kind::Max => Queue::Heap(BinaryHeap::new()),
            },
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
        self.queue.clear();
        self.unsatisfied.copy_from_slice(&self.preconditions);
        self.reached_cost.fill(0);
        for (w, &word) in state.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let atom = (w * 64) as u32 + rest.trailing_zeros();
                rest &= rest - 1;
                if let Some(slot) = self.cost.get_mut(atom as usize)
                    && atom < self.first_complement
                {
                    *slot = 0;
                    self.queue.push(0, atom);
                }
            }
        }
        let first_complement = self.first_complement;
        for (j, &a) in self.negated.iter().enumerate() {
            if !bit(state, a) {
                let complement = first_complement + j as u32;
                self.cost[complement as usize] = 0;
                self.queue.push(0, complement);
            }
        }
        for i in 0..self.free.len() {
            let op = self.free[i] as usize;
            self.fire(op, 0);
        }
        while let Some((cost, atom)) = self.queue.pop() {
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

    /// Whether a relaxed atom holds in `state`: a task atom that is true, a complement whose
    /// atom is false; never the goal atom.
    fn holds(&self, state: &[u64], atom: u32) -> bool {
        let first_complement = self.first_complement;
        if atom < first_complement {
            bit(state, atom)
        } else {
            self.negated
                .get((atom - first_complement) as usize)
                .is_some_and(|&a| !bit(state, a))
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
                self.queue.push(cost, a);
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
            if self.marked_atom[atom as usize] || self.holds(state, atom) {
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
                    && op.precondition.iter().all(|&a| self.holds(state, a))
                {
                    list.push(op.operator);
                }
            }
            stack.extend(op.precondition.iter().copied());
        }
        total
    }
}

/// The exploration's priority queue: buckets for the small integer costs of unit-cost h^add,
/// a binary heap for h^max under arbitrary costs.
enum Queue {
    /// Atoms by cost, and the lowest cost that may hold any.
    Buckets(Vec<Vec<u32>>, usize),
    Heap(BinaryHeap<Reverse<(u64, u32)>>),
}

/// Costs past this share the last bucket: their order is then arbitrary, which changes only
/// the FF estimate (never which atoms are reachable); unit-cost h^add rarely comes close.
const MAX_BUCKETS: u64 = 1 << 20;

impl Queue {
    fn clear(&mut self) {
        match self {
            Queue::Buckets(buckets, lowest) => {
                for bucket in buckets.iter_mut() {
                    bucket.clear();
                }
                *lowest = 0;
            }
            Queue::Heap(heap) => heap.clear(),
        }
    }

    fn push(&mut self, cost: u64, atom: u32) {
        match self {
            Queue::Buckets(buckets, lowest) => {
                let at = cost.min(MAX_BUCKETS) as usize;
                if buckets.len() <= at {
                    buckets.resize_with(at + 1, Vec::new);
                }
                buckets[at].push(atom);
                *lowest = (*lowest).min(at);
            }
            Queue::Heap(heap) => heap.push(Reverse((cost, atom))),
        }
    }

    fn pop(&mut self) -> Option<(u64, u32)> {
        match self {
            Queue::Buckets(buckets, lowest) => {
                while *lowest < buckets.len() {
                    if let Some(atom) = buckets[*lowest].pop() {
                        return Some((*lowest as u64, atom));
                    }
                    *lowest += 1;
                }
                None
            }
            Queue::Heap(heap) => heap.pop().map(|Reverse(entry)| entry),
        }
    }
}
