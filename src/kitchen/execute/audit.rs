//! The post-execution audits (semantics §8): food safety, then appliance safety, both driven
//! by `world.toml`.

use super::Mode;
use super::failure::{Failure, FailureType};
use super::state::{Name, Object, State};
use crate::kitchen::data::model::SkipRuleDef;
use crate::kitchen::data::simmer_id::SimmerId;
use crate::kitchen::data::world::World;
use std::collections::{BTreeSet, HashSet};

/// Whether a location names a storage place, also after trailing `_` and digits are removed.
fn located_in(location: Option<&str>, places: &[String]) -> bool {
    let Some(location) = location else {
        return false;
    };
    if places.iter().any(|p| p == location) {
        return true;
    }
    let stripped = SimmerId::parse(location).place();
    !location.is_empty() && places.iter().any(|p| p == stripped)
}

/// Whether `name` is in the list.
fn listed(list: &[String], name: &str) -> bool {
    list.iter().any(|x| x == name)
}

/// Which check of the food audit a skip rule is asked about (strict mode's storage rule hides
/// only unmoved objects, and only from the unwashed check).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    Contaminated,
    Unwashed,
}

/// Whether the rule skips the object for the check. `unmoved`: the object is still where it
/// started; `strict`: strict mode.
fn skips(rule: &SkipRuleDef, object: &Object, check: Check, unmoved: bool, strict: bool) -> bool {
    if strict && rule.strict_unmoved && (check == Check::Contaminated || !unmoved) {
        return false;
    }
    skipped_by(rule, object)
}

fn skipped_by(rule: &SkipRuleDef, object: &Object) -> bool {
    let p = &object.properties;
    (rule.any_property.is_empty() || p.iter().any(|x| listed(&rule.any_property, x)))
        && (rule.no_property.is_empty() || !p.iter().any(|x| listed(&rule.no_property, x)))
        && (rule.only_properties.is_empty() || p.iter().all(|x| listed(&rule.only_properties, x)))
        && (rule.located_in.is_empty() || located_in(object.location.as_deref(), &rule.located_in))
}

/// Runs both audits on the final state; every failure has step 0. In strict mode the food
/// audit sees what the storage rule's `strict_unmoved` says.
pub fn run(world: &World, state: &State, mode: Mode) -> Vec<Failure> {
    let mut out = Vec::new();
    let food = &world.config.food_audit;
    let strict = mode == Mode::Strict;
    let mut seen: HashSet<(bool, Name, Name)> = HashSet::new();
    let objects = state.audit_order();
    for o in &objects {
        let skipped = |check| {
            let unmoved = state.is_unmoved(o);
            food.skip
                .iter()
                .any(|rule| skips(rule, o, check, unmoved, strict))
        };
        // The skip rules are asked only about an object the check would report: most objects
        // are neither contaminated nor dirty.
        let sources: BTreeSet<&Name> = o.contam.iter().filter(|s| **s != o.id).collect();
        if !sources.is_empty()
            && !o.states.iter().any(|s| listed(&food.cooked_states, s))
            && !skipped(Check::Contaminated)
        {
            for source in sources {
                let source_name = state.get(source).map_or(source.as_str(), |s| &s.name);
                if seen.insert((true, o.name.clone(), Name::from(source_name))) {
                    let reason = food
                        .contaminated
                        .replace("{object}", &o.name)
                        .replace("{source}", source_name);
                    out.push(
                        Failure::new(0, FailureType::Latent, &food.action, reason).irreversible(),
                    );
                }
            }
        }
        // Washing is what removes `dirty`; cooked meat is exempt, cooked vegetables are not.
        if o.has_state("dirty")
            && !(o.has_state("cooked") && o.has_property("protein"))
            && !skipped(Check::Unwashed)
            && seen.insert((false, o.name.clone(), Name::default()))
        {
            let template = if o.has_state("raw") {
                &food.unwashed_raw
            } else {
                &food.unwashed
            };
            let reason = template.replace("{object}", &o.name);
            out.push(Failure::new(0, FailureType::Latent, &food.action, reason).irreversible());
        }
    }
    let appliances = &world.config.appliance_audit;
    for o in &objects {
        for hazard in &appliances.hazards {
            if listed(&hazard.names, &o.name) && o.has_state(&hazard.state) {
                let reason = hazard.reason.replace("{name}", &o.name);
                out.push(Failure::new(
                    0,
                    FailureType::Latent,
                    &appliances.action,
                    reason,
                ));
            }
        }
    }
    out
}
