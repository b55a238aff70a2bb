//! The compiled domain: the vocabulary, one action per action variant, and each flavour's
//! derived predicates.

use super::vocabulary::{self, Vocabulary};
use super::{Flavour, audit, ir, lower, planning, rules};
use crate::ast::{Domain, Name, Structure};
use crate::kitchen::world::World;

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
        for bound in lower::variants(action) {
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
        predicates: vocabulary::predicates(world, &vocabulary, flavour),
        functions: Vec::new(),
        constraints: None,
        structures,
        span: ir::span(),
    }
}
