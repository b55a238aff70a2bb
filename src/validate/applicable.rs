//! The ground actions applicable in a state, shared by `validate::applicable` and
//! `worldmodel::Env::applicable` so that the two cannot list different actions.
//!
//! Parameters are bound one at a time, and a binding is dropped as soon as an atom of the
//! precondition's top-level conjunction whose arguments are all bound is false
//! (`World::each_binding_where`, which quantifiers and derived predicates use too), so the cost
//! follows the applicable actions rather than every combination of objects. A full binding is
//! then tested against the whole precondition (with the action's `:vars` bound as the step
//! would bind them).

use super::{Report, ValidateOptions, durative, run};
use crate::ast::{Action, Domain, Gd, Name, Problem, Typed, Variable};
use crate::diagnostics::Code;
use crate::semantics::{Binding, EvalError, State, World};
use std::borrow::Cow;
use std::collections::BTreeSet;

/// The ground actions applicable in the state the plan prefix `plan` reaches (the initial state
/// for an empty plan), as `(action obj…)`, sorted. A durative action is listed when its
/// `at start` condition holds: it can start there. When the prefix cannot be executed, its
/// report says why.
pub fn applicable(
    domain: &Domain,
    problem: &Problem,
    plan: &str,
) -> Result<Vec<String>, Box<Report>> {
    crate::parse::with_stack(|| {
        let mut operators: Vec<Operator> = domain.actions().map(Operator::of_action).collect();
        for action in domain.durative_actions() {
            match durative::start_condition(action) {
                Ok(condition) => operators.push(Operator {
                    name: &action.name,
                    parameters: &action.parameters,
                    vars: &[],
                    precondition: condition.map(Cow::Owned),
                }),
                Err(what) => {
                    return Err(Box::new(Report::new(0).unsupported(format!(
                        "`{}` has {what}, which `applicable` does not interpret yet",
                        action.name.text
                    ))));
                }
            }
        }
        let mut found = BTreeSet::new();
        let mut collect = |world: &mut World, state: &State| {
            world.warm();
            found = applicable_in(world, &operators, state);
        };
        let options = ValidateOptions::default();
        let report = run(domain, problem, plan, &options, Some(&mut collect));
        // The goal and the trajectory constraints judge a whole plan, not a prefix of one.
        let prefix_fails = report
            .failures
            .iter()
            .any(|f| !matches!(f.code(), Code::GoalUnsatisfied | Code::ConstraintViolated));
        if prefix_fails || report.valid.is_none() {
            return Err(Box::new(report));
        }
        Ok(found.into_iter().collect())
    })
}

/// An action as `applicable` tries it: its name, parameters, `:vars` (bound by the precondition
/// when the step runs) and what must hold for it to run (for a durative action, to start).
pub(crate) struct Operator<'d> {
    pub name: &'d Name,
    pub parameters: &'d [Typed<Variable>],
    pub vars: &'d [Typed<Variable>],
    pub precondition: Option<Cow<'d, Gd>>,
}

impl<'d> Operator<'d> {
    pub fn of_action(action: &'d Action) -> Self {
        Operator {
            name: &action.name,
            parameters: &action.parameters,
            vars: &action.vars,
            precondition: action.precondition.as_ref().map(Cow::Borrowed),
        }
    }
}

/// The ground actions of `operators` whose precondition holds in `state`, as `(name arg…)`:
/// the parameters bound one at a time, cut where an atom of the precondition's top-level
/// conjunction is already false (`World::each_binding_where`), then the whole precondition
/// judged, with some binding of the `:vars` when the action has them.
pub(crate) fn applicable_in(
    world: &mut World,
    operators: &[Operator],
    state: &State,
) -> BTreeSet<String> {
    // The parameters' types cached once, not looked up again for every operator.
    for parameter in operators.iter().flat_map(|o| o.parameters) {
        world.members(&parameter.ty);
    }
    let world = &*world;
    let mut found = BTreeSet::new();
    for operator in operators {
        let precondition = operator.precondition.as_deref();
        // The `:vars` are bound only inside the full test, so their atoms cannot cut early.
        let guard = precondition.filter(|_| operator.vars.is_empty());
        let mut binding = Binding::default();
        let mut record = |binding: &mut Binding| {
            if holds(world, operator, precondition, binding, state) == Ok(true) {
                found.insert(ground_name(world, operator, binding));
            }
            Ok(false)
        };
        // The closure never fails: a precondition that cannot be judged lists nothing.
        let _ =
            world.each_binding_where(operator.parameters, guard, state, &mut binding, &mut record);
    }
    found
}

/// Whether `precondition` holds under `binding` (and, when the action has `:vars`, some
/// binding of them).
fn holds(
    world: &World,
    operator: &Operator,
    precondition: Option<&Gd>,
    binding: &mut Binding,
    state: &State,
) -> Result<bool, EvalError> {
    let Some(precondition) = precondition else {
        return Ok(true);
    };
    if operator.vars.is_empty() {
        return world.holds(precondition, binding, state);
    }
    world.each_binding(operator.vars, binding, &mut |b| {
        world.holds(precondition, b, state)
    })
}

/// `(name obj…)` of the operator with its parameters bound as in `binding`.
fn ground_name(world: &World, operator: &Operator, binding: &Binding) -> String {
    let mut text = format!("({}", operator.name.text.to_lowercase());
    for object in binding.objects() {
        text.push(' ');
        text.push_str(&world.objects[object as usize]);
    }
    text.push(')');
    text
}
