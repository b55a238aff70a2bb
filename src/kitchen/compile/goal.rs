//! A task's formal goal (`domains/kitchen/tasks/NNN.toml`) and the problem's goal formula: the
//! intended result and the end-of-plan audits.

use super::Flavour;
use super::ir::{Formula, Term, and, atom, not};
use super::spares::{Spare, spares_that_may_be_sources};
use super::vocabulary::status;
use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic, FileId};
use crate::kitchen::simmer::Env;
use crate::kitchen::world::{Primitive, World, toml_error};
use serde::Deserialize;

/// `domains/kitchen/tasks/NNN.toml`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskGoal {
    /// The task number, `"004"`.
    pub task: String,
    /// The task's title, from `task_NNN.txt`.
    #[serde(default)]
    pub title: String,
    /// The dish: a COMBINE product, made in a container and served.
    #[serde(default)]
    pub dish: Option<Dish>,
    /// Objects that must end up served (besides the dish).
    #[serde(default)]
    pub serve: Vec<String>,
    /// The ingredients and their required states at the end.
    #[serde(default)]
    pub ingredient: Vec<Ingredient>,
    /// Appliances that must have been used, through a state they keep (`s-hot`…): rarely needed.
    #[serde(default)]
    pub states: Vec<Ingredient>,
    /// Further objects the planning flavour keeps (an oven, a grater), besides those it derives
    /// (`compile::relevant_env`).
    #[serde(default)]
    pub tools: Vec<String>,
    /// Why no plan can reach the goal in this world, when none can (018: Simmer's icing is not
    /// spreadable): `kitchen compile` then reports the task (`K410`) and compiles no problem.
    #[serde(default)]
    pub unsolvable: Option<toml::Spanned<String>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dish {
    /// The product's id, `rosemary_oil_1`: COMBINE is given `<rosemary_oil> (1)`.
    pub name: String,
    /// The container it is combined in.
    #[serde(rename = "in")]
    pub container: String,
    /// Whether it must be served (default true).
    #[serde(default = "yes")]
    pub served: bool,
    /// States the product itself must have (`mixed`, `hot`), besides its ingredients' states.
    #[serde(default)]
    pub states: Vec<String>,
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ingredient {
    pub object: String,
    /// States it must have at the end.
    #[serde(default)]
    pub states: Vec<String>,
    /// The container it must be in at the end (for a dish: its container).
    #[serde(default, rename = "in")]
    pub container: Option<String>,
}

/// The class of a Simmer id: the part before the last `_` when the rest is digits.
pub fn class_of(id: &str) -> String {
    match id.rsplit_once('_') {
        Some((head, tail)) if !tail.is_empty() && tail.chars().all(|c| c.is_ascii_digit()) => {
            head.to_string()
        }
        _ => id.to_string(),
    }
}

impl TaskGoal {
    /// The goal in `text`, or a `K407` diagnostic located where the TOML is malformed or does
    /// not fit the format (an unknown field, a missing `task`).
    pub fn from_toml(text: &str) -> Result<TaskGoal, Vec<Diagnostic>> {
        toml::from_str(text).map_err(|e| {
            vec![
                toml_error(Code::KitchenGoalInvalid, &e, FileId(0)).with_help(
                    "a goal file has `task = \"NNN\"` and optionally `title`, `[dish]`, \
                     `serve`, `[[ingredient]]`, `[[states]]`, `tools` and `unsolvable` (docs/kitchen.md)",
                ),
            ]
        })
    }

    /// The `K410` warning of a goal that says why it cannot be solved, located at its reason
    /// in the goal file (file 0); `None` for a goal a plan can reach.
    pub fn unsolvable_diagnostic(&self) -> Option<Diagnostic> {
        let reason = self.unsolvable.as_ref()?;
        let range = reason.span();
        Some(
            Diagnostic::new(
                Code::KitchenTaskUnsolvable,
                format!(
                    "task `{}` cannot be solved in this world: {}",
                    self.task,
                    reason.get_ref().trim()
                ),
                Span::new(range.start, range.end),
            )
            .with_help(
                "no problem is compiled for it; the world data (domains/kitchen/) would have \
                 to express the result first (docs/kitchen.md, \"Task goals\")",
            ),
        )
    }

    /// The objects the goal names.
    pub fn objects(&self) -> Vec<String> {
        let mut out: Vec<String> = self.dish.iter().map(|d| d.container.clone()).collect();
        for ing in self.ingredient.iter().chain(&self.states) {
            out.push(ing.object.clone());
            out.extend(ing.container.iter().cloned());
        }
        out.extend(self.serve.iter().cloned());
        out.extend(self.tools.iter().cloned());
        out
    }

    /// The COMBINE products the goal names.
    pub fn products(&self) -> Vec<String> {
        self.dish.iter().map(|d| d.name.clone()).collect()
    }

    /// The (object, action) pairs whose creating action the goal needs: an ingredient state
    /// added by an action that also creates a derivative (CHOP adds `chopped`).
    pub fn derivatives_in(&self, world: &World) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for ing in &self.ingredient {
            for s in &ing.states {
                for a in world.actions.values().filter(|a| super::lower::creates(a)) {
                    let adds = a
                        .effects
                        .iter()
                        .any(|e| matches!(&e.primitive, Primitive::AddState(_, x) if x == s));
                    if adds {
                        out.push((ing.object.clone(), a.name.clone()));
                    }
                }
            }
        }
        out
    }
}

/// The objects that may carry contamination at the end, with the sources they may carry.
fn sources(world: &World, env: &Env) -> Vec<String> {
    let c = &world.config.contamination;
    env.objects
        .iter()
        .filter(|o| {
            c.source_properties.iter().all(|p| o.properties.contains(p))
                && !c.source_names_excluded.contains(&o.name)
        })
        .map(|o| o.id.clone())
        .collect()
}

/// The goal: the task's result (when given), then the audits, one conjunct per possible
/// failure so that an unmet conjunct names the failure.
pub fn formula(
    world: &World,
    env: &Env,
    goal: Option<&TaskGoal>,
    spares: &[Spare],
    flavour: Flavour,
) -> Formula {
    let mut parts = Vec::new();
    if let Some(g) = goal {
        if let Some(d) = &g.dish {
            let dish = Term::constant(&d.name);
            parts.push(atom("present", vec![dish.clone()]));
            if d.served {
                parts.push(atom("is", vec![dish.clone(), status("served")]));
            }
            for s in &d.states {
                parts.push(atom("is", vec![dish.clone(), status(s)]));
            }
            for ing in &g.ingredient {
                // Planning flavour: the dish is made of the ingredients in its container (in
                // Simmer a product's ingredients are only its container's contents, so a
                // planner could combine first and add them after). An ingredient is not
                // touched once combined, so it had its states before: the dish need not be
                // asked for them (a planner broke the batter to give it the egg's `broken`).
                // (Only for what one can carry: the tap a FILL leaves in the contents is no
                // part of the dish, and its states are still asked of the dish.)
                let grabbable = env
                    .objects
                    .iter()
                    .any(|o| o.id == ing.object && o.properties.iter().any(|p| p == "grabbable"));
                let inside = ing.container.as_deref() == Some(&d.container);
                if flavour == Flavour::Planning && grabbable && inside {
                    parts.push(atom(
                        "part-of",
                        vec![Term::constant(&ing.object), dish.clone()],
                    ));
                    continue;
                }
                // An ingredient elsewhere (the cake the icing is spread on) is no part of it.
                if !inside {
                    continue;
                }
                for s in &ing.states {
                    parts.push(atom("is", vec![dish.clone(), status(s)]));
                }
            }
        }
        for s in &g.serve {
            parts.push(atom("is", vec![Term::constant(s), status("served")]));
        }
        for ing in g.ingredient.iter().chain(&g.states) {
            let o = Term::constant(&ing.object);
            for s in &ing.states {
                parts.push(atom("is", vec![o.clone(), status(s)]));
            }
            if let Some(c) = &ing.container {
                parts.push(atom("in", vec![o.clone(), Term::constant(c)]));
            }
        }
    }
    let ids: Vec<String> = env
        .objects
        .iter()
        .map(|o| o.id.clone())
        .chain(spares.iter().map(|s| s.id.clone()))
        .collect();
    // The contamination sources: the task's protein objects, and what a plan may create
    // that can become one (a raw product of eggs contaminates what it touches).
    let mut sources = sources(world, env);
    sources.extend(
        spares_that_may_be_sources(world, spares)
            .into_iter()
            .map(|s| s.id.clone()),
    );
    for o in &ids {
        for s in &sources {
            if s != o {
                parts.push(not(atom(
                    "contaminated",
                    vec![Term::constant(o), Term::constant(s)],
                )));
            }
        }
    }
    for o in &ids {
        parts.push(not(atom("unwashed", vec![Term::constant(o)])));
    }
    for o in &env.objects {
        for h in &world.config.appliance_audit.hazards {
            if h.names.contains(&o.name) {
                parts.push(not(atom(
                    "is",
                    vec![Term::constant(&o.id), status(&h.state)],
                )));
            }
        }
    }
    and(parts)
}
