//! The owned syntax tree of BDDL files (BEHAVIOR's activity definitions): data only, every
//! node with its byte span.
//!
//! Names keep their spelling, `?` included (`?apple.n.01` and `apple.n.01_1` alike are
//! [`Name`]s); [`Name`] compares them ignoring case, as the reference lower-cases its input.
//! Sections are kept in file order, repeats included, because the reference gives repeated
//! sections a meaning (`bddl::Activity` resolves them the reference's way).

use super::{Name, Span};
use serde::Serialize;

/// A BDDL file: a domain (predicates) or a problem (an activity).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BddlFile {
    Domain(BddlDomain),
    Problem(BddlProblem),
}

/// `(define (domain igibson) (:requirements …) (:predicates …))`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BddlDomain {
    pub name: Name,
    pub sections: Vec<DomainSection>,
    pub span: Span,
}

/// One section of a domain, as written.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "section", rename_all = "snake_case")]
pub enum DomainSection {
    Requirements {
        flags: Vec<Name>,
        span: Span,
    },
    Types {
        types: Vec<TypedGroup>,
        span: Span,
    },
    Predicates {
        predicates: Vec<PredicateDecl>,
        span: Span,
    },
    /// A section BDDL does not define (skipped by the reference), kept as its text.
    Unknown(Verbatim),
}

/// `(inside ?obj1 ?obj2)` in `:predicates`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PredicateDecl {
    pub name: Name,
    pub parameters: Vec<TypedGroup>,
    pub span: Span,
}

/// `(define (problem name) (:domain d) (:objects …) (:init …) (:goal …))`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BddlProblem {
    pub name: Name,
    pub sections: Vec<ProblemSection>,
    pub span: Span,
}

/// One section of a problem, as written.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "section", rename_all = "snake_case")]
pub enum ProblemSection {
    /// `(:domain igibson)`; `None` for `(:domain)`.
    Domain {
        name: Option<Name>,
        span: Span,
    },
    Requirements {
        flags: Vec<Name>,
        span: Span,
    },
    Objects {
        groups: Vec<TypedGroup>,
        span: Span,
    },
    Init {
        literals: Vec<Formula>,
        span: Span,
    },
    /// Every formula of the section; the reference reads only the first.
    Goal {
        formulas: Vec<Formula>,
        span: Span,
    },
    Unknown(Verbatim),
}

impl ProblemSection {
    pub fn span(&self) -> Span {
        match self {
            ProblemSection::Domain { span, .. }
            | ProblemSection::Requirements { span, .. }
            | ProblemSection::Objects { span, .. }
            | ProblemSection::Init { span, .. }
            | ProblemSection::Goal { span, .. } => *span,
            ProblemSection::Unknown(verbatim) => verbatim.span,
        }
    }
}

/// Names and the category written after them: `apple.n.01_1 apple.n.01_2 - apple.n.01`.
/// `category` is `None` for names after the last `- category` (the reference's `object`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TypedGroup {
    pub names: Vec<Name>,
    pub category: Option<Name>,
    pub span: Span,
}

/// A form kept as written: an unknown section, or a form that is not a formula.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verbatim {
    pub text: String,
    pub span: Span,
}

/// A formula of `:init` or `:goal`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Formula {
    pub kind: FormulaKind,
    pub span: Span,
}

/// The forms of BDDL formulas. Operators keep every argument as written (`(not a b)`,
/// `(imply a)`): the reference's treatment of the wrong counts is `bddl`'s business.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
pub enum FormulaKind {
    Atom {
        predicate: Name,
        args: Vec<Name>,
    },
    And(Vec<Formula>),
    Or(Vec<Formula>),
    Not(Vec<Formula>),
    Imply(Vec<Formula>),
    Forall {
        variable: Declaration,
        body: Box<Formula>,
    },
    Exists {
        variable: Declaration,
        body: Box<Formula>,
    },
    /// `(forn (N) (?v - C) φ)`: φ holds for N bindings.
    Forn {
        count: Count,
        variable: Declaration,
        body: Box<Formula>,
    },
    /// `(forpairs (?a - C1) (?b - C2) φ)`.
    ForPairs {
        first: Declaration,
        second: Declaration,
        body: Box<Formula>,
    },
    /// `(fornpairs (N) (?a - C1) (?b - C2) φ)`.
    ForNPairs {
        count: Count,
        first: Declaration,
        second: Declaration,
        body: Box<Formula>,
    },
    /// A form that is not a formula (the parser reported it), kept as written.
    Verbatim(Verbatim),
}

/// `(?v - C)`: a quantified variable (spelled as written, usually with `?`) and its category.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Declaration {
    pub variable: Name,
    pub category: Name,
    pub span: Span,
}

/// The count of `forn` and `fornpairs`: `(2)`, or a bare `2`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Count {
    pub text: Name,
    pub parenthesised: bool,
    pub span: Span,
}

/// A name as the reference resolves it: without `?` at either end, lower-cased.
pub fn bare(name: &Name) -> String {
    name.as_str().trim_matches('?').to_lowercase()
}
