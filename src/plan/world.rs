//! The ground world of a task: objects with their types, interned predicates and functions,
//! states, and the evaluation of goal descriptions, expressions and effects under a binding.

use crate::ast::*;
use crate::check::types::{OBJECT, TypeGraph};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// An atom or a function application, interned: the symbol's index, then the objects'.
pub type Fact = Box<[u32]>;

/// Why an expression or formula cannot be evaluated.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalError {
    /// A numeric fluent read before it has a value.
    Undefined(String),
    /// A name that is neither a constant nor an object, or a variable that is not bound.
    Unknown(String),
    /// A construct the sequential validator does not interpret.
    Unsupported(String),
    /// Division by zero.
    Arithmetic(String),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::Undefined(what) => write!(f, "`{what}` has no value"),
            EvalError::Unknown(what) => write!(f, "`{what}` is not an object of the task"),
            EvalError::Unsupported(what) => write!(f, "{what} is not supported by the validator"),
            EvalError::Arithmetic(what) => write!(f, "{what}"),
        }
    }
}

pub type Eval<T> = Result<T, EvalError>;

/// What holds: basic atoms, derived atoms (recomputed from the basic ones), numeric values.
#[derive(Clone, Debug, Default)]
pub struct State {
    pub facts: HashSet<Fact>,
    pub derived: HashSet<Fact>,
    pub values: HashMap<Fact, f64>,
}

/// Variables bound to objects, innermost last; in a durative action, `?duration` too.
#[derive(Clone, Debug, Default)]
pub struct Binding {
    vars: Vec<(String, u32)>,
    duration: Option<f64>,
}

impl Binding {
    /// Binds `?duration`, the step's duration, for a durative action's conditions and effects.
    pub fn set_duration(&mut self, duration: f64) {
        self.duration = Some(duration);
    }

    pub fn push(&mut self, var: &Variable, object: u32) {
        self.vars.push((var.name.key(), object));
    }

    fn pop(&mut self) {
        self.vars.pop();
    }

    fn get(&self, key: &str) -> Option<u32> {
        self.vars
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, o)| *o)
    }
}

/// A change an action makes, computed in the state before it.
#[derive(Clone, Debug, Default)]
pub struct Changes {
    pub adds: Vec<Fact>,
    pub deletes: Vec<Fact>,
    pub updates: Vec<(AssignOp, Fact, f64)>,
}

pub struct World<'a> {
    pub problem: &'a Problem,
    pub objects: Vec<String>,
    object_index: HashMap<String, u32>,
    object_types: Vec<Vec<String>>,
    types: TypeGraph,
    members: HashMap<String, Vec<u32>>,
    pub predicates: Vec<String>,
    predicate_index: HashMap<String, u32>,
    pub functions: Vec<String>,
    function_index: HashMap<String, u32>,
    derived_predicates: HashSet<u32>,
    /// `(total-cost)`, when the domain declares it: it starts at 0 when the problem gives it no
    /// value, as VAL and Fast Downward take it.
    cost_fluent: Option<u32>,
    /// Derived rules, grouped in strata that only read lower strata negatively.
    strata: Vec<Vec<&'a Derived>>,
    pub actions: HashMap<String, &'a Action>,
    pub typed: bool,
}

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

    /// Orders derived rules so that a rule reading a derived predicate negatively comes in a
    /// later stratum than the rules defining it.
    fn stratify(&self, rules: &[&'a Derived]) -> Vec<Vec<&'a Derived>> {
        let heads: Vec<String> = rules.iter().map(|r| r.predicate.name.key()).collect();
        let mut level: HashMap<String, usize> = heads.iter().map(|h| (h.clone(), 0)).collect();
        // Relax until stable; a cycle through negation (not stratifiable) stops at a bound.
        for _ in 0..=rules.len() {
            let mut changed = false;
            for (rule, head) in rules.iter().zip(&heads) {
                let mut reads = Vec::new();
                polarities(&rule.body, true, &mut reads);
                for (name, positive) in reads {
                    if let Some(&l) = level.get(&name) {
                        let need = if positive { l } else { l + 1 };
                        if level[head] < need && need <= rules.len() {
                            level.insert(head.clone(), need);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let top = level.values().copied().max().unwrap_or(0);
        (0..=top)
            .map(|l| {
                rules
                    .iter()
                    .zip(&heads)
                    .filter(|(_, h)| level[*h] == l)
                    .map(|(r, _)| *r)
                    .collect()
            })
            .filter(|s: &Vec<&Derived>| !s.is_empty())
            .collect()
    }

    /// Derived rules in strata: a rule reading a derived predicate negatively comes in a later
    /// stratum than the rules defining it.
    pub(crate) fn strata(&self) -> &[Vec<&'a Derived>] {
        &self.strata
    }

    /// The interned index of a predicate, by its lower-case name.
    pub(crate) fn predicate_id(&self, key: &str) -> Option<u32> {
        self.predicate_index.get(key).copied()
    }

    /// `(on a b)` for a fact of a predicate.
    pub(crate) fn show_atom(&self, fact: &[u32]) -> String {
        self.show(&self.predicates, fact)
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

    // -----------------------------------------------------------------------------------------
    // Ground facts

    pub(crate) fn resolve(&self, term: &Term, binding: &Binding) -> Eval<u32> {
        match term {
            Term::Variable(v) => binding
                .get(&v.name.key())
                .ok_or_else(|| EvalError::Unknown(format!("?{}", v.name.text))),
            Term::Name(n) => self
                .object(&n.text)
                .ok_or_else(|| EvalError::Unknown(n.text.to_string())),
        }
    }

    pub fn atom_fact(&self, atom: &Atom, binding: &Binding) -> Eval<Fact> {
        let Some(&p) = self.predicate_index.get(&atom.predicate.key()) else {
            return Err(EvalError::Unknown(atom.predicate.text.to_string()));
        };
        let mut fact = Vec::with_capacity(atom.args.len() + 1);
        fact.push(p);
        for a in &atom.args {
            fact.push(self.resolve(a, binding)?);
        }
        Ok(fact.into_boxed_slice())
    }

    fn function_fact(&self, name: &Name, args: &[Term], binding: &Binding) -> Eval<Fact> {
        let Some(&f) = self.function_index.get(&name.key()) else {
            return Err(EvalError::Unknown(name.text.to_string()));
        };
        let mut fact = Vec::with_capacity(args.len() + 1);
        fact.push(f);
        for a in args {
            fact.push(self.resolve(a, binding)?);
        }
        Ok(fact.into_boxed_slice())
    }

    /// `(fuel t1)` for a fact of a function.
    pub fn show_value(&self, fact: &[u32]) -> String {
        self.show(&self.functions, fact)
    }

    fn show(&self, names: &[String], fact: &[u32]) -> String {
        let mut out = format!(
            "({}",
            names.get(fact[0] as usize).map_or("?", String::as_str)
        );
        for &o in &fact[1..] {
            out.push(' ');
            out.push_str(self.objects.get(o as usize).map_or("?", String::as_str));
        }
        out.push(')');
        out
    }

    // -----------------------------------------------------------------------------------------
    // States

    /// The initial state; timed initial literals are not part of it (the caller reports them).
    pub fn initial_state(&mut self) -> Eval<State> {
        let mut state = State::default();
        let empty = Binding::default();
        for init in &self.problem.init {
            match &init.kind {
                InitKind::Atom(atom) => {
                    state.facts.insert(self.atom_fact(atom, &empty)?);
                }
                InitKind::Assign { target, value } => {
                    // A value for a function the domain does not declare (check's C203) is kept
                    // under a symbol of its own, so a metric may still read it.
                    let name = match &target.kind {
                        ExprKind::Function(f) => Some(&f.name),
                        ExprKind::Term {
                            term: Term::Name(n),
                        } => Some(n),
                        _ => None,
                    };
                    if let Some(name) = name
                        && !self.function_index.contains_key(&name.key())
                    {
                        self.function_index
                            .insert(name.key(), self.functions.len() as u32);
                        self.functions.push(name.key());
                    }
                    let fact = self.target_fact(target, &empty)?;
                    let value = match &value.kind {
                        ExprKind::Number(n) => n.value,
                        _ => continue,
                    };
                    state.values.insert(fact, value);
                }
                InitKind::Not { .. } | InitKind::At { .. } => {}
            }
        }
        if let Some(cost) = self.cost_fluent {
            state.values.entry(Box::new([cost])).or_insert(0.0);
        }
        self.derive(&mut state)?;
        Ok(state)
    }

    pub fn target_fact(&self, target: &Expr, binding: &Binding) -> Eval<Fact> {
        match &target.kind {
            ExprKind::Function(f) => self.function_fact(&f.name, &f.args, binding),
            ExprKind::Term {
                term: Term::Name(n),
            } => self.function_fact(n, &[], binding),
            _ => Err(EvalError::Unsupported("this numeric effect target".into())),
        }
    }

    /// Recomputes the derived atoms of `state` from its basic atoms.
    pub fn derive(&mut self, state: &mut State) -> Eval<()> {
        if self.strata.is_empty() {
            return Ok(());
        }
        state.derived.clear();
        let strata = self.strata.clone();
        for stratum in &strata {
            loop {
                let mut added = false;
                for rule in stratum {
                    let params = &rule.predicate.parameters;
                    let head = Atom {
                        predicate: rule.predicate.name.clone(),
                        args: params
                            .iter()
                            .map(|p| Term::Variable(p.item.clone()))
                            .collect(),
                        span: rule.span,
                    };
                    let mut found = Vec::new();
                    self.each_binding(params, &mut Binding::default(), &mut |binding| {
                        let fact = self.atom_fact(&head, binding)?;
                        if !state.derived.contains(&fact)
                            && self.holds(&rule.body, binding, state)?
                        {
                            found.push(fact);
                        }
                        Ok(false)
                    })?;
                    for fact in found {
                        added |= state.derived.insert(fact);
                    }
                }
                if !added {
                    break;
                }
            }
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------------------
    // Evaluation

    /// Whether `gd` holds in `state` under `binding`.
    pub fn holds(&self, gd: &Gd, binding: &mut Binding, state: &State) -> Eval<bool> {
        Ok(match &gd.kind {
            GdKind::Atom(atom) => {
                if atom.predicate.text == "=" {
                    let [left, right] = atom.args.as_slice() else {
                        return Err(EvalError::Unsupported(format!(
                            "`=` with {} argument{}",
                            atom.args.len(),
                            if atom.args.len() == 1 { "" } else { "s" }
                        )));
                    };
                    self.resolve(left, binding)? == self.resolve(right, binding)?
                } else {
                    let fact = self.atom_fact(atom, binding)?;
                    if self.derived_predicates.contains(&fact[0]) {
                        state.derived.contains(&fact)
                    } else {
                        state.facts.contains(&fact)
                    }
                }
            }
            GdKind::And { args } => {
                for a in args {
                    if !self.holds(a, binding, state)? {
                        return Ok(false);
                    }
                }
                true
            }
            GdKind::Or { args } => {
                for a in args {
                    if self.holds(a, binding, state)? {
                        return Ok(true);
                    }
                }
                false
            }
            GdKind::Not { arg } => !self.holds(arg, binding, state)?,
            GdKind::Imply {
                condition,
                consequence,
            } => {
                !self.holds(condition, binding, state)?
                    || self.holds(consequence, binding, state)?
            }
            GdKind::Exists { variables, body } => {
                self.quantify(variables, body, binding, state, true)?
            }
            GdKind::Forall { variables, body } => {
                !self.quantify(variables, body, binding, state, false)?
            }
            GdKind::Compare { op, lhs, rhs } => {
                let (l, r) = (
                    self.value(lhs, binding, state)?,
                    self.value(rhs, binding, state)?,
                );
                // VAL compares with a tolerance of 0.0001 (`evaluateAtPointError`).
                const TOO_SMALL: f64 = 0.0001;
                let d = l - r;
                match op {
                    CompareOp::Eq => d.abs() < TOO_SMALL,
                    CompareOp::Lt => d < TOO_SMALL,
                    CompareOp::Gt => d > -TOO_SMALL,
                    CompareOp::Le => d <= TOO_SMALL,
                    CompareOp::Ge => d >= -TOO_SMALL,
                }
            }
            // A preference is soft: it never makes a condition fail.
            GdKind::Preference { .. } => true,
            GdKind::Timed { .. } => {
                return Err(EvalError::Unsupported(
                    "`at start`/`at end`/`over all`".into(),
                ));
            }
            GdKind::Modal { .. } => {
                return Err(EvalError::Unsupported("trajectory constraints".into()));
            }
        })
    }

    /// `exists` (`want` true): some binding satisfies `body`. `forall` (`want` false): some
    /// binding falsifies it.
    fn quantify(
        &self,
        variables: &[Typed<Variable>],
        body: &Gd,
        binding: &mut Binding,
        state: &State,
        want: bool,
    ) -> Eval<bool> {
        self.each_binding(variables, binding, &mut |binding| {
            Ok(self.holds(body, binding, state)? == want)
        })
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

    pub fn value(&self, e: &Expr, binding: &Binding, state: &State) -> Eval<f64> {
        match &e.kind {
            ExprKind::Number(n) => Ok(n.value),
            ExprKind::Function(f) => {
                let fact = self.function_fact(&f.name, &f.args, binding)?;
                state
                    .values
                    .get(&fact)
                    .copied()
                    .ok_or_else(|| EvalError::Undefined(self.show_value(&fact)))
            }
            ExprKind::Term {
                term: Term::Name(n),
            } => {
                let fact = self.function_fact(n, &[], binding)?;
                state
                    .values
                    .get(&fact)
                    .copied()
                    .ok_or_else(|| EvalError::Undefined(self.show_value(&fact)))
            }
            ExprKind::Term {
                term: Term::Variable(v),
            } if v.name.key() == "duration" && binding.duration.is_some() => {
                Ok(binding.duration.unwrap_or_default())
            }
            ExprKind::Term {
                term: Term::Variable(v),
            } => Err(EvalError::Unsupported(format!(
                "the variable `?{}` as a number",
                v.name.text
            ))),
            ExprKind::Op { op, args } => {
                let values = args
                    .iter()
                    .map(|a| self.value(a, binding, state))
                    .collect::<Eval<Vec<f64>>>()?;
                Ok(match (op, values.as_slice()) {
                    (ArithOp::Sub, [x]) => -x,
                    (ArithOp::Sub, [x, rest @ ..]) => rest.iter().fold(*x, |a, b| a - b),
                    (ArithOp::Add, _) => values.iter().sum(),
                    (ArithOp::Mul, _) => values.iter().product(),
                    (ArithOp::Div, [x, y]) => {
                        if *y == 0.0 {
                            return Err(EvalError::Arithmetic("division by zero".into()));
                        }
                        x / y
                    }
                    (ArithOp::Pow, [x, y]) => x.powf(*y),
                    _ => {
                        return Err(EvalError::Unsupported(
                            "an operator with this many arguments".into(),
                        ));
                    }
                })
            }
            ExprKind::TotalTime => Err(EvalError::Unsupported(
                "`total-time` inside an action".into(),
            )),
            ExprKind::IsViolated { .. } => Err(EvalError::Unsupported("`is-violated`".into())),
            ExprKind::Time => Err(EvalError::Unsupported("`#t`".into())),
            ExprKind::Call { function, .. } => {
                Err(EvalError::Unsupported(format!("`{}`", function.text)))
            }
        }
    }

    /// Applies changes: deletes, then adds, then numeric updates in order.
    pub fn apply(&mut self, changes: &Changes, state: &mut State) -> Eval<()> {
        for d in &changes.deletes {
            state.facts.remove(d);
        }
        for a in &changes.adds {
            state.facts.insert(a.clone());
        }
        for (op, fact, value) in &changes.updates {
            let current = state.values.get(fact).copied();
            let new = match (op, current) {
                (AssignOp::Assign, _) => *value,
                (_, None) => return Err(EvalError::Undefined(self.show_value(fact))),
                (AssignOp::Increase, Some(c)) => c + value,
                (AssignOp::Decrease, Some(c)) => c - value,
                (AssignOp::ScaleUp, Some(c)) => c * value,
                (AssignOp::ScaleDown, Some(c)) => c / value,
            };
            state.values.insert(fact.clone(), new);
        }
        self.derive(state)
    }

    /// The ground atoms and conditions of `gd` that do not hold: what a failed precondition or
    /// goal lacks, as VAL's repair advice lists it.
    pub fn unsatisfied(
        &self,
        gd: &Gd,
        binding: &mut Binding,
        state: &State,
        out: &mut Vec<(String, Span)>,
    ) {
        match &gd.kind {
            GdKind::And { args } => {
                for a in args {
                    self.unsatisfied(a, binding, state, out);
                }
            }
            _ => match self.holds(gd, binding, state) {
                Ok(true) => {}
                Ok(false) => out.push((self.show_failed(gd, binding, state), gd.span)),
                Err(e) => out.push((format!("{} ({e})", self.show_gd(gd, binding)), gd.span)),
            },
        }
    }

    /// A condition that does not hold, as `show_gd` writes it; a comparison also gets the
    /// current values of the fluents it reads, which decide it, as VAL reports them:
    /// `(>= (fuel plane1) (* 810 4)) [fuel plane1 = 1288]`.
    fn show_failed(&self, gd: &Gd, binding: &Binding, state: &State) -> String {
        let shown = self.show_gd(gd, binding);
        let GdKind::Compare { lhs, rhs, .. } = &gd.kind else {
            return shown;
        };
        let mut facts = Vec::new();
        self.fluents(lhs, binding, &mut facts);
        self.fluents(rhs, binding, &mut facts);
        let values: Vec<String> = facts
            .iter()
            .map(|fact| {
                let name = self.show_value(fact);
                let name = &name[1..name.len() - 1];
                match state.values.get(fact) {
                    Some(value) => format!("{name} = {value}"),
                    None => format!("{name} undefined"),
                }
            })
            .collect();
        if values.is_empty() {
            shown
        } else {
            format!("{shown} [{}]", values.join(", "))
        }
    }

    /// The ground fluents an expression reads, each once, in order.
    fn fluents(&self, e: &Expr, binding: &Binding, out: &mut Vec<Fact>) {
        let fact = match &e.kind {
            ExprKind::Function(f) => self.function_fact(&f.name, &f.args, binding),
            ExprKind::Term {
                term: Term::Name(n),
            } => self.function_fact(n, &[], binding),
            ExprKind::Op { args, .. } | ExprKind::Call { args, .. } => {
                for a in args {
                    self.fluents(a, binding, out);
                }
                return;
            }
            _ => return,
        };
        if let Ok(fact) = fact
            && !out.contains(&fact)
        {
            out.push(fact);
        }
    }

    /// A numeric expression with its bound variables replaced by their objects; `None` for
    /// the forms that print only as written.
    fn show_expr(&self, e: &Expr, binding: &Binding) -> Option<String> {
        let term = |t: &Term| match self.resolve(t, binding) {
            Ok(o) => self.objects[o as usize].clone(),
            Err(_) => match t {
                Term::Variable(v) => format!("?{}", v.name.text),
                Term::Name(n) => n.text.to_string(),
            },
        };
        Some(match &e.kind {
            ExprKind::Number(n) => n.text.clone(),
            ExprKind::Term { term: t } => term(t),
            ExprKind::Function(f) => {
                let mut out = format!("({}", f.name.text.to_lowercase());
                for a in &f.args {
                    out.push(' ');
                    out.push_str(&term(a));
                }
                out.push(')');
                out
            }
            ExprKind::Op { op, args } => {
                let parts = args
                    .iter()
                    .map(|a| self.show_expr(a, binding))
                    .collect::<Option<Vec<String>>>()?;
                format!("({} {})", op.symbol(), parts.join(" "))
            }
            _ => return None,
        })
    }

    /// A condition with its bound variables replaced by their objects.
    pub fn show_gd(&self, gd: &Gd, binding: &Binding) -> String {
        match &gd.kind {
            GdKind::Atom(atom) => {
                let mut out = format!("({}", atom.predicate.text.to_lowercase());
                for a in &atom.args {
                    out.push(' ');
                    match self.resolve(a, binding) {
                        Ok(o) => out.push_str(&self.objects[o as usize]),
                        Err(_) => out.push_str(&match a {
                            Term::Variable(v) => format!("?{}", v.name.text),
                            Term::Name(n) => n.text.to_string(),
                        }),
                    }
                }
                out.push(')');
                out
            }
            GdKind::Not { arg } => format!("(not {})", self.show_gd(arg, binding)),
            GdKind::Compare { op, lhs, rhs } => {
                match (self.show_expr(lhs, binding), self.show_expr(rhs, binding)) {
                    (Some(l), Some(r)) => format!("({} {l} {r})", op.symbol()),
                    _ => crate::print::gd_text(gd),
                }
            }
            GdKind::And { args } | GdKind::Or { args } => {
                let op = if matches!(gd.kind, GdKind::And { .. }) {
                    "and"
                } else {
                    "or"
                };
                let parts: Vec<String> = args.iter().map(|a| self.show_gd(a, binding)).collect();
                format!("({op} {})", parts.join(" "))
            }
            _ => {
                // Other forms print as written.
                crate::print::gd_text(gd)
            }
        }
    }
}

/// The derived-or-basic predicates a formula reads, with whether it reads them positively.
fn polarities(gd: &Gd, positive: bool, out: &mut Vec<(String, bool)>) {
    match &gd.kind {
        GdKind::Atom(atom) => out.push((atom.predicate.key(), positive)),
        GdKind::And { args } | GdKind::Or { args } => {
            args.iter().for_each(|a| polarities(a, positive, out))
        }
        GdKind::Not { arg } => polarities(arg, !positive, out),
        GdKind::Imply {
            condition,
            consequence,
        } => {
            polarities(condition, !positive, out);
            polarities(consequence, positive, out);
        }
        GdKind::Exists { body, .. } | GdKind::Forall { body, .. } => {
            polarities(body, positive, out)
        }
        GdKind::Preference { body, .. } | GdKind::Timed { body, .. } => {
            polarities(body, positive, out)
        }
        GdKind::Modal { args, .. } => args.iter().for_each(|a| polarities(a, positive, out)),
        GdKind::Compare { .. } => {}
    }
}

/// An action's effects, ground, in the groups VAL handles them in when it looks for
/// interference: plain adds, plain deletes, conditional effects whose condition holds (with the
/// facts the condition reads), numeric updates (with the fluents they read), then `forall`s.
#[derive(Debug, Default)]
pub struct Record {
    adds: Vec<Fact>,
    deletes: Vec<Fact>,
    conditionals: Vec<(Vec<Fact>, Record)>,
    /// Each update's operator, target, value (read in the state before), and the fluents read.
    numeric: Vec<(AssignOp, Fact, f64, Vec<Fact>)>,
    foralls: Vec<Record>,
}

impl Record {
    /// The changes to apply, in VAL's order: the numeric updates of conditional effects first,
    /// then the action's own, then those of universal effects.
    pub fn changes(&self, out: &mut Changes) {
        out.adds.extend(self.adds.iter().cloned());
        out.deletes.extend(self.deletes.iter().cloned());
        for (_, inner) in &self.conditionals {
            inner.changes(out);
        }
        out.updates.extend(
            self.numeric
                .iter()
                .map(|(op, fact, value, _)| (*op, fact.clone(), *value)),
        );
        for inner in &self.foralls {
            inner.changes(out);
        }
    }
}

/// What a step does with a fact or fluent, in VAL's ownership tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// Read positively in a conjunctive precondition.
    PositivePre,
    /// Read under `not`.
    NegativePre,
    /// Read under `or`, `imply` or a quantifier, or as a number.
    Pre,
    Add,
    Delete,
    Assign,
}

/// Facts (`false`) and fluents (`true`) to the step that uses them (`None` once two do) and how.
type Owners = HashMap<(bool, Fact), (Option<usize>, Use)>;

/// What a precondition reads: `(numeric, fact or fluent, how)`.
pub type Marks = Vec<(bool, Fact, Use)>;

/// One step of a happening for [`World::interference`]: its index, effects and reads.
pub type Claim = (usize, Record, Marks);

impl World<'_> {
    /// The ground effect record of an action, conditions read in `state`.
    pub fn record(
        &self,
        effect: &Effect,
        binding: &mut Binding,
        state: &State,
        out: &mut Record,
    ) -> Eval<()> {
        match &effect.kind {
            EffectKind::And { args } => {
                for a in args {
                    self.record(a, binding, state, out)?;
                }
            }
            EffectKind::Add { atom } => out.adds.push(self.atom_fact(atom, binding)?),
            EffectKind::Delete { atom } => out.deletes.push(self.atom_fact(atom, binding)?),
            EffectKind::When { condition, body } => {
                if self.holds(condition, binding, state)? {
                    let mut read = Vec::new();
                    self.reads(condition, binding, &mut read, &mut Vec::new())?;
                    let mut inner = Record::default();
                    self.record(body, binding, state, &mut inner)?;
                    out.conditionals.push((read, inner));
                }
            }
            EffectKind::Forall { variables, body } => {
                let mut inner = Record::default();
                self.each_binding(variables, binding, &mut |binding| {
                    self.record(body, binding, state, &mut inner)?;
                    Ok(false)
                })?;
                out.foralls.push(inner);
            }
            EffectKind::Numeric { op, target, value } => {
                let lhs = self.target_fact(target, binding)?;
                let mut fluents = Vec::new();
                self.expr_reads(value, binding, &mut fluents)?;
                let value = self.value(value, binding, state)?;
                out.numeric.push((*op, lhs, value, fluents));
            }
            EffectKind::Timed { .. } => return Err(EvalError::Unsupported("timed effects".into())),
        }
        Ok(())
    }

    /// The facts and fluents a condition reads (for the facts of a `when`).
    fn reads(
        &self,
        gd: &Gd,
        binding: &mut Binding,
        facts: &mut Vec<Fact>,
        fluents: &mut Vec<Fact>,
    ) -> Eval<()> {
        let mut marks = Vec::new();
        self.marks(gd, Use::PositivePre, binding, &mut marks)?;
        for (numeric, fact, _) in marks {
            if numeric {
                fluents.push(fact)
            } else {
                facts.push(fact)
            }
        }
        Ok(())
    }

    fn expr_reads(&self, e: &Expr, binding: &Binding, out: &mut Vec<Fact>) -> Eval<()> {
        match &e.kind {
            ExprKind::Function(f) => out.push(self.function_fact(&f.name, &f.args, binding)?),
            ExprKind::Term {
                term: Term::Name(n),
            } => out.push(self.function_fact(n, &[], binding)?),
            ExprKind::Op { args, .. } | ExprKind::Call { args, .. } => {
                for a in args {
                    self.expr_reads(a, binding, out)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// What a precondition reads and how: `(numeric, fact, use)`.
    fn marks(
        &self,
        gd: &Gd,
        how: Use,
        binding: &mut Binding,
        out: &mut Vec<(bool, Fact, Use)>,
    ) -> Eval<()> {
        match &gd.kind {
            GdKind::Atom(atom) => {
                if atom.predicate.text != "=" {
                    out.push((false, self.atom_fact(atom, binding)?, how));
                }
            }
            GdKind::And { args } => {
                for a in args {
                    self.marks(a, how, binding, out)?;
                }
            }
            GdKind::Not { arg } => {
                let flipped = match how {
                    Use::PositivePre => Use::NegativePre,
                    Use::NegativePre => Use::PositivePre,
                    other => other,
                };
                self.marks(arg, flipped, binding, out)?;
            }
            GdKind::Or { args } => {
                for a in args {
                    self.marks(a, Use::Pre, binding, out)?;
                }
            }
            GdKind::Imply {
                condition,
                consequence,
            } => {
                self.marks(condition, Use::Pre, binding, out)?;
                self.marks(consequence, Use::Pre, binding, out)?;
            }
            GdKind::Exists { variables, body } | GdKind::Forall { variables, body } => {
                self.each_binding(variables, binding, &mut |binding| {
                    self.marks(body, Use::Pre, binding, out)?;
                    Ok(false)
                })?;
            }
            GdKind::Compare { lhs, rhs, .. } => {
                let mut fluents = Vec::new();
                self.expr_reads(lhs, binding, &mut fluents)?;
                self.expr_reads(rhs, binding, &mut fluents)?;
                out.extend(fluents.into_iter().map(|f| (true, f, Use::Pre)));
            }
            GdKind::Preference { .. } | GdKind::Timed { .. } | GdKind::Modal { .. } => {}
        }
        Ok(())
    }

    /// VAL's interference check for one happening of several steps whose preconditions hold:
    /// the first conflict, as `(step, "(adds (p a))")`. Each step claims what its precondition
    /// reads; then, step by step, its adds, deletes, conditional effects, numeric updates and
    /// universal effects claim what they change, and a claim on something another step reads or
    /// changes the other way is a mutex. Two steps adding (or deleting) the same atom, or
    /// increasing the same fluent, do not interfere.
    pub fn interference(&self, steps: &[Claim]) -> Option<(usize, String)> {
        let mut owners: Owners = HashMap::new();
        for (step, _, marks) in steps {
            for (numeric, fact, how) in marks {
                let key = (*numeric, fact.clone());
                match owners.get(&key) {
                    Some((Some(owner), _)) if owner != step => {
                        owners.insert(key, (None, *how));
                    }
                    Some((None, _)) => {
                        owners.insert(key, (None, *how));
                    }
                    _ => {
                        owners.insert(key, (Some(*step), *how));
                    }
                }
            }
        }
        for (step, record, _) in steps {
            if let Some(conflict) = self.claim(*step, record, &mut owners) {
                return Some((*step, conflict));
            }
        }
        None
    }

    fn claim(&self, step: usize, record: &Record, owners: &mut Owners) -> Option<String> {
        for fact in &record.adds {
            let key = (false, fact.clone());
            match owners.get(&key).copied() {
                None => {
                    owners.insert(key, (Some(step), Use::Add));
                }
                Some((owner, how)) if owner != Some(step) && how != Use::Add => {
                    return Some(format!("(adds {})", self.show(&self.predicates, fact)));
                }
                Some((owner, _)) => {
                    owners.insert(key, (owner, Use::Add));
                }
            }
        }
        for fact in &record.deletes {
            let key = (false, fact.clone());
            match owners.get(&key).copied() {
                None => {
                    owners.insert(key, (Some(step), Use::Delete));
                }
                Some((owner, how)) if owner != Some(step) && how != Use::Delete => {
                    return Some(format!("(deletes {})", self.show(&self.predicates, fact)));
                }
                Some((owner, Use::Add)) => {
                    owners.insert(key, (owner, Use::Add));
                }
                Some((owner, _)) => {
                    owners.insert(key, (owner, Use::Delete));
                }
            }
        }
        for (condition, inner) in &record.conditionals {
            for fact in condition {
                let key = (false, fact.clone());
                match owners.get(&key).copied() {
                    Some((owner, Use::Add | Use::Delete)) if owner != Some(step) => {
                        return Some(format!("(requires {})", self.show(&self.predicates, fact)));
                    }
                    None => {
                        owners.insert(key, (Some(step), Use::PositivePre));
                    }
                    _ => {}
                }
            }
            if let Some(conflict) = self.claim(step, inner, owners) {
                return Some(conflict);
            }
        }
        for (op, lhs, _, reads) in &record.numeric {
            for fluent in reads {
                if let Some((owner, Use::Add | Use::Assign)) =
                    owners.get(&(true, fluent.clone())).copied()
                    && owner != Some(step)
                {
                    return Some(format!("(requires {})", self.show(&self.functions, fluent)));
                }
            }
            let commutes = matches!(op, AssignOp::Increase | AssignOp::Decrease);
            let key = (true, lhs.clone());
            let wanted = if commutes { Use::Add } else { Use::Assign };
            match owners.get(&key).copied() {
                None => {
                    owners.insert(key, (Some(step), wanted));
                }
                Some((owner, how)) if owner != Some(step) => {
                    if how == Use::Add && commutes {
                        owners.insert(key, (None, Use::Add));
                    } else {
                        return Some(format!("(expression {})", self.show(&self.functions, lhs)));
                    }
                }
                Some((owner, how)) => match (how, wanted) {
                    (Use::Assign, _) | (Use::Add, Use::Assign) => {
                        return Some(format!("(expression {})", self.show(&self.functions, lhs)));
                    }
                    _ => {
                        owners.insert(key, (owner, wanted));
                    }
                },
            }
        }
        for inner in &record.foralls {
            if let Some(conflict) = self.claim(step, inner, owners) {
                return Some(conflict);
            }
        }
        None
    }

    /// What a step's precondition reads, for [`World::interference`].
    pub fn precondition_marks(
        &self,
        gd: Option<&Gd>,
        binding: &mut Binding,
    ) -> Vec<(bool, Fact, Use)> {
        let mut out = Vec::new();
        if let Some(gd) = gd {
            let _ = self.marks(gd, Use::PositivePre, binding, &mut out);
        }
        out
    }
}
