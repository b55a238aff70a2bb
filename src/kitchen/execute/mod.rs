//! The executor: a Simmer plan run step by step in a task environment, then audited.
//!
//! `state` is the world state of a run, `engine` interprets each step's checks and effect
//! primitives on it (semantics §2.3), `cook` holds strict mode's cooking rules, `irreversible`
//! flags the transforming steps that ran despite a failed precondition, and `audit` runs the
//! end-of-plan audits. Every failure is a [`Failure`]: a diagnostic with Simmer's step data.

pub mod audit;
pub mod cook;
pub mod engine;
pub mod failure;
pub mod irreversible;
pub mod state;

pub use failure::{Failure, FailureType};
pub use state::{Name, Object, State};

use crate::diagnostics::{Code, Diagnostic};
use crate::kitchen::data::plan;
use crate::kitchen::data::simmer::Env;
use crate::kitchen::data::world::World;
use crate::kitchen::report::Counts;
use std::sync::Arc;

/// How the executor behaves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Simmer's executor exactly, quirks included (semantics §11).
    #[default]
    Simmer,
    /// Simmer with the quirks of §11 fixed (docs/kitchen.md lists each difference).
    Strict,
}

crate::choice::choice!(Mode, "mode", {
    "simmer" => Mode::Simmer: "Simmer's executor exactly, quirks included",
    "strict" => Mode::Strict: "Simmer's quirks fixed (docs/kitchen.md lists the differences)",
});

/// The result of running one plan.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Parsed steps.
    pub steps: usize,
    /// Physical lines of the plan text.
    pub lines: usize,
    /// Every failure in recording order: steps, then the audits. Each is its diagnostic (K404
    /// syntax, K405 immediate, K406 latent) labelled on the plan step's line.
    pub failures: Vec<Failure>,
    /// Problems with the plan text itself (K403), which are no failure of Simmer's.
    pub plan_diagnostics: Vec<Diagnostic>,
    /// The world after the last step.
    pub state: State,
    /// The world right after loading, to tell what changed (shared by the plans of one
    /// environment).
    pub initial: Arc<State>,
    /// Transforming steps that ran despite a failed precondition (`detect_irreversible.py`).
    pub irreversible_actions: Vec<irreversible::Flag>,
}

impl Outcome {
    pub fn counts(&self) -> Counts {
        Counts::of(&self.failures)
    }

    /// Every diagnostic of the run: the plan text's own problems, then one per failure.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let failures = self.failures.iter().map(|failure| &failure.diagnostic);
        self.plan_diagnostics
            .iter()
            .chain(failures)
            .cloned()
            .collect()
    }
}

/// Runs a plan in a task environment and audits the result.
pub fn run(world: &World, env: &Env, plan_text: &str, mode: Mode) -> Outcome {
    run_from(world, &Arc::new(State::load(world, env)), plan_text, mode)
}

/// `run` from `initial`, the state `State::load` gives an environment: the plans of one
/// environment load it once.
pub fn run_from(world: &World, initial: &Arc<State>, plan_text: &str, mode: Mode) -> Outcome {
    let plan = plan::parse_with(plan_text, mode == Mode::Strict);
    let mut plan_diagnostics = Vec::new();
    if plan.steps.is_empty() {
        plan_diagnostics.push(
            Diagnostic::unlocated(
                Code::KitchenPlanEmpty,
                "no line of the plan holds a bracketed action such as `[GRAB]`",
            )
            .with_help("write one step per line: `[PUT_ON] <lettuce> (1) <cutting_board> (1)`"),
        );
    }
    let mut engine = engine::Engine::starting_from(world, State::clone(initial), mode);
    engine.run_plan(&plan);
    let irreversible_actions = engine.flags;
    let mut failures = engine.failures;
    failures.extend(audit::run(world, &engine.state, mode));
    let failures = failures
        .into_iter()
        .map(|failure| failure.located(&plan.steps))
        .collect();
    Outcome {
        steps: plan.steps.len(),
        lines: plan.lines,
        failures,
        plan_diagnostics,
        state: engine.state,
        initial: Arc::clone(initial),
        irreversible_actions,
    }
}

/// The state after each step of a plan as Simmer reads it, without the audits: for tools and
/// tests that watch a run unfold.
pub fn states_after_steps(world: &World, env: &Env, plan_text: &str, mode: Mode) -> Vec<State> {
    let plan = plan::parse_with(plan_text, mode == Mode::Strict);
    let mut engine = engine::Engine::new(world, env, mode);
    plan.steps
        .iter()
        .map(|step| {
            engine.run_step(step);
            engine.state.clone()
        })
        .collect()
}
