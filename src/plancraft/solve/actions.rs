//! A recipe sequence turned into the agent's messages, simulated in the environment as it
//! goes: each crafting step places one item per used cell (a shaped pattern at the top left,
//! a shapeless recipe's items from `[A1]` on) and takes the output into the inventory; a
//! smelting step smelts one unit into the inventory. Sources are the first slots holding the
//! item; destinations a stack of the same item with room, else the first empty inventory slot.

use crate::plancraft::data::world::{ItemId, RecipeKind, World};
use crate::plancraft::env::slot::slot_name;
use crate::plancraft::env::{Environment, SLOTS, Slots};

/// A step to translate: the recipe and the items it consumes, one per used cell, in the
/// order the cells are filled (for a shaped recipe, row-major over its non-empty cells).
#[derive(Clone, Debug)]
pub struct CraftStep {
    pub recipe: usize,
    pub cells: Vec<ItemId>,
}

/// The messages, or why a step cannot be translated (no room, an item not held).
pub fn translate(world: &World, start: &Slots, steps: &[CraftStep]) -> Result<Vec<String>, String> {
    let mut environment = Environment::new(world, *start);
    let mut actions = Vec::new();
    empty_grid(world, &mut environment, &mut actions)?;
    for (number, step) in steps.iter().enumerate() {
        let recipe = &world.recipes()[step.recipe];
        let fail = |why: String| format!("step {} ({}): {why}", number + 1, recipe.file);
        match &recipe.kind {
            RecipeKind::Smelting { .. } => {
                let item = *step
                    .cells
                    .first()
                    .ok_or_else(|| fail("nothing to smelt".into()))?;
                smelt_one(world, &mut environment, item, recipe.result, &mut actions)
                    .map_err(fail)?;
            }
            RecipeKind::Shaped { width, cells, .. } => {
                let width = usize::from(*width);
                let used = cells
                    .iter()
                    .enumerate()
                    .filter(|(_, cell)| cell.is_some())
                    .map(|(i, _)| (i / width) * 3 + i % width + 1);
                place(
                    world,
                    &mut environment,
                    used.zip(step.cells.iter().copied()),
                    &mut actions,
                )
                .map_err(fail)?;
                take_output(world, &mut environment, &mut actions).map_err(fail)?;
            }
            RecipeKind::Shapeless { .. } => {
                let used = (1..=step.cells.len()).zip(step.cells.iter().copied());
                place(world, &mut environment, used, &mut actions).map_err(fail)?;
                take_output(world, &mut environment, &mut actions).map_err(fail)?;
            }
        }
    }
    Ok(actions)
}

/// Moves every stack the grid holds into the inventory: a grid holding items at the start
/// would spoil the first pattern.
pub(super) fn empty_grid(
    world: &World,
    environment: &mut Environment,
    actions: &mut Vec<String>,
) -> Result<(), String> {
    for slot in 1..10 {
        if let Some(stack) = environment.slots()[slot] {
            let to = destination(world, environment.slots(), stack.item, stack.quantity)
                .ok_or("no inventory slot is free to empty the grid")?;
            move_items(world, environment, (slot, to), stack.quantity, actions)?;
        }
    }
    Ok(())
}

/// Smelts one unit of the item from the first inventory slot holding it into the inventory.
pub(super) fn smelt_one(
    world: &World,
    environment: &mut Environment,
    item: ItemId,
    result: ItemId,
    actions: &mut Vec<String>,
) -> Result<(), String> {
    let from = holding(environment.slots(), item, 10)
        .ok_or_else(|| format!("no slot holds {}", world.name(item)))?;
    let to =
        destination(world, environment.slots(), result, 1).ok_or("no inventory slot is free")?;
    environment
        .smelt(from, to, 1)
        .map_err(|r| r.describe(world))?;
    actions.push(format!(
        "smelt: from {} to {} with quantity 1",
        slot_name(from),
        slot_name(to)
    ));
    Ok(())
}

pub(super) fn place(
    world: &World,
    environment: &mut Environment,
    cells: impl Iterator<Item = (usize, ItemId)>,
    actions: &mut Vec<String>,
) -> Result<(), String> {
    for (slot, item) in cells {
        let from = holding(environment.slots(), item, 10)
            .ok_or_else(|| format!("no inventory slot holds {}", world.name(item)))?;
        move_items(world, environment, (from, slot), 1, actions)?;
    }
    Ok(())
}

pub(super) fn take_output(
    world: &World,
    environment: &mut Environment,
    actions: &mut Vec<String>,
) -> Result<(), String> {
    let output = environment.slots()[0].ok_or("the grid makes nothing")?;
    let to = destination(world, environment.slots(), output.item, output.quantity)
        .ok_or("no inventory slot is free")?;
    move_items(world, environment, (0, to), output.quantity, actions)
}

/// Moves items from one slot to another and writes the message that does it.
pub(super) fn move_items(
    world: &World,
    environment: &mut Environment,
    (from, to): (usize, usize),
    quantity: u8,
    actions: &mut Vec<String>,
) -> Result<(), String> {
    environment
        .move_items(from, to, quantity)
        .map_err(|r| r.describe(world))?;
    actions.push(format!(
        "move: from {} to {} with quantity {quantity}",
        slot_name(from),
        slot_name(to)
    ));
    Ok(())
}

/// The first slot from `first` on holding the item.
fn holding(slots: &Slots, item: ItemId, first: usize) -> Option<usize> {
    (first..SLOTS).find(|&slot| slots[slot].is_some_and(|stack| stack.item == item))
}

/// A stack of the item with room for `quantity` more, else the first empty inventory slot.
pub(super) fn destination(
    world: &World,
    slots: &Slots,
    item: ItemId,
    quantity: u8,
) -> Option<usize> {
    let room = u16::from(world.item(item).stack_size);
    (10..SLOTS)
        .find(|&slot| {
            slots[slot].is_some_and(|stack| {
                stack.item == item && u16::from(stack.quantity) + u16::from(quantity) <= room
            })
        })
        .or_else(|| (10..SLOTS).find(|&slot| slots[slot].is_none()))
}
