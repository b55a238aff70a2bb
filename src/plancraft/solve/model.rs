//! The counter model of a task (semantics §9 and §13): the state is how many of each relevant
//! item type are held, slots and stack sizes aside; a step applies one recipe once with one
//! choice of ingredients (a smelting step smelts one unit). Only the target and its ancestors
//! in the recipe graph are relevant: every recipe consumes ancestors of what it makes, so no
//! other item can ever help.

use crate::plancraft::data::world::{ItemId, RecipeKind, World};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// One way to apply a recipe: what it consumes (local item index, count) and makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    /// The recipe's index in the world.
    pub recipe: usize,
    /// Consumed items, by local index, with counts (sorted, distinct).
    pub consumes: Vec<(usize, u16)>,
    /// The item made, by local index.
    pub makes: usize,
    pub count: u16,
}

/// The relevant items and every way to apply a recipe among them.
#[derive(Clone, Debug)]
pub struct CounterModel {
    /// Local index → item.
    pub items: Vec<ItemId>,
    pub target: usize,
    pub transitions: Vec<Transition>,
}

/// Items from which the target can be made (the target included): the ancestors in the
/// graph ingredient → result over every loaded recipe.
pub fn ancestors(world: &World, target: ItemId) -> BTreeSet<ItemId> {
    let mut made_from: HashMap<ItemId, BTreeSet<ItemId>> = HashMap::new();
    for recipe in world.recipes() {
        made_from
            .entry(recipe.result)
            .or_default()
            .extend(inputs(&recipe.kind));
    }
    let mut found = BTreeSet::from([target]);
    let mut stack = vec![target];
    while let Some(item) = stack.pop() {
        for &input in made_from.get(&item).into_iter().flatten() {
            if found.insert(input) {
                stack.push(input);
            }
        }
    }
    found
}

/// Every item a recipe can take.
pub fn inputs(kind: &RecipeKind) -> Vec<ItemId> {
    match kind {
        RecipeKind::Shaped { cells, .. } => cells.iter().flatten().flatten().copied().collect(),
        RecipeKind::Shapeless { ingredients, .. } => {
            ingredients.iter().flatten().copied().collect()
        }
        RecipeKind::Smelting { inputs } => inputs.clone(),
    }
}

/// The items that unlimited amounts of `held` can make (held included): the relaxed fixpoint.
pub fn relaxed_closure(world: &World, held: &BTreeSet<ItemId>) -> BTreeSet<ItemId> {
    let mut have = held.clone();
    loop {
        let before = have.len();
        for recipe in world.recipes() {
            if !have.contains(&recipe.result) && makeable(&recipe.kind, &have) {
                have.insert(recipe.result);
            }
        }
        if have.len() == before {
            return have;
        }
    }
}

/// Whether some choice of ingredients lies entirely in `have`.
pub fn makeable(kind: &RecipeKind, have: &BTreeSet<ItemId>) -> bool {
    match kind {
        RecipeKind::Shaped { cells, .. } => cells
            .iter()
            .flatten()
            .all(|allowed| allowed.iter().any(|i| have.contains(i))),
        RecipeKind::Shapeless { ingredients, .. } => ingredients
            .iter()
            .all(|alternatives| alternatives.iter().any(|i| have.contains(i))),
        RecipeKind::Smelting { inputs } => inputs.iter().any(|i| have.contains(i)),
    }
}

impl CounterModel {
    /// The model for making `target` from the item types `available` (what the inventory
    /// holds and can make): relevant items are the target's ancestors among them.
    pub fn new(world: &World, target: ItemId, available: &BTreeSet<ItemId>) -> CounterModel {
        let items: Vec<ItemId> = ancestors(world, target)
            .into_iter()
            .filter(|item| *item == target || available.contains(item))
            .collect();
        let local: HashMap<ItemId, usize> =
            items.iter().enumerate().map(|(i, &id)| (id, i)).collect();
        let mut transitions = Vec::new();
        for (index, recipe) in world.recipes().iter().enumerate() {
            let Some(&makes) = local.get(&recipe.result) else {
                continue;
            };
            for choice in choices(&recipe.kind, &local) {
                let mut counts: BTreeMap<usize, u16> = BTreeMap::new();
                for item in choice {
                    *counts.entry(item).or_default() += 1;
                }
                transitions.push(Transition {
                    recipe: index,
                    consumes: counts.into_iter().collect(),
                    makes,
                    count: u16::from(recipe.count),
                });
            }
        }
        CounterModel {
            target: local.get(&target).copied().unwrap_or_default(),
            items,
            transitions,
        }
    }
}

/// Every distinct multiset of relevant items (local indexes, sorted) a recipe can consume;
/// none when some cell or ingredient allows no relevant item.
fn choices(kind: &RecipeKind, local: &HashMap<ItemId, usize>) -> BTreeSet<Vec<usize>> {
    let relevant = |allowed: &Vec<ItemId>| -> Vec<usize> {
        allowed
            .iter()
            .filter_map(|i| local.get(i).copied())
            .collect()
    };
    let cells: Vec<Vec<usize>> = match kind {
        RecipeKind::Shaped { cells, .. } => cells.iter().flatten().map(relevant).collect(),
        RecipeKind::Shapeless { ingredients, .. } => ingredients.iter().map(relevant).collect(),
        // One unit per step, as the oracle smelts.
        RecipeKind::Smelting { inputs } => vec![relevant(inputs)],
    };
    let mut out: BTreeSet<Vec<usize>> = BTreeSet::from([Vec::new()]);
    for allowed in &cells {
        let mut next = BTreeSet::new();
        for partial in &out {
            for &item in allowed {
                let mut grown = partial.clone();
                grown.push(item);
                grown.sort_unstable();
                next.insert(grown);
            }
        }
        out = next;
    }
    out
}
