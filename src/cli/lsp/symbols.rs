//! Every name in a domain or problem with what it names: the index behind definition,
//! references, highlights, rename and hover.

use pddlc::ast::{
    Atom, Domain, Effect, EffectKind, Expr, ExprKind, Gd, GdKind, Init, InitKind, Name, PddlFile,
    Problem, Span, Structure, Term, Type, Typed, Variable,
};

/// What a name names. Constants and objects share one kind: a problem's atoms use both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Type,
    Predicate,
    Function,
    Object,
    Action,
    Variable,
    Requirement,
}

/// One written name.
#[derive(Clone, Debug)]
pub struct Occurrence {
    pub kind: Kind,
    /// The case-folded name (PDDL names are case-insensitive).
    pub key: String,
    /// The name as written; a variable's span leaves out its `?`, so that a rename keeps it.
    pub span: Span,
    pub declaration: bool,
    /// For a variable, the span of what binds it (an action, a quantifier); empty otherwise.
    /// A variable no binder declares has the empty scope too.
    pub scope: Span,
}

impl Occurrence {
    /// Whether `other` names the same thing (in the same file, for variables).
    pub fn same_symbol(&self, other: &Occurrence) -> bool {
        self.kind == other.kind && self.key == other.key && self.scope == other.scope
    }
}

/// Every name of `file`, in the order of the walk.
pub fn occurrences(file: &PddlFile) -> Vec<Occurrence> {
    let mut walk = Walk::default();
    match file {
        PddlFile::Domain(domain) => walk.domain(domain),
        PddlFile::Problem(problem) => walk.problem(problem),
    }
    walk.found
}

/// The occurrence under byte `offset`: one whose span contains it, or ends at it (the cursor
/// just after a name).
pub fn at(occurrences: &[Occurrence], offset: usize) -> Option<&Occurrence> {
    occurrences
        .iter()
        .find(|o| o.span.start <= offset && offset < o.span.end)
        .or_else(|| occurrences.iter().find(|o| o.span.end == offset))
}

#[derive(Default)]
struct Walk {
    found: Vec<Occurrence>,
    /// The variables in scope, innermost last, with the span of their binder.
    scopes: Vec<(String, Span)>,
}

impl Walk {
    fn name(&mut self, kind: Kind, name: &Name, declaration: bool) {
        self.found.push(Occurrence {
            kind,
            key: name.key(),
            span: name.span,
            declaration,
            scope: Span::default(),
        });
    }

    fn variable_span(variable: &Variable) -> Span {
        let span = variable.span();
        // The `?` is one byte; a span without it (a damaged input) is kept whole.
        if span.end > span.start {
            Span::new(span.start + 1, span.end)
        } else {
            span
        }
    }

    fn variable_use(&mut self, variable: &Variable) {
        let key = variable.name.key();
        let scope = self
            .scopes
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, s)| *s)
            .unwrap_or_default();
        self.found.push(Occurrence {
            kind: Kind::Variable,
            key,
            span: Self::variable_span(variable),
            declaration: false,
            scope,
        });
    }

    /// Declares `variables` as bound by `scope`; the caller pops them with [`Walk::unbind`].
    fn bind(&mut self, variables: &[Typed<Variable>], scope: Span) -> usize {
        for typed in variables {
            let key = typed.item.name.key();
            self.found.push(Occurrence {
                kind: Kind::Variable,
                key: key.clone(),
                span: Self::variable_span(&typed.item),
                declaration: true,
                scope,
            });
            self.scopes.push((key, scope));
            self.ty(&typed.ty);
        }
        variables.len()
    }

    fn unbind(&mut self, count: usize) {
        let keep = self.scopes.len().saturating_sub(count);
        self.scopes.truncate(keep);
    }

    fn ty(&mut self, ty: &Option<Type>) {
        match ty {
            Some(Type::Name(name)) => self.name(Kind::Type, name, false),
            Some(Type::Either { types, .. }) => {
                for name in types {
                    self.name(Kind::Type, name, false);
                }
            }
            None => {}
        }
    }

    fn typed_names(&mut self, kind: Kind, items: &[Typed<Name>]) {
        for typed in items {
            self.name(kind, &typed.item, true);
            self.ty(&typed.ty);
        }
    }

    fn term(&mut self, term: &Term) {
        match term {
            Term::Name(name) => self.name(Kind::Object, name, false),
            Term::Variable(variable) => self.variable_use(variable),
        }
    }

    fn atom(&mut self, atom: &Atom) {
        // `=` is built in, not a declared predicate.
        if atom.predicate.as_str() != "=" {
            self.name(Kind::Predicate, &atom.predicate, false);
        }
        for arg in &atom.args {
            self.term(arg);
        }
    }

    fn domain(&mut self, domain: &Domain) {
        for flag in &domain.requirements {
            self.name(Kind::Requirement, flag, false);
        }
        self.typed_names(Kind::Type, &domain.types);
        self.typed_names(Kind::Object, &domain.constants);
        for predicate in &domain.predicates {
            self.name(Kind::Predicate, &predicate.name, true);
            let bound = self.bind(&predicate.parameters, predicate.span);
            self.unbind(bound);
        }
        for function in &domain.functions {
            self.name(Kind::Function, &function.name, true);
            let bound = self.bind(&function.parameters, function.span);
            self.unbind(bound);
            self.ty(&function.ty);
        }
        if let Some(constraints) = &domain.constraints {
            self.gd(constraints);
        }
        for structure in &domain.structures {
            self.structure(structure);
        }
    }

    fn structure(&mut self, structure: &Structure) {
        match structure {
            Structure::Action(action) | Structure::Process(action) | Structure::Event(action) => {
                self.name(Kind::Action, &action.name, true);
                let bound = self.bind(&action.parameters, action.span)
                    + self.bind(&action.vars, action.span);
                if let Some(gd) = &action.precondition {
                    self.gd(gd);
                }
                if let Some(effect) = &action.effect {
                    self.effect(effect);
                }
                self.unbind(bound);
            }
            Structure::DurativeAction(action) => {
                self.name(Kind::Action, &action.name, true);
                let bound = self.bind(&action.parameters, action.span);
                for gd in [&action.duration, &action.condition].into_iter().flatten() {
                    self.gd(gd);
                }
                if let Some(effect) = &action.effect {
                    self.effect(effect);
                }
                self.unbind(bound);
            }
            Structure::Derived(derived) => {
                self.name(Kind::Predicate, &derived.predicate.name, false);
                let bound = self.bind(&derived.predicate.parameters, derived.span);
                self.gd(&derived.body);
                self.unbind(bound);
            }
            Structure::Constraint(constraint) => {
                let bound = self.bind(&constraint.parameters, constraint.span);
                if let Some(gd) = &constraint.condition {
                    self.gd(gd);
                }
                self.unbind(bound);
            }
        }
    }

    fn gd(&mut self, gd: &Gd) {
        match &gd.kind {
            GdKind::Atom(atom) => self.atom(atom),
            GdKind::And { args } | GdKind::Or { args } | GdKind::Modal { args, .. } => {
                for arg in args {
                    self.gd(arg);
                }
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
                let bound = self.bind(variables, gd.span);
                self.gd(body);
                self.unbind(bound);
            }
            GdKind::Compare { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            GdKind::Preference { body, .. } | GdKind::Timed { body, .. } => self.gd(body),
        }
    }

    fn expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Term { term } => self.term(term),
            ExprKind::Function(function) => {
                self.name(Kind::Function, &function.name, false);
                for arg in &function.args {
                    self.term(arg);
                }
            }
            ExprKind::Call { args, .. } | ExprKind::Op { args, .. } => {
                for arg in args {
                    self.expr(arg);
                }
            }
            ExprKind::Number(_)
            | ExprKind::TotalTime
            | ExprKind::IsViolated { .. }
            | ExprKind::Time => {}
        }
    }

    fn effect(&mut self, effect: &Effect) {
        match &effect.kind {
            EffectKind::And { args } => {
                for arg in args {
                    self.effect(arg);
                }
            }
            EffectKind::Forall { variables, body } => {
                let bound = self.bind(variables, effect.span);
                self.effect(body);
                self.unbind(bound);
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

    fn problem(&mut self, problem: &Problem) {
        for flag in &problem.requirements {
            self.name(Kind::Requirement, flag, false);
        }
        self.typed_names(Kind::Object, &problem.objects);
        for init in &problem.init {
            self.init(init);
        }
        for gd in [&problem.goal, &problem.constraints].into_iter().flatten() {
            self.gd(gd);
        }
        if let Some(metric) = &problem.metric {
            self.expr(&metric.expr);
        }
    }

    fn init(&mut self, init: &Init) {
        match &init.kind {
            InitKind::Atom(atom) | InitKind::Not { atom } => self.atom(atom),
            InitKind::Assign { target, value } => {
                self.expr(target);
                self.expr(value);
            }
            InitKind::At { fact, .. } => self.init(fact),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_resolve_to_their_innermost_binder() {
        let text = "(define (domain d) (:predicates (p ?x))
            (:action a :parameters (?x) :precondition (forall (?x) (p ?x)) :effect (p ?x)))";
        let domain = pddlc::parse::file(text).value.expect("parses");
        let found = occurrences(&domain);
        let uses: Vec<&Occurrence> = found
            .iter()
            .filter(|o| o.kind == Kind::Variable && !o.declaration)
            .collect();
        assert_eq!(uses.len(), 2);
        // The precondition's `?x` is the forall's, the effect's the action's.
        assert_ne!(uses[0].scope, uses[1].scope);
        assert_eq!(&text[uses[0].span.start..uses[0].span.end], "x");
        let action = text.find("(:action").expect("action");
        assert_eq!(uses[1].scope.start, action);
    }
}
