//! The searches: greedy best-first with lazy evaluation and preferred operators (LAMA's first
//! iteration, with h^FF alone), and A* with h^max for optimal plans.
//!
//! Both register every state they reach once, so that running out of states proves the task
//! unsolvable; states whose relaxed goal is unreachable are dead ends and are not expanded.

use super::heuristic::{INFINITE, Kind, Relaxed};
use super::task::{Bits, GroundTask};
use super::{Budget, Progress, Statistics};
use indexmap::IndexSet;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

type Registry = IndexSet<Bits, foldhash::fast::RandomState>;

/// How a search ended.
pub enum Ending {
    /// The operators of a plan, from the start state.
    Plan(Vec<u32>),
    /// Every state reachable from the start was registered; none satisfies the goal.
    Exhausted,
    /// The relaxed goal is unreachable from the start state.
    DeadStart,
    Limit,
}

/// No parent: the start state.
const ROOT: u32 = u32::MAX;

struct Space {
    states: Registry,
    /// For each registered state, its parent and the operator that reached it.
    parents: Vec<(u32, u32)>,
}

impl Space {
    fn new() -> Space {
        Space {
            states: Registry::default(),
            parents: Vec::new(),
        }
    }

    /// Registers a state; `None` when it was registered before.
    fn register(&mut self, state: Bits, parent: u32, op: u32) -> Option<u32> {
        let (id, new) = self.states.insert_full(state);
        if !new {
            return None;
        }
        self.parents.push((parent, op));
        Some(id as u32)
    }

    fn state(&self, id: u32) -> &[u64] {
        self.states
            .get_index(id as usize)
            .map_or(&[][..], |s| &s[..])
    }

    fn plan(&self, mut id: u32) -> Vec<u32> {
        let mut ops = Vec::new();
        while let Some(&(parent, op)) = self.parents.get(id as usize) {
            if parent == ROOT {
                break;
            }
            ops.push(op);
            id = parent;
        }
        ops.reverse();
        ops
    }

    fn bytes(&self, words: usize) -> usize {
        self.states.len() * (words * 8 + 48)
    }
}

/// Lazy greedy best-first search with h^FF and preferred operators, alternating between an
/// open list of every successor and one of preferred successors, the latter boosted by 1000
/// whenever the best heuristic value improves (as Fast Downward's LAMA does).
pub fn greedy(
    task: &GroundTask,
    start: Bits,
    budget: &Budget,
    statistics: &mut Statistics,
    progress: &mut dyn FnMut(&Progress),
) -> Ending {
    let mut relaxed = Relaxed::new(task, Kind::FastForward);
    let mut space = Space::new();
    let words = task.words();
    let mut preferred = Vec::new();
    let mut applicable = Vec::new();
    let h = relaxed.evaluate(&start, Some(&mut preferred));
    statistics.evaluated += 1;
    if h == INFINITE {
        return Ending::DeadStart;
    }
    if task.is_goal(&start) {
        return Ending::Plan(Vec::new());
    }
    let Some(root) = space.register(start, ROOT, 0) else {
        return Ending::Limit;
    };
    // Entries: (heuristic value of the parent, order of insertion, parent, operator).
    type Entry = Reverse<(u64, u64, u32, u32)>;
    let mut all: BinaryHeap<Entry> = BinaryHeap::new();
    let mut favoured: BinaryHeap<Entry> = BinaryHeap::new();
    let mut priority = [0i64; 2];
    let mut order = 0u64;
    let mut best = h;
    statistics.best_h = Some(h);
    let mut push = |all: &mut BinaryHeap<Entry>,
                    favoured: &mut BinaryHeap<Entry>,
                    h: u64,
                    parent: u32,
                    state: &[u64],
                    preferred: &[u32],
                    applicable: &mut Vec<u32>,
                    statistics: &mut Statistics| {
        task.applicable(state, applicable);
        // Preferred successors first, so that ties go to them.
        for &op in preferred.iter().filter(|op| applicable.contains(op)) {
            order += 1;
            favoured.push(Reverse((h, order, parent, op)));
            all.push(Reverse((h, order, parent, op)));
            statistics.generated += 1;
        }
        for &op in applicable.iter().filter(|op| !preferred.contains(op)) {
            order += 1;
            all.push(Reverse((h, order, parent, op)));
            statistics.generated += 1;
        }
    };
    statistics.expanded += 1;
    let start_state: Bits = space.state(root).into();
    push(
        &mut all,
        &mut favoured,
        h,
        root,
        &start_state,
        &preferred,
        &mut applicable,
        statistics,
    );
    loop {
        let use_favoured = !favoured.is_empty() && (all.is_empty() || priority[1] <= priority[0]);
        let entry = if use_favoured {
            priority[1] += 1;
            favoured.pop()
        } else {
            priority[0] += 1;
            all.pop()
        };
        let Some(Reverse((_, _, parent, op))) = entry else {
            return Ending::Exhausted;
        };
        let next = task.successor(space.state(parent), op);
        let Some(id) = space.register(next, parent, op) else {
            continue;
        };
        if statistics.expanded.is_multiple_of(256)
            && budget.expired(space.bytes(words) + (all.len() + favoured.len()) * 32)
        {
            return Ending::Limit;
        }
        let state: Bits = space.state(id).into();
        let h = relaxed.evaluate(&state, Some(&mut preferred));
        statistics.evaluated += 1;
        if h == INFINITE {
            continue;
        }
        if task.is_goal(&state) {
            return Ending::Plan(space.plan(id));
        }
        statistics.expanded += 1;
        if h < best {
            best = h;
            statistics.best_h = Some(h);
            priority[1] -= 1000;
            progress(&Progress::from(&*statistics));
        } else if statistics.expanded.is_multiple_of(10_000) {
            progress(&Progress::from(&*statistics));
        }
        push(
            &mut all,
            &mut favoured,
            h,
            id,
            &state,
            &preferred,
            &mut applicable,
            statistics,
        );
    }
}

/// A* with h^max under the task's costs: the first goal state expanded has an optimal plan.
pub fn astar(
    task: &GroundTask,
    start: Bits,
    budget: &Budget,
    statistics: &mut Statistics,
    progress: &mut dyn FnMut(&Progress),
) -> Ending {
    let mut relaxed = Relaxed::new(task, Kind::Max);
    let mut space = Space::new();
    let words = task.words();
    let mut applicable = Vec::new();
    let h = relaxed.evaluate(&start, None);
    statistics.evaluated += 1;
    if h == INFINITE {
        return Ending::DeadStart;
    }
    let Some(root) = space.register(start, ROOT, 0) else {
        return Ending::Limit;
    };
    let mut g: Vec<u64> = vec![0];
    let mut heuristic: Vec<u64> = vec![h];
    let mut closed: Vec<bool> = vec![false];
    // Entries: (f, h, order, state).
    let mut open: BinaryHeap<Reverse<(u64, u64, u64, u32)>> = BinaryHeap::new();
    let mut order = 0u64;
    open.push(Reverse((h, h, order, root)));
    let mut best = h;
    statistics.best_h = Some(h);
    while let Some(Reverse((f, _, _, id))) = open.pop() {
        let index = id as usize;
        if closed[index] || f > g[index].saturating_add(heuristic[index]) {
            continue;
        }
        closed[index] = true;
        let state: Bits = space.state(id).into();
        if task.is_goal(&state) {
            return Ending::Plan(space.plan(id));
        }
        statistics.expanded += 1;
        if statistics.expanded.is_multiple_of(256)
            && budget.expired(space.bytes(words) + open.len() * 40 + g.len() * 17)
        {
            return Ending::Limit;
        }
        if heuristic[index] < best {
            best = heuristic[index];
            statistics.best_h = Some(best);
            progress(&Progress::from(&*statistics));
        } else if statistics.expanded.is_multiple_of(10_000) {
            progress(&Progress::from(&*statistics));
        }
        task.applicable(&state, &mut applicable);
        for &op in &applicable {
            statistics.generated += 1;
            let next = task.successor(&state, op);
            let cost = task.operators.get(op as usize).map_or(1, |o| o.cost);
            let new_g = g[index].saturating_add(cost);
            let successor = match space.states.get_index_of(&next) {
                Some(known) => {
                    let known_index = known;
                    if new_g >= g[known_index] {
                        continue;
                    }
                    // A cheaper path: reopen with the new parent.
                    g[known_index] = new_g;
                    closed[known_index] = false;
                    if let Some(slot) = space.parents.get_mut(known_index) {
                        *slot = (id, op);
                    }
                    known as u32
                }
                None => {
                    let h = relaxed.evaluate(&next, None);
                    statistics.evaluated += 1;
                    let Some(new) = space.register(next, id, op) else {
                        continue;
                    };
                    g.push(new_g);
                    heuristic.push(h);
                    closed.push(h == INFINITE);
                    if h == INFINITE {
                        continue;
                    }
                    new
                }
            };
            let s = successor as usize;
            order += 1;
            open.push(Reverse((
                g[s].saturating_add(heuristic[s]),
                heuristic[s],
                order,
                successor,
            )));
        }
    }
    Ending::Exhausted
}
