//! The searches: greedy best-first with lazy evaluation and preferred operators (LAMA's first
//! iteration: h^FF and the landmark count), and A* with h^max for optimal plans.
//!
//! Both register every state they reach once, so that running out of states proves the task
//! unsolvable; states whose relaxed goal is unreachable are dead ends and are not expanded.

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

/// One open list of the greedy search: entries `(heuristic value of the parent, order of
/// insertion, parent, operator)`, smallest first, so that ties go to the oldest.
struct OpenList {
    heap: BinaryHeap<Reverse<(u64, u64, u32, u32)>>,
    /// Which estimate orders it: 0 for h^FF, 1 for the landmark count.
    heuristic: usize,
    /// Whether it holds only the successors reached by preferred operators.
    preferred_only: bool,
    /// Lower is picked first; taking an entry adds 1, progress takes 1000 off a preferred list.
    priority: i64,
}

/// Lazy greedy best-first search in the style of LAMA's first iteration: h^FF and, when the
/// task has landmarks, the landmark count, each with an open list of every successor and one of
/// preferred successors (preferred by either estimate), taken in turn by priority; the preferred
/// lists are boosted by 1000 whenever either estimate reaches a new best value.
pub fn greedy(
    task: &GroundTask,
    start: Bits,
    budget: &Budget,
    statistics: &mut Statistics,
    progress: &mut dyn FnMut(&Progress),
) -> Ending {
    let mut relaxed = Relaxed::new(task, Kind::FastForward);
    let landmarks = Landmarks::extract(task);
    let use_landmarks = landmarks.len() > 0;
    let mut space = Space::new();
    let words = task.words();
    let mut preferred = Vec::new();
    let mut preferred_by_landmarks = Vec::new();
    let mut applicable = Vec::new();
    let h = relaxed.evaluate(&start, Some(&mut preferred));
    statistics.evaluated += 1;
    if h == INFINITE {
        return Ending::DeadStart;
    }
    if task.is_goal(&start) {
        return Ending::Plan(Vec::new());
    }
    let start_reached = landmarks.start(&start);
    let Some(root) = space.register(start, ROOT, 0) else {
        return Ending::Limit;
    };
    // The landmarks reached on the path to each registered state, by state id.
    let mut reached: Vec<Bits> = vec![start_reached];
    let heuristics = if use_landmarks { 2 } else { 1 };
    let mut lists: Vec<OpenList> = (0..heuristics)
        .flat_map(|heuristic| {
            [false, true].map(|preferred_only| OpenList {
                heap: BinaryHeap::new(),
                heuristic,
                preferred_only,
                priority: 0,
            })
        })
        .collect();
    let mut order = 0u64;
    let mut best = [h, INFINITE];
    statistics.best_h = Some(h);
    let mut push = |lists: &mut Vec<OpenList>,
                    values: [u64; 2],
                    parent: u32,
                    preferred: &[u32],
                    applicable: &[u32],
                    statistics: &mut Statistics| {
        // Preferred successors first, so that ties go to them.
        let favoured = applicable.iter().filter(|op| preferred.contains(op));
        let others = applicable.iter().filter(|op| !preferred.contains(op));
        for (is_preferred, &op) in favoured
            .map(|op| (true, op))
            .chain(others.map(|op| (false, op)))
        {
            order += 1;
            statistics.generated += 1;
            for list in lists.iter_mut() {
                if is_preferred || !list.preferred_only {
                    let value = values.get(list.heuristic).copied().unwrap_or(0);
                    list.heap.push(Reverse((value, order, parent, op)));
                }
            }
        }
    };
    statistics.expanded += 1;
    let start_state: Bits = space.state(root).into();
    task.applicable(&start_state, &mut applicable);
    let mut lm_value = 0;
    if use_landmarks {
        let root_reached = reached.first().map_or(&[][..], |r| &r[..]);
        lm_value = landmarks.value(root_reached, &start_state);
        best[1] = lm_value;
        landmarks.preferred(
            task,
            root_reached,
            &start_state,
            &applicable,
            &mut preferred_by_landmarks,
        );
        merge(&mut preferred, &preferred_by_landmarks);
    }
    push(
        &mut lists,
        [h, lm_value],
        root,
        &preferred,
        &applicable,
        statistics,
    );
    loop {
        let chosen = lists
            .iter()
            .enumerate()
            .filter(|(_, list)| !list.heap.is_empty())
            .min_by_key(|(i, list)| (list.priority, *i))
            .map(|(i, _)| i);
        let Some(list) = chosen.and_then(|i| lists.get_mut(i)) else {
            return Ending::Exhausted;
        };
        list.priority += 1;
        let Some(Reverse((_, _, parent, op))) = list.heap.pop() else {
            return Ending::Exhausted;
        };
        let next = task.successor(space.state(parent), op);
        let Some(id) = space.register(next, parent, op) else {
            continue;
        };
        let state: Bits = space.state(id).into();
        let mut path_reached = reached
            .get(parent as usize)
            .cloned()
            .unwrap_or_else(|| landmarks.start(&state));
        landmarks.progress(&mut path_reached, &state);
        reached.push(path_reached);
        if statistics.expanded.is_multiple_of(256)
            && budget.expired(
                space.bytes(words)
                    + reached.len() * (landmarks.len().div_ceil(64) * 8 + 16)
                    + lists.iter().map(|l| l.heap.len()).sum::<usize>() * 24,
            )
        {
            return Ending::Limit;
        }
        let h = relaxed.evaluate(&state, Some(&mut preferred));
        statistics.evaluated += 1;
        if h == INFINITE {
            continue;
        }
        if task.is_goal(&state) {
            return Ending::Plan(space.plan(id));
        }
        statistics.expanded += 1;
        task.applicable(&state, &mut applicable);
        let mut lm_value = 0;
        if use_landmarks {
            let state_reached = reached.last().map_or(&[][..], |r| &r[..]);
            lm_value = landmarks.value(state_reached, &state);
            landmarks.preferred(
                task,
                state_reached,
                &state,
                &applicable,
                &mut preferred_by_landmarks,
            );
            merge(&mut preferred, &preferred_by_landmarks);
        }
        let mut improved = false;
        if h < best[0] {
            best[0] = h;
            statistics.best_h = Some(h);
            improved = true;
        }
        if use_landmarks && lm_value < best[1] {
            best[1] = lm_value;
            improved = true;
        }
        if improved {
            for list in lists.iter_mut().filter(|l| l.preferred_only) {
                list.priority -= 1000;
            }
            progress(&Progress::from(&*statistics));
        } else if statistics.expanded.is_multiple_of(10_000) {
            progress(&Progress::from(&*statistics));
        }
        push(
            &mut lists,
            [h, lm_value],
            id,
            &preferred,
            &applicable,
            statistics,
        );
    }
}

/// Adds to `into` the operators of `from` it does not hold yet.
fn merge(into: &mut Vec<u32>, from: &[u32]) {
    for &op in from {
        if !into.contains(&op) {
            into.push(op);
        }
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
