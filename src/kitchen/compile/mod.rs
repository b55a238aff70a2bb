//! The kitchen world lowered to PDDL: a domain from the action tables and one problem per task
//! environment, its goal the task's intended result plus the end-of-plan audits.
//!
//! Nothing here knows an action by name: each action's PDDL is read off its checks (the
//! precondition) and its effect primitives (the effect, regressed in order, see `ir`).
//! docs/kitchen.md describes the encoding and the two flavours.
//!
//! The files, each using only those above it (no import circle):
//! - `ir` (formulas and their regression through writes), `flavour`, `variants` (an action's
//!   variants and what it creates), `vocabulary` (the types, constants and names of the
//!   predicates the world yields);
//! - `action` (the shared vocabulary of lowering one action variant: its roles and tests),
//!   `writes` and `primitives` (its effect);
//! - `audit`, `planning` and `rules` (each flavour's additions), `lower` (one action variant),
//!   `domain` (the domain, assembled in one place);
//! - `task` (a task's goal as written), `spares`, `goal` (its formula), `relevant` (the
//!   planning flavour's objects), `translate` (plans between the two formats), `problem`.
//!
//! This module declares them and re-exports what the kitchen's façade offers.

mod action;
mod audit;
mod domain;
mod flavour;
mod goal;
mod ir;
mod lower;
mod planning;
mod primitives;
mod problem;
mod relevant;
mod rules;
mod spares;
mod task;
mod translate;
mod variants;
mod vocabulary;
mod writes;

pub use audit::is_syntax_condition;
pub use domain::domain;
pub use flavour::Flavour;
pub use problem::{CompileOptions, compile_task, problem};
pub use relevant::relevant_env;
pub use spares::{Spare, default_spares};
pub use task::TaskGoal;
pub use translate::{from_pddl_plan, plan_phantoms, plan_spares, to_pddl_plan};
pub use vocabulary::UNEXPRESSIBLE;
