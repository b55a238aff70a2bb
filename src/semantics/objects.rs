//! Objects and types: the world built from a task, every object with each type it is given,
//! the members of a type, and the bindings of quantified variables.

use super::{Binding, Eval, World};
use crate::ast::*;
use crate::check::types::{OBJECT, TypeGraph};
use std::collections::{HashMap, HashSet};

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
        self.object_index.get(&name.to_lowercase()).copied()
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
        let domains: Vec<Vec<u32>> = variables
            .iter()
            .map(|v| self.members_readonly(&v.ty))
            .collect();
        self.each_from(variables, &domains, 0, binding, f)
    }

    fn each_from(
        &self,
        variables: &[Typed<Variable>],
        domains: &[Vec<u32>],
        at: usize,
        binding: &mut Binding,
        f: &mut dyn FnMut(&mut Binding) -> Eval<bool>,
    ) -> Eval<bool> {
        if at == variables.len() {
            return f(binding);
        }
        for &o in &domains[at] {
            binding.push(&variables[at].item, o);
            let result = self.each_from(variables, domains, at + 1, binding, f);
            binding.pop();
            if result? {
                return Ok(true);
            }
        }
        Ok(false)
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
