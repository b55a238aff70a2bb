use super::*;
use crate::solve::task::{Bits, EffectGroup, Operator, set_bit};
use std::collections::HashMap;

fn literals(positive: &[u32], negative: &[u32]) -> Conjunction {
    Conjunction {
        positive: positive.to_vec(),
        negative: negative.to_vec(),
        rest: None,
    }
}

fn task_of(atoms: u32, operators: Vec<Operator>, init: &[u32], goal: Conjunction) -> GroundTask {
    let mut task = GroundTask::default();
    task.atoms = (0..atoms).map(|i| format!("(p{i})")).collect();
    task.derived = vec![false; atoms as usize];
    task.operators = operators;
    task.goal = vec![goal];
    task.action_costs = true;
    let mut state = vec![0u64; task.words()].into_boxed_slice();
    for &a in init {
        set_bit(&mut state, a, true);
    }
    task.init = state;
    task.index(&vec![0; atoms as usize]);
    task
}

/// The least cost of a plan from `start` (Dijkstra over the task's states), `INFINITE` when
/// there is none.
fn optimum(task: &GroundTask, start: &Bits) -> u64 {
    let mut best: HashMap<Bits, u64> = HashMap::from([(start.clone(), 0)]);
    let mut open = BinaryHeap::from([Reverse((0u64, start.clone()))]);
    let mut applicable = Vec::new();
    while let Some(Reverse((cost, state))) = open.pop() {
        if best.get(&state).is_some_and(|&known| known < cost) {
            continue;
        }
        if task.is_goal(&state) {
            return cost;
        }
        task.applicable(&state, &mut applicable);
        for &op in &applicable {
            let next = task.successor(&state, op);
            let next_cost = cost + task.operators[op as usize].cost;
            if best.get(&next).is_none_or(|&known| next_cost < known) {
                best.insert(next.clone(), next_cost);
                open.push(Reverse((next_cost, next)));
            }
        }
    }
    INFINITE
}

/// Every state reachable from the initial state.
fn reachable(task: &GroundTask) -> Vec<Bits> {
    let mut seen = vec![task.init.clone()];
    let mut next = 0;
    let mut applicable = Vec::new();
    while let Some(state) = seen.get(next).cloned() {
        next += 1;
        task.applicable(&state, &mut applicable);
        for &op in &applicable {
            let successor = task.successor(&state, op);
            if !seen.contains(&successor) {
                seen.push(successor);
            }
        }
    }
    seen
}

#[test]
fn an_operator_with_two_effects_is_paid_once() {
    // (both) adds p0 and p1 in two effects, (first) adds p0 alone: the goal p0 ∧ p1 costs 3,
    // the cost of (both); costing each of its effects apart would count (both) twice.
    let effect = |adds: Vec<u32>, condition: Conjunction| EffectGroup {
        condition,
        adds,
        deletes: Vec::new(),
    };
    let operators = vec![
        Operator {
            name: "(both)".into(),
            precondition: literals(&[2], &[]),
            effects: vec![
                effect(vec![0], literals(&[], &[])),
                effect(vec![1], literals(&[2], &[])),
            ],
            cost: 3,
        },
        Operator {
            name: "(first)".into(),
            precondition: literals(&[], &[]),
            effects: vec![effect(vec![0], literals(&[], &[]))],
            cost: 1,
        },
    ];
    let task = task_of(3, operators, &[2], literals(&[0, 1], &[]));
    let mut cut = Relaxed::new(&task, Kind::LandmarkCut);
    assert_eq!(optimum(&task, &task.init), 3);
    assert_eq!(cut.evaluate(&task.init, None), 3);
}

/// A small pseudo-random generator (SplitMix64), for tasks the test can repeat.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Distinct atoms below `atoms`, up to `most` of them.
    fn atoms(&mut self, atoms: u32, most: u64) -> Vec<u32> {
        let mut out: Vec<u32> = Vec::new();
        for _ in 0..self.below(most + 1) {
            let a = self.below(u64::from(atoms)) as u32;
            if !out.contains(&a) {
                out.push(a);
            }
        }
        out
    }
}

/// A random task over 6 atoms: operators with negative preconditions, conditional effects and
/// costs from 0 to 3.
fn random_task(random: &mut Random) -> GroundTask {
    let atoms = 6;
    let mut operators = Vec::new();
    for i in 0..8 {
        let precondition = literals(&random.atoms(atoms, 2), &random.atoms(atoms, 1));
        let mut effects = Vec::new();
        for e in 0..1 + random.below(2) {
            let condition = if e == 0 {
                literals(&[], &[])
            } else {
                literals(&random.atoms(atoms, 1), &random.atoms(atoms, 1))
            };
            effects.push(EffectGroup {
                condition,
                adds: random.atoms(atoms, 2),
                deletes: random.atoms(atoms, 2),
            });
        }
        operators.push(Operator {
            name: format!("(o{i})"),
            precondition,
            effects,
            cost: random.below(4),
        });
    }
    let init = random.atoms(atoms, 3);
    let goal = literals(&random.atoms(atoms, 3), &random.atoms(atoms, 1));
    task_of(atoms, operators, &init, goal)
}

/// Every random task's operators cost `scale` times what `random_task` gives them: h^max and
/// LM-cut over all their reachable states, against the optimum. Returns the states compared and
/// those where LM-cut was above h^max; checks that the exploration took buckets or the heap as
/// `heap` says.
fn compare_with_the_optimum(scale: u64, heap: bool) -> (usize, usize) {
    let mut random = Random(35);
    let (mut states, mut above_max) = (0, 0);
    for _ in 0..300 {
        let mut task = random_task(&mut random);
        task.operators.iter_mut().for_each(|op| op.cost *= scale);
        let mut max = Relaxed::new(&task, Kind::Max);
        let mut cut = Relaxed::new(&task, Kind::LandmarkCut);
        let free = task.operators.iter().all(|op| op.cost == 0);
        for relaxed in [&max, &cut] {
            let took_heap = matches!(relaxed.queue, Queue::Heap(_));
            assert_eq!(took_heap, heap && !free, "scale {scale}: {task:?}");
        }
        for state in reachable(&task) {
            let (h_max, h_cut, best) = (
                max.evaluate(&state, None),
                cut.evaluate(&state, None),
                optimum(&task, &state),
            );
            assert!(h_max <= h_cut, "{h_max} > {h_cut} in {task:?} at {state:?}");
            assert!(h_cut <= best, "{h_cut} > {best} in {task:?} at {state:?}");
            // The same relaxation: both see the same dead ends.
            assert_eq!(h_max == INFINITE, h_cut == INFINITE);
            // h^max is exact, whatever the queue: a multiple of the scale.
            assert!(
                h_max == INFINITE || h_max % scale == 0,
                "{h_max} at scale {scale}"
            );
            states += 1;
            above_max += usize::from(h_cut > h_max);
        }
    }
    (states, above_max)
}

#[test]
fn landmark_cut_lies_between_h_max_and_the_optimum_in_every_reachable_state() {
    // Small costs (buckets) and the same tasks at costs too large for buckets (the heap).
    for (scale, heap) in [(1, false), (100_000, true)] {
        let (states, above_max) = compare_with_the_optimum(scale, heap);
        // The comparison covered many states, and LM-cut was better informed in some of them.
        assert!(states > 1_000, "{states} states");
        assert!(
            above_max > 50,
            "LM-cut above h^max in {above_max} states of {states} at scale {scale}"
        );
    }
}

/// Visit-all on a `width` × `height` grid, the robot in the corner: atoms `at(c)` are `c`,
/// `visited(c)` are `cells + c`.
fn visit_all(width: u32, height: u32) -> GroundTask {
    let cells = width * height;
    let mut operators = Vec::new();
    for c in 0..cells {
        let (x, y) = (c % width, c / width);
        let mut neighbours = Vec::new();
        if x > 0 {
            neighbours.push(c - 1);
        }
        if x + 1 < width {
            neighbours.push(c + 1);
        }
        if y > 0 {
            neighbours.push(c - width);
        }
        if y + 1 < height {
            neighbours.push(c + width);
        }
        for n in neighbours {
            operators.push(Operator {
                name: format!("(move c{c} c{n})"),
                precondition: literals(&[c], &[]),
                effects: vec![EffectGroup {
                    condition: literals(&[], &[]),
                    adds: vec![n, cells + n],
                    deletes: vec![c],
                }],
                cost: 1,
            });
        }
    }
    let goal: Vec<u32> = (cells..2 * cells).collect();
    task_of(2 * cells, operators, &[0, cells], literals(&goal, &[]))
}

#[test]
fn landmark_cut_counts_every_cell_left_to_visit() {
    // Each cell's moves in are a landmark of their own: one cut each.
    for (width, height) in [(5, 1), (3, 3), (4, 5)] {
        let task = visit_all(width, height);
        let mut cut = Relaxed::new(&task, Kind::LandmarkCut);
        assert_eq!(
            cut.evaluate(&task.init, None),
            u64::from(width * height - 1),
            "{width}×{height}"
        );
    }
}
