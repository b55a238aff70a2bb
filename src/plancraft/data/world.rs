//! Plancraft's world: items with their stack sizes, tags, and the recipes the environment
//! loads, read from our files (`domains/plancraft/*.toml`) and resolved to item ids.
//!
//! The semantics reproduced is `shared/plancraft/semantics.md` §1–2 and §6: tags expand
//! recursively in order, a shapeless recipe is the list of multisets of its alternatives'
//! Cartesian product, a smelting recipe a set of inputs with one output, and the environment's
//! recipe order is that of Plancraft's `RECIPES` dict (result items in the order they first
//! appear in the recipe files, each item's recipes in file order).

use crate::diagnostics::{Code, Diagnostic};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

/// The shipped files, embedded.
pub const ITEMS_TOML: &str = include_str!("../../../domains/plancraft/items.toml");
pub const TAGS_TOML: &str = include_str!("../../../domains/plancraft/tags.toml");
pub const RECIPES_TOML: &str = include_str!("../../../domains/plancraft/recipes.toml");

/// An item's index in the item list (Plancraft's `item_to_id`).
pub type ItemId = u16;

/// An item type and how many of it one slot holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub name: String,
    pub stack_size: u8,
}

/// A loaded recipe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// The recipe file's name without `.json`.
    pub file: String,
    pub result: ItemId,
    /// Items made by one craft (always 1 for smelting).
    pub count: u8,
    pub kind: RecipeKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecipeKind {
    /// A pattern of `height` × `width` cells, row-major: `None` must stay empty, `Some` lists
    /// the items allowed there (sorted ids, no repeats).
    Shaped {
        height: u8,
        width: u8,
        cells: Vec<Option<Vec<ItemId>>>,
    },
    /// The ingredients with their alternatives as written, and every multiset they allow
    /// (each a sorted list of ids, one per grid cell used).
    Shapeless {
        ingredients: Vec<Vec<ItemId>>,
        multisets: Vec<Vec<ItemId>>,
    },
    /// The items this recipe smelts (sorted ids, no repeats), one result each.
    Smelting { inputs: Vec<ItemId> },
}

impl RecipeKind {
    /// `shaped`, `shapeless` or `smelting`, as Plancraft names recipe types.
    pub fn name(&self) -> &'static str {
        match self {
            RecipeKind::Shaped { .. } => "shaped",
            RecipeKind::Shapeless { .. } => "shapeless",
            RecipeKind::Smelting { .. } => "smelting",
        }
    }
}

/// The crafting world.
#[derive(Clone, Debug)]
pub struct World {
    items: Vec<Item>,
    by_name: HashMap<String, ItemId>,
    tags: BTreeMap<String, Vec<ItemId>>,
    recipes: Vec<Recipe>,
    crafting: Vec<usize>,
    smelting: Vec<usize>,
    by_result: HashMap<ItemId, Vec<usize>>,
    skipped: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ItemsFile {
    items: Vec<(String, u8)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecipesFile {
    recipe: Vec<RecipeEntry>,
    #[serde(default)]
    skipped: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum RecipeEntry {
    Shaped {
        file: String,
        result: String,
        count: u8,
        pattern: Vec<String>,
        key: BTreeMap<String, Vec<String>>,
    },
    Shapeless {
        file: String,
        result: String,
        count: u8,
        ingredients: Vec<Vec<String>>,
    },
    Smelting {
        file: String,
        result: String,
        ingredient: Vec<String>,
    },
}

fn invalid(message: impl Into<String>) -> Diagnostic {
    Diagnostic::unlocated(Code::PlancraftWorldInvalid, message)
}

impl World {
    /// The shipped world. Its files are checked by the tests, so this cannot fail in a
    /// released build; the error is still returned rather than assumed away.
    pub fn embedded() -> Result<World, Diagnostic> {
        World::from_toml(ITEMS_TOML, TAGS_TOML, RECIPES_TOML)
    }

    /// A world from the three files' text (items, tags, recipes).
    pub fn from_toml(items: &str, tags: &str, recipes: &str) -> Result<World, Diagnostic> {
        let items: ItemsFile =
            toml::from_str(items).map_err(|e| invalid(format!("items.toml: {e}")))?;
        let tags: BTreeMap<String, Vec<String>> =
            toml::from_str(tags).map_err(|e| invalid(format!("tags.toml: {e}")))?;
        let recipes: RecipesFile =
            toml::from_str(recipes).map_err(|e| invalid(format!("recipes.toml: {e}")))?;
        let mut world = World {
            items: Vec::new(),
            by_name: HashMap::new(),
            tags: BTreeMap::new(),
            recipes: Vec::new(),
            crafting: Vec::new(),
            smelting: Vec::new(),
            by_result: HashMap::new(),
            skipped: recipes.skipped,
        };
        for (name, stack_size) in items.items {
            let id = ItemId::try_from(world.items.len())
                .map_err(|_| invalid("items.toml: more items than ids"))?;
            if !(1..=64).contains(&stack_size) {
                return Err(invalid(format!(
                    "items.toml: `{name}` has stack size {stack_size}, not 1 to 64"
                )));
            }
            if world.by_name.insert(name.clone(), id).is_some() {
                return Err(invalid(format!("items.toml: `{name}` is listed twice")));
            }
            world.items.push(Item { name, stack_size });
        }
        for name in tags.keys() {
            let expanded = world.expand_tag(name, &tags, 0)?;
            world.tags.insert(name.clone(), expanded);
        }
        let mut order: Vec<ItemId> = Vec::new();
        for entry in recipes.recipe {
            let recipe = world.resolve(entry)?;
            let index = world.recipes.len();
            let list = world.by_result.entry(recipe.result).or_default();
            if list.is_empty() {
                order.push(recipe.result);
            }
            list.push(index);
            world.recipes.push(recipe);
        }
        for result in order {
            for &index in &world.by_result[&result] {
                match world.recipes[index].kind {
                    RecipeKind::Smelting { .. } => world.smelting.push(index),
                    _ => world.crafting.push(index),
                }
            }
        }
        Ok(world)
    }

    fn expand_tag(
        &self,
        name: &str,
        tags: &BTreeMap<String, Vec<String>>,
        depth: usize,
    ) -> Result<Vec<ItemId>, Diagnostic> {
        if depth > tags.len() {
            return Err(invalid(format!("tags.toml: tag `{name}` contains itself")));
        }
        let values = tags
            .get(name)
            .ok_or_else(|| invalid(format!("no tag `{name}` in tags.toml")))?;
        let mut out = Vec::new();
        for value in values {
            match value.strip_prefix('#') {
                Some(tag) => out.extend(self.expand_tag(tag, tags, depth + 1)?),
                None => out.push(self.item_named(value, "tags.toml")?),
            }
        }
        Ok(out)
    }

    fn item_named(&self, name: &str, file: &str) -> Result<ItemId, Diagnostic> {
        self.id(name)
            .ok_or_else(|| invalid(format!("{file}: `{name}` is not in items.toml")))
    }

    /// An ingredient's alternatives as ids, in order (Plancraft's `get_item`).
    fn alternatives(&self, values: &[String], file: &str) -> Result<Vec<ItemId>, Diagnostic> {
        let mut out = Vec::new();
        for value in values {
            match value.strip_prefix('#') {
                Some(tag) => out.extend(
                    self.tags
                        .get(tag)
                        .ok_or_else(|| invalid(format!("{file}: no tag `{tag}`")))?,
                ),
                None => out.push(self.item_named(value, file)?),
            }
        }
        if out.is_empty() {
            return Err(invalid(format!("{file}: an ingredient allows no item")));
        }
        Ok(out)
    }

    fn resolve(&self, entry: RecipeEntry) -> Result<Recipe, Diagnostic> {
        match entry {
            RecipeEntry::Shaped {
                file,
                result,
                count,
                pattern,
                key,
            } => {
                let height = pattern.len();
                let width = pattern.first().map_or(0, |row| row.chars().count());
                if !(1..=3).contains(&height)
                    || !(1..=3).contains(&width)
                    || pattern.iter().any(|row| row.chars().count() != width)
                {
                    return Err(invalid(format!(
                        "recipe `{file}`: a pattern has 1 to 3 rows of 1 to 3 cells, all as wide"
                    )));
                }
                let mut cells = Vec::with_capacity(height * width);
                for symbol in pattern.iter().flat_map(|row| row.chars()) {
                    if symbol == ' ' {
                        cells.push(None);
                        continue;
                    }
                    let values = key.get(&symbol.to_string()).ok_or_else(|| {
                        invalid(format!("recipe `{file}`: `{symbol}` is not in its key"))
                    })?;
                    let mut allowed = self.alternatives(values, &file)?;
                    allowed.sort_unstable();
                    allowed.dedup();
                    cells.push(Some(allowed));
                }
                Ok(Recipe {
                    result: self.item_named(&result, &file)?,
                    count: checked_count(count, &file)?,
                    kind: RecipeKind::Shaped {
                        height: height as u8,
                        width: width as u8,
                        cells,
                    },
                    file,
                })
            }
            RecipeEntry::Shapeless {
                file,
                result,
                count,
                ingredients,
            } => {
                if ingredients.is_empty() || ingredients.len() > 9 {
                    return Err(invalid(format!(
                        "recipe `{file}`: a shapeless recipe has 1 to 9 ingredients"
                    )));
                }
                let ingredients = ingredients
                    .iter()
                    .map(|values| self.alternatives(values, &file))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut multisets = vec![Vec::new()];
                for alternatives in &ingredients {
                    multisets = multisets
                        .iter()
                        .flat_map(|partial: &Vec<ItemId>| {
                            alternatives.iter().map(move |&item| {
                                let mut next = partial.clone();
                                next.push(item);
                                next
                            })
                        })
                        .collect();
                }
                for multiset in &mut multisets {
                    multiset.sort_unstable();
                }
                Ok(Recipe {
                    result: self.item_named(&result, &file)?,
                    count: checked_count(count, &file)?,
                    kind: RecipeKind::Shapeless {
                        ingredients,
                        multisets,
                    },
                    file,
                })
            }
            RecipeEntry::Smelting {
                file,
                result,
                ingredient,
            } => {
                let mut inputs = self.alternatives(&ingredient, &file)?;
                inputs.sort_unstable();
                inputs.dedup();
                Ok(Recipe {
                    result: self.item_named(&result, &file)?,
                    count: 1,
                    kind: RecipeKind::Smelting { inputs },
                    file,
                })
            }
        }
    }

    /// The item list, in id order.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    pub fn item(&self, id: ItemId) -> &Item {
        &self.items[usize::from(id)]
    }

    pub fn name(&self, id: ItemId) -> &str {
        &self.item(id).name
    }

    pub fn id(&self, name: &str) -> Option<ItemId> {
        self.by_name.get(name).copied()
    }

    /// Each tag with its items, expanded (nested tags replaced by their items, in order).
    pub fn tags(&self) -> &BTreeMap<String, Vec<ItemId>> {
        &self.tags
    }

    /// Every loaded recipe, in file order.
    pub fn recipes(&self) -> &[Recipe] {
        &self.recipes
    }

    /// The shaped and shapeless recipes in the order the environment tries them.
    pub fn crafting_order(&self) -> &[usize] {
        &self.crafting
    }

    /// The smelting recipes in the order the environment tries them.
    pub fn smelting_order(&self) -> &[usize] {
        &self.smelting
    }

    /// The recipes that make an item (Plancraft's `RECIPES[item]`), in file order.
    pub fn recipes_for(&self, item: ItemId) -> &[usize] {
        self.by_result.get(&item).map_or(&[], Vec::as_slice)
    }

    /// The recipe files of the types the environment does not load, by type.
    pub fn skipped(&self) -> &BTreeMap<String, Vec<String>> {
        &self.skipped
    }

    /// The first smelting recipe that takes the item, as the environment picks it.
    pub fn smelting_of(&self, item: ItemId) -> Option<&Recipe> {
        self.smelting.iter().map(|&i| &self.recipes[i]).find(|recipe| {
            matches!(&recipe.kind, RecipeKind::Smelting { inputs } if inputs.binary_search(&item).is_ok())
        })
    }
}

fn checked_count(count: u8, file: &str) -> Result<u8, Diagnostic> {
    if (1..=64).contains(&count) {
        Ok(count)
    } else {
        Err(invalid(format!(
            "recipe `{file}`: makes {count} items, not 1 to 64"
        )))
    }
}
