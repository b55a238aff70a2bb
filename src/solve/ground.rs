//! Grounding by relaxed reachability: the atoms and action instances reachable when deletes
//! and negative conditions are ignored, found by a fixpoint over the schemas whose positive
//! precondition atoms are joined against the atoms reached so far; then the ground task.
//!
//! Conditions are read through the ground world of `semantics` (objects, types, interned facts,
//! bindings), so grounding and validation agree on what a name and a binding mean. Atoms of
//! predicates no effect changes are constants (true exactly when in the initial state), and a
//! changing atom that is never reached is false in every reachable state.

use super::Budget;
use super::task::GroundTask;
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic, FileId};
use crate::semantics::{Binding, Eval, Fact, World};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

/// Why grounding stopped without a task.
#[derive(Debug)]
pub enum GroundFailure {
    /// The task cannot be grounded: a value cannot be read, a cost is not a number.
    Invalid(Diagnostic),
    /// The time or memory limit was reached.
    Limit,
}

/// The ground task, and the goal atoms that no relaxed plan reaches (the goal is then false).
pub struct Grounded {
    pub task: GroundTask,
    pub unreachable_goal: Vec<String>,
    pub goal_false: bool,
    /// Actions with instances left out of the task because applying them is an error.
    pub never_applicable: Vec<NeverApplicable>,
}

/// An action whose reachable instances include some that can never be applied: their cost
/// reads a fluent that has no value, a step the validator rejects (`V309`).
#[derive(Clone, Debug)]
pub struct NeverApplicable {
    pub action: String,
    /// The instances left out.
    pub instances: usize,
    /// The first of them, `(action args)`, and the fluent without a value, `(f args)`.
    pub example: String,
    pub fluent: String,
    /// The cost effect, in the domain.
    pub span: Span,
}

/// An argument of a joined atom: a parameter's position or an object.
#[derive(Clone, Copy)]
enum Arg {
    Parameter(usize),
    Object(u32),
}

#[derive(Clone)]
struct JoinAtom {
    predicate: u32,
    args: Vec<Arg>,
}

enum SchemaKind<'a> {
    Action(&'a Action),
    Rule(&'a Derived, usize),
}

/// An action or a derived rule, prepared for enumerating its instances.
struct Schema<'a> {
    kind: SchemaKind<'a>,
    parameters: &'a [Typed<Variable>],
    condition: Option<&'a Gd>,
    /// The ways its condition can hold, for enumerating candidates.
    alternatives: Vec<join::Alternative>,
    /// Instances whose every effect has been added (actions without `when`).
    done: HashSet<Box<[u32]>>,
    conditional: bool,
}

/// Atoms reached so far, also by predicate.
struct Reached {
    set: HashSet<Fact>,
    by_predicate: Vec<Vec<Fact>>,
}

impl Reached {
    fn insert(&mut self, fact: Fact) -> bool {
        if self.set.contains(&fact) {
            return false;
        }
        if let Some(list) = fact
            .first()
            .and_then(|&p| self.by_predicate.get_mut(p as usize))
        {
            list.push(fact.clone());
        }
        self.set.insert(fact)
    }
}

struct Grounder<'w, 'a> {
    world: &'w World<'a>,
    /// Predicates some effect changes, and derived ones.
    fluent: Vec<bool>,
    reached: Reached,
    ids: HashMap<Fact, u32>,
    never_applicable: Vec<NeverApplicable>,
}

fn invalid(message: String) -> GroundFailure {
    GroundFailure::Invalid(Diagnostic::unlocated(Code::SolveUnsupported, message))
}

/// Grounds a task the planner supports (see `support::unsupported`).
pub fn ground(
    domain: &Domain,
    problem: &Problem,
    problem_file: FileId,
    budget: &Budget,
) -> Result<Grounded, GroundFailure> {
    ground_with(
        domain,
        problem,
        problem_file,
        budget,
        join::Narrowing::Split,
    )
}

fn ground_with(
    domain: &Domain,
    problem: &Problem,
    problem_file: FileId,
    budget: &Budget,
    narrowing: join::Narrowing,
) -> Result<Grounded, GroundFailure> {
    let mut world = World::new(domain, problem);
    world.warm();
    let init_state = world
        .initial_state()
        .map_err(|e| invalid(format!("the initial state cannot be built: {e}")))?;
    let fluent = fluent_predicates(domain, &world);
    let mut schemas = Vec::new();
    for action in domain.actions() {
        schemas.push(prepare(
            &mut world,
            SchemaKind::Action(action),
            &action.parameters,
            action.precondition.as_ref(),
            narrowing,
        ));
    }
    let strata: Vec<Vec<*const Derived>> = world
        .strata()
        .iter()
        .map(|s| s.iter().map(|r| *r as *const Derived).collect())
        .collect();
    for rule in domain.derived() {
        let level = strata
            .iter()
            .position(|s| s.contains(&(rule as *const Derived)))
            .unwrap_or(0);
        schemas.push(prepare(
            &mut world,
            SchemaKind::Rule(rule, level),
            &rule.predicate.parameters,
            Some(&rule.body),
            narrowing,
        ));
    }
    let mut reached = Reached {
        set: HashSet::new(),
        by_predicate: vec![Vec::new(); world.predicates.len()],
    };
    // In a fixed order, so that operators, and so plans, do not depend on hashing.
    let mut init_facts: Vec<&Fact> = init_state.facts.iter().collect();
    init_facts.sort();
    for fact in init_facts {
        reached.insert(fact.clone());
    }
    let mut grounder = Grounder {
        world: &world,
        fluent,
        reached,
        ids: HashMap::new(),
        never_applicable: Vec::new(),
    };
    grounder.fixpoint(&mut schemas, budget)?;
    grounder.task(&schemas, problem, problem_file, &init_state, budget)
}

/// Predicates an effect adds or deletes, and derived predicates.
fn fluent_predicates(domain: &Domain, world: &World) -> Vec<bool> {
    fn walk(effect: &Effect, world: &World, out: &mut Vec<bool>) {
        match &effect.kind {
            EffectKind::And { args } => args.iter().for_each(|a| walk(a, world, out)),
            EffectKind::Forall { body, .. } | EffectKind::When { body, .. } => {
                walk(body, world, out)
            }
            EffectKind::Add { atom } | EffectKind::Delete { atom } => {
                if let Some(slot) = world
                    .predicate_id(&atom.predicate.key())
                    .and_then(|p| out.get_mut(p as usize))
                {
                    *slot = true;
                }
            }
            EffectKind::Numeric { .. } | EffectKind::Timed { .. } => {}
        }
    }
    let mut out = vec![false; world.predicates.len()];
    for action in domain.actions() {
        if let Some(effect) = &action.effect {
            walk(effect, world, &mut out);
        }
    }
    for rule in domain.derived() {
        if let Some(slot) = world
            .predicate_id(&rule.predicate.name.key())
            .and_then(|p| out.get_mut(p as usize))
        {
            *slot = true;
        }
    }
    out
}

fn prepare<'a>(
    world: &mut World,
    kind: SchemaKind<'a>,
    parameters: &'a [Typed<Variable>],
    condition: Option<&'a Gd>,
    narrowing: join::Narrowing,
) -> Schema<'a> {
    let members: Vec<Vec<u32>> = parameters.iter().map(|p| world.members(&p.ty)).collect();
    let allowed: Vec<Vec<bool>> = members
        .iter()
        .map(|list| {
            let mut mask = vec![false; world.objects.len()];
            for &o in list {
                if let Some(slot) = mask.get_mut(o as usize) {
                    *slot = true;
                }
            }
            mask
        })
        .collect();
    let alternatives =
        join::alternatives(condition, parameters, world, &members, &allowed, narrowing);
    let conditional = match &kind {
        SchemaKind::Action(a) => a.effect.as_ref().is_some_and(has_when),
        SchemaKind::Rule(..) => false,
    };
    Schema {
        kind,
        parameters,
        condition,
        alternatives,
        done: HashSet::new(),
        conditional,
    }
}

fn has_when(effect: &Effect) -> bool {
    match &effect.kind {
        EffectKind::And { args } => args.iter().any(has_when),
        EffectKind::Forall { body, .. } => has_when(body),
        EffectKind::When { .. } => true,
        _ => false,
    }
}

impl<'w, 'a> Grounder<'w, 'a> {
    /// Adds what schemas reach until nothing new is reached.
    fn fixpoint(&mut self, schemas: &mut [Schema], budget: &Budget) -> Result<(), GroundFailure> {
        loop {
            let mut changed = false;
            for schema in schemas.iter_mut() {
                let mut instances = Vec::new();
                self.enumerate(schema, budget, &mut |values| instances.push(values.into()))?;
                let mut new = Vec::new();
                for values in instances {
                    let values: Box<[u32]> = values;
                    if schema.done.contains(&values) {
                        continue;
                    }
                    let mut binding = bind(schema.parameters, &values);
                    let holds = match schema.condition {
                        None => true,
                        Some(gd) => self.relaxed(gd, &mut binding, true).map_err(eval)?,
                    };
                    if !holds {
                        continue;
                    }
                    match &schema.kind {
                        SchemaKind::Action(action) => {
                            if let Some(effect) = &action.effect {
                                self.relaxed_adds(effect, &mut binding, &mut new)
                                    .map_err(eval)?;
                            }
                        }
                        SchemaKind::Rule(rule, _) => {
                            new.push(self.world.atom_fact(&head(rule), &binding).map_err(eval)?)
                        }
                    }
                    if !schema.conditional {
                        schema.done.insert(values);
                    }
                }
                for fact in new {
                    changed |= self.reached.insert(fact);
                }
                if budget.expired(self.reached.set.len() * 64) {
                    return Err(GroundFailure::Limit);
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    fn is_fluent(&self, fact: &[u32]) -> bool {
        fact.first()
            .and_then(|&p| self.fluent.get(p as usize))
            .copied()
            .unwrap_or(false)
    }

    /// Whether `gd` (negated when `positive` is false) holds in the relaxation: a fluent atom
    /// holds once reached, its negation always; constants, equality and static atoms exactly.
    fn relaxed(&self, gd: &Gd, binding: &mut Binding, positive: bool) -> Eval<bool> {
        let world = self.world;
        Ok(match &gd.kind {
            GdKind::Atom(atom) if atom.predicate.text == "=" => {
                let [l, r] = atom.args.as_slice() else {
                    return Ok(true);
                };
                (world.resolve(l, binding)? == world.resolve(r, binding)?) == positive
            }
            GdKind::Atom(atom) => {
                let fact = world.atom_fact(atom, binding)?;
                let reached = self.reached.set.contains(&fact);
                if positive {
                    reached
                } else {
                    self.is_fluent(&fact) || !reached
                }
            }
            GdKind::And { args } | GdKind::Or { args } => {
                let all = matches!(gd.kind, GdKind::And { .. }) == positive;
                let mut result = all;
                for a in args {
                    if self.relaxed(a, binding, positive)? != all {
                        result = !all;
                        break;
                    }
                }
                result
            }
            GdKind::Not { arg } => self.relaxed(arg, binding, !positive)?,
            GdKind::Imply {
                condition,
                consequence,
            } => {
                if positive {
                    self.relaxed(condition, binding, false)?
                        || self.relaxed(consequence, binding, true)?
                } else {
                    self.relaxed(condition, binding, true)?
                        && self.relaxed(consequence, binding, false)?
                }
            }
            GdKind::Exists { variables, body } | GdKind::Forall { variables, body } => {
                // `exists` holds (and `forall` fails) when some binding makes the body hold
                // (fail); otherwise when every binding does.
                let some = matches!(gd.kind, GdKind::Exists { .. }) == positive;
                if some {
                    world.each_binding(variables, binding, &mut |b| {
                        self.relaxed(body, b, positive)
                    })?
                } else {
                    !world.each_binding(variables, binding, &mut |b| {
                        Ok(!self.relaxed(body, b, positive)?)
                    })?
                }
            }
            // support::unsupported refuses the rest before grounding.
            _ => true,
        })
    }

    /// The atoms an effect adds in the relaxation: conditional ones when their condition holds.
    fn relaxed_adds(
        &self,
        effect: &Effect,
        binding: &mut Binding,
        out: &mut Vec<Fact>,
    ) -> Eval<()> {
        match &effect.kind {
            EffectKind::And { args } => {
                for a in args {
                    self.relaxed_adds(a, binding, out)?;
                }
            }
            EffectKind::Add { atom } => out.push(self.world.atom_fact(atom, binding)?),
            EffectKind::When { condition, body } if self.relaxed(condition, binding, true)? => {
                self.relaxed_adds(body, binding, out)?;
            }
            EffectKind::Forall { variables, body } => {
                self.world.each_binding(variables, binding, &mut |b| {
                    self.relaxed_adds(body, b, out)?;
                    Ok(false)
                })?;
            }
            _ => {}
        }
        Ok(())
    }
}

fn eval(e: crate::validate::EvalError) -> GroundFailure {
    invalid(format!("the task cannot be grounded: {e}"))
}

fn bind(parameters: &[Typed<Variable>], values: &[u32]) -> Binding {
    let mut binding = Binding::default();
    for (p, &v) in parameters.iter().zip(values) {
        binding.push(&p.item, v);
    }
    binding
}

fn head(rule: &Derived) -> Atom {
    Atom {
        predicate: rule.predicate.name.clone(),
        args: rule
            .predicate
            .parameters
            .iter()
            .map(|p| Term::Variable(p.item.clone()))
            .collect(),
        span: rule.span,
    }
}

mod instantiate;
mod join;
