//! Lazy greedy best-first search in the style of LAMA's first iteration, resumable so that two
//! configurations can take turns (`search::greedy` runs the portfolio).
//!
//! h^FF and, when the task has landmarks, the landmark count, each with an open list of every
//! successor and one of preferred successors (preferred by either estimate), taken in turn by
//! priority; the preferred lists are boosted by 1000 whenever either estimate reaches a new best
//! value. Beside them, a type-based exploration list (`explore`) takes its turn like the others;
//! the *exploring* configuration also forces one pop in four from it once the estimates have
//! not improved for a while, and counts landmarks required again.

use super::explore::TypeBuckets;
use super::heuristic::{INFINITE, Kind, Relaxed};
use super::landmarks::Landmarks;
use super::search::{Ending, ROOT, Space};
use super::task::{Bits, GroundTask};
use super::{Progress, Statistics};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How one greedy search differs from another.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Force every `share`-th pop from the exploration list once `stall` expansions have passed
    /// without a new best estimate.
    pub forced_exploration: Option<(u64, u64)>,
    /// Count reached landmarks that are false now and greedy-necessary for one not reached yet.
    pub required_again: bool,
    /// Type successors for exploration by the parent's h^FF and landmark count, instead of h^FF
    /// and depth (Xie et al.'s pair).
    pub landmark_types: bool,
}

impl Config {
    /// LAMA's first iteration, with exploration taking its turn.
    pub const LAMA: Config = Config {
        forced_exploration: None,
        required_again: false,
        landmark_types: false,
    };
    /// More exploration on plateaus, typed by the landmark count, and landmarks required again.
    pub const EXPLORING: Config = Config {
        forced_exploration: Some((4, 1000)),
        required_again: true,
        landmark_types: true,
    };
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

/// A greedy search in progress.
pub struct Greedy<'a> {
    task: &'a GroundTask,
    landmarks: &'a Landmarks,
    config: Config,
    relaxed: Relaxed,
    space: Space,
    lists: Vec<OpenList>,
    explore: TypeBuckets,
    explore_priority: i64,
    /// The landmarks reached on the path to each registered state, by state id.
    reached: Vec<Bits>,
    /// The depth of each registered state, by state id.
    depth: Vec<u32>,
    order: u64,
    pops: u64,
    best: [u64; 2],
    /// Expansions when an estimate last reached a new best value.
    last_improvement: u64,
    /// Whether the last state visited reached a new best value (for the progress line).
    improved: bool,
    /// This search's own expansions.
    pub expanded: u64,
    preferred: Vec<u32>,
    preferred_by_landmarks: Vec<u32>,
    applicable: Vec<u32>,
}

impl<'a> Greedy<'a> {
    /// Evaluates the start state: the search is over at once when it is a dead end or a goal.
    pub fn new(
        task: &'a GroundTask,
        landmarks: &'a Landmarks,
        config: Config,
        start: Bits,
        statistics: &mut Statistics,
    ) -> Result<Greedy<'a>, Ending> {
        let heuristics = if landmarks.len() > 0 { 2 } else { 1 };
        let lists = (0..heuristics)
            .flat_map(|heuristic| {
                [false, true].map(|preferred_only| OpenList {
                    heap: BinaryHeap::new(),
                    heuristic,
                    preferred_only,
                    priority: 0,
                })
            })
            .collect();
        let mut search = Greedy {
            task,
            landmarks,
            config,
            relaxed: Relaxed::new(task, Kind::FastForward),
            space: Space::new(),
            lists,
            explore: TypeBuckets::new(),
            explore_priority: 0,
            reached: Vec::new(),
            depth: Vec::new(),
            order: 0,
            pops: 0,
            best: [INFINITE, INFINITE],
            last_improvement: 0,
            improved: false,
            expanded: 0,
            preferred: Vec::new(),
            preferred_by_landmarks: Vec::new(),
            applicable: Vec::new(),
        };
        let start_reached = landmarks.start(&start);
        let Some(root) = search.space.register(start, ROOT, 0) else {
            return Err(Ending::Limit);
        };
        search.reached.push(start_reached);
        search.depth.push(0);
        match search.visit(root, statistics) {
            Some(ending) => Err(ending),
            None => Ok(search),
        }
    }

    /// Bytes held, as far as the memory limit is concerned.
    pub fn bytes(&self) -> usize {
        self.space.bytes(self.task.words())
            + self.reached.len() * (self.landmarks.len().div_ceil(64) * 8 + 20)
            + self.lists.iter().map(|l| l.heap.len()).sum::<usize>() * 24
            + self.explore.len() * 8
    }

    /// Runs up to `expansions` more expansions; `None` when the search goes on.
    pub fn run(
        &mut self,
        expansions: u64,
        statistics: &mut Statistics,
        progress: &mut dyn FnMut(&Progress),
    ) -> Option<Ending> {
        let until = self.expanded + expansions;
        while self.expanded < until {
            let Some((parent, op)) = self.pop() else {
                return Some(Ending::Exhausted);
            };
            let next = self.task.successor(self.space.state(parent), op);
            let Some(id) = self.space.register(next, parent, op) else {
                continue;
            };
            let mut path_reached = self
                .reached
                .get(parent as usize)
                .cloned()
                .unwrap_or_default();
            self.landmarks
                .progress(&mut path_reached, self.space.state(id));
            self.reached.push(path_reached);
            let depth = self.depth.get(parent as usize).map_or(0, |d| d + 1);
            self.depth.push(depth);
            if let Some(ending) = self.visit(id, statistics) {
                return Some(ending);
            }
            if std::mem::take(&mut self.improved) || statistics.expanded.is_multiple_of(10_000) {
                progress(&Progress::from(&*statistics));
            }
        }
        None
    }

    /// The next successor to look at, from the list whose turn it is; `None` when every list
    /// is empty.
    fn pop(&mut self) -> Option<(u32, u32)> {
        let chosen = self
            .lists
            .iter()
            .enumerate()
            .filter(|(_, list)| !list.heap.is_empty())
            .min_by_key(|(i, list)| (list.priority, *i))
            .map(|(i, _)| i);
        self.pops += 1;
        let forced = self
            .config
            .forced_exploration
            .is_some_and(|(share, stall)| {
                self.expanded.saturating_sub(self.last_improvement) >= stall
                    && self.pops.is_multiple_of(share)
            });
        let explore_priority = self.explore_priority;
        let explore_empty = self.explore.is_empty();
        let from_lists = chosen
            .and_then(|i| self.lists.get_mut(i))
            .filter(|list| explore_empty || (!forced && list.priority <= explore_priority));
        match from_lists {
            Some(list) => {
                list.priority += 1;
                list.heap
                    .pop()
                    .map(|Reverse((_, _, parent, op))| (parent, op))
            }
            None => {
                self.explore_priority += 1;
                self.explore.pop()
            }
        }
    }

    /// Evaluates a newly registered state and, unless it is a dead end or a goal, expands it.
    fn visit(&mut self, id: u32, statistics: &mut Statistics) -> Option<Ending> {
        let task = self.task;
        let state: Bits = self.space.state(id).into();
        let h = self.relaxed.evaluate(&state, Some(&mut self.preferred));
        statistics.evaluated += 1;
        if h == INFINITE {
            return (id == 0).then_some(Ending::DeadStart);
        }
        if task.is_goal(&state) {
            return Some(Ending::Plan(self.space.plan(id)));
        }
        statistics.expanded += 1;
        self.expanded += 1;
        task.applicable(&state, &mut self.applicable);
        let mut lm_value = 0;
        let use_landmarks = self.lists.len() > 2;
        if use_landmarks {
            let state_reached = self.reached.get(id as usize).map_or(&[][..], |r| &r[..]);
            lm_value = self
                .landmarks
                .value(state_reached, &state, self.config.required_again);
            self.landmarks.preferred(
                task,
                state_reached,
                &state,
                &self.applicable,
                self.config.required_again,
                &mut self.preferred_by_landmarks,
            );
            for &op in &self.preferred_by_landmarks {
                if !self.preferred.contains(&op) {
                    self.preferred.push(op);
                }
            }
        }
        let mut improved = false;
        if h < self.best[0] {
            self.best[0] = h;
            if statistics.best_h.is_none_or(|b| h < b) {
                statistics.best_h = Some(h);
            }
            improved = true;
        }
        if use_landmarks && lm_value < self.best[1] {
            self.best[1] = lm_value;
            improved = true;
        }
        self.improved = improved;
        if improved {
            self.last_improvement = self.expanded;
            for list in self.lists.iter_mut().filter(|l| l.preferred_only) {
                list.priority -= 1000;
            }
        }
        // The successors' type for exploration: h^FF of the parent and its landmark count or the
        // successors' depth.
        let kind = if use_landmarks && self.config.landmark_types {
            u32::try_from(lm_value).unwrap_or(u32::MAX)
        } else {
            self.depth.get(id as usize).map_or(0, |d| d + 1)
        };
        let values = [h, lm_value];
        // Preferred successors first, so that ties go to them.
        let preferred = &self.preferred;
        let favoured = self.applicable.iter().filter(|op| preferred.contains(op));
        let others = self.applicable.iter().filter(|op| !preferred.contains(op));
        for (is_preferred, &op) in favoured
            .map(|op| (true, op))
            .chain(others.map(|op| (false, op)))
        {
            self.order += 1;
            statistics.generated += 1;
            for list in self.lists.iter_mut() {
                if is_preferred || !list.preferred_only {
                    let value = values.get(list.heuristic).copied().unwrap_or(0);
                    list.heap.push(Reverse((value, self.order, id, op)));
                }
            }
            self.explore.push(h, kind, (id, op));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::task::{Conjunction, EffectGroup, Operator, bit, set_bit};

    /// A row of `cells` cells with a token at cell 0: `(step i)` moves it from cell `i` to cell
    /// `i + 1`; `(trap i)` moves it from cell `i` to a pit it never leaves. The goal is the
    /// token at `goal`.
    fn row(cells: u32, goal: u32) -> GroundTask {
        let pit = cells;
        let mut task = GroundTask::default();
        task.atoms = (0..cells)
            .map(|i| format!("(at c{i})"))
            .chain(["(at pit)".to_string()])
            .collect();
        task.derived = vec![false; task.atoms.len()];
        let step = |name: String, from: u32, to: u32| Operator {
            name,
            precondition: Conjunction {
                positive: vec![from],
                negative: Vec::new(),
                rest: None,
            },
            effects: vec![EffectGroup {
                condition: Conjunction::default(),
                adds: vec![to],
                deletes: vec![from],
            }],
            cost: 1,
        };
        for i in 0..cells - 1 {
            task.operators.push(step(format!("(step {i})"), i, i + 1));
            task.operators.push(step(format!("(trap {i})"), i, pit));
        }
        task.goal = vec![Conjunction {
            positive: vec![goal],
            negative: Vec::new(),
            rest: None,
        }];
        let mut init = vec![0u64; task.words()].into_boxed_slice();
        set_bit(&mut init, 0, true);
        task.init = init;
        task.index(&vec![0; task.atoms.len()]);
        task
    }

    fn run(task: &GroundTask, config: Config) -> Ending {
        let landmarks = Landmarks::extract(task);
        let mut statistics = Statistics::default();
        let mut search =
            match Greedy::new(task, &landmarks, config, task.init.clone(), &mut statistics) {
                Ok(search) => search,
                Err(ending) => return ending,
            };
        loop {
            if let Some(ending) = search.run(64, &mut statistics, &mut |_| {}) {
                return ending;
            }
        }
    }

    #[test]
    fn both_configurations_find_a_plan_that_reaches_the_goal() {
        let task = row(40, 39);
        for config in [Config::LAMA, Config::EXPLORING] {
            let Ending::Plan(plan) = run(&task, config) else {
                panic!("{config:?}: no plan");
            };
            let mut state = task.init.clone();
            for &op in &plan {
                assert!(task.operators[op as usize].precondition.holds(&state));
                state = task.successor(&state, op);
            }
            assert!(task.is_goal(&state), "{config:?}");
            assert_eq!(plan.len(), 39, "{config:?}: the row has one plan");
        }
    }

    #[test]
    fn both_configurations_run_out_of_states_on_a_goal_no_state_reaches() {
        // The goal is the pit and cell 5 at once: each is reachable, never both.
        let mut task = row(8, 5);
        task.goal[0].positive.push(8);
        assert!(!bit(&task.init, 8));
        for config in [Config::LAMA, Config::EXPLORING] {
            assert!(
                matches!(run(&task, config), Ending::Exhausted),
                "{config:?}"
            );
        }
    }
}
