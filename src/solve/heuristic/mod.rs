//! Delete-relaxation heuristics: h^add with the FF relaxed plan (and its preferred operators)
//! for satisficing search; h^max and LM-cut (both admissible) for optimal search.
//!
//! The relaxation drops deletes and negative conditions, so it reaches a superset of what the
//! task reaches: an atom it cannot reach from a state is unreachable from it, and a state whose
//! goal is relaxed-unreachable is a dead end. Conditional effects are relaxed operators of their
//! own (precondition plus condition); axioms are relaxed operators of cost 0; each disjunct of
//! the goal is a relaxed operator adding an artificial goal atom.

mod landmark_cut;
#[cfg(test)]
mod tests;

use super::task::{Axiom, Conjunction, GroundTask, bit};
use landmark_cut::CutSpace;
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
    /// LM-cut (Helmert and Domshlak 2009): the sum of the costs of disjunctive action
    /// landmarks found by cuts in h^max's justification graph, under the task's costs. It
    /// dominates h^max.
    LandmarkCut,
}

/// The relaxed task and the scratch space of its exploration, reused state after state.
pub struct Relaxed {
    kind: Kind,
    /// Each relaxed operator's added atoms, conditions, cost, and the real operator behind it
    /// (`NONE` for an axiom or the goal): flat arrays, which the exploration reads in every
    /// evaluation.
    adds: Lists,
    conditions: Lists,
    operator_cost: Vec<u64>,
    real: Vec<u32>,
    /// For each atom, the relaxed operators needing it.
    needed_by: Lists,
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
    /// LM-cut's scratch space (empty for the other kinds).
    cut: CutSpace,
}

impl Relaxed {
    pub fn new(task: &GroundTask, kind: Kind) -> Relaxed {
        // Basic atoms read negatively get a complementary atom, true when the atom is false and
        // added by the operators that delete it (as a translation to finite-domain variables
        // would have it), so that a negative condition counts when the atom holds. A derived atom
        // read negatively gets one too, reached through negated axioms: it is false when every
        // rule's body is, that is when each rule has a literal false (FD's negated axioms).
        let atoms = task.atoms.len() as u32;
        let complements = Complements::new(task);
        let complement_of = complements.complement_of;
        let negated = complements.negated;
        // An operator with several effects reaches an atom of its own once its precondition
        // holds, and its effects need that atom: the precondition is then counted once per
        // operator, not once per effect.
        let mut next_atom = atoms + negated.len() as u32;
        let mut operators = Vec::new();
        action_operators(task, kind, &complement_of, &mut next_atom, &mut operators);
        // Negated axioms: a rule's body is false once one of its literals is (an auxiliary atom
        // per rule), and the derived atom is false once every rule's body is.
        negated_axiom_operators(
            task,
            &complement_of,
            &negated,
            &complements.rules,
            &mut next_atom,
            &mut operators,
        );
        let goal_atom = next_atom;
        for axiom in task.strata.iter().flatten() {
            let mut precondition = Vec::new();
            push_literals(&axiom.body, &complement_of, &mut precondition);
            operators.push(RelaxedOperator {
                precondition,
                adds: vec![axiom.head],
                cost: 0,
                operator: NONE,
            });
        }
        for conjunction in &task.goal {
            let mut precondition = Vec::new();
            push_literals(conjunction, &complement_of, &mut precondition);
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
        let needed_by = Lists::new(needed_by.iter().map(Vec::as_slice));
        let preconditions: Vec<u32> = operators
            .iter()
            .map(|op| op.precondition.len() as u32)
            .collect();
        let free = (0..operators.len() as u32)
            .filter(|&i| preconditions[i as usize] == 0)
            .collect();
        let cut = match kind {
            Kind::LandmarkCut => {
                let mut added_by = vec![Vec::new(); atoms];
                let mut relaxed_of = vec![Vec::new(); task.operators.len()];
                for (i, op) in operators.iter().enumerate() {
                    for &a in &op.adds {
                        if let Some(list) = added_by.get_mut(a as usize) {
                            list.push(i as u32);
                        }
                    }
                    if let Some(list) = relaxed_of.get_mut(op.operator as usize) {
                        list.push(i as u32);
                    }
                }
                CutSpace {
                    cost: task.operators.iter().map(|op| op.cost).collect(),
                    remaining: Vec::new(),
                    relaxed_of: Lists::new(relaxed_of.iter().map(Vec::as_slice)),
                    added_by: Lists::new(added_by.iter().map(Vec::as_slice)),
                    choice: vec![NONE; operators.len()],
                    goal_zone: vec![false; atoms],
                    before_cut: vec![false; atoms],
                    in_cut: vec![false; task.operators.len()],
                    members: Vec::new(),
                    stack: Vec::new(),
                }
            }
            Kind::FastForward | Kind::Max => CutSpace::default(),
        };
        Relaxed {
            cut,
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
            queue: Queue::for_costs(kind, operators.iter().map(|op| op.cost)),
            marked_atom: vec![false; atoms],
            marked_operator: vec![false; task.operators.len()],
            adds: Lists::new(operators.iter().map(|op| op.adds.as_slice())),
            conditions: Lists::new(operators.iter().map(|op| op.precondition.as_slice())),
            operator_cost: operators.iter().map(|op| op.cost).collect(),
            real: operators.iter().map(|op| op.operator).collect(),
        }
    }

    /// The estimate for `state`; with `preferred`, the real operators of the relaxed plan that
    /// are applicable in it (FF only).
    pub fn evaluate(&mut self, state: &[u64], preferred: Option<&mut Vec<u32>>) -> u64 {
        if self.kind == Kind::LandmarkCut {
            return self.landmark_cut(state);
        }
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
        let Relaxed {
            kind,
            adds,
            operator_cost,
            needed_by,
            goal_atom,
            cost: atom_cost,
            supporter,
            unsatisfied,
            free,
            reached_cost,
            queue,
            cut,
            ..
        } = self;
        cut.choice.fill(NONE);
        // LM-cut needs every atom's h^max, not only those up to the goal's.
        let stop_at_goal = *kind != Kind::LandmarkCut;
        // Reaches the atoms a relaxed operator adds, at the cost of its conditions plus its own.
        let fire = |op: usize,
                    precondition_cost: u64,
                    atom_cost: &mut [u64],
                    supporter: &mut [u32],
                    queue: &mut Queue| {
            let cost = precondition_cost.saturating_add(operator_cost[op]);
            for &a in adds.get(op) {
                let slot = &mut atom_cost[a as usize];
                if cost < *slot {
                    *slot = cost;
                    supporter[a as usize] = op as u32;
                    queue.push(cost, a);
                }
            }
        };
        for &op in free.iter() {
            fire(op as usize, 0, atom_cost, supporter, queue);
        }
        while let Some((cost, atom)) = queue.pop() {
            // A stale entry: the atom was reached more cheaply since.
            if cost > atom_cost[atom as usize] {
                continue;
            }
            if atom == *goal_atom && stop_at_goal {
                break;
            }
            for &op in needed_by.get(atom as usize) {
                let op = op as usize;
                reached_cost[op] = match kind {
                    Kind::FastForward => reached_cost[op].saturating_add(cost),
                    Kind::Max | Kind::LandmarkCut => reached_cost[op].max(cost),
                };
                unsatisfied[op] -= 1;
                if unsatisfied[op] == 0 {
                    // Atoms leave the queue by increasing cost: the last precondition reached
                    // is a most costly one.
                    if let Some(slot) = cut.choice.get_mut(op) {
                        *slot = atom;
                    }
                    fire(op, reached_cost[op], atom_cost, supporter, queue);
                }
            }
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
            let supporter = self.supporter[atom as usize] as usize;
            let Some(&real) = self.real.get(supporter) else {
                continue;
            };
            let conditions = self.conditions.get(supporter);
            if real != NONE && !self.marked_operator[real as usize] {
                self.marked_operator[real as usize] = true;
                total += self.operator_cost[supporter];
                if let Some(list) = preferred.as_deref_mut()
                    && conditions.iter().all(|&a| self.holds(state, a))
                {
                    list.push(real);
                }
            }
            stack.extend(conditions.iter().copied());
        }
        total
    }
}

/// Appends the atoms a conjunction needs, negative literals read as their complements, once each.
#[inline]
fn push_literals(conjunction: &Conjunction, complement_of: &[u32], out: &mut Vec<u32>) {
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
}

/// The relaxed operators of the task's operators, one per effect that adds something, with an
/// atom of their own for a precondition shared by several effects.
fn action_operators(
    task: &GroundTask,
    kind: Kind,
    complement_of: &[u32],
    next_atom: &mut u32,
    operators: &mut Vec<RelaxedOperator>,
) {
    for (i, op) in task.operators.iter().enumerate() {
        let cost = match kind {
            Kind::FastForward => 1,
            Kind::Max | Kind::LandmarkCut => op.cost,
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
        push_literals(&op.precondition, complement_of, &mut shared);
        if effects.len() > 1 && shared.len() > 1 {
            operators.push(RelaxedOperator {
                precondition: std::mem::take(&mut shared),
                adds: vec![*next_atom],
                cost: 0,
                operator: NONE,
            });
            shared.push(*next_atom);
            *next_atom += 1;
        }
        for (effect, adds) in effects {
            let mut precondition = shared.clone();
            push_literals(&effect.condition, complement_of, &mut precondition);
            operators.push(RelaxedOperator {
                precondition,
                adds,
                cost,
                operator: i as u32,
            });
        }
    }
}

/// The relaxed operators that reach the complements of derived atoms through negated axioms.
fn negated_axiom_operators(
    task: &GroundTask,
    complement_of: &[u32],
    negated: &[u32],
    rules: &[Vec<&Axiom>],
    next_atom: &mut u32,
    operators: &mut Vec<RelaxedOperator>,
) {
    for &d in negated {
        if !task.derived.get(d as usize).copied().unwrap_or(false) {
            continue;
        }
        let Some(&complement) = complement_of.get(d as usize) else {
            continue;
        };
        let mut bodies_false = Vec::new();
        for axiom in rules.get(d as usize).into_iter().flatten() {
            let body_false = *next_atom;
            *next_atom += 1;
            bodies_false.push(body_false);
            for &b in &axiom.body.positive {
                let precondition = match complement_of.get(b as usize) {
                    Some(&c) if c != NONE => vec![c],
                    // A derived atom whose negation is not modelled: free.
                    _ => Vec::new(),
                };
                operators.push(RelaxedOperator {
                    precondition,
                    adds: vec![body_false],
                    cost: 0,
                    operator: NONE,
                });
            }
            for &b in &axiom.body.negative {
                operators.push(RelaxedOperator {
                    precondition: vec![b],
                    adds: vec![body_false],
                    cost: 0,
                    operator: NONE,
                });
            }
        }
        operators.push(RelaxedOperator {
            precondition: bodies_false,
            adds: vec![complement],
            cost: 0,
            operator: NONE,
        });
    }
}

/// Which atoms read negatively get a complementary atom in the relaxation, and their ids.
struct Complements<'a> {
    /// For each task atom, its complement's id, or `NONE`.
    complement_of: Vec<u32>,
    /// The atoms with a complement, in the order of their complements' ids.
    negated: Vec<u32>,
    /// For each derived atom, its rules.
    rules: Vec<Vec<&'a Axiom>>,
}

impl<'a> Complements<'a> {
    /// Every basic atom read negatively somewhere, and every derived atom read negatively
    /// whose rules can be negated: not one with a body kept as a formula, and not one reached
    /// again while its own rules are negated (a cycle: its negation would need itself, which
    /// the relaxation cannot derive; it stays free, which only relaxes). The atoms the negated
    /// rules read positively are then read negatively too.
    fn new(task: &'a GroundTask) -> Complements<'a> {
        let count = task.atoms.len();
        let derived = |a: u32| task.derived.get(a as usize).copied().unwrap_or(true);
        let mut rules: Vec<Vec<&Axiom>> = vec![Vec::new(); count];
        for axiom in task.strata.iter().flatten() {
            if let Some(list) = rules.get_mut(axiom.head as usize) {
                list.push(axiom);
            }
        }
        let mut complement_of = vec![NONE; count];
        let mut negated: Vec<u32> = Vec::new();
        // For derived atoms: 0 not seen, 1 on the walk's stack, 2 done.
        let mut mark = vec![0u8; count];
        let mut free = vec![false; count];
        let mut wanted: Vec<u32> = Vec::new();
        let mut note = |conjunction: &Conjunction| wanted.extend(&conjunction.negative);
        for op in &task.operators {
            note(&op.precondition);
            op.effects.iter().for_each(|e| note(&e.condition));
        }
        task.strata.iter().flatten().for_each(|a| note(&a.body));
        task.goal.iter().for_each(&mut note);
        let first_complement = count as u32;
        let assign = |atom: u32, complement_of: &mut Vec<u32>, negated: &mut Vec<u32>| {
            if let Some(slot) = complement_of.get_mut(atom as usize)
                && *slot == NONE
            {
                *slot = first_complement + negated.len() as u32;
                negated.push(atom);
            }
        };
        for atom in wanted {
            if !derived(atom) {
                assign(atom, &mut complement_of, &mut negated);
                continue;
            }
            // A depth-first walk over the derived atoms a negation needs: (atom, next rule,
            // next literal).
            let mut stack: Vec<(u32, usize, usize)> = Vec::new();
            enter(atom, &mut stack, &mut mark, &mut free, &rules);
            while let Some(&mut (a, ref mut rule, ref mut literal)) = stack.last_mut() {
                let body = rules.get(a as usize).and_then(|list| list.get(*rule));
                match body {
                    Some(axiom) => match axiom.body.positive.get(*literal) {
                        Some(&b) => {
                            *literal += 1;
                            if derived(b) {
                                enter(b, &mut stack, &mut mark, &mut free, &rules);
                            } else {
                                assign(b, &mut complement_of, &mut negated);
                            }
                        }
                        None => {
                            *rule += 1;
                            *literal = 0;
                        }
                    },
                    None => {
                        stack.pop();
                        if let Some(m) = mark.get_mut(a as usize) {
                            *m = 2;
                        }
                        if !free.get(a as usize).copied().unwrap_or(true) {
                            assign(a, &mut complement_of, &mut negated);
                        }
                    }
                }
            }
        }
        Complements {
            complement_of,
            negated,
            rules,
        }
    }
}

/// Starts the walk of `Complements::new` on a derived atom: pushed when not seen, marked
/// free when its rules are kept as formulas or when it is on the stack already (a cycle).
fn enter(
    atom: u32,
    stack: &mut Vec<(u32, usize, usize)>,
    mark: &mut [u8],
    free: &mut [bool],
    rules: &[Vec<&Axiom>],
) {
    let index = atom as usize;
    match mark.get(index).copied() {
        Some(0) => {
            if let Some(m) = mark.get_mut(index) {
                *m = 1;
            }
            let opaque = rules
                .get(index)
                .is_some_and(|list| list.iter().any(|r| r.body.rest.is_some()));
            if opaque && let Some(f) = free.get_mut(index) {
                *f = true;
            }
            stack.push((atom, 0, 0));
        }
        Some(1) => {
            if let Some(f) = free.get_mut(index) {
                *f = true;
            }
        }
        _ => {}
    }
}

/// Lists of ids stored end to end: list `i` is `items[offsets[i]..offsets[i + 1]]`.
#[derive(Default)]
struct Lists {
    offsets: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    fn new<'l>(lists: impl Iterator<Item = &'l [u32]>) -> Lists {
        let mut offsets = vec![0u32];
        let mut items = Vec::new();
        for list in lists {
            items.extend_from_slice(list);
            offsets.push(items.len() as u32);
        }
        Lists { offsets, items }
    }

    fn get(&self, i: usize) -> &[u32] {
        match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&start), Some(&end)) => {
                self.items.get(start as usize..end as usize).unwrap_or(&[])
            }
            _ => &[],
        }
    }
}

/// The exploration's priority queue: buckets for small integer costs, a binary heap for h^max
/// under large ones.
enum Queue {
    /// Atoms by cost, and the lowest cost that may hold any.
    Buckets(Vec<Vec<u32>>, usize),
    Heap(BinaryHeap<Reverse<(u64, u32)>>),
}

/// Costs past this share the last bucket: their order is then arbitrary, which changes only
/// the FF estimate (never which atoms are reachable); unit-cost h^add rarely comes close.
const MAX_BUCKETS: u64 = 1 << 20;

/// The most buckets h^max and LM-cut use: past it, their exploration takes the heap.
const MAX_EXACT_BUCKETS: u64 = 1 << 16;

impl Queue {
    /// The queue for an exploration of `kind` whose relaxed operators cost `costs`. h^add's FF
    /// estimate takes buckets whatever the costs (its order past `MAX_BUCKETS` matters little).
    /// h^max needs atoms to leave in order of cost (an operator's last precondition out is its
    /// costliest): buckets when every finite cost an atom can have, at most the sum of all the
    /// operators' costs, has a bucket of its own (the common case: unit or small costs, where
    /// they spare LM-cut a heap's logarithm on every push and pop), the heap otherwise.
    fn for_costs(kind: Kind, costs: impl Iterator<Item = u64>) -> Queue {
        let buckets = match kind {
            Kind::FastForward => true,
            Kind::Max | Kind::LandmarkCut => {
                costs.fold(0u64, u64::saturating_add) < MAX_EXACT_BUCKETS
            }
        };
        if buckets {
            Queue::Buckets(Vec::new(), 0)
        } else {
            Queue::Heap(BinaryHeap::new())
        }
    }

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
