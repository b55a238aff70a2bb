//! The parse tree of a domain as tarski's grammar builds it, reduced to what its visitor reads.

use crate::ast::Span;

/// A name as the visitor sees it: lower-cased where tarski lower-cases it.
#[derive(Clone, Debug)]
pub struct Ident {
    pub text: String,
    pub span: Span,
}

/// `typename`: a primitive type or an `(either …)` list.
#[derive(Clone, Debug)]
pub enum TypeName {
    Primitive(Ident),
    Either(Span),
}

/// `possibly_typed_name_list` and `possibly_typed_type_list`: typed groups first, then the
/// untyped names (only `NAME` tokens; a bare `object` in a type list is not a name).
#[derive(Clone, Debug, Default)]
pub struct TypedNames {
    pub groups: Vec<(Vec<Ident>, TypeName)>,
    pub untyped: Vec<Ident>,
}

/// One variable of a `possibly_typed_variable_list` with its (lower-cased) type.
#[derive(Clone, Debug)]
pub struct VarDecl {
    pub name: Ident,
    pub sort: Ident,
}

#[derive(Clone, Debug)]
pub struct PredicateDef {
    pub name: Ident,
    pub params: Vec<VarDecl>,
}

#[derive(Clone, Debug)]
pub struct FunctionDef {
    pub name: Ident,
    pub params: Vec<VarDecl>,
    /// `None` for an untyped definition, which tarski types `number`.
    pub sort: Option<Ident>,
}

#[derive(Clone, Debug)]
pub enum Term {
    Constant(Ident),
    Number(Ident),
    Variable(Ident),
    TimeStep(Span),
    Function {
        name: Ident,
        args: Vec<Term>,
        span: Span,
    },
    Arithmetic {
        op: Ident,
        lhs: Box<Term>,
        rhs: Box<Term>,
        span: Span,
    },
    Unary {
        op: Ident,
        span: Span,
    },
}

impl Term {
    pub fn span(&self) -> Span {
        match self {
            Term::Constant(i) | Term::Number(i) | Term::Variable(i) => i.span,
            Term::TimeStep(span)
            | Term::Function { span, .. }
            | Term::Arithmetic { span, .. }
            | Term::Unary { span, .. } => *span,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Atom {
    pub predicate: Ident,
    pub args: Vec<Term>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Formula {
    Atom(Atom),
    And(Vec<Formula>, Span),
    Or(Vec<Formula>, Span),
    Not(Box<Formula>, Span),
    Imply(Box<Formula>, Box<Formula>, Span),
    Exists(Vec<VarDecl>, Box<Formula>, Span),
    Forall(Vec<VarDecl>, Box<Formula>, Span),
    Comparison { op: Ident, lhs: Term, rhs: Term },
}

/// `atomic_effect`.
#[derive(Clone, Debug)]
pub enum AtomicEffect {
    Add(Atom),
    Delete(Atom),
    /// `(assign f t)`.
    Assign {
        lhs: Term,
        rhs: Term,
        span: Span,
    },
    /// `(increase f t)` and the other `assignOp`s.
    Update {
        op: Ident,
        lhs: Term,
        rhs: Term,
        span: Span,
    },
}

/// `single_effect`.
#[derive(Clone, Debug)]
pub enum Effect {
    Forall {
        vars: Vec<VarDecl>,
        body: Vec<Effect>,
        span: Span,
    },
    When {
        condition: Formula,
        effects: Vec<AtomicEffect>,
    },
    Atomic(AtomicEffect),
}

#[derive(Clone, Debug)]
pub struct Action {
    /// The name as written: tarski keeps the case of action names.
    pub name: Ident,
    pub params: Vec<VarDecl>,
    /// `None` for the trivial precondition `()`.
    pub precondition: Option<Formula>,
    pub effects: Vec<Effect>,
}

#[derive(Clone, Debug, Default)]
pub struct Domain {
    /// The requirement flags, or `None` without a `:requirements` section.
    pub requirements: Option<Vec<Ident>>,
    pub types: Option<TypedNames>,
    pub constants: Option<TypedNames>,
    pub predicates: Vec<PredicateDef>,
    pub functions: Vec<FunctionDef>,
    pub actions: Vec<Action>,
    /// The keyword of a `:derived`, `:event` or `:constraint` definition after the actions:
    /// tarski rejects it, so the parse stops there.
    pub unsupported: Option<Ident>,
}
