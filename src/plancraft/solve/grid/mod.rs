//! An example compiled to classical PDDL at the grid level (semantics §6 and §13). The crafting
//! grid is exact: each of its nine cells (`a1`…`c3`, the slots `[A1]`…`[C3]`) is empty or holds
//! one unit of an item. The inventory's 36 slots are abstracted to how many of each relevant
//! item they hold, with the counter encoding's amounts, static sums and saturation bound
//! (`compile.rs`); whether a stack finds a free slot is left to the translation back.
//!
//! The grid is set out for one recipe at a time, its `layout`: `begin ?l` needs the grid idle
//! (empty, no layout begun) and `end ?l` an empty grid again. While a layout is begun, units go
//! only into the cells it needs: `lay-<recipe>-<item>` puts one unit of a fixed item into every
//! cell that needs it at once (the count falls by as many, so the delete relaxation sees the
//! whole consumption), and `fill-first`/`fill` one unit of an item into a cell that allows
//! several (an `ingredient` object with static `(accepts ?g ?i)` facts, `(wants ?l ?c ?g)`
//! naming the cell), so that nothing is grounded over the product of cells and alternatives;
//! the cells are filled in a fixed order and with items in a fixed order, and `unfill` returns
//! the last one filled, so that each multiset of units goes in one way only.
//! `take-back` returns a laid unit. `craft-<recipe>` needs its cells filled and the others
//! empty; it empties the fixed cells, and marks the others `spent`, to be `clear`ed (the craft
//! does not name the item an ingredient cell holds). Without the lock a unit left in a cell no recipe
//! wants costs nothing in the relaxation and greedy planners drown in such states; with it, the
//! grid's cells are still exact but only what the begun recipe needs goes in. A shaped pattern
//! is laid at the top left and a shapeless recipe from `a1` on, in its ingredient order: the
//! environment accepts every translation and order, and the grid is empty whenever a layout
//! begins, so a plan loses nothing by this. Smelting stays at the counter level.
//!
//! A plan translates to messages one for one: a `lay` is one move per cell, a fill one move,
//! `take-back` and `unfill` the move back, a craft a move from `[0]`, a smelt a smelt; `begin`,
//! `end` and `clear` are bookkeeping of the model and send nothing.

mod translate;

pub use translate::from_grid_plan;

use super::SolveOptions;
use super::compile::{amount_facts, pddl_name, saturation_bound};
use super::model::{CounterModel, Transition, relaxed_closure};
use crate::plancraft::data::example::Example;
use crate::plancraft::data::world::{ItemId, RecipeKind, World};
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
    /// Crafting, smelting and laying action name → what it applies.
    steps: BTreeMap<String, GridStep>,
}

/// What a crafting, smelting or laying action of the compiled domain applies.
#[derive(Clone, Debug)]
enum GridStep {
    Craft {
        recipe: usize,
    },
    Smelt {
        recipe: usize,
        input: ItemId,
    },
    /// One unit of the item into each of these slots.
    Lay {
        item: ItemId,
        slots: Vec<usize>,
    },
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

/// What the domain names, collected while its actions are written.
#[derive(Default)]
struct Named {
    items: BTreeSet<ItemId>,
    deltas: BTreeSet<u16>,
    /// The layouts (`layout-<recipe>`) and the ingredient cells each wants.
    layouts: Vec<(String, Vec<(usize, usize)>)>,
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
        let Some(grid) = recipe_needs(world, &recipe.kind, &relevant, &mut ingredients)
            .and_then(|(width, needs)| top_left(&recipe.kind, width, &needs))
        else {
            continue;
        };
        let layout = format!("layout-{file}");
        let name = format!("craft-{file}");
        let made = Some(recipe.result) == target;
        let craft = craft_action(world, &layout, &name, &grid, recipe, made, &mut named);
        action_text.push_str(&craft);
        let step = GridStep::Craft {
            recipe: transition.recipe,
        };
        steps.insert(name, step);
        for (item, cells) in fixed_cells(&grid) {
            let name = format!("lay-{file}-{}", world.name(item).replace('_', "-"));
            action_text.push_str(&lay_action(world, &layout, &name, item, &cells, &mut named));
            let slots = cells.iter().map(|c| c + 1).collect();
            steps.insert(name, GridStep::Lay { item, slots });
        }
        let wants = grid
            .iter()
            .enumerate()
            .filter_map(|(cell, need)| match *need {
                Need::Ingredient(g) => Some((cell, g)),
                _ => None,
            })
            .collect();
        named.layouts.push((layout, wants));
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

/// What each of the nine cells needs when the recipe is laid at the top left (a shaped
/// pattern) or from `a1` on (a shapeless recipe's ingredients); `None` when it does not fit.
fn top_left(kind: &RecipeKind, width: usize, needs: &[Need]) -> Option<[Need; 9]> {
    if needs.is_empty() || needs.len() > 9 || width == 0 {
        return None;
    }
    let mut grid = [Need::Empty; 9];
    match kind {
        RecipeKind::Shaped { .. } => {
            if width > 3 || needs.len().div_ceil(width) > 3 {
                return None;
            }
            for (k, &need) in needs.iter().enumerate() {
                grid[(k / width) * 3 + k % width] = need;
            }
        }
        _ => grid[..needs.len()].copy_from_slice(needs),
    }
    Some(grid)
}

/// The recipe's craft with its layout begun: its cells filled as needed and the others empty.
/// It empties the fixed cells, marks the ingredient cells spent and adds the result to the
/// inventory's count.
fn craft_action(
    world: &World,
    layout: &str,
    name: &str,
    grid: &[Need; 9],
    recipe: &crate::plancraft::data::world::Recipe,
    makes_target: bool,
    named: &mut Named,
) -> String {
    let mut precondition = vec![format!("(building {layout})")];
    let mut effect = Vec::new();
    for (cell, need) in CELLS.iter().zip(grid) {
        match *need {
            Need::Empty => precondition.push(format!("(empty {cell})")),
            Need::Item(item) => {
                named.items.insert(item);
                let item = world.name(item);
                precondition.push(format!("(holds {cell} {item})"));
                effect.push(format!(
                    "(not (holds {cell} {item})) (not (plain {cell})) (empty {cell})"
                ));
            }
            Need::Ingredient(_) => {
                precondition.push(format!("(filled {cell})"));
                effect.push(format!("(not (filled {cell})) (spent {cell})"));
            }
        }
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

/// The cells of a layout that need one fixed item, per item.
fn fixed_cells(grid: &[Need; 9]) -> BTreeMap<ItemId, Vec<usize>> {
    let mut cells: BTreeMap<ItemId, Vec<usize>> = BTreeMap::new();
    for (cell, need) in grid.iter().enumerate() {
        if let Need::Item(item) = *need {
            cells.entry(item).or_default().push(cell);
        }
    }
    cells
}

/// `lay-<recipe>-<item>`: one unit of the item into each of the layout's cells that need it,
/// all empty, the count falling by as many at once. With one unit per step, a count of one left
/// behind would seem to the delete relaxation to fill any number of cells.
fn lay_action(
    world: &World,
    layout: &str,
    name: &str,
    item: ItemId,
    cells: &[usize],
    named: &mut Named,
) -> String {
    named.items.insert(item);
    let units = u16::try_from(cells.len()).unwrap_or(9);
    named.deltas.insert(units);
    let item = world.name(item);
    let empty: Vec<String> = cells
        .iter()
        .map(|&c| format!("(empty {})", CELLS[c]))
        .collect();
    let filled: Vec<String> = cells
        .iter()
        .map(|&c| format!("(not (empty {0})) (holds {0} {item}) (plain {0})", CELLS[c]))
        .collect();
    format!(
        "  (:action {name}\n    :parameters (?a ?b - amount)\n    :precondition (and \
         (building {layout}) {} (count {item} ?a) (minus ?a n{units} ?b))\n    :effect (and {} \
         (not (count {item} ?a)) (count {item} ?b)))\n",
        empty.join(" "),
        filled.join(" ")
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

/// The domain: the grid actions, then the crafts, lays and smelts.
fn domain_text(
    world: &World,
    example: &Example,
    ingredients: &Ingredients,
    named: &Named,
    action_text: &str,
) -> String {
    let mut constants = format!("\n    {} - cell", CELLS.join(" "));
    if !named.layouts.is_empty() {
        let layouts: Vec<&str> = named.layouts.iter().map(|(l, _)| l.as_str()).collect();
        let _ = write!(constants, "\n    {} - layout", layouts.join(" "));
    }
    if !named.items.is_empty() {
        let items: Vec<&str> = named.items.iter().map(|&i| world.name(i)).collect();
        let _ = write!(constants, "\n    {} - item", items.join(" "));
    }
    let amounts: Vec<String> = named.deltas.iter().map(|d| format!("n{d}")).collect();
    let _ = write!(constants, "\n    {} - amount", amounts.join(" "));
    // The ingredient cells' type, predicates and actions only where a recipe has such cells.
    let (ingredient_type, ingredient_predicates, fill) = if ingredients.names.is_empty() {
        ("", "", "")
    } else {
        (" ingredient", INGREDIENT_PREDICATES, FILL_ACTIONS)
    };
    format!(
        ";; Plancraft example {} at the grid level, compiled by pddlc (docs/plancraft.md).\n\
         (define (domain plancraft-grid-{})\n  (:requirements :strips :typing)\n  \
         (:types item amount cell layout{ingredient_type})\n  (:constants{constants})\n  \
         (:predicates\n    (count ?i - item ?n - amount)\n    \
         (minus ?a - amount ?d - amount ?b - amount)\n    \
         (plus ?a - amount ?d - amount ?b - amount)\n    (idle)\n    (building ?l - layout)\n    \
         (empty ?c - cell)\n    (holds ?c - cell ?i - item)\n    (plain ?c - cell)\n    \
         {ingredient_predicates}(made-target))\n{GRID_ACTIONS}{fill}{action_text})\n",
        example.id,
        pddl_name(&example.id),
    )
}

/// What the fill actions read: the cells a layout wants filled with an ingredient, their
/// order, the items' order, what each ingredient accepts, filled and spent cells.
const INGREDIENT_PREDICATES: &str = "(wants ?l - layout ?c - cell ?g - ingredient)
    (first ?l - layout ?c - cell)
    (last ?l - layout ?c - cell)
    (follows ?l - layout ?c - cell ?p - cell)
    (in-order ?j - item ?i - item)
    (accepts ?g - ingredient ?i - item)
    (filled ?c - cell)
    (spent ?c - cell)
    ";

/// A layout begun on an idle grid and ended on an empty one; a laid unit (`plain`) back into
/// the inventory.
const GRID_ACTIONS: &str = "  (:action begin
    :parameters (?l - layout)
    :precondition (idle)
    :effect (and (not (idle)) (building ?l)))
  (:action end
    :parameters (?l - layout)
    :precondition (and (building ?l) (empty a1) (empty a2) (empty a3) (empty b1) (empty b2) \
     (empty b3) (empty c1) (empty c2) (empty c3))
    :effect (and (not (building ?l)) (idle)))
  (:action take-back
    :parameters (?i - item ?c - cell ?a ?b - amount)
    :precondition (and (holds ?c ?i) (plain ?c) (count ?i ?a) (plus ?a n1 ?b))
    :effect (and (not (holds ?c ?i)) (not (plain ?c)) (empty ?c) (not (count ?i ?a)) \
     (count ?i ?b)))
";

/// For cells that allow several items: one unit into a cell the begun layout wants filled with
/// the ingredient — its first such cell, or the one after a filled one (`follows`) with an
/// item no earlier in a fixed order (`in-order`): each multiset of units is then filled one way
/// only, which spares the search every order of the same cells and units; its return, last
/// filled first (`unfill`: the cell after it is empty); and the clearing of a cell
/// whose unit a craft consumed (the craft does not name the item, so the cell keeps it, no
/// longer `plain`, until cleared).
const FILL_ACTIONS: &str = "  (:action fill-first
    :parameters (?l - layout ?c - cell ?g - ingredient ?i - item ?a ?b - amount)
    :precondition (and (building ?l) (first ?l ?c) (wants ?l ?c ?g) (accepts ?g ?i) \
     (empty ?c) (count ?i ?a) (minus ?a n1 ?b))
    :effect (and (not (empty ?c)) (holds ?c ?i) (filled ?c) (not (count ?i ?a)) \
     (count ?i ?b)))
  (:action fill
    :parameters (?l - layout ?c - cell ?g - ingredient ?i - item ?p - cell ?j - item \
     ?a ?b - amount)
    :precondition (and (building ?l) (follows ?l ?c ?p) (filled ?p) (holds ?p ?j) \
     (in-order ?j ?i) (wants ?l ?c ?g) (accepts ?g ?i) (empty ?c) (count ?i ?a) \
     (minus ?a n1 ?b))
    :effect (and (not (empty ?c)) (holds ?c ?i) (filled ?c) (not (count ?i ?a)) \
     (count ?i ?b)))
  (:action unfill-last
    :parameters (?l - layout ?c - cell ?i - item ?a ?b - amount)
    :precondition (and (building ?l) (last ?l ?c) (filled ?c) (holds ?c ?i) (count ?i ?a) \
     (plus ?a n1 ?b))
    :effect (and (not (filled ?c)) (not (holds ?c ?i)) (empty ?c) (not (count ?i ?a)) \
     (count ?i ?b)))
  (:action unfill
    :parameters (?l - layout ?c - cell ?i - item ?n - cell ?a ?b - amount)
    :precondition (and (building ?l) (follows ?l ?n ?c) (empty ?n) (filled ?c) (holds ?c ?i) \
     (count ?i ?a) (plus ?a n1 ?b))
    :effect (and (not (filled ?c)) (not (holds ?c ?i)) (empty ?c) (not (count ?i ?a)) \
     (count ?i ?b)))
  (:action clear
    :parameters (?c - cell ?i - item)
    :precondition (and (spent ?c) (holds ?c ?i))
    :effect (and (not (spent ?c)) (not (holds ?c ?i)) (empty ?c)))
";

/// The problem: the counts held (the grid's content counted as held: the translation empties
/// the grid first), an idle grid, what each ingredient accepts and which cells each layout
/// wants filled with which, the sums.
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
    if !ingredients.names.is_empty() {
        let _ = write!(
            objects,
            "{} - ingredient\n    ",
            ingredients.names.join(" ")
        );
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
    let mut init = String::from("    (idle)\n");
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
    for (layout, wants) in &named.layouts {
        let mut previous = None;
        for &(cell, g) in wants {
            let (cell, g) = (CELLS[cell], &ingredients.names[g]);
            let _ = writeln!(init, "    (wants {layout} {cell} {g})");
            let _ = match previous {
                None => writeln!(init, "    (first {layout} {cell})"),
                Some(p) => writeln!(init, "    (follows {layout} {cell} {p})"),
            };
            previous = Some(cell);
        }
        if let Some(last) = previous {
            let _ = writeln!(init, "    (last {layout} {last})");
        }
    }
    let loose: BTreeSet<ItemId> = ingredients.accepts.iter().flatten().copied().collect();
    for (k, &earlier) in loose.iter().enumerate() {
        for &later in loose.iter().skip(k) {
            let (earlier, later) = (world.name(earlier), world.name(later));
            let _ = writeln!(init, "    (in-order {earlier} {later})");
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
