//! The metrics of Plancraft's results table (semantics §11, `calculate_results_table.py`) as
//! sums per example, so that a method's table, and every bootstrap resample of its examples,
//! is the same few ratios of sums over the examples drawn.

use std::ops::AddAssign;

/// The assistant messages of an episode by the text before their first `:` (`count_actions`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionCounts {
    pub moves: usize,
    pub smelt: usize,
    pub think: usize,
    pub impossible: usize,
    pub search: usize,
    pub invalid: usize,
}

impl ActionCounts {
    /// `total_actions`: every message counted.
    pub fn total(&self) -> usize {
        self.moves + self.smelt + self.think + self.impossible + self.search + self.invalid
    }

    /// In the table's order: move, smelt, think, impossible, search, invalid.
    pub fn as_array(&self) -> [usize; 6] {
        [
            self.moves,
            self.smelt,
            self.think,
            self.impossible,
            self.search,
            self.invalid,
        ]
    }
}

/// Counts messages as `count_actions` does: `move: …` is a move, `` `move: …` `` or
/// `Move: …` invalid, `think: … move: …` a think. A multimodal message without a text part
/// (`None`) is not counted at all, as in the script.
pub fn classify<'a>(messages: impl IntoIterator<Item = Option<&'a str>>) -> ActionCounts {
    let mut counts = ActionCounts::default();
    for text in messages.into_iter().flatten() {
        let name = text.split(':').next().unwrap_or_default();
        let count = match name {
            "move" => &mut counts.moves,
            "smelt" => &mut counts.smelt,
            "think" => &mut counts.think,
            "impossible" => &mut counts.impossible,
            "search" => &mut counts.search,
            _ => &mut counts.invalid,
        };
        *count += 1;
    }
    counts
}

/// The complexity groups (bins 0, 1 easy; 2 medium; 3, 4 hard; 5 other). An example without
/// a bin the script maps is `unbinned`: pandas maps it to NaN, which is not "other", so it
/// counts in Overall and the means but in no column.
pub const GROUPS: [&str; 5] = ["easy", "medium", "hard", "other", "unbinned"];
pub const OTHER: usize = 3;

pub fn group_of(bin: Option<u8>) -> usize {
    match bin {
        Some(0 | 1) => 0,
        Some(2) => 1,
        Some(3 | 4) => 2,
        Some(5) => OTHER,
        _ => 4,
    }
}

/// The recipe types of the steps table; a type outside them is kept in the rows but has no
/// column.
pub const RECIPE_TYPES: [&str; 5] = ["mixed", "shaped", "shapeless", "smelting", "impossible"];
/// The columns the steps table's "overall" is the unweighted mean of.
const OVERALL_TYPES: usize = 4;

/// A failure's `steps_diff`, whatever its length.
pub const FAILED_STEPS_DIFF: i64 = 10;

/// What one example's results add to a method's sums (over its seeds).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sums {
    pub results: f64,
    pub successes: f64,
    /// Move, smelt, think, impossible, search, invalid, total.
    pub actions: [f64; 7],
    pub tokens: f64,
    pub with_tokens: f64,
    /// `actions_over_oracle` of successes whose example the oracle ran, and how many.
    pub over_oracle: f64,
    pub with_over_oracle: f64,
    /// The impossible F1's true positives, false positives and false negatives.
    pub f1: [f64; 3],
    /// `steps_diff` per recipe type: sum and count.
    pub steps: [(f64, f64); RECIPE_TYPES.len()],
}

impl AddAssign<&Sums> for Sums {
    fn add_assign(&mut self, other: &Sums) {
        self.results += other.results;
        self.successes += other.successes;
        for (a, b) in self.actions.iter_mut().zip(other.actions) {
            *a += b;
        }
        self.tokens += other.tokens;
        self.with_tokens += other.with_tokens;
        self.over_oracle += other.over_oracle;
        self.with_over_oracle += other.with_over_oracle;
        for (a, b) in self.f1.iter_mut().zip(other.f1) {
            *a += b;
        }
        for (a, b) in self.steps.iter_mut().zip(other.steps) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }
}

/// One example's results in a method: its group and its sums.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contribution {
    pub group: usize,
    pub sums: Sums,
}

/// The sums of a set of examples (with repeats, for a resample), per group.
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    pub groups: [Sums; GROUPS.len()],
}

impl Totals {
    pub fn add(&mut self, contribution: &Contribution) {
        self.groups[contribution.group] += &contribution.sums;
    }

    pub fn of<'a>(contributions: impl IntoIterator<Item = &'a Contribution>) -> Totals {
        let mut totals = Totals::default();
        for contribution in contributions {
            totals.add(contribution);
        }
        totals
    }

    /// The sums of every group but "other".
    fn non_other(&self) -> Sums {
        let mut sums = Sums::default();
        for (group, group_sums) in self.groups.iter().enumerate() {
            if group != OTHER {
                sums += group_sums;
            }
        }
        sums
    }

    fn all(&self) -> Sums {
        let mut sums = Sums::default();
        for group_sums in &self.groups {
            sums += group_sums;
        }
        sums
    }
}

/// The table's metrics, in the order of `values`.
pub const METRICS: [&str; METRIC_COUNT] = [
    "easy",
    "medium",
    "hard",
    "other",
    "overall",
    "move",
    "smelt",
    "think",
    "impossible",
    "search",
    "invalid",
    "plan_length",
    "tokens_used",
    "ae",
    "impossible_f1",
    "steps_mixed",
    "steps_shaped",
    "steps_shapeless",
    "steps_smelting",
    "steps_impossible",
    "steps_overall",
];
pub const METRIC_COUNT: usize = 21;

fn ratio(numerator: f64, denominator: f64) -> Option<f64> {
    (denominator > 0.0).then(|| numerator / denominator)
}

/// Every metric of `totals`, `None` where it has no value (no result to average; F1 with no
/// impossible example and no claim, where sklearn answers 0 with a warning).
pub fn values(totals: &Totals) -> [Option<f64>; METRIC_COUNT] {
    let mut out = [None; METRIC_COUNT];
    for (slot, sums) in out.iter_mut().zip(&totals.groups[..4]) {
        *slot = ratio(sums.successes, sums.results);
    }
    let non_other = totals.non_other();
    out[4] = ratio(non_other.successes, non_other.results);
    for (slot, actions) in out[5..12].iter_mut().zip(non_other.actions) {
        *slot = ratio(actions, non_other.results);
    }
    out[12] = ratio(non_other.tokens, non_other.with_tokens);
    out[13] = ratio(non_other.over_oracle, non_other.with_over_oracle);
    let all = totals.all();
    let [tp, fp, fn_] = all.f1;
    out[14] = ratio(2.0 * tp, 2.0 * tp + fp + fn_);
    for (slot, (sum, count)) in out[15..20].iter_mut().zip(all.steps) {
        *slot = ratio(sum, count);
    }
    // pandas' row mean skips the types with no value.
    let typed: Vec<f64> = out[15..15 + OVERALL_TYPES]
        .iter()
        .flatten()
        .copied()
        .collect();
    out[20] = ratio(typed.iter().sum(), typed.len() as f64);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_classified_by_the_text_before_the_first_colon() {
        let messages = [
            Some("move: from [I1] to [A1] with quantity 1"),
            Some("`move: from [I1] to [A1] with quantity 1`"),
            Some("think: then move: from [I1]"),
            Some("smelt: from [I2] to [I3] with quantity 1"),
            Some("impossible: no wood"),
            Some("search: planks"),
            Some("Move: from [I1]"),
            Some("move"),
            None,
        ];
        let counts = classify(messages);
        assert_eq!(counts.as_array(), [2, 1, 1, 1, 1, 2]);
        assert_eq!(counts.total(), 8);
    }

    #[test]
    fn bins_fall_into_the_scripts_groups() {
        let groups: Vec<&str> = [0, 1, 2, 3, 4, 5, 6]
            .map(|bin| GROUPS[group_of(Some(bin))])
            .to_vec();
        assert_eq!(
            groups,
            [
                "easy", "easy", "medium", "hard", "hard", "other", "unbinned"
            ]
        );
        assert_eq!(GROUPS[group_of(None)], "unbinned");
        assert_eq!(METRICS.len(), METRIC_COUNT);
    }
}
