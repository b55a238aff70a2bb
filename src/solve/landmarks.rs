//! Fact landmarks and the landmark-count heuristic (LAMA's second heuristic; of the orderings,
//! only the greedy-necessary ones backchaining finds, for landmarks required again).
//!
//! A landmark is a literal (an atom true, or a basic atom false) that every plan makes true at
//! some point. They are found by backchaining from the goal: a literal that is not true
//! initially must be achieved a first time, by one of its first achievers (the achievers whose
//! conditions are reachable in the delete relaxation without achieving the literal itself), so
//! the conditions all of them share are landmarks too (Hoffmann, Porteous and Sebastia's
//! backchaining, with first achievers as in Richter, Helmert and Westphal's landmarks).
//!
//! The landmark count of a state is path-dependent: a landmark is reached once it has been true
//! on the path to the state, and the estimate counts the landmarks not reached yet plus the goal
//! landmarks reached but false now; the exploring configuration of the search also counts a
//! reached landmark that is false now and must hold again right before one not reached yet is
//! first achieved (LAMA's landmarks required again, over the greedy-necessary orderings that
//! backchaining finds: a landmark is a condition of every first achiever of the one it was
//! found for). It guides the search only: nothing is pruned by it, so it
//! has no bearing on unsolvability claims.

use super::task::{Bits, GroundTask, bit, set_bit};

/// Landmarks beyond this many are not looked for (the count stays a guide).
const MAX_LANDMARKS: usize = 4096;

/// The relaxed work (conditions counted down) after which first achievers are no longer
/// computed literal by literal: every relaxed-reachable achiever is then taken, which finds
/// fewer landmarks but only true ones.
const MAX_EXCLUSION_WORK: u64 = 40_000_000;

/// A way to achieve an atom in the relaxation: an operator's effect (under its precondition and
/// the effect's condition) or an axiom.
struct Achiever {
    positive: Vec<u32>,
    negative: Vec<u32>,
    adds: Vec<u32>,
    deletes: Vec<u32>,
    /// The operator and effect behind it; `None` for an axiom.
    effect: Option<(u32, u32)>,
}

/// The landmarks of a task and what achieves them.
pub struct Landmarks {
    /// Each landmark: its atom and whether it must be true (else false).
    literals: Vec<(u32, bool)>,
    /// Whether the landmark is a literal of the goal.
    goal: Vec<bool>,
    /// For each landmark, the landmarks it is greedy-necessary for: it is a condition of every
    /// first achiever of each of them, so it must hold right before they are first achieved.
    needed_for: Vec<Vec<u32>>,
    /// For each operator, the landmarks its effects achieve: (landmark, effect index).
    achieved_by: Vec<Vec<(u32, u32)>>,
}

impl Landmarks {
    /// The landmarks of `task` from its initial state. A goal with several disjuncts has none
    /// (the count is then 0 everywhere).
    pub fn extract(task: &GroundTask) -> Landmarks {
        let mut landmarks = Landmarks {
            literals: Vec::new(),
            goal: Vec::new(),
            needed_for: Vec::new(),
            achieved_by: vec![Vec::new(); task.operators.len()],
        };
        let [goal] = task.goal.as_slice() else {
            return landmarks;
        };
        let achievers = relaxed_achievers(task);
        let (adders, deleters, needed_by) = achiever_lists(&achievers, task.atoms.len());
        let mut explorer = Explorer {
            achievers: &achievers,
            needed_by: &needed_by,
            work: 0,
        };
        let everything = explorer.reach(&task.init, None);
        let mut index: std::collections::HashMap<(u32, bool), u32> =
            std::collections::HashMap::new();
        let mut queue: Vec<u32> = Vec::new();
        for &a in &goal.positive {
            landmarks.add(&mut index, &mut queue, (a, true), true, None);
        }
        for &a in &goal.negative {
            if !task.derived.get(a as usize).copied().unwrap_or(true) {
                landmarks.add(&mut index, &mut queue, (a, false), true, None);
            }
        }
        while let Some(id) = queue.pop() {
            let Some(&(atom, positive)) = landmarks.literals.get(id as usize) else {
                continue;
            };
            if bit(&task.init, atom) == positive {
                continue;
            }
            let candidates = if positive {
                adders.get(atom as usize)
            } else {
                deleters.get(atom as usize)
            };
            let Some(candidates) = candidates else {
                continue;
            };
            // First achievers: those whose conditions are reachable without the literal. For a
            // false atom, reachability ignores negative conditions, so nothing is excluded.
            let reachable = if positive && explorer.work < MAX_EXCLUSION_WORK {
                explorer.reach(&task.init, Some(atom))
            } else {
                everything.clone()
            };
            let first: Vec<&Achiever> = candidates
                .iter()
                .filter_map(|&i| achievers.get(i as usize))
                .filter(|a| {
                    a.positive
                        .iter()
                        .all(|&p| reachable.get(p as usize) == Some(&true))
                })
                .collect();
            let Some((head, rest)) = first.split_first() else {
                continue;
            };
            let shared = shared_conditions(head, rest);
            for literal in shared {
                let derived = task
                    .derived
                    .get(literal.0 as usize)
                    .copied()
                    .unwrap_or(true);
                if literal.1 || !derived {
                    landmarks.add(&mut index, &mut queue, literal, false, Some(id));
                }
            }
        }
        landmarks.record_achievers(&achievers, &adders, &deleters);
        landmarks
    }

    /// Adds a literal as a landmark (queued for its own first achievers) unless it is one
    /// already, marks it as a goal if it is one, and records that it is needed for `needed_for`.
    #[inline]
    fn add(
        &mut self,
        index: &mut std::collections::HashMap<(u32, bool), u32>,
        queue: &mut Vec<u32>,
        literal: (u32, bool),
        goal: bool,
        needed_for: Option<u32>,
    ) {
        let id = match index.get(&literal) {
            Some(&known) => {
                if goal && let Some(slot) = self.goal.get_mut(known as usize) {
                    *slot = true;
                }
                known
            }
            None => {
                if self.literals.len() >= MAX_LANDMARKS {
                    return;
                }
                let id = self.literals.len() as u32;
                index.insert(literal, id);
                self.literals.push(literal);
                self.goal.push(goal);
                self.needed_for.push(Vec::new());
                queue.push(id);
                id
            }
        };
        if let Some(later) = needed_for
            && later != id
            && let Some(list) = self.needed_for.get_mut(id as usize)
            && !list.contains(&later)
        {
            list.push(later);
        }
    }

    /// Records, for each operator, the landmarks its effects achieve.
    fn record_achievers(
        &mut self,
        achievers: &[Achiever],
        adders: &[Vec<u32>],
        deleters: &[Vec<u32>],
    ) {
        for (id, &(atom, positive)) in self.literals.iter().enumerate() {
            let list = if positive { adders } else { deleters };
            for &i in list.get(atom as usize).into_iter().flatten() {
                if let Some((op, effect)) = achievers.get(i as usize).and_then(|a| a.effect)
                    && let Some(slot) = self.achieved_by.get_mut(op as usize)
                {
                    slot.push((id as u32, effect));
                }
            }
        }
    }

    pub fn len(&self) -> usize {
        self.literals.len()
    }

    fn words(&self) -> usize {
        self.literals.len().div_ceil(64).max(1)
    }

    fn holds(&self, id: usize, state: &[u64]) -> bool {
        self.literals
            .get(id)
            .is_some_and(|&(atom, positive)| bit(state, atom) == positive)
    }

    /// The landmarks reached in the start state: those true in it.
    pub fn start(&self, state: &[u64]) -> Bits {
        let mut reached: Bits = vec![0u64; self.words()].into_boxed_slice();
        self.progress(&mut reached, state);
        reached
    }

    /// Adds the landmarks true in `state` to `reached` (reached on the path to `state`).
    pub fn progress(&self, reached: &mut [u64], state: &[u64]) {
        for id in 0..self.literals.len() {
            if self.holds(id, state) {
                set_bit(reached, id as u32, true);
            }
        }
    }

    /// Whether a landmark counts in a state: not reached yet, or reached but false now and
    /// required again (a goal literal, or greedy-necessary for a landmark not reached yet).
    fn open(&self, id: usize, reached: &[u64], state: &[u64], required_again: bool) -> bool {
        if !bit(reached, id as u32) {
            return true;
        }
        if self.holds(id, state) {
            return false;
        }
        self.goal.get(id) == Some(&true)
            || required_again
                && self
                    .needed_for
                    .get(id)
                    .is_some_and(|later| later.iter().any(|&l| !bit(reached, l)))
    }

    /// The landmark count: landmarks not reached, plus goal landmarks false now, plus (with
    /// `required_again`) the other landmarks `open` counts.
    pub fn value(&self, reached: &[u64], state: &[u64], required_again: bool) -> u64 {
        (0..self.literals.len())
            .filter(|&id| self.open(id, reached, state, required_again))
            .count() as u64
    }

    /// The operators among `applicable` one of whose effects (its condition holding in `state`)
    /// achieves a landmark that counts (`open`).
    pub fn preferred(
        &self,
        task: &GroundTask,
        reached: &[u64],
        state: &[u64],
        applicable: &[u32],
        required_again: bool,
        out: &mut Vec<u32>,
    ) {
        out.clear();
        for &op in applicable {
            let Some(achieved) = self.achieved_by.get(op as usize) else {
                continue;
            };
            let wanted = achieved.iter().any(|&(id, effect)| {
                self.open(id as usize, reached, state, required_again)
                    && task
                        .operators
                        .get(op as usize)
                        .and_then(|o| o.effects.get(effect as usize))
                        .is_some_and(|e| e.condition.holds(state))
            });
            if wanted {
                out.push(op);
            }
        }
    }
}

/// Every operator effect and axiom as a relaxed achiever.
fn relaxed_achievers(task: &GroundTask) -> Vec<Achiever> {
    let mut achievers = Vec::new();
    for (i, op) in task.operators.iter().enumerate() {
        for (j, effect) in op.effects.iter().enumerate() {
            if effect.adds.is_empty() && effect.deletes.is_empty() {
                continue;
            }
            let mut positive = op.precondition.positive.clone();
            for &a in &effect.condition.positive {
                if !positive.contains(&a) {
                    positive.push(a);
                }
            }
            let mut negative = op.precondition.negative.clone();
            for &a in &effect.condition.negative {
                if !negative.contains(&a) {
                    negative.push(a);
                }
            }
            achievers.push(Achiever {
                positive,
                negative,
                adds: effect.adds.clone(),
                deletes: effect.deletes.clone(),
                effect: Some((i as u32, j as u32)),
            });
        }
    }
    for axiom in task.strata.iter().flatten() {
        achievers.push(Achiever {
            positive: axiom.body.positive.clone(),
            negative: axiom.body.negative.clone(),
            adds: vec![axiom.head],
            deletes: Vec::new(),
            effect: None,
        });
    }
    achievers
}

/// Relaxed reachability (deletes and negative conditions ignored) over the achievers.
struct Explorer<'a> {
    achievers: &'a [Achiever],
    needed_by: &'a [Vec<u32>],
    /// Conditions counted down so far, over every exploration.
    work: u64,
}

impl Explorer<'_> {
    /// The atoms reachable from `state`; with `without`, using no achiever that adds it.
    fn reach(&mut self, state: &[u64], without: Option<u32>) -> Vec<bool> {
        let atoms = self.needed_by.len();
        let mut reached = vec![false; atoms];
        let mut unsatisfied: Vec<usize> = self.achievers.iter().map(|a| a.positive.len()).collect();
        let mut queue: Vec<u32> = Vec::new();
        for (atom, slot) in reached.iter_mut().enumerate() {
            if bit(state, atom as u32) {
                *slot = true;
                queue.push(atom as u32);
            }
        }
        let usable = |achiever: &Achiever| without.is_none_or(|w| !achiever.adds.contains(&w));
        let fire = |achiever: &Achiever, reached: &mut Vec<bool>, queue: &mut Vec<u32>| {
            if !usable(achiever) {
                return;
            }
            for &a in &achiever.adds {
                if let Some(slot) = reached.get_mut(a as usize)
                    && !*slot
                {
                    *slot = true;
                    queue.push(a);
                }
            }
        };
        for achiever in self.achievers.iter().filter(|a| a.positive.is_empty()) {
            fire(achiever, &mut reached, &mut queue);
        }
        while let Some(atom) = queue.pop() {
            for &i in self.needed_by.get(atom as usize).into_iter().flatten() {
                self.work += 1;
                let Some(count) = unsatisfied.get_mut(i as usize) else {
                    continue;
                };
                *count = count.saturating_sub(1);
                if *count == 0
                    && let Some(achiever) = self.achievers.get(i as usize)
                {
                    fire(achiever, &mut reached, &mut queue);
                }
            }
        }
        reached
    }
}

/// For each atom, a list of achiever indices.
type PerAtom = Vec<Vec<u32>>;

/// For each atom, the achievers that add it, those that delete it and those that need it.
fn achiever_lists(achievers: &[Achiever], atoms: usize) -> (PerAtom, PerAtom, PerAtom) {
    let mut adders: Vec<Vec<u32>> = vec![Vec::new(); atoms];
    let mut deleters: Vec<Vec<u32>> = vec![Vec::new(); atoms];
    for (i, achiever) in achievers.iter().enumerate() {
        for &a in &achiever.adds {
            if let Some(list) = adders.get_mut(a as usize) {
                list.push(i as u32);
            }
        }
        for &a in &achiever.deletes {
            if let Some(list) = deleters.get_mut(a as usize) {
                list.push(i as u32);
            }
        }
    }
    let mut needed_by: Vec<Vec<u32>> = vec![Vec::new(); atoms];
    for (i, achiever) in achievers.iter().enumerate() {
        for &a in &achiever.positive {
            if let Some(list) = needed_by.get_mut(a as usize) {
                list.push(i as u32);
            }
        }
    }
    (adders, deleters, needed_by)
}

/// The conditions common to every first achiever: `head`'s literals that each of `rest` has too.
#[inline]
fn shared_conditions(head: &Achiever, rest: &[&Achiever]) -> Vec<(u32, bool)> {
    let mut shared: Vec<(u32, bool)> = head
        .positive
        .iter()
        .map(|&a| (a, true))
        .chain(head.negative.iter().map(|&a| (a, false)))
        .collect();
    for other in rest {
        shared.retain(|&(a, sign)| {
            if sign {
                other.positive.contains(&a)
            } else {
                other.negative.contains(&a)
            }
        });
    }
    shared
}
