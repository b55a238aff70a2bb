//! An example compiled to classical PDDL at the counter level (semantics §13): how many of
//! each relevant item are held is a number object (`(count oak_planks n4)`), sums are static
//! facts, and each way to apply a recipe (one choice per tag cell; one unit per smelting step)
//! is an action. Planners that read STRIPS with types (Fast Downward, `pddlc solve`) solve it,
//! and a plan translates back to the agent's messages.
//!
//! Counts are represented up to a bound (the largest relevant count held plus 64, named in the
//! problem's comment): a plan that needs more of an item than that is not found, which can
//! only make a solvable example look unsolvable, never the reverse.

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
    /// Action name → the transition it applies.
    pub actions: BTreeMap<String, Transition>,
    pub model: CounterModel,
    /// The largest count represented.
    pub bound: u16,
}

/// The counter-level domain and problem. When no amount of the held items makes the target,
/// no action makes it either, and planners report the task unsolvable.
pub fn compile(world: &World, example: &Example) -> Compiled {
    let held: BTreeSet<ItemId> = example.slots[1..]
        .iter()
        .flatten()
        .map(|s| s.item)
        .collect();
    let available = super::model::relaxed_closure(world, &held);
    let model = CounterModel::new(world, example.target, &available);
    let start = super::start_counts(&model, example);
    let bound = start.iter().copied().max().unwrap_or(0).saturating_add(64);
    let mut deltas: BTreeSet<u16> = BTreeSet::new();
    let mut actions = BTreeMap::new();
    let mut per_recipe: BTreeMap<usize, usize> = BTreeMap::new();
    let mut action_text = String::new();
    for transition in &model.transitions {
        let recipe = &world.recipes()[transition.recipe];
        let alternative = per_recipe.entry(transition.recipe).or_default();
        let verb = match recipe.kind {
            RecipeKind::Smelting { .. } => "smelt",
            _ => "craft",
        };
        let name = format!("{verb}-{}-{}", recipe.file.replace('_', "-"), alternative);
        *alternative += 1;
        action_text.push_str(&action(world, &model, transition, &name, &mut deltas));
        actions.insert(name, transition.clone());
    }
    let items: Vec<&str> = model.items.iter().map(|&i| world.name(i)).collect();
    let mut domain = String::new();
    let _ = write!(
        domain,
        ";; Plancraft example {} at the counter level, compiled by pddlc (docs/plancraft.md).\n\
         (define (domain plancraft-{})\n  (:requirements :strips :typing)\n  (:types item amount)\n  \
         (:constants\n    {} - item\n    {} - amount)\n  (:predicates\n    (count ?i - item ?n - amount)\n    \
         (sum ?a - amount ?d - amount ?b - amount)\n    (made-target))\n{action_text})\n",
        example.id,
        pddl_name(&example.id),
        items.join(" "),
        deltas
            .iter()
            .map(|d| format!("n{d}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    // The amounts actions name are the domain's constants; the rest are the problem's objects.
    let numbers: Vec<String> = (0..=bound)
        .filter(|n| !deltas.contains(n))
        .map(|n| format!("n{n}"))
        .collect();
    let mut init = String::new();
    for (local, &item) in model.items.iter().enumerate() {
        let _ = writeln!(init, "    (count {} n{})", world.name(item), start[local]);
    }
    for &d in &deltas {
        for a in 0..=bound.saturating_sub(d) {
            let _ = writeln!(init, "    (sum n{a} n{d} n{})", a + d);
        }
    }
    let mut problem = String::new();
    let _ = write!(
        problem,
        ";; Counts up to {bound} are represented.\n(define (problem plancraft-{}-task)\n  \
         (:domain plancraft-{})\n  (:objects\n    {} - amount)\n  (:init\n{init}  )\n  \
         (:goal (made-target)))\n",
        pddl_name(&example.id),
        pddl_name(&example.id),
        numbers.join(" ")
    );
    Compiled {
        domain,
        problem,
        actions,
        model,
        bound,
    }
}

fn pddl_name(id: &str) -> String {
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

/// One action: for every item whose count changes, its count before and after.
fn action(
    world: &World,
    model: &CounterModel,
    transition: &Transition,
    name: &str,
    deltas: &mut BTreeSet<u16>,
) -> String {
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
            precondition.push(format!("(sum {after} n{magnitude} {before})"));
        } else if delta > 0 {
            precondition.push(format!("(sum {before} n{magnitude} {after})"));
        } else {
            let needed = transition
                .consumes
                .iter()
                .find(|(i, _)| *i == item)
                .map_or(0, |(_, n)| *n);
            precondition.push(format!("(sum {after} n{needed} {before})"));
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
    format!(
        "  (:action {name}\n    :parameters ({} - amount)\n    :precondition (and {})\n    \
         :effect (and {}))\n",
        parameters.join(" "),
        precondition.join(" "),
        effect.join(" ")
    )
}

/// The transitions a plan (IPC plan text: `(action args…)` lines, `;` comments) applies, in
/// order, or the first line that names no action of the compiled domain.
pub fn plan_transitions(compiled: &Compiled, plan: &str) -> Result<Vec<Transition>, String> {
    let mut out = Vec::new();
    for (number, line) in plan.lines().enumerate() {
        let line = line.split(';').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let inner = line
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ':' || c == ' ');
        let name = inner
            .trim_start_matches('(')
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let transition = compiled.actions.get(&name).ok_or_else(|| {
            format!(
                "line {}: `{name}` is not an action of the compiled domain",
                number + 1
            )
        })?;
        out.push(transition.clone());
    }
    Ok(out)
}
