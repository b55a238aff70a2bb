//! A small logic for the compiler: formulas, sequential writes and their regression, lowered
//! to the PDDL AST at the end.
//!
//! Simmer applies an action's effect primitives one after the other, each reading the state the
//! previous ones left; a PDDL action reads only the state before it. The compiler therefore
//! records each primitive as writes (an atom made true or false under a condition, possibly for
//! all values of some variables) and regresses every later condition through the writes made so
//! far, so that the one PDDL effect does what the sequence did.

use crate::ast::{self, Atom, Effect, EffectKind, Gd, GdKind, Name, Span, Type, Typed, Variable};

/// A term: a variable (without its `?`) or a constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    Var(String),
    Const(String),
}

impl Term {
    pub fn var(name: &str) -> Term {
        Term::Var(name.to_string())
    }

    pub fn constant(name: &str) -> Term {
        Term::Const(name.to_string())
    }
}

/// A formula.
#[derive(Clone, Debug, PartialEq)]
pub enum Formula {
    True,
    False,
    Atom(String, Vec<Term>),
    Eq(Term, Term),
    Not(Box<Formula>),
    And(Vec<Formula>),
    Or(Vec<Formula>),
    /// Variables with their types.
    Exists(Vec<(String, String)>, Box<Formula>),
    Forall(Vec<(String, String)>, Box<Formula>),
}

pub fn atom(predicate: &str, args: impl Into<Vec<Term>>) -> Formula {
    Formula::Atom(predicate.to_string(), args.into())
}

pub fn not(f: Formula) -> Formula {
    match f {
        Formula::True => Formula::False,
        Formula::False => Formula::True,
        Formula::Not(inner) => *inner,
        other => Formula::Not(Box::new(other)),
    }
}

pub fn and(fs: Vec<Formula>) -> Formula {
    let mut out = Vec::new();
    for f in fs {
        match f {
            Formula::True => {}
            Formula::False => return Formula::False,
            Formula::And(inner) => out.extend(inner),
            other => {
                if !out.contains(&other) {
                    out.push(other)
                }
            }
        }
    }
    match out.len() {
        0 => Formula::True,
        1 => out.pop().unwrap_or(Formula::True),
        _ => Formula::And(out),
    }
}

pub fn or(fs: Vec<Formula>) -> Formula {
    let mut out = Vec::new();
    for f in fs {
        match f {
            Formula::False => {}
            Formula::True => return Formula::True,
            Formula::Or(inner) => out.extend(inner),
            other => {
                if !out.contains(&other) {
                    out.push(other)
                }
            }
        }
    }
    match out.len() {
        0 => Formula::False,
        1 => out.pop().unwrap_or(Formula::False),
        _ => Formula::Or(out),
    }
}

pub fn eq(a: &Term, b: &Term) -> Formula {
    match (a, b) {
        _ if a == b => Formula::True,
        (Term::Const(_), Term::Const(_)) => Formula::False,
        _ => Formula::Eq(a.clone(), b.clone()),
    }
}

pub fn exists(vars: Vec<(String, String)>, body: Formula) -> Formula {
    match body {
        Formula::True | Formula::False => body,
        _ if vars.is_empty() => body,
        _ => Formula::Exists(vars, Box::new(body)),
    }
}

/// Replaces variables by terms.
pub fn substitute(formula: &Formula, map: &[(String, Term)]) -> Formula {
    let replace = |term: &Term| match term {
        Term::Var(v) => map
            .iter()
            .find(|(k, _)| k == v)
            .map_or_else(|| term.clone(), |(_, x)| x.clone()),
        Term::Const(_) => term.clone(),
    };
    // A quantifier's own variables are not replaced in its body.
    let unbound = |vars: &[(String, String)]| -> Vec<(String, Term)> {
        map.iter()
            .filter(|(k, _)| !vars.iter().any(|(v, _)| v == k))
            .cloned()
            .collect()
    };
    match formula {
        Formula::True | Formula::False => formula.clone(),
        Formula::Atom(p, args) => Formula::Atom(p.clone(), args.iter().map(replace).collect()),
        Formula::Eq(a, b) => eq(&replace(a), &replace(b)),
        Formula::Not(x) => not(substitute(x, map)),
        Formula::And(xs) => and(xs.iter().map(|x| substitute(x, map)).collect()),
        Formula::Or(xs) => or(xs.iter().map(|x| substitute(x, map)).collect()),
        Formula::Exists(vars, body) => exists(vars.clone(), substitute(body, &unbound(vars))),
        Formula::Forall(vars, body) => {
            Formula::Forall(vars.clone(), Box::new(substitute(body, &unbound(vars))))
        }
    }
}

/// One write: for every value of `vars`, when `condition` holds (in the state before the
/// action), the atom becomes true (`add`) or false.
#[derive(Clone, Debug)]
pub struct Write {
    pub vars: Vec<(String, String)>,
    pub condition: Formula,
    pub predicate: String,
    pub args: Vec<Term>,
    pub add: bool,
}

/// Whether the write touches the atom `predicate(args)`: the condition on the write's variables
/// under which it does, in the state before the action.
fn touches(write: &Write, predicate: &str, args: &[Term]) -> Formula {
    match touch(write, predicate, args) {
        Some(touch) => and(vec![touch.equalities, exists(touch.free, touch.condition)]),
        None => Formula::False,
    }
}

/// How a write meets an atom, in parts: the equalities that make the atoms meet, the write's
/// variables the atom does not fix, and the write's condition under the match.
struct Touch {
    equalities: Formula,
    free: Vec<(String, String)>,
    condition: Formula,
}

fn touch(write: &Write, predicate: &str, args: &[Term]) -> Option<Touch> {
    if write.predicate != predicate || write.args.len() != args.len() {
        return None;
    }
    let mut map: Vec<(String, Term)> = Vec::new();
    let mut equalities = Vec::new();
    for (written, read) in write.args.iter().zip(args) {
        match written {
            Term::Var(v) if write.vars.iter().any(|(x, _)| x == v) => {
                match map.iter().find(|(k, _)| k == v) {
                    Some((_, bound)) => equalities.push(eq(bound, read)),
                    None => map.push((v.clone(), read.clone())),
                }
            }
            _ => equalities.push(eq(written, read)),
        }
    }
    let free: Vec<(String, String)> = write
        .vars
        .iter()
        .filter(|(v, _)| !map.iter().any(|(k, _)| k == v))
        .cloned()
        .collect();
    let condition = substitute(&write.condition, &map);
    let equalities = and(equalities);
    (equalities != Formula::False).then_some(Touch {
        equalities,
        free,
        condition,
    })
}

/// The value of `predicate(args)` after `writes`, as a formula over the state before them.
pub fn regress_atom(predicate: &str, args: &[Term], writes: &[Write]) -> Formula {
    let mut value = atom(predicate, args);
    for w in writes {
        let hit = touches(w, predicate, args);
        if hit == Formula::False {
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
pub fn regress(f: &Formula, writes: &[Write]) -> Formula {
    match f {
        Formula::True | Formula::False | Formula::Eq(..) => f.clone(),
        Formula::Atom(p, args) => regress_atom(p, args, writes),
        Formula::Not(x) => not(regress(x, writes)),
        Formula::And(xs) => and(xs.iter().map(|x| regress(x, writes)).collect()),
        Formula::Or(xs) => or(xs.iter().map(|x| regress(x, writes)).collect()),
        Formula::Exists(vs, x) => exists(vs.clone(), regress(x, writes)),
        Formula::Forall(vs, x) => Formula::Forall(vs.clone(), Box::new(regress(x, writes))),
    }
}

/// The PDDL effect of a sequence of writes: an add is cancelled by a later delete of the same
/// atom (PDDL lets an add win over a delete in one effect; Simmer lets the later one win).
pub fn effects(writes: &[Write]) -> Vec<Effect> {
    let mut out = Vec::new();
    for (i, w) in writes.iter().enumerate() {
        let mut condition = w.condition.clone();
        if w.add {
            let later: Vec<Formula> = writes[i + 1..]
                .iter()
                .filter(|d| !d.add)
                .map(|d| touches(d, &w.predicate, &w.args))
                .filter(|f| *f != Formula::False)
                .collect();
            if later.contains(&Formula::True) {
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
                if let Some(touch) = touch(d, &w.predicate, &w.args)
                    && touch.free.is_empty()
                    && (touch.condition == Formula::True || touch.condition == w.condition)
                {
                    guards.push(touch.equalities);
                }
            }
            if guards.contains(&Formula::True) {
                continue;
            }
            if !guards.is_empty() {
                condition = and(vec![condition, not(or(guards))]);
            }
        }
        if condition == Formula::False {
            continue;
        }
        let a = ast_atom(&w.predicate, &w.args);
        let mut effect = effect(if w.add {
            EffectKind::Add { atom: a }
        } else {
            EffectKind::Delete { atom: a }
        });
        if condition != Formula::True {
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

pub fn ast_term(term: &Term) -> ast::Term {
    match term {
        Term::Var(v) => ast::Term::Variable(var(v)),
        Term::Const(c) => ast::Term::Name(name(c)),
    }
}

pub fn ast_atom(predicate: &str, args: &[Term]) -> Atom {
    Atom {
        predicate: name(predicate),
        args: args.iter().map(ast_term).collect(),
        span: span(),
    }
}

pub fn effect(kind: EffectKind) -> Effect {
    Effect { kind, span: span() }
}

fn gd_of(kind: GdKind) -> Gd {
    Gd { kind, span: span() }
}

/// The formula as a PDDL goal description.
pub fn gd(f: &Formula) -> Gd {
    match f {
        Formula::True => gd_of(GdKind::And { args: Vec::new() }),
        Formula::False => gd_of(GdKind::Or { args: Vec::new() }),
        Formula::Atom(p, args) => gd_of(GdKind::Atom(ast_atom(p, args))),
        Formula::Eq(a, b) => gd_of(GdKind::Atom(ast_atom("=", &[a.clone(), b.clone()]))),
        Formula::Not(x) => gd_of(GdKind::Not {
            arg: Box::new(gd(x)),
        }),
        Formula::And(xs) => gd_of(GdKind::And {
            args: xs.iter().map(gd).collect(),
        }),
        Formula::Or(xs) => gd_of(GdKind::Or {
            args: xs.iter().map(gd).collect(),
        }),
        Formula::Exists(vs, x) => gd_of(GdKind::Exists {
            variables: typed_vars(vs),
            body: Box::new(gd(x)),
        }),
        Formula::Forall(vs, x) => gd_of(GdKind::Forall {
            variables: typed_vars(vs),
            body: Box::new(gd(x)),
        }),
    }
}
