//! Tasks as environments for agents and as ground truth for evaluating LLM world models.
//!
//! [`Env`] steps a classical or numeric task one ground action at a time with the validator's
//! semantics (`validate::validate` runs the same functions over a whole plan): the state as
//! atoms and fluents, the applicable actions, the change an action makes, or the located
//! diagnostic that says why it cannot be applied, and the goal test. [`make`] builds the items
//! that world models are evaluated on (next state, verification with mutated plans, proposal,
//! planning) around a reference plan, every label found by running the task.

mod env;
mod items;
mod make;
mod read;
mod score;

pub use env::{Change, Env, NumericChange, Snapshot, Transition};
pub use items::{Items, Kind, TaskRecord, items_jsonl, read_items};
pub use make::{Item, Label, MakeOptions, Mutation, make};
pub use score::{
    Answered, ItemScore, NextStateSummary, PlanningSummary, ProposalSummary, ScoreOptions, Scores,
    Summary, TaskSummary, Tasks, TopK, VerificationSummary, score,
};
