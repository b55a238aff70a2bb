//! The symbol tables of a domain: requirement flags, types, constants, predicates, functions
//! and structure names, with their duplicates and clashes; type and parameter lists.

use super::Map;
use super::domain::{Checker, type_names};
use super::requirements;
use super::suggest;
use super::types::OBJECT;
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic, FileId};

impl<'a> Checker<'a> {
    pub(super) fn declarations(&mut self) {
        self.requirement_flags();
        self.type_declarations();
        self.constant_declarations();
        self.predicate_declarations();
        self.function_declarations();
        self.structure_names();
        self.name_clashes();
    }

    /// Requirement flags pddlc does not know, with a suggestion.
    fn requirement_flags(&mut self) {
        let d = self.domain;
        let file = self.file;
        for flag in &d.requirements {
            if !requirements::is_known(&flag.text) {
                let help = suggest::help(&flag.text, requirements::KNOWN, || {
                    format!("the flags are {}", requirements::KNOWN.join(" "))
                });
                self.push(
                    Diagnostic::new(
                        Code::UnknownRequirement,
                        format!("unknown requirement `{}`", flag.text),
                        flag.span,
                    )
                    .in_file(file)
                    .with_help(help),
                );
            }
        }
    }

    /// Types: declared again, undeclared parents, the `:typing` requirement, cycles.
    fn type_declarations(&mut self) {
        let d = self.domain;
        let file = self.file;
        // Types. A type declared again under a parent on the same line of the hierarchy as
        // the first one loses nothing; one under an unrelated parent is a conflict, which can
        // only be told once every parent link is known.
        let mut declared: Map<String, Vec<&Typed<Name>>> = Map::default();
        let mut again: Vec<(Vec<&Typed<Name>>, &Typed<Name>)> = Vec::new();
        for t in &d.types {
            let key = t.item.key();
            let earlier = declared.entry(key.clone()).or_default();
            if !earlier.is_empty() && key != OBJECT {
                again.push((earlier.clone(), t));
            }
            earlier.push(t);
            self.types.declare(t);
        }
        for (earlier, t) in again {
            self.type_declared_again(&earlier, t);
        }
        if !d.types.is_empty() {
            self.need(&[":typing"], file, d.types[0].item.span, "types");
        }
        // Parents must be declared (or be `object`).
        for t in &d.types {
            if let Some(ty) = &t.ty {
                self.check_type(ty, file, false);
            }
        }
        for cycle in self.types.cycles() {
            let span = d
                .types
                .iter()
                .find(|t| cycle.contains(&t.item.key()))
                .map(|t| t.item.span)
                .unwrap_or(d.name.span);
            self.push(
                Diagnostic::new(
                    Code::TypeCycle,
                    format!(
                        "the types {} are each other's ancestors",
                        cycle
                            .iter()
                            .map(|c| format!("`{c}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    span,
                )
                .in_file(file)
                .with_help("a type hierarchy is a tree (or a DAG): remove one parent link"),
            );
        }
    }

    /// Constants: their types, and constants declared again (the same or in conflict).
    fn constant_declarations(&mut self) {
        let d = self.domain;
        let file = self.file;
        // Constants.
        for c in &d.constants {
            if let Some(ty) = &c.ty {
                self.check_type(ty, file, true);
            }
            let key = c.item.key();
            if let Some(first) = self.constants.get(&key) {
                let first = *first;
                let (before, now) = (sorted_types(&first.ty), sorted_types(&c.ty));
                if before == now {
                    self.redeclared(
                        "constant",
                        &c.item,
                        first.item.span,
                        "both declarations give it the same type",
                    );
                } else {
                    self.conflicting(Conflict {
                        name: &c.item,
                        first: first.item.span,
                        message: format!(
                            "constant `{}` is declared again as {}, first as {}",
                            c.item.text,
                            show_typed(&c.item.text, &c.ty),
                            show_typed(&first.item.text, &first.ty)
                        ),
                        difference: format!(
                            "type {} here, {} in the first declaration",
                            show_type_names(&now),
                            show_type_names(&before)
                        ),
                        help:
                            "a constant has one type: keep the declaration with the type you mean"
                                .to_string(),
                    });
                }
            } else {
                self.constants.insert(key, c);
            }
        }
    }

    /// Predicates, and derived predicates as predicates, with their signatures declared again.
    fn predicate_declarations(&mut self) {
        let d = self.domain;
        let file = self.file;
        // Predicates.
        for p in &d.predicates {
            self.parameters(&p.parameters, file, "predicate parameter");
            let key = p.name.key();
            if let Some(first) = self.predicates.get(&key).and_then(|all| all.first()) {
                let first = *first;
                self.signature_again(
                    "predicate",
                    (&first.name, &first.parameters, None),
                    (&p.name, &p.parameters, None),
                );
            }
            self.predicates.entry(key).or_default().push(p);
        }
        // Derived predicates are predicates too, declared or not.
        for s in &d.structures {
            if let Structure::Derived(derived) = s {
                let key = derived.predicate.name.key();
                self.predicates
                    .entry(key.clone())
                    .or_insert_with(|| vec![&derived.predicate]);
                self.added.insert(key);
            }
        }
    }

    /// Functions: their parameters, object-valued functions, signatures declared again.
    fn function_declarations(&mut self) {
        let d = self.domain;
        let file = self.file;
        // Functions.
        for f in &d.functions {
            self.parameters(&f.parameters, file, "function parameter");
            match &f.ty {
                Some(Type::Name(n)) if n.is("number") => {}
                None => {}
                Some(ty) => {
                    self.check_type(ty, file, true);
                    self.need(
                        &[":object-fluents"],
                        file,
                        f.span,
                        "object-valued functions",
                    );
                }
            }
            let key = f.name.key();
            if let Some(first) = self.functions.get(&key).and_then(|all| all.first()) {
                let first = *first;
                self.signature_again(
                    "function",
                    (&first.name, &first.parameters, Some(&first.ty)),
                    (&f.name, &f.parameters, Some(&f.ty)),
                );
            }
            self.functions.entry(key).or_default().push(f);
        }
    }

    /// Actions, processes, events and constraints of one name: duplicates and conflicts.
    fn structure_names(&mut self) {
        let d = self.domain;
        let file = self.file;
        // Structure names.
        let mut names: Map<String, (&str, &Name, &[Typed<Variable>])> = Map::default();
        for s in &d.structures {
            let (kind, name, parameters): (&str, &Name, &[Typed<Variable>]) = match s {
                Structure::Action(a) => ("action", &a.name, &a.parameters),
                Structure::Process(a) => ("process", &a.name, &a.parameters),
                Structure::Event(a) => ("event", &a.name, &a.parameters),
                Structure::DurativeAction(a) => ("durative action", &a.name, &a.parameters),
                Structure::Constraint(c) => ("constraint", &c.name, &c.parameters),
                Structure::Derived(_) => continue,
            };
            match names.get(&name.key()) {
                None => {
                    names.insert(name.key(), (kind, name, parameters));
                }
                Some(&(first_kind, first, first_parameters)) => {
                    let same = first_kind == kind
                        && parameter_types(first_parameters) == parameter_types(parameters);
                    if same {
                        self.duplicate("action", name, first.span, file);
                    } else {
                        self.structure_again(
                            (first_kind, first, first_parameters),
                            (kind, name, parameters),
                        );
                    }
                }
            }
        }
    }

    fn duplicate(&mut self, what: &str, name: &Name, first: Span, file: FileId) {
        self.push(
            Diagnostic::new(
                Code::DuplicateDefinition,
                format!("{what} `{}` is defined twice", name.text),
                name.span,
            )
            .in_file(file)
            .with_label(first, "first defined here")
            .with_help(format!("remove one of the two, or rename this {what}")),
        );
    }

    /// A declaration repeated in a way that loses nothing: a warning.
    fn redeclared(&mut self, what: &str, name: &Name, first: Span, consequence: &str) {
        self.push(
            Diagnostic::new(
                Code::DuplicateDefinition,
                format!("{what} `{}` is declared twice", name.text),
                name.span,
            )
            .with_severity(crate::diagnostics::Severity::Warning)
            .in_file(self.file)
            .with_label(first, "first declared here")
            .with_help(format!("{consequence}; keep one declaration")),
        );
    }

    /// A declaration that contradicts an earlier one of the same name: an error, with both
    /// declarations labelled.
    fn conflicting(&mut self, conflict: Conflict) {
        self.push(
            Diagnostic::new(
                Code::ConflictingDeclaration,
                conflict.message,
                conflict.name.span,
            )
            .with_primary_message(conflict.difference)
            .in_file(self.file)
            .with_label(conflict.first, "first declared here")
            .with_help(conflict.help),
        );
    }

    /// A type declared again: a warning when its parent lies on one line of the hierarchy with
    /// each earlier one (the type is below all of them, as in IPC 2006 storage's `area - object`
    /// and `area - surface`), a conflict with the first earlier declaration whose parent is
    /// unrelated, which would make the type two different things.
    fn type_declared_again(&mut self, earlier: &[&Typed<Name>], again: &Typed<Name>) {
        let now = sorted_types(&again.ty);
        let related = |checker: &Self, first: &Typed<Name>| {
            let before = sorted_types(&first.ty);
            match (before.as_slice(), now.as_slice()) {
                ([a], [b]) => checker.types.is_subtype(a, b) || checker.types.is_subtype(b, a),
                _ => before == now,
            }
        };
        let unrelated = earlier.iter().find(|first| !related(self, first));
        let first = *unrelated.unwrap_or(&earlier[0]);
        let before = sorted_types(&first.ty);
        if unrelated.is_none() {
            let consequence = if before == now {
                "both declarations give it the same parent"
            } else {
                "it is below every parent it is declared with"
            };
            self.redeclared("type", &again.item, first.item.span, consequence);
            return;
        }
        let name = &again.item.text;
        self.conflicting(Conflict {
            name: &again.item,
            first: first.item.span,
            message: format!(
                "type `{name}` is declared again as {}, first as {}",
                show_typed(name, &again.ty),
                show_typed(&first.item.text, &first.ty)
            ),
            difference: format!(
                "parent {} here, {} in the first declaration",
                show_type_names(&now),
                show_type_names(&before)
            ),
            help: format!(
                "declare `{name}` once, under the parent you mean; if it belongs under both, \
                 make one parent a subtype of the other"
            ),
        });
    }

    /// A predicate or function declared again: a warning when both declarations take the same
    /// parameter types (and give the same result type), an error otherwise.
    fn signature_again(&mut self, what: &str, first: Declared, again: Declared) {
        let (first_name, first_parameters, first_result) = first;
        let (name, parameters, result) = again;
        let (before, now) = (
            parameter_types(first_parameters),
            parameter_types(parameters),
        );
        let result_types = |r: Option<&Option<Type>>| {
            r.map(|ty| match ty {
                None => vec!["number".to_string()],
                Some(_) => sorted_types(ty),
            })
        };
        let (result_before, result_now) = (result_types(first_result), result_types(result));
        let difference = if before.len() != now.len() {
            format!(
                "{} here, {} in the first declaration",
                count(now.len(), "parameter"),
                before.len()
            )
        } else if let Some(i) = (0..now.len()).find(|&i| before[i] != now[i]) {
            format!(
                "parameter {} is {} here, {} in the first declaration",
                i + 1,
                show_type_names(&now[i]),
                show_type_names(&before[i])
            )
        } else if result_before != result_now {
            format!(
                "result type {} here, {} in the first declaration",
                show_type_names(&result_now.unwrap_or_default()),
                show_type_names(&result_before.unwrap_or_default())
            )
        } else {
            self.redeclared(
                what,
                name,
                first_name.span,
                "both declarations say the same",
            );
            return;
        };
        // Arguments of several types are what `either` is for; ENHSP domains overload instead.
        let help = if before.len() == now.len() && before != now {
            format!(
                "a {what} has one signature: declare it once, with `(either …)` for a parameter \
                 of several types, or rename one of the two {what}s"
            )
        } else {
            format!(
                "a {what} has one signature: keep the declaration you mean, or rename one of the \
                 two {what}s"
            )
        };
        let show = |name: &Name, parameters: &[Typed<Variable>], result: Option<&Option<Type>>| {
            let skeleton = show_skeleton(&name.text, parameters);
            match result {
                Some(Some(ty)) => format!("`{skeleton} - {}`", show_type(ty)),
                _ => format!("`{skeleton}`"),
            }
        };
        self.conflicting(Conflict {
            name,
            first: first_name.span,
            message: format!(
                "{what} `{}` is declared again as {}, first as {}",
                name.text,
                show(name, parameters, result),
                show(first_name, first_parameters, first_result)
            ),
            difference,
            help,
        });
    }

    /// Two actions (or processes, events, durative actions, constraints) of one name whose
    /// kinds or parameter types differ.
    fn structure_again(&mut self, first: Structured, again: Structured) {
        let (first_kind, first_name, first_parameters) = first;
        let (kind, name, parameters) = again;
        let (before, now) = (
            parameter_types(first_parameters),
            parameter_types(parameters),
        );
        let difference = if first_kind != kind {
            format!(
                "{} here, {} first",
                with_article(kind),
                with_article(first_kind)
            )
        } else if before.len() != now.len() {
            format!(
                "{} here, {} in the first definition",
                count(now.len(), "parameter"),
                before.len()
            )
        } else {
            let i = (0..now.len()).find(|&i| before[i] != now[i]).unwrap_or(0);
            format!(
                "parameter {} is {} here, {} in the first definition",
                i + 1,
                show_type_names(&now[i]),
                show_type_names(&before[i])
            )
        };
        let (now_shown, first_shown) = (
            show_skeleton(&name.text, parameters),
            show_skeleton(&first_name.text, first_parameters),
        );
        let message = if first_kind == kind {
            format!(
                "{kind} `{}` is defined again as `{now_shown}`, first as `{first_shown}`",
                name.text
            )
        } else {
            format!(
                "`{}` is defined again as {} `{now_shown}`, first as {} `{first_shown}`",
                name.text,
                with_article(kind),
                with_article(first_kind)
            )
        };
        self.conflicting(Conflict {
            name,
            first: first_name.span,
            message,
            difference,
            help: format!("remove one of the two, or rename this {kind}"),
        });
    }

    /// PDDL gives predicates and functions one namespace, and constants and types another
    /// each; a predicate that is also a function cannot be told apart in a formula.
    fn name_clashes(&mut self) {
        let mut clashes = Vec::new();
        for (key, fs) in &self.functions {
            if let (Some(f), Some(p)) =
                (fs.first(), self.predicates.get(key).and_then(|p| p.first()))
            {
                clashes.push((f.name.clone(), p.name.span, "function", "predicate"));
            }
        }
        clashes.sort_by_key(|c| c.0.span);
        for (name, other, what, other_what) in clashes {
            self.push(
                Diagnostic::new(
                    Code::NameClash,
                    format!("`{}` is both a {other_what} and a {what}", name.text),
                    name.span,
                )
                .in_file(self.file)
                .with_label(other, format!("the {other_what} is declared here"))
                .with_help(format!("rename the {what} or the {other_what}")),
            );
        }
    }

    /// Checks that every type in `ty` is declared; `constant_like` items may also be typed by
    /// predicates in PDDL 1.x style.
    pub fn check_type(&mut self, ty: &Type, file: FileId, _constant_like: bool) {
        let names: Vec<&Name> = match ty {
            Type::Name(n) => vec![n],
            Type::Either { types, .. } => types.iter().collect(),
        };
        for name in names {
            let key = name.key();
            self.used_types.insert(key.clone());
            if self.types.contains(&key) {
                continue;
            }
            // PDDL 1.x domains use unary predicates as types; accept those.
            if !self.typed
                && self
                    .predicates
                    .get(&key)
                    .is_some_and(|ps| ps.iter().any(|p| p.parameters.len() == 1))
            {
                continue;
            }
            // A problem cannot declare types: the help points at the domain.
            let declare = if file != self.file {
                format!(
                    "types are declared by the domain: add `{}` to the domain's `(:types …)`",
                    name.text
                )
            } else if self.typed {
                format!("declare it in `(:types …)`, e.g. `{} - object`", name.text)
            } else {
                format!(
                    "declare the types of the domain in `(:types {} …)`",
                    name.text
                )
            };
            let closest = suggest::closest(&name.text, self.types.names()).map(str::to_string);
            self.report_once(
                Diagnostic::new(
                    Code::UndefinedType,
                    format!("type `{}` is not declared", name.text),
                    name.span,
                )
                .in_file(file),
                &name.text,
                declare,
                closest.as_deref(),
            );
        }
    }

    /// Checks the types and the uniqueness of a typed list of variables.
    pub fn parameters(&mut self, params: &[Typed<Variable>], file: FileId, what: &str) {
        // In a declaration the names are placeholders: a repeated one loses nothing.
        let declaration = what.starts_with("predicate") || what.starts_with("function");
        let mut seen: Map<String, Span> = Map::default();
        for p in params {
            if let Some(ty) = &p.ty {
                self.check_type(ty, file, false);
                self.need(&[":typing"], file, ty.span(), "typed parameters");
            }
            let key = p.item.name.key();
            if let Some(first) = seen.get(&key) {
                let mut diagnostic = Diagnostic::new(
                    Code::DuplicateDefinition,
                    format!("{what} `?{}` is defined twice", p.item.name.text),
                    p.item.span(),
                )
                .in_file(file)
                .with_label(*first, "first defined here")
                .with_help("rename one of the two");
                if declaration {
                    diagnostic = diagnostic.with_severity(crate::diagnostics::Severity::Warning);
                }
                self.push(diagnostic);
            } else {
                seen.insert(key, p.item.span());
            }
        }
    }
}

/// A predicate or function declaration: its name, parameters and, for a function, its result
/// type (`None` for a predicate).
type Declared<'d> = (&'d Name, &'d [Typed<Variable>], Option<&'d Option<Type>>);

/// An action-like definition: its kind, name and parameters.
type Structured<'d> = (&'d str, &'d Name, &'d [Typed<Variable>]);

/// What `conflicting` reports: the message, what differs (on the second declaration), the fix.
struct Conflict<'n> {
    name: &'n Name,
    first: Span,
    message: String,
    difference: String,
    help: String,
}

/// The lower-cased type names of a typed item, sorted and without repeats, so that `(either a
/// b)` and `(either B a)`, or an untyped item and one typed `object`, compare equal.
fn sorted_types(ty: &Option<Type>) -> Vec<String> {
    let mut names = type_names(ty);
    names.sort();
    names.dedup();
    names
}

/// The types of a parameter list, position by position: what a signature is, names aside.
fn parameter_types(parameters: &[Typed<Variable>]) -> Vec<Vec<String>> {
    parameters.iter().map(|p| sorted_types(&p.ty)).collect()
}

fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// "an action", "a process".
fn with_article(noun: &str) -> String {
    let vowel = noun.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {noun}", if vowel { "an" } else { "a" })
}

fn show_type(ty: &Type) -> String {
    match ty {
        Type::Name(n) => n.text.to_string(),
        Type::Either { types, .. } => {
            let names: Vec<&str> = types.iter().map(|t| t.text.as_str()).collect();
            format!("(either {})", names.join(" "))
        }
    }
}

/// `` `a` `` or `` `(either a b)` `` for lower-cased type names.
fn show_type_names(names: &[String]) -> String {
    match names {
        [one] => format!("`{one}`"),
        _ => format!("`(either {})`", names.join(" ")),
    }
}

/// `` `t1 - table` ``, or `` `t1` `` for an untyped name.
fn show_typed(name: &str, ty: &Option<Type>) -> String {
    match ty {
        Some(ty) => format!("`{name} - {}`", show_type(ty)),
        None => format!("`{name}`"),
    }
}

/// `(at ?x ?y - location)`: parameters of one type grouped as PDDL writes them.
fn show_skeleton(name: &str, parameters: &[Typed<Variable>]) -> String {
    let mut out = format!("({name}");
    for (i, p) in parameters.iter().enumerate() {
        out.push_str(&format!(" ?{}", p.item.name.text));
        let ty = p.ty.as_ref().map(show_type);
        let next = parameters.get(i + 1).map(|q| q.ty.as_ref().map(show_type));
        if let Some(ty) = &ty
            && next.as_ref() != Some(&Some(ty.clone()))
        {
            out.push_str(&format!(" - {ty}"));
        }
    }
    out.push(')');
    out
}

#[cfg(test)]
mod tests {
    use crate::diagnostics::{FileId, Severity};

    /// The code and severity of every re-declaration diagnostic of a domain with these sections.
    fn redeclarations(sections: &str) -> Vec<(&'static str, Severity)> {
        let text = format!(
            "(define (domain d) (:requirements :typing :fluents :durative-actions) {sections})"
        );
        let domain = crate::parse::domain(&text)
            .value
            .expect("the test domain parses");
        crate::check::domain(&domain, FileId(0))
            .into_iter()
            .filter(|d| matches!(d.code.as_str(), "C105" | "C115"))
            .map(|d| (d.code.as_str(), d.severity))
            .collect()
    }

    const WARNING: (&str, Severity) = ("C105", Severity::Warning);
    const DUPLICATE: (&str, Severity) = ("C105", Severity::Error);
    const CONFLICT: (&str, Severity) = ("C115", Severity::Error);

    #[test]
    fn the_same_signature_in_other_words_is_a_warning() {
        let same = [
            "(:types a b) (:predicates (p ?x - a ?y) (P ?z - A ?w - object))",
            "(:types a b) (:predicates (p ?x - (either a b)) (p ?x - (either b a a)))",
            "(:types a) (:functions (f ?x - a)) (:functions (F ?y - a) - number)",
            "(:types a) (:constants c - a C - a)",
            "(:constants c C - object)",
            "(:types b) (:types a - object a - b)",
            "(:types b - object a - b a - b)",
        ];
        for sections in same {
            assert_eq!(redeclarations(sections), vec![WARNING], "{sections}");
        }
    }

    #[test]
    fn another_signature_is_a_conflict() {
        let conflicting = [
            "(:types a) (:predicates (p ?x - a) (p ?x - a ?y - a))",
            "(:types a b) (:predicates (p ?x - a) (p ?x - b))",
            "(:types a b) (:predicates (p ?x - (either a b)) (p ?x - a))",
            "(:types a) (:functions (f ?x - a) - number (f ?x - a) - a)",
            "(:types a) (:functions (f) (f ?x - a))",
            "(:types a b) (:constants c - a c - b)",
            "(:types a b) (:constants c - a c)",
            "(:types a b - object c - a c - b)",
        ];
        for sections in conflicting {
            assert_eq!(redeclarations(sections), vec![CONFLICT], "{sections}");
        }
        // Each parent is on one line with `object`, but `a` and `b` are unrelated.
        assert_eq!(
            redeclarations("(:types a b - object c - object c - a c - b)"),
            vec![WARNING, CONFLICT]
        );
    }

    #[test]
    fn actions_of_one_name_are_duplicates_or_conflicts() {
        let action = |kind: &str, parameters: &str| {
            format!("(:{kind} go :parameters ({parameters}) :effect (and))")
        };
        let same = format!(
            "(:types a) {} {}",
            action("action", "?x - a"),
            action("action", "?y - a")
        );
        assert_eq!(redeclarations(&same), vec![DUPLICATE]);
        let more = format!(
            "(:types a) {} {}",
            action("action", "?x - a"),
            action("action", "?x ?y - a")
        );
        assert_eq!(redeclarations(&more), vec![CONFLICT]);
        let kinds = format!(
            "(:types a) {} (:durative-action go :parameters (?x - a) :duration (= ?duration 1) :effect (and))",
            action("action", "?x - a")
        );
        assert_eq!(redeclarations(&kinds), vec![CONFLICT]);
    }
}
