//! Lowering one action variant: roles to parameters, checks to a precondition (with each
//! flavour's additions from `audit`, `planning` and `rules`), effect primitives to writes (see
//! `primitives`), and the writes to one PDDL effect (see `ir`).

use super::action::{ActionLowering, FreshNames};
use super::flavour::Flavour;
use super::ir::{self, Term, and};
use super::variants::{creates, variant_name};
use super::vocabulary::object_variable;
use super::{audit, planning, rules};
use crate::ast::{Action as PddlAction, EffectKind};
use crate::kitchen::data::world::{Action, World};

/// One action variant as a PDDL action: a parameter per bound object role (and one for the
/// object it creates), the checks (with each flavour's additions) as the precondition, the
/// primitives as the effect. `None` for a variant of the planning flavour that can never
/// apply (`planning::holds_two`).
pub fn lower_action(
    world: &World,
    action: &Action,
    bound: &[bool],
    flavour: Flavour,
) -> Option<PddlAction> {
    let mut roles = Vec::new();
    let mut parameters = Vec::new();
    for (role, &is_bound) in action.roles.iter().zip(bound) {
        if is_bound && !world.is_value_role(&role.name) {
            roles.push(Some(Term::var(&role.name)));
            parameters.push(object_variable(&role.name));
        } else {
            roles.push(None);
        }
    }
    let created = creates(action).then(|| Term::var("new"));
    if created.is_some() {
        parameters.push(object_variable("new"));
    }
    let mut lowering = ActionLowering {
        world,
        roles,
        writes: Vec::new(),
        fresh: FreshNames::default(),
        created,
        flavour,
    };
    let mut precondition = Vec::new();
    if flavour == Flavour::Audit {
        precondition.extend(audit::syntax_preconditions(world, action, &lowering));
    }
    for (index, check) in action.checks.iter().enumerate() {
        if check.when.is_some_and(|r| !bound[r]) || check.unless.is_some_and(|r| bound[r]) {
            continue;
        }
        // The cook's rules are strict mode's, which the planning flavour compiles.
        if check.strict && flavour == Flavour::Audit {
            continue;
        }
        if rules::is_derived(check) {
            precondition.push(rules::rule_atom(action, bound, index, &lowering));
            continue;
        }
        precondition.push(lowering.test(&check.test));
    }
    if flavour == Flavour::Planning {
        precondition.extend(planning::preconditions(world, action, &lowering));
        precondition = precondition
            .into_iter()
            .map(planning::has_contents_axiom)
            .collect();
        if planning::holds_two(&precondition) {
            return None;
        }
    }
    for effect in &action.effects {
        if effect.when.is_some_and(|r| !bound[r]) || (effect.strict && flavour == Flavour::Audit) {
            continue;
        }
        match &effect.condition {
            Some(test) => {
                let condition = lowering.test(test);
                let condition = lowering.now(&condition);
                lowering.guarded_primitive(condition, &effect.primitive);
            }
            None => lowering.primitive(&effect.primitive),
        }
    }
    let effects = ir::effects(&lowering.writes);
    Some(PddlAction {
        name: ir::name(&variant_name(action, bound)),
        parameters: ir::typed_vars(&parameters),
        vars: Vec::new(),
        precondition: Some(ir::gd(&and(precondition))),
        effect: Some(ir::effect(EffectKind::And { args: effects })),
        span: ir::span(),
    })
}
