//! An example compiled to classical PDDL at the grid level (semantics §6 and §13). The crafting
//! grid is exact: each of its nine cells (`a1`…`c3`, the slots `[A1]`…`[C3]`) is empty or holds
//! one unit of an item. The inventory's 36 slots are abstracted to how many of each relevant
//! item they hold, with the counter encoding's amounts, static sums and saturation bound
//! (`compile.rs`); whether a stack finds a free slot is left to the translation back.
//!
//! `place` moves one unit from the inventory into an empty cell and `take-back` moves it back.
//! A recipe cell that allows several relevant items (a tag, a list) is an `ingredient` object
//! with static `(accepts ?g ?i)` facts, and `commit` records that a cell's unit serves as that
//! ingredient, so that no action is grounded over the product of cells and alternatives. A
//! commit is not undone: a plan can always commit just before it crafts, so nothing is lost.
//! A cell that allows one relevant item is matched by `(holds ?c ?i)` directly. There is one
//! craft action per recipe and placement: a shaped pattern at every translation that fits (no
//! mirroring, as in the environment), a shapeless recipe in the cells from `a1` on in its
//! ingredient order (the environment accepts any cells; this is a restriction, and its plans
//! stay valid). It needs its cells filled and every other cell empty, empties them and adds the
//! result to the inventory. Smelting stays at the counter level, one unit per step.
//!
//! A plan translates to messages one for one: `place` is a move of one unit into the cell,
//! `take-back` the move back, a craft a move from `[0]`, a smelt a smelt; commits are
//! bookkeeping of the model and send nothing.

use super::actions::{destination, empty_grid, move_items, place, smelt_one, take_output};
use super::compile::{amount_facts, pddl_name, saturation_bound};
use super::model::{CounterModel, Transition, relaxed_closure};
use super::{RecipeStep, SolveOptions, SolveRow};
use crate::plancraft::data::example::Example;
use crate::plancraft::data::world::{ItemId, RecipeKind, World};
use crate::plancraft::env::Environment;
use crate::plancraft::env::slot::slot_name;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;

/// The grid's cells as objects, row-major: cell `k` is slot `k + 1`.
const CELLS: [&str; 9] = ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"];

/// An example compiled at the grid level.
#[derive(Clone, Debug)]
pub struct GridCompiled {
    pub domain: String,
    pub problem: String,
    /// The largest count represented.
    pub bound: u16,
    /// Crafting and smelting action name → what it applies.
    steps: BTreeMap<String, GridStep>,
}

/// What a crafting or smelting action of the compiled domain applies.
#[derive(Clone, Copy, Debug)]
enum GridStep {
    Craft { recipe: usize },
    Smelt { recipe: usize, input: ItemId },
}

/// What a recipe cell needs: nothing (it stays empty), the one relevant item it allows, or an
/// ingredient (index into the ingredient table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Need {
    Empty,
    Item(ItemId),
    Ingredient(usize),
}

/// The ingredient objects: one per distinct set of relevant items a cell allows, when the set
/// has more than one item.
#[derive(Default)]
struct Ingredients {
    names: Vec<String>,
    accepts: Vec<Vec<ItemId>>,
    by_set: HashMap<Vec<ItemId>, usize>,
}

/// What the actions' text names, collected while they are written.
#[derive(Default)]
struct Named {
    items: BTreeSet<ItemId>,
    deltas: BTreeSet<u16>,
    /// Whether a craft action names the cells (every craft names all nine).
    cells: bool,
}

/// The grid-level domain and problem, with the same relevant items and saturation bound as
/// the counter encoding.
pub fn compile_grid(world: &World, example: &Example) -> GridCompiled {
    let plan = super::shortest_transitions(world, example, SolveOptions::default());
    let held = super::held_types(example);
    let available = relaxed_closure(world, &held);
    let model = CounterModel::new(world, example.target, &available);
    let start = super::start_counts(&model, example);
    let bound = saturation_bound(&start, plan.as_deref());
    let target = model.items.get(model.target).copied();
    let relevant: BTreeSet<ItemId> = model.items.iter().copied().collect();
    let mut ingredients = Ingredients::default();
    let mut named = Named::default();
    named.deltas.insert(1);
    let mut steps = BTreeMap::new();
    let mut action_text = String::new();
    let mut recipes_done = BTreeSet::new();
    for transition in &model.transitions {
        let recipe = &world.recipes()[transition.recipe];
        let file = recipe.file.replace('_', "-");
        if let RecipeKind::Smelting { .. } = recipe.kind {
            let Some(&(input, _)) = transition.consumes.first() else {
                continue;
            };
            let input = model.items[input];
            let name = format!("smelt-{file}-{}", world.name(input).replace('_', "-"));
            action_text.push_str(&smelt_action(world, transition, &model, &name, &mut named));
            let step = GridStep::Smelt {
                recipe: transition.recipe,
                input,
            };
            steps.insert(name, step);
            continue;
        }
        if !recipes_done.insert(transition.recipe) {
            continue;
        }
        let Some((width, needs)) = recipe_needs(world, &recipe.kind, &relevant, &mut ingredients)
        else {
            continue;
        };
        for (origin, grid) in placements(&recipe.kind, width, &needs) {
            let name = match recipe.kind {
                RecipeKind::Shaped { .. } => format!("craft-{file}-{}", CELLS[origin]),
                _ => format!("craft-{file}"),
            };
            let made = Some(recipe.result) == target;
            let craft = craft_action(world, &ingredients, &name, &grid, recipe, made, &mut named);
            action_text.push_str(&craft);
            let step = GridStep::Craft {
                recipe: transition.recipe,
            };
            steps.insert(name, step);
        }
    }
    let domain = domain_text(world, example, &ingredients, &named, &action_text);
    let problem = problem_text(world, example, &model, &start, bound, &ingredients, &named);
    GridCompiled {
        domain,
        problem,
        bound,
        steps,
    }
}

/// The recipe's cells (a shaped pattern's, row-major; a shapeless recipe's ingredients in
/// order) as needs, and the width of the pattern (a shapeless recipe's count of ingredients);
/// `None` when a cell allows no relevant item.
fn recipe_needs(
    world: &World,
    kind: &RecipeKind,
    relevant: &BTreeSet<ItemId>,
    ingredients: &mut Ingredients,
) -> Option<(usize, Vec<Need>)> {
    let mut need = |allowed: &Vec<ItemId>| -> Option<Need> {
        let kept: Vec<ItemId> = allowed
            .iter()
            .copied()
            .filter(|i| relevant.contains(i))
            .collect();
        match kept.as_slice() {
            [] => None,
            [item] => Some(Need::Item(*item)),
            _ => Some(Need::Ingredient(ingredients.index(world, allowed, kept))),
        }
    };
    match kind {
        RecipeKind::Shaped { width, cells, .. } => Some((
            usize::from(*width),
            cells
                .iter()
                .map(|cell| cell.as_ref().map_or(Some(Need::Empty), &mut need))
                .collect::<Option<Vec<Need>>>()?,
        )),
        RecipeKind::Shapeless { ingredients, .. } => Some((
            ingredients.len(),
            ingredients
                .iter()
                .map(need)
                .collect::<Option<Vec<Need>>>()?,
        )),
        RecipeKind::Smelting { .. } => None,
    }
}

impl Ingredients {
    /// The ingredient accepting `kept` (the relevant items of `allowed`), named after the tag
    /// whose items `allowed` are, if there is one.
    fn index(&mut self, world: &World, allowed: &[ItemId], kept: Vec<ItemId>) -> usize {
        if let Some(&index) = self.by_set.get(&kept) {
            return index;
        }
        let tag = world.tags().iter().find(|(_, items)| {
            let mut items = (*items).clone();
            items.sort_unstable();
            items.dedup();
            items == allowed
        });
        let mut name = match tag {
            Some((tag, _)) => format!("any-{}", tag.replace('_', "-")),
            None => format!("any-of-{}", world.name(kept[0]).replace('_', "-")),
        };
        if self.names.contains(&name) {
            name = format!("{name}-{}", self.names.len());
        }
        let index = self.names.len();
        self.names.push(name);
        self.by_set.insert(kept.clone(), index);
        self.accepts.push(kept);
        index
    }
}

/// Every placement of the recipe in the grid: the top-left cell and what each of the nine
/// cells needs. A shaped pattern goes at every translation that fits; a shapeless recipe's
/// ingredients fill the cells from `a1` on.
fn placements(kind: &RecipeKind, width: usize, needs: &[Need]) -> Vec<(usize, [Need; 9])> {
    let mut out = Vec::new();
    if needs.is_empty() || needs.len() > 9 || width == 0 {
        return out;
    }
    match kind {
        RecipeKind::Shaped { height, .. } => {
            let height = usize::from(*height);
            if width > 3 || height > 3 {
                return out;
            }
            for row in 0..=3 - height {
                for column in 0..=3 - width {
                    let mut grid = [Need::Empty; 9];
                    for (k, &need) in needs.iter().enumerate() {
                        grid[(row + k / width) * 3 + column + k % width] = need;
                    }
                    out.push((row * 3 + column, grid));
                }
            }
        }
        _ => {
            let mut grid = [Need::Empty; 9];
            grid[..needs.len()].copy_from_slice(needs);
            out.push((0, grid));
        }
    }
    out
}

/// A craft at one placement: its cells filled as needed and the others empty; it empties them
/// and adds the result to the inventory's count.
fn craft_action(
    world: &World,
    ingredients: &Ingredients,
    name: &str,
    grid: &[Need; 9],
    recipe: &crate::plancraft::data::world::Recipe,
    makes_target: bool,
    named: &mut Named,
) -> String {
    let (mut precondition, mut effect) = (Vec::new(), Vec::new());
    named.cells = true;
    for (cell, need) in CELLS.iter().zip(grid) {
        let fact = match *need {
            Need::Empty => {
                precondition.push(format!("(empty {cell})"));
                continue;
            }
            Need::Item(item) => {
                named.items.insert(item);
                format!("(holds {cell} {})", world.name(item))
            }
            Need::Ingredient(g) => format!("(committed {cell} {})", ingredients.names[g]),
        };
        precondition.push(fact.clone());
        effect.push(format!("(not {fact})"));
        effect.push(format!("(empty {cell})"));
    }
    let result = world.name(recipe.result);
    let count = u16::from(recipe.count);
    named.items.insert(recipe.result);
    named.deltas.insert(count);
    precondition.push(format!("(count {result} ?a) (plus ?a n{count} ?b)"));
    effect.push(format!("(not (count {result} ?a)) (count {result} ?b)"));
    if makes_target {
        effect.push("(made-target)".to_string());
    }
    format!(
        "  (:action {name}\n    :parameters (?a ?b - amount)\n    :precondition (and {})\n    \
         :effect (and {}))\n",
        precondition.join(" "),
        effect.join(" ")
    )
}

/// One smelted unit: the input's count falls by one, the result's grows by one.
fn smelt_action(
    world: &World,
    transition: &Transition,
    model: &CounterModel,
    name: &str,
    named: &mut Named,
) -> String {
    let input = model.items[transition.consumes[0].0];
    let result = model.items[transition.makes];
    named.items.extend([input, result]);
    let (input, result) = (world.name(input), world.name(result));
    let made = if transition.makes == model.target {
        " (made-target)"
    } else {
        ""
    };
    format!(
        "  (:action {name}\n    :parameters (?a ?b ?c ?d - amount)\n    :precondition (and \
         (count {input} ?a) (minus ?a n1 ?b) (count {result} ?c) (plus ?c n1 ?d))\n    :effect \
         (and (not (count {input} ?a)) (count {input} ?b) (not (count {result} ?c)) (count \
         {result} ?d){made}))\n"
    )
}

/// The domain: the grid actions, then the crafts and smelts.
fn domain_text(
    world: &World,
    example: &Example,
    ingredients: &Ingredients,
    named: &Named,
    action_text: &str,
) -> String {
    let mut constants = String::new();
    if named.cells {
        let _ = write!(constants, "\n    {} - cell", CELLS.join(" "));
    }
    if !ingredients.names.is_empty() {
        let _ = write!(
            constants,
            "\n    {} - ingredient",
            ingredients.names.join(" ")
        );
    }
    if !named.items.is_empty() {
        let items: Vec<&str> = named.items.iter().map(|&i| world.name(i)).collect();
        let _ = write!(constants, "\n    {} - item", items.join(" "));
    }
    let amounts: Vec<String> = named.deltas.iter().map(|d| format!("n{d}")).collect();
    let _ = write!(constants, "\n    {} - amount", amounts.join(" "));
    format!(
        ";; Plancraft example {} at the grid level, compiled by pddlc (docs/plancraft.md).\n\
         (define (domain plancraft-grid-{})\n  (:requirements :strips :typing)\n  \
         (:types item amount cell ingredient)\n  (:constants{constants})\n  (:predicates\n    \
         (count ?i - item ?n - amount)\n    (minus ?a - amount ?d - amount ?b - amount)\n    \
         (plus ?a - amount ?d - amount ?b - amount)\n    (empty ?c - cell)\n    \
         (holds ?c - cell ?i - item)\n    (accepts ?g - ingredient ?i - item)\n    \
         (committed ?c - cell ?g - ingredient)\n    (made-target))\n{GRID_ACTIONS}{action_text})\n",
        example.id,
        pddl_name(&example.id),
    )
}

/// The actions on the grid itself: one unit into an empty cell and back, and a commit.
const GRID_ACTIONS: &str = "  (:action place
    :parameters (?i - item ?c - cell ?a ?b - amount)
    :precondition (and (empty ?c) (count ?i ?a) (minus ?a n1 ?b))
    :effect (and (not (empty ?c)) (holds ?c ?i) (not (count ?i ?a)) (count ?i ?b)))
  (:action take-back
    :parameters (?i - item ?c - cell ?a ?b - amount)
    :precondition (and (holds ?c ?i) (count ?i ?a) (plus ?a n1 ?b))
    :effect (and (not (holds ?c ?i)) (empty ?c) (not (count ?i ?a)) (count ?i ?b)))
  (:action commit
    :parameters (?c - cell ?g - ingredient ?i - item)
    :precondition (and (holds ?c ?i) (accepts ?g ?i))
    :effect (and (not (holds ?c ?i)) (committed ?c ?g)))
";

/// The problem: the counts held (the grid's content counted as held: the translation empties
/// the grid first), an empty grid, what each ingredient accepts, the sums.
fn problem_text(
    world: &World,
    example: &Example,
    model: &CounterModel,
    start: &[u16],
    bound: u16,
    ingredients: &Ingredients,
    named: &Named,
) -> String {
    let mut objects = String::new();
    if !named.cells {
        let _ = write!(objects, "{} - cell\n    ", CELLS.join(" "));
    }
    let other_items: Vec<&str> = model
        .items
        .iter()
        .filter(|i| !named.items.contains(i))
        .map(|&i| world.name(i))
        .collect();
    if !other_items.is_empty() {
        let _ = write!(objects, "{} - item\n    ", other_items.join(" "));
    }
    let numbers: Vec<String> = (0..=bound)
        .filter(|n| !named.deltas.contains(n))
        .map(|n| format!("n{n}"))
        .collect();
    let _ = write!(objects, "{} - amount", numbers.join(" "));
    let mut init = String::new();
    for (&item, &held) in model.items.iter().zip(start) {
        let _ = writeln!(
            init,
            "    (count {} n{})",
            world.name(item),
            held.min(bound)
        );
    }
    for cell in CELLS {
        let _ = writeln!(init, "    (empty {cell})");
    }
    for (name, accepted) in ingredients.names.iter().zip(&ingredients.accepts) {
        for &item in accepted {
            let _ = writeln!(init, "    (accepts {name} {})", world.name(item));
        }
    }
    init.push_str(&amount_facts(&named.deltas, bound));
    format!(
        ";; Counts saturate at {bound}. The inventory's slots are abstracted to counts; the grid \
         is exact.\n(define (problem plancraft-grid-{}-task)\n  (:domain plancraft-grid-{})\n  \
         (:objects\n    {objects})\n  (:init\n{init}  )\n  (:goal (made-target)))\n",
        pddl_name(&example.id),
        pddl_name(&example.id),
    )
}

/// A plan for the grid-level task (IPC plan text) turned into messages and replayed in the
/// environment; the row is `solved` when the replay succeeds, else `unknown` with the reason.
pub fn from_grid_plan(world: &World, example: &Example, plan: &str) -> SolveRow {
    let compiled = compile_grid(world, example);
    let mut row = super::empty_row(world, example);
    match translate_plan(world, example, &compiled, plan, &mut row.recipes) {
        Ok(actions) => {
            row.length = Some(row.recipes.len());
            super::replay(world, example, actions, &mut row);
        }
        Err(why) => row.reason = Some(why),
    }
    row
}

/// The messages of a plan, simulated in the environment from the example's slots as they are
/// written; the recipes it applies go to `recipes`. A unit placed in a cell and taken back
/// before anything else touches the cell sends no messages (see `round_trips`).
fn translate_plan(
    world: &World,
    example: &Example,
    compiled: &GridCompiled,
    plan: &str,
    recipes: &mut Vec<RecipeStep>,
) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    for (number, line) in plan.lines().enumerate() {
        let line = line.split(';').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let words = plan_words(line);
        if words.is_empty() {
            return Err(format!("line {}: `{line}` is not an action", number + 1));
        }
        lines.push((number + 1, line, words));
    }
    let words: Vec<&[String]> = lines.iter().map(|(_, _, w)| w.as_slice()).collect();
    let dropped = round_trips(compiled, &words);
    let mut environment = Environment::new(world, example.slots);
    let mut messages = Vec::new();
    empty_grid(world, &mut environment, &mut messages)
        .map_err(|why| format!("the plan has no move/smelt translation: {why}"))?;
    for (k, (number, line, words)) in lines.iter().enumerate() {
        let Some((name, arguments)) = words.split_first() else {
            continue;
        };
        if dropped.contains(&k) {
            continue;
        }
        let mut step = Step {
            world,
            environment: &mut environment,
            messages: &mut messages,
        };
        step.apply(compiled, name, arguments, recipes)
            .map_err(|why| format!("line {number} (`{line}`): {why}"))?;
    }
    Ok(messages)
}

/// The plan steps (by index) that are round trips: a `place` of an item in a cell and the
/// `take-back` of that item from that cell when no step between touches the cell (a craft
/// touches every cell). Leaving both out changes nothing but the inventory's count of the item
/// in between, which is one more, and holding more never stops a move or a smelt; it spares
/// the environment's 30-message budget the wandering of greedy planners.
fn round_trips(compiled: &GridCompiled, steps: &[&[String]]) -> BTreeSet<usize> {
    let mut dropped = BTreeSet::new();
    // Per cell, the steps that touch it and are kept so far.
    let mut touching: [Vec<usize>; 9] = Default::default();
    for (k, words) in steps.iter().enumerate() {
        let name = words.first().map_or("", String::as_str);
        if let Some(GridStep::Craft { .. }) = compiled.steps.get(name) {
            touching.iter_mut().for_each(|t| t.push(k));
            continue;
        }
        // The cell a grid step names: `place` and `take-back` name it second, `commit` first.
        let at = if name == "commit" { 1 } else { 2 };
        let cell = words
            .get(at)
            .and_then(|w| CELLS.iter().position(|c| c == w));
        let Some(cell) = cell.filter(|_| matches!(name, "place" | "take-back" | "commit")) else {
            continue;
        };
        let placed = touching[cell].last().copied().filter(|&p| {
            name == "take-back"
                && steps[p].first().map(String::as_str) == Some("place")
                && steps[p].get(1) == words.get(1)
        });
        if let Some(p) = placed {
            touching[cell].pop();
            dropped.extend([p, k]);
        } else {
            touching[cell].push(k);
        }
    }
    dropped
}

/// A plan line's action name and arguments, lowercase: `(place oak_planks a1 n4 n3)`, with an
/// optional `step:` prefix as some planners write.
fn plan_words(line: &str) -> Vec<String> {
    line.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ':' || c == ' ')
        .trim_start_matches('(')
        .trim_end_matches(|c: char| c == ')' || c.is_whitespace())
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect()
}

/// The environment a plan is translated in, and the messages so far.
struct Step<'a, 'w> {
    world: &'w World,
    environment: &'a mut Environment<'w>,
    messages: &'a mut Vec<String>,
}

impl Step<'_, '_> {
    fn apply(
        &mut self,
        compiled: &GridCompiled,
        name: &str,
        arguments: &[String],
        recipes: &mut Vec<RecipeStep>,
    ) -> Result<(), String> {
        let world = self.world;
        match name {
            "place" => {
                let (item, cell) = (self.item(arguments, 0)?, cell(arguments, 1)?);
                place(
                    world,
                    self.environment,
                    std::iter::once((cell, item)),
                    self.messages,
                )
            }
            "take-back" => {
                let (item, cell) = (self.item(arguments, 0)?, cell(arguments, 1)?);
                self.take_back(item, cell)
            }
            "commit" => Ok(()),
            _ => match compiled.steps.get(name) {
                Some(&GridStep::Craft { recipe }) => {
                    recipes.push(self.craft(recipe)?);
                    Ok(())
                }
                Some(&GridStep::Smelt { recipe, input }) => {
                    let made = world.recipes()[recipe].result;
                    smelt_one(world, self.environment, input, made, self.messages)?;
                    recipes.push(recipe_step(world, recipe, [(input, 1)].into()));
                    Ok(())
                }
                None => Err(format!("`{name}` is not an action of the compiled domain")),
            },
        }
    }

    fn item(&self, arguments: &[String], k: usize) -> Result<ItemId, String> {
        let name = arguments.get(k).ok_or("too few arguments")?;
        self.world
            .id(name)
            .ok_or_else(|| format!("`{name}` is not an item"))
    }

    /// One unit from the cell back into the inventory.
    fn take_back(&mut self, item: ItemId, cell: usize) -> Result<(), String> {
        let world = self.world;
        let slots = self.environment.slots();
        if slots[cell].is_none_or(|stack| stack.item != item) {
            return Err(format!(
                "{} does not hold {}",
                slot_name(cell),
                world.name(item)
            ));
        }
        let to = destination(world, slots, item, 1).ok_or("no inventory slot is free")?;
        move_items(world, self.environment, (cell, to), 1, self.messages)
    }

    /// Takes the output, which must be the recipe's result.
    fn craft(&mut self, recipe: usize) -> Result<RecipeStep, String> {
        let world = self.world;
        let result = world.recipes()[recipe].result;
        let slots = self.environment.slots();
        match slots[0] {
            Some(stack) if stack.item == result => {}
            Some(stack) => {
                return Err(format!(
                    "the grid makes {}, not {}",
                    world.name(stack.item),
                    world.name(result)
                ));
            }
            None => return Err("the grid makes nothing".to_string()),
        }
        let mut uses: BTreeMap<ItemId, u16> = BTreeMap::new();
        for stack in slots[1..10].iter().flatten() {
            *uses.entry(stack.item).or_default() += 1;
        }
        take_output(world, self.environment, self.messages)?;
        Ok(recipe_step(world, recipe, uses))
    }
}

/// The slot of the cell named by argument `k`.
fn cell(arguments: &[String], k: usize) -> Result<usize, String> {
    let name = arguments.get(k).ok_or("too few arguments")?;
    CELLS
        .iter()
        .position(|c| c == name)
        .map(|k| k + 1)
        .ok_or_else(|| format!("`{name}` is not a cell"))
}

fn recipe_step(world: &World, recipe: usize, uses: BTreeMap<ItemId, u16>) -> RecipeStep {
    let recipe = &world.recipes()[recipe];
    RecipeStep {
        recipe: recipe.file.clone(),
        kind: recipe.kind.name(),
        result: world.name(recipe.result).to_string(),
        count: u16::from(recipe.count),
        uses: uses
            .into_iter()
            .map(|(item, n)| (world.name(item).to_string(), n))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(plan: &str) -> Vec<Vec<String>> {
        plan.lines().map(plan_words).collect()
    }

    fn dropped(plan: &str) -> Vec<usize> {
        let compiled = GridCompiled {
            domain: String::new(),
            problem: String::new(),
            bound: 1,
            steps: BTreeMap::from([("craft-stick-a1".to_string(), GridStep::Craft { recipe: 0 })]),
        };
        let steps = words(plan);
        let steps: Vec<&[String]> = steps.iter().map(Vec::as_slice).collect();
        round_trips(&compiled, &steps).into_iter().collect()
    }

    #[test]
    fn a_unit_placed_and_taken_back_untouched_sends_nothing() {
        let plan = "(place oak_planks a1 n2 n1)\n(place glass b1 n1 n0)\n\
                    (take-back oak_planks a1 n1 n2)\n(place oak_planks a1 n2 n1)";
        assert_eq!(dropped(plan), vec![0, 2]);
        // Nested round trips in one cell and another cell's in between.
        let plan = "(place glass a1 n2 n1)\n(take-back glass a1 n1 n2)\n(place glass a1 n2 n1)\n\
                    (place glass b1 n1 n0)\n(take-back glass b1 n0 n1)\n(take-back glass a1 n1 n2)";
        assert_eq!(dropped(plan), vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_craft_commit_or_other_item_between_keeps_the_moves() {
        let craft =
            "(place oak_planks a1 n2 n1)\n(craft-stick-a1 n0 n4)\n(take-back oak_planks a1 n1 n2)";
        assert_eq!(dropped(craft), Vec::<usize>::new());
        let commit = "(place oak_planks a1 n2 n1)\n(commit a1 any-planks oak_planks)\n\
                      (take-back oak_planks a1 n1 n2)";
        assert_eq!(dropped(commit), Vec::<usize>::new());
        let other = "(place oak_planks a1 n2 n1)\n(take-back birch_planks a1 n1 n2)";
        assert_eq!(dropped(other), Vec::<usize>::new());
        // A smelt touches no cell.
        let smelt =
            "(place glass a1 n2 n1)\n(smelt-glass-sand n1 n0 n0 n1)\n(take-back glass a1 n1 n2)";
        assert_eq!(dropped(smelt), vec![0, 2]);
    }
}
