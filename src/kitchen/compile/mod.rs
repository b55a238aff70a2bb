//! The kitchen world lowered to PDDL: a domain from the action tables and one problem per task
//! environment, its goal the task's intended result plus the end-of-plan audits.
//!
//! Nothing here knows an action by name: each action's PDDL is read off its checks (the
//! precondition) and its effect primitives (the effect, regressed in order, see `ir`).
//! docs/kitchen.md describes the encoding and the two flavours.
//!
//! The stages, in order: `vocabulary` (types, constants and predicates the world yields),
//! `lower` (an action variant's checks; `primitives` and `writes` its effect), `audit` and
//! `planning` (each flavour's additions), `domain`; then `spares`, `relevant` (the planning
//! flavour's objects), `problem` and `goal`; `translate` carries plans between the two formats.

mod audit;
mod domain;
pub mod goal;
pub mod ir;
mod lower;
mod planning;
mod primitives;
mod problem;
mod relevant;
mod rules;
mod spares;
pub mod translate;
mod vocabulary;
mod writes;

pub use audit::is_syntax_condition;
pub use domain::domain;
pub use goal::TaskGoal;
pub use problem::problem;
pub use relevant::relevant_env;
pub use spares::{Spare, default_spares};
pub use translate::{from_pddl_plan, plan_phantoms, plan_spares, to_pddl_plan};

/// What the compilation is for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Flavour {
    /// Faithful to Simmer's executor: preconditions are the checks, effects are the primitives;
    /// with `validate --continue` it reports what `kitchen run` reports.
    #[default]
    Audit,
    /// Tightened so that a planner cannot exploit the executor's gaps (docs/kitchen.md).
    Planning,
}

/// How to compile a problem.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub flavour: Flavour,
    /// Objects created during a plan, declared in the problem besides the default pool.
    pub spares: Vec<Spare>,
    /// Ids a plan names that never exist (Simmer's ids, `lid_1`): declared as objects that are
    /// not `present`, named by [`phantom_name`], so that the audit flavour can run the step
    /// as Simmer does (quirk Q6).
    pub phantoms: Vec<String>,
}

/// The PDDL object standing for an id that a plan names and that never exists: `missing-lid_1`.
/// Simmer's ids have no `-`, so it names no real object.
pub fn phantom_name(id: &str) -> String {
    format!("missing-{id}")
}
