//! The statistics of `kitchen eval` (semantics §10.1): a row per task, the paper's per-method
//! table with bootstrap intervals, and paired comparisons between runs, in the JSON document's
//! shape.

use crate::kitchen::report::{Counts, Summary, TaskMetrics, summarise};
use crate::kitchen::stats::{
    Estimate, PairedTest, SplitMix64, Statistic, TTest, bootstrap, paired_bootstrap, paired_t_test,
};
use serde::Serialize;
use serde_json::value::RawValue;

/// One row of `tasks`: a task of a run, its plans' mean §10.1 metrics and its Table 3.
#[derive(Clone, Debug, Serialize)]
pub struct TaskRow {
    pub run: String,
    pub task: String,
    pub plans: usize,
    pub immediate: f64,
    pub latent: f64,
    pub irreversible: f64,
    pub total: f64,
    pub clean: f64,
    pub summary: Summary,
}

impl TaskRow {
    /// The mean of each §10.1 metric over a task's plans that ran (one plan: the metrics
    /// themselves), and their Table 3.
    pub fn of(run: &str, task: &str, ran: &[(Counts, TaskMetrics)]) -> TaskRow {
        let n = ran.len().max(1) as f64;
        let mean = |f: fn(&TaskMetrics) -> usize| {
            ran.iter().map(|(_, metrics)| f(metrics)).sum::<usize>() as f64 / n
        };
        let counts: Vec<Counts> = ran.iter().map(|(counts, _)| *counts).collect();
        TaskRow {
            run: run.to_string(),
            task: task.to_string(),
            plans: ran.len(),
            immediate: mean(|m| m.immediate),
            latent: mean(|m| m.latent),
            irreversible: mean(|m| m.irreversible),
            total: mean(|m| m.total),
            clean: mean(|m| m.clean),
            summary: summarise(&counts),
        }
    }

    fn metric(&self, name: &str) -> f64 {
        match name {
            "total" => self.total,
            "immediate" => self.immediate,
            "latent" => self.latent,
            "irreversible" => self.irreversible,
            _ => self.clean,
        }
    }
}

/// The metrics in §10.1's order, with the statistic each is reported as.
const METRICS: [(&str, Statistic); 5] = [
    ("total", Statistic::Sum),
    ("immediate", Statistic::Sum),
    ("latent", Statistic::Sum),
    ("irreversible", Statistic::Sum),
    ("clean", Statistic::Mean),
];

/// One method (run) in the paper's table.
#[derive(Clone, Debug, Serialize)]
pub struct Method {
    pub run: String,
    pub tasks: usize,
    pub total: Estimate,
    pub immediate: Estimate,
    pub latent: Estimate,
    pub irreversible: Estimate,
    pub clean: Estimate,
    pub summary: Summary,
}

/// A paired comparison of two runs.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub a: String,
    pub b: String,
    pub tasks: usize,
    pub total: PairedTest,
    pub t_test: Option<TTest>,
    pub immediate: PairedTest,
    pub latent: PairedTest,
    pub irreversible: PairedTest,
}

/// How the intervals and tests resample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BootstrapOptions {
    /// Resamples per interval and test.
    pub samples: usize,
    /// The seed of the generator (SplitMix64), set once before any resampling.
    pub seed: u64,
}

/// The per-method table and the paired comparisons of the runs labelled `runs`, drawing from
/// one generator seeded once, in §10.1's order: method by method (total, immediate, latent,
/// irreversible, clean), then every pair in the order given (total with its t-test,
/// immediate, latent, irreversible). `counts` holds, per run, the counts of each plan that ran.
pub fn statistics(
    runs: &[String],
    rows: &[TaskRow],
    counts: &[Vec<Counts>],
    options: BootstrapOptions,
) -> (Vec<Method>, Vec<Comparison>) {
    let mut rng = SplitMix64::new(options.seed);
    let samples = options.samples;
    let values = |run: &str, name: &str| -> Vec<f64> {
        rows.iter()
            .filter(|r| r.run == run)
            .map(|r| r.metric(name))
            .collect()
    };
    let mut methods = Vec::new();
    for (run, counts) in runs.iter().zip(counts) {
        let [total, immediate, latent, irreversible, clean] = METRICS
            .map(|(name, statistic)| bootstrap(&values(run, name), statistic, samples, &mut rng));
        methods.push(Method {
            run: run.clone(),
            tasks: rows.iter().filter(|r| &r.run == run).count(),
            total,
            immediate,
            latent,
            irreversible,
            clean,
            summary: summarise(counts),
        });
    }
    let mut comparisons = Vec::new();
    for (i, a) in runs.iter().enumerate() {
        for b in &runs[i + 1..] {
            let mut test = |name: &str| {
                paired_bootstrap(&values(a, name), &values(b, name), samples, &mut rng)
            };
            let total = test("total");
            let (immediate, latent, irreversible) =
                (test("immediate"), test("latent"), test("irreversible"));
            let (ta, tb) = (values(a, "total"), values(b, "total"));
            comparisons.push(Comparison {
                a: a.clone(),
                b: b.clone(),
                tasks: ta.len().min(tb.len()),
                total,
                t_test: paired_t_test(&ta, &tb),
                immediate,
                latent,
                irreversible,
            });
        }
    }
    (methods, comparisons)
}

/// `kitchen eval --format json`'s document (a contract, docs/kitchen.md); its plan rows are
/// JSON text already (a row a line).
#[derive(Debug, Serialize)]
pub struct EvalDocument<'a> {
    pub version: u32,
    pub diagnostics: serde_json::Value,
    pub plans: &'a [Box<RawValue>],
    pub tasks: &'a [TaskRow],
    pub methods: &'a [Method],
    pub comparisons: &'a [Comparison],
    pub bootstrap: BootstrapRow,
}

/// How the document's intervals were drawn.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct BootstrapRow {
    pub generator: &'static str,
    pub seed: u64,
    pub samples: usize,
}

impl From<BootstrapOptions> for BootstrapRow {
    fn from(options: BootstrapOptions) -> BootstrapRow {
        BootstrapRow {
            generator: "splitmix64",
            seed: options.seed,
            samples: options.samples,
        }
    }
}
