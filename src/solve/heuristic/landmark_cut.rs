//! LM-cut (Helmert and Domshlak 2009) on the relaxed task of [`Relaxed`]: the admissible
//! estimate `pddlc solve --optimal` searches with.

use super::{INFINITE, Lists, Relaxed};
use crate::solve::task::bit;

/// What LM-cut keeps between evaluations, and the marks of one round. Costs are the real
/// operators': a cut is a set of relaxed operators, and each real operator behind one of them
/// is charged once, however many of its effects the cut holds (as Röger, Pommerening and
/// Helmert extend LM-cut to conditional effects); the relaxed operators' costs in
/// `Relaxed::operator_cost` follow their real operator's remaining cost.
#[derive(Default)]
pub(super) struct CutSpace {
    /// Each real operator's cost, and what is left of it in this evaluation.
    pub(super) cost: Vec<u64>,
    pub(super) remaining: Vec<u64>,
    /// For each real operator, its relaxed operators.
    pub(super) relaxed_of: Lists,
    /// For each atom, the relaxed operators adding it.
    pub(super) added_by: Lists,
    /// For each relaxed operator reached, its most costly precondition (`NONE`: it has none).
    pub(super) choice: Vec<u32>,
    pub(super) goal_zone: Vec<bool>,
    pub(super) before_cut: Vec<bool>,
    /// For each real operator, whether the cut holds one of its relaxed operators.
    pub(super) in_cut: Vec<bool>,
    /// The real operators of the cut.
    pub(super) members: Vec<u32>,
    pub(super) stack: Vec<u32>,
}

impl Relaxed {
    /// LM-cut: while the goal costs more than 0 under h^max with the remaining costs, a cut in
    /// the justification graph (each relaxed operator an edge from its most costly
    /// precondition to its adds) between the state and the atoms reaching the goal at no cost
    /// is a disjunctive action landmark; its least cost is added and taken off each member.
    pub(super) fn landmark_cut(&mut self, state: &[u64]) -> u64 {
        self.cut.remaining.clone_from(&self.cut.cost);
        self.set_relaxed_costs(None);
        let mut total = 0u64;
        // h^max, the first round's goal cost. Charging a real operator for all its effects
        // may lower the next round's h^max by more than the cut's cost, so that with
        // conditional effects the sum can fall below h^max: the estimate is the larger of the
        // two, both admissible.
        let mut h_max = None;
        // Each round makes at least one real operator free, so this bounds the rounds.
        for round in 0..=self.cut.cost.len() {
            if round == 0 {
                self.explore(state);
            } else {
                let members = std::mem::take(&mut self.cut.members);
                self.explore_cheaper(&members);
                self.cut.members = members;
                #[cfg(test)]
                self.assert_costs_of_a_full_exploration(state);
            }
            let goal = self.cost.get(self.goal_atom as usize).copied();
            match goal {
                None | Some(INFINITE) if h_max.is_none() => return INFINITE,
                Some(0) | None | Some(INFINITE) => break,
                Some(cost) => {
                    h_max.get_or_insert(cost);
                }
            }
            self.mark_goal_zone();
            self.mark_cut(state);
            let CutSpace {
                remaining,
                in_cut,
                members,
                ..
            } = &mut self.cut;
            let least = members
                .iter()
                .filter_map(|&op| remaining.get(op as usize).copied())
                .min();
            // A cut is never empty nor free while the goal costs something; if it were, stop
            // with what is certainly a lower bound.
            let Some(least) = least.filter(|&c| c > 0) else {
                members.iter().for_each(|&op| in_cut[op as usize] = false);
                break;
            };
            total = total.saturating_add(least);
            for &op in members.iter() {
                if let Some(cost) = remaining.get_mut(op as usize) {
                    *cost -= least;
                }
                if let Some(mark) = in_cut.get_mut(op as usize) {
                    *mark = false;
                }
            }
            let members = std::mem::take(&mut self.cut.members);
            self.set_relaxed_costs(Some(&members));
            self.cut.members = members;
        }
        total.max(h_max.unwrap_or(0))
    }

    /// h^max again after the cut's `operators` became cheaper: only costs that fall are
    /// propagated (atoms' costs never rise), each relaxed operator whose chosen precondition
    /// fell choosing again among its preconditions.
    fn explore_cheaper(&mut self, operators: &[u32]) {
        let Relaxed {
            adds,
            conditions,
            operator_cost,
            needed_by,
            cost: atom_cost,
            unsatisfied,
            reached_cost,
            queue,
            cut,
            ..
        } = self;
        queue.clear();
        let push = |op: usize, from: u64, atom_cost: &mut [u64], queue: &mut super::Queue| {
            let cost = from.saturating_add(operator_cost[op]);
            for &a in adds.get(op) {
                if let Some(slot) = atom_cost.get_mut(a as usize)
                    && cost < *slot
                {
                    *slot = cost;
                    queue.push(cost, a);
                }
            }
        };
        for &real in operators {
            for &op in cut.relaxed_of.get(real as usize) {
                if unsatisfied.get(op as usize) == Some(&0) {
                    let from = reached_cost[op as usize];
                    push(op as usize, from, atom_cost, queue);
                }
            }
        }
        while let Some((cost, atom)) = queue.pop() {
            if cost > atom_cost[atom as usize] {
                continue;
            }
            for &op in needed_by.get(atom as usize) {
                let op = op as usize;
                if unsatisfied[op] != 0 || cut.choice[op] != atom || reached_cost[op] <= cost {
                    continue;
                }
                // The costliest precondition now, the first of them.
                let (mut chosen, mut highest) = (atom, cost);
                for &a in conditions.get(op) {
                    let c = atom_cost[a as usize];
                    if c > highest {
                        (chosen, highest) = (a, c);
                    }
                }
                cut.choice[op] = chosen;
                if highest < reached_cost[op] {
                    reached_cost[op] = highest;
                    push(op, highest, atom_cost, queue);
                }
            }
        }
    }

    /// In the unit tests, after each incremental exploration: the atoms' costs are those a
    /// full exploration from the state gives (the state of the rounds is kept).
    #[cfg(test)]
    fn assert_costs_of_a_full_exploration(&mut self, state: &[u64]) {
        let kept = (
            self.cost.clone(),
            self.cut.choice.clone(),
            self.reached_cost.clone(),
            self.unsatisfied.clone(),
            self.supporter.clone(),
        );
        self.explore(state);
        assert_eq!(
            self.cost, kept.0,
            "incremental h^max differs from a full exploration"
        );
        (
            self.cost,
            self.cut.choice,
            self.reached_cost,
            self.unsatisfied,
            self.supporter,
        ) = kept;
    }

    /// Gives the relaxed operators of `operators` (of every real operator: `None`) their real
    /// operator's remaining cost.
    fn set_relaxed_costs(&mut self, operators: Option<&[u32]>) {
        let CutSpace {
            remaining,
            relaxed_of,
            ..
        } = &self.cut;
        let mut set = |op: u32| {
            let cost = remaining.get(op as usize).copied().unwrap_or(0);
            for &relaxed in relaxed_of.get(op as usize) {
                if let Some(slot) = self.operator_cost.get_mut(relaxed as usize) {
                    *slot = cost;
                }
            }
        };
        match operators {
            Some(list) => list.iter().copied().for_each(&mut set),
            None => (0..remaining.len() as u32).for_each(&mut set),
        }
    }

    /// The goal zone: the atoms from which the goal atom is reached through free relaxed
    /// operators whose most costly precondition they are.
    fn mark_goal_zone(&mut self) {
        let Relaxed {
            conditions,
            operator_cost,
            unsatisfied,
            cost: atom_cost,
            goal_atom,
            cut,
            ..
        } = self;
        let CutSpace {
            added_by,
            choice,
            goal_zone,
            stack,
            ..
        } = cut;
        goal_zone.fill(false);
        stack.clear();
        if let Some(mark) = goal_zone.get_mut(*goal_atom as usize) {
            *mark = true;
            stack.push(*goal_atom);
        }
        let free = |op: &u32| operator_cost.get(*op as usize) == Some(&0);
        while let Some(atom) = stack.pop() {
            for &op in added_by.get(atom as usize) {
                let op = op as usize;
                if operator_cost.get(op) != Some(&0) || unsatisfied.get(op) != Some(&0) {
                    continue;
                }
                let Some(&chosen) = choice.get(op) else {
                    continue;
                };
                // Among the free operator's costliest preconditions, one that only costly
                // operators reach (the zone's border), else one in the zone already: the
                // zone then stays small and the next cuts apart (visit-all: one cell's moves
                // each, not a neighbourhood's).
                let tied = atom_cost.get(chosen as usize).copied();
                let from = if tied.is_some() {
                    let candidates = conditions
                        .get(op)
                        .iter()
                        .copied()
                        .filter(|&a| atom_cost.get(a as usize).copied() == tied);
                    let mut border = None;
                    let mut inside = None;
                    for a in candidates {
                        if !added_by.get(a as usize).iter().any(free) {
                            border = Some(a);
                            break;
                        }
                        if inside.is_none() && goal_zone.get(a as usize).copied().unwrap_or(false) {
                            inside = Some(a);
                        }
                    }
                    border.or(inside).unwrap_or(chosen)
                } else {
                    chosen
                };
                if let Some(slot) = choice.get_mut(op) {
                    *slot = from;
                }
                if let Some(mark) = goal_zone.get_mut(from as usize)
                    && !*mark
                {
                    *mark = true;
                    stack.push(from);
                }
            }
        }
    }

    /// The cut: the relaxed operators reaching the goal zone from the atoms the state reaches
    /// without passing through it (in `cut.members`).
    fn mark_cut(&mut self, state: &[u64]) {
        let first_complement = self.first_complement;
        let Relaxed {
            adds,
            real,
            needed_by,
            unsatisfied,
            free,
            negated,
            cut,
            ..
        } = self;
        let CutSpace {
            choice,
            goal_zone,
            before_cut,
            in_cut,
            members,
            stack,
            ..
        } = cut;
        before_cut.fill(false);
        members.clear();
        stack.clear();
        // The state's atoms, then what the relaxed operators reach from them.
        let mut seed = |atom: u32| {
            if let Some(mark) = before_cut.get_mut(atom as usize)
                && !*mark
            {
                *mark = true;
                stack.push(atom);
            }
        };
        for (w, &word) in state.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let atom = (w * 64) as u32 + rest.trailing_zeros();
                rest &= rest - 1;
                if atom < first_complement {
                    seed(atom);
                }
            }
        }
        for (j, &a) in negated.iter().enumerate() {
            if !bit(state, a) {
                seed(first_complement + j as u32);
            }
        }
        // A relaxed operator entering the goal zone is in the cut, and what else it adds is not
        // reached before the cut: every path from the state to the goal still crosses the cut
        // (its first edge out of the atoms reached is a cut member's), and the cut holds no
        // operator only reachable through another member (as Fast Downward's LM-cut reads it;
        // on visit-all, the difference between one cell's moves a cut and several cells').
        let mut reach = |op: usize, stack: &mut Vec<u32>| {
            let op_adds = adds.get(op);
            if op_adds
                .iter()
                .any(|&a| goal_zone.get(a as usize).copied().unwrap_or(false))
            {
                // A relaxed operator without a real one is free: it never enters the goal
                // zone from outside it.
                let operator = real.get(op).copied().unwrap_or(u32::MAX);
                if let Some(mark) = in_cut.get_mut(operator as usize)
                    && !*mark
                {
                    *mark = true;
                    members.push(operator);
                }
                return;
            }
            for &a in op_adds {
                if let Some(mark) = before_cut.get_mut(a as usize)
                    && !*mark
                {
                    *mark = true;
                    stack.push(a);
                }
            }
        };
        for &op in free.iter() {
            reach(op as usize, stack);
        }
        while let Some(atom) = stack.pop() {
            for &op in needed_by.get(atom as usize) {
                let op = op as usize;
                if unsatisfied.get(op) == Some(&0) && choice.get(op) == Some(&atom) {
                    reach(op, stack);
                }
            }
        }
    }
}
