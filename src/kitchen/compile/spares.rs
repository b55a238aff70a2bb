//! Spares: the objects a plan may create, declared in the problem ahead because PDDL creates
//! nothing.

use super::task::TaskGoal;
use super::variants::{creates, derivative_kind};
use crate::kitchen::data::simmer::Env;
use crate::kitchen::data::simmer_id::SimmerId;
use crate::kitchen::data::world::{Primitive, Test, World};
use std::collections::{BTreeMap, BTreeSet};

/// An object that a plan may create, declared in the problem ahead (a spare).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Spare {
    /// Simmer's id, `lettuce_chunks_1`.
    pub id: String,
    /// The class name, `lettuce_chunks`.
    pub name: String,
    /// The object it is derived from and the kind (`chunks`), for derivatives.
    pub parent: Option<(String, String)>,
}

/// The kinds of object the `product` primitive makes (JUICE's juice, BREW's coffee): a spare
/// of such a kind has no parent.
pub fn product_kinds(world: &World) -> BTreeSet<&str> {
    world
        .actions
        .values()
        .flat_map(|a| &a.effects)
        .filter_map(|e| match &e.primitive {
            Primitive::Product(_, creation) => Some(creation.value.as_str()),
            _ => None,
        })
        .collect()
}

/// The default pool of spares for a task: one derivative per object and creating action the
/// goal needs (CHOP for an ingredient the goal wants `chopped`), and the COMBINE products the
/// goal names.
pub fn default_spares(world: &World, env: &Env, goal: Option<&TaskGoal>) -> Vec<Spare> {
    let mut out: Vec<Spare> = Vec::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut push = |out: &mut Vec<Spare>, base: String, parent: Option<(String, String)>| {
        let n = counts.entry(base.clone()).or_insert(0);
        *n += 1;
        out.push(Spare {
            id: format!("{base}_{n}"),
            name: base,
            parent,
        });
    };
    let mut needed: BTreeSet<(String, String)> = goal
        .map(|g| g.derivatives_in(world))
        .unwrap_or_default()
        .into_iter()
        .collect();
    needed.extend(prerequisite_creations(world, env, &needed));
    for object in &env.objects {
        for action in world.actions.values() {
            if !creates(action) {
                continue;
            }
            let Some(kind) = derivative_kind(action) else {
                continue;
            };
            let is_product = action
                .effects
                .iter()
                .any(|e| matches!(e.primitive, Primitive::Product(..)));
            let wanted = needed.contains(&(object.id.clone(), action.name.clone()));
            if is_product {
                // A product (JUICE's juice) is made in its appliance, not from a parent: one
                // when the goal needs the action on this object (`juiced`).
                if wanted {
                    push(&mut out, kind.to_string(), None);
                }
                continue;
            }
            if wanted {
                push(
                    &mut out,
                    format!("{}_{kind}", object.name),
                    Some((object.id.clone(), kind.to_string())),
                );
            }
        }
    }
    if let Some(goal) = goal {
        // A goal object no environment has, named like a product (`brewed_coffee_1`): the
        // product primitive makes it (BREW), so it is a spare of that kind.
        let product_kinds = product_kinds(world);
        for id in goal.objects() {
            let kind = SimmerId::parse(&id).class().to_string();
            let known = env.objects.iter().any(|o| o.id == id) || out.iter().any(|s| s.id == id);
            if !known && product_kinds.contains(kind.as_str()) {
                push(&mut out, kind, None);
            }
        }
        for product in goal.products() {
            out.push(Spare {
                id: product.clone(),
                name: SimmerId::parse(&product).class().to_string(),
                parent: None,
            });
        }
    }
    out
}

/// The creating actions a needed one's strict checks ask to come first, for the same object:
/// the onion is peeled (PEEL makes peels) before it is sliced.
fn prerequisite_creations(
    world: &World,
    env: &Env,
    needed: &BTreeSet<(String, String)>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (id, action_name) in needed {
        let (Some(action), Some(object)) = (
            world.actions.get(action_name),
            env.objects.iter().find(|o| &o.id == id),
        ) else {
            continue;
        };
        let Some(role) = action.roles.iter().position(|r| r.name == "object") else {
            continue;
        };
        for check in action.checks.iter().filter(|c| c.strict) {
            for state in required_states(world, &check.test, role, &object.name) {
                for giver in world.actions.values().filter(|a| creates(a)) {
                    let gives = giver
                        .effects
                        .iter()
                        .any(|e| matches!(&e.primitive, Primitive::AddState(_, x) if *x == state));
                    if gives {
                        out.push((id.clone(), giver.name.clone()));
                    }
                }
            }
        }
    }
    out
}

/// The states of the role a check asks for, given the object's class: nothing when an
/// alternative of an `any` holds by the class alone (`none` of an affordance it lacks).
fn required_states(world: &World, test: &Test, role: usize, class: &str) -> Vec<String> {
    let affords = |use_: &str| {
        world
            .config
            .affordances
            .get(use_)
            .is_some_and(|a| a.fits_class(class))
    };
    let holds_by_class = |t: &Test| match t {
        Test::None(tests) => tests
            .iter()
            .all(|t| matches!(t, Test::Affords(r, use_) if *r == role && !affords(use_))),
        _ => false,
    };
    match test {
        Test::HasState(r, state) if *r == role => vec![state.clone()],
        Test::Any(alternatives) if !alternatives.iter().any(holds_by_class) => alternatives
            .iter()
            .flat_map(|t| required_states(world, t, role, class))
            .collect(),
        _ => Vec::new(),
    }
}

/// The objects a plan may create that may become contamination sources: COMBINE products and
/// creations without a parent (they unite their ingredients' properties), and derivatives too
/// when some creation can give one a source property.
pub fn spares_that_may_be_sources<'s>(world: &World, spares: &'s [Spare]) -> Vec<&'s Spare> {
    let source_properties = &world.config.contamination.source_properties;
    let derivatives = world.actions.values().any(|a| {
        a.effects.iter().any(|e| match &e.primitive {
            Primitive::Derive(_, c)
            | Primitive::Byproduct(_, c)
            | Primitive::Product(_, c)
            | Primitive::GrateInto(_, _, c) => source_properties
                .iter()
                .any(|p| c.properties.contains(p) || c.inherit.contains(p)),
            _ => false,
        })
    });
    spares
        .iter()
        .filter(|s| s.parent.is_none() || derivatives)
        .collect()
}
