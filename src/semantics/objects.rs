//! Objects and types: the world built from a task, every object with each type it is given,
//! the members of a type, and the bindings of quantified variables.

use super::{Binding, Eval, State, World};
use crate::ast::*;
use crate::check::types::{OBJECT, TypeGraph};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

fn types_of(ty: &Option<Type>) -> Vec<String> {
    match ty {
        None => vec![OBJECT.to_string()],
        Some(Type::Name(n)) => vec![n.key()],
        Some(Type::Either { types, .. }) => types.iter().map(Name::key).collect(),
    }
}

impl<'a> World<'a> {
    pub fn new(domain: &'a Domain, problem: &'a Problem) -> World<'a> {
        let mut types = TypeGraph::default();
        for t in &domain.types {
            let key = t.item.key();
            if key == OBJECT {
                continue;
            }
            match &t.ty {
                None => types.add(&key, Some(OBJECT)),
                Some(ty) => {
                    for parent in types_of(&Some(ty.clone())) {
                        types.add(&key, Some(&parent));
                    }
                }
            }
        }
        let mut world = World {
            problem,
            objects: Vec::new(),
            object_index: HashMap::new(),
            object_types: Vec::new(),
            types,
            members: HashMap::new(),
            predicates: Vec::new(),
            predicate_index: HashMap::new(),
            functions: Vec::new(),
            function_index: HashMap::new(),
            derived_predicates: HashSet::new(),
            cost_fluent: None,
            strata: Vec::new(),
            actions: HashMap::new(),
            typed: !domain.types.is_empty(),
        };
        for c in domain.constants.iter().chain(&problem.objects) {
            let key = c.item.key();
            let id = match world.object_index.get(&key) {
                Some(&id) => id,
                None => {
                    let id = world.objects.len() as u32;
                    world.objects.push(key.clone());
                    world.object_index.insert(key, id);
                    world.object_types.push(Vec::new());
                    id
                }
            };
            // An object declared twice has every type it is given.
            for t in types_of(&c.ty) {
                if !world.object_types[id as usize].contains(&t) {
                    world.object_types[id as usize].push(t);
                }
            }
        }
        for p in &domain.predicates {
            world.intern_predicate(&p.name.key());
        }
        for f in &domain.functions {
            let key = f.name.key();
            if !world.function_index.contains_key(&key) {
                world
                    .function_index
                    .insert(key.clone(), world.functions.len() as u32);
                world.functions.push(key);
            }
        }
        world.cost_fluent = domain
            .functions
            .iter()
            .find(|f| f.name.key() == "total-cost" && f.parameters.is_empty())
            .and_then(|f| world.function_index.get(&f.name.key()).copied());
        for a in domain.actions() {
            world.actions.entry(a.name.key()).or_insert(a);
        }
        let derived: Vec<&Derived> = domain.derived().collect();
        for d in &derived {
            let id = world.intern_predicate(&d.predicate.name.key());
            world.derived_predicates.insert(id);
        }
        world.strata = world.stratify(&derived);
        world
    }

    fn intern_predicate(&mut self, key: &str) -> u32 {
        if let Some(&id) = self.predicate_index.get(key) {
            return id;
        }
        let id = self.predicates.len() as u32;
        self.predicates.push(key.to_string());
        self.predicate_index.insert(key.to_string(), id);
        id
    }

    pub fn object(&self, name: &str) -> Option<u32> {
        self.object_index.get(&*fold_key(name)).copied()
    }

    pub fn object_types(&self, object: u32) -> &[String] {
        &self.object_types[object as usize]
    }

    /// Whether `object` fits a parameter of type `ty`: one of its types is `ty` or below it.
    pub fn fits(&self, object: u32, ty: &Option<Type>) -> bool {
        let wanted = types_of(ty);
        self.object_types[object as usize]
            .iter()
            .any(|t| wanted.iter().any(|w| self.types.is_subtype(t, w)))
    }

    /// The objects of a type (or of any of an `either`'s types), cached per type.
    pub fn members(&mut self, ty: &Option<Type>) -> Vec<u32> {
        for t in types_of(ty) {
            if !self.members.contains_key(&t) {
                let list = self.compute_members(&t);
                self.members.insert(t, list);
            }
        }
        self.members_readonly(ty)
    }

    fn compute_members(&self, t: &str) -> Vec<u32> {
        (0..self.objects.len() as u32)
            .filter(|&o| {
                self.object_types[o as usize]
                    .iter()
                    .any(|ot| self.types.is_subtype(ot, t))
            })
            .collect()
    }

    /// Calls `f` with `binding` extended by every combination of objects for `variables` (each
    /// ranging over its type), until `f` returns true; returns whether it did.
    pub fn each_binding(
        &self,
        variables: &[Typed<Variable>],
        binding: &mut Binding,
        f: &mut dyn FnMut(&mut Binding) -> Eval<bool>,
    ) -> Eval<bool> {
        self.each_binding_guarded(variables, None, binding, f)
    }

    /// As [`World::each_binding`], but skipping the combinations under which `condition`
    /// cannot hold in `state`: each atom of its top-level conjunction (negated or not, `=`
    /// aside) that mentions no variable but `variables` is looked up as soon as the last of them
    /// is bound, and a false one cuts every combination below it. `f` sees the same bindings
    /// under which `condition` holds as with `each_binding`, fewer of the others.
    pub fn each_binding_where(
        &self,
        variables: &[Typed<Variable>],
        condition: Option<&Gd>,
        state: &State,
        binding: &mut Binding,
        f: &mut dyn FnMut(&mut Binding) -> Eval<bool>,
    ) -> Eval<bool> {
        let condition = condition.map(|c| (c, state));
        self.each_binding_guarded(variables, condition, binding, f)
    }

    /// `each_binding` (no condition) and `each_binding_where` (a condition and the state it is
    /// looked up in): one walk, with no guards for the first.
    fn each_binding_guarded(
        &self,
        variables: &[Typed<Variable>],
        condition: Option<(&Gd, &State)>,
        binding: &mut Binding,
        f: &mut dyn FnMut(&mut Binding) -> Eval<bool>,
    ) -> Eval<bool> {
        let guards = condition.map_or_else(
            || vec![Vec::new(); variables.len() + 1],
            |(c, _)| guards(variables, c),
        );
        let state = condition.map(|(_, state)| state);
        if !self.guards_hold(&guards[0], binding, state) {
            return Ok(false);
        }
        let domains: Vec<Vec<u32>> = variables
            .iter()
            .map(|v| self.members_readonly(&v.ty))
            .collect();
        let search = Guarded {
            variables,
            domains: &domains,
            guards: &guards[1..],
            state,
        };
        self.each_guarded(&search, 0, binding, f)
    }

    fn each_guarded(
        &self,
        search: &Guarded,
        at: usize,
        binding: &mut Binding,
        f: &mut dyn FnMut(&mut Binding) -> Eval<bool>,
    ) -> Eval<bool> {
        if at == search.variables.len() {
            return f(binding);
        }
        for &o in &search.domains[at] {
            binding.push(&search.variables[at].item, o);
            let result = if self.guards_hold(&search.guards[at], binding, search.state) {
                self.each_guarded(search, at + 1, binding, f)
            } else {
                Ok(false)
            };
            binding.pop();
            if result? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether no atom of `guards` is known false under `binding` (one that cannot be looked
    /// up is left to the full evaluation). Without a state there are no guards.
    fn guards_hold(
        &self,
        guards: &[(&Atom, bool)],
        binding: &Binding,
        state: Option<&State>,
    ) -> bool {
        let Some(state) = state else {
            return true;
        };
        guards
            .iter()
            .all(|&(atom, positive)| match self.atom_fact(atom, binding) {
                Ok(fact) => self.fact_holds(&fact, state) == positive,
                Err(_) => true,
            })
    }

    /// The objects of a type, from the cache when it has the type.
    fn members_readonly(&self, ty: &Option<Type>) -> Vec<u32> {
        let types = types_of(ty);
        if let [t] = types.as_slice() {
            return match self.members.get(t) {
                Some(list) => list.clone(),
                None => self.compute_members(t),
            };
        }
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for t in &types {
            let list = match self.members.get(t) {
                Some(list) => list.clone(),
                None => self.compute_members(t),
            };
            out.extend(list.into_iter().filter(|o| seen.insert(*o)));
        }
        out
    }

    /// Fills the type cache for every type the domain mentions, so evaluation never misses it.
    pub fn warm(&mut self) {
        let names: Vec<String> = self.types.names().map(str::to_string).collect();
        for n in names {
            let list = self.compute_members(&n);
            self.members.insert(n, list);
        }
    }
}

/// A guarded enumeration's fixed parts: the variables, the objects each ranges over, and the
/// atoms looked up once each is bound.
struct Guarded<'s, 'g> {
    variables: &'s [Typed<Variable>],
    domains: &'s [Vec<u32>],
    guards: &'s [Vec<(&'g Atom, bool)>],
    state: Option<&'s State>,
}

/// The atoms of `condition`'s top-level conjunction, with their polarity, by the number of
/// `variables` that must be bound before they can be looked up: index 0 holds those with
/// none of them (constants only), index i + 1 those whose last variable is `variables[i]`.
/// An atom with any other variable, and every `=`, is left to the full evaluation.
fn guards<'g>(variables: &[Typed<Variable>], condition: &'g Gd) -> Vec<Vec<(&'g Atom, bool)>> {
    let mut out = vec![Vec::new(); variables.len() + 1];
    let conjuncts: Vec<&Gd> = match &condition.kind {
        GdKind::And { args } => args.iter().collect(),
        _ => vec![condition],
    };
    for gd in conjuncts {
        let (atom, positive) = match &gd.kind {
            GdKind::Atom(atom) => (atom, true),
            GdKind::Not { arg } => match &arg.kind {
                GdKind::Atom(atom) => (atom, false),
                _ => continue,
            },
            _ => continue,
        };
        if atom.predicate.text == "=" {
            continue;
        }
        let mut depth = Some(0);
        for arg in &atom.args {
            if let Term::Variable(v) = arg {
                let key = v.name.folded();
                let at = variables
                    .iter()
                    .rposition(|p| p.item.name.folded().as_str() == key.as_str());
                depth = match (depth, at) {
                    (Some(d), Some(i)) => Some(d.max(i + 1)),
                    _ => None,
                };
            }
        }
        if let Some(d) = depth {
            out[d].push((atom, positive));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOMAIN: &str = "(define (domain d) (:requirements :typing :negative-preconditions)
        (:types room item)
        (:predicates (at ?i - item ?r - room) (lit ?r - room) (door ?a ?b - room))
        (:action a :parameters (?i - item ?r ?s - room)
          :precondition (and (at ?i ?r) (not (lit ?s)) (door ?r ?s) (or (lit ?r) (= ?r ?s)))))";
    const PROBLEM: &str = "(define (problem p) (:domain d)
        (:objects r1 r2 r3 - room i1 i2 - item)
        (:init (at i1 r1) (at i2 r3) (lit r1) (lit r3)
               (door r1 r2) (door r1 r1) (door r3 r3) (door r2 r2)))";

    /// The bindings under which `condition` holds, found with and without guards.
    fn holding(world: &World, state: &State, guarded: bool) -> (Vec<Vec<u32>>, usize) {
        let action = world.actions["a"];
        let condition = action.precondition.as_ref().expect("a precondition");
        let (mut holds, mut seen) = (Vec::new(), 0);
        let mut visit = |b: &mut Binding| {
            seen += 1;
            if world.holds(condition, b, state)? {
                holds.push(b.objects().collect());
            }
            Ok(false)
        };
        let mut binding = Binding::default();
        let guard = guarded.then_some(condition);
        world
            .each_binding_where(&action.parameters, guard, state, &mut binding, &mut visit)
            .expect("evaluates");
        (holds, seen)
    }

    #[test]
    fn guards_keep_every_binding_that_holds_and_cut_the_others() {
        let domain = crate::parse::domain(DOMAIN).value.expect("domain");
        let problem = crate::parse::problem(PROBLEM).value.expect("problem");
        let mut world = World::new(&domain, &problem);
        world.warm();
        let state = world.initial_state().expect("initial state");
        let (all, tried_all) = holding(&world, &state, false);
        let (guarded, tried_guarded) = holding(&world, &state, true);
        assert_eq!(all, guarded);
        // (a i1 r1 r2): at, not lit, door; r1 is lit. (a i2 r3 r3) fails `(not (lit r3))`.
        let names: Vec<Vec<&str>> = guarded
            .iter()
            .map(|b| {
                b.iter()
                    .map(|&o| world.objects[o as usize].as_str())
                    .collect()
            })
            .collect();
        assert_eq!(names, vec![vec!["i1", "r1", "r2"]]);
        assert_eq!(tried_all, 2 * 3 * 3);
        // Only (i1 r1) and (i2 r3) pass `at`; of their three rooms each, only (r1 r2) reaches
        // the full test.
        assert_eq!(tried_guarded, 1);
    }
}
