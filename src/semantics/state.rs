//! Interned facts and states: atoms and fluents as ids, the initial state, and applying a
//! step's changes.

use super::{Binding, Changes, Eval, EvalError, Fact, State, World};
use crate::ast::*;

impl World<'_> {
    /// The interned index of a predicate, by its lower-case name.
    pub(crate) fn predicate_id(&self, key: &str) -> Option<u32> {
        self.predicate_index.get(key).copied()
    }

    /// `(on a b)` for a fact of a predicate.
    pub(crate) fn show_atom(&self, fact: &[u32]) -> String {
        self.show(&self.predicates, fact)
    }

    pub(crate) fn resolve(&self, term: &Term, binding: &Binding) -> Eval<u32> {
        match term {
            Term::Variable(v) => binding
                .get(&v.name.folded())
                .ok_or_else(|| EvalError::Unknown(format!("?{}", v.name.text))),
            Term::Name(n) => self
                .object(&n.text)
                .ok_or_else(|| EvalError::Unknown(n.text.to_string())),
        }
    }

    pub fn atom_fact(&self, atom: &Atom, binding: &Binding) -> Eval<Fact> {
        let Some(&p) = self.predicate_index.get(&*atom.predicate.folded()) else {
            return Err(EvalError::Unknown(atom.predicate.text.to_string()));
        };
        let mut fact = Vec::with_capacity(atom.args.len() + 1);
        fact.push(p);
        for a in &atom.args {
            fact.push(self.resolve(a, binding)?);
        }
        Ok(fact.into_boxed_slice())
    }

    pub(super) fn function_fact(
        &self,
        name: &Name,
        args: &[Term],
        binding: &Binding,
    ) -> Eval<Fact> {
        let Some(&f) = self.function_index.get(&*name.folded()) else {
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

    pub(super) fn show(&self, names: &[String], fact: &[u32]) -> String {
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
}
