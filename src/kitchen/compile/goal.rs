//! The problem's goal formula: a task's intended result (see `task`) and the end-of-plan
//! audits, one conjunct per possible failure.

use super::flavour::Flavour;
use super::ir::{Formula, Term, and, atom, not};
use super::spares::{Spare, spares_that_may_be_sources};
use super::task::TaskGoal;
use super::vocabulary::status;
use crate::kitchen::data::simmer::Env;
use crate::kitchen::data::world::World;

/// The objects that may carry contamination at the end, with the sources they may carry.
fn sources(world: &World, env: &Env) -> Vec<String> {
    let c = &world.config.contamination;
    env.objects
        .iter()
        .filter(|o| {
            c.source_properties.iter().all(|p| o.properties.contains(p))
                && !c.source_names_excluded.contains(&o.name)
        })
        .map(|o| o.id.clone())
        .collect()
}

/// The goal: the task's result (when given), then the audits, one conjunct per possible
/// failure so that an unmet conjunct names the failure.
pub fn formula(
    world: &World,
    env: &Env,
    goal: Option<&TaskGoal>,
    spares: &[Spare],
    flavour: Flavour,
) -> Formula {
    let mut parts = Vec::new();
    if let Some(g) = goal {
        if let Some(d) = &g.dish {
            let dish = Term::constant(&d.name);
            parts.push(atom("present", vec![dish.clone()]));
            if d.served {
                parts.push(atom("is", vec![dish.clone(), status("served")]));
            }
            for s in &d.states {
                parts.push(atom("is", vec![dish.clone(), status(s)]));
            }
            for ing in &g.ingredient {
                // Planning flavour: the dish is made of the ingredients in its container (in
                // Simmer a product's ingredients are only its container's contents, so a
                // planner could combine first and add them after). An ingredient is not
                // touched once combined, so it had its states before: the dish need not be
                // asked for them (a planner broke the batter to give it the egg's `broken`).
                // (Only for what one can carry: the tap a FILL leaves in the contents is no
                // part of the dish, and its states are still asked of the dish.)
                let grabbable = env
                    .objects
                    .iter()
                    .any(|o| o.id == ing.object && o.properties.iter().any(|p| p == "grabbable"));
                let inside = ing.container.as_deref() == Some(&d.container);
                if flavour == Flavour::Planning && grabbable && inside {
                    parts.push(atom(
                        "part-of",
                        vec![Term::constant(&ing.object), dish.clone()],
                    ));
                    continue;
                }
                // An ingredient elsewhere (the cake the icing is spread on) is no part of it.
                if !inside {
                    continue;
                }
                for s in &ing.states {
                    parts.push(atom("is", vec![dish.clone(), status(s)]));
                }
            }
        }
        for s in &g.serve {
            parts.push(atom("is", vec![Term::constant(s), status("served")]));
        }
        for ing in g.ingredient.iter().chain(&g.states) {
            let o = Term::constant(&ing.object);
            for s in &ing.states {
                parts.push(atom("is", vec![o.clone(), status(s)]));
            }
            if let Some(c) = &ing.container {
                parts.push(atom("in", vec![o.clone(), Term::constant(c)]));
            }
        }
    }
    let ids: Vec<String> = env
        .objects
        .iter()
        .map(|o| o.id.clone())
        .chain(spares.iter().map(|s| s.id.clone()))
        .collect();
    // The contamination sources: the task's protein objects, and what a plan may create
    // that can become one (a raw product of eggs contaminates what it touches).
    let mut sources = sources(world, env);
    sources.extend(
        spares_that_may_be_sources(world, spares)
            .into_iter()
            .map(|s| s.id.clone()),
    );
    for o in &ids {
        for s in &sources {
            if s != o {
                parts.push(not(atom(
                    "contaminated",
                    vec![Term::constant(o), Term::constant(s)],
                )));
            }
        }
    }
    for o in &ids {
        parts.push(not(atom("unwashed", vec![Term::constant(o)])));
    }
    for o in &env.objects {
        for h in &world.config.appliance_audit.hazards {
            if h.names.contains(&o.name) {
                parts.push(not(atom(
                    "is",
                    vec![Term::constant(&o.id), status(&h.state)],
                )));
            }
        }
    }
    and(parts)
}
