//! Strict mode's rules that hold for every action, read off its roles and effect primitives
//! as the planning flavour's tightenings are (`compile/planning.rs`; docs/kitchen.md lists
//! each with its reason): nothing served or shut in a closed container is touched, boards,
//! tools and vessels are clean, roles take the kinds of objects they name, only open vessels
//! take contents, fixtures stay put, a dish is made of food, appliances do what they are for
//! and food is served onto a dish or a work surface. The goal-specific parts of the planning
//! flavour (what the task serves, its dish's container, the spares) are not rules of the
//! world and stay there.

use super::state::{Binding, State};
use crate::kitchen::data::model::is_of_kind;
use crate::kitchen::data::simmer_id::SimmerId;
use crate::kitchen::data::world::{Action, Primitive, Role, World};

/// The reasons the step breaks a rule, in the planning flavour's order; empty when it keeps
/// them all.
pub fn broken_rules(
    world: &World,
    state: &State,
    action: &Action,
    binding: &Binding,
) -> Vec<String> {
    let rules = Rules {
        world,
        state,
        action,
        binding,
    };
    let mut out = Vec::new();
    for role in 0..action.roles.len() {
        if rules.id(role).is_some() && !world.is_value_role(&action.roles[role].name) {
            rules.on_role(role, &mut out);
        }
    }
    rules.on_effects(&mut out);
    out
}

struct Rules<'a> {
    world: &'a World,
    state: &'a State,
    action: &'a Action,
    binding: &'a Binding,
}

impl Rules<'_> {
    fn id(&self, role: Role) -> Option<&str> {
        self.binding.get(role).and_then(|b| b.as_deref())
    }

    fn has(&self, id: &str, property: &str) -> bool {
        self.state.get(id).is_some_and(|o| o.has_property(property))
    }

    fn is(&self, id: &str, state: &str) -> bool {
        self.state.get(id).is_some_and(|o| o.has_state(state))
    }

    fn name(&self, id: &str) -> &str {
        self.state.get(id).map_or("", |o| o.name.as_str())
    }

    /// Whether the object is in the contents of something closed.
    fn enclosed(&self, id: &str) -> bool {
        self.state
            .initial
            .iter()
            .chain(&self.state.created)
            .any(|o| o.has_state("closed") && o.contents.iter().any(|c| c == id))
    }

    fn is_storage(&self, id: &str) -> bool {
        let stripped = SimmerId::parse(id).place();
        self.world
            .config
            .food_audit
            .skip
            .iter()
            .flat_map(|r| &r.located_in)
            .any(|s| s == stripped)
    }

    /// Whether the object takes the cutting-board role: a board, or in a kitchen without one a
    /// surface one cannot carry that is no heat source (the counter).
    fn fits_class_role(&self, id: &str, role: &str) -> bool {
        if is_of_kind(self.name(id), role) {
            return true;
        }
        let board = &self.world.config.planning.cutting_board;
        role == board
            && !self
                .state
                .initial
                .iter()
                .any(|o| is_of_kind(&o.name, board))
            && self.has(id, "surface")
            && !self.has(id, "heatsource")
            && !self.has(id, "grabbable")
    }

    /// The rules on one bound role.
    fn on_role(&self, role: Role, out: &mut Vec<String>) {
        let Some(id) = self.id(role) else { return };
        let role_name = self.action.roles[role].name.as_str();
        let planning = &self.world.config.planning;
        // A product is new: COMBINE does not overwrite what exists.
        if self.world.is_name_role(role_name) {
            if self.state.exists(id) {
                out.push(format!("{role_name} names an object that exists"));
            }
            return;
        }
        if self.is(id, "served") {
            out.push(format!("{role_name} already served"));
        }
        if self.enclosed(id) {
            out.push(format!("{role_name} inside a closed container"));
        }
        if planning.clean_roles.iter().any(|r| r == role_name) {
            if self.is(id, "dirty") {
                out.push(format!("{role_name} not clean"));
            }
            let sterilised = self.action.effects.iter().any(|e| {
                matches!(e.primitive, Primitive::Sterilise(r) | Primitive::ClearContam(r) if r == role)
            });
            let contaminated = self.state.get(id).is_some_and(|o| !o.contam.is_empty());
            if !sterilised && contaminated {
                out.push(format!("{role_name} contaminated"));
            }
        }
        if let Some(properties) = planning.role_properties.get(role_name)
            && !properties.iter().any(|p| self.has(id, p))
        {
            out.push(format!("{role_name} is not a {}", properties.join(" or ")));
        }
        if planning.class_roles.iter().any(|r| r == role_name)
            && !self.fits_class_role(id, role_name)
        {
            out.push(format!("{role_name} is not a {role_name}"));
        }
        if role_name == "appliance" {
            if !self.has(id, "switchable") {
                out.push("appliance not switchable".into());
            }
            if self.action.transforms.as_deref() == Some("cooking") && !self.has(id, "heatsource") {
                out.push("appliance is not a heat source".into());
            }
        }
    }

    /// The rules on what the effect primitives move, pour, fill, combine and serve.
    fn on_effects(&self, out: &mut Vec<String>) {
        let served = self.action.served_roles();
        for effect in &self.action.effects {
            let primitive = &effect.primitive;
            // Only vessels take contents, open ones, and storage only what is put in.
            let vessel = match primitive {
                Primitive::MoveInto(_, c)
                | Primitive::PourInto(_, c)
                | Primitive::MoveContents(_, c)
                | Primitive::Fill(c, _) => self.id(*c),
                _ => None,
            };
            if let Some(vessel) = vessel {
                if self.is(vessel, "closed") {
                    out.push("target is closed".into());
                }
                if !matches!(primitive, Primitive::MoveInto(..)) && self.is_storage(vessel) {
                    out.push("target is storage".into());
                }
                if !self.has(vessel, "receptacle") && !self.has(vessel, "container") {
                    out.push("target is not a vessel".into());
                }
            }
            // Fixtures stay put: what is placed, moved, poured out of or combined in is
            // grabbable.
            if let Primitive::PlaceOn(x, _)
            | Primitive::MoveInto(x, _)
            | Primitive::PourInto(x, _)
            | Primitive::MoveContents(x, _)
            | Primitive::CombineAs(x, _, _) = primitive
                && let Some(x) = self.id(*x)
                && !self.has(x, "grabbable")
            {
                out.push(format!("{x} cannot be carried"));
            }
            if let Primitive::Fill(_, source) = primitive
                && let Some(source) = self.id(*source)
                && !self.has(source, "fillable_source")
                && !self.has(source, "grabbable")
            {
                out.push("source is no tap or vessel".into());
            }
            if let Primitive::PourInto(x, _) = primitive
                && let Some(x) = self.id(*x)
            {
                if self.state.held.as_deref() != Some(x) {
                    out.push(format!("{x} not held"));
                }
                if !self.has(x, "pourable") && !self.has(x, "receptacle") {
                    out.push(format!("{x} is no liquid or vessel"));
                }
            }
            if let Primitive::Fill(v, _) = primitive
                && let Some(v) = self.id(*v)
                && !self.has(v, "grabbable")
            {
                out.push(format!("{v} cannot be carried"));
            }
            // A dish is made of food: no tool or vessel in the container is combined into it.
            if let Primitive::CombineAs(c, _, _) = primitive
                && let Some(c) = self.id(*c)
            {
                let contents = self
                    .state
                    .get(c)
                    .map(|o| o.contents.as_slice())
                    .unwrap_or_default();
                let not_food = contents.iter().any(|i| {
                    ["tool", "receptacle", "container"]
                        .iter()
                        .any(|p| self.has(i, p))
                });
                if not_food {
                    out.push("container holds a tool or vessel".into());
                }
            }
            // Food is served onto a dish one can carry or a work surface, not a heat source.
            if let Primitive::PlaceOn(x, target) = primitive
                && served.contains(x)
                && let Some(target) = self.id(*target)
                && !self.has(target, "grabbable")
                && (!self.has(target, "surface") || self.has(target, "heatsource"))
            {
                out.push("target is no dish or work surface".into());
            }
        }
    }
}
