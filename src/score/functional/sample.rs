//! Applicability precision and recall over sampled states, so that a near-miss gets partial
//! credit where the decision gives a verdict per action only.
//!
//! Small problems are generated from the gold domain (a few objects per leaf type, the
//! constants, a random initial state over the ground atoms), and seeded random walks are taken
//! under the gold domain. At every state visited, the ground actions applicable under the gold
//! domain are compared with those applicable under the prediction in the same state translated
//! through the alignment; for the actions applicable under both, the states they lead to are
//! compared too. Preconditions and effects are evaluated by the validator's semantics
//! (`semantics::World`), so that the sample reads the domains exactly as `validate` does.

use super::align::Aligned;
use crate::ast::{Action, Domain, Gd, GdKind, Problem, Structure, Type, Typed, Variable};
use crate::kitchen::SplitMix64;
use crate::semantics::{Binding, Changes, Fact, Record, State, World};
use crate::validate::{bind_step, next_combination};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// The seed of every sample, reported with it so that a run can be repeated.
pub const SEED: u64 = 30;
/// The problems generated per pair: objects per leaf type (one more for a domain with a single
/// type) and the chance, in percent, that a ground atom holds in a random initial state.
const PROBLEMS: [(usize, u64); 3] = [(2, 25), (3, 50), (2, 50)];
/// The states visited per problem.
const STATES: usize = 50;
/// The most ground actions of one domain, or ground atoms of the gold's, in one problem; a
/// larger problem is generated again with fewer objects per type.
const MAX_GROUND: usize = 1_000;

/// Applicability and successors over the sampled states; each ratio is 1 when its denominator
/// is 0.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sampled {
    pub seed: u64,
    pub problems: usize,
    pub states: usize,
    /// Ground actions applicable under the gold domain, summed over the states.
    pub gold_applicable: usize,
    pub pred_applicable: usize,
    /// Those applicable under both.
    pub both_applicable: usize,
    /// `both_applicable / pred_applicable`.
    pub precision: f64,
    /// `both_applicable / gold_applicable`.
    pub recall: f64,
    /// The actions applicable under both whose successors were compared (all of them).
    pub successors_compared: usize,
    /// The fraction of those whose successors are equal.
    pub successors_agree: f64,
}

/// Samples the two domains, or says why they cannot be sampled.
pub fn sample(gold: &Domain, pred: &Domain, aligned: &Aligned) -> Result<Sampled, String> {
    for (side, domain) in [("gold", gold), ("predicted", pred)] {
        if let Some(what) = out_of_reach(domain) {
            return Err(format!("the {side} domain has {what}"));
        }
    }
    let mut tally = Tally::default();
    for (k, &(objects, percent)) in PROBLEMS.iter().enumerate() {
        let mut random = SplitMix64::new(SEED.wrapping_add(k as u64));
        let objects = if leaf_types(gold).len() == 1 {
            objects + 1
        } else {
            objects
        };
        let mut sampled = false;
        for per_type in (1..=objects).rev() {
            let problems = generate(gold, pred, aligned, per_type)?;
            let Some(mut walk) = Walk::new(gold, pred, aligned, &problems)? else {
                continue;
            };
            walk.run(&mut random, percent, &mut tally)?;
            sampled = true;
            break;
        }
        if !sampled {
            return Err(format!(
                "more than {MAX_GROUND} ground actions or atoms with one object per type"
            ));
        }
        tally.problems += 1;
    }
    Ok(tally.sampled())
}

/// What the sample cannot read: time, processes, and numeric fluents other than the action
/// costs' `(total-cost)`.
fn out_of_reach(domain: &Domain) -> Option<&'static str> {
    let numeric = domain
        .functions
        .iter()
        .any(|f| f.name.key() != "total-cost" || !f.parameters.is_empty());
    if numeric {
        return Some("numeric fluents");
    }
    domain.structures.iter().find_map(|s| match s {
        Structure::Action(_) | Structure::Derived(_) => None,
        Structure::DurativeAction(_) => Some("durative actions"),
        Structure::Process(_) | Structure::Event(_) => Some("processes or events"),
        Structure::Constraint(_) => Some("global constraints"),
    })
}

/// Counts summed over every state of every problem.
#[derive(Default)]
struct Tally {
    problems: usize,
    states: usize,
    gold: usize,
    pred: usize,
    both: usize,
    compared: usize,
    agree: usize,
}

impl Tally {
    fn sampled(&self) -> Sampled {
        let ratio = |part: usize, whole: usize| {
            if whole == 0 {
                1.0
            } else {
                part as f64 / whole as f64
            }
        };
        Sampled {
            seed: SEED,
            problems: self.problems,
            states: self.states,
            gold_applicable: self.gold,
            pred_applicable: self.pred,
            both_applicable: self.both,
            precision: ratio(self.both, self.pred),
            recall: ratio(self.both, self.gold),
            successors_compared: self.compared,
            successors_agree: ratio(self.agree, self.compared),
        }
    }
}

/// The gold domain's leaf types (folded), or `object` for an untyped domain.
fn leaf_types(domain: &Domain) -> Vec<String> {
    let mut parents: HashSet<String> = HashSet::new();
    for typed in &domain.types {
        match &typed.ty {
            Some(Type::Name(parent)) => {
                parents.insert(parent.key());
            }
            Some(Type::Either { types, .. }) => parents.extend(types.iter().map(|t| t.key())),
            None => {}
        }
    }
    let mut leaves: Vec<String> = Vec::new();
    for typed in &domain.types {
        let key = typed.item.key();
        if key != "object" && !parents.contains(&key) && !leaves.contains(&key) {
            leaves.push(key);
        }
    }
    if leaves.is_empty() {
        leaves.push("object".to_string());
    }
    leaves
}

/// A problem for each domain with the same objects: the gold's spelling and the prediction's.
struct Problems {
    gold: Problem,
    pred: Problem,
}

/// Problems with `per_type` objects of each gold leaf type; a gold constant the prediction
/// lacks is an object of the prediction's problem.
fn generate(
    gold: &Domain,
    pred: &Domain,
    aligned: &Aligned,
    per_type: usize,
) -> Result<Problems, String> {
    let folded = |pairs: &[(String, String)]| -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(g, p)| (g.to_lowercase(), p.to_lowercase()))
            .collect()
    };
    let (types, constants) = (folded(&aligned.types), folded(&aligned.constants));
    let taken: HashSet<String> = gold
        .constants
        .iter()
        .chain(&pred.constants)
        .map(|c| c.item.key())
        .collect();
    let parents: HashMap<String, String> = gold
        .types
        .iter()
        .filter_map(|t| match &t.ty {
            Some(Type::Name(parent)) => Some((t.item.key(), parent.key())),
            _ => None,
        })
        .collect();
    // A gold type the prediction lacks is written as its nearest ancestor the prediction has,
    // so that its objects keep the types they share.
    let pred_type = |gold_type: &str| -> String {
        if pred.types.is_empty() {
            return String::new();
        }
        let mut at = gold_type.to_string();
        for _ in 0..=parents.len() {
            if let Some(t) = types.get(&at) {
                return format!(" - {t}");
            }
            match parents.get(&at) {
                Some(parent) => at = parent.clone(),
                None => break,
            }
        }
        " - object".to_string()
    };
    let (mut gold_objects, mut pred_objects) = (String::new(), String::new());
    for leaf in leaf_types(gold) {
        for i in 1..=per_type {
            let mut name = format!("{leaf}{i}");
            while taken.contains(&name) {
                name.push_str("-s");
            }
            let gold_type = if gold.types.is_empty() {
                String::new()
            } else {
                format!(" - {leaf}")
            };
            gold_objects.push_str(&format!(" {name}{gold_type}"));
            pred_objects.push_str(&format!(" {name}{}", pred_type(&leaf)));
        }
    }
    for constant in &gold.constants {
        let key = constant.item.key();
        if !constants.contains_key(&key) {
            let ty = match &constant.ty {
                Some(Type::Name(t)) => t.key(),
                Some(Type::Either { types, .. }) => {
                    types.first().map_or("object".into(), |t| t.key())
                }
                None => "object".to_string(),
            };
            pred_objects.push_str(&format!(" {key}{}", pred_type(&ty)));
        }
    }
    let problem = |domain: &Domain, objects: &str| -> Result<Problem, String> {
        let text = format!(
            "(define (problem functional-sample) (:domain {}) (:objects{objects}) (:init) (:goal (and)))",
            domain.name.text
        );
        crate::parse::problem(&text)
            .value
            .ok_or_else(|| "a generated problem does not parse".to_string())
    };
    Ok(Problems {
        gold: problem(gold, &gold_objects)?,
        pred: problem(pred, &pred_objects)?,
    })
}

/// A ground action: the action, its objects, and the gold action and objects it stands for
/// (`None` for an action the alignment gives no gold counterpart).
struct Instance<'a> {
    action: &'a Action,
    objects: Vec<u32>,
    key: Option<Key>,
    /// Ground literals of the precondition's top-level conjunction (basic predicates only):
    /// a state that lacks one of the first or has one of the second is passed over before the
    /// validator's evaluation, which decides the rest.
    needs: Vec<Fact>,
    forbids: Vec<Fact>,
}

impl<'a> Instance<'a> {
    fn new(world: &World, basic: &HashSet<u32>, action: &'a Action, objects: Vec<u32>) -> Self {
        let mut instance = Instance {
            action,
            objects,
            key: None,
            needs: Vec::new(),
            forbids: Vec::new(),
        };
        if let Some(precondition) = &action.precondition {
            let mut binding = Binding::default();
            for (parameter, &o) in action.parameters.iter().zip(&instance.objects) {
                binding.push(&parameter.item, o);
            }
            instance.literals(world, basic, precondition, &binding, true);
        }
        instance
    }

    fn literals(
        &mut self,
        world: &World,
        basic: &HashSet<u32>,
        gd: &Gd,
        binding: &Binding,
        positive: bool,
    ) {
        match &gd.kind {
            GdKind::And { args } if positive => {
                for arg in args {
                    self.literals(world, basic, arg, binding, true);
                }
            }
            GdKind::Not { arg } if positive => self.literals(world, basic, arg, binding, false),
            GdKind::Atom(atom) => {
                // An atom of `=`, of a derived predicate or with a `:vars` variable is left to
                // the evaluation.
                if let Ok(fact) = world.atom_fact(atom, binding)
                    && basic.contains(&fact[0])
                {
                    match positive {
                        true => self.needs.push(fact),
                        false => self.forbids.push(fact),
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether the action is applicable in `state`, by the validator's evaluation.
    fn applicable(&self, world: &World, state: &State) -> Result<bool, String> {
        if self.needs.iter().any(|f| !state.facts.contains(f))
            || self.forbids.iter().any(|f| state.facts.contains(f))
        {
            return Ok(false);
        }
        let (_, holds) = bind_step(world, self.action, &self.objects, state);
        holds.map_err(|e| format!("`{}`: {e}", self.action.name.text))
    }
}

/// A gold action's index and its objects in the gold's order, as gold world ids.
type Key = (usize, Vec<u32>);

/// One generated problem under both domains: the worlds, their ground actions, the gold's
/// ground atoms, and how gold predicates and objects are written in the prediction's world.
struct Walk<'a> {
    gold: World<'a>,
    pred: World<'a>,
    gold_instances: Vec<Instance<'a>>,
    pred_instances: Vec<Instance<'a>>,
    atoms: Vec<Fact>,
    /// Per gold predicate id, the prediction's.
    predicates: Vec<Option<u32>>,
    /// Per gold object id, the prediction's.
    objects: Vec<Option<u32>>,
    /// The prediction's predicates that stand for a gold one.
    shared: HashSet<u32>,
    costs: (Option<Fact>, Option<Fact>),
}

impl<'a> Walk<'a> {
    /// `None` when a domain has more than `MAX_GROUND` ground actions, or the gold more ground
    /// atoms.
    fn new(
        gold: &'a Domain,
        pred: &'a Domain,
        aligned: &Aligned,
        problems: &'a Problems,
    ) -> Result<Option<Walk<'a>>, String> {
        let mut gold_world = World::new(gold, &problems.gold);
        let mut pred_world = World::new(pred, &problems.pred);
        gold_world.warm();
        pred_world.warm();
        let predicates = predicate_map(&gold_world, &pred_world, pred, aligned);
        let objects = object_map(&gold_world, &pred_world, aligned);
        let mut to_gold: Vec<Option<u32>> = vec![None; pred_world.objects.len()];
        for (g, p) in objects.iter().enumerate() {
            if let Some(slot) = p.and_then(|p| to_gold.get_mut(p as usize)) {
                *slot = Some(g as u32);
            }
        }
        let gold_actions: Vec<&Action> = gold.actions().collect();
        let pred_actions: Vec<&Action> = pred.actions().collect();
        let Some(gold_instances) = ground_actions(&mut gold_world, &gold_actions) else {
            return Ok(None);
        };
        let Some(pred_ground) = ground_actions(&mut pred_world, &pred_actions) else {
            return Ok(None);
        };
        let pred_basic = basic_predicates(&pred_world, pred);
        let pred_instances = pred_ground
            .into_iter()
            .filter_map(|(p, objects)| {
                let key = match aligned.actions.iter().position(|pair| pair.1 == p) {
                    None => None,
                    Some(at) => Some(gold_key(aligned, at, &objects, &to_gold)?),
                };
                let mut instance =
                    Instance::new(&pred_world, &pred_basic, pred_actions[p], objects);
                instance.key = key;
                Some(instance)
            })
            .collect();
        let Some(atoms) = ground_atoms(&mut gold_world, gold) else {
            return Ok(None);
        };
        let gold_basic = basic_predicates(&gold_world, gold);
        let cost = |world: &World| -> Option<Fact> {
            let at = world.functions.iter().position(|f| f == "total-cost")?;
            Some(Box::new([at as u32]))
        };
        Ok(Some(Walk {
            costs: (cost(&gold_world), cost(&pred_world)),
            shared: predicates.iter().flatten().copied().collect(),
            gold_instances: gold_instances
                .into_iter()
                .map(|(g, objects)| {
                    let key = Some((g, objects.clone()));
                    let mut instance =
                        Instance::new(&gold_world, &gold_basic, gold_actions[g], objects);
                    instance.key = key;
                    instance
                })
                .collect(),
            gold: gold_world,
            pred: pred_world,
            pred_instances,
            atoms,
            predicates,
            objects,
        }))
    }

    /// Walks `STATES` states, starting again from a random state at a dead end.
    fn run(
        &mut self,
        random: &mut SplitMix64,
        percent: u64,
        tally: &mut Tally,
    ) -> Result<(), String> {
        let mut state = self.random_state(random, percent)?;
        for _ in 0..STATES {
            let applicable = self.visit(&state, tally)?;
            state = if applicable.is_empty() {
                self.random_state(random, percent)?
            } else {
                let chosen = applicable[random.below(applicable.len())];
                let instance = &self.gold_instances[chosen];
                step(&mut self.gold, instance, &state)?.ok_or_else(|| {
                    format!("`{}` is applicable and then not", instance.action.name.text)
                })?
            };
        }
        Ok(())
    }

    /// Counts the actions applicable in `state` under each domain and compares the successors
    /// of those applicable under both; returns the gold-applicable instances.
    fn visit(&mut self, state: &State, tally: &mut Tally) -> Result<Vec<usize>, String> {
        let translated = self.translate(state)?;
        let mut pred_applicable: HashMap<&Key, usize> = HashMap::new();
        for (j, instance) in self.pred_instances.iter().enumerate() {
            if instance.applicable(&self.pred, &translated)? {
                tally.pred += 1;
                if let Some(key) = &instance.key {
                    pred_applicable.insert(key, j);
                }
            }
        }
        let mut gold_applicable = Vec::new();
        let mut both = Vec::new();
        for (i, instance) in self.gold_instances.iter().enumerate() {
            if instance.applicable(&self.gold, state)? {
                gold_applicable.push(i);
                if let Some(&j) = instance.key.as_ref().and_then(|k| pred_applicable.get(k)) {
                    both.push((i, j));
                }
            }
        }
        tally.states += 1;
        tally.gold += gold_applicable.len();
        tally.both += both.len();
        for (i, j) in both {
            let gold_next = step(&mut self.gold, &self.gold_instances[i], state)?;
            let pred_next = step(&mut self.pred, &self.pred_instances[j], &translated)?;
            if let (Some(gold_next), Some(pred_next)) = (gold_next, pred_next) {
                tally.compared += 1;
                let expected = self.translate_facts(&gold_next);
                let found: foldhash::HashSet<Fact> = pred_next
                    .facts
                    .into_iter()
                    .filter(|f| self.shared.contains(&f[0]))
                    .collect();
                if expected == found {
                    tally.agree += 1;
                }
            }
        }
        Ok(gold_applicable)
    }

    /// A random state of the gold's world: each ground atom holds with the given chance.
    fn random_state(&mut self, random: &mut SplitMix64, percent: u64) -> Result<State, String> {
        let mut state = State::default();
        for atom in &self.atoms {
            if (random.next_u64() % 100) < percent {
                state.facts.insert(atom.clone());
            }
        }
        if let Some(cost) = &self.costs.0 {
            state.values.insert(cost.clone(), 0.0);
        }
        self.gold.derive(&mut state).map_err(|e| e.to_string())?;
        Ok(state)
    }

    /// A gold state in the prediction's world: atoms of predicates the prediction lacks are
    /// dropped; its own predicates are false.
    fn translate(&mut self, state: &State) -> Result<State, String> {
        let mut out = State {
            facts: self.translate_facts(state),
            ..State::default()
        };
        if let Some(cost) = &self.costs.1 {
            out.values.insert(cost.clone(), 0.0);
        }
        self.pred.derive(&mut out).map_err(|e| e.to_string())?;
        Ok(out)
    }

    fn translate_facts(&self, state: &State) -> foldhash::HashSet<Fact> {
        state
            .facts
            .iter()
            .filter_map(|fact| {
                let mut out = Vec::with_capacity(fact.len());
                out.push(self.predicates.get(fact[0] as usize).copied().flatten()?);
                for &o in &fact[1..] {
                    out.push(self.objects.get(o as usize).copied().flatten()?);
                }
                Some(out.into_boxed_slice())
            })
            .collect()
    }
}

/// Per gold predicate id, the prediction's basic predicate that the alignment pairs with it.
fn predicate_map(
    gold_world: &World,
    pred_world: &World,
    pred: &Domain,
    aligned: &Aligned,
) -> Vec<Option<u32>> {
    let derived: HashSet<String> = pred.derived().map(|d| d.predicate.name.key()).collect();
    let pairs: HashMap<String, String> = aligned
        .predicates
        .iter()
        .map(|(g, p)| (g.to_lowercase(), p.to_lowercase()))
        .filter(|(_, p)| !derived.contains(p))
        .collect();
    gold_world
        .predicates
        .iter()
        .map(|g| pairs.get(g).and_then(|p| pred_world.predicate_id(p)))
        .collect()
}

/// Per gold object id, the prediction's: constants through the alignment, objects by name.
fn object_map(gold_world: &World, pred_world: &World, aligned: &Aligned) -> Vec<Option<u32>> {
    let constants: HashMap<String, String> = aligned
        .constants
        .iter()
        .map(|(g, p)| (g.to_lowercase(), p.to_lowercase()))
        .collect();
    gold_world
        .objects
        .iter()
        .map(|g| pred_world.object(constants.get(g).unwrap_or(g)))
        .collect()
}

/// The gold key of a predicted ground action of the `at`-th aligned pair, or `None` when one
/// of its objects is not an object of the gold's problem.
fn gold_key(aligned: &Aligned, at: usize, objects: &[u32], to_gold: &[Option<u32>]) -> Option<Key> {
    let (g, _) = aligned.actions[at];
    let order = &aligned.orders[at];
    let mut gold_objects = vec![0; objects.len()];
    for (j, &o) in objects.iter().enumerate() {
        let slot = gold_objects.get_mut(*order.get(j)?)?;
        *slot = to_gold.get(o as usize).copied().flatten()?;
    }
    Some((g, gold_objects))
}

/// Every ground action (action index, objects), or `None` beyond `MAX_GROUND`.
fn ground_actions(world: &mut World, actions: &[&Action]) -> Option<Vec<(usize, Vec<u32>)>> {
    let mut out = Vec::new();
    for (index, action) in actions.iter().enumerate() {
        for objects in combinations(world, &action.parameters, MAX_GROUND - out.len())? {
            out.push((index, objects));
        }
    }
    Some(out)
}

/// The ids of a domain's basic (not derived) predicates in its world.
fn basic_predicates(world: &World, domain: &Domain) -> HashSet<u32> {
    let derived: HashSet<String> = domain.derived().map(|d| d.predicate.name.key()).collect();
    domain
        .predicates
        .iter()
        .map(|p| p.name.key())
        .filter(|key| !derived.contains(key))
        .filter_map(|key| world.predicate_id(&key))
        .collect()
}

/// Every ground atom of the gold's basic predicates, or `None` beyond `MAX_GROUND`.
fn ground_atoms(world: &mut World, domain: &Domain) -> Option<Vec<Fact>> {
    let basic = basic_predicates(world, domain);
    let mut out: Vec<Fact> = Vec::new();
    for predicate in &domain.predicates {
        let Some(id) = world
            .predicate_id(&predicate.name.key())
            .filter(|id| basic.contains(id))
        else {
            continue;
        };
        for objects in combinations(world, &predicate.parameters, MAX_GROUND - out.len())? {
            out.push(std::iter::once(id).chain(objects).collect());
        }
    }
    Some(out)
}

/// Every combination of objects for typed variables, or `None` when there are more than `room`.
fn combinations(
    world: &mut World,
    variables: &[Typed<Variable>],
    room: usize,
) -> Option<Vec<Vec<u32>>> {
    let domains: Vec<Vec<u32>> = variables.iter().map(|v| world.members(&v.ty)).collect();
    let count = domains
        .iter()
        .try_fold(1usize, |n, d| n.checked_mul(d.len()))?;
    if count > room {
        return None;
    }
    let mut out = Vec::with_capacity(count);
    if count == 0 {
        return Some(out);
    }
    let mut index = vec![0usize; domains.len()];
    loop {
        out.push(domains.iter().zip(&index).map(|(d, &k)| d[k]).collect());
        if !next_combination(&mut index, &domains) {
            return Some(out);
        }
    }
}

/// The state after a ground action, or `None` when it is not applicable.
fn step(world: &mut World, instance: &Instance, state: &State) -> Result<Option<State>, String> {
    let fail = |e: crate::semantics::EvalError| format!("`{}`: {e}", instance.action.name.text);
    let (mut binding, holds): (Binding, _) =
        bind_step(world, instance.action, &instance.objects, state);
    if !holds.map_err(fail)? {
        return Ok(None);
    }
    let mut next = state.clone();
    if let Some(effect) = &instance.action.effect {
        let mut record = Record::default();
        world
            .record(effect, &mut binding, state, &mut record)
            .map_err(fail)?;
        let mut changes = Changes::default();
        record.changes(&mut changes);
        world.apply(&changes, &mut next).map_err(fail)?;
    }
    Ok(Some(next))
}

#[cfg(test)]
mod tests {
    use super::super::{Functional, compare_texts};
    use super::Sampled;

    const BLOCKS: &str = include_str!("../../../domains/blocksworld/domain.pddl");

    fn sampled(pred: &str) -> Sampled {
        let functional: Functional = compare_texts(BLOCKS, pred);
        functional
            .sampled
            .unwrap_or_else(|| panic!("not sampled: {:?}", functional.not_sampled))
    }

    fn edited(from: &str, to: &str) -> String {
        assert_eq!(BLOCKS.matches(from).count(), 1, "{from}");
        BLOCKS.replace(from, to)
    }

    #[test]
    fn the_gold_domain_agrees_with_itself_everywhere() {
        let sampled = sampled(BLOCKS);
        assert_eq!((sampled.problems, sampled.states), (3, 150));
        assert!(sampled.gold_applicable > 150, "{sampled:?}");
        assert_eq!(sampled.gold_applicable, sampled.both_applicable);
        assert_eq!(sampled.pred_applicable, sampled.both_applicable);
        assert_eq!(sampled.successors_compared, sampled.both_applicable);
        assert_eq!(
            (sampled.precision, sampled.recall, sampled.successors_agree),
            (1.0, 1.0, 1.0)
        );
        assert_eq!(
            super::super::compare_texts(BLOCKS, BLOCKS).sampled,
            Some(sampled)
        );
    }

    #[test]
    fn renamed_predicates_and_reordered_parameters_agree_everywhere() {
        let pred = BLOCKS
            .replace("(on ", "(resting-on ")
            .replace("(clear ", "(free ")
            .replace(
                ":parameters (?x ?y - block)\n    :precondition (and (holding ?x)",
                ":parameters (?y ?x - block)\n    :precondition (and (holding ?x)",
            );
        let functional = compare_texts(BLOCKS, &pred);
        assert!(
            !functional.alignment.parameters.is_empty(),
            "{functional:#?}"
        );
        let sampled = sampled(&pred);
        assert_eq!(
            (sampled.precision, sampled.recall, sampled.successors_agree),
            (1.0, 1.0, 1.0),
            "{sampled:?}"
        );
    }

    #[test]
    fn a_dropped_precondition_lowers_precision_only() {
        let pred = edited(
            ":precondition (and (on ?x ?y) (clear ?x) (arm-empty))",
            ":precondition (and (on ?x ?y) (arm-empty))",
        );
        let sampled = sampled(&pred);
        assert!(sampled.precision < 1.0, "{sampled:?}");
        assert_eq!(sampled.recall, 1.0, "{sampled:?}");
    }

    #[test]
    fn an_added_precondition_lowers_recall_only() {
        let pred = edited(
            ":precondition (holding ?x)",
            ":precondition (and (holding ?x) (arm-empty))",
        );
        let sampled = sampled(&pred);
        assert_eq!(sampled.precision, 1.0, "{sampled:?}");
        assert!(sampled.recall < 1.0, "{sampled:?}");
    }

    #[test]
    fn a_dropped_effect_lowers_successor_agreement_only() {
        let pred = edited(
            "      (not (holding ?x))\n      (not (clear ?y))))",
            "      (not (holding ?x))))",
        );
        let sampled = sampled(&pred);
        assert_eq!(
            (sampled.precision, sampled.recall),
            (1.0, 1.0),
            "{sampled:?}"
        );
        assert!(sampled.successors_agree < 1.0, "{sampled:?}");
    }

    #[test]
    fn a_missing_action_lowers_recall_and_an_unknown_predicate_starts_false() {
        let start = BLOCKS.find("  (:action put-down").expect("put-down");
        let end = BLOCKS.find("  (:action stack").expect("stack");
        let without = format!("{}{}", &BLOCKS[..start], &BLOCKS[end..]);
        let sampled = sampled(&without);
        assert!(sampled.recall < 1.0, "{sampled:?}");
        assert_eq!(sampled.precision, 1.0, "{sampled:?}");
        // A precondition on a predicate the gold lacks is false in every translated state.
        let extra = edited("    (arm-empty))\n", "    (arm-empty) (ready))\n").replace(
            ":precondition (holding ?x)",
            ":precondition (and (holding ?x) (ready))",
        );
        let sampled = super::super::compare_texts(BLOCKS, &extra)
            .sampled
            .expect("sampled");
        assert_eq!(sampled.precision, 1.0, "{sampled:?}");
        assert!(sampled.recall < 1.0, "{sampled:?}");
    }

    #[test]
    fn numeric_domains_are_not_sampled_with_a_reason() {
        let numeric = edited(
            "    (arm-empty))\n",
            "    (arm-empty))\n  (:functions (weight ?x - block))\n",
        )
        .replace(":typing)", ":typing :numeric-fluents)");
        let functional = compare_texts(BLOCKS, &numeric);
        assert_eq!(functional.sampled, None);
        assert_eq!(
            functional.not_sampled.as_deref(),
            Some("the predicted domain has numeric fluents")
        );
    }
}
