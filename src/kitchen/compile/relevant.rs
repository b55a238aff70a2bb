//! The planning flavour's relevant objects: a task's environment cut down to what its goal
//! needs, so that the grounder sees a few dozen objects rather than every one in the kitchen.

use super::goal::TaskGoal;
use super::planning::class_fits;
use crate::kitchen::simmer::{Env, EnvObject};
use crate::kitchen::world::{Action, Primitive, Test, World};
use std::collections::BTreeSet;

/// What the actions giving the goal's states need besides the objects the goal names.
struct GoalNeeds<'w> {
    /// A board and knives: the goal names a derivative or a state only cutting gives
    /// (`chopped`).
    cutting: bool,
    /// Texts tested in a vessel's contents (`oil`: FRY tests for it when the goal asks for
    /// something fried).
    contents: BTreeSet<&'w str>,
}

impl<'w> GoalNeeds<'w> {
    fn of(world: &'w World, goal: &TaskGoal) -> GoalNeeds<'w> {
        let wanted: BTreeSet<&String> = goal
            .ingredient
            .iter()
            .chain(&goal.states)
            .flat_map(|i| &i.states)
            .chain(goal.dish.iter().flat_map(|d| &d.states))
            .collect();
        let giving: Vec<&Action> = world
            .actions
            .values()
            .filter(|a| {
                a.effects.iter().any(
                    |e| matches!(&e.primitive, Primitive::AddState(_, s) if wanted.contains(s)),
                )
            })
            .collect();
        let cutting = !goal.derivatives_in(world).is_empty()
            || giving
                .iter()
                .any(|a| a.transforms.as_deref() == Some("cutting"));
        let contents = giving
            .iter()
            .flat_map(|a| &a.checks)
            .filter_map(|c| match &c.test {
                Test::ContentsIdContains(_, text) => Some(text.as_str()),
                _ => None,
            })
            .collect();
        GoalNeeds { cutting, contents }
    }
}

fn has(object: &EnvObject, property: &str) -> bool {
    object.properties.iter().any(|x| x == property)
}

/// Whether the object is a tool the goal may need: a heat source one can stand things on, what
/// the goal's actions test for in contents, a heatable vessel, the tap, the sink, the counter,
/// and the board and sharp tools when the goal needs cutting.
fn is_tool(world: &World, object: &EnvObject, needs: &GoalNeeds) -> bool {
    let planning = &world.config.planning;
    (has(object, "heatsource") && has(object, "surface"))
        || needs.contents.iter().any(|v| class_fits(&object.name, v))
        || (has(object, "receptacle") && has(object, "heatable"))
        || class_fits(&object.name, &planning.water_source)
        || object.name == planning.sink
        || object.name == planning.work_surface
        || (needs.cutting && (object.name == planning.cutting_board || has(object, "sharp")))
}

/// Whether the object fails the audits as it stands (dirty food out of storage, such as the two
/// potatoes beside the one the recipe names, or an appliance left on): the plan must deal with
/// it too.
fn fails_audit(world: &World, object: &EnvObject) -> bool {
    let in_storage = object.location.as_deref().is_some_and(|l| {
        world
            .config
            .food_audit
            .skip
            .iter()
            .flat_map(|r| r.located_in.iter())
            .any(|s| s.as_str() == strip_number(l))
    });
    (!in_storage && object.states.iter().any(|s| s == "dirty"))
        || world
            .config
            .appliance_audit
            .hazards
            .iter()
            .any(|h| h.names.contains(&object.name) && object.states.contains(&h.state))
}

/// A place's name without trailing `_` and digits: `fridge_1` is in storage as `fridge` is.
pub fn strip_number(place: &str) -> &str {
    place.trim_end_matches(|c: char| c == '_' || c.is_ascii_digit())
}

/// Adds to `keep`, until nothing changes, the objects the kept ones are located in (by id, or
/// a bare place `fridge` by `fridge_1`).
fn keep_containers(env: &Env, keep: &mut BTreeSet<String>) {
    let ids: BTreeSet<&str> = env.objects.iter().map(|o| o.id.as_str()).collect();
    loop {
        let before = keep.len();
        for object in &env.objects {
            if !keep.contains(&object.id) {
                continue;
            }
            if let Some(location) = &object.location {
                for container in [location.clone(), format!("{location}_1")] {
                    if ids.contains(container.as_str()) {
                        keep.insert(container);
                    }
                }
            }
        }
        if keep.len() == before {
            break;
        }
    }
}

/// The planning flavour's environment: the objects the goal names, the tools to work them
/// (heat sources that are surfaces, heatable receptacles, the tap and sink, a board and sharp
/// tools when the goal needs a derivative, the counter), the objects that fail the audits as
/// they stand, and, transitively, the objects they are stored in. Other objects stay where they
/// are in Simmer's run, untouched by the plan.
pub fn relevant_env(world: &World, env: &Env, goal: &TaskGoal) -> Env {
    let needs = GoalNeeds::of(world, goal);
    let mut keep: BTreeSet<String> = goal.objects().into_iter().collect();
    for object in &env.objects {
        if is_tool(world, object, &needs) || fails_audit(world, object) {
            keep.insert(object.id.clone());
        }
    }
    keep_containers(env, &mut keep);
    Env {
        objects: env
            .objects
            .iter()
            .filter(|o| keep.contains(&o.id))
            .cloned()
            .collect(),
        actions: env.actions.clone(),
        agent: env.agent.clone(),
    }
}
