//! The JSON contract of `pddlc solve --format json` (docs/cli.md), typed: the CLI prints it and
//! the Python binding's `Solution.to_dict` is it, so the two cannot differ.

use super::{Answer, Limit, Outcome, Statistics, Unsolvable};
use crate::diagnostics::Diagnostic;
use crate::diagnostics::render::{self, DiagnosticRow, JSON_VERSION, Sources};
use serde::Serialize;

/// The document: the task's diagnostics, and the answer when a search ran (every answer field
/// is null when the task could not be used).
#[derive(Debug, Serialize)]
pub struct SolveRow<'a> {
    pub version: u32,
    pub diagnostics: Vec<DiagnosticRow<'a>>,
    /// `solved`, `unsolvable` or `unknown`.
    pub status: Option<&'static str>,
    /// The plan's steps, `(action args)`, when solved.
    pub plan: Option<&'a [String]>,
    pub cost: Option<u64>,
    /// Whether the cost counts steps (the task has no action costs).
    pub unit_cost: Option<bool>,
    /// Why the task is unsolvable: the proof's fields and its `message`.
    pub reason: Option<Reason<'a>>,
    /// Which limit ended the search, when the answer is unknown.
    pub limit: Option<&'a Limit>,
    /// Where the plan was written, when the caller wrote it.
    pub plan_file: Option<String>,
    pub statistics: Option<StatisticsRow<'a>>,
}

/// An unsolvable task's proof, with its sentence.
#[derive(Debug, Serialize)]
pub struct Reason<'a> {
    #[serde(flatten)]
    pub proof: &'a Unsolvable,
    pub message: String,
}

/// The search's statistics, and the process's peak memory when the caller measured it.
#[derive(Debug, Serialize)]
pub struct StatisticsRow<'a> {
    #[serde(flatten)]
    pub statistics: &'a Statistics,
    pub peak_memory_mb: Option<f64>,
}

/// The status word of an outcome.
pub fn status(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Solved { .. } => "solved",
        Outcome::Unsolvable(_) => "unsolvable",
        Outcome::Unknown(_) => "unknown",
    }
}

impl<'a> SolveRow<'a> {
    /// The document of an answer; its warnings located in `sources`.
    pub fn answer(
        answer: &'a Answer,
        sources: &'a Sources,
        plan_file: Option<String>,
        peak_memory_mb: Option<f64>,
    ) -> SolveRow<'a> {
        let (plan, cost) = match &answer.outcome {
            Outcome::Solved { plan, cost } => (Some(plan.as_slice()), Some(*cost)),
            _ => (None, None),
        };
        SolveRow {
            version: JSON_VERSION,
            diagnostics: render::rows(&answer.warnings, sources),
            status: Some(status(&answer.outcome)),
            plan,
            cost,
            unit_cost: Some(!answer.action_costs),
            reason: match &answer.outcome {
                Outcome::Unsolvable(proof) => Some(Reason {
                    proof,
                    message: proof.to_string(),
                }),
                _ => None,
            },
            limit: match &answer.outcome {
                Outcome::Unknown(limit) => Some(limit),
                _ => None,
            },
            plan_file,
            statistics: Some(StatisticsRow {
                statistics: &answer.statistics,
                peak_memory_mb,
            }),
        }
    }

    /// The document of a task that could not be searched: its diagnostics, located in
    /// `sources`.
    pub fn unusable(diagnostics: &'a [Diagnostic], sources: &'a Sources) -> SolveRow<'a> {
        SolveRow {
            version: JSON_VERSION,
            diagnostics: render::rows(diagnostics, sources),
            status: None,
            plan: None,
            cost: None,
            unit_cost: None,
            reason: None,
            limit: None,
            plan_file: None,
            statistics: None,
        }
    }
}
