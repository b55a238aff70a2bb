//! The second half of grounding: once reachability is known, every reachable instance becomes
//! operators (one per disjunct of its precondition) over atom ids, derived rules become axioms,
//! and the goal and initial state are written over the same ids.

use super::{
    Budget, GroundFailure, Grounded, Grounder, NeverApplicable, Schema, SchemaKind, bind, eval,
    head, invalid,
};
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic, FileId};
use crate::semantics::{Binding, Eval, EvalError, Fact, State};
use crate::solve::formula::{Formula, conjunctions};
use crate::solve::support::is_total_cost;
use crate::solve::task::{Axiom, Bits, EffectGroup, GroundTask, Operator, set_bit};

/// The most conjunctions a condition is split into; a larger one is kept as a formula.
const DNF_LIMIT: usize = 16;

/// An instance's cost so far, and the fluent without a value that it reads, if one does:
/// applying such an instance is an error (the validator's `V309`), so it is left out.
#[derive(Default)]
struct Cost {
    total: f64,
    undefined: Option<String>,
    span: Span,
}

/// One atomic change of an effect, with the condition it is under.
struct Change {
    condition: Formula,
    atom: u32,
    add: bool,
}

impl Grounder<'_, '_> {
    pub(super) fn task(
        &mut self,
        schemas: &[Schema],
        problem: &Problem,
        problem_file: FileId,
        init: &State,
        budget: &Budget,
    ) -> Result<Grounded, GroundFailure> {
        let world = self.world;
        let mut facts: Vec<&Fact> = self
            .reached
            .set
            .iter()
            .filter(|f| self.is_fluent(f))
            .collect();
        facts.sort();
        let mut task = GroundTask::default();
        task.action_costs = problem
            .metric
            .as_ref()
            .is_some_and(crate::solve::support::is_total_cost_minimised);
        let derived_predicates: Vec<u32> = schemas
            .iter()
            .filter_map(|s| match s.kind {
                SchemaKind::Rule(rule, _) => world.predicate_id(&rule.predicate.name.key()),
                SchemaKind::Action(_) => None,
            })
            .collect();
        for (id, fact) in facts.iter().enumerate() {
            self.ids.insert((*fact).clone(), id as u32);
            task.atoms.push(world.show_atom(fact));
            task.derived
                .push(fact.first().is_some_and(|p| derived_predicates.contains(p)));
        }
        // Taken now, because `facts` borrows `self`, which the schema steps below need mutably.
        let predicate_of: Vec<u32> = facts
            .iter()
            .map(|f| f.first().copied().unwrap_or(0))
            .collect();
        let levels = schemas
            .iter()
            .filter_map(|s| match s.kind {
                SchemaKind::Rule(_, level) => Some(level + 1),
                SchemaKind::Action(_) => None,
            })
            .max()
            .unwrap_or(0);
        task.strata = vec![Vec::new(); levels];
        for schema in schemas {
            self.instantiate_schema(schema, budget, init, &mut task)?;
            if budget.expired(task.operators.len() * 160) {
                return Err(GroundFailure::Limit);
            }
        }
        let goal = self.goal(problem, problem_file)?;
        let mut unreachable_goal = Vec::new();
        if let Some(gd) = &problem.goal {
            self.unreached(gd, &mut Binding::default(), true, &mut unreachable_goal);
        }
        let goal_false = goal == Formula::False;
        task.goal = conjunctions(&goal, DNF_LIMIT);
        let mut bits: Bits = vec![0u64; task.words()].into();
        for fact in &init.facts {
            if let Some(&id) = self.ids.get(fact) {
                set_bit(&mut bits, id, true);
            }
        }
        task.derive(&mut bits);
        task.init = bits;
        crate::solve::simplify::fold_constants(&mut task);
        task.index(&predicate_of);
        Ok(Grounded {
            task,
            unreachable_goal,
            goal_false,
            never_applicable: std::mem::take(&mut self.never_applicable),
        })
    }

    /// Every reachable instance of one schema, as operators or axioms added to the task.
    fn instantiate_schema(
        &mut self,
        schema: &Schema,
        budget: &Budget,
        init: &State,
        task: &mut GroundTask,
    ) -> Result<(), GroundFailure> {
        let world = self.world;
        let mut instances: Vec<Box<[u32]>> = Vec::new();
        self.enumerate(schema, budget, &mut |values| instances.push(values.into()))?;
        for values in instances {
            let mut binding = bind(schema.parameters, &values);
            let condition = match schema.condition {
                None => Formula::True,
                Some(gd) => {
                    if !self.relaxed(gd, &mut binding, true).map_err(eval)? {
                        continue;
                    }
                    self.compile(gd, &mut binding, true).map_err(eval)?
                }
            };
            if condition == Formula::False {
                continue;
            }
            match &schema.kind {
                SchemaKind::Action(action) => {
                    self.operators(action, &values, &condition, &mut binding, init, task)?
                }
                SchemaKind::Rule(rule, level) => {
                    let fact = world.atom_fact(&head(rule), &binding).map_err(eval)?;
                    let Some(&head) = self.ids.get(&fact) else {
                        continue;
                    };
                    if let Some(stratum) = task.strata.get_mut(*level) {
                        for body in conjunctions(&condition, DNF_LIMIT) {
                            stratum.push(Axiom { head, body });
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The goal of the problem as a formula over atom ids, or a diagnostic if it cannot be.
    fn goal(&self, problem: &Problem, problem_file: FileId) -> Result<Formula, GroundFailure> {
        let Some(gd) = &problem.goal else {
            return Ok(Formula::True);
        };
        self.compile(gd, &mut Binding::default(), true)
            .map_err(|e| {
                GroundFailure::Invalid(
                    Diagnostic::new(
                        Code::SolveUnsupported,
                        format!("the goal cannot be grounded: {e}"),
                        gd.span,
                    )
                    .in_file(problem_file),
                )
            })
    }

    /// The operators of one action instance: one per disjunct of its precondition.
    fn operators(
        &mut self,
        action: &Action,
        values: &[u32],
        precondition: &Formula,
        binding: &mut Binding,
        init: &State,
        task: &mut GroundTask,
    ) -> Result<(), GroundFailure> {
        let mut changes = Vec::new();
        let mut cost = Cost::default();
        if let Some(effect) = &action.effect {
            self.changes(
                effect,
                &Formula::True,
                binding,
                init,
                &mut changes,
                &mut cost,
            )?;
        }
        if let Some(fluent) = cost.undefined {
            self.leave_out(action, values, fluent, cost.span);
            return Ok(());
        }
        let cost = cost.total;
        // Changes grouped by their condition, each condition split into its disjuncts.
        let mut groups: Vec<(Formula, EffectGroup)> = Vec::new();
        for change in changes {
            let slot = match groups.iter().position(|(c, _)| *c == change.condition) {
                Some(i) => i,
                None => {
                    groups.push((change.condition.clone(), EffectGroup::default()));
                    groups.len() - 1
                }
            };
            if let Some((_, group)) = groups.get_mut(slot) {
                let list = if change.add {
                    &mut group.adds
                } else {
                    &mut group.deletes
                };
                if !list.contains(&change.atom) {
                    list.push(change.atom);
                }
            }
        }
        let mut effects = Vec::new();
        for (condition, group) in groups {
            for conjunction in conjunctions(&condition, DNF_LIMIT) {
                effects.push(EffectGroup {
                    condition: conjunction,
                    adds: group.adds.clone(),
                    deletes: group.deletes.clone(),
                });
            }
        }
        let cost = if task.action_costs {
            if cost < 0.0 || cost.fract() != 0.0 || cost > u32::MAX as f64 {
                return Err(invalid(format!(
                    "the cost of `{}` is {cost}: the planner reads costs that are whole numbers from 0",
                    action.name.text
                )));
            }
            cost as u64
        } else {
            1
        };
        let name = self.instance_name(action, values);
        for pre in conjunctions(precondition, DNF_LIMIT) {
            task.operators.push(Operator {
                name: name.clone(),
                precondition: pre,
                effects: effects.clone(),
                cost,
            });
        }
        Ok(())
    }

    /// `(action args)`, as plans name the instance.
    fn instance_name(&self, action: &Action, values: &[u32]) -> String {
        let mut name = format!("({}", action.name.text.to_lowercase());
        for &v in values {
            name.push(' ');
            name.push_str(
                self.world
                    .objects
                    .get(v as usize)
                    .map_or("?", String::as_str),
            );
        }
        name.push(')');
        name
    }

    /// Records an instance left out because its cost has no value.
    fn leave_out(&mut self, action: &Action, values: &[u32], fluent: String, span: Span) {
        let name = &action.name.text;
        if let Some(entry) = self.never_applicable.iter_mut().find(|e| e.action == *name) {
            entry.instances += 1;
            return;
        }
        self.never_applicable.push(NeverApplicable {
            action: name.to_string(),
            instances: 1,
            example: self.instance_name(action, values),
            fluent,
            span,
        });
    }

    /// The atomic changes of an effect under `condition`, and its cost.
    fn changes(
        &self,
        effect: &Effect,
        condition: &Formula,
        binding: &mut Binding,
        init: &State,
        out: &mut Vec<Change>,
        cost: &mut Cost,
    ) -> Result<(), GroundFailure> {
        match &effect.kind {
            EffectKind::And { args } => {
                for a in args {
                    self.changes(a, condition, binding, init, out, cost)?;
                }
            }
            EffectKind::Add { atom } | EffectKind::Delete { atom } => {
                let fact = self.world.atom_fact(atom, binding).map_err(eval)?;
                // An atom never reached is never true: deleting it changes nothing, and an add
                // of it cannot fire in a reachable state (else it would have been reached).
                if let Some(&id) = self.ids.get(&fact) {
                    out.push(Change {
                        condition: condition.clone(),
                        atom: id,
                        add: matches!(effect.kind, EffectKind::Add { .. }),
                    });
                }
            }
            EffectKind::When {
                condition: when,
                body,
            } => {
                let inner = self.compile(when, binding, true).map_err(eval)?;
                let both = Formula::and(vec![condition.clone(), inner]);
                if both != Formula::False {
                    self.changes(body, &both, binding, init, out, cost)?;
                }
            }
            EffectKind::Forall { variables, body } => {
                let mut failure = None;
                let world = self.world;
                world
                    .each_binding(variables, binding, &mut |b| {
                        if let Err(e) = self.changes(body, condition, b, init, out, cost) {
                            failure = Some(e);
                            return Ok(true);
                        }
                        Ok(false)
                    })
                    .map_err(eval)?;
                if let Some(e) = failure {
                    return Err(e);
                }
            }
            // Costs are unconditional (support::unsupported refuses them under `when`), so an
            // undefined one makes the whole instance inapplicable.
            EffectKind::Numeric { target, value, .. } if is_total_cost(target) => {
                match self.world.value(value, binding, init) {
                    Ok(v) => cost.total += v,
                    Err(EvalError::Undefined(fluent)) => {
                        if cost.undefined.is_none() {
                            cost.undefined = Some(fluent);
                            cost.span = effect.span;
                        }
                    }
                    Err(e) => return Err(eval(e)),
                }
            }
            // support::unsupported refuses other numeric and timed effects before grounding.
            EffectKind::Numeric { .. } | EffectKind::Timed { .. } => {}
        }
        Ok(())
    }

    /// A condition (negated when `positive` is false) as a ground formula in negation normal
    /// form: equality and static atoms decided, unreached changing atoms false.
    fn compile(&self, gd: &Gd, binding: &mut Binding, positive: bool) -> Eval<Formula> {
        let world = self.world;
        let constant = |value: bool| {
            if value { Formula::True } else { Formula::False }
        };
        Ok(match &gd.kind {
            GdKind::Atom(atom) if atom.predicate.text == "=" => {
                let [l, r] = atom.args.as_slice() else {
                    return Ok(constant(positive));
                };
                constant((world.resolve(l, binding)? == world.resolve(r, binding)?) == positive)
            }
            GdKind::Atom(atom) => {
                let fact = world.atom_fact(atom, binding)?;
                match self.ids.get(&fact) {
                    Some(&id) => Formula::Literal(id, positive),
                    None => constant(self.reached.set.contains(&fact) == positive),
                }
            }
            GdKind::And { args } | GdKind::Or { args } => {
                let parts = args
                    .iter()
                    .map(|a| self.compile(a, binding, positive))
                    .collect::<Eval<Vec<Formula>>>()?;
                if matches!(gd.kind, GdKind::And { .. }) == positive {
                    Formula::and(parts)
                } else {
                    Formula::or(parts)
                }
            }
            GdKind::Not { arg } => self.compile(arg, binding, !positive)?,
            GdKind::Imply {
                condition,
                consequence,
            } => {
                let c = self.compile(condition, binding, !positive)?;
                let q = self.compile(consequence, binding, positive)?;
                if positive {
                    Formula::or(vec![c, q])
                } else {
                    Formula::and(vec![c, q])
                }
            }
            GdKind::Exists { variables, body } | GdKind::Forall { variables, body } => {
                let mut parts = Vec::new();
                world.each_binding(variables, binding, &mut |b| {
                    parts.push(self.compile(body, b, positive)?);
                    Ok(false)
                })?;
                if matches!(gd.kind, GdKind::Exists { .. }) == positive {
                    Formula::or(parts)
                } else {
                    Formula::and(parts)
                }
            }
            // support::unsupported refuses the rest before grounding.
            _ => Formula::True,
        })
    }

    /// The atoms a condition needs true that no relaxed plan reaches, as `(p a b)`.
    fn unreached(&self, gd: &Gd, binding: &mut Binding, positive: bool, out: &mut Vec<String>) {
        match &gd.kind {
            GdKind::Atom(atom) if positive && atom.predicate.text != "=" => {
                if let Ok(fact) = self.world.atom_fact(atom, binding)
                    && !self.reached.set.contains(&fact)
                {
                    let shown = self.world.show_atom(&fact);
                    if !out.contains(&shown) {
                        out.push(shown);
                    }
                }
            }
            GdKind::And { args } | GdKind::Or { args } => {
                for a in args {
                    self.unreached(a, binding, positive, out);
                }
            }
            GdKind::Not { arg } => self.unreached(arg, binding, !positive, out),
            _ => {}
        }
    }
}
