//! `plancraft solve`: the fewest recipe applications that make an example's target (the
//! measure of the dataset's `optimal_path_length`), turned into move/smelt messages that are
//! run in the environment before they are given; or a proof that no sequence of recipes,
//! however long and with however many items, makes the target; or `unknown` when the search's
//! budget runs out.

mod actions;
mod compile;
mod grid;
mod model;
mod search;
mod weight;

pub use compile::Compiled;
pub use grid::{GridCompiled, compile_grid, from_grid_plan};
use model::{CounterModel, Transition, ancestors, relaxed_closure};
use search::{Search, search};

use crate::plancraft::data::example::Example;
use crate::plancraft::data::world::{ItemId, RecipeKind, World};
use crate::plancraft::env::episode::{EpisodeOptions, StoppedBy};
use crate::plancraft::env::run::{InventoryRow, inventory_row};
use actions::{CraftStep, translate};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// The version of `plancraft solve`'s JSON document.
pub const SOLVE_JSON_VERSION: u32 = 1;

/// How far the search may go.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Kept states before the answer is `unknown`.
    pub max_states: usize,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            max_states: 200_000,
        }
    }
}

/// One recipe application of a plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecipeStep {
    /// The recipe file's name.
    pub recipe: String,
    pub kind: &'static str,
    pub result: String,
    pub count: u16,
    /// The items consumed, with counts.
    pub uses: BTreeMap<String, u16>,
}

/// What the replay of the actions in the environment gave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Replay {
    pub success: bool,
    pub stopped_by: &'static str,
    pub number_of_steps: usize,
    pub final_inventory: InventoryRow,
}

/// The answer for one example: the document `plancraft solve --format json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct SolveRow {
    pub version: u32,
    pub example: String,
    pub target: String,
    /// `solved`, `impossible` or `unknown`.
    pub status: &'static str,
    /// The shortest recipe sequence (solved only).
    pub recipes: Vec<RecipeStep>,
    pub length: Option<usize>,
    /// The agent's messages that carry it out (solved only).
    pub actions: Vec<String>,
    /// The messages run in the environment.
    pub replay: Option<Replay>,
    /// Why the target cannot be made (impossible only), in words.
    pub proof: Option<String>,
    /// The argument the proof makes: `unreachable` (no amount of the held types makes the
    /// target), `weight` (a conserved weight the inventory has too little of) or `exhausted`
    /// (every reachable count explored).
    pub proof_kind: Option<&'static str>,
    /// Why there is no answer (unknown only).
    pub reason: Option<String>,
    /// `plan --encoding grid`: the steps of the PDDL plan left out of its translation, when the
    /// plan as written does not succeed in the environment and does without them (greedy
    /// action elimination, `grid/translate.rs`): greedy planners wander, and the environment's budget is
    /// 30 messages.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
    /// Counter states the search kept.
    pub states: usize,
    /// The dataset's labels, and whether the answer agrees with them.
    pub dataset_impossible: bool,
    pub dataset_length: Option<u32>,
    pub agrees_with_dataset: Option<bool>,
}

/// Solves an example.
pub fn solve(world: &World, example: &Example, options: SolveOptions) -> SolveRow {
    let mut row = empty_row(world, example);
    let held = held_types(example);
    let available = relaxed_closure(world, &held);
    if !available.contains(&example.target) {
        row.status = "impossible";
        row.proof_kind = Some("unreachable");
        row.proof = Some(unreachable_proof(world, example.target, &held, &available));
    } else {
        let model = CounterModel::new(world, example.target, &available);
        let start = start_counts(&model, example);
        if let Some(certificate) = weight::certificate(&model, &start) {
            row.status = "impossible";
            row.proof_kind = Some("weight");
            row.proof = Some(weight_proof(world, &model, &certificate));
        } else {
            match search(&model, start.into_boxed_slice(), options.max_states) {
                Search::Found(path) => {
                    let transitions: Vec<Transition> =
                        path.iter().map(|&t| model.transitions[t].clone()).collect();
                    carry_out(world, example, &model, &transitions, &mut row);
                }
                Search::Exhausted { states } => {
                    row.states = states;
                    row.status = "impossible";
                    row.proof_kind = Some("exhausted");
                    row.proof = Some(format!(
                        "every count of items reachable from the inventory was explored ({states} \
                         states; a state holding no more of any item than one reached in as few \
                         recipes was set aside, since holding more never stops a recipe), and \
                         none holds {}",
                        row.target
                    ));
                }
                Search::Cut { states } => {
                    row.states = states;
                    row.reason = Some(format!(
                        "the search kept {states} states (the budget) without making {} or \
                     exhausting the possibilities",
                        row.target
                    ));
                }
            }
        }
    }
    row.agrees_with_dataset = match row.status {
        "impossible" => Some(example.impossible),
        "solved" => Some(
            !example.impossible
                && example
                    .optimal_path_length
                    .is_none_or(|n| Some(n as usize) == row.length),
        ),
        _ => None,
    };
    row
}

/// The held counts of the model's items.
fn start_counts(model: &CounterModel, example: &Example) -> Vec<u16> {
    let mut start = vec![0u16; model.items.len()];
    for stack in example.slots[1..].iter().flatten() {
        if let Some(local) = model.items.iter().position(|&i| i == stack.item) {
            start[local] = start[local].saturating_add(u16::from(stack.quantity));
        }
    }
    start
}

/// Fills `row` with a recipe sequence, its messages and their replay; `solved` when the
/// replay succeeds.
fn carry_out(
    world: &World,
    example: &Example,
    model: &CounterModel,
    path: &[Transition],
    row: &mut SolveRow,
) {
    let mut steps = Vec::new();
    for transition in path {
        let recipe = &world.recipes()[transition.recipe];
        let uses: Vec<ItemId> = transition
            .consumes
            .iter()
            .flat_map(|&(item, n)| std::iter::repeat_n(model.items[item], usize::from(n)))
            .collect();
        row.recipes.push(RecipeStep {
            recipe: recipe.file.clone(),
            kind: recipe.kind.name(),
            result: world.name(recipe.result).to_string(),
            count: transition.count,
            uses: transition
                .consumes
                .iter()
                .map(|&(item, n)| (world.name(model.items[item]).to_string(), n))
                .collect(),
        });
        steps.push(CraftStep {
            recipe: transition.recipe,
            cells: cell_order(&recipe.kind, uses),
        });
    }
    row.length = Some(path.len());
    match translate(world, &example.slots, &steps) {
        Ok(actions) => replay(world, example, actions, row),
        Err(why) => row.reason = Some(format!("the plan has no move/smelt translation: {why}")),
    }
}

/// Runs the messages in the environment and records the replay in `row`: `solved` when it
/// succeeds.
fn replay(world: &World, example: &Example, mut actions: Vec<String>, row: &mut SolveRow) {
    if actions.is_empty() {
        // The target is held: any move or smelt ends the episode with success.
        if let Some(first) = first_target_move(example) {
            actions.push(first);
        }
    }
    let text = actions.join("\n");
    let result = crate::plancraft::env::run::run(
        world,
        example,
        &text,
        crate::diagnostics::FileId(0),
        EpisodeOptions::default(),
    );
    row.replay = Some(Replay {
        success: result.row.success,
        stopped_by: result.stopped_by.name(),
        number_of_steps: result.row.number_of_steps,
        final_inventory: inventory_row(world, &result.final_slots),
    });
    row.actions = actions;
    if result.row.success && result.stopped_by == StoppedBy::Success {
        row.status = "solved";
    } else {
        row.reason = Some(format!(
            "the plan's {} messages do not succeed in the environment (stopped by {})",
            row.actions.len(),
            result.stopped_by.name()
        ));
    }
}

/// The consumed items in the order of the cells a translation fills: for a shaped recipe,
/// an assignment of items to its non-empty cells that each cell allows.
fn cell_order(kind: &RecipeKind, uses: Vec<ItemId>) -> Vec<ItemId> {
    let RecipeKind::Shaped { cells, .. } = kind else {
        return uses;
    };
    let allowed: Vec<&Vec<ItemId>> = cells.iter().flatten().collect();
    let mut left = uses.clone();
    let mut chosen = Vec::new();
    if assign(&allowed, &mut left, &mut chosen) {
        chosen
    } else {
        uses
    }
}

fn assign(cells: &[&Vec<ItemId>], left: &mut Vec<ItemId>, chosen: &mut Vec<ItemId>) -> bool {
    let Some((cell, rest)) = cells.split_first() else {
        return true;
    };
    let mut tried = BTreeSet::new();
    for i in 0..left.len() {
        let item = left[i];
        if !cell.contains(&item) || !tried.insert(item) {
            continue;
        }
        left.remove(i);
        chosen.push(item);
        if assign(rest, left, chosen) {
            return true;
        }
        chosen.pop();
        left.insert(i, item);
    }
    false
}

fn first_target_move(example: &Example) -> Option<String> {
    use crate::plancraft::env::slot::slot_name;
    let from = (1..example.slots.len())
        .find(|&s| example.slots[s].is_some_and(|stack| stack.item == example.target))?;
    let to = (10..example.slots.len()).find(|&s| example.slots[s].is_none())?;
    Some(format!(
        "move: from {} to {} with quantity 1",
        slot_name(from),
        slot_name(to)
    ))
}

/// Why the relaxed fixpoint does not reach the target, in words.
fn unreachable_proof(
    world: &World,
    target: ItemId,
    held: &BTreeSet<ItemId>,
    available: &BTreeSet<ItemId>,
) -> String {
    let relevant = ancestors(world, target);
    let held_relevant: Vec<&str> = held
        .iter()
        .filter(|i| relevant.contains(i))
        .map(|&i| world.name(i))
        .collect();
    let makeable: Vec<&str> = available
        .iter()
        .filter(|i| relevant.contains(i) && !held.contains(i))
        .map(|&i| world.name(i))
        .collect();
    let held_text = if held_relevant.is_empty() {
        "nothing the target is made from".to_string()
    } else {
        held_relevant.join(", ")
    };
    let made_text = if makeable.is_empty() {
        "nothing more".to_string()
    } else {
        makeable.join(", ")
    };
    format!(
        "even with unlimited amounts of every item type held, {} cannot be made: of what it is \
         made from, the inventory holds {held_text}, and they make {made_text}; every recipe \
         for {} needs an item none of these is or makes",
        world.name(target),
        world.name(target)
    )
}

/// The weighing in words.
fn weight_proof(world: &World, model: &CounterModel, certificate: &weight::Certificate) -> String {
    let unit = world.name(model.items[certificate.unit]);
    let target = world.name(model.items[model.target]);
    let weights: Vec<String> = model
        .items
        .iter()
        .zip(&certificate.weights)
        .filter_map(|(&item, w)| Some((item, (*w)?)))
        .filter(|(_, w)| w.numerator > 0)
        .map(|(item, w)| format!("{} {w}", world.name(item)))
        .collect();
    let target_weight = certificate.weights[model.target]
        .map(|w| w.to_string())
        .unwrap_or_default();
    format!(
        "weigh every item by the least number of {unit} it can be made from ({}; anything \
         else 0): no recipe makes more weight than it consumes, so the inventory's weight, {}, \
         never grows, and one {target} weighs {target_weight}",
        weights.join(", "),
        certificate.inventory
    )
}

/// An example compiled to PDDL at the counter level (domain and problem text).
pub fn compile_counts(world: &World, example: &Example) -> Compiled {
    let plan = shortest_transitions(world, example, SolveOptions::default());
    compile::compile(world, example, plan.as_deref())
}

/// The shortest recipe sequence the search finds, if it finds one.
fn shortest_transitions(
    world: &World,
    example: &Example,
    options: SolveOptions,
) -> Option<Vec<Transition>> {
    let held = held_types(example);
    let available = relaxed_closure(world, &held);
    if !available.contains(&example.target) {
        return None;
    }
    let model = CounterModel::new(world, example.target, &available);
    let start = start_counts(&model, example);
    // A conserved weight proves there is no plan at once; the search would only run out.
    if weight::certificate(&model, &start).is_some() {
        return None;
    }
    match search(&model, start.into_boxed_slice(), options.max_states) {
        Search::Found(path) => Some(path.iter().map(|&t| model.transitions[t].clone()).collect()),
        _ => None,
    }
}

/// A plan for the compiled example (IPC plan text) turned into the agent's messages and
/// replayed in the environment: the row's status is `solved` when the replay succeeds, else
/// `unknown` with the reason (a line naming no compiled action, a step with no translation,
/// a replay that does not succeed).
pub fn from_pddl_plan(world: &World, example: &Example, plan: &str) -> SolveRow {
    let compiled = compile_counts(world, example);
    let mut row = empty_row(world, example);
    match compile::plan_transitions(&compiled, plan) {
        Ok(transitions) => carry_out(world, example, &compiled.model, &transitions, &mut row),
        Err(why) => row.reason = Some(why),
    }
    row
}

/// The PDDL encodings `plancraft compile` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    /// Counts of items; an action per way to apply a recipe (`compile.rs`).
    #[default]
    Counts,
    /// The exact crafting grid, the inventory as counts (`grid/`).
    Grid,
}

impl Encoding {
    pub const ALL: [Encoding; 2] = [Encoding::Counts, Encoding::Grid];

    /// `counts` or `grid`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Counts => "counts",
            Encoding::Grid => "grid",
        }
    }

    pub fn from_name(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.name() == name)
    }
}

/// The example's domain and problem in an encoding.
pub fn compile_pddl(world: &World, example: &Example, encoding: Encoding) -> (String, String) {
    match encoding {
        Encoding::Counts => {
            let compiled = compile_counts(world, example);
            (compiled.domain, compiled.problem)
        }
        Encoding::Grid => {
            let compiled = compile_grid(world, example);
            (compiled.domain, compiled.problem)
        }
    }
}

/// A plan for [`compile_pddl`]'s task in an encoding, turned into messages and replayed.
pub fn from_pddl_plan_in(
    world: &World,
    example: &Example,
    plan: &str,
    encoding: Encoding,
) -> SolveRow {
    match encoding {
        Encoding::Counts => from_pddl_plan(world, example, plan),
        Encoding::Grid => from_grid_plan(world, example, plan),
    }
}

fn empty_row(world: &World, example: &Example) -> SolveRow {
    SolveRow {
        version: SOLVE_JSON_VERSION,
        example: example.id.clone(),
        target: world.name(example.target).to_string(),
        status: "unknown",
        recipes: Vec::new(),
        length: None,
        actions: Vec::new(),
        replay: None,
        proof: None,
        proof_kind: None,
        reason: None,
        left_out: Vec::new(),
        states: 0,
        dataset_impossible: example.impossible,
        dataset_length: example.optimal_path_length,
        agrees_with_dataset: None,
    }
}

/// The item types the example holds (outside the output slot).
fn held_types(example: &Example) -> BTreeSet<ItemId> {
    example.slots[1..]
        .iter()
        .flatten()
        .map(|s| s.item)
        .collect()
}
