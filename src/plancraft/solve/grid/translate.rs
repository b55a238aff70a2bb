//! A grid-level plan read back: its steps turned into the agent's messages, simulated in the
//! environment, and replayed; a plan that wanders past the budget carried out without the steps
//! it does without.

use super::super::actions::{destination, empty_grid, move_items, place, smelt_one, take_output};
use super::super::{RecipeStep, SolveRow};
use super::{CELLS, GridCompiled, GridStep, compile_grid};
use crate::diagnostics::FileId;
use crate::plancraft::data::example::Example;
use crate::plancraft::data::world::{ItemId, World};
use crate::plancraft::env::episode::{EpisodeOptions, StoppedBy};
use crate::plancraft::env::slot::slot_name;
use crate::plancraft::env::{Environment, run};
use std::collections::{BTreeMap, BTreeSet};

/// A plan for the grid-level task (IPC plan text) turned into messages and replayed in the
/// environment; the row is `solved` when the replay succeeds, else `unknown` with the reason.
/// When the plan's messages do not succeed (greedy planners wander past the environment's
/// budget of 30 messages), the plan without the steps it does without is tried: greedy action
/// elimination in the environment, the steps left out named in the row's `left_out`.
pub fn from_grid_plan(world: &World, example: &Example, plan: &str) -> SolveRow {
    let compiled = compile_grid(world, example);
    let mut row = super::super::empty_row(world, example);
    let lines = match plan_lines(plan) {
        Ok(lines) => lines,
        Err(why) => {
            row.reason = Some(why);
            return row;
        }
    };
    let words: Vec<&[String]> = lines.iter().map(|(_, _, w)| w.as_slice()).collect();
    let dropped = round_trips(&compiled, &words);
    let plan = Translation {
        world,
        example,
        compiled: &compiled,
        lines: &lines,
    };
    match plan.messages(&dropped, &mut row.recipes) {
        Ok(actions) => {
            row.length = Some(row.recipes.len());
            super::super::replay(world, example, actions, &mut row);
        }
        Err((_, why)) => row.reason = Some(why),
    }
    if row.status == "solved" || row.replay.is_none() {
        return row;
    }
    let left_out = plan.redundant(&dropped);
    if left_out.is_empty() {
        return row;
    }
    let mut shorter = super::super::empty_row(world, example);
    let skipped: BTreeSet<usize> = dropped.union(&left_out).copied().collect();
    if let Ok(actions) = plan.messages(&skipped, &mut shorter.recipes) {
        shorter.length = Some(shorter.recipes.len());
        super::super::replay(world, example, actions, &mut shorter);
    }
    if shorter.status != "solved" {
        return row;
    }
    shorter.left_out = left_out.iter().map(|&k| lines[k].1.to_string()).collect();
    shorter
}

/// A plan's steps: line number, text and words.
type PlanLines<'p> = Vec<(usize, &'p str, Vec<String>)>;

/// The plan's steps, comments and blank lines left out.
fn plan_lines(plan: &str) -> Result<PlanLines<'_>, String> {
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
    Ok(lines)
}

/// A grid-level plan being translated.
struct Translation<'a, 'w> {
    world: &'w World,
    example: &'a Example,
    compiled: &'a GridCompiled,
    lines: &'a PlanLines<'a>,
}

impl Translation<'_, '_> {
    /// The messages of the plan's steps but those `skipped`, simulated in the environment from
    /// the example's slots as they are written; the recipes they apply go to `recipes`. A step
    /// that has no translation is an error, with its index.
    fn messages(
        &self,
        skipped: &BTreeSet<usize>,
        recipes: &mut Vec<RecipeStep>,
    ) -> Result<Vec<String>, (usize, String)> {
        let world = self.world;
        let mut environment = Environment::new(world, self.example.slots);
        let mut messages = Vec::new();
        empty_grid(world, &mut environment, &mut messages)
            .map_err(|why| (0, format!("the plan has no move/smelt translation: {why}")))?;
        for (k, (number, line, words)) in self.lines.iter().enumerate() {
            let Some((name, arguments)) = words.split_first() else {
                continue;
            };
            if skipped.contains(&k) {
                continue;
            }
            let mut step = Step {
                world,
                environment: &mut environment,
                messages: &mut messages,
            };
            step.apply(self.compiled, name, arguments, recipes)
                .map_err(|why| (k, format!("line {number} (`{line}`): {why}")))?;
        }
        Ok(messages)
    }

    /// Whether the messages make the target in the environment, however many they are.
    fn succeeds(&self, messages: &[String]) -> bool {
        let options = EpisodeOptions {
            max_steps: messages.len() + 1,
            ..EpisodeOptions::default()
        };
        let text = messages.join("\n");
        let result = run::run(self.world, self.example, &text, FileId(0), options);
        result.row.success && result.stopped_by == StoppedBy::Success
    }

    /// Greedy action elimination (Fink and Yang's), over groups of steps: a layout from
    /// `begin` to `end`, a craft with the steps that filled its cells and the clears after it,
    /// then each step alone. A group is tried out, with every later step that then has no
    /// translation; if the target is still made, they stay out. The steps left out, beyond
    /// `skipped`.
    fn redundant(&self, skipped: &BTreeSet<usize>) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        let translated = self.messages(skipped, &mut Vec::new());
        if !translated.is_ok_and(|messages| self.succeeds(&messages)) {
            return out;
        }
        for group in self.groups() {
            if group.iter().any(|k| skipped.contains(k) || out.contains(k)) {
                continue;
            }
            let last = group.iter().copied().max().unwrap_or_default();
            let mut trial: BTreeSet<usize> = skipped.union(&out).copied().collect();
            trial.extend(&group);
            let mut removed = group;
            loop {
                match self.messages(&trial, &mut Vec::new()) {
                    Err((failed, _)) if failed > last => {
                        trial.insert(failed);
                        removed.insert(failed);
                    }
                    Ok(messages) if self.succeeds(&messages) => {
                        out.extend(removed);
                        break;
                    }
                    _ => break,
                }
            }
        }
        out
    }

    /// The groups of steps `redundant` tries out, in that order.
    fn groups(&self) -> Vec<BTreeSet<usize>> {
        let names: Vec<&str> = self
            .lines
            .iter()
            .map(|(_, _, words)| words.first().map_or("", String::as_str))
            .collect();
        let (mut layouts, mut crafts) = (Vec::new(), Vec::new());
        let mut begun = 0;
        let mut prepared = 0;
        for (k, &name) in names.iter().enumerate() {
            match name {
                "begin" => (begun, prepared) = (k, k + 1),
                "end" => layouts.push((begun..=k).collect::<BTreeSet<usize>>()),
                _ if matches!(self.compiled.steps.get(name), Some(GridStep::Craft { .. })) => {
                    let clears = names[k + 1..].iter().take_while(|&&n| n == "clear").count();
                    crafts.push((prepared..=k + clears).collect::<BTreeSet<usize>>());
                    prepared = k + 1;
                }
                _ => {}
            }
        }
        // Bookkeeping steps send nothing: leaving one out alone changes no message.
        let singles = (0..names.len())
            .filter(|&k| !matches!(names[k], "begin" | "end" | "clear"))
            .map(|k| BTreeSet::from([k]));
        layouts.into_iter().chain(crafts).chain(singles).collect()
    }
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
        match compiled.steps.get(name) {
            Some(GridStep::Craft { .. }) => {
                touching.iter_mut().for_each(|t| t.push(k));
                continue;
            }
            Some(GridStep::Lay { slots, .. }) => {
                slots.iter().for_each(|&slot| touching[slot - 1].push(k));
                continue;
            }
            _ => {}
        }
        // The cell and the item a grid step names (`fill ?l ?c ?g ?i`, `take-back ?i ?c`).
        let (cell, item) = match name {
            "take-back" => (2, 1),
            "unfill" | "unfill-last" => (2, 3),
            "fill" | "fill-first" => (2, 4),
            "clear" => (1, 2),
            _ => continue,
        };
        let Some(cell) = words
            .get(cell)
            .and_then(|w| CELLS.iter().position(|c| c == w))
        else {
            continue;
        };
        let placed = touching[cell].last().copied().filter(|&p| {
            matches!(name, "unfill" | "unfill-last")
                && matches!(
                    steps[p].first().map(String::as_str),
                    Some("fill" | "fill-first")
                )
                && steps[p].get(4) == words.get(item)
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
            "fill" | "fill-first" => {
                let (item, cell) = (self.item(arguments, 3)?, cell(arguments, 1)?);
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
            "unfill" | "unfill-last" => {
                let (item, cell) = (self.item(arguments, 2)?, cell(arguments, 1)?);
                self.take_back(item, cell)
            }
            "begin" | "end" | "clear" => Ok(()),
            _ => match compiled.steps.get(name) {
                Some(GridStep::Lay { item, slots }) => place(
                    world,
                    self.environment,
                    slots.iter().map(|&slot| (slot, *item)),
                    self.messages,
                ),
                Some(GridStep::Craft { recipe }) => {
                    let recipe = *recipe;
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
            steps: BTreeMap::from([
                ("craft-stick".to_string(), GridStep::Craft { recipe: 0 }),
                (
                    "lay-stick-bamboo".to_string(),
                    GridStep::Lay {
                        item: ItemId::default(),
                        slots: vec![1, 4],
                    },
                ),
            ]),
        };
        let steps = words(plan);
        let steps: Vec<&[String]> = steps.iter().map(Vec::as_slice).collect();
        round_trips(&compiled, &steps).into_iter().collect()
    }

    const FILL_A1: &str = "(fill layout-stick a1 any-planks oak_planks n2 n1)";
    const BACK_A1: &str = "(unfill layout-stick a1 oak_planks b1 n1 n2)";

    #[test]
    fn a_unit_filled_and_taken_back_untouched_sends_nothing() {
        let plan = format!(
            "{FILL_A1}\n(fill layout-stick b1 any-planks oak_planks n1 n0)\n{BACK_A1}\n{FILL_A1}"
        );
        assert_eq!(dropped(&plan), vec![0, 2]);
        // Nested round trips in one cell and another cell's in between.
        let plan = format!(
            "{FILL_A1}\n{BACK_A1}\n{FILL_A1}\n(fill layout-stick b1 any-planks oak_planks n1 \
             n0)\n(unfill-last layout-stick b1 oak_planks n0 n1)\n{BACK_A1}"
        );
        assert_eq!(dropped(&plan), vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_craft_lay_or_other_item_between_keeps_the_moves() {
        let craft = format!("{FILL_A1}\n(craft-stick n0 n4)\n{BACK_A1}");
        assert_eq!(dropped(&craft), Vec::<usize>::new());
        // A lay into a1 after the unit went back: the fill and its return still pair up, but a
        // take-back after the lay returns the laid unit.
        let lay = format!(
            "{FILL_A1}\n{BACK_A1}\n(lay-stick-bamboo n2 n0)\n(take-back oak_planks a1 n1 n2)"
        );
        assert_eq!(dropped(&lay), vec![0, 1]);
        let other = format!("{FILL_A1}\n(unfill-last layout-stick a1 birch_planks n1 n2)");
        assert_eq!(dropped(&other), Vec::<usize>::new());
        // A smelt touches no cell.
        let smelt = format!("{FILL_A1}\n(smelt-glass-sand n1 n0 n0 n1)\n{BACK_A1}");
        assert_eq!(dropped(&smelt), vec![0, 2]);
    }
}
