//! A task's formal goal as written (`domains/kitchen/tasks/NNN.toml`): the intended result,
//! the objects it names, and the reason when no plan can reach it (`K410`). `goal` lowers it
//! to the problem's goal formula.

use super::variants::creates;
use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic, FileId};
use crate::kitchen::data::world::{Primitive, World, toml_error};
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
                for a in world.actions.values().filter(|a| creates(a)) {
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
