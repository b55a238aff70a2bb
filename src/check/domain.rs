//! The domain checker's state (symbol tables, what the walks find) and the walk over a
//! domain's structures; the problem checks reuse it. Declarations, goals, expressions,
//! effects and usage each have a module of their own.

use super::requirements::Requirements;
use super::types::{OBJECT, TypeGraph};
use super::{Map, Set};
use crate::ast::*;
use crate::diagnostics::{Bounded, Code, Diagnostic, FileId, Handle};

/// The most uses of one undeclared name that get a label each; the help counts them all.
const MAX_USE_LABELS: usize = 100;

/// The most undeclared names that get a "did you mean" (see `Checker::worth_suggesting`).
const MAX_SUGGESTED: usize = crate::diagnostics::MAX_PER_FILE;

/// Lower-cased type names of a typed item: its declared type, or `object`.
pub(super) fn type_names(ty: &Option<Type>) -> Vec<String> {
    match ty {
        None => vec![OBJECT.to_string()],
        Some(Type::Name(n)) => vec![n.key()],
        Some(Type::Either { types, .. }) => types.iter().map(Name::key).collect(),
    }
}

/// A feature used somewhere, and the requirement flags any one of which allows it.
#[derive(Clone)]
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
#[derive(Clone)]
pub(super) struct Bound {
    pub name: String,
    /// Shared with every use of the variable: an action's atoms name their parameters again
    /// and again, and each use needs the types.
    pub types: std::rc::Rc<[String]>,
    pub used: bool,
}

#[derive(Clone, Default)]
pub(super) struct Scope {
    pub vars: Vec<Bound>,
}

impl Scope {
    pub(super) fn lookup(&mut self, name: &str) -> Option<&mut Bound> {
        self.vars.iter_mut().rev().find(|b| b.name == name)
    }
}

/// What a walk needs to know about where it is.
#[derive(Clone, Copy)]
pub(super) struct At<'o> {
    pub file: FileId,
    pub objects: Option<&'o super::objects::Objects>,
}

/// An undeclared name already reported: its diagnostic, how to declare the name, the declared
/// name closest to it, and how many places use it. Later uses become labels of that one
/// diagnostic, and its help is rewritten as the uses add up (see `suggest::undeclared`).
#[derive(Clone)]
pub(super) struct Undeclared {
    pub handle: Handle,
    /// Where the uses past the first [`MAX_USE_LABELS`] stand (file and start, packed), so that a
    /// use met twice is counted once without a label to compare with.
    pub unlabelled: Set<u64>,
    pub name: String,
    pub declare: String,
    pub closest: Option<String>,
    pub uses: usize,
}

/// A declaration's parameters and where its name stands.
pub(super) type Signature<'a> = (&'a [Typed<Variable>], Span);

#[derive(Clone)]
pub(super) struct Checker<'a> {
    pub domain: &'a Domain,
    pub file: FileId,
    pub types: TypeGraph,
    pub typed: bool,
    pub constants: Map<String, &'a Typed<Name>>,
    /// Every declaration of each predicate: a second one is a warning when it says the same, an
    /// error (C115) when it does not; uses are checked against all of them, so a conflict is
    /// reported once, where it is declared, and not again at every use.
    pub predicates: Map<String, Vec<&'a AtomicSkeleton>>,
    pub functions: Map<String, Vec<&'a FunctionDecl>>,
    pub requirements: Requirements,
    pub declares_requirements: bool,
    pub diagnostics: Bounded,
    /// Undeclared names reported so far, by code, scope (for variables: the structure they
    /// stand in) and lower-cased name.
    pub undeclared: Map<(Code, usize, String), Undeclared>,
    /// Counts the structures walked, so that an undefined variable is one error per structure.
    pub structure: usize,
    pub needs: Vec<Need>,
    /// Whether the walks record what they use (for unused declarations, which only the
    /// domain's own check reports): a problem's check does not need it for each fact.
    pub track_usage: bool,
    pub used_predicates: Set<String>,
    pub used_types: Set<String>,
    pub used_constants: Set<String>,
    /// Predicates that some effect makes true (derived predicates count).
    pub added: Set<String>,
    /// Predicates that some effect makes false.
    pub deleted: Set<String>,
}

impl<'a> Checker<'a> {
    pub fn new(domain: &'a Domain, file: FileId) -> Checker<'a> {
        let requirements = Requirements::new(domain.requirements.iter().map(|r| r.text.as_str()));
        let mut checker = Checker {
            domain,
            file,
            types: TypeGraph::default(),
            typed: !domain.types.is_empty(),
            constants: Map::default(),
            predicates: Map::default(),
            functions: Map::default(),
            requirements,
            declares_requirements: !domain.requirements.is_empty(),
            diagnostics: Bounded::new(),
            undeclared: Map::default(),
            structure: 0,
            needs: Vec::new(),
            track_usage: true,
            used_predicates: Set::default(),
            used_types: Set::default(),
            used_constants: Set::default(),
            added: Set::default(),
            deleted: Set::default(),
        };
        checker.declarations();
        checker
    }

    pub(super) fn push(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// Forgets every diagnostic found so far (the problem checks walk the domain first).
    pub(super) fn clear_diagnostics(&mut self) {
        self.diagnostics.clear();
        self.undeclared.clear();
    }

    /// Whether an undeclared `name` reported with `code` is worth a "did you mean": not when
    /// it was reported already (its first report keeps its suggestion; each further use is a
    /// label), nor past the first [`MAX_SUGGESTED`] undeclared names, where the search over
    /// every declared name (a problem may have hundreds of thousands of objects) would make a
    /// damaged input quadratic.
    pub(super) fn worth_suggesting(&self, code: Code, name: &str) -> bool {
        self.undeclared.len() < MAX_SUGGESTED
            && !self
                .undeclared
                .contains_key(&(code, 0, name.to_lowercase()))
    }

    /// Reports an undeclared `name` (or another problem keyed by `name`, such as one wrong
    /// argument count) once: the first use gets `diagnostic`, every later use a label on it.
    /// `declare` says how to declare the name; `closest` is the declared name nearest to it,
    /// offered as an alternative or, for a one-off use, as the likely fix.
    pub(super) fn report_once(
        &mut self,
        diagnostic: Diagnostic,
        name: &str,
        declare: String,
        closest: Option<&str>,
    ) {
        let scope = if diagnostic.code == Code::UndefinedVariable {
            self.structure
        } else {
            0
        };
        let key = (diagnostic.code, scope, name.to_lowercase());
        let Some(at) = diagnostic.primary().cloned() else {
            return;
        };
        if let Some(entry) = self.undeclared.get_mut(&key) {
            let Some(reported) = self.diagnostics.get_mut(entry.handle) else {
                // Past the bound of an input's diagnostics: counted, not shown.
                return;
            };
            let labelled = reported.labels.len() < MAX_USE_LABELS;
            let new_use = if labelled {
                !reported
                    .labels
                    .iter()
                    .any(|l| l.file == at.file && l.span == at.span)
            } else {
                entry
                    .unlabelled
                    .insert(u64::from(at.file.0) << 40 | at.span.start as u64)
            };
            if !new_use {
                return;
            }
            entry.uses += 1;
            if labelled {
                reported.labels.push(crate::diagnostics::Label {
                    message: Some("also used here".to_string()),
                    ..at
                });
            }
            let mut help = super::suggest::undeclared(
                &entry.name,
                &entry.declare,
                entry.closest.as_deref(),
                entry.uses,
            );
            if entry.uses > MAX_USE_LABELS {
                help.push_str(&format!(
                    "; used {} times, the first {MAX_USE_LABELS} labelled",
                    entry.uses
                ));
            }
            reported.help = Some(help);
            return;
        }
        let help = super::suggest::undeclared(name, &declare, closest, 1);
        let handle = self.diagnostics.push_amendable(diagnostic.with_help(help));
        self.undeclared.insert(
            key,
            Undeclared {
                handle,
                unlabelled: Set::default(),
                name: name.to_string(),
                declare,
                closest: closest.map(str::to_string),
                uses: 1,
            },
        );
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
            self.structure += 1;
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
                    types: type_names(&p.ty).into(),
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
            types: std::rc::Rc::from(["number".to_string()]),
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
}
