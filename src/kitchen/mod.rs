//! The Simmer kitchen world as a declarative model, and the engine that executes
//! VirtualHome-style plans in it.
//!
//! `domains/kitchen/*.toml` hold the model (actions with their checks and effect primitives,
//! object classes, contamination and audit rules); `world` resolves it, `engine` interprets it
//! step by step, `audit` runs the end-of-plan audits and `report` shapes the failures. The
//! specification reproduced is `shared/kitchen/simmer-semantics.md`; docs/kitchen.md describes
//! the format and the two modes.

pub mod audit;
pub mod compile;
pub mod cook;
pub mod describe;
pub mod engine;
pub mod irreversible;
pub mod model;
pub mod plan;
pub mod report;
pub mod simmer;
pub mod stats;
pub mod world;

pub use compile::{from_pddl_plan, to_pddl_plan};
pub use engine::{Name, Object, State};
pub use report::{Counts, Failure, FailureType, Summary};
pub use simmer::Env;
pub use world::World;

use crate::diagnostics::{Code, Diagnostic};
use serde::Serialize;

/// How the executor behaves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Simmer's executor exactly, quirks included (semantics §11).
    #[default]
    Simmer,
    /// Simmer with the quirks of §11 fixed (docs/kitchen.md lists each difference).
    Strict,
}

/// The result of running one plan.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Parsed steps.
    pub steps: usize,
    /// Physical lines of the plan text.
    pub lines: usize,
    /// Every failure in recording order: steps, then the audits.
    pub failures: Vec<Failure>,
    /// The world after the last step.
    pub state: State,
    /// The world right after loading, to tell what changed.
    pub initial: State,
    /// Transforming steps that ran despite a failed precondition (`detect_irreversible.py`).
    pub irreversible_actions: Vec<irreversible::Flag>,
    /// Problems with the plan text itself (K403), then one diagnostic per failure (K404 syntax,
    /// K405 immediate, K406 latent), labelled on the plan step's line.
    pub diagnostics: Vec<Diagnostic>,
}

impl Outcome {
    pub fn counts(&self) -> Counts {
        Counts::of(&self.failures)
    }
}

/// A failure as a diagnostic in the plan text (file 0): its code is its failure type, its label
/// the step's line (none for the end-of-plan audits).
pub fn failure_diagnostic(failure: &Failure, steps: &[plan::Step]) -> Diagnostic {
    let code = match failure.failure_type {
        FailureType::Syntax => Code::KitchenSyntaxFailure,
        FailureType::Immediate => Code::KitchenImmediateFailure,
        FailureType::Latent => Code::KitchenLatentFailure,
    };
    let message = match failure.failure_type {
        FailureType::Syntax => format!(
            "`{}` is not a valid step: {}",
            failure.action.trim_end(),
            failure.reason
        ),
        FailureType::Immediate => format!(
            "`{}` cannot run: {}",
            failure.action.trim_end(),
            failure.reason
        ),
        FailureType::Latent if failure.step == 0 => {
            format!(
                "the plan leaves a hazard ({}): {}",
                failure.action, failure.reason
            )
        }
        FailureType::Latent => format!(
            "`{}` leaves a hazard: {}",
            failure.action.trim_end(),
            failure.reason
        ),
    };
    let located = failure
        .step
        .checked_sub(1)
        .and_then(|index| steps.get(index));
    let diagnostic = match located {
        Some(step) => Diagnostic::new(code, message, step.span)
            .with_primary_message(format!("step {}", step.number)),
        None => Diagnostic::unlocated(code, message),
    };
    if failure.reversible {
        diagnostic
    } else {
        diagnostic.with_help("irreversible: food that is unsafe cannot be made safe again; change the plan before this step")
    }
}

/// Runs a plan in a task environment and audits the result.
pub fn run(world: &World, env: &Env, plan_text: &str, mode: Mode) -> Outcome {
    let plan = plan::parse_with(plan_text, mode == Mode::Strict);
    let mut diagnostics = Vec::new();
    if plan.steps.is_empty() {
        diagnostics.push(
            Diagnostic::unlocated(
                Code::KitchenPlanEmpty,
                "no line of the plan holds a bracketed action such as `[GRAB]`",
            )
            .with_help("write one step per line: `[PUT_ON] <lettuce> (1) <cutting_board> (1)`"),
        );
    }
    let mut engine = engine::Engine::new(world, env, mode);
    let initial = engine.state.clone();
    engine.run_plan(&plan);
    let irreversible_actions = engine.flags;
    let mut failures = engine.failures;
    failures.extend(audit::run(world, &engine.state, mode));
    diagnostics.extend(
        failures
            .iter()
            .map(|failure| failure_diagnostic(failure, &plan.steps)),
    );
    Outcome {
        steps: plan.steps.len(),
        lines: plan.lines,
        failures,
        state: engine.state,
        initial,
        irreversible_actions,
        diagnostics,
    }
}

/// The summary over many plans (the paper's Table 3).
pub fn summary(outcomes: &[Outcome]) -> Summary {
    let counts: Vec<Counts> = outcomes.iter().map(Outcome::counts).collect();
    report::summarise(&counts)
}

/// One object's mutable fields, as `states.jsonl` records them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ObjectState {
    pub states: Vec<Name>,
    pub location: Option<Name>,
    pub contents: Vec<Name>,
    pub contaminated_by: Vec<Name>,
}

/// The final world state in the shape of `plans/dev/states.jsonl`: the agent, the flags, the
/// initial objects whose mutable fields changed, and every created object in creation order.
pub fn final_state_json(outcome: &Outcome) -> serde_json::Value {
    let fields = |o: &Object| ObjectState {
        states: o.states.clone(),
        location: o.location.clone(),
        contents: o.contents.clone(),
        contaminated_by: o.contam.iter().cloned().collect(),
    };
    let mut objects = serde_json::Map::new();
    for (now, before) in outcome.state.initial.iter().zip(&outcome.initial.initial) {
        if fields(now) != fields(before) {
            objects.insert(
                now.id.to_string(),
                serde_json::to_value(fields(now)).unwrap_or_default(),
            );
        }
    }
    let created: Vec<serde_json::Value> = outcome
        .state
        .created
        .iter()
        .map(|o| {
            serde_json::json!({
                "id": o.id, "name": o.name, "properties": o.properties, "states": o.states,
                "location": o.location, "contents": o.contents,
                "contaminated_by": o.contam.iter().collect::<Vec<_>>(),
            })
        })
        .collect();
    let flags: serde_json::Map<String, serde_json::Value> = outcome
        .state
        .flags
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::Bool(*v)))
        .collect();
    serde_json::json!({
        "agent": {
            "location": outcome.state.agent_location,
            "holding": outcome.state.held,
            "contaminated": outcome.state.hands.iter().collect::<Vec<_>>(),
        },
        "env": flags,
        "objects": objects,
        "created_objects": created,
    })
}

/// The JSON of one plan's verdict (a contract, see docs/kitchen.md).
pub fn plan_json(plan: &str, outcome: &Outcome) -> serde_json::Value {
    serde_json::json!({
        "plan": plan,
        "steps": outcome.steps,
        "failures": outcome.failures,
        "counts": outcome.counts(),
        "irreversible_actions": outcome.irreversible_actions,
    })
}
