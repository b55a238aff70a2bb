//! Which recipe a crafting grid makes (semantics §6): the first of the environment's crafting
//! recipes that matches, and the cells one craft consumes.

use crate::plancraft::data::world::{ItemId, RecipeKind, World};

/// The grid's nine cells, row-major (`[A1]` … `[C3]`), by item type only.
pub type Grid = [Option<ItemId>; 9];

/// What the output slot offers: the recipe's index in the world and the grid cells (0–8) a
/// take consumes one item from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Craft {
    pub recipe: usize,
    pub consumed: Vec<u8>,
}

/// The first recipe in the environment's order that the grid matches.
pub fn craft(world: &World, grid: &Grid) -> Option<Craft> {
    if grid.iter().all(Option::is_none) {
        return None;
    }
    let mut multiset: Vec<ItemId> = grid.iter().flatten().copied().collect();
    multiset.sort_unstable();
    world.crafting_order().iter().find_map(|&index| {
        let consumed = match &world.recipes()[index].kind {
            RecipeKind::Shaped {
                height,
                width,
                cells,
            } => shaped(grid, usize::from(*height), usize::from(*width), cells)?,
            RecipeKind::Shapeless { multisets, .. } => {
                if !multisets.contains(&multiset) {
                    return None;
                }
                (0..9u8)
                    .filter(|&i| grid[usize::from(i)].is_some())
                    .collect()
            }
            RecipeKind::Smelting { .. } => return None,
        };
        Some(Craft {
            recipe: index,
            consumed,
        })
    })
}

/// A shaped pattern at the first position (row-major) where every cell outside it is empty
/// and every cell inside holds what the pattern allows; no mirroring.
fn shaped(
    grid: &Grid,
    height: usize,
    width: usize,
    cells: &[Option<Vec<ItemId>>],
) -> Option<Vec<u8>> {
    let filled = grid.iter().filter(|c| c.is_some()).count();
    for top in 0..=3 - height {
        'position: for left in 0..=3 - width {
            let mut inside = 0;
            for row in 0..height {
                for column in 0..width {
                    if grid[(top + row) * 3 + left + column].is_some() {
                        inside += 1;
                    }
                }
            }
            if inside != filled {
                continue;
            }
            let mut consumed = Vec::new();
            for row in 0..height {
                for column in 0..width {
                    let index = (top + row) * 3 + left + column;
                    match (&cells[row * width + column], grid[index]) {
                        (None, None) => {}
                        (Some(allowed), Some(item)) if allowed.binary_search(&item).is_ok() => {
                            consumed.push(index as u8);
                        }
                        _ => continue 'position,
                    }
                }
            }
            return Some(consumed);
        }
    }
    None
}
