//! The walk over goal descriptions: connectives, quantifiers and their scopes, placement,
//! atoms, and the arguments of predicates and functions against their declarations.

use super::domain::{At, Bound, Checker, GdPlace, Scope, Signature, type_names};
use super::suggest;
use super::types::OBJECT;
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic, FileId};
use smallvec::SmallVec;
use std::rc::Rc;

/// The declarations of one predicate or function name: nearly always one.
pub(super) type Signatures<'a> = SmallVec<[Signature<'a>; 2]>;

/// The types an argument may have: borrowed from the problem's objects, shared with a bound
/// variable, or built for a constant.
pub(super) enum ArgTypes<'o> {
    Borrowed(&'o [String]),
    Shared(Rc<[String]>),
    Owned(Vec<String>),
}

impl std::ops::Deref for ArgTypes<'_> {
    type Target = [String];

    fn deref(&self) -> &[String] {
        match self {
            ArgTypes::Borrowed(types) => types,
            ArgTypes::Shared(types) => types,
            ArgTypes::Owned(types) => types,
        }
    }
}

fn show_types(types: &[String]) -> String {
    match types {
        [one] => format!("`{one}`"),
        _ => format!("`(either {})`", types.join(" ")),
    }
}

impl<'a> Checker<'a> {
    /// The requirement a `(not …)` needs: none for an equality, `:negative-preconditions`
    /// for another atom, `:disjunctive-preconditions` for a compound condition.
    fn negation_needs(&mut self, g: &Gd, arg: &Gd, file: FileId) {
        match &arg.kind {
            // `(not (= ?x ?y))` is part of `:equality` in practice.
            GdKind::Atom(atom) if atom.predicate.text == "=" => {}
            // So is the same test on an object-valued function's value, `(= (loc ?b) ?to)`.
            GdKind::Compare {
                op: CompareOp::Eq,
                lhs,
                rhs,
            } if self.object_valued(lhs) || self.object_valued(rhs) => {}
            GdKind::Atom(_) => self.need(
                &[":negative-preconditions"],
                file,
                g.span,
                "negative conditions",
            ),
            _ => self.need(
                &[":disjunctive-preconditions"],
                file,
                g.span,
                "`not` of a compound condition",
            ),
        }
    }

    pub fn gd(&mut self, g: &Gd, place: GdPlace, scope: &mut Scope, at: At) {
        let file = at.file;
        let logical = !matches!(place, GdPlace::Duration);
        match &g.kind {
            GdKind::Atom(atom) => self.atom(atom, scope, at),
            GdKind::And { args } => {
                for arg in args {
                    self.gd(arg, place, scope, at);
                }
            }
            GdKind::Or { args } => {
                if logical {
                    self.need(&[":disjunctive-preconditions"], file, g.span, "`or`");
                }
                for arg in args {
                    self.gd(arg, place, scope, at);
                }
            }
            GdKind::Not { arg } => {
                self.negation_needs(g, arg, file);
                self.gd(arg, place, scope, at);
            }
            GdKind::Imply {
                condition,
                consequence,
            } => {
                self.need(&[":disjunctive-preconditions"], file, g.span, "`imply`");
                self.gd(condition, place, scope, at);
                self.gd(consequence, place, scope, at);
            }
            GdKind::Exists { variables, body } | GdKind::Forall { variables, body } => {
                let (flag, what): (&'static [&'static str], _) = match &g.kind {
                    GdKind::Exists { .. } => (&[":existential-preconditions"], "`exists`"),
                    _ => (&[":universal-preconditions"], "`forall`"),
                };
                self.need(flag, file, g.span, what);
                self.quantified(variables, file, scope, |checker, scope| {
                    checker.gd(body, place, scope, at)
                });
            }
            GdKind::Compare { op, lhs, rhs } => {
                if place == GdPlace::Duration {
                    if *op != CompareOp::Eq {
                        self.need(
                            &[":duration-inequalities"],
                            file,
                            g.span,
                            "duration inequalities",
                        );
                    }
                } else if *op == CompareOp::Eq
                    && (self.object_valued(lhs) || self.object_valued(rhs))
                {
                    let what = "comparisons of object-valued functions";
                    self.need(&[":object-fluents"], file, g.span, what);
                } else {
                    self.need(&[":numeric-fluents"], file, g.span, "numeric comparisons");
                }
                self.expr(lhs, scope, at);
                self.expr(rhs, scope, at);
            }
            GdKind::Preference { body, .. } => {
                self.need(&[":preferences"], file, g.span, "preferences");
                if matches!(
                    place,
                    GdPlace::Derived | GdPlace::Duration | GdPlace::EffectCondition
                ) {
                    self.misplaced(
                        g.span,
                        file,
                        "a preference",
                        "in goals, preconditions and constraints",
                    );
                }
                self.gd(body, place, scope, at);
            }
            GdKind::Timed { time, body } => {
                let allowed = match place {
                    GdPlace::DurativeCondition | GdPlace::Duration => true,
                    GdPlace::Constraint => *time == TimeSpec::AtEnd,
                    _ => false,
                };
                if !allowed {
                    self.misplaced(
                        g.span,
                        file,
                        &format!("`{}`", time.keyword()),
                        "in durative actions",
                    );
                }
                self.gd(body, place, scope, at);
            }
            GdKind::Modal { args, .. } => {
                if place != GdPlace::Constraint {
                    self.misplaced(g.span, file, "a trajectory constraint", "in `:constraints`");
                }
                for arg in args {
                    self.gd(arg, place, scope, at);
                }
            }
        }
    }

    pub(super) fn misplaced(&mut self, span: Span, file: FileId, what: &str, allowed: &str) {
        self.push(
            Diagnostic::new(
                Code::MisplacedConstruct,
                format!("{what} cannot stand here"),
                span,
            )
            .in_file(file)
            .with_help(format!("PDDL allows {what} only {allowed}")),
        );
    }

    pub(super) fn quantified(
        &mut self,
        variables: &[Typed<Variable>],
        file: FileId,
        scope: &mut Scope,
        body: impl FnOnce(&mut Self, &mut Scope),
    ) {
        self.parameters(variables, file, "quantified variable");
        let depth = scope.vars.len();
        for v in variables {
            scope.vars.push(Bound {
                name: v.item.name.key(),
                types: type_names(&v.ty).into(),
                used: false,
            });
        }
        body(self, scope);
        scope.vars.truncate(depth);
    }

    /// The types of a term, after checking that it refers to something, and whether it has all
    /// of them (an object declared with several types) rather than any one of them (a variable
    /// typed `(either …)`).
    /// The types a term may have, and whether it has all of them (an object given several
    /// types) rather than one of them (a variable of an `either` type); `None` when the term is
    /// undeclared (reported here).
    pub(super) fn term<'o>(
        &mut self,
        term: &Term,
        scope: &mut Scope,
        at: At<'o>,
    ) -> Option<(ArgTypes<'o>, bool)> {
        match term {
            Term::Variable(v) => {
                let key = v.name.folded();
                if let Some(bound) = scope.lookup(&key) {
                    bound.used = true;
                    return Some((ArgTypes::Shared(bound.types.clone()), false));
                }
                let names: Vec<String> =
                    scope.vars.iter().map(|b| format!("?{}", b.name)).collect();
                let candidates: Vec<&str> = names.iter().map(String::as_str).collect();
                let shown = format!("?{}", v.name.text);
                let closest = suggest::closest(&shown, candidates).map(str::to_string);
                self.report_once(
                    Diagnostic::new(
                        Code::UndefinedVariable,
                        format!("variable `?{}` is not defined", v.name.text),
                        v.span(),
                    )
                    .in_file(at.file),
                    &shown,
                    "add it to the `:parameters`, or bind it with `forall` or `exists`".to_string(),
                    closest.as_deref(),
                );
                None
            }
            Term::Name(n) => {
                let key = n.folded();
                // Most domains declare no constants: skip hashing the name for nothing.
                let constant = if self.constants.is_empty() {
                    None
                } else {
                    self.constants.get(key.as_ref())
                };
                if let Some(c) = constant {
                    let types = type_names(&c.ty);
                    if self.track_usage && !self.used_constants.contains(key.as_ref()) {
                        self.used_constants.insert(key.into_owned());
                    }
                    return Some((ArgTypes::Owned(types), false));
                }
                if let Some(types) = at.objects.and_then(|o| o.get(key.as_ref())) {
                    return Some((ArgTypes::Borrowed(types), true));
                }
                let mut names: Vec<&str> = Vec::new();
                if self.worth_suggesting(Code::UndeclaredConstant, &n.text) {
                    names.extend(self.constants.values().map(|c| c.item.text.as_str()));
                    if let Some(objects) = at.objects {
                        names.extend(objects.names());
                    }
                }
                let what = if at.objects.is_some() {
                    "object or constant"
                } else {
                    "constant"
                };
                let declare = if at.objects.is_some() {
                    format!(
                        "declare `{}` in `(:objects …)`, or as a constant of the domain",
                        n.text
                    )
                } else {
                    format!(
                        "declare `{}` in `(:constants …)`, or use a parameter",
                        n.text
                    )
                };
                let closest = suggest::closest(&n.text, names.iter().copied()).map(str::to_string);
                self.report_once(
                    Diagnostic::new(
                        Code::UndeclaredConstant,
                        format!("{what} `{}` is not declared", n.text),
                        n.span,
                    )
                    .in_file(at.file),
                    &n.text,
                    declare,
                    closest.as_deref(),
                );
                None
            }
        }
    }

    /// Checks `args` against the declarations of a predicate or function: the use is fine when
    /// it fits any one of them (names may be declared more than once, see `redeclared`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn arguments(
        &mut self,
        kind: &str,
        name: &Name,
        declarations: &[Signature<'_>],
        args: &[Term],
        span: Span,
        scope: &mut Scope,
        at: At,
    ) {
        let types: SmallVec<[Option<(ArgTypes, bool)>; 4]> =
            args.iter().map(|a| self.term(a, scope, at)).collect();
        let Some(first) = declarations.first() else {
            return;
        };
        let same_arity: SmallVec<[&Signature<'_>; 2]> = declarations
            .iter()
            .filter(|d| d.0.len() == args.len())
            .collect();
        let Some(closest) = same_arity.first() else {
            self.report_arity_mismatch(kind, name, first, args.len(), span, at);
            return;
        };
        let fits_all =
            |checker: &Self, signature: &Signature<'_>| {
                signature.0.iter().zip(&types).all(|(param, arg)| {
                    arg.as_ref().is_none_or(|t| checker.argument_fits(t, param))
                })
            };
        if same_arity.iter().any(|s| fits_all(self, s)) {
            return;
        }
        self.report_type_mismatches(kind, name, closest.0, args, types, at);
    }

    /// Reports a use of `name` with `found` arguments where no declaration takes that many.
    fn report_arity_mismatch(
        &mut self,
        kind: &str,
        name: &Name,
        first: &Signature<'_>,
        found: usize,
        span: Span,
        at: At,
    ) {
        let declared = &first.0;
        // Uses with the same wrong count are one error: they suggest the declaration is
        // what should change, and each use is labelled.
        let help = signature_help(&name.text, declared);
        self.report_once(
            Diagnostic::new(
                Code::ArityMismatch,
                format!(
                    "{kind} `{}` takes {} argument{}, found {}",
                    name.text,
                    declared.len(),
                    if declared.len() == 1 { "" } else { "s" },
                    found
                ),
                span,
            )
            .in_file(at.file)
            .with_label_in(self.file, first.1, "declared here"),
            &format!("{kind} {}/{}", name.text, found),
            help,
            None,
        );
    }

    /// Whether an argument of these types fits `param`: each type it may have must fit one of
    /// the parameter's types; an untyped argument (`object`) fits anything, as planners read it.
    #[inline]
    fn argument_fits(
        &self,
        (arg_types, has_all): &(ArgTypes, bool),
        param: &Typed<Variable>,
    ) -> bool {
        // The common cases, without building the expected types: an untyped parameter
        // takes anything, and an argument of exactly the parameter's type fits it.
        match &param.ty {
            None if !arg_types.is_empty() => return true,
            Some(Type::Name(ty)) => {
                // One expected type (nearly every parameter): the general case below
                // without building the list of expected types.
                let wanted = ty.folded();
                if arg_types.len() == 1 && wanted.as_ref() == arg_types[0].as_str() {
                    return true;
                }
                if !self.types.contains(&wanted) {
                    return true;
                }
                let fits_one = |t: &String| {
                    t == OBJECT || !self.types.contains(t) || self.types.is_subtype(t, &wanted)
                };
                return if *has_all {
                    arg_types.iter().any(fits_one)
                } else {
                    arg_types.iter().all(fits_one)
                };
            }
            _ => {}
        }
        let expected = type_names(&param.ty);
        // An undefined parameter type is reported where it is declared; nothing fits it
        // meaningfully, so do not pile type mismatches on top.
        if expected.iter().any(|e| !self.types.contains(e)) {
            return true;
        }
        let fits_one = |t: &String| {
            t == OBJECT
                || !self.types.contains(t)
                || expected.iter().any(|e| self.types.is_subtype(t, e))
        };
        if *has_all {
            arg_types.iter().any(fits_one)
        } else {
            arg_types.iter().all(fits_one)
        }
    }

    /// Reports each argument whose type does not fit its parameter in `params`, the closest
    /// declaration.
    fn report_type_mismatches(
        &mut self,
        kind: &str,
        name: &Name,
        params: &[Typed<Variable>],
        args: &[Term],
        types: SmallVec<[Option<(ArgTypes, bool)>; 4]>,
        at: At,
    ) {
        for ((arg, arg_types), param) in args.iter().zip(types).zip(params) {
            let Some(arg_types) = arg_types else {
                continue;
            };
            if self.argument_fits(&arg_types, param) {
                continue;
            }
            let arg_types = arg_types.0;
            let expected = type_names(&param.ty);
            let shown = match arg {
                Term::Variable(v) => format!("`?{}`", v.name.text),
                Term::Name(n) => format!("`{}`", n.text),
            };
            self.push(
                Diagnostic::new(
                    Code::TypeMismatch,
                    format!(
                        "{shown} is of type {}, but {kind} `{}` expects {} here",
                        show_types(&arg_types),
                        name.text,
                        show_types(&expected)
                    ),
                    arg.span(),
                )
                .in_file(at.file)
                .with_label_in(self.file, param.item.span(), "parameter declared here")
                .with_help(format!(
                    "pass something of type {} (or a subtype)",
                    show_types(&expected)
                )),
            );
        }
    }

    fn predicate_signatures(&self, key: &str) -> Signatures<'a> {
        self.predicates
            .get(key)
            .map(|all| {
                all.iter()
                    .map(|p| (p.parameters.as_slice(), p.name.span))
                    .collect()
            })
            .unwrap_or_default()
    }

    pub(super) fn function_signatures(&self, key: &str) -> Signatures<'a> {
        self.functions
            .get(key)
            .map(|all| {
                all.iter()
                    .map(|f| (f.parameters.as_slice(), f.name.span))
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn atom(&mut self, atom: &Atom, scope: &mut Scope, at: At) {
        if atom.predicate.text == "=" {
            self.need(&[":equality"], at.file, atom.span, "equality");
            if atom.args.len() != 2 {
                self.push(
                    Diagnostic::new(
                        Code::ArityMismatch,
                        format!("`=` takes 2 arguments, found {}", atom.args.len()),
                        atom.span,
                    )
                    .in_file(at.file),
                );
            }
            for arg in &atom.args {
                self.term(arg, scope, at);
            }
            return;
        }
        let key = atom.predicate.folded();
        if self.track_usage && !self.used_predicates.contains(key.as_ref()) {
            self.used_predicates.insert(key.to_string());
        }
        let signatures = self.predicate_signatures(&key);
        if signatures.is_empty() {
            let candidates: Vec<&str> =
                if self.worth_suggesting(Code::UndeclaredPredicate, &atom.predicate.text) {
                    self.predicates
                        .values()
                        .filter_map(|all| all.first())
                        .map(|p| p.name.text.as_str())
                        .collect()
                } else {
                    Vec::new()
                };
            let diagnostic = Diagnostic::new(
                Code::UndeclaredPredicate,
                format!("predicate `{}` is not declared", atom.predicate.text),
                atom.predicate.span,
            )
            .in_file(at.file);
            if let Some(f) = self.functions.get(key.as_ref()).and_then(|all| all.first()) {
                let span = f.name.span;
                self.push(
                    diagnostic
                        .with_label_in(self.file, span, "a function of this name is declared here")
                        .with_help("a function is compared with `(= (f …) v)` or `(> (f …) v)`, not used as an atom"),
                );
            } else {
                // A problem cannot declare predicates: the help points at the domain.
                let declare = if at.objects.is_some() {
                    format!(
                        "predicates are declared by the domain: add `{}` to the domain's `(:predicates …)`",
                        atom.predicate.text
                    )
                } else {
                    "declare it in `(:predicates …)`".to_string()
                };
                let closest = suggest::closest(&atom.predicate.text, candidates.iter().copied())
                    .map(str::to_string);
                self.report_once(
                    diagnostic,
                    &atom.predicate.text,
                    declare,
                    closest.as_deref(),
                );
            }
        }
        self.arguments(
            "predicate",
            &atom.predicate,
            &signatures,
            &atom.args,
            atom.span,
            scope,
            at,
        );
    }
}

/// The help of an arity mismatch: the declared signature, as "`on` takes 2 arguments:
/// `(on ?x ?y - block)`", with parameters of one type grouped as they are usually written.
pub(super) fn signature_help(name: &str, parameters: &[Typed<Variable>]) -> String {
    let mut text = format!("({name}");
    let show = |ty: &Type| match ty {
        Type::Name(n) => n.text.to_string(),
        Type::Either { types, .. } => {
            let names: Vec<&str> = types.iter().map(|t| t.text.as_str()).collect();
            format!("(either {})", names.join(" "))
        }
    };
    for (i, p) in parameters.iter().enumerate() {
        text.push_str(&format!(" ?{}", p.item.name.text));
        let this = p.ty.as_ref().map(show);
        let next = parameters.get(i + 1).map(|n| n.ty.as_ref().map(show));
        if let Some(ty) = &this
            && next.as_ref() != Some(&this)
        {
            text.push_str(&format!(" - {ty}"));
        }
    }
    text.push(')');
    let n = parameters.len();
    format!(
        "`{name}` takes {n} argument{}: `{text}`",
        if n == 1 { "" } else { "s" }
    )
}
