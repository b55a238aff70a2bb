//! BDDL and ActPlan-1K (issue 32). For now one piece: ActPlan-1K's plan metric, the longest
//! common subsequence of two plans' steps normalised by the longer plan (docs/bddl.md).

mod activity;
mod check;
mod compare;
mod vocabulary;

pub use activity::{Activity, UNTYPED_CATEGORY};
pub use check::{CheckContext, check, check_domain, check_problem};
pub use compare::{
    COMPARE_JSON_VERSION, Comparison, MatchedPair, Matching, Mode, StepMatcher, Summary, compare,
    compare_with, lcs_pairs, normalise_step, steps, summary,
};
pub use vocabulary::{AGENT_SYNSET, Synsets, Vocabulary};

/// The activity and problem number a path `…/<activity>/problem<n>.bddl` stands for, the way
/// BEHAVIOR lays out its activity definitions.
pub fn activity_of_path(path: &str) -> Option<(String, usize)> {
    let mut parts = path.rsplit(['/', '\\']);
    let file = parts.next()?;
    let activity = parts.next().filter(|a| !a.is_empty())?;
    let number = file
        .strip_prefix("problem")?
        .strip_suffix(".bddl")?
        .parse()
        .ok()?;
    Some((activity.to_string(), number))
}
