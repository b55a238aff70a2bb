//! The ground actions applicable in a state, shared by `validate::applicable` and
//! `worldmodel::Env::applicable` so that the two cannot list different actions.
//!
//! Parameters are bound one at a time, and a binding is dropped as soon as an atom of the
//! precondition's top-level conjunction whose arguments are all bound is false, so the cost
//! follows the applicable actions rather than every combination of objects. A full binding is
//! then tested against the whole precondition (with the action's `:vars` bound as the step
//! would bind them).

use super::{Report, ValidateOptions, durative, run};
use crate::ast::{Action, Atom, Domain, Gd, GdKind, Name, Problem, Term, Typed, Variable};
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

/// The ground actions of `operators` whose precondition holds in `state`, as `(name arg…)`.
pub(crate) fn applicable_in(
    world: &mut World,
    operators: &[Operator],
    state: &State,
) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for operator in operators {
        let domains: Vec<Vec<u32>> = operator
            .parameters
            .iter()
            .map(|p| world.members(&p.ty))
            .collect();
        if domains.iter().any(Vec::is_empty) {
            continue;
        }
        let search = Search {
            world: &*world,
            state,
            operator,
            domains: &domains,
            checks: early_checks(operator),
        };
        let mut objects = Vec::with_capacity(domains.len());
        search.extend(&mut objects, &mut found);
    }
    found
}

/// One operator's bindings being enumerated.
struct Search<'a, 'd, 'w> {
    world: &'a World<'w>,
    state: &'a State,
    operator: &'a Operator<'d>,
    /// The objects each parameter ranges over.
    domains: &'a [Vec<u32>],
    /// The atoms tested once the parameter at each depth is bound.
    checks: Vec<Vec<&'a Atom>>,
}

impl Search<'_, '_, '_> {
    /// Binds the next parameter to each member of its domain that the checks at that depth
    /// allow; at full depth, tests the whole precondition.
    fn extend(&self, objects: &mut Vec<u32>, found: &mut BTreeSet<String>) {
        let depth = objects.len();
        if depth == self.domains.len() {
            if self.holds(objects) == Ok(true) {
                let mut text = format!("({}", self.operator.name.text.to_lowercase());
                for &o in objects.iter() {
                    text.push(' ');
                    text.push_str(&self.world.objects[o as usize]);
                }
                text.push(')');
                found.insert(text);
            }
            return;
        }
        for &object in &self.domains[depth] {
            objects.push(object);
            if self.may_hold(objects, &self.checks[depth]) {
                self.extend(objects, found);
            }
            objects.pop();
        }
    }

    /// Whether the whole precondition holds with the parameters bound to `objects` (and, when
    /// the action has `:vars`, some binding of them).
    fn holds(&self, objects: &[u32]) -> Result<bool, EvalError> {
        let operator = self.operator;
        let mut binding = bind(operator.parameters, objects);
        let Some(precondition) = &operator.precondition else {
            return Ok(true);
        };
        if operator.vars.is_empty() {
            return self.world.holds(precondition, &mut binding, self.state);
        }
        self.world
            .each_binding(operator.vars, &mut binding, &mut |b| {
                self.world.holds(precondition, b, self.state)
            })
    }

    /// Whether every atom of `atoms` (each needs only the parameters bound in `objects`) is
    /// true; an atom that cannot be evaluated does not rule the binding out.
    fn may_hold(&self, objects: &[u32], atoms: &[&Atom]) -> bool {
        if atoms.is_empty() {
            return true;
        }
        let binding = bind(self.operator.parameters, objects);
        atoms
            .iter()
            .all(|atom| match self.world.atom_fact(atom, &binding) {
                Ok(fact) => self.state.facts.contains(&fact) || self.state.derived.contains(&fact),
                Err(_) => true,
            })
    }
}

/// The first parameters bound to `objects`.
fn bind(parameters: &[Typed<Variable>], objects: &[u32]) -> Binding {
    let mut binding = Binding::default();
    for (param, &o) in parameters.iter().zip(objects) {
        binding.push(&param.item, o);
    }
    binding
}

/// For each parameter, the atoms of the precondition's top-level conjunction whose last
/// parameter (in order) it is: they can be tested once it is bound. Equalities are left to the
/// full test, and so is everything when the action has `:vars`.
fn early_checks<'a>(operator: &'a Operator) -> Vec<Vec<&'a Atom>> {
    let mut checks = vec![Vec::new(); operator.parameters.len()];
    let Some(precondition) = &operator.precondition else {
        return checks;
    };
    if !operator.vars.is_empty() {
        return checks;
    }
    let conjuncts: Vec<&Gd> = match &precondition.kind {
        GdKind::And { args } => args.iter().collect(),
        _ => vec![precondition.as_ref()],
    };
    for gd in conjuncts {
        let GdKind::Atom(atom) = &gd.kind else {
            continue;
        };
        if atom.predicate.text == "=" {
            continue;
        }
        let mut last = None;
        let mut usable = true;
        for arg in &atom.args {
            if let Term::Variable(v) = arg {
                match operator
                    .parameters
                    .iter()
                    .position(|p| p.item.name == v.name)
                {
                    Some(i) => last = Some(last.map_or(i, |l: usize| l.max(i))),
                    None => usable = false,
                }
            }
        }
        if let (true, Some(i)) = (usable, last) {
            checks[i].push(atom);
        }
    }
    checks
}
