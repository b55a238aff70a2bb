//! Owned syntax tree of PDDL domains and problems; data only, every node carries its byte span.
//!
//! The tree mirrors the PDDL 3.1 / PDDL+ grammar closely enough that the canonical printer can
//! reproduce every construct, and loosely enough that placement rules (a `preference` only in a
//! goal, `at start` only in a durative action, …) are checked later, where a located diagnostic
//! can explain them, instead of being syntax errors.

pub mod bddl;

use compact_str::CompactString;
use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};

/// A half-open byte range `start..end` into the source text the node was parsed from.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The byte range, for slicing the source text.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    /// The smallest span that covers both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// An identifier as written in the source (names of types, objects, predicates, actions,
/// requirement flags, and variables without their `?`).
///
/// PDDL is case-insensitive: two names are equal (and hash alike) when they are equal ignoring
/// case, whatever their spans. `text` keeps the original spelling for printing.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Name {
    /// The name as written; stored inline, without an allocation, up to 24 bytes (nearly every
    /// name), since a large problem is millions of names.
    pub text: CompactString,
    pub span: Span,
}

impl Name {
    pub fn new(text: impl Into<CompactString>, span: Span) -> Name {
        Name {
            text: text.into(),
            span,
        }
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The case-folded form used for lookups.
    pub fn key(&self) -> String {
        self.folded().into_owned()
    }

    /// The case-folded form used for lookups, without an allocation for any ASCII name of up to
    /// 24 bytes (grounded domains write every name in capitals, and look each up many times).
    pub fn folded(&self) -> Folded<'_> {
        fold_key(&self.text)
    }

    /// Whether this name is `other`, ignoring case.
    pub fn is(&self, other: &str) -> bool {
        let text = self.text.as_str();
        if text.is_ascii() && other.is_ascii() {
            return text.eq_ignore_ascii_case(other);
        }
        fold(text).eq(fold(other))
    }
}

impl std::fmt::Display for Name {
    /// The name as written.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// The case-folded form of `text` used for lookups, as [`Name::folded`] gives a name's.
pub fn fold_key(text: &str) -> Folded<'_> {
    // Nearly every name is already lower-case ASCII: a few word-sized looks decide that.
    if is_folded_ascii(text.as_bytes()) {
        Folded::Borrowed(text)
    } else if !text.is_ascii() {
        Folded::Owned(text.to_lowercase())
    } else {
        let mut folded = CompactString::from(text);
        folded.as_mut_str().make_ascii_lowercase();
        Folded::Compact(folded)
    }
}

/// Whether every byte is ASCII and none a capital, eight bytes at a time: whole words, then one
/// that ends with the text (overlapping the one before), and a text shorter than a word in two
/// overlapping halves. Per byte `b` of the low seven bits, `b + (0x80 - 'A')` reaches the high
/// bit from `A` on and `b + (0x80 - 'Z' - 1)` past `Z`, and no byte carries into the next.
fn is_folded_ascii(bytes: &[u8]) -> bool {
    const LOW_SEVEN_BITS: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    let unfolded = |word: u64| {
        let low = word & LOW_SEVEN_BITS;
        let capitals = (low + 0x3f3f_3f3f_3f3f_3f3f) & !(low + 0x2525_2525_2525_2525);
        (capitals | word) & HIGH_BITS
    };
    let length = bytes.len();
    if length < 8 {
        let half = |at: usize| {
            let mut half = [0u8; 4];
            half.copy_from_slice(&bytes[at..at + 4]);
            u64::from(u32::from_le_bytes(half))
        };
        let word = if length >= 4 {
            half(0) | (half(length - 4) << 32)
        } else {
            bytes.iter().fold(0, |word, &b| (word << 8) | u64::from(b))
        };
        return unfolded(word) == 0;
    }
    let word_at = |at: usize| {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(word)
    };
    let mut found = unfolded(word_at(length - 8));
    let mut at = 0;
    while at + 8 < length {
        found |= unfolded(word_at(at));
        at += 8;
    }
    found == 0
}

fn fold(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().flat_map(char::to_lowercase)
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.is(&other.text)
    }
}

impl Eq for Name {}

impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // The characters of the folded form, as `is` compares them; ASCII without the
        // Unicode tables (a non-ASCII name may fold to an ASCII one: it hashes alike).
        if self.text.is_ascii() {
            for byte in self.text.bytes() {
                char::from(byte.to_ascii_lowercase()).hash(state);
            }
        } else {
            for c in fold(&self.text) {
                c.hash(state);
            }
        }
    }
}

/// A name's case-folded form ([`Name::folded`]): the name itself when folding changes
/// nothing, a copy lower-cased in place when it is ASCII (inline, without an allocation, up to
/// 24 bytes, as the name itself is), else a new string.
pub enum Folded<'a> {
    Borrowed(&'a str),
    /// An ASCII name, lower-cased.
    Compact(CompactString),
    Owned(String),
}

impl Folded<'_> {
    pub fn as_str(&self) -> &str {
        match self {
            Folded::Borrowed(text) => text,
            Folded::Compact(text) => text,
            Folded::Owned(text) => text,
        }
    }

    pub fn into_owned(self) -> String {
        match self {
            Folded::Owned(text) => text,
            other => other.as_str().to_string(),
        }
    }

    /// The folded name as a `CompactString`: inline, without an allocation, up to 24 bytes.
    pub fn into_compact(self) -> CompactString {
        match self {
            Folded::Compact(text) => text,
            other => CompactString::from(other.as_str()),
        }
    }
}

impl std::ops::Deref for Folded<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Folded<'_> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<&str> for Folded<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Debug for Folded<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_str().fmt(f)
    }
}

impl PartialEq for Folded<'_> {
    fn eq(&self, other: &Folded<'_>) -> bool {
        self.as_str() == other.as_str()
    }
}

/// A variable such as `?x`. `name.text` is the name without its `?`; `name.span` covers the `?`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Variable {
    pub name: Name,
}

impl Variable {
    pub fn span(&self) -> Span {
        self.name.span
    }
}

/// An argument of an atom or a function term: an object or constant name, or a variable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Term {
    Name(Name),
    Variable(Variable),
}

impl Term {
    pub fn span(&self) -> Span {
        match self {
            Term::Name(name) => name.span,
            Term::Variable(variable) => variable.span(),
        }
    }
}

/// A type in a typed list: `block` or `(either truck plane)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Type {
    Name(Name),
    Either { types: Vec<Name>, span: Span },
}

impl Type {
    pub fn span(&self) -> Span {
        match self {
            Type::Name(name) => name.span,
            Type::Either { span, .. } => *span,
        }
    }
}

/// One entry of a typed list (`?x ?y - block`): the item and the type written after its group,
/// if any. Items of one group share the same `ty`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Typed<T> {
    pub item: T,
    #[serde(rename = "type")]
    pub ty: Option<Type>,
}

/// A predicate declaration `(on ?x ?y - block)`, also the head of a `:derived` rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AtomicSkeleton {
    pub name: Name,
    pub parameters: Vec<Typed<Variable>>,
    pub span: Span,
}

/// A function declaration `(fuel ?t - truck) - number`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FunctionDecl {
    pub name: Name,
    pub parameters: Vec<Typed<Variable>>,
    /// The declared value type (`number`, or an object type for object fluents); `None` when the
    /// declaration has no `- type`, which PDDL reads as `number`.
    #[serde(rename = "type")]
    pub ty: Option<Type>,
    pub span: Span,
}

/// An atomic formula `(on ?x b)`. Equality is an atom whose predicate is `=`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Atom {
    pub predicate: Name,
    pub args: Vec<Term>,
    pub span: Span,
}

/// A function application `(fuel ?t)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FunctionTerm {
    pub name: Name,
    pub args: Vec<Term>,
    pub span: Span,
}

/// A numeric literal; `text` is kept for printing, `value` for computing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Number {
    pub text: String,
    pub value: f64,
    pub span: Span,
}

/// Arithmetic operators of numeric expressions; `Sub` with one argument is negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    /// `^`, used by PDDL+ domains written for ENHSP.
    Pow,
}

impl ArithOp {
    pub fn symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
            ArithOp::Pow => "^",
        }
    }
}

/// A numeric (or object-valued) expression.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Expr {
    #[serde(flatten)]
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ExprKind {
    Number(Number),
    /// A variable (`?duration`, `?v`) or a bare name: an object, or a 0-ary function written
    /// without parentheses as ENHSP domains do (`(* 3.23 WheelSpeed)`).
    Term {
        term: Term,
    },
    Function(FunctionTerm),
    /// A function applied to expressions, such as ENHSP's `(cos (theta ?s))`.
    Call {
        function: Name,
        args: Vec<Expr>,
    },
    Op {
        op: ArithOp,
        args: Vec<Expr>,
    },
    /// `total-time` or `(total-time)` in a metric.
    TotalTime,
    /// `(is-violated pref)` in a metric.
    IsViolated {
        preference: Name,
    },
    /// `#t`, the time elapsed in a continuous effect.
    Time,
}

/// Numeric comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompareOp {
    Eq,
    Lt,
    Gt,
    Le,
    Ge,
}

impl CompareOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CompareOp::Eq => "=",
            CompareOp::Lt => "<",
            CompareOp::Gt => ">",
            CompareOp::Le => "<=",
            CompareOp::Ge => ">=",
        }
    }
}

/// When a condition or effect of a durative action holds or happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeSpec {
    AtStart,
    AtEnd,
    OverAll,
}

impl TimeSpec {
    pub fn keyword(self) -> &'static str {
        match self {
            TimeSpec::AtStart => "at start",
            TimeSpec::AtEnd => "at end",
            TimeSpec::OverAll => "over all",
        }
    }
}

/// PDDL3 trajectory constraint operators (besides `at end`, which is [`GdKind::Timed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModalOp {
    Always,
    Sometime,
    Within,
    AtMostOnce,
    SometimeAfter,
    SometimeBefore,
    AlwaysWithin,
    HoldDuring,
    HoldAfter,
}

impl ModalOp {
    pub fn keyword(self) -> &'static str {
        match self {
            ModalOp::Always => "always",
            ModalOp::Sometime => "sometime",
            ModalOp::Within => "within",
            ModalOp::AtMostOnce => "at-most-once",
            ModalOp::SometimeAfter => "sometime-after",
            ModalOp::SometimeBefore => "sometime-before",
            ModalOp::AlwaysWithin => "always-within",
            ModalOp::HoldDuring => "hold-during",
            ModalOp::HoldAfter => "hold-after",
        }
    }

    /// How many numbers and how many goal descriptions the operator takes.
    pub fn arity(self) -> (usize, usize) {
        match self {
            ModalOp::Always | ModalOp::Sometime | ModalOp::AtMostOnce => (0, 1),
            ModalOp::Within | ModalOp::HoldAfter => (1, 1),
            ModalOp::SometimeAfter | ModalOp::SometimeBefore => (0, 2),
            ModalOp::AlwaysWithin => (1, 2),
            ModalOp::HoldDuring => (2, 1),
        }
    }
}

/// A goal description: preconditions, goals, conditions, duration constraints and
/// trajectory constraints all use this one type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gd {
    #[serde(flatten)]
    pub kind: GdKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GdKind {
    Atom(Atom),
    /// `(and …)`; also the empty precondition `()`, which is an `and` of nothing.
    And {
        args: Vec<Gd>,
    },
    Or {
        args: Vec<Gd>,
    },
    Not {
        arg: Box<Gd>,
    },
    Imply {
        condition: Box<Gd>,
        consequence: Box<Gd>,
    },
    Exists {
        variables: Vec<Typed<Variable>>,
        body: Box<Gd>,
    },
    Forall {
        variables: Vec<Typed<Variable>>,
        body: Box<Gd>,
    },
    /// Boxed, as are the expressions of numeric facts, so that the common atoms stay small.
    Compare {
        op: CompareOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Preference {
        name: Option<Name>,
        body: Box<Gd>,
    },
    /// `(at start …)`, `(at end …)`, `(over all …)`.
    Timed {
        time: TimeSpec,
        body: Box<Gd>,
    },
    /// A PDDL3 trajectory constraint such as `(within 10 (p))`: `numbers` and `args` have the
    /// counts given by [`ModalOp::arity`].
    Modal {
        op: ModalOp,
        numbers: Vec<Number>,
        args: Vec<Gd>,
    },
}

/// Numeric effect operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AssignOp {
    Assign,
    Increase,
    Decrease,
    ScaleUp,
    ScaleDown,
}

impl AssignOp {
    pub fn keyword(self) -> &'static str {
        match self {
            AssignOp::Assign => "assign",
            AssignOp::Increase => "increase",
            AssignOp::Decrease => "decrease",
            AssignOp::ScaleUp => "scale-up",
            AssignOp::ScaleDown => "scale-down",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Effect {
    #[serde(flatten)]
    pub kind: EffectKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EffectKind {
    /// `(and …)`; also the empty effect `()`.
    And {
        args: Vec<Effect>,
    },
    Forall {
        variables: Vec<Typed<Variable>>,
        body: Box<Effect>,
    },
    When {
        condition: Gd,
        body: Box<Effect>,
    },
    /// An atom made true.
    Add {
        atom: Atom,
    },
    /// `(not atom)`: an atom made false.
    Delete {
        atom: Atom,
    },
    /// `(increase (f ?x) 1)` and friends. `target` is a function term or a bare 0-ary function
    /// name; `value` may use `#t` in continuous effects.
    Numeric {
        op: AssignOp,
        target: Expr,
        value: Expr,
    },
    /// `(at start …)` and `(at end …)` in durative actions.
    Timed {
        time: TimeSpec,
        body: Box<Effect>,
    },
}

/// `(:action …)`; also the shape of PDDL+ `(:process …)` and `(:event …)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Action {
    pub name: Name,
    pub parameters: Vec<Typed<Variable>>,
    /// PDDL 1.2's `:vars`: further variables, bound by the precondition, that are not
    /// parameters. Empty in PDDL 2.1 and later.
    pub vars: Vec<Typed<Variable>>,
    pub precondition: Option<Gd>,
    pub effect: Option<Effect>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DurativeAction {
    pub name: Name,
    pub parameters: Vec<Typed<Variable>>,
    /// The duration constraint, such as `(= ?duration 5)` or an `and` of inequalities.
    pub duration: Option<Gd>,
    pub condition: Option<Gd>,
    pub effect: Option<Effect>,
    pub span: Span,
}

/// `(:derived (p ?x) gd)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Derived {
    pub predicate: AtomicSkeleton,
    pub body: Gd,
    pub span: Span,
}

/// ENHSP's non-standard global constraint `(:constraint name :parameters (…) :condition gd)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GlobalConstraint {
    pub name: Name,
    pub parameters: Vec<Typed<Variable>>,
    pub condition: Option<Gd>,
    pub span: Span,
}

/// The operator-like definitions of a domain, in source order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Structure {
    Action(Action),
    DurativeAction(DurativeAction),
    Process(Action),
    Event(Action),
    Derived(Derived),
    Constraint(GlobalConstraint),
}

impl Structure {
    pub fn span(&self) -> Span {
        match self {
            Structure::Action(a) | Structure::Process(a) | Structure::Event(a) => a.span,
            Structure::DurativeAction(a) => a.span,
            Structure::Derived(d) => d.span,
            Structure::Constraint(c) => c.span,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Domain {
    pub name: Name,
    /// Requirement flags verbatim, with their leading `:`.
    pub requirements: Vec<Name>,
    pub types: Vec<Typed<Name>>,
    pub constants: Vec<Typed<Name>>,
    pub predicates: Vec<AtomicSkeleton>,
    pub functions: Vec<FunctionDecl>,
    pub constraints: Option<Gd>,
    pub structures: Vec<Structure>,
    pub span: Span,
}

impl Domain {
    pub fn actions(&self) -> impl Iterator<Item = &Action> {
        self.structures.iter().filter_map(|s| match s {
            Structure::Action(a) => Some(a),
            _ => None,
        })
    }

    pub fn durative_actions(&self) -> impl Iterator<Item = &DurativeAction> {
        self.structures.iter().filter_map(|s| match s {
            Structure::DurativeAction(a) => Some(a),
            _ => None,
        })
    }

    pub fn derived(&self) -> impl Iterator<Item = &Derived> {
        self.structures.iter().filter_map(|s| match s {
            Structure::Derived(d) => Some(d),
            _ => None,
        })
    }
}

/// One element of a problem's `:init`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Init {
    #[serde(flatten)]
    pub kind: InitKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum InitKind {
    Atom(Atom),
    /// `(not atom)`, allowed by PDDL 2.1 for timed initial literals.
    Not {
        atom: Atom,
    },
    /// `(= (f a) 3)` or, for object fluents, `(= (f a) b)`.
    Assign {
        target: Box<Expr>,
        value: Box<Expr>,
    },
    /// A timed initial literal `(at 10 (p))`.
    At {
        time: Number,
        fact: Box<Init>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Optimization {
    Minimize,
    Maximize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metric {
    pub optimization: Optimization,
    pub expr: Expr,
    pub span: Span,
}

/// PDDL 1.2's `(:length (:serial n) (:parallel n))`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Length {
    pub serial: Option<Number>,
    pub parallel: Option<Number>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    pub name: Name,
    /// The name in `(:domain …)`; `None` when the section is missing.
    pub domain: Option<Name>,
    pub requirements: Vec<Name>,
    pub objects: Vec<Typed<Name>>,
    pub init: Vec<Init>,
    pub goal: Option<Gd>,
    pub constraints: Option<Gd>,
    pub metric: Option<Metric>,
    pub length: Option<Length>,
    pub span: Span,
}

/// A parsed file: told apart by its `(define (domain …))` or `(define (problem …))` header,
/// never by its file name.
// One value per file: the size difference between the variants costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "file", rename_all = "snake_case")]
pub enum PddlFile {
    Domain(Domain),
    Problem(Problem),
}

impl PddlFile {
    pub fn name(&self) -> &Name {
        match self {
            PddlFile::Domain(d) => &d.name,
            PddlFile::Problem(p) => &p.name,
        }
    }
}

#[cfg(test)]
mod tests {
    /// The word-sized looks decide exactly what a look at each byte decides: every byte value
    /// at every place of texts of every length up to three words.
    #[test]
    fn is_folded_ascii_is_the_byte_rule() {
        let rule = |bytes: &[u8]| bytes.iter().all(|b| *b < 0x80 && !b.is_ascii_uppercase());
        assert!(super::is_folded_ascii(b""));
        for length in 1..=24 {
            for at in 0..length {
                for byte in 0..=255u8 {
                    let mut bytes = vec![b'a'; length];
                    bytes[at] = byte;
                    assert_eq!(super::is_folded_ascii(&bytes), rule(&bytes), "{bytes:?}");
                }
            }
        }
    }

    use super::{Name, Span};
    use std::hash::{BuildHasher, RandomState};

    fn name(text: &str) -> Name {
        Name::new(text, Span::new(0, text.len()))
    }

    #[test]
    fn names_equal_ignoring_case_hash_alike_whether_ascii_or_not() {
        let hasher = RandomState::new();
        let cases = [
            ("ON-TABLE", "on-table", true),
            ("On-Table", "on-tablE", true),
            ("on-table", "on-table2", false),
            // The Kelvin sign folds to an ASCII `k`.
            ("\u{212A}ey", "KEY", true),
            ("Straße", "STRASSE", false),
            ("ÄPFEL", "äpfel", true),
        ];
        for (left, right, equal) in cases {
            let (left, right) = (name(left), name(right));
            assert_eq!(left == right, equal, "{left:?} == {right:?}");
            assert_eq!(right == left, equal, "{right:?} == {left:?}");
            if equal {
                assert_eq!(hasher.hash_one(&left), hasher.hash_one(&right), "{left:?}");
                assert_eq!(left.folded(), right.folded(), "{left:?}");
            }
        }
    }
}
