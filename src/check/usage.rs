//! After the walks: missing and unused requirements, and declarations nothing uses.

use super::Set;
use super::domain::Checker;
use super::requirements::Requirements;
use super::types::OBJECT;
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic};

impl<'a> Checker<'a> {
    /// Reports missing and unused requirements for the needs collected so far; `declared`
    /// holds the flags of the domain and, in problem context, of the problem.
    pub fn requirement_diagnostics(
        &mut self,
        declared: &Requirements,
        declares_any: bool,
        problem_only: bool,
    ) {
        let needs = std::mem::take(&mut self.needs);
        let mut reported: Set<&'static str> = Set::default();
        for need in &needs {
            if need.flags.iter().any(|f| declared.allows(f)) {
                continue;
            }
            // One report per missing flag keeps the output readable.
            if !reported.insert(need.flags[0]) {
                continue;
            }
            let flags = need
                .flags
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(" or ");
            let diagnostic = if declares_any {
                Diagnostic::new(
                    Code::MissingRequirement,
                    format!("{flags} is required for {}", need.what),
                    need.span,
                )
                .with_help(format!("add `{}` to `(:requirements …)`", need.flags[0]))
            } else {
                Diagnostic::new(
                    Code::MissingRequirement,
                    format!(
                        "{} need the requirement {flags}, and no requirements are declared",
                        need.what
                    ),
                    need.span,
                )
                .with_help(format!(
                    "add `(:requirements {})` to the domain",
                    need.flags[0]
                ))
            };
            self.diagnostics.push(diagnostic.in_file(need.file));
        }
        if problem_only {
            return;
        }
        // Flags whose use a domain alone shows; the others (problem features, PDDL 1.2 flags
        // with no construct) are never reported unused.
        const TRACKED: &[&str] = &[
            ":typing",
            ":negative-preconditions",
            ":disjunctive-preconditions",
            ":equality",
            ":existential-preconditions",
            ":universal-preconditions",
            ":quantified-preconditions",
            ":conditional-effects",
            ":numeric-fluents",
            ":object-fluents",
            ":fluents",
            ":durative-actions",
            ":duration-inequalities",
            ":continuous-effects",
            ":derived-predicates",
            ":adl",
        ];
        let flags: Vec<Name> = self.domain.requirements.clone();
        for flag in &flags {
            let lower = flag.text.to_ascii_lowercase();
            if !TRACKED.contains(&lower.as_str()) {
                continue;
            }
            let used = needs
                .iter()
                .any(|n| n.flags.iter().any(|f| Requirements::covers(&lower, f)));
            if !used {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::UnusedRequirement,
                        format!("requirement `{}` is declared but nothing uses it", flag.text),
                        flag.span,
                    )
                    .in_file(self.file)
                    .with_help("remove it, so planners do not reject the domain for a feature it does not use"),
                );
            }
        }
    }

    /// Warnings for declarations nothing uses.
    pub fn unused(&mut self) {
        let d = self.domain;
        let file = self.file;
        // A name declared several times is unused once, at its first declaration; the others
        // are duplicates, reported as such.
        let mut reported: super::Set<String> = super::Set::default();
        for p in &d.predicates {
            let key = p.name.key();
            if !self.used_predicates.contains(&key) && reported.insert(key) {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::UnusedPredicate,
                        format!("predicate `{}` is never used", p.name.text),
                        p.name.span,
                    )
                    .in_file(file)
                    .with_help("no action, derived predicate or constraint mentions it; remove it or use it"),
                );
            }
        }
        reported.clear();
        for c in &d.constants {
            let key = c.item.key();
            if !self.used_constants.contains(&key) && reported.insert(key) {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::UnusedConstant,
                        format!("constant `{}` is never used", c.item.text),
                        c.item.span,
                    )
                    .in_file(file)
                    .with_help("constants are for names actions mention; a problem's objects go in `(:objects …)`"),
                );
            }
        }
        // A type is used when something is typed with it or with a type below it.
        let used: Vec<String> = self.used_types.iter().cloned().collect();
        for t in &d.types {
            let key = t.item.key();
            let is_used = used
                .iter()
                .any(|u| self.types.is_subtype(u, &key) && (u == &key || key != OBJECT))
                || d.types.iter().any(|other| {
                    other.item.key() != key
                        && self.types.is_subtype(&other.item.key(), &key)
                        && used.contains(&other.item.key())
                });
            if !is_used && key != OBJECT {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::UnusedType,
                        format!("type `{}` is never used", t.item.text),
                        t.item.span,
                    )
                    .in_file(file)
                    .with_help("no parameter, predicate, function or constant has this type or a subtype of it"),
                );
            }
        }
    }
}
