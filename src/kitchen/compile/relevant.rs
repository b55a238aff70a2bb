//! The planning flavour's relevant objects: a task's environment cut down to what its goal
//! needs, so that the grounder sees a few dozen objects rather than every one in the kitchen.

use super::task::TaskGoal;
use crate::kitchen::data::model::is_of_kind;
use crate::kitchen::data::simmer::{Env, EnvObject};
use crate::kitchen::data::simmer_id::SimmerId;
use crate::kitchen::data::world::{Action, Primitive, Test, World};
use std::collections::BTreeSet;

/// What the actions giving the goal's states need besides the objects the goal names.
struct GoalNeeds<'w> {
    /// A board and knives: the goal names a derivative or a state only cutting gives
    /// (`chopped`).
    cutting: bool,
    /// Texts tested in a vessel's contents (`oil`: FRY tests for it when the goal asks for
    /// something fried).
    contents: BTreeSet<&'w str>,
    /// The tools and vessels (affordances marked `keep`) the strict checks of those actions
    /// ask for: a brush, a colander, a dish to serve on.
    affordances: BTreeSet<&'w str>,
}

/// The affordances a test names, at any depth.
fn named_affordances<'w>(test: &'w Test, out: &mut BTreeSet<&'w str>) {
    match test {
        Test::Affords(_, use_) | Test::KitchenAffords(use_) | Test::ContentsAfford(_, use_) => {
            out.insert(use_.as_str());
        }
        Test::Any(tests) | Test::None(tests) => {
            tests.iter().for_each(|t| named_affordances(t, out));
        }
        _ => {}
    }
}

impl<'w> GoalNeeds<'w> {
    fn of(world: &'w World, goal: &TaskGoal) -> GoalNeeds<'w> {
        let mut wanted: BTreeSet<&str> = goal
            .ingredient
            .iter()
            .chain(&goal.states)
            .flat_map(|i| &i.states)
            .chain(goal.dish.iter().flat_map(|d| &d.states))
            .map(String::as_str)
            .collect();
        if goal.dish.as_ref().is_some_and(|d| d.served) || !goal.serve.is_empty() {
            wanted.insert("served");
        }
        let giving: Vec<&Action> = world
            .actions
            .values()
            .filter(|a| {
                a.effects.iter().any(|e| {
                    matches!(&e.primitive, Primitive::AddState(_, s) if wanted.contains(s.as_str()))
                })
            })
            .collect();
        let mut affordances = BTreeSet::new();
        for check in giving.iter().flat_map(|a| &a.checks).filter(|c| c.strict) {
            named_affordances(&check.test, &mut affordances);
        }
        affordances.retain(|use_| world.config.affordances.get(*use_).is_some_and(|a| a.keep));
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
        GoalNeeds {
            cutting,
            contents,
            affordances,
        }
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
        || needs.contents.iter().any(|v| is_of_kind(&object.name, v))
        || (has(object, "receptacle") && has(object, "heatable"))
        || is_of_kind(&object.name, &planning.water_source)
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
            .any(|s| s.as_str() == SimmerId::parse(l).place())
    });
    (!in_storage && object.states.iter().any(|s| s == "dirty"))
        || world
            .config
            .appliance_audit
            .hazards
            .iter()
            .any(|h| h.names.contains(&object.name) && object.states.contains(&h.state))
}

/// Adds to `keep` the objects with one of the affordance's properties and those of the first
/// of its classes the kitchen has (the plates, or else the bowls, to serve on).
fn keep_affording(world: &World, env: &Env, use_: &str, keep: &mut BTreeSet<String>) {
    let Some(affordance) = world.config.affordances.get(use_) else {
        return;
    };
    for object in &env.objects {
        if affordance.properties.iter().any(|p| has(object, p)) {
            keep.insert(object.id.clone());
        }
    }
    let first_class = affordance
        .classes
        .iter()
        .find(|class| env.objects.iter().any(|o| is_of_kind(&o.name, class)));
    if let Some(class) = first_class {
        for object in &env.objects {
            if is_of_kind(&object.name, class) {
                keep.insert(object.id.clone());
            }
        }
    }
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
    for use_ in &needs.affordances {
        keep_affording(world, env, use_, &mut keep);
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
