//! The equality partitions of an action pair's terms: which parameters and constants name one
//! object. PDDL lets distinct parameters take the same object, so each partition is a case the
//! decision checks; two constants are always distinct objects, and a block's terms must fit
//! one object's type.
//!
//! When every partition can be listed (at most [`MAX_PARTITIONS`]), all are. Beyond that, only
//! the partitions that matter are: the lifted formulas of a partition depend only on which atom
//! occurrences of the two actions coincide and which `=` literals hold, so a partition gives the
//! same formulas, up to renaming the objects, as the finest partition with the same
//! coincidences. Those finest partitions are exactly the ones reached from "all distinct" by
//! repeatedly making one more pair of atoms (of one predicate) coincide, or one more `=` hold
//! ([`generated`]).

use super::decide::{Label, TermInfo};
use std::collections::{HashSet, VecDeque};

/// The most equality partitions of one action pair's terms that are enumerated.
pub const MAX_PARTITIONS: usize = 20_000;

/// Whether one object can fit both type lists: some alternative of one is a subtype of some
/// alternative of the other.
pub fn compatible(a: &[String], b: &[String], supertypes: &dyn Fn(&str) -> Vec<String>) -> bool {
    a.iter().any(|x| {
        b.iter()
            .any(|y| supertypes(x).contains(y) || supertypes(y).contains(x))
    })
}

/// Whether terms `i` and `j` can be one object.
fn can_share(
    terms: &[TermInfo],
    i: usize,
    j: usize,
    supertypes: &dyn Fn(&str) -> Vec<String>,
) -> bool {
    let both_constants = matches!(terms[i].label, Label::Constant(_))
        && matches!(terms[j].label, Label::Constant(_));
    !both_constants && compatible(&terms[i].types, &terms[j].types, supertypes)
}

/// Every partition of the terms (as a block number per term) in which no two constants share
/// a block and the terms of a block can be one object, most blocks first (all distinct first).
/// `None` when there are more than [`MAX_PARTITIONS`].
pub fn all(
    terms: &[TermInfo],
    supertypes: &dyn Fn(&str) -> Vec<String>,
) -> Option<Vec<Vec<usize>>> {
    let mut all = Vec::new();
    let mut current = Vec::with_capacity(terms.len());
    grow(terms, supertypes, &mut current, 0, &mut all);
    if all.len() > MAX_PARTITIONS {
        return None;
    }
    most_blocks_first(&mut all);
    Some(all)
}

fn most_blocks_first(partitions: &mut [Vec<usize>]) {
    partitions.sort_by_key(|blocks: &Vec<usize>| {
        std::cmp::Reverse(blocks.iter().max().map_or(0, |m| m + 1))
    });
}

fn grow(
    terms: &[TermInfo],
    supertypes: &dyn Fn(&str) -> Vec<String>,
    current: &mut Vec<usize>,
    used: usize,
    all: &mut Vec<Vec<usize>>,
) {
    let i = current.len();
    if all.len() > MAX_PARTITIONS {
        return;
    }
    if i == terms.len() {
        all.push(current.clone());
        return;
    }
    for block in 0..=used {
        let fits = (0..i)
            .filter(|&j| current[j] == block)
            .all(|j| can_share(terms, i, j, supertypes));
        if fits {
            current.push(block);
            grow(terms, supertypes, current, used.max(block + 1), all);
            current.pop();
        }
    }
}

/// The atom occurrences of both actions under the all-distinct partition (each argument a term
/// index), and the pairs of terms an `=` compares.
pub struct Occurrences {
    pub facts: Vec<(String, Vec<usize>)>,
    pub equalities: Vec<(usize, usize)>,
}

/// The partitions that matter (see the module's comment), most blocks first; `None` when there
/// are more than [`MAX_PARTITIONS`] of them.
pub fn generated(
    terms: &[TermInfo],
    supertypes: &dyn Fn(&str) -> Vec<String>,
    occurrences: &Occurrences,
) -> Option<Vec<Vec<usize>>> {
    // Each way to make one more thing coincide: the pairs of terms it makes one object.
    let mut merges: Vec<Vec<(usize, usize)>> = occurrences
        .equalities
        .iter()
        .filter(|(a, b)| a != b)
        .map(|&pair| vec![pair])
        .collect();
    for (i, (predicate, args)) in occurrences.facts.iter().enumerate() {
        for (other, other_args) in &occurrences.facts[i + 1..] {
            if predicate == other && args.len() == other_args.len() {
                let pairs: Vec<(usize, usize)> = args
                    .iter()
                    .zip(other_args)
                    .filter(|(a, b)| a != b)
                    .map(|(&a, &b)| (a, b))
                    .collect();
                if !pairs.is_empty() {
                    merges.push(pairs);
                }
            }
        }
    }
    merges.sort();
    merges.dedup();
    let distinct: Vec<usize> = (0..terms.len()).collect();
    let mut seen: HashSet<Vec<usize>> = HashSet::from([distinct.clone()]);
    let mut queue = VecDeque::from([distinct]);
    let mut found = Vec::new();
    while let Some(partition) = queue.pop_front() {
        for merge in &merges {
            let Some(next) = merged(&partition, merge) else {
                continue;
            };
            if seen.contains(&next) || !feasible(&next, terms, supertypes) {
                continue;
            }
            if seen.len() >= MAX_PARTITIONS {
                return None;
            }
            seen.insert(next.clone());
            queue.push_back(next);
        }
        found.push(partition);
    }
    most_blocks_first(&mut found);
    Some(found)
}

/// `partition` with every pair of `merge` in one block, blocks numbered by first term; `None`
/// when nothing changes.
fn merged(partition: &[usize], merge: &[(usize, usize)]) -> Option<Vec<usize>> {
    let mut blocks = partition.to_vec();
    let mut changed = false;
    for &(a, b) in merge {
        let (keep, gone) = (blocks[a], blocks[b]);
        if keep != gone {
            changed = true;
            for block in blocks.iter_mut().filter(|block| **block == gone) {
                *block = keep;
            }
        }
    }
    if !changed {
        return None;
    }
    let mut numbers: Vec<usize> = Vec::new();
    Some(
        blocks
            .iter()
            .map(|block| match numbers.iter().position(|n| n == block) {
                Some(number) => number,
                None => {
                    numbers.push(*block);
                    numbers.len() - 1
                }
            })
            .collect(),
    )
}

/// Whether the terms of each block can be one object.
fn feasible(
    partition: &[usize],
    terms: &[TermInfo],
    supertypes: &dyn Fn(&str) -> Vec<String>,
) -> bool {
    (0..partition.len()).all(|i| {
        (0..i)
            .filter(|&j| partition[j] == partition[i])
            .all(|j| can_share(terms, i, j, supertypes))
    })
}
