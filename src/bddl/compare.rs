//! ActPlan-1K's LCS plan metric (`auto_lcs/lcs.py`; docs/bddl.md, semantics.md §9.1): split
//! both plans into steps, take the longest common subsequence under a step relation, divide
//! by the longer plan's step count.
//!
//! `Mode::Compat` reproduces the reference's quirks: `text.split("\n")` with nothing stripped
//! (a final newline is an extra `""` step, a blank line is a step) and a missing gold plan
//! makes the candidate its own reference (score 1.0). `Mode::Default` trims steps, drops blank
//! lines and refuses to score without a gold plan.

use crate::diagnostics::{Code, Diagnostic};
use crate::kitchen::{Estimate, SplitMix64, Statistic, bootstrap};
use serde::Serialize;

/// The version of the JSON document `pddlc bddl compare --format json` prints.
pub const COMPARE_JSON_VERSION: u32 = 1;

/// How plan texts become steps, and what a missing gold plan means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// The reference's behaviour, quirks included.
    Compat,
    /// Trimmed steps, no blank steps, no score without a gold plan.
    #[default]
    Default,
}

crate::choice::choice!(Mode, "mode", {
    "default" => Mode::Default: "steps trimmed, blank lines dropped, no score without a gold plan",
    "compat" => Mode::Compat: "ActPlan-1K's script exactly, quirks included",
});

/// When a gold step and a predicted step count as the same step.
pub trait StepMatcher {
    fn matches(&self, gold: &str, predicted: &str) -> bool;
}

impl<F: Fn(&str, &str) -> bool> StepMatcher for F {
    fn matches(&self, gold: &str, predicted: &str) -> bool {
        self(gold, predicted)
    }
}

/// The built-in step relations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Matching {
    /// Byte-identical steps.
    #[default]
    Exact,
    /// Equal after `normalise_step`.
    Normalised,
}

crate::choice::choice!(Matching, "matching", {
    "exact" => Matching::Exact: "byte-identical steps",
    "normalised" => Matching::Normalised: "equal after case, spacing, verb spelling and symmetric argument order are normalised",
});

impl StepMatcher for Matching {
    fn matches(&self, gold: &str, predicted: &str) -> bool {
        match self {
            Matching::Exact => gold == predicted,
            Matching::Normalised => normalise_step(gold) == normalise_step(predicted),
        }
    }
}

/// Verbs whose two arguments are compared as a set. In ActPlan-1K's gold plans the placement
/// verbs name a destination and the object held, in either order: of the two-argument
/// `place_inside` steps of `finetuning_data.jsonl`, 2,040 put the object grabbed last second
/// and 278 first (`place_on_top`: 1,309 and 257, `place_next_to`: 17 and 8). The roles stay
/// recoverable from the `grab` before, so ignoring the order loses nothing. Verbs with a tool
/// (`clean`, `slice`, `scrub`) keep their order.
pub const SYMMETRIC_VERBS: &[&str] = &["place_inside", "place_on_top", "place_next_to"];

/// A step in a canonical spelling: lower case, whitespace runs collapsed and removed around
/// `(`, `)` and `,`, `-` read as `_` in the verb (`switch-on` is `switch_on`), and the
/// arguments of `SYMMETRIC_VERBS` sorted. A step that is not `verb(args)` is only lower-cased
/// and its whitespace collapsed.
pub fn normalise_step(step: &str) -> String {
    let lower = step.to_lowercase();
    let collapsed = lower.split_whitespace().collect::<Vec<_>>().join(" ");
    let Some((verb, rest)) = collapsed.split_once('(') else {
        return collapsed;
    };
    let Some(inside) = rest.trim_end().strip_suffix(')') else {
        return collapsed;
    };
    let verb = verb.trim().replace('-', "_");
    let mut arguments: Vec<&str> = inside.split(',').map(str::trim).collect();
    if arguments == [""] {
        arguments.clear();
    }
    if arguments.len() == 2 && SYMMETRIC_VERBS.contains(&verb.as_str()) {
        arguments.sort_unstable();
    }
    format!("{verb}({})", arguments.join(","))
}

/// A plan's steps: in `Compat`, every piece of `text.split('\n')`; in `Default`, the trimmed
/// lines that are not blank.
pub fn steps(text: &str, mode: Mode) -> Vec<&str> {
    match mode {
        Mode::Compat => text.split('\n').collect(),
        Mode::Default => text
            .split('\n')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect(),
    }
}

/// A gold step matched with a predicted one in the common subsequence (0-based indices).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchedPair {
    pub gold_index: usize,
    pub pred_index: usize,
    pub gold: String,
    pub pred: String,
}

/// One comparison: the LCS length, both step counts, the score and the matched pairs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub score: f64,
    pub lcs: usize,
    pub gold_steps: usize,
    pub pred_steps: usize,
    /// Whether the gold plan was missing and the candidate scored against itself (`Compat`).
    pub self_reference: bool,
    pub matched: Vec<MatchedPair>,
}

/// Compares a predicted plan with a gold plan under a built-in relation. A missing gold plan
/// (`None`) scores the candidate against itself in `Compat`, as the reference does, and is a
/// diagnostic in `Default`.
pub fn compare(
    gold: Option<&str>,
    predicted: &str,
    mode: Mode,
    matching: Matching,
) -> Result<Comparison, Diagnostic> {
    match matching {
        Matching::Exact => compare_with(gold, predicted, mode, &matching),
        Matching::Normalised => {
            // Normalise each step once, not once per pair of steps.
            let (gold_text, self_reference) = resolve_gold(gold, predicted, mode)?;
            let gold_steps = steps(gold_text, mode);
            let pred_steps = steps(predicted, mode);
            let gold_keys: Vec<String> = gold_steps.iter().map(|s| normalise_step(s)).collect();
            let pred_keys: Vec<String> = pred_steps.iter().map(|s| normalise_step(s)).collect();
            let pairs = lcs_pairs(&gold_keys, &pred_keys, &|a: &str, b: &str| a == b);
            Ok(assemble(&gold_steps, &pred_steps, pairs, self_reference))
        }
    }
}

/// Compares under any step relation (a `Matching` or a closure `Fn(&str, &str) -> bool`).
pub fn compare_with(
    gold: Option<&str>,
    predicted: &str,
    mode: Mode,
    matcher: &dyn StepMatcher,
) -> Result<Comparison, Diagnostic> {
    let (gold_text, self_reference) = resolve_gold(gold, predicted, mode)?;
    let gold_steps = steps(gold_text, mode);
    let pred_steps = steps(predicted, mode);
    let pairs = lcs_pairs(&gold_steps, &pred_steps, matcher);
    Ok(assemble(&gold_steps, &pred_steps, pairs, self_reference))
}

fn resolve_gold<'a>(
    gold: Option<&'a str>,
    predicted: &'a str,
    mode: Mode,
) -> Result<(&'a str, bool), Diagnostic> {
    match (gold, mode) {
        (Some(gold), _) => Ok((gold, false)),
        (None, Mode::Compat) => Ok((predicted, true)),
        (None, Mode::Default) => Err(Diagnostic::unlocated(
            Code::BddlPairInvalid,
            "no gold plan to compare with",
        )
        .with_help(
            "the reference scores a plan without gold against itself (1.0); \
             `--mode compat` reproduces that",
        )),
    }
}

fn assemble(
    gold: &[&str],
    pred: &[&str],
    pairs: Vec<(usize, usize)>,
    self_reference: bool,
) -> Comparison {
    let longer = gold.len().max(pred.len());
    // Two empty plans (possible only in `Default`) agree completely.
    let score = if longer == 0 {
        1.0
    } else {
        pairs.len() as f64 / longer as f64
    };
    let matched = pairs
        .iter()
        .map(|&(g, p)| MatchedPair {
            gold_index: g,
            pred_index: p,
            gold: gold[g].to_string(),
            pred: pred[p].to_string(),
        })
        .collect();
    Comparison {
        score,
        lcs: pairs.len(),
        gold_steps: gold.len(),
        pred_steps: pred.len(),
        self_reference,
        matched,
    }
}

/// The longest common subsequence of `gold` and `pred` under `matcher`, as index pairs in
/// order. Iterative, so long plans cannot overflow the stack as the reference's recursion
/// does. Matching steps at either end are paired at once: taking the diagonal whenever two end
/// steps match is optimal for any relation (the reference relies on it too), and it keeps the
/// table, (m+1)×(n+1) lengths, to the part of the plans that differs.
pub fn lcs_pairs<S: AsRef<str>>(
    gold: &[S],
    pred: &[S],
    matcher: &dyn StepMatcher,
) -> Vec<(usize, usize)> {
    let same = |i: usize, j: usize| matcher.matches(gold[i].as_ref(), pred[j].as_ref());
    let shorter = gold.len().min(pred.len());
    let prefix = (0..shorter).take_while(|&k| same(k, k)).count();
    let suffix = (0..shorter - prefix)
        .take_while(|&k| same(gold.len() - 1 - k, pred.len() - 1 - k))
        .count();
    let mut pairs: Vec<(usize, usize)> = (0..prefix).map(|k| (k, k)).collect();
    let middle = table_pairs(
        prefix..gold.len() - suffix,
        prefix..pred.len() - suffix,
        &same,
    );
    pairs.extend(middle);
    let (gold_end, pred_end) = (gold.len() - suffix, pred.len() - suffix);
    pairs.extend((0..suffix).map(|k| (gold_end + k, pred_end + k)));
    pairs
}

/// The LCS of the ranges `rows` of gold and `columns` of pred by the textbook table of lengths,
/// then a walk back from its corner.
fn table_pairs(
    rows: std::ops::Range<usize>,
    columns: std::ops::Range<usize>,
    same: &dyn Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    let (m, n) = (rows.len(), columns.len());
    let width = n + 1;
    let mut table = vec![0u32; (m + 1) * width];
    let mut matched = vec![false; m * n];
    for i in 1..=m {
        for j in 1..=n {
            let hit = same(rows.start + i - 1, columns.start + j - 1);
            matched[(i - 1) * n + (j - 1)] = hit;
            table[i * width + j] = if hit {
                table[(i - 1) * width + (j - 1)] + 1
            } else {
                table[(i - 1) * width + j].max(table[i * width + (j - 1)])
            };
        }
    }
    let mut pairs = Vec::new();
    let (mut i, mut j) = (m, n);
    while i > 0 && j > 0 {
        if matched[(i - 1) * n + (j - 1)] {
            pairs.push((rows.start + i - 1, columns.start + j - 1));
            i -= 1;
            j -= 1;
        } else if table[(i - 1) * width + j] >= table[i * width + (j - 1)] {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    pairs.reverse();
    pairs
}

/// The number of bootstrap resamples behind [`Summary::score_interval`], and their seed: the
/// defaults of `kitchen eval` and `plancraft eval`, so one run's intervals are reproducible.
pub const SUMMARY_BOOTSTRAP: usize = 10_000;
pub const SUMMARY_SEED: u64 = 42;

/// The means the reference prints over all pairs (of the raw LCS and of the normalised score),
/// and the mean score's bootstrap 95% interval, as the other evaluators give theirs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub count: usize,
    pub mean_lcs: f64,
    pub mean_score: f64,
    pub score_interval: Estimate,
}

/// The summary of comparisons (means are 0 over no comparison).
pub fn summary(comparisons: &[Comparison]) -> Summary {
    let count = comparisons.len();
    let mean = |f: &dyn Fn(&Comparison) -> f64| {
        if count == 0 {
            0.0
        } else {
            comparisons.iter().map(f).sum::<f64>() / count as f64
        }
    };
    let scores: Vec<f64> = comparisons.iter().map(|c| c.score).collect();
    let mut rng = SplitMix64::new(SUMMARY_SEED);
    Summary {
        count,
        mean_lcs: mean(&|c| c.lcs as f64),
        mean_score: mean(&|c| c.score),
        score_interval: bootstrap(&scores, Statistic::Mean, SUMMARY_BOOTSTRAP, &mut rng),
    }
}
