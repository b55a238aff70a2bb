//! An example compiled to classical PDDL at the counter level (semantics §13): how many of
//! each relevant item are held is a number object (`(count oak_planks n4)`), sums are static
//! facts, and each way to apply a recipe (one choice per tag cell; one unit per smelting step)
//! is an action. Planners that read STRIPS with types (Fast Downward, `pddlc solve`) solve it,
//! and a plan translates back to the agent's messages.
//!
//! Counts are represented up to a bound, beyond which they saturate (the problem's comment
//! names it): making more leaves the count at the bound, and a count held beyond it starts at
//! it. A saturated count is never more than what is really held, so every plan of the compiled
//! task runs in the environment. When `plancraft solve` found a shortest plan, the bound is the
//! most that plan consumes of any one item, so that plan is a plan of the compiled task too:
//! planners find plans of the same optimal length, and grounding stays small. Otherwise (an
//! impossible example) the bound is the largest count held plus 64.

use super::model::{CounterModel, Transition};
use crate::plancraft::data::example::Example;
use crate::plancraft::data::world::{ItemId, RecipeKind, World};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// A compiled example.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub domain: String,
    pub problem: String,
    /// Action name → what it does in the counter model.
    pub actions: BTreeMap<String, CompiledAction>,
    pub model: CounterModel,
    /// The model's items' names, by local index.
    pub item_names: Vec<String>,
    /// The largest count represented.
    pub bound: u16,
}

/// What a compiled action stands for.
#[derive(Clone, Debug)]
pub enum CompiledAction {
    /// One way to apply a recipe, all at once.
    Apply(Transition),
    /// One unit for a cell of a crafting recipe that allows several items, the item chosen
    /// by the action's first argument.
    Pick { recipe: usize },
    /// The recipe applied with the units picked for it and its fixed cells.
    Finish {
        recipe: usize,
        fixed: Vec<(usize, u16)>,
    },
}

/// The counter-level domain and problem. When no amount of the held items makes the target,
/// no action makes it either, and planners report the task unsolvable.
///
/// A crafting recipe whose cells allow a choice of items (a tag: any planks) is not one action
/// per choice: their product (four plank cells, six kinds of planks) is more than planners can
/// ground. Instead each such cell is a `pick` action lifted over the items it allows (the
/// static `allows` facts), one unit at a time, and the recipe's action consumes its fixed cells
/// once every unit is picked. Picking early only lowers counts, so plans stay sound.
pub fn compile(world: &World, example: &Example, plan: Option<&[Transition]>) -> Compiled {
    let held = super::held_types(example);
    let available = super::model::relaxed_closure(world, &held);
    let model = CounterModel::new(world, example.target, &available);
    let start = super::start_counts(&model, example);
    let bound = saturation_bound(&start, plan);
    let mut builder = Builder::default();
    let mut by_recipe: BTreeMap<usize, Vec<&Transition>> = BTreeMap::new();
    for transition in &model.transitions {
        by_recipe
            .entry(transition.recipe)
            .or_default()
            .push(transition);
    }
    for (&recipe, transitions) in &by_recipe {
        let kind = &world.recipes()[recipe].kind;
        let cells = relevant_cells(kind, &model);
        let choosing = !matches!(kind, RecipeKind::Smelting { .. })
            && transitions.len() > 1
            && cells.iter().all(|allowed| !allowed.is_empty());
        if choosing {
            builder.picked_recipe(world, &model, recipe, transitions[0], &cells);
        } else {
            for (alternative, transition) in transitions.iter().enumerate() {
                builder.whole_recipe(world, &model, transition, alternative);
            }
        }
    }
    let domain = builder.domain_text(world, &model, example);
    let problem = builder.problem_text(world, &model, example, &start, bound);
    Compiled {
        domain,
        problem,
        actions: builder.actions,
        item_names: model
            .items
            .iter()
            .map(|&i| world.name(i).to_string())
            .collect(),
        model,
        bound,
    }
}

/// The most `plan` consumes of any one item, or, without a plan, the largest count held plus
/// 64.
pub(super) fn saturation_bound(start: &[u16], plan: Option<&[Transition]>) -> u16 {
    match plan {
        Some(plan) => {
            let mut consumed: BTreeMap<usize, u16> = BTreeMap::new();
            for transition in plan {
                for &(item, n) in &transition.consumes {
                    *consumed.entry(item).or_default() += n;
                }
            }
            consumed.values().copied().max().unwrap_or(0).max(1)
        }
        None => start.iter().copied().max().unwrap_or(0).saturating_add(64),
    }
}

/// The relevant items (local indexes) each used cell or ingredient of a recipe allows.
fn relevant_cells(kind: &RecipeKind, model: &CounterModel) -> Vec<Vec<usize>> {
    let relevant = |allowed: &Vec<ItemId>| -> Vec<usize> {
        allowed
            .iter()
            .filter_map(|i| model.items.iter().position(|m| m == i))
            .collect()
    };
    match kind {
        RecipeKind::Shaped { cells, .. } => cells.iter().flatten().map(relevant).collect(),
        RecipeKind::Shapeless { ingredients, .. } => ingredients.iter().map(relevant).collect(),
        RecipeKind::Smelting { inputs } => vec![relevant(inputs)],
    }
}

/// The domain's actions as they are written, with what they stand for.
#[derive(Default)]
struct Builder {
    /// The items actions name.
    named: BTreeSet<usize>,
    deltas: BTreeSet<u16>,
    actions: BTreeMap<String, CompiledAction>,
    action_text: String,
    /// The distinct sets of items a picked cell allows.
    choices: Vec<Vec<usize>>,
    /// The units picked cells fill.
    units: Vec<String>,
}

impl Builder {
    /// The domain: constants (the items and amounts actions name, the choices and units), the
    /// predicates (the picking ones only where some recipe picks) and the actions.
    fn domain_text(&self, world: &World, model: &CounterModel, example: &Example) -> String {
        let mut constants = String::new();
        let mut declare = |names: Vec<String>, kind: &str| {
            if !names.is_empty() {
                let _ = write!(constants, "\n    {} - {kind}", names.join(" "));
            }
        };
        declare(
            self.named
                .iter()
                .map(|&i| world.name(model.items[i]).to_string())
                .collect(),
            "item",
        );
        declare(
            self.deltas.iter().map(|d| format!("n{d}")).collect(),
            "amount",
        );
        declare(
            (0..self.choices.len())
                .map(|c| format!("choice{c}"))
                .collect(),
            "choice",
        );
        declare(self.units.clone(), "unit");
        let (picking_types, picking_predicates) = if self.units.is_empty() {
            ("", "")
        } else {
            (
                " choice unit",
                "(allows ?c - choice ?i - item)\n    (open ?u - unit)\n    (picked ?u - unit)\n    ",
            )
        };
        format!(
            ";; Plancraft example {} at the counter level, compiled by pddlc (docs/plancraft.md).\n\
             (define (domain plancraft-{})\n  (:requirements :strips :typing)\n  \
             (:types item amount{picking_types})\n  (:constants{constants})\n  (:predicates\n    \
             (count ?i - item ?n - amount)\n    \
             (minus ?a - amount ?d - amount ?b - amount)\n    (plus ?a - amount ?d - amount ?b - amount)\n    \
             {picking_predicates}(made-target))\n{})\n",
            example.id,
            pddl_name(&example.id),
            self.action_text,
        )
    }

    /// The problem: the other items and amounts as objects, the held counts, the choices'
    /// items, the open units, and the sums and differences up to `bound`.
    fn problem_text(
        &self,
        world: &World,
        model: &CounterModel,
        example: &Example,
        start: &[u16],
        bound: u16,
    ) -> String {
        let other_items: Vec<&str> = (0..model.items.len())
            .filter(|i| !self.named.contains(i))
            .map(|i| world.name(model.items[i]))
            .collect();
        let numbers: Vec<String> = (0..=bound)
            .filter(|n| !self.deltas.contains(n))
            .map(|n| format!("n{n}"))
            .collect();
        let mut init = String::new();
        for (local, &item) in model.items.iter().enumerate() {
            let count = start[local].min(bound);
            let _ = writeln!(init, "    (count {} n{count})", world.name(item));
        }
        for (c, allowed) in self.choices.iter().enumerate() {
            for &item in allowed {
                let _ = writeln!(
                    init,
                    "    (allows choice{c} {})",
                    world.name(model.items[item])
                );
            }
        }
        for unit in &self.units {
            let _ = writeln!(init, "    (open {unit})");
        }
        init.push_str(&amount_facts(&self.deltas, bound));
        let objects = if other_items.is_empty() {
            String::new()
        } else {
            format!("{} - item\n    ", other_items.join(" "))
        };
        format!(
            ";; Counts saturate at {bound}.\n(define (problem plancraft-{}-task)\n  \
             (:domain plancraft-{})\n  (:objects\n    {objects}{} - amount)\n  (:init\n{init}  )\n  \
             (:goal (made-target)))\n",
            pddl_name(&example.id),
            pddl_name(&example.id),
            numbers.join(" ")
        )
    }

    /// One action applying `transition` all at once.
    fn whole_recipe(
        &mut self,
        world: &World,
        model: &CounterModel,
        transition: &Transition,
        alternative: usize,
    ) {
        let recipe = &world.recipes()[transition.recipe];
        let verb = match recipe.kind {
            RecipeKind::Smelting { .. } => "smelt",
            _ => "craft",
        };
        let name = format!("{verb}-{}-{}", recipe.file.replace('_', "-"), alternative);
        let parts = changes(world, model, transition, &mut self.deltas);
        self.named.extend(&parts.items);
        self.action_text.push_str(&parts.write(&name));
        self.actions
            .insert(name, CompiledAction::Apply(transition.clone()));
    }

    /// A `pick` action per cell allowing several items, and the recipe's action consuming the
    /// fixed cells once every unit is picked.
    fn picked_recipe(
        &mut self,
        world: &World,
        model: &CounterModel,
        recipe: usize,
        any: &Transition,
        cells: &[Vec<usize>],
    ) {
        let file = world.recipes()[recipe].file.replace('_', "-");
        let mut fixed: BTreeMap<usize, u16> = BTreeMap::new();
        let mut picked_units = Vec::new();
        for allowed in cells {
            if let [item] = allowed.as_slice() {
                *fixed.entry(*item).or_default() += 1;
                continue;
            }
            let choice = match self.choices.iter().position(|c| c == allowed) {
                Some(c) => c,
                None => {
                    self.choices.push(allowed.clone());
                    self.choices.len() - 1
                }
            };
            let unit = format!("{file}-{}", picked_units.len());
            let name = format!("pick-{unit}");
            let previous = picked_units
                .last()
                .map(|u: &String| format!(" (picked {u})"))
                .unwrap_or_default();
            self.deltas.insert(1);
            let _ = write!(
                self.action_text,
                "  (:action {name}\n    :parameters (?i - item ?a ?b - amount)\n    \
                 :precondition (and (open {unit}){previous} (allows choice{choice} ?i) \
                 (count ?i ?a) (minus ?a n1 ?b))\n    :effect (and (not (open {unit})) \
                 (picked {unit}) (not (count ?i ?a)) (count ?i ?b)))\n"
            );
            self.actions.insert(name, CompiledAction::Pick { recipe });
            picked_units.push(unit);
        }
        let fixed: Vec<(usize, u16)> = fixed.into_iter().collect();
        let finishing = Transition {
            recipe,
            consumes: fixed.clone(),
            makes: any.makes,
            count: any.count,
        };
        let mut parts = changes(world, model, &finishing, &mut self.deltas);
        self.named.extend(&parts.items);
        for unit in &picked_units {
            parts.precondition.push(format!("(picked {unit})"));
            parts.effect.push(format!("(not (picked {unit}))"));
            parts.effect.push(format!("(open {unit})"));
        }
        let name = format!("craft-{file}");
        self.action_text.push_str(&parts.write(&name));
        self.actions
            .insert(name, CompiledAction::Finish { recipe, fixed });
        self.units.extend(picked_units);
    }
}

/// The static facts of the sums and differences by each delta, saturating at the bound.
pub(super) fn amount_facts(deltas: &BTreeSet<u16>, bound: u16) -> String {
    let mut facts = String::new();
    for &d in deltas {
        for a in d..=bound {
            let _ = writeln!(facts, "    (minus n{a} n{d} n{})", a - d);
        }
        for a in 0..=bound {
            let _ = writeln!(
                facts,
                "    (plus n{a} n{d} n{})",
                a.saturating_add(d).min(bound)
            );
        }
    }
    facts
}

pub(super) fn pddl_name(id: &str) -> String {
    let name: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    if name.is_empty() {
        "example".to_string()
    } else {
        name
    }
}

/// An action's parameters, precondition and effect atoms.
struct Parts {
    /// The items named (local indexes).
    items: Vec<usize>,
    parameters: Vec<String>,
    precondition: Vec<String>,
    effect: Vec<String>,
}

impl Parts {
    fn write(&self, name: &str) -> String {
        let parameters = if self.parameters.is_empty() {
            String::new()
        } else {
            format!("{} - amount", self.parameters.join(" "))
        };
        format!(
            "  (:action {name}\n    :parameters ({parameters})\n    :precondition (and {})\n    \
             :effect (and {}))\n",
            self.precondition.join(" "),
            self.effect.join(" ")
        )
    }
}

/// For every item whose count a transition changes, its count before and after.
fn changes(
    world: &World,
    model: &CounterModel,
    transition: &Transition,
    deltas: &mut BTreeSet<u16>,
) -> Parts {
    let mut change: BTreeMap<usize, i32> = BTreeMap::new();
    for &(item, n) in &transition.consumes {
        *change.entry(item).or_default() -= i32::from(n);
    }
    *change.entry(transition.makes).or_default() += i32::from(transition.count);
    let (mut parameters, mut precondition, mut effect) = (Vec::new(), Vec::new(), Vec::new());
    for (k, (&item, &delta)) in change.iter().enumerate() {
        let item_name = world.name(model.items[item]);
        let (before, after) = (format!("?a{k}"), format!("?b{k}"));
        parameters.push(format!("{before} {after}"));
        precondition.push(format!("(count {item_name} {before})"));
        // The consumed amount must be there even when the net change is nothing.
        let magnitude = delta.unsigned_abs() as u16;
        if delta < 0 {
            precondition.push(format!("(minus {before} n{magnitude} {after})"));
        } else if delta > 0 {
            precondition.push(format!("(plus {before} n{magnitude} {after})"));
        } else {
            let needed = transition
                .consumes
                .iter()
                .find(|(i, _)| *i == item)
                .map_or(0, |(_, n)| *n);
            precondition.push(format!("(minus {before} n{needed} {after})"));
            deltas.insert(needed);
            continue;
        }
        deltas.insert(magnitude);
        effect.push(format!("(not (count {item_name} {before}))"));
        effect.push(format!("(count {item_name} {after})"));
    }
    if transition.makes == model.target {
        effect.push("(made-target)".to_string());
    }
    Parts {
        items: change.keys().copied().collect(),
        parameters,
        precondition,
        effect,
    }
}

/// The transitions a plan (IPC plan text: `(action args…)` lines, `;` comments) applies, in
/// order, or the first line that names no action of the compiled domain. A recipe's picked
/// units count from its action's application; units picked for an application that never
/// comes are not recipes and are left out.
pub fn plan_transitions(compiled: &Compiled, plan: &str) -> Result<Vec<Transition>, String> {
    let mut out = Vec::new();
    let mut pending: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (number, line) in plan.lines().enumerate() {
        let line = line.split(';').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let inner = line
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ':' || c == ' ');
        let mut words = inner
            .trim_start_matches('(')
            .split(|c: char| c.is_whitespace() || c == ')')
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase);
        let name = words.next().unwrap_or_default();
        let at = |why: String| format!("line {}: {why}", number + 1);
        let action = compiled
            .actions
            .get(&name)
            .ok_or_else(|| at(format!("`{name}` is not an action of the compiled domain")))?;
        match action {
            CompiledAction::Apply(transition) => out.push(transition.clone()),
            CompiledAction::Pick { recipe } => {
                let item = words.next().unwrap_or_default();
                let local = compiled
                    .item_names
                    .iter()
                    .position(|name| *name == item)
                    .ok_or_else(|| at(format!("`{item}` is not an item of the compiled task")))?;
                pending.entry(*recipe).or_default().push(local);
            }
            CompiledAction::Finish { recipe, fixed } => {
                let mut consumes: BTreeMap<usize, u16> = fixed.iter().copied().collect();
                for item in pending.remove(recipe).unwrap_or_default() {
                    *consumes.entry(item).or_default() += 1;
                }
                let consumes: Vec<(usize, u16)> = consumes.into_iter().collect();
                let transition = compiled
                    .model
                    .transitions
                    .iter()
                    .find(|t| t.recipe == *recipe && t.consumes == consumes)
                    .ok_or_else(|| {
                        at(format!(
                            "`{name}` with units picked that the recipe does not allow"
                        ))
                    })?;
                out.push(transition.clone());
            }
        }
    }
    Ok(out)
}
