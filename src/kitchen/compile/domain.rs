//! The compiled domain, assembled in one place: the vocabulary, the predicates (each
//! flavour's own included), one action per action variant, and each flavour's derived
//! predicates.

use super::flavour::Flavour;
use super::vocabulary::{
    self, IN_LEVELS, KIND, OBJECT, PLACE, PROPERTY, STATUS, Vocabulary, affords_predicate,
    class_affords_predicate, flag_predicate, holds_affording_predicate, kitchen_affords_predicate,
    may_afford_predicate, skeleton,
};
use super::{audit, ir, lower, planning, rules, variants};
use crate::ast::{AtomicSkeleton, Domain, Name, Structure};
use crate::kitchen::data::world::World;

/// The PDDL requirements the compiled domain uses.
const REQUIREMENTS: &[&str] = &[
    ":strips",
    ":typing",
    ":negative-preconditions",
    ":equality",
    ":disjunctive-preconditions",
    ":existential-preconditions",
    ":universal-preconditions",
    ":conditional-effects",
    ":derived-predicates",
];

/// The name of the domain of a flavour, which its problems name too.
pub fn domain_name(flavour: Flavour) -> Name {
    ir::name(match flavour {
        Flavour::Audit => "kitchen-audit",
        Flavour::Planning => "kitchen-planning",
    })
}

/// The domain: types, the vocabulary as constants, predicates, the audit's derived predicates
/// and one action per action variant.
pub fn domain(world: &World, flavour: Flavour) -> Domain {
    let vocabulary = Vocabulary::of(world);
    let mut structures = Vec::new();
    for action in world.actions.values().filter(|a| a.handled) {
        for bound in variants::variants(action) {
            structures
                .extend(lower::lower_action(world, action, &bound, flavour).map(Structure::Action));
        }
    }
    if flavour == Flavour::Audit {
        structures.push(Structure::Action(audit::unexpressible_step()));
    }
    structures.extend(audit::derived_predicates(world, flavour));
    if flavour == Flavour::Planning {
        structures.extend(planning::derived_predicates());
        structures.extend(planning::affordance_predicates(world, &vocabulary));
        structures.extend(planning::contents_predicates(&vocabulary).1);
        structures.extend(rules::rule_predicates(world).into_iter().map(|(_, d)| d));
    }
    Domain {
        name: domain_name(flavour),
        requirements: REQUIREMENTS.iter().map(|r| ir::name(r)).collect(),
        types: vocabulary::types(),
        constants: vocabulary::constants(world, &vocabulary),
        predicates: predicates(world, &vocabulary, flavour),
        functions: Vec::new(),
        constraints: None,
        structures,
        span: ir::span(),
    }
}

/// Every predicate of the domain: the state, the audit's derived predicates, the flags, each
/// flavour's own, and the static id tests.
fn predicates(world: &World, vocabulary: &Vocabulary, flavour: Flavour) -> Vec<AtomicSkeleton> {
    let mut predicates = vec![
        skeleton("present", &[("o", OBJECT)]),
        skeleton("has", &[("o", OBJECT), ("p", PROPERTY)]),
        skeleton("is", &[("o", OBJECT), ("s", STATUS)]),
        skeleton("loc", &[("o", OBJECT), ("l", PLACE)]),
        skeleton("in", &[("o", OBJECT), ("c", OBJECT)]),
        skeleton("held", &[("o", OBJECT)]),
        skeleton("hands", &[("s", OBJECT)]),
        skeleton("contam", &[("o", OBJECT), ("s", OBJECT)]),
        skeleton("resolves", &[("l", PLACE), ("o", OBJECT)]),
        skeleton("storage", &[("l", PLACE)]),
        skeleton("source-excluded", &[("o", OBJECT)]),
        skeleton("spare", &[("o", OBJECT)]),
        skeleton("spare-of", &[("o", OBJECT), ("x", OBJECT), ("k", KIND)]),
        skeleton("spare-product", &[("o", OBJECT), ("k", KIND)]),
        skeleton("audited", &[("o", OBJECT)]),
        skeleton("audited-anywhere", &[("o", OBJECT)]),
        skeleton("cooked-like", &[("o", OBJECT)]),
        skeleton("contaminated", &[("o", OBJECT), ("s", OBJECT)]),
        skeleton("unwashed", &[("o", OBJECT)]),
    ];
    for flag in &world.config.agent.flags {
        predicates.push(skeleton(&flag_predicate(flag), &[]));
    }
    if flavour == Flavour::Planning {
        predicates.extend(planning::predicates(world));
        predicates.push(skeleton("home", &[("o", OBJECT), ("l", PLACE)]));
        for use_ in &vocabulary.affordances {
            predicates.push(skeleton(&affords_predicate(use_), &[("o", OBJECT)]));
            predicates.push(skeleton(&class_affords_predicate(use_), &[("o", OBJECT)]));
            predicates.push(skeleton(&may_afford_predicate(use_), &[("o", OBJECT)]));
            predicates.push(skeleton(&holds_affording_predicate(use_), &[("c", OBJECT)]));
            predicates.push(skeleton(&kitchen_affords_predicate(use_), &[]));
        }
        predicates.extend(planning::contents_predicates(vocabulary).0);
        predicates.extend(
            rules::rule_predicates(world)
                .into_iter()
                .map(|(skeleton, _)| skeleton),
        );
    }
    for test in &vocabulary.id_tests {
        predicates.push(skeleton(&test.predicate(), &[("o", OBJECT)]));
    }
    if flavour == Flavour::Audit {
        for level in &IN_LEVELS[1..] {
            predicates.push(skeleton(level, &[("o", OBJECT), ("c", OBJECT)]));
        }
        predicates.push(skeleton(audit::EXPRESSIBLE_STEP, &[]));
    }
    predicates
}
