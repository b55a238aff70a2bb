//! The cheap proof: two actions written alike, once each side's predicates, constants and types
//! are read as their shared keys and its variables by position (parameters in the gold's order,
//! then bound variables in the order they are bound), read and write the same atoms and
//! functions in the same way, so they have the same transition function whatever they contain
//! (nested quantifiers, numeric conditions and effects, thousands of grounded actions). Only
//! sound when both sides agree on what else a transition depends on, the type hierarchy and
//! the parameters' types, which the caller checks. (A constant one side lacks is an object of
//! the problem there, so quantifiers range over the same objects.)

use crate::ast::{
    Action, Effect, EffectKind, Expr, ExprKind, Gd, GdKind, Term, Type, Typed, Variable,
};
use std::collections::HashMap;

/// How one side's names read as the shared keys.
pub(super) struct Keys<'a> {
    pub predicates: &'a HashMap<String, String>,
    /// The predicted side's constants; `None` for the gold's, whose names are their keys.
    pub constants: Option<&'a HashMap<String, String>>,
    pub types: &'a HashMap<String, String>,
    /// `gold` or `pred`: the prefix of a name with no shared key, so it matches nothing.
    pub side: &'static str,
}

/// The action as text in shared keys with positional variables: equal texts mean the same
/// transition function (given what the module's note says).
pub(super) fn canonical(action: &Action, keys: &Keys) -> String {
    let mut renamer = Renamer {
        keys,
        scopes: Vec::new(),
        bound: 0,
    };
    let mut action = action.clone();
    let parameters = action.parameters.iter_mut().chain(action.vars.iter_mut());
    let scope: Vec<(String, String)> = parameters
        .enumerate()
        .map(|(i, p)| renamer.declare(p, format!("p{i}")))
        .collect();
    renamer.scopes.push(scope);
    let mut text = String::new();
    for parameter in action.parameters.iter().chain(&action.vars) {
        let ty = parameter.ty.as_ref().map(crate::fmt::type_text);
        text.push_str(&format!(
            "{} - {}; ",
            parameter.item.name.text,
            ty.unwrap_or_default()
        ));
    }
    if let Some(precondition) = &mut action.precondition {
        renamer.gd(precondition);
        text.push_str(&crate::fmt::gd_text(precondition));
    }
    text.push_str(" => ");
    if let Some(effect) = &mut action.effect {
        renamer.effect(effect);
        text.push_str(&crate::fmt::effect_text(effect));
    }
    text.to_lowercase()
}

struct Renamer<'a> {
    keys: &'a Keys<'a>,
    /// Per scope, each variable's folded name with its positional name.
    scopes: Vec<Vec<(String, String)>>,
    bound: usize,
}

impl Renamer<'_> {
    /// The shared key of a predicate or type; one without is marked with its side.
    fn key(&self, map: &HashMap<String, String>, name: &str) -> String {
        let folded = name.to_lowercase();
        map.get(&folded)
            .cloned()
            .unwrap_or_else(|| format!("{}:{folded}", self.keys.side))
    }

    /// Renames a declared variable and its type; returns the scope entry.
    fn declare(&mut self, typed: &mut Typed<Variable>, to: String) -> (String, String) {
        let from = typed.item.name.key();
        typed.item.name.text = to.as_str().into();
        if let Some(ty) = &mut typed.ty {
            let rename = |name: &mut crate::ast::Name| {
                name.text = self.key(self.keys.types, &name.text).into();
            };
            match ty {
                Type::Name(name) => rename(name),
                Type::Either { types, .. } => {
                    types.iter_mut().for_each(rename);
                    types.sort_by(|a, b| a.text.cmp(&b.text));
                }
            }
        }
        (from, to)
    }

    fn bind(&mut self, variables: &mut [Typed<Variable>]) {
        let mut scope = Vec::new();
        for variable in variables {
            let to = format!("q{}", self.bound);
            self.bound += 1;
            scope.push(self.declare(variable, to));
        }
        self.scopes.push(scope);
    }

    fn term(&self, term: &mut Term) {
        match term {
            Term::Variable(variable) => {
                let from = variable.name.key();
                let to = (self.scopes.iter().rev())
                    .find_map(|scope| scope.iter().find(|(f, _)| *f == from))
                    .map_or_else(|| format!("free:{from}"), |(_, to)| to.clone());
                variable.name.text = to.into();
            }
            // A name no constant has is no constant of either side (the checker saw to it): a
            // 0-ary function written bare in an expression, kept as it is.
            Term::Name(name) => {
                let folded = name.key();
                let shared = self.keys.constants.and_then(|map| map.get(&folded));
                name.text = shared.cloned().unwrap_or(folded).into();
            }
        }
    }

    fn atom(&self, atom: &mut crate::ast::Atom) {
        if atom.predicate.text != "=" {
            atom.predicate.text = self.key(self.keys.predicates, &atom.predicate.text).into();
        }
        atom.args.iter_mut().for_each(|t| self.term(t));
    }

    fn expr(&self, expr: &mut Expr) {
        match &mut expr.kind {
            ExprKind::Term { term } => self.term(term),
            ExprKind::Function(function) => function.args.iter_mut().for_each(|t| self.term(t)),
            ExprKind::Call { args, .. } | ExprKind::Op { args, .. } => {
                args.iter_mut().for_each(|e| self.expr(e))
            }
            ExprKind::Number(_) | ExprKind::TotalTime | ExprKind::IsViolated { .. } => {}
            ExprKind::Time => {}
        }
    }

    fn gd(&mut self, gd: &mut Gd) {
        match &mut gd.kind {
            GdKind::Atom(atom) => self.atom(atom),
            GdKind::And { args } | GdKind::Or { args } | GdKind::Modal { args, .. } => {
                args.iter_mut().for_each(|g| self.gd(g))
            }
            GdKind::Not { arg } => self.gd(arg),
            GdKind::Imply {
                condition,
                consequence,
            } => {
                self.gd(condition);
                self.gd(consequence);
            }
            GdKind::Exists { variables, body } | GdKind::Forall { variables, body } => {
                self.bind(variables);
                self.gd(body);
                self.scopes.pop();
            }
            GdKind::Compare { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            GdKind::Preference { body, .. } | GdKind::Timed { body, .. } => self.gd(body),
        }
    }

    fn effect(&mut self, effect: &mut Effect) {
        match &mut effect.kind {
            EffectKind::And { args } => args.iter_mut().for_each(|e| self.effect(e)),
            EffectKind::Forall { variables, body } => {
                self.bind(variables);
                self.effect(body);
                self.scopes.pop();
            }
            EffectKind::When { condition, body } => {
                self.gd(condition);
                self.effect(body);
            }
            EffectKind::Add { atom } | EffectKind::Delete { atom } => self.atom(atom),
            EffectKind::Numeric { target, value, .. } => {
                self.expr(target);
                self.expr(value);
            }
            EffectKind::Timed { body, .. } => self.effect(body),
        }
    }
}
