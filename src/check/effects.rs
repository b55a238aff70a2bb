//! The walk over effects: conditional and universal effects, numeric effects, timed effects,
//! and atoms one effect both adds and deletes.

use super::domain::{At, Checker, GdPlace, Scope};
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic, FileId};

impl<'a> Checker<'a> {
    pub(super) fn effect(&mut self, e: &Effect, durative: bool, scope: &mut Scope, at: At) {
        let file = at.file;
        match &e.kind {
            EffectKind::And { args } => {
                for arg in args {
                    self.effect(arg, durative, scope, at);
                }
            }
            EffectKind::Forall { variables, body } => {
                self.need(&[":conditional-effects"], file, e.span, "universal effects");
                self.quantified(variables, file, scope, |checker, scope| {
                    checker.effect(body, durative, scope, at)
                });
            }
            EffectKind::When { condition, body } => {
                self.need(
                    &[":conditional-effects"],
                    file,
                    e.span,
                    "conditional effects",
                );
                let place = if durative {
                    GdPlace::DurativeCondition
                } else {
                    GdPlace::EffectCondition
                };
                self.gd(condition, place, scope, at);
                self.effect(body, durative, scope, at);
            }
            EffectKind::Add { atom } => {
                note_predicate(&mut self.added, &atom.predicate);
                self.atom(atom, scope, at);
            }
            EffectKind::Delete { atom } => {
                note_predicate(&mut self.deleted, &atom.predicate);
                self.atom(atom, scope, at);
            }
            EffectKind::Numeric { target, value, op } => {
                let target_name = match &target.kind {
                    ExprKind::Function(f) => Some(&f.name),
                    ExprKind::Term {
                        term: Term::Name(n),
                    } => Some(n),
                    _ => None,
                };
                let cost =
                    *op == AssignOp::Increase && target_name.is_some_and(|n| n.is("total-cost"));
                if !cost {
                    self.need(
                        &[":numeric-fluents", ":object-fluents"],
                        file,
                        e.span,
                        "numeric effects",
                    );
                }
                match &target.kind {
                    ExprKind::Function(_)
                    | ExprKind::Term {
                        term: Term::Name(_),
                    } => self.expr(target, scope, at),
                    _ => self.push(
                        Diagnostic::new(
                            Code::MisplacedConstruct,
                            "the target of a numeric effect must be a function term".to_string(),
                            target.span,
                        )
                        .in_file(file)
                        .with_help("write `(increase (f …) value)`"),
                    ),
                }
                self.expr(value, scope, at);
            }
            EffectKind::Timed { time, body } => {
                if !durative || *time == TimeSpec::OverAll {
                    self.misplaced(
                        e.span,
                        file,
                        &format!("`{}`", time.keyword()),
                        "around effects of durative actions (`at start` or `at end`)",
                    );
                }
                self.effect(body, durative, scope, at);
            }
        }
    }

    /// Warns about an atom that the same (unconditional) effect adds and deletes.
    pub(super) fn conflicts(&mut self, e: &Effect, file: FileId) {
        let mut adds: Vec<&Atom> = Vec::new();
        let mut deletes: Vec<&Atom> = Vec::new();
        fn collect<'e>(e: &'e Effect, adds: &mut Vec<&'e Atom>, deletes: &mut Vec<&'e Atom>) {
            match &e.kind {
                EffectKind::And { args } => args.iter().for_each(|a| collect(a, adds, deletes)),
                EffectKind::Add { atom } => adds.push(atom),
                EffectKind::Delete { atom } => deletes.push(atom),
                _ => {}
            }
        }
        collect(e, &mut adds, &mut deletes);
        let same = |a: &Atom, b: &Atom| a.predicate == b.predicate && a.args == b.args;
        let mut found = Vec::new();
        for add in &adds {
            if let Some(delete) = deletes.iter().find(|d| same(add, d)) {
                found.push((add.span, delete.span));
            }
        }
        for (add, delete) in found {
            self.push(
                Diagnostic::new(
                    Code::AddDeleteConflict,
                    "this effect both adds and deletes the same atom".to_string(),
                    add,
                )
                .in_file(file)
                .with_label(delete, "deleted here")
                .with_help("PDDL applies deletes before adds, so the atom ends up true; remove whichever is not meant"),
            );
        }
    }
}

/// Records that an effect adds or deletes `predicate`; the name is allocated once per
/// predicate, not once per effect.
fn note_predicate(predicates: &mut super::Set<String>, predicate: &Name) {
    let key = predicate.folded();
    if !predicates.contains(key.as_ref()) {
        predicates.insert(key.into_owned());
    }
}
