//! BDDL and ActPlan-1K (issue 32). For now one piece: ActPlan-1K's plan metric, the longest
//! common subsequence of two plans' steps normalised by the longer plan (docs/bddl.md).

mod activity;
mod compare;

pub use activity::{Activity, UNTYPED_CATEGORY};
pub use compare::{
    COMPARE_JSON_VERSION, Comparison, MatchedPair, Matching, Mode, StepMatcher, Summary, compare,
    compare_with, lcs_pairs, normalise_step, steps, summary,
};
