//! The statistics of `plancraft eval`: per method, every metric of the results table with
//! its bootstrap 95% interval over examples; per pair of methods, paired tests on the
//! examples both have results for; and the JSON document.

use super::metrics::{Contribution, METRIC_COUNT, METRICS, OTHER, Totals, values};
use super::{EpisodeRow, Joined};
use crate::kitchen::{
    BootstrapOptions, BootstrapRow, Estimate, PairedTest, SplitMix64, TTest, estimate_of,
    paired_bootstrap, paired_t_test, resample_statistics,
};
use serde::{Serialize, Serializer};
use std::collections::BTreeSet;

/// The columns of the paper's results table: a metric's name and its short heading.
pub const RESULTS_COLUMNS: [(&str, &str); 13] = [
    ("easy", "easy"),
    ("medium", "medium"),
    ("hard", "hard"),
    ("overall", "overall"),
    ("other", "other"),
    ("think", "think"),
    ("search", "search"),
    ("impossible", "imposs."),
    ("invalid", "invalid"),
    ("impossible_f1", "imp. F1"),
    ("plan_length", "length"),
    ("ae", "AE"),
    ("tokens_used", "tokens"),
];

/// The columns of the steps table: steps over the oracle per recipe type.
pub const STEPS_COLUMNS: [(&str, &str); 6] = [
    ("steps_mixed", "mixed"),
    ("steps_shaped", "shaped"),
    ("steps_shapeless", "shapeless"),
    ("steps_smelting", "smelting"),
    ("steps_overall", "overall"),
    ("steps_impossible", "impossible"),
];

/// The metrics whose intervals are listed per method.
pub const INTERVAL_METRICS: [&str; 8] = [
    "overall",
    "easy",
    "medium",
    "hard",
    "plan_length",
    "ae",
    "impossible_f1",
    "steps_overall",
];

/// Why a column's value is absent: per column of `columns` (in order), each reason a metric
/// without a value gives, with the methods it is given for (in order): `(heading, reason,
/// methods)`. What the printed table and the page write below the table.
pub fn absent_reasons<'a>(
    methods: &'a [MethodTable],
    columns: &[(&str, &'a str)],
) -> Vec<(&'a str, &'static str, Vec<&'a str>)> {
    let mut out: Vec<(&str, &'static str, Vec<&str>)> = Vec::new();
    for (name, heading) in columns {
        let start = out.len();
        for m in methods {
            let Some(Estimate {
                value: None,
                reason: Some(reason),
                ..
            }) = m.metric(name)
            else {
                continue;
            };
            match out[start..].iter_mut().find(|(_, r, _)| r == reason) {
                Some((.., names)) => names.push(&m.method),
                None => out.push((heading, reason, vec![&m.method])),
            }
        }
    }
    out
}

/// One method's row of the table.
#[derive(Clone, Debug, Serialize)]
pub struct MethodTable {
    pub method: String,
    /// Examples with at least one result, results (episodes), generation folders.
    pub examples: usize,
    pub results: usize,
    pub seeds: usize,
    /// Every metric of `METRICS`, in its order (a JSON object by name).
    #[serde(serialize_with = "by_name")]
    pub metrics: [Estimate; METRIC_COUNT],
}

impl MethodTable {
    /// The estimate of the metric named `name` (one of `METRICS`).
    pub fn metric(&self, name: &str) -> Option<&Estimate> {
        METRICS
            .iter()
            .position(|metric| *metric == name)
            .map(|i| &self.metrics[i])
    }
}

fn by_name<S: Serializer>(metrics: &[Estimate; METRIC_COUNT], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(METRICS.iter().zip(metrics))
}

/// A paired comparison of two methods, a − b, on the examples both have results for.
#[derive(Clone, Debug, Serialize)]
pub struct MethodComparison {
    pub a: String,
    pub b: String,
    /// The examples both have results for.
    pub examples: usize,
    /// Per example outside "other": its success rate over its seeds.
    pub overall: PairedTest,
    pub t_test: Option<TTest>,
    /// Per example outside "other": its mean `total_actions`.
    pub plan_length: PairedTest,
    /// Per example with a `steps_diff` in both: its mean; `null` without an oracle.
    pub steps_diff: Option<PairedTest>,
}

/// Why an estimate over one example has no interval.
const NO_INTERVAL: &str = "no interval below 2 examples";

/// Why an estimate has no value, by metric; `oracle` says whether an oracle was given.
fn absent(metric: usize, oracle: bool) -> &'static str {
    match metric {
        0..=3 => "no example in this group",
        12 => "no result records tokens_used",
        13 if !oracle => "no oracle run was given",
        13 => "no success outside \"other\" on an example the oracle ran",
        14 => "no impossible example and no impossible claim",
        15.. if !oracle => "no oracle run was given",
        15.. => "no result of this recipe type",
        _ => "no example outside \"other\"",
    }
}

/// A method's table: the metrics of its examples' sums, each with the interval of the same
/// metric over `samples` resamples of its examples.
fn method_table(
    method: &str,
    rows: &[EpisodeRow],
    contributions: &[Contribution],
    oracle: bool,
    options: BootstrapOptions,
    rng: &mut SplitMix64,
) -> MethodTable {
    let observed = values(&Totals::of(contributions));
    // Each metric is over the examples it has a value for on their own; the F1 is over all.
    let mut counts = [0; METRIC_COUNT];
    for contribution in contributions {
        let alone = values(&Totals::of([contribution]));
        for (count, value) in counts.iter_mut().zip(alone) {
            *count += usize::from(value.is_some());
        }
    }
    counts[14] = contributions.len();
    let mut drawn_totals = Totals::default();
    let resampled = resample_statistics(contributions.len(), options.samples, rng, |drawn| {
        drawn_totals = Totals::default();
        for &i in drawn {
            drawn_totals.add(&contributions[i]);
        }
        values(&drawn_totals)
    });
    let metrics = std::array::from_fn(|m| {
        let reason = if contributions.is_empty() {
            "no episode was read"
        } else {
            absent(m, oracle)
        };
        let value = if oracle || !(m == 13 || m >= 15) {
            observed[m]
        } else {
            None
        };
        estimate_of(value, counts[m], &resampled[m], (reason, NO_INTERVAL))
    });
    let seeds: BTreeSet<&str> = rows.iter().map(|row| row.seed.as_str()).collect();
    MethodTable {
        method: method.to_string(),
        examples: contributions.len(),
        results: rows.len(),
        seeds: seeds.len(),
        metrics,
    }
}

/// The per-example values two methods are compared on.
fn paired(
    a: &[Option<Contribution>],
    b: &[Option<Contribution>],
    value: impl Fn(&Contribution) -> Option<f64>,
) -> (Vec<f64>, Vec<f64>) {
    a.iter()
        .zip(b)
        .filter_map(|pair| match pair {
            (Some(x), Some(y)) => value(x).zip(value(y)),
            _ => None,
        })
        .unzip()
}

fn success_rate(c: &Contribution) -> Option<f64> {
    (c.group != OTHER).then(|| c.sums.successes / c.sums.results)
}

fn plan_length(c: &Contribution) -> Option<f64> {
    (c.group != OTHER).then(|| c.sums.actions[6] / c.sums.results)
}

fn steps_diff(c: &Contribution) -> Option<f64> {
    let (sum, count) = c
        .sums
        .steps
        .iter()
        .fold((0.0, 0.0), |(s, n), (x, k)| (s + x, n + k));
    (count > 0.0).then(|| sum / count)
}

/// The per-method tables and the paired comparisons of the methods labelled `labels` (their
/// episodes joined with the split), drawing from one generator seeded once: method by method,
/// then every pair in the order given (overall, plan length, steps). `oracle` says whether an
/// oracle's counts were joined in.
pub(super) fn statistics(
    labels: &[String],
    joined: &[Joined],
    oracle: bool,
    options: BootstrapOptions,
) -> (Vec<MethodTable>, Vec<MethodComparison>) {
    let mut rng = SplitMix64::new(options.seed);
    let mut methods = Vec::new();
    for (label, method) in labels.iter().zip(joined) {
        let present: Vec<Contribution> = method.contributions.iter().flatten().copied().collect();
        methods.push(method_table(
            label,
            &method.rows,
            &present,
            oracle,
            options,
            &mut rng,
        ));
    }
    let mut comparisons = Vec::new();
    for (i, a) in joined.iter().enumerate() {
        for (j, b) in joined.iter().enumerate().skip(i + 1) {
            let (a, b) = (&a.contributions, &b.contributions);
            let shared = a.iter().zip(b).filter(|(x, y)| x.is_some() && y.is_some());
            let (sa, sb) = paired(a, b, success_rate);
            let overall = paired_bootstrap(&sa, &sb, options.samples, &mut rng);
            let (la, lb) = paired(a, b, plan_length);
            let plan_length = paired_bootstrap(&la, &lb, options.samples, &mut rng);
            let steps_diff = oracle.then(|| {
                let (da, db) = paired(a, b, steps_diff);
                paired_bootstrap(&da, &db, options.samples, &mut rng)
            });
            comparisons.push(MethodComparison {
                a: labels[i].clone(),
                b: labels[j].clone(),
                examples: shared.count(),
                overall,
                t_test: paired_t_test(&sa, &sb),
                plan_length,
                steps_diff,
            });
        }
    }
    (methods, comparisons)
}

/// Whether the oracle's counts were given, and for how many examples.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct OracleSummary {
    pub given: bool,
    pub examples: usize,
    /// Where the counts come from: `run` (`--oracle`), `solve` (`--oracle-from-solve`), or
    /// `null` when none were given.
    pub source: Option<&'static str>,
}

/// `plancraft eval --format json`'s document (a contract, docs/plancraft-eval.md).
#[derive(Debug, Serialize)]
pub struct EvalDocument<'a> {
    pub version: u32,
    pub diagnostics: serde_json::Value,
    /// The examples of the split given.
    pub examples: usize,
    pub oracle: OracleSummary,
    pub episodes: &'a [EpisodeRow],
    pub methods: &'a [MethodTable],
    pub comparisons: &'a [MethodComparison],
    pub bootstrap: BootstrapRow,
}
