//! Scoring generated domains against gold ones: Text2World's six metrics, reproduced exactly
//! (`text2world`), and a clean AST-based mode that measures what they were meant to (`clean`).

pub mod sim;
pub mod text2world;

use serde::Serialize;

/// The six Text2World metrics of one (gold, prediction) pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Metrics {
    #[serde(rename = "EXEC")]
    pub exec: f64,
    #[serde(rename = "SIM")]
    pub sim: f64,
    #[serde(rename = "F1_PRED")]
    pub f1_pred: f64,
    #[serde(rename = "F1_PARAM")]
    pub f1_param: f64,
    #[serde(rename = "F1_PRECOND")]
    pub f1_precond: f64,
    #[serde(rename = "F1_EFF")]
    pub f1_eff: f64,
}
