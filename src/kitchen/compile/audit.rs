//! The audit flavour's own parts and the end-of-plan audits: Simmer's syntax checks as
//! preconditions, the stand-in for steps the domain cannot express, and the food audit's
//! derived predicates.

use super::action::ActionLowering;
use super::flavour::Flavour;
use super::ir::{self, Formula, Term, and, atom, eq, exists, not, or};
use super::vocabulary::{OBJECT, PLACE, PROPERTY, UNEXPRESSIBLE, derived, property, status};
use crate::ast::{Action as PddlAction, EffectKind, Structure};
use crate::kitchen::data::model::SkipRuleDef;
use crate::kitchen::data::world::{Action, World};

/// The 0-ary predicate that no state makes true: the precondition of the stand-in step.
pub const EXPRESSIBLE_STEP: &str = "expressible-step";

/// Audit flavour: Simmer's syntax checks on the bound objects, which record a failure and
/// still run the handler (quirk Q6): every object named exists (value and name roles aside),
/// and no object is bound to two roles (value roles aside).
pub fn syntax_preconditions(
    world: &World,
    action: &Action,
    lowering: &ActionLowering,
) -> Vec<Formula> {
    let bound = lowering.bound_roles();
    let mut out = Vec::new();
    for (role, term) in &bound {
        if !world.is_name_role(&action.roles[*role].name) {
            out.push(atom("present", vec![term.clone()]));
        }
    }
    for (n, (_, term)) in bound.iter().enumerate() {
        for (_, other) in &bound[n + 1..] {
            out.push(not(eq(term, other)));
        }
    }
    out
}

/// Whether an unsatisfied precondition that `validate` reports is one of
/// [`syntax_preconditions`]: `(present x)` or `(not (= x y))`. Simmer reports these as syntax
/// failures, the others as immediate ones.
pub fn is_syntax_condition(condition: &str) -> bool {
    condition.starts_with("(present ") || condition.starts_with("(not (= ")
}

/// The stand-in for a plan step the domain cannot express: it always fails.
pub fn unexpressible_step() -> PddlAction {
    PddlAction {
        name: ir::name(UNEXPRESSIBLE),
        parameters: Vec::new(),
        vars: Vec::new(),
        precondition: Some(ir::gd(&atom(EXPRESSIBLE_STEP, vec![]))),
        effect: Some(ir::effect(EffectKind::And { args: Vec::new() })),
        span: ir::span(),
    }
}

/// The food audit's object filter (semantics §8.1) as a formula on `?o`. In the planning
/// flavour the storage rule hides what `storage` says.
fn skipped(rule: &SkipRuleDef, object: &Term, storage: Storage) -> Formula {
    let has = |p: &String| atom("has", vec![object.clone(), property(p)]);
    let mut parts = Vec::new();
    if !rule.any_property.is_empty() {
        parts.push(or(rule.any_property.iter().map(has).collect()));
    }
    if !rule.no_property.is_empty() {
        parts.push(not(or(rule.no_property.iter().map(has).collect())));
    }
    if !rule.only_properties.is_empty() {
        let p = Term::var("p");
        parts.push(Formula::Forall(
            vec![("p".into(), PROPERTY.into())],
            Box::new(or(vec![
                not(atom("has", vec![object.clone(), p.clone()])),
                or(rule
                    .only_properties
                    .iter()
                    .map(|q| eq(&p, &property(q)))
                    .collect()),
            ])),
        ));
    }
    if !rule.located_in.is_empty() {
        let unmoved = match storage {
            Storage::Hides => false,
            Storage::HidesUnmoved if rule.strict_unmoved => true,
            Storage::HidesUnmoved => false,
            Storage::HidesNothing => return Formula::False,
        };
        let mut located = vec![
            atom("loc", vec![object.clone(), Term::var("l")]),
            atom("storage", vec![Term::var("l")]),
        ];
        if unmoved {
            located.push(atom("home", vec![object.clone(), Term::var("l")]));
        }
        parts.push(exists(vec![("l".into(), PLACE.into())], and(located)));
    }
    and(parts)
}

/// What the food audit's storage rule hides: Simmer's anything located in storage; strict
/// mode's (the planning flavour's) only what is still where it started, for the rules marked
/// `strict_unmoved`, or nothing (strict mode's contamination check).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Storage {
    Hides,
    HidesUnmoved,
    HidesNothing,
}

/// The audit's derived predicates: `audited`, `cooked-like`, `contaminated`, `unwashed`.
pub fn derived_predicates(world: &World, flavour: Flavour) -> Vec<Structure> {
    let food_audit = &world.config.food_audit;
    let o = Term::var("o");
    let audited = |storage: Storage| {
        and(vec![
            atom("present", vec![o.clone()]),
            not(or(food_audit
                .skip
                .iter()
                .map(|rule| skipped(rule, &o, storage))
                .collect())),
        ])
    };
    let cooked_like = or(food_audit
        .cooked_states
        .iter()
        .map(|s| atom("is", vec![o.clone(), status(s)]))
        .collect());
    let planning = flavour == Flavour::Planning;
    vec![
        derived(
            "audited",
            &[("o", OBJECT)],
            audited(if planning {
                Storage::HidesUnmoved
            } else {
                Storage::Hides
            }),
        ),
        derived(
            "audited-anywhere",
            &[("o", OBJECT)],
            audited(if planning {
                Storage::HidesNothing
            } else {
                Storage::Hides
            }),
        ),
        derived("cooked-like", &[("o", OBJECT)], cooked_like),
        derived(
            "contaminated",
            &[("o", OBJECT), ("s", OBJECT)],
            and(vec![
                atom("audited-anywhere", vec![o.clone()]),
                atom("contam", vec![o.clone(), Term::var("s")]),
                not(eq(&o, &Term::var("s"))),
                not(atom("cooked-like", vec![o.clone()])),
            ]),
        ),
        derived(
            "unwashed",
            &[("o", OBJECT)],
            and(vec![
                atom("audited", vec![o.clone()]),
                atom("is", vec![o.clone(), status("dirty")]),
                not(and(vec![
                    atom("is", vec![o.clone(), status("cooked")]),
                    atom("has", vec![o.clone(), property("protein")]),
                ])),
            ]),
        ),
    ]
}
