//! The ground semantics that validation (`plan`) and the planner (`solve`) share: a task's
//! objects with their types, interned facts and states, the evaluation of goal descriptions,
//! expressions and effects under a binding, stratified derived predicates, and VAL's
//! interference (mutex) rules between the steps of one happening.
//!
//! One [`World`] is built per task ([`World::new`]); its methods are split by concern:
//! `objects` (objects, types and the bindings of quantified variables), `state` (interned
//! facts, the initial state, applying changes), `eval` (goals and numeric expressions, and
//! what a failed condition lacks), `derived` (derived predicates in strata), `effects` (an
//! action's ground effects) and `interference` (VAL's mutex rules).

mod derived;
mod effects;
mod eval;
mod interference;
mod objects;
mod state;

pub use effects::Record;
pub use interference::{Claim, Marks, Use};

use crate::ast::*;
use crate::check::types::TypeGraph;
use compact_str::CompactString;
use foldhash::{HashMap, HashSet};
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
    vars: Vec<(CompactString, u32)>,
    duration: Option<f64>,
}

impl Binding {
    /// Binds `?duration`, the step's duration, for a durative action's conditions and effects.
    pub fn set_duration(&mut self, duration: f64) {
        self.duration = Some(duration);
    }

    pub fn push(&mut self, var: &Variable, object: u32) {
        self.vars.push((var.name.folded().into_compact(), object));
    }

    /// The objects bound, outermost first.
    pub(crate) fn objects(&self) -> impl Iterator<Item = u32> + '_ {
        self.vars.iter().map(|(_, o)| *o)
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

/// A task made ground: its objects and their types, its predicates and functions interned, its
/// actions by name and its derived rules in strata.
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
