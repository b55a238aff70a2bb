//! The environment's state and its two actions, `move` and `smelt`, rule for rule as
//! Plancraft's `PlancraftEnvironment` runs them (semantics §5). A refused action changes
//! nothing (with one exception the reference has too: a smelt of something no recipe takes,
//! from or into the grid, recomputes the output slot) and says why.

use super::grid::{Craft, Grid, craft};
use super::slot::slot_name;
use crate::plancraft::data::world::{ItemId, World};

/// Slots: 0 the output, 1–9 the grid, 10–45 the inventory.
pub const SLOTS: usize = 46;

/// What one slot holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stack {
    pub item: ItemId,
    pub quantity: u8,
}

/// Every slot's content.
pub type Slots = [Option<Stack>; SLOTS];

/// Why the environment left its state as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    SameSlot,
    /// No slot has that index, or the target is the output slot.
    OutOfRange {
        slot: usize,
    },
    NoQuantity,
    SourceEmpty {
        slot: usize,
    },
    TooFew {
        slot: usize,
        held: u8,
        asked: u8,
    },
    OtherType {
        slot: usize,
        held: ItemId,
        moved: ItemId,
    },
    StackFull {
        slot: usize,
        held: u8,
        added: u8,
        stack_size: u8,
    },
    FromOutput,
    NotSmeltable {
        slot: usize,
        item: ItemId,
    },
}

impl Refusal {
    /// The reason in words, naming items by the world's names.
    pub fn describe(&self, world: &World) -> String {
        match self {
            Refusal::SameSlot => "the source and the target are the same slot".to_string(),
            Refusal::OutOfRange { slot: 0 } => {
                "nothing can be put into the output slot [0]".to_string()
            }
            Refusal::OutOfRange { slot } => format!("there is no slot {slot}"),
            Refusal::NoQuantity => "the quantity is 0".to_string(),
            Refusal::SourceEmpty { slot } => format!("{} is empty", slot_name(*slot)),
            Refusal::TooFew { slot, held, asked } => format!(
                "{} holds {held}, fewer than the {asked} asked for",
                slot_name(*slot)
            ),
            Refusal::OtherType { slot, held, moved } => format!(
                "{} holds {}, not {}: items are never swapped",
                slot_name(*slot),
                world.name(*held),
                world.name(*moved)
            ),
            Refusal::StackFull {
                slot,
                held,
                added,
                stack_size,
            } => format!(
                "{} holds {held}; {added} more would exceed the stack size {stack_size}, and \
                 stacks are never merged in part",
                slot_name(*slot)
            ),
            Refusal::FromOutput => "nothing is smelted from the output slot [0]".to_string(),
            Refusal::NotSmeltable { slot, item } => format!(
                "no smelting recipe takes {} (in {})",
                world.name(*item),
                slot_name(*slot)
            ),
        }
    }
}

/// The crafting table and inventory.
#[derive(Clone, Debug)]
pub struct Environment<'w> {
    world: &'w World,
    slots: Slots,
    /// What the output slot offers, as last computed (`None` before any computation: the
    /// initial state's grid shows no output, semantics §5).
    offer: Option<Craft>,
}

impl<'w> Environment<'w> {
    /// The state as given; the output slot is not computed (Plancraft's `reset`).
    pub fn new(world: &'w World, slots: Slots) -> Environment<'w> {
        Environment {
            world,
            slots,
            offer: None,
        }
    }

    pub fn world(&self) -> &'w World {
        self.world
    }

    pub fn slots(&self) -> &Slots {
        &self.slots
    }

    /// Whether the item is in a slot other than the output (the success test, semantics §8).
    pub fn holds(&self, item: ItemId) -> bool {
        self.slots[1..]
            .iter()
            .flatten()
            .any(|stack| stack.item == item)
    }

    /// Moves `quantity` items (semantics §5, `move_item`).
    pub fn move_items(&mut self, from: usize, to: usize, quantity: u8) -> Result<(), Refusal> {
        check_slots(from, to, quantity)?;
        let source = self.source(from, quantity)?;
        // Taking from the output takes all of it, whatever was asked (when no more).
        let quantity = if from == 0 { source.quantity } else { quantity };
        self.put(to, source.item, quantity)?;
        self.take(from, quantity);
        if from == 0 {
            self.consume_ingredients();
        }
        if from < 10 || to < 10 {
            self.compute_output();
        }
        Ok(())
    }

    /// Smelts `quantity` items at once (semantics §5, `smelt_item`).
    pub fn smelt(&mut self, from: usize, to: usize, quantity: u8) -> Result<(), Refusal> {
        check_slots(from, to, quantity)?;
        if from == 0 {
            return Err(Refusal::FromOutput);
        }
        let source = self.source(from, quantity)?;
        let Some(recipe) = self.world.smelting_of(source.item) else {
            // The reference still recomputes the output when a grid slot is involved.
            if from < 10 || to < 10 {
                self.compute_output();
            }
            return Err(Refusal::NotSmeltable {
                slot: from,
                item: source.item,
            });
        };
        self.put(to, recipe.result, quantity)?;
        self.take(from, quantity);
        if from < 10 || to < 10 {
            self.compute_output();
        }
        Ok(())
    }

    fn source(&self, from: usize, quantity: u8) -> Result<Stack, Refusal> {
        let source = self.slots[from].ok_or(Refusal::SourceEmpty { slot: from })?;
        if source.quantity < quantity {
            return Err(Refusal::TooFew {
                slot: from,
                held: source.quantity,
                asked: quantity,
            });
        }
        Ok(source)
    }

    fn put(&mut self, to: usize, item: ItemId, quantity: u8) -> Result<(), Refusal> {
        match &mut self.slots[to] {
            None => {
                self.slots[to] = Some(Stack { item, quantity });
                Ok(())
            }
            Some(held) if held.item != item => Err(Refusal::OtherType {
                slot: to,
                held: held.item,
                moved: item,
            }),
            Some(held) => {
                let stack_size = self.world.item(item).stack_size;
                if u32::from(held.quantity) + u32::from(quantity) > u32::from(stack_size) {
                    return Err(Refusal::StackFull {
                        slot: to,
                        held: held.quantity,
                        added: quantity,
                        stack_size,
                    });
                }
                held.quantity += quantity;
                Ok(())
            }
        }
    }

    fn take(&mut self, from: usize, quantity: u8) {
        if let Some(stack) = &mut self.slots[from] {
            stack.quantity = stack.quantity.saturating_sub(quantity);
            if stack.quantity == 0 {
                self.slots[from] = None;
            }
        }
    }

    fn consume_ingredients(&mut self) {
        let consumed = self.offer.take().map(|craft| craft.consumed);
        for cell in consumed.unwrap_or_default() {
            self.take(usize::from(cell) + 1, 1);
        }
    }

    /// Recomputes the output slot from the grid (`populate_craft_slot_craft_item`).
    fn compute_output(&mut self) {
        let mut grid: Grid = [None; 9];
        for (cell, slot) in grid.iter_mut().zip(&self.slots[1..10]) {
            *cell = slot.map(|stack| stack.item);
        }
        self.offer = craft(self.world, &grid);
        self.slots[0] = self.offer.as_ref().map(|offer| {
            let recipe = &self.world.recipes()[offer.recipe];
            Stack {
                item: recipe.result,
                quantity: recipe.count,
            }
        });
    }
}

/// The checks both actions make first, in the reference's order.
fn check_slots(from: usize, to: usize, quantity: u8) -> Result<(), Refusal> {
    if from == to {
        return Err(Refusal::SameSlot);
    }
    if quantity == 0 {
        return Err(Refusal::NoQuantity);
    }
    if from >= SLOTS {
        return Err(Refusal::OutOfRange { slot: from });
    }
    if to == 0 || to >= SLOTS {
        return Err(Refusal::OutOfRange { slot: to });
    }
    Ok(())
}
