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
use crate::plancraft::data::world::{RecipeKind, World};
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
pub fn compile(world: &World, example: &Example, plan: Option<&[Transition]>) -> Compiled {
    let held = super::held_types(example);
    let available = super::model::relaxed_closure(world, &held);
    let model = CounterModel::new(world, example.target, &available);
    let start = super::start_counts(&model, example);
    let bound = saturation_bound(&start, plan);
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
    // Items some action names are the domain's constants; the others are the problem's objects.
    let named: BTreeSet<usize> = model
        .transitions
        .iter()
        .flat_map(|t| t.consumes.iter().map(|(item, _)| *item).chain([t.makes]))
        .collect();
    let items: Vec<&str> = named.iter().map(|&i| world.name(model.items[i])).collect();
    let other_items: Vec<&str> = (0..model.items.len())
        .filter(|i| !named.contains(i))
        .map(|i| world.name(model.items[i]))
        .collect();
    let mut constants = String::new();
    if !items.is_empty() {
        let _ = write!(constants, "\n    {} - item", items.join(" "));
    }
    if !deltas.is_empty() {
        let amounts: Vec<String> = deltas.iter().map(|d| format!("n{d}")).collect();
        let _ = write!(constants, "\n    {} - amount", amounts.join(" "));
    }
    let mut domain = String::new();
    let _ = write!(
        domain,
        ";; Plancraft example {} at the counter level, compiled by pddlc (docs/plancraft.md).\n\
         (define (domain plancraft-{})\n  (:requirements :strips :typing)\n  (:types item amount)\n  \
         (:constants{constants})\n  (:predicates\n    (count ?i - item ?n - amount)\n    \
         (minus ?a - amount ?d - amount ?b - amount)\n    (plus ?a - amount ?d - amount ?b - amount)\n    (made-target))\n{action_text})\n",
        example.id,
        pddl_name(&example.id),
    );
    // The amounts actions name are the domain's constants; the rest are the problem's objects.
    let numbers: Vec<String> = (0..=bound)
        .filter(|n| !deltas.contains(n))
        .map(|n| format!("n{n}"))
        .collect();
    let mut init = String::new();
    for (local, &item) in model.items.iter().enumerate() {
        let _ = writeln!(
            init,
            "    (count {} n{})",
            world.name(item),
            start[local].min(bound)
        );
    }
    init.push_str(&amount_facts(&deltas, bound));
    let mut problem = String::new();
    let _ = write!(
        problem,
        ";; Counts saturate at {bound}.\n(define (problem plancraft-{}-task)\n  \
         (:domain plancraft-{})\n  (:objects\n    {}{} - amount)\n  (:init\n{init}  )\n  \
         (:goal (made-target)))\n",
        pddl_name(&example.id),
        pddl_name(&example.id),
        if other_items.is_empty() {
            String::new()
        } else {
            format!("{} - item\n    ", other_items.join(" "))
        },
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

/// The largest count represented: the most the plan consumes of any one item, or, without
/// a plan, the largest count held plus 64 (the module's comment says why).
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
