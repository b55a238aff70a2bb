//! The searches: greedy best-first with lazy evaluation and preferred operators (LAMA's first
//! iteration: h^FF and the landmark count; `greedy.rs`), run as a portfolio of two
//! configurations, and A* with LM-cut for optimal plans.
//!
//! Each search registers every state it reaches once, so that running out of states proves the
//! task unsolvable; states whose relaxed goal is unreachable are dead ends and are not expanded.

use super::greedy::{Config, Greedy};
use super::heuristic::{INFINITE, Kind, Relaxed};
use super::landmarks::Landmarks;
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
pub const ROOT: u32 = u32::MAX;

pub struct Space {
    states: Registry,
    /// For each registered state, its parent and the operator that reached it.
    parents: Vec<(u32, u32)>,
}

impl Space {
    pub fn new() -> Space {
        Space {
            states: Registry::default(),
            parents: Vec::new(),
        }
    }

    /// Registers a state; `None` when it was registered before.
    pub fn register(&mut self, state: Bits, parent: u32, op: u32) -> Option<u32> {
        let (id, new) = self.states.insert_full(state);
        if !new {
            return None;
        }
        self.parents.push((parent, op));
        Some(id as u32)
    }

    pub fn state(&self, id: u32) -> &[u64] {
        self.states
            .get_index(id as usize)
            .map_or(&[][..], |s| &s[..])
    }

    pub fn plan(&self, mut id: u32) -> Vec<u32> {
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

    pub fn bytes(&self, words: usize) -> usize {
        self.states.len() * (words * 8 + 48)
    }
}

/// Expansions of the first configuration before the second joins it: tasks solved sooner pay
/// nothing for the portfolio.
const SECOND_AFTER: u64 = 5_000;

/// Expansions per turn once both configurations run, and between limit checks.
const TURN: u64 = 256;

/// Greedy best-first search as a portfolio of two configurations of one lazy search
/// (`greedy::Greedy`): LAMA's first iteration alone at first, then, from `SECOND_AFTER`
/// expansions on, in turns with an exploring configuration (forced type-based exploration on
/// plateaus, landmarks required again). Greedy search on the kitchen's tasks has a heavy tail:
/// an early choice the estimates cannot tell is wrong (an ingredient contaminated, a tool put
/// in the bowl) can hold one configuration for minutes while another finds a plan at once.
///
/// Each configuration registers the states it reaches; either running out of states proves the
/// task unsolvable, as both prune only dead ends of the relaxation.
pub fn greedy(
    task: &GroundTask,
    start: Bits,
    budget: &Budget,
    statistics: &mut Statistics,
    progress: &mut dyn FnMut(&Progress),
) -> Ending {
    let landmarks = Landmarks::extract(task);
    let mut first = match Greedy::new(task, &landmarks, Config::LAMA, start.clone(), statistics) {
        Ok(search) => search,
        Err(ending) => return ending,
    };
    let mut second: Option<Greedy> = None;
    loop {
        if let Some(ending) = first.run(TURN, statistics, progress) {
            return ending;
        }
        if second.is_none() && first.expanded >= SECOND_AFTER {
            match Greedy::new(
                task,
                &landmarks,
                Config::EXPLORING,
                start.clone(),
                statistics,
            ) {
                Ok(search) => second = Some(search),
                Err(ending) => return ending,
            }
        }
        if let Some(search) = second.as_mut()
            && let Some(ending) = search.run(TURN, statistics, progress)
        {
            return ending;
        }
        let bytes = first.bytes() + second.as_ref().map_or(0, Greedy::bytes);
        if budget.expired(bytes) {
            return Ending::Limit;
        }
    }
}

/// A* with LM-cut under the task's costs: the first goal state expanded has an optimal plan.
pub fn astar(
    task: &GroundTask,
    start: Bits,
    budget: &Budget,
    statistics: &mut Statistics,
    progress: &mut dyn FnMut(&Progress),
) -> Ending {
    let mut relaxed = Relaxed::new(task, Kind::LandmarkCut);
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
