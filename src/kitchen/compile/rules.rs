//! The planning flavour's derived predicates of the cook's disjunctive rules: a strict check
//! whose test is an `any` or a `none` (the vessel fits the heat source, no bare wrapper is
//! cooked) becomes one atom `(rule-ACTION-N ?role …)` in the action's precondition, defined by
//! a derived predicate over the roles it reads. Inlined, Fast Downward's translator splits the
//! action into one copy per disjunct (a `none` of an affordance alone is three: absent, not
//! possible, not afforded), and the copies multiply; an axiom over two roles costs little.

use super::action::{ActionLowering, FreshNames};
use super::flavour::Flavour;
use super::ir::{Formula, Term, atom};
use super::planning;
use super::variants::{variant_name, variants};
use super::vocabulary::{OBJECT, derived, skeleton};
use crate::ast::{AtomicSkeleton, Structure};
use crate::kitchen::data::world::{Action, Check, Role, Test, World};

/// Whether the planning flavour reads the check through its own derived predicate.
pub fn is_derived(check: &Check) -> bool {
    check.strict && matches!(check.test, Test::Any(_) | Test::None(_))
}

/// The derived predicate of the check at `index` of an action variant, named after the
/// affordances, properties and states it reads (`rule-heat-stovetop-hob`), and its index when
/// another derived check of the action reads the same.
fn predicate(action: &Action, bound: &[bool], index: usize) -> String {
    let words_of = |check: &Check| {
        let mut words = Vec::new();
        collect_words(&check.test, &mut words);
        words.dedup();
        words.join("-")
    };
    let words = words_of(&action.checks[index]);
    let shared = action
        .checks
        .iter()
        .enumerate()
        .any(|(i, c)| i != index && is_derived(c) && words_of(c) == words);
    let name = format!("rule-{}-{words}", variant_name(action, bound));
    if shared {
        format!("{name}-{index}")
    } else {
        name
    }
}

/// The affordances, properties, states and texts a test reads, in order.
fn collect_words(test: &Test, out: &mut Vec<String>) {
    match test {
        Test::HasProperty(_, w)
        | Test::HasState(_, w)
        | Test::IdContains(_, w)
        | Test::IdStartsWith(_, w)
        | Test::ContentsIdContains(_, w)
        | Test::Flag(w)
        | Test::Affords(_, w)
        | Test::ContentsAfford(_, w)
        | Test::KitchenAffords(w) => out.push(w.replace('_', "-")),
        Test::HasAnyProperty(_, ws) => out.extend(ws.iter().map(|w| w.replace('_', "-"))),
        Test::Any(tests) | Test::None(tests) => {
            for t in tests {
                collect_words(t, out);
            }
        }
        _ => {}
    }
}

/// The bound roles the test reads, in the order of the action's roles.
fn roles_read(test: &Test, roles: &[Option<Term>]) -> Vec<Role> {
    let mut read = Vec::new();
    collect_roles(test, &mut read);
    read.sort_unstable();
    read.dedup();
    read.retain(|r| roles.get(*r).is_some_and(Option::is_some));
    read
}

fn collect_roles(test: &Test, out: &mut Vec<Role>) {
    match test {
        Test::HoldingNothing | Test::Flag(_) | Test::KitchenAffords(_) => {}
        Test::Holds(r)
        | Test::HasProperty(r, _)
        | Test::HasAnyProperty(r, _)
        | Test::HasState(r, _)
        | Test::IdContains(r, _)
        | Test::IdStartsWith(r, _)
        | Test::HasContents(r)
        | Test::ContentsIdContains(r, _)
        | Test::OnAnySurface(r)
        | Test::HasLiquid(r)
        | Test::InAnyContainer(r)
        | Test::RecepOrOpen(r)
        | Test::Affords(r, _)
        | Test::ContentsAfford(r, _) => out.push(*r),
        Test::Contains(a, b) | Test::OnSurface(a, b) | Test::OnHeatsource(a, b) => {
            out.extend([*a, *b]);
        }
        Test::Any(tests) | Test::None(tests) => {
            for t in tests {
                collect_roles(t, out);
            }
        }
    }
}

/// The atom standing for the check at `index` in the variant's precondition.
pub fn rule_atom(
    action: &Action,
    bound: &[bool],
    index: usize,
    lowering: &ActionLowering<'_>,
) -> Formula {
    let check = &action.checks[index];
    let args: Vec<Term> = roles_read(&check.test, &lowering.roles)
        .into_iter()
        .filter_map(|r| lowering.role(r))
        .collect();
    atom(&predicate(action, bound, index), args)
}

/// Every derived rule of the planning flavour: its declaration and its definition.
pub fn rule_predicates(world: &World) -> Vec<(AtomicSkeleton, Structure)> {
    let mut out = Vec::new();
    for action in world.actions.values().filter(|a| a.handled) {
        for bound in variants(action) {
            let roles: Vec<Option<Term>> = action
                .roles
                .iter()
                .zip(&bound)
                .map(|(role, &is_bound)| {
                    (is_bound && !world.is_value_role(&role.name)).then(|| Term::var(&role.name))
                })
                .collect();
            for (index, check) in action.checks.iter().enumerate() {
                let skipped =
                    check.when.is_some_and(|r| !bound[r]) || check.unless.is_some_and(|r| bound[r]);
                if skipped || !is_derived(check) {
                    continue;
                }
                let mut lowering = ActionLowering {
                    world,
                    roles: roles.clone(),
                    writes: Vec::new(),
                    fresh: FreshNames::default(),
                    created: None,
                    flavour: Flavour::Planning,
                };
                let body = planning::has_contents_axiom(lowering.test(&check.test));
                let names: Vec<String> = roles_read(&check.test, &roles)
                    .into_iter()
                    .map(|r| action.roles[r].name.clone())
                    .collect();
                let params: Vec<(&str, &str)> =
                    names.iter().map(|n| (n.as_str(), OBJECT)).collect();
                let name = predicate(action, &bound, index);
                out.push((skeleton(&name, &params), derived(&name, &params, body)));
            }
        }
    }
    out
}
