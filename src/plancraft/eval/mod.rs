//! `plancraft eval` without the I/O: methods' episodes joined with the dataset's examples by
//! id, the metrics of Plancraft's results table (semantics §11) per method with bootstrap
//! intervals over examples, and paired comparisons on the examples two methods share. The
//! front end lists and reads the runs, hands each file's text to `read_episodes`, and prints
//! the `Evaluation`.
//!
//! A method's results over several generation (seed) folders are pooled, as the script's
//! `groupby(name)` pools its seeds: every (seed, example) result is one row of the means. The
//! bootstrap resamples examples, each with all its results. Unlike the script, a seed that
//! lacks some examples is kept (the script keeps a seed only when it holds every example, or
//! every possible one): the table says over how many examples each figure is.

mod metrics;
mod record;
mod replay;
mod runs;
mod table;

pub use metrics::{
    ActionCounts, FAILED_STEPS_DIFF, GROUPS, METRICS, RECIPE_TYPES, classify, group_of,
};
pub use record::{EpisodeFile, EpisodeRecord, read_episodes};
pub use replay::{ReplayedEpisode, replay_episodes};
pub use runs::{RunFiles, RunReader, result_files};
pub use table::{
    EvalDocument, INTERVAL_METRICS, MethodComparison, MethodTable, OracleSummary, RESULTS_COLUMNS,
    STEPS_COLUMNS, absent_reasons,
};

use super::data::example::Example;
use super::data::world::World;
use crate::diagnostics::{Code, Diagnostic};
use crate::kitchen::BootstrapOptions;
use metrics::{Contribution, Sums};
use serde::Serialize;
use std::collections::HashMap;

/// What an oracle's run gives for one example: its `total_actions` (AE) and its
/// `number_of_steps` (the steps table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OracleCounts {
    pub total_actions: usize,
    pub number_of_steps: usize,
}

/// The oracle's counts by example id: from an oracle run (`oracle_counts`), or from any
/// planner a front end runs itself.
pub type OracleTable = HashMap<String, OracleCounts>;

/// A method: its label (its run's name) and every episode read from its run.
#[derive(Clone, Debug)]
pub struct MethodInput {
    pub label: String,
    pub episodes: Vec<EpisodeRecord>,
}

/// The dataset's examples by id: their position, and the fields the metrics read.
pub struct Examples<'a> {
    examples: &'a [Example],
    by_id: HashMap<&'a str, usize>,
}

impl<'a> Examples<'a> {
    pub fn new(examples: &'a [Example]) -> Examples<'a> {
        let by_id = examples
            .iter()
            .enumerate()
            .map(|(index, example)| (example.id.as_str(), index))
            .collect();
        Examples { examples, by_id }
    }

    pub fn len(&self) -> usize {
        self.examples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.examples.is_empty()
    }

    /// The position of the episode's example, or the `M608` that says it is not in the split.
    fn find(&self, episode: &EpisodeRecord, whose: &str) -> Result<usize, Diagnostic> {
        self.by_id
            .get(episode.example_id.as_str())
            .copied()
            .ok_or_else(|| {
                let message = format!(
                    "{whose} episode of `{}`: no example of the split given has this id ({} examples)",
                    episode.example_id,
                    self.examples.len()
                );
                Diagnostic::new(Code::PlancraftEpisodeUnknownExample, message, episode.span)
                    .in_file(episode.file)
                    .with_help("give the split the run was made on (--examples val.json or test.json); the episode is left out")
            })
    }
}

/// The oracle's counts from its run's episodes (the first episode of an example, as the
/// script's `groupby(...).first()`), and an `M608` for each episode of an example not in the
/// split.
pub fn oracle_counts(
    examples: &Examples,
    episodes: &[EpisodeRecord],
) -> (OracleTable, Vec<Diagnostic>) {
    let mut table = OracleTable::new();
    let mut diagnostics = Vec::new();
    for episode in episodes {
        match examples.find(episode, "the oracle's") {
            Ok(_) => {
                table
                    .entry(episode.example_id.clone())
                    .or_insert(OracleCounts {
                        total_actions: episode.counts.total(),
                        number_of_steps: episode.number_of_steps,
                    });
            }
            Err(diagnostic) => diagnostics.push(diagnostic),
        }
    }
    (table, diagnostics)
}

/// The counts an oracle run would give, from `plancraft solve`: a solved example's messages
/// (as many steps as its replay ran), one `impossible:` for a proven one; an example the
/// solver answers `unknown` is left out, as an oracle that ran out of time has no count.
/// On val these equal the oracle run's counts on 569 of the 570 examples (VAL0524: 11
/// messages, the oracle's 12).
pub fn solver_oracle(world: &World, examples: &[Example]) -> OracleTable {
    let mut table = OracleTable::new();
    for example in examples {
        let row = super::solve::solve(world, example, super::solve::SolveOptions::default());
        let counts = match (row.status, &row.replay) {
            ("solved", Some(replay)) => OracleCounts {
                total_actions: row.actions.len(),
                number_of_steps: replay.number_of_steps,
            },
            ("impossible", _) => OracleCounts {
                total_actions: 1,
                number_of_steps: 1,
            },
            _ => continue,
        };
        table.insert(example.id.clone(), counts);
    }
    table
}

/// One episode as the script's data frame has it (the CSV's and the JSON document's rows).
#[derive(Clone, Debug, Serialize)]
pub struct EpisodeRow {
    pub method: String,
    pub seed: String,
    pub example: String,
    pub group: &'static str,
    pub recipe_type: String,
    pub impossible: bool,
    pub success: bool,
    pub number_of_steps: usize,
    #[serde(rename = "move")]
    pub moves: usize,
    pub smelt: usize,
    pub think: usize,
    pub impossible_count: usize,
    pub search: usize,
    pub invalid: usize,
    pub total_actions: usize,
    pub impossible_emitted: bool,
    pub tokens_used: Option<f64>,
    /// `total_actions − oracle total_actions` of a success the oracle ran; else `null`.
    pub actions_over_oracle: Option<i64>,
    /// `number_of_steps − oracle number_of_steps` of a success the oracle ran, 10 for a
    /// failure; `null` without an oracle.
    pub steps_diff: Option<i64>,
}

/// A method's episodes joined with their examples: the rows, and per example (by position in
/// the split) its sums, for the examples it has results for.
struct Joined {
    rows: Vec<EpisodeRow>,
    contributions: Vec<Option<Contribution>>,
}

fn signed(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// One episode's row and what it adds to its example's sums.
fn episode_row(
    method: &str,
    episode: &EpisodeRecord,
    example: &Example,
    oracle: Option<&OracleTable>,
) -> (EpisodeRow, Sums) {
    let group = group_of(example.complexity_bin);
    let recipe_type = episode
        .recipe_type
        .clone()
        .unwrap_or_else(|| example.recipe_type.clone());
    let counts = episode.counts;
    let total = counts.total();
    let known = oracle.map(|table| table.get(&episode.example_id));
    let over_oracle = match known {
        Some(Some(o)) if episode.success => Some(signed(total) - signed(o.total_actions)),
        _ => None,
    };
    let steps_diff = match known {
        None => None,
        Some(_) if !episode.success => Some(FAILED_STEPS_DIFF),
        Some(Some(o)) => Some(signed(episode.number_of_steps) - signed(o.number_of_steps)),
        Some(None) => None,
    };
    let mut sums = Sums {
        results: 1.0,
        successes: f64::from(u8::from(episode.success)),
        tokens: episode.tokens_used.unwrap_or(0.0),
        with_tokens: f64::from(u8::from(episode.tokens_used.is_some())),
        over_oracle: over_oracle.unwrap_or(0) as f64,
        with_over_oracle: f64::from(u8::from(over_oracle.is_some())),
        ..Sums::default()
    };
    for (sum, count) in sums.actions.iter_mut().zip(counts.as_array()) {
        *sum = count as f64;
    }
    sums.actions[6] = total as f64;
    let (truth, claim) = (example.impossible, episode.impossible_emitted);
    sums.f1 = [truth && claim, !truth && claim, truth && !claim].map(|b| f64::from(u8::from(b)));
    let column = RECIPE_TYPES.iter().position(|t| *t == recipe_type);
    if let (Some(column), Some(diff)) = (column, steps_diff) {
        sums.steps[column] = (diff as f64, 1.0);
    }
    let [moves, smelt, think, impossible_count, search, invalid] = counts.as_array();
    let row = EpisodeRow {
        method: method.to_string(),
        seed: episode.seed.clone(),
        example: episode.example_id.clone(),
        group: GROUPS[group],
        recipe_type,
        impossible: example.impossible,
        success: episode.success,
        number_of_steps: episode.number_of_steps,
        moves,
        smelt,
        think,
        impossible_count,
        search,
        invalid,
        total_actions: total,
        impossible_emitted: claim,
        tokens_used: episode.tokens_used,
        actions_over_oracle: over_oracle,
        steps_diff,
    };
    (row, sums)
}

/// A method's episodes joined with the split by example id; an episode of an example not in
/// the split is an `M608` and left out.
fn join(
    examples: &Examples,
    method: &MethodInput,
    oracle: Option<&OracleTable>,
) -> (Joined, Vec<Diagnostic>) {
    let mut joined = Joined {
        rows: Vec::with_capacity(method.episodes.len()),
        contributions: vec![None; examples.len()],
    };
    let mut diagnostics = Vec::new();
    for episode in &method.episodes {
        let index = match examples.find(episode, "an") {
            Ok(index) => index,
            Err(diagnostic) => {
                diagnostics.push(diagnostic);
                continue;
            }
        };
        let example = &examples.examples[index];
        let (row, sums) = episode_row(&method.label, episode, example, oracle);
        joined.rows.push(row);
        let entry = joined.contributions[index].get_or_insert(Contribution {
            group: group_of(example.complexity_bin),
            sums: Sums::default(),
        });
        entry.sums += &sums;
    }
    (joined, diagnostics)
}

/// What `evaluate` finds: every episode's row (method by method, in the order read), each
/// method's table, the paired comparisons, and an `M608` per episode of an example not in the
/// split (located where its run's file names it).
#[derive(Debug)]
pub struct Evaluation {
    pub rows: Vec<EpisodeRow>,
    pub methods: Vec<MethodTable>,
    pub comparisons: Vec<MethodComparison>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Plancraft's results table for `methods` on the split `examples`. `oracle` holds the
/// oracle's counts per example (`oracle_counts` of an oracle run, or any planner's); without
/// it AE and the steps table have no value, and say why, instead of a made-up 0.
pub fn evaluate(
    examples: &Examples,
    methods: &[MethodInput],
    oracle: Option<&OracleTable>,
    options: BootstrapOptions,
) -> Evaluation {
    let mut diagnostics = Vec::new();
    let joined: Vec<Joined> = methods
        .iter()
        .map(|method| {
            let (joined, found) = join(examples, method, oracle);
            diagnostics.extend(found);
            joined
        })
        .collect();
    let labels: Vec<String> = methods.iter().map(|m| m.label.clone()).collect();
    let (tables, comparisons) = table::statistics(&labels, &joined, oracle.is_some(), options);
    Evaluation {
        rows: joined.into_iter().flat_map(|j| j.rows).collect(),
        methods: tables,
        comparisons,
        diagnostics,
    }
}
