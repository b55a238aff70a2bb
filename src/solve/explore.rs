//! Type-based exploration (Xie, Müller and Holte, 2014): an open list that picks a bucket of
//! successors at random, then a successor in it at random, where a bucket holds the successors of
//! one type: the parent's h^FF and the successor's depth, Xie et al.'s pair, or, in the exploring
//! configuration (`greedy::Config`), h^FF and the parent's landmark count, which on the kitchen's
//! tasks spreads the search better (043: 13,000 expansions instead of 235,000; two different types
//! also make the two configurations differ more). Taken in turn with the greedy lists, it keeps
//! expanding states outside the plateau the greedy lists are stuck on, so that an early choice the
//! heuristic cannot tell is wrong (the kitchen's raw meat grabbed before the oil, which
//! contaminates everything grabbed after it) does not hold the search.
//!
//! The random choices come from a fixed seed: a run is repeatable.

use std::collections::HashMap;

/// A successor not evaluated yet: its parent state and the operator that reaches it.
pub type Entry = (u32, u32);

pub struct TypeBuckets {
    /// The bucket of each type, by index into `types` and `buckets`.
    index: HashMap<(u64, u32), usize>,
    types: Vec<(u64, u32)>,
    buckets: Vec<Vec<Entry>>,
    random: SplitMix,
    len: usize,
}

impl TypeBuckets {
    pub fn new() -> TypeBuckets {
        TypeBuckets {
            index: HashMap::new(),
            types: Vec::new(),
            buckets: Vec::new(),
            random: SplitMix(0x9e37_79b9_7f4a_7c15),
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Files `entry` under the type (`heuristic`, `second`).
    pub fn push(&mut self, heuristic: u64, second: u32, entry: Entry) {
        let key = (heuristic, second);
        let slot = match self.index.get(&key) {
            Some(&slot) => slot,
            None => {
                self.index.insert(key, self.buckets.len());
                self.types.push(key);
                self.buckets.push(Vec::new());
                self.buckets.len() - 1
            }
        };
        if let Some(bucket) = self.buckets.get_mut(slot) {
            bucket.push(entry);
            self.len += 1;
        }
    }

    /// A random entry of a random bucket; an emptied bucket is dropped.
    pub fn pop(&mut self) -> Option<Entry> {
        if self.buckets.is_empty() {
            return None;
        }
        let slot = self.random.below(self.buckets.len());
        let bucket = self.buckets.get_mut(slot)?;
        let at = self.random.below(bucket.len());
        let entry = bucket.swap_remove(at);
        self.len -= 1;
        if bucket.is_empty() {
            let key = self.types.swap_remove(slot);
            self.buckets.swap_remove(slot);
            self.index.remove(&key);
            if let Some(&moved) = self.types.get(slot) {
                self.index.insert(moved, slot);
            }
        }
        Some(entry)
    }
}

/// SplitMix64: a small, fast generator, enough to pick buckets.
pub struct SplitMix(pub u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `bound` (which is not zero).
    pub fn below(&mut self, bound: usize) -> usize {
        ((u128::from(self.next()) * bound as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_comes_out_once() {
        let mut buckets = TypeBuckets::new();
        for i in 0..100u32 {
            buckets.push(u64::from(i % 7), i % 3, (i, i));
        }
        assert_eq!(buckets.len(), 100);
        let mut seen: Vec<u32> = std::iter::from_fn(|| buckets.pop())
            .map(|(a, _)| a)
            .collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..100).collect::<Vec<_>>());
        assert!(buckets.is_empty());
    }

    #[test]
    fn buckets_are_picked_alike_whatever_their_size() {
        // One bucket of 1,000 entries and one of 10: about half the first pops come from each.
        let mut buckets = TypeBuckets::new();
        for i in 0..1000 {
            buckets.push(1, 1, (i, 0));
        }
        for i in 0..10 {
            buckets.push(2, 1, (i, 1));
        }
        let small = (0..10)
            .filter_map(|_| buckets.pop())
            .filter(|&(_, b)| b == 1)
            .count();
        assert!(
            small >= 2,
            "{small} of the first 10 pops from the small bucket"
        );
    }
}
