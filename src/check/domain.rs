//! Symbol tables of a domain, and the walks over its formulas that check names, arities,
//! types, variables and requirements. The problem checks reuse the same walks.

use super::requirements::{self, Requirements};
use super::suggest;
use super::types::{OBJECT, TypeGraph};
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic, FileId};
use std::collections::{HashMap, HashSet};

/// Lower-cased type names of a typed item: its declared type, or `object`.
pub(super) fn type_names(ty: &Option<Type>) -> Vec<String> {
    match ty {
        None => vec![OBJECT.to_string()],
        Some(Type::Name(n)) => vec![n.key()],
        Some(Type::Either { types, .. }) => types.iter().map(Name::key).collect(),
    }
}

fn show_types(types: &[String]) -> String {
    match types {
        [one] => format!("`{one}`"),
        _ => format!("`(either {})`", types.join(" ")),
    }
}

/// A feature used somewhere, and the requirement flags any one of which allows it.
pub(super) struct Need {
    pub flags: &'static [&'static str],
    pub file: FileId,
    pub span: Span,
    pub what: &'static str,
}

/// Where a goal description stands, which decides what it may contain.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum GdPlace {
    Precondition,
    Goal,
    DurativeCondition,
    Duration,
    Constraint,
    Derived,
    EffectCondition,
}

/// A variable in scope: lower-cased name, types, where it was bound, whether it was used.
struct Bound {
    name: String,
    types: Vec<String>,
    used: bool,
}

#[derive(Default)]
pub(super) struct Scope {
    vars: Vec<Bound>,
}

impl Scope {
    fn lookup(&mut self, name: &str) -> Option<&mut Bound> {
        self.vars.iter_mut().rev().find(|b| b.name == name)
    }
}

/// The objects of a problem: lower-cased name to types and declaration span.
pub(super) type Objects = HashMap<String, (Vec<String>, Span)>;

/// What a walk needs to know about where it is.
#[derive(Clone, Copy)]
pub(super) struct At<'o> {
    pub file: FileId,
    pub objects: Option<&'o Objects>,
}

/// A declaration's parameters and where its name stands.
type Signature = (Vec<Typed<Variable>>, Span);

/// Names of math functions that ENHSP accepts in expressions without a declaration.
const MATH_FUNCTIONS: &[&str] = &[
    "sin", "cos", "tan", "sqrt", "abs", "exp", "log", "pow", "min", "max",
];

pub(super) struct Checker<'a> {
    pub domain: &'a Domain,
    pub file: FileId,
    pub types: TypeGraph,
    pub typed: bool,
    pub constants: HashMap<String, &'a Typed<Name>>,
    /// Every declaration of each predicate: a second one is a warning, and uses are checked
    /// against all of them (ENHSP domains overload names by type).
    pub predicates: HashMap<String, Vec<&'a AtomicSkeleton>>,
    pub functions: HashMap<String, Vec<&'a FunctionDecl>>,
    pub requirements: Requirements,
    pub declares_requirements: bool,
    pub diagnostics: Vec<Diagnostic>,
    pub needs: Vec<Need>,
    used_predicates: HashSet<String>,
    used_types: HashSet<String>,
    used_constants: HashSet<String>,
    /// Predicates that some effect makes true (derived predicates count).
    pub added: HashSet<String>,
    /// Predicates that some effect makes false.
    pub deleted: HashSet<String>,
}

impl<'a> Checker<'a> {
    pub fn new(domain: &'a Domain, file: FileId) -> Checker<'a> {
        let requirements = Requirements::new(domain.requirements.iter().map(|r| r.text.as_str()));
        let mut checker = Checker {
            domain,
            file,
            types: TypeGraph::default(),
            typed: !domain.types.is_empty(),
            constants: HashMap::new(),
            predicates: HashMap::new(),
            functions: HashMap::new(),
            requirements,
            declares_requirements: !domain.requirements.is_empty(),
            diagnostics: Vec::new(),
            needs: Vec::new(),
            used_predicates: HashSet::new(),
            used_types: HashSet::new(),
            used_constants: HashSet::new(),
            added: HashSet::new(),
            deleted: HashSet::new(),
        };
        checker.declarations();
        checker
    }

    fn push(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    pub fn need(
        &mut self,
        flags: &'static [&'static str],
        file: FileId,
        span: Span,
        what: &'static str,
    ) {
        self.needs.push(Need {
            flags,
            file,
            span,
            what,
        });
    }

    // -----------------------------------------------------------------------------------------
    // Declarations

    fn declarations(&mut self) {
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
        // Types.
        let mut declared: HashMap<String, Span> = HashMap::new();
        for t in &d.types {
            let key = t.item.key();
            if let Some(first) = declared.get(&key) {
                if key != OBJECT {
                    let first = *first;
                    self.redeclared(
                        "type",
                        &t.item,
                        first,
                        file,
                        "it gets each parent it is declared with (IPC 2006 storage declares a type under two parents)",
                    );
                }
            } else {
                declared.insert(key.clone(), t.item.span);
            }
            match &t.ty {
                // Declaring `object` itself, as some IPC domains do, adds nothing.
                _ if key == OBJECT => {}
                None => self.types.add(&key, Some(OBJECT)),
                Some(ty) => {
                    for parent in type_names(&Some(ty.clone())) {
                        self.types.add(&key, Some(&parent));
                    }
                }
            }
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
        // Constants.
        for c in &d.constants {
            if let Some(ty) = &c.ty {
                self.check_type(ty, file, true);
            }
            let key = c.item.key();
            if let Some(first) = self.constants.get(&key) {
                let (first_span, same) =
                    (first.item.span, type_names(&first.ty) == type_names(&c.ty));
                if same {
                    self.redeclared(
                        "constant",
                        &c.item,
                        first_span,
                        file,
                        "both declarations give it the same type",
                    );
                } else {
                    self.duplicate("constant", &c.item, first_span, file);
                }
            } else {
                self.constants.insert(key, c);
            }
        }
        // Predicates.
        for p in &d.predicates {
            self.parameters(&p.parameters, file, "predicate parameter");
            let key = p.name.key();
            if let Some(first) = self.predicates.get(&key).and_then(|all| all.first()) {
                let first = first.name.span;
                self.redeclared(
                    "predicate",
                    &p.name,
                    first,
                    file,
                    "uses are checked against each declaration",
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
                let first = first.name.span;
                self.redeclared(
                    "function",
                    &f.name,
                    first,
                    file,
                    "uses are checked against each declaration",
                );
            }
            self.functions.entry(key).or_default().push(f);
        }
        // Structure names.
        let mut names: HashMap<String, Span> = HashMap::new();
        for s in &d.structures {
            let name = match s {
                Structure::Action(a) | Structure::Process(a) | Structure::Event(a) => &a.name,
                Structure::DurativeAction(a) => &a.name,
                Structure::Constraint(c) => &c.name,
                Structure::Derived(_) => continue,
            };
            if let Some(first) = names.get(&name.key()) {
                self.duplicate("action", name, *first, file);
            } else {
                names.insert(name.key(), name.span);
            }
        }
        self.name_clashes();
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
    fn redeclared(
        &mut self,
        what: &str,
        name: &Name,
        first: Span,
        file: FileId,
        consequence: &str,
    ) {
        self.push(
            Diagnostic::new(
                Code::DuplicateDefinition,
                format!("{what} `{}` is declared twice", name.text),
                name.span,
            )
            .with_severity(crate::diagnostics::Severity::Warning)
            .in_file(file)
            .with_label(first, "first declared here")
            .with_help(format!("{consequence}; keep one declaration")),
        );
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
            let candidates: Vec<&str> = self.types.names().collect();
            let help = suggest::help(&name.text, &candidates, || {
                if self.typed {
                    format!("declare it in `(:types …)`, e.g. `{} - object`", name.text)
                } else {
                    format!(
                        "declare the types of the domain in `(:types {} …)`",
                        name.text
                    )
                }
            });
            self.push(
                Diagnostic::new(
                    Code::UndefinedType,
                    format!("type `{}` is not declared", name.text),
                    name.span,
                )
                .in_file(file)
                .with_help(help),
            );
        }
    }

    /// Checks the types and the uniqueness of a typed list of variables.
    pub fn parameters(&mut self, params: &[Typed<Variable>], file: FileId, what: &str) {
        // In a declaration the names are placeholders: a repeated one loses nothing.
        let declaration = what.starts_with("predicate") || what.starts_with("function");
        let mut seen: HashMap<String, Span> = HashMap::new();
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

    // -----------------------------------------------------------------------------------------
    // Structures

    pub fn structures(&mut self) {
        let d = self.domain;
        let file = self.file;
        let at = At {
            file,
            objects: None,
        };
        if let Some(c) = &d.constraints {
            self.need(&[":constraints"], file, c.span, "trajectory constraints");
            let mut scope = Scope::default();
            self.gd(c, GdPlace::Constraint, &mut scope, at);
        }
        for s in &d.structures {
            match s {
                Structure::Action(a) => self.action(a, "action", at),
                Structure::Process(a) => {
                    self.need(&[":time"], file, a.name.span, "processes");
                    self.action(a, "process", at)
                }
                Structure::Event(a) => {
                    self.need(&[":time"], file, a.name.span, "events");
                    self.action(a, "event", at)
                }
                Structure::DurativeAction(a) => self.durative(a, at),
                Structure::Derived(derived) => {
                    self.need(
                        &[":derived-predicates"],
                        file,
                        derived.predicate.name.span,
                        "derived predicates",
                    );
                    let mut scope = self.bind(
                        &derived.predicate.parameters,
                        file,
                        "derived predicate parameter",
                    );
                    self.gd(&derived.body, GdPlace::Derived, &mut scope, at);
                }
                Structure::Constraint(c) => {
                    let mut scope = self.bind(&c.parameters, file, "constraint parameter");
                    if let Some(g) = &c.condition {
                        self.gd(g, GdPlace::Constraint, &mut scope, at);
                    }
                }
            }
        }
    }

    fn bind(&mut self, params: &[Typed<Variable>], file: FileId, what: &str) -> Scope {
        self.parameters(params, file, what);
        Scope {
            vars: params
                .iter()
                .map(|p| Bound {
                    name: p.item.name.key(),
                    types: type_names(&p.ty),
                    used: false,
                })
                .collect(),
        }
    }

    fn unused_parameters(
        &mut self,
        params: &[Typed<Variable>],
        scope: &Scope,
        file: FileId,
        kind: &str,
    ) {
        for (p, bound) in params.iter().zip(&scope.vars) {
            // A duplicated name is reported as such; which copy counts as used is arbitrary.
            let duplicated = params.iter().filter(|q| q.item.name == p.item.name).count() > 1;
            if !bound.used && !duplicated {
                self.push(
                    Diagnostic::new(
                        Code::UnusedParameter,
                        format!(
                            "parameter `?{}` is never used by this {kind}",
                            p.item.name.text
                        ),
                        p.item.span(),
                    )
                    .in_file(file)
                    .with_help("remove it, or use it in the precondition or effect"),
                );
            }
        }
    }

    fn action(&mut self, a: &Action, kind: &str, at: At) {
        let file = at.file;
        let mut all = a.parameters.clone();
        all.extend(a.vars.iter().cloned());
        let mut scope = self.bind(&all, file, "parameter");
        if let Some(p) = &a.precondition {
            self.gd(p, GdPlace::Precondition, &mut scope, at);
        }
        if let Some(e) = &a.effect {
            self.effect(e, false, &mut scope, at);
            self.conflicts(e, file);
        }
        self.unused_parameters(&a.parameters, &scope, file, kind);
    }

    fn durative(&mut self, a: &DurativeAction, at: At) {
        let file = at.file;
        self.need(
            &[":durative-actions"],
            file,
            a.name.span,
            "durative actions",
        );
        let mut scope = self.bind(&a.parameters, file, "parameter");
        scope.vars.push(Bound {
            name: "duration".to_string(),
            types: vec!["number".to_string()],
            used: true,
        });
        if let Some(d) = &a.duration {
            self.gd(d, GdPlace::Duration, &mut scope, at);
        }
        if let Some(c) = &a.condition {
            self.gd(c, GdPlace::DurativeCondition, &mut scope, at);
        }
        if let Some(e) = &a.effect {
            self.effect(e, true, &mut scope, at);
        }
        let params = a.parameters.clone();
        self.unused_parameters(&params, &scope, file, "durative action");
    }

    // -----------------------------------------------------------------------------------------
    // Goal descriptions

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
                match &arg.kind {
                    // `(not (= ?x ?y))` is part of `:equality` in practice.
                    GdKind::Atom(atom) if atom.predicate.text == "=" => {}
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

    fn misplaced(&mut self, span: Span, file: FileId, what: &str, allowed: &str) {
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

    fn quantified(
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
                types: type_names(&v.ty),
                used: false,
            });
        }
        body(self, scope);
        scope.vars.truncate(depth);
    }

    /// The types of a term, after checking that it refers to something, and whether it has all
    /// of them (an object declared with several types) rather than any one of them (a variable
    /// typed `(either …)`).
    fn term(&mut self, term: &Term, scope: &mut Scope, at: At) -> Option<(Vec<String>, bool)> {
        match term {
            Term::Variable(v) => {
                let key = v.name.key();
                if let Some(bound) = scope.lookup(&key) {
                    bound.used = true;
                    return Some((bound.types.clone(), false));
                }
                let names: Vec<String> =
                    scope.vars.iter().map(|b| format!("?{}", b.name)).collect();
                let candidates: Vec<&str> = names.iter().map(String::as_str).collect();
                let help = suggest::help(&format!("?{}", v.name.text), &candidates, || {
                    "add it to the `:parameters`, or bind it with `forall` or `exists`".to_string()
                });
                self.push(
                    Diagnostic::new(
                        Code::UndefinedVariable,
                        format!("variable `?{}` is not defined", v.name.text),
                        v.span(),
                    )
                    .in_file(at.file)
                    .with_help(help),
                );
                None
            }
            Term::Name(n) => {
                let key = n.key();
                if let Some(c) = self.constants.get(&key) {
                    let types = type_names(&c.ty);
                    self.used_constants.insert(key);
                    return Some((types, false));
                }
                if let Some((types, _)) = at.objects.and_then(|o| o.get(&key)) {
                    return Some((types.clone(), true));
                }
                let mut names: Vec<&str> = self
                    .constants
                    .values()
                    .map(|c| c.item.text.as_str())
                    .collect();
                if let Some(objects) = at.objects {
                    names.extend(objects.keys().map(String::as_str));
                }
                let what = if at.objects.is_some() {
                    "object or constant"
                } else {
                    "constant"
                };
                let help = suggest::help(&n.text, &names, || {
                    if at.objects.is_some() {
                        format!(
                            "declare `{}` in `(:objects …)`, or as a constant of the domain",
                            n.text
                        )
                    } else {
                        format!(
                            "declare `{}` in `(:constants …)`, or use a parameter",
                            n.text
                        )
                    }
                });
                self.push(
                    Diagnostic::new(
                        Code::UndeclaredConstant,
                        format!("{what} `{}` is not declared", n.text),
                        n.span,
                    )
                    .in_file(at.file)
                    .with_help(help),
                );
                None
            }
        }
    }

    /// Checks `args` against the declarations of a predicate or function: the use is fine when
    /// it fits any one of them (names may be declared more than once, see `redeclared`).
    #[allow(clippy::too_many_arguments)]
    fn arguments(
        &mut self,
        kind: &str,
        name: &Name,
        declarations: &[Signature],
        args: &[Term],
        span: Span,
        scope: &mut Scope,
        at: At,
    ) {
        let types: Vec<Option<(Vec<String>, bool)>> =
            args.iter().map(|a| self.term(a, scope, at)).collect();
        let Some(first) = declarations.first() else {
            return;
        };
        let same_arity: Vec<&Signature> = declarations
            .iter()
            .filter(|d| d.0.len() == args.len())
            .collect();
        let Some(closest) = same_arity.first() else {
            self.push(
                Diagnostic::new(
                    Code::ArityMismatch,
                    format!(
                        "{kind} `{}` takes {} argument{}, found {}",
                        name.text,
                        first.0.len(),
                        if first.0.len() == 1 { "" } else { "s" },
                        args.len()
                    ),
                    span,
                )
                .in_file(at.file)
                .with_label_in(self.file, first.1, "declared here"),
            );
            return;
        };
        // Each type the argument may have must fit one of the parameter's types; an untyped
        // argument (`object`) fits anything, as planners read it.
        let fits = |checker: &Self,
                    (arg_types, has_all): &(Vec<String>, bool),
                    param: &Typed<Variable>| {
            let expected = type_names(&param.ty);
            // An undefined parameter type is reported where it is declared; nothing fits it
            // meaningfully, so do not pile type mismatches on top.
            if expected.iter().any(|e| !checker.types.contains(e)) {
                return true;
            }
            let fits_one = |t: &String| {
                t == OBJECT
                    || !checker.types.contains(t)
                    || expected.iter().any(|e| checker.types.is_subtype(t, e))
            };
            if *has_all {
                arg_types.iter().any(fits_one)
            } else {
                arg_types.iter().all(fits_one)
            }
        };
        let fits_all = |checker: &Self, signature: &Signature| {
            signature
                .0
                .iter()
                .zip(&types)
                .all(|(param, arg)| arg.as_ref().is_none_or(|t| fits(checker, t, param)))
        };
        if same_arity.iter().any(|s| fits_all(self, s)) {
            return;
        }
        let params = closest.0.clone();
        for ((arg, arg_types), param) in args.iter().zip(types).zip(&params) {
            let Some(arg_types) = arg_types else {
                continue;
            };
            if fits(self, &arg_types, param) {
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

    fn predicate_signatures(&self, key: &str) -> Vec<Signature> {
        self.predicates
            .get(key)
            .map(|all| {
                all.iter()
                    .map(|p| (p.parameters.clone(), p.name.span))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn function_signatures(&self, key: &str) -> Vec<Signature> {
        self.functions
            .get(key)
            .map(|all| {
                all.iter()
                    .map(|f| (f.parameters.clone(), f.name.span))
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
        let key = atom.predicate.key();
        self.used_predicates.insert(key.clone());
        let signatures = self.predicate_signatures(&key);
        if signatures.is_empty() {
            let candidates: Vec<&str> = self
                .predicates
                .values()
                .filter_map(|all| all.first())
                .map(|p| p.name.text.as_str())
                .collect();
            let mut diagnostic = Diagnostic::new(
                Code::UndeclaredPredicate,
                format!("predicate `{}` is not declared", atom.predicate.text),
                atom.predicate.span,
            )
            .in_file(at.file);
            diagnostic = if let Some(f) = self.functions.get(&key).and_then(|all| all.first()) {
                diagnostic
                    .with_label_in(self.file, f.name.span, "a function of this name is declared here")
                    .with_help("a function is compared with `(= (f …) v)` or `(> (f …) v)`, not used as an atom")
            } else {
                diagnostic.with_help(suggest::help(&atom.predicate.text, &candidates, || {
                    "declare it in `(:predicates …)`".to_string()
                }))
            };
            self.push(diagnostic);
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

    // -----------------------------------------------------------------------------------------
    // Numeric expressions

    pub fn expr(&mut self, e: &Expr, scope: &mut Scope, at: At) {
        match &e.kind {
            ExprKind::Number(_) | ExprKind::TotalTime | ExprKind::IsViolated { .. } => {}
            ExprKind::Time => {
                self.need(&[":continuous-effects"], at.file, e.span, "`#t`");
            }
            ExprKind::Term { term } => match term {
                Term::Variable(_) => {
                    self.term(term, scope, at);
                }
                // A bare name: a 0-ary function written without parentheses, or an object.
                Term::Name(n) => {
                    let signatures = self.function_signatures(&n.key());
                    if signatures.is_empty() {
                        self.term(term, scope, at);
                    } else {
                        self.function_use(n, &signatures, &[], e.span, scope, at);
                    }
                }
            },
            ExprKind::Function(f) => self.function_term(f, scope, at),
            ExprKind::Call { function, args } => {
                let key = function.key();
                let signatures = self.function_signatures(&key);
                if let Some(first) = signatures.first() {
                    if !signatures.iter().any(|s| s.0.len() == args.len()) {
                        self.push(
                            Diagnostic::new(
                                Code::ArityMismatch,
                                format!(
                                    "function `{}` takes {} arguments, found {}",
                                    function.text,
                                    first.0.len(),
                                    args.len()
                                ),
                                e.span,
                            )
                            .in_file(at.file)
                            .with_label_in(
                                self.file,
                                first.1,
                                "declared here",
                            ),
                        );
                    }
                } else if !MATH_FUNCTIONS.contains(&key.as_str()) {
                    self.undeclared_function(function, at);
                }
                for arg in args {
                    self.expr(arg, scope, at);
                }
            }
            ExprKind::Op { args, .. } => {
                for arg in args {
                    self.numeric_operand(arg, at);
                    self.expr(arg, scope, at);
                }
            }
        }
    }

    /// An operand of arithmetic must be numeric: not an object-valued function.
    fn numeric_operand(&mut self, e: &Expr, at: At) {
        let name = match &e.kind {
            ExprKind::Function(f) => &f.name,
            ExprKind::Term {
                term: Term::Name(n),
            } => n,
            _ => return,
        };
        if let Some(f) = self.functions.get(&name.key()).and_then(|all| all.first())
            && let Some(ty) = &f.ty
            && !matches!(ty, Type::Name(n) if n.is("number"))
        {
            let declared = f.name.span;
            self.push(
                Diagnostic::new(
                    Code::NonNumericFluent,
                    format!("function `{}` has object values, not numbers", name.text),
                    e.span,
                )
                .in_file(at.file)
                .with_label_in(self.file, declared, "declared here with an object type")
                .with_help("arithmetic needs a function declared `- number`"),
            );
        }
    }

    fn undeclared_function(&mut self, name: &Name, at: At) {
        let key = name.key();
        let mut diagnostic = Diagnostic::new(
            Code::UndeclaredFunction,
            format!("function `{}` is not declared", name.text),
            name.span,
        )
        .in_file(at.file);
        if let Some(p) = self.predicates.get(&key).and_then(|all| all.first()) {
            diagnostic = Diagnostic::new(
                Code::NonNumericFluent,
                format!("`{}` is a predicate, not a function", name.text),
                name.span,
            )
            .in_file(at.file)
            .with_label_in(self.file, p.name.span, "declared as a predicate here")
            .with_help("declare a function in `(:functions …)` for numeric values");
        } else {
            let candidates: Vec<&str> = self
                .functions
                .values()
                .filter_map(|all| all.first())
                .map(|f| f.name.text.as_str())
                .collect();
            diagnostic = diagnostic.with_help(suggest::help(&name.text, &candidates, || {
                format!("declare it in `(:functions ({}) - number)`", name.text)
            }));
        }
        self.push(diagnostic);
    }

    /// Whether `name` is a declared function.
    pub fn is_function(&self, name: &Name) -> bool {
        self.functions.contains_key(&name.key())
    }

    pub fn function_term(&mut self, f: &FunctionTerm, scope: &mut Scope, at: At) {
        let signatures = self.function_signatures(&f.name.key());
        if !signatures.is_empty() {
            self.function_use(&f.name, &signatures, &f.args, f.span, scope, at);
            return;
        }
        if MATH_FUNCTIONS.contains(&f.name.key().as_str()) {
            // A math function's arguments are expressions: `(cos heading)` reads `heading`.
            for arg in &f.args {
                let expr = Expr {
                    kind: ExprKind::Term { term: arg.clone() },
                    span: arg.span(),
                };
                self.expr(&expr, scope, at);
            }
            return;
        }
        self.undeclared_function(&f.name, at);
        for arg in &f.args {
            self.term(arg, scope, at);
        }
    }

    fn function_use(
        &mut self,
        name: &Name,
        signatures: &[Signature],
        args: &[Term],
        span: Span,
        scope: &mut Scope,
        at: At,
    ) {
        // `:action-costs` allows `total-cost` and static functions in cost expressions and in
        // the initial state; other uses are also checked where they stand (comparisons, effects).
        self.need(
            &[":numeric-fluents", ":object-fluents", ":action-costs"],
            at.file,
            span,
            "functions",
        );
        self.arguments("function", name, signatures, args, span, scope, at);
    }

    // -----------------------------------------------------------------------------------------
    // Effects

    fn effect(&mut self, e: &Effect, durative: bool, scope: &mut Scope, at: At) {
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
                self.added.insert(atom.predicate.key());
                self.atom(atom, scope, at);
            }
            EffectKind::Delete { atom } => {
                self.deleted.insert(atom.predicate.key());
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
    fn conflicts(&mut self, e: &Effect, file: FileId) {
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

    // -----------------------------------------------------------------------------------------
    // After the walks

    /// Reports missing and unused requirements for the needs collected so far; `declared`
    /// holds the flags of the domain and, in problem context, of the problem.
    pub fn requirement_diagnostics(
        &mut self,
        declared: &Requirements,
        declares_any: bool,
        problem_only: bool,
    ) {
        let needs = std::mem::take(&mut self.needs);
        let mut reported: HashSet<&'static str> = HashSet::new();
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
        for p in &d.predicates {
            if !self.used_predicates.contains(&p.name.key()) {
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
        for c in &d.constants {
            if !self.used_constants.contains(&c.item.key()) {
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
