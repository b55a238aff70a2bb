//! BDDL and ActPlan-1K (issue 32). For now one piece: ActPlan-1K's plan metric, the longest
//! common subsequence of two plans' steps normalised by the longer plan (docs/bddl.md).

mod activity;
mod check;
mod compare;
mod goal;
mod task;
mod vocabulary;

pub use activity::{Activity, UNTYPED_CATEGORY};
pub use check::{CheckContext, check, check_domain, check_problem};
pub use compare::{
    COMPARE_JSON_VERSION, Comparison, MatchedPair, Matching, Mode, StepMatcher, Summary, compare,
    compare_with, lcs_pairs, normalise_step, steps, summary,
};
pub use goal::{
    CompiledGoal, Forn, GoalSemantics, GoalVerdict, Pairs, State, compile_goal,
    compile_problem_goal,
};
pub use task::{Checked, Shipped, check_file};
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

/// Which language a file is read as: PDDL, or BDDL (BEHAVIOR's activity definitions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Dialect {
    /// BDDL for a `.bddl` file, PDDL otherwise.
    #[default]
    Auto,
    Pddl,
    Bddl,
}

crate::choice::choice!(Dialect, "dialect", {
    "auto" => Dialect::Auto: "BDDL for a .bddl file, PDDL otherwise",
    "pddl" => Dialect::Pddl: "PDDL's grammar and rules",
    "bddl" => Dialect::Bddl: "BDDL's grammar and rules (BEHAVIOR, ActPlan-1K)",
});

impl Dialect {
    /// Whether a file of this name is read as BDDL.
    pub fn is_bddl(self, file_name: &str) -> bool {
        match self {
            Dialect::Auto => file_name.to_ascii_lowercase().ends_with(".bddl"),
            Dialect::Pddl => false,
            Dialect::Bddl => true,
        }
    }
}
