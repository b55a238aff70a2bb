//! A small logic for the compiler: formulas, sequential writes and their regression, lowered
//! to the PDDL AST at the end.
//!
//! Simmer applies an action's effect primitives one after the other, each reading the state the
//! previous ones left; a PDDL action reads only the state before it. The compiler therefore
//! records each primitive as writes (an atom made true or false under a condition, possibly for
//! all values of some variables) and regresses every later condition through the writes made so
//! far, so that the one PDDL effect does what the sequence did.

use crate::ast::{Atom, Effect, EffectKind, Gd, GdKind, Name, Span, Term, Type, Typed, Variable};

/// A term: a variable (without its `?`) or a constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum T {
    Var(String),
    Const(String),
}

impl T {
    pub fn var(name: &str) -> T {
        T::Var(name.to_string())
    }

    pub fn c(name: &str) -> T {
        T::Const(name.to_string())
    }
}

/// A formula.
#[derive(Clone, Debug, PartialEq)]
pub enum F {
    True,
    False,
    Atom(String, Vec<T>),
    Eq(T, T),
    Not(Box<F>),
    And(Vec<F>),
    Or(Vec<F>),
    /// Variables with their types.
    Exists(Vec<(String, String)>, Box<F>),
    Forall(Vec<(String, String)>, Box<F>),
}

pub fn atom(predicate: &str, args: impl Into<Vec<T>>) -> F {
    F::Atom(predicate.to_string(), args.into())
}

pub fn not(f: F) -> F {
    match f {
        F::True => F::False,
        F::False => F::True,
        F::Not(inner) => *inner,
        other => F::Not(Box::new(other)),
    }
}

pub fn and(fs: Vec<F>) -> F {
    let mut out = Vec::new();
    for f in fs {
        match f {
            F::True => {}
            F::False => return F::False,
            F::And(inner) => out.extend(inner),
            other => {
                if !out.contains(&other) {
                    out.push(other)
                }
            }
        }
    }
    match out.len() {
        0 => F::True,
        1 => out.pop().unwrap_or(F::True),
        _ => F::And(out),
    }
}

pub fn or(fs: Vec<F>) -> F {
    let mut out = Vec::new();
    for f in fs {
        match f {
            F::False => {}
            F::True => return F::True,
            F::Or(inner) => out.extend(inner),
            other => {
                if !out.contains(&other) {
                    out.push(other)
                }
            }
        }
    }
    match out.len() {
        0 => F::False,
        1 => out.pop().unwrap_or(F::False),
        _ => F::Or(out),
    }
}

pub fn eq(a: &T, b: &T) -> F {
    match (a, b) {
        _ if a == b => F::True,
        (T::Const(_), T::Const(_)) => F::False,
        _ => F::Eq(a.clone(), b.clone()),
    }
}

pub fn exists(vars: Vec<(String, String)>, body: F) -> F {
    match body {
        F::True | F::False => body,
        _ if vars.is_empty() => body,
        _ => F::Exists(vars, Box::new(body)),
    }
}

/// Replaces variables by terms.
pub fn subst(f: &F, map: &[(String, T)]) -> F {
    let s = |t: &T| match t {
        T::Var(v) => map
            .iter()
            .find(|(k, _)| k == v)
            .map_or_else(|| t.clone(), |(_, x)| x.clone()),
        T::Const(_) => t.clone(),
    };
    match f {
        F::True | F::False => f.clone(),
        F::Atom(p, args) => F::Atom(p.clone(), args.iter().map(s).collect()),
        F::Eq(a, b) => eq(&s(a), &s(b)),
        F::Not(x) => not(subst(x, map)),
        F::And(xs) => and(xs.iter().map(|x| subst(x, map)).collect()),
        F::Or(xs) => or(xs.iter().map(|x| subst(x, map)).collect()),
        F::Exists(vs, x) => {
            let inner: Vec<(String, T)> = map
                .iter()
                .filter(|(k, _)| !vs.iter().any(|(v, _)| v == k))
                .cloned()
                .collect();
            exists(vs.clone(), subst(x, &inner))
        }
        F::Forall(vs, x) => {
            let inner: Vec<(String, T)> = map
                .iter()
                .filter(|(k, _)| !vs.iter().any(|(v, _)| v == k))
                .cloned()
                .collect();
            F::Forall(vs.clone(), Box::new(subst(x, &inner)))
        }
    }
}

/// One write: for every value of `vars`, when `condition` holds (in the state before the
/// action), the atom becomes true (`add`) or false.
#[derive(Clone, Debug)]
pub struct Write {
    pub vars: Vec<(String, String)>,
    pub condition: F,
    pub predicate: String,
    pub args: Vec<T>,
    pub add: bool,
}

/// Whether the write touches the atom `predicate(args)`: the condition on the write's variables
/// under which it does, in the state before the action.
fn touches(w: &Write, predicate: &str, args: &[T]) -> F {
    match touch_parts(w, predicate, args) {
        Some((eqs, rest, cond)) => and(vec![eqs, exists(rest, cond)]),
        None => F::False,
    }
}

/// `touches` in parts: the equalities that make the atoms meet, the write's remaining
/// variables and its condition under the match.
type TouchParts = (F, Vec<(String, String)>, F);

fn touch_parts(w: &Write, predicate: &str, args: &[T]) -> Option<TouchParts> {
    if w.predicate != predicate || w.args.len() != args.len() {
        return None;
    }
    let mut map: Vec<(String, T)> = Vec::new();
    let mut eqs = Vec::new();
    for (wa, ra) in w.args.iter().zip(args) {
        match wa {
            T::Var(v) if w.vars.iter().any(|(x, _)| x == v) => {
                match map.iter().find(|(k, _)| k == v) {
                    Some((_, bound)) => eqs.push(eq(bound, ra)),
                    None => map.push((v.clone(), ra.clone())),
                }
            }
            _ => eqs.push(eq(wa, ra)),
        }
    }
    let rest: Vec<(String, String)> = w
        .vars
        .iter()
        .filter(|(v, _)| !map.iter().any(|(k, _)| k == v))
        .cloned()
        .collect();
    let cond = subst(&w.condition, &map);
    let eqs = and(eqs);
    (eqs != F::False).then_some((eqs, rest, cond))
}

/// The value of `predicate(args)` after `writes`, as a formula over the state before them.
pub fn regress_atom(predicate: &str, args: &[T], writes: &[Write]) -> F {
    let mut value = atom(predicate, args);
    for w in writes {
        let hit = touches(w, predicate, args);
        if hit == F::False {
            continue;
        }
        value = if w.add {
            or(vec![value, hit])
        } else {
            and(vec![value, not(hit)])
        };
    }
    value
}

/// A formula read after `writes`, as a formula over the state before them. Static predicates
/// (never written) are left alone.
pub fn regress(f: &F, writes: &[Write]) -> F {
    match f {
        F::True | F::False | F::Eq(..) => f.clone(),
        F::Atom(p, args) => regress_atom(p, args, writes),
        F::Not(x) => not(regress(x, writes)),
        F::And(xs) => and(xs.iter().map(|x| regress(x, writes)).collect()),
        F::Or(xs) => or(xs.iter().map(|x| regress(x, writes)).collect()),
        F::Exists(vs, x) => exists(vs.clone(), regress(x, writes)),
        F::Forall(vs, x) => F::Forall(vs.clone(), Box::new(regress(x, writes))),
    }
}

/// The PDDL effect of a sequence of writes: an add is cancelled by a later delete of the same
/// atom (PDDL lets an add win over a delete in one effect; Simmer lets the later one win).
pub fn effects(writes: &[Write]) -> Vec<Effect> {
    let mut out = Vec::new();
    for (i, w) in writes.iter().enumerate() {
        let mut condition = w.condition.clone();
        if w.add {
            let later: Vec<F> = writes[i + 1..]
                .iter()
                .filter(|d| !d.add)
                .map(|d| touches(d, &w.predicate, &w.args))
                .filter(|f| *f != F::False)
                .collect();
            if later.contains(&F::True) {
                continue;
            }
            condition = and(vec![condition, not(or(later))]);
        } else {
            // A later add of the same atom wins in PDDL as in Simmer. Where it surely fires
            // when this delete does (its condition is true or the same), the delete is kept
            // off that atom by equalities, which a grounder decides statically: this spares
            // Fast Downward from negating the add's condition for every delete.
            let mut guards = Vec::new();
            for d in writes[i + 1..].iter().filter(|d| d.add) {
                if let Some((eqs, rest, cond)) = touch_parts(d, &w.predicate, &w.args)
                    && rest.is_empty()
                    && (cond == F::True || cond == w.condition)
                {
                    guards.push(eqs);
                }
            }
            if guards.contains(&F::True) {
                continue;
            }
            if !guards.is_empty() {
                condition = and(vec![condition, not(or(guards))]);
            }
        }
        if condition == F::False {
            continue;
        }
        let a = ast_atom(&w.predicate, &w.args);
        let mut effect = effect(if w.add {
            EffectKind::Add { atom: a }
        } else {
            EffectKind::Delete { atom: a }
        });
        if condition != F::True {
            effect = self::effect(EffectKind::When {
                condition: gd(&condition),
                body: Box::new(effect),
            });
        }
        if !w.vars.is_empty() {
            effect = self::effect(EffectKind::Forall {
                variables: typed_vars(&w.vars),
                body: Box::new(effect),
            });
        }
        out.push(effect);
    }
    out
}

pub fn span() -> Span {
    Span::new(0, 0)
}

pub fn name(text: &str) -> Name {
    Name::new(text, span())
}

pub fn var(text: &str) -> Variable {
    Variable { name: name(text) }
}

pub fn typed_vars(vars: &[(String, String)]) -> Vec<Typed<Variable>> {
    vars.iter()
        .map(|(v, t)| Typed {
            item: var(v),
            ty: Some(Type::Name(name(t))),
        })
        .collect()
}

pub fn term(t: &T) -> Term {
    match t {
        T::Var(v) => Term::Variable(var(v)),
        T::Const(c) => Term::Name(name(c)),
    }
}

pub fn ast_atom(predicate: &str, args: &[T]) -> Atom {
    Atom {
        predicate: name(predicate),
        args: args.iter().map(term).collect(),
        span: span(),
    }
}

pub fn effect(kind: EffectKind) -> Effect {
    Effect { kind, span: span() }
}

fn g(kind: GdKind) -> Gd {
    Gd { kind, span: span() }
}

/// The formula as a PDDL goal description.
pub fn gd(f: &F) -> Gd {
    match f {
        F::True => g(GdKind::And { args: Vec::new() }),
        F::False => g(GdKind::Or { args: Vec::new() }),
        F::Atom(p, args) => g(GdKind::Atom(ast_atom(p, args))),
        F::Eq(a, b) => g(GdKind::Atom(ast_atom("=", &[a.clone(), b.clone()]))),
        F::Not(x) => g(GdKind::Not {
            arg: Box::new(gd(x)),
        }),
        F::And(xs) => g(GdKind::And {
            args: xs.iter().map(gd).collect(),
        }),
        F::Or(xs) => g(GdKind::Or {
            args: xs.iter().map(gd).collect(),
        }),
        F::Exists(vs, x) => g(GdKind::Exists {
            variables: typed_vars(vs),
            body: Box::new(gd(x)),
        }),
        F::Forall(vs, x) => g(GdKind::Forall {
            variables: typed_vars(vs),
            body: Box::new(gd(x)),
        }),
    }
}
