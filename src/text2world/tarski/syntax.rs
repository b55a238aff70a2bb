//! The parse tree of a domain as tarski's grammar builds it, reduced to what its visitor reads.

use crate::ast::Span;
use std::borrow::Cow;

/// A name as the visitor sees it: lower-cased where tarski lower-cases it.
#[derive(Clone, Debug)]
pub struct Ident<'a> {
    pub text: Cow<'a, str>,
    pub span: Span,
}

/// `typename`: a primitive type or an `(either …)` list.
#[derive(Clone, Debug)]
pub enum TypeName<'a> {
    Primitive(Ident<'a>),
    Either(Span),
}

/// `possibly_typed_name_list` and `possibly_typed_type_list`: typed groups first, then the
/// untyped names (only `NAME` tokens; a bare `object` in a type list is not a name).
#[derive(Clone, Debug, Default)]
pub struct TypedNames<'a> {
    pub groups: Vec<(Vec<Ident<'a>>, TypeName<'a>)>,
    pub untyped: Vec<Ident<'a>>,
}

/// One variable of a `possibly_typed_variable_list` with its (lower-cased) type.
#[derive(Clone, Debug)]
pub struct VarDecl<'a> {
    pub name: Ident<'a>,
    pub sort: Ident<'a>,
}

#[derive(Clone, Debug)]
pub struct PredicateDef<'a> {
    pub name: Ident<'a>,
    pub params: Vec<VarDecl<'a>>,
}

#[derive(Clone, Debug)]
pub struct FunctionDef<'a> {
    pub name: Ident<'a>,
    pub params: Vec<VarDecl<'a>>,
    /// `None` for an untyped definition, which tarski types `number`.
    pub sort: Option<Ident<'a>>,
}

/// Where a list of terms (an atom's or a function term's arguments) is in [`Domain::terms`]:
/// the tree keeps every such list in one vector instead of a vector each.
#[derive(Clone, Copy, Debug, Default)]
pub struct Terms {
    pub start: usize,
    pub len: usize,
}

#[derive(Clone, Debug)]
pub enum Term<'a> {
    Constant(Ident<'a>),
    Number(Ident<'a>),
    Variable(Ident<'a>),
    TimeStep(Span),
    Function {
        name: Ident<'a>,
        args: Terms,
        span: Span,
    },
    Arithmetic {
        op: Ident<'a>,
        lhs: Box<Term<'a>>,
        rhs: Box<Term<'a>>,
        span: Span,
    },
    Unary {
        op: Ident<'a>,
        span: Span,
    },
}

impl Term<'_> {
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
pub struct Atom<'a> {
    pub predicate: Ident<'a>,
    pub args: Terms,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Formula<'a> {
    Atom(Atom<'a>),
    And(Vec<Formula<'a>>, Span),
    Or(Vec<Formula<'a>>, Span),
    Not(Box<Formula<'a>>, Span),
    Imply(Box<Formula<'a>>, Box<Formula<'a>>, Span),
    Exists(Vec<VarDecl<'a>>, Box<Formula<'a>>, Span),
    Forall(Vec<VarDecl<'a>>, Box<Formula<'a>>, Span),
    /// The terms are boxed, as in the effects below, so that a formula is the size of an atom
    /// rather than of two terms: formulas are moved as they are built.
    Comparison {
        op: Ident<'a>,
        lhs: Box<Term<'a>>,
        rhs: Box<Term<'a>>,
    },
}

/// `atomic_effect`.
#[derive(Clone, Debug)]
pub enum AtomicEffect<'a> {
    Add(Atom<'a>),
    Delete(Atom<'a>),
    /// `(assign f t)`.
    Assign {
        lhs: Box<Term<'a>>,
        rhs: Box<Term<'a>>,
        span: Span,
    },
    /// `(increase f t)` and the other `assignOp`s.
    Update {
        op: Ident<'a>,
        lhs: Box<Term<'a>>,
        rhs: Box<Term<'a>>,
        span: Span,
    },
}

/// `single_effect`.
#[derive(Clone, Debug)]
pub enum Effect<'a> {
    Forall {
        vars: Vec<VarDecl<'a>>,
        body: Vec<Effect<'a>>,
        span: Span,
    },
    When {
        condition: Formula<'a>,
        effects: Vec<AtomicEffect<'a>>,
    },
    Atomic(AtomicEffect<'a>),
}

#[derive(Clone, Debug)]
pub struct Action<'a> {
    /// The name as written: tarski keeps the case of action names.
    pub name: Ident<'a>,
    pub params: Vec<VarDecl<'a>>,
    /// `None` for the trivial precondition `()`.
    pub precondition: Option<Formula<'a>>,
    pub effects: Vec<Effect<'a>>,
}

#[derive(Clone, Debug, Default)]
pub struct Domain<'a> {
    /// The requirement flags, or `None` without a `:requirements` section.
    pub requirements: Option<Vec<Ident<'a>>>,
    pub types: Option<TypedNames<'a>>,
    pub constants: Option<TypedNames<'a>>,
    pub predicates: Vec<PredicateDef<'a>>,
    pub functions: Vec<FunctionDef<'a>>,
    pub actions: Vec<Action<'a>>,
    /// The keyword of a `:derived`, `:event` or `:constraint` definition after the actions:
    /// tarski rejects it, so the parse stops there.
    pub unsupported: Option<Ident<'a>>,
    /// The argument lists of every atom and function term ([`Terms`]), one after the other.
    pub terms: Vec<Term<'a>>,
}

/// The terms of the list `at` in `terms` (a domain's [`Domain::terms`]).
pub fn terms_of<'t, 'a>(terms: &'t [Term<'a>], at: Terms) -> &'t [Term<'a>] {
    terms.get(at.start..at.start + at.len).unwrap_or(&[])
}
