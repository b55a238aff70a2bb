//! Breadth-first search over the counter model: the fewest recipe applications that make the
//! target, or the whole reachable space explored without it.
//!
//! Pruning by dominance keeps both answers exact: the model is monotone (holding more never
//! disables a recipe) and the goal (the target held) is upward closed, so a state holding at
//! most what an already reached state holds, reached in no fewer steps, can do nothing that
//! state cannot do as fast. With that pruning the search always ends (Dickson's lemma: the
//! kept states form a sequence in which no state holds at least what an earlier one holds,
//! and such a sequence is finite); the state budget only bounds its time.

use super::model::CounterModel;
use std::collections::HashSet;

/// A state: how many of each relevant item (by local index).
pub type Counts = Box<[u16]>;

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Search {
    /// A shortest sequence of transitions (indexes into the model's).
    Found(Vec<usize>),
    /// Every state reachable (up to dominance) was explored; none holds the target.
    Exhausted { states: usize },
    /// The budget ran out first.
    Cut { states: usize },
}

struct Node {
    counts: Counts,
    parent: usize,
    transition: usize,
    /// Which items (the first 128) it holds, and how many items in all: a state can only be
    /// dominated by one holding every item it holds and at least as many items.
    held: u128,
    total: u32,
}

impl Node {
    fn new(counts: Counts, parent: usize, transition: usize) -> Node {
        let held = counts
            .iter()
            .take(128)
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .fold(0u128, |mask, (i, _)| mask | (1 << i));
        let total = counts.iter().map(|&n| u32::from(n)).sum();
        Node {
            counts,
            parent,
            transition,
            held,
            total,
        }
    }
}

/// Searches from `start` with at most `budget` kept states.
pub fn search(model: &CounterModel, start: Counts, budget: usize) -> Search {
    if start[model.target] > 0 {
        return Search::Found(Vec::new());
    }
    let mut nodes = vec![Node::new(start.clone(), usize::MAX, usize::MAX)];
    let mut seen: HashSet<Counts> = HashSet::from([start]);
    // The kept states, for the dominance test; `frontier_start` is where the current depth
    // begins in `nodes`.
    let mut frontier_start = 0;
    while frontier_start < nodes.len() {
        let frontier_end = nodes.len();
        for index in frontier_start..frontier_end {
            for (t, transition) in model.transitions.iter().enumerate() {
                let Some(next) = apply(&nodes[index].counts, transition) else {
                    continue;
                };
                if seen.contains(&next) {
                    continue;
                }
                let node = Node::new(next, index, t);
                if dominated(&node, &nodes) {
                    continue;
                }
                let found = node.counts[model.target] > 0;
                seen.insert(node.counts.clone());
                nodes.push(node);
                if found {
                    return Search::Found(path(&nodes, nodes.len() - 1));
                }
                if nodes.len() >= budget {
                    return Search::Cut {
                        states: nodes.len(),
                    };
                }
            }
        }
        frontier_start = frontier_end;
    }
    Search::Exhausted {
        states: nodes.len(),
    }
}

/// The state after a transition, or `None` when it cannot apply (or a count would overflow).
fn apply(counts: &Counts, transition: &super::model::Transition) -> Option<Counts> {
    let mut next = counts.clone();
    for &(item, n) in &transition.consumes {
        next[item] = next[item].checked_sub(n)?;
    }
    next[transition.makes] = next[transition.makes].checked_add(transition.count)?;
    Some(next)
}

/// Whether some kept state holds at least as much of every item (every kept state was
/// reached in no more steps than the one tested, since the search goes depth by depth).
fn dominated(new: &Node, nodes: &[Node]) -> bool {
    nodes.iter().any(|kept| {
        kept.total >= new.total
            && kept.held & new.held == new.held
            && kept
                .counts
                .iter()
                .zip(new.counts.iter())
                .all(|(kept, new)| kept >= new)
    })
}

fn path(nodes: &[Node], mut index: usize) -> Vec<usize> {
    let mut out = Vec::new();
    while nodes[index].parent != usize::MAX {
        out.push(nodes[index].transition);
        index = nodes[index].parent;
    }
    out.reverse();
    out
}
