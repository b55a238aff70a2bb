//! What Text2World's F1 metrics read from a domain tarski 0.8.2 accepts: the predicate symbols
//! with their arities, and for each action its parameter names and tarski's `str()` of its
//! precondition and of each of its effects.
//!
//! tarski's strings, as its `__str__` methods write them:
//!
//! | construct | string |
//! |---|---|
//! | atom, comparison | `on(?a,?b)`, `>=(fuel(?t),1)`: arguments joined by `,` |
//! | function term, arithmetic | `dist(?a, ?b)`, `+(fuel(?t), 1)`: arguments joined by `, ` |
//! | `and`, `or` | `(A and B)`, `(A or B)`; `(and X)` is `X` |
//! | `not`, `imply` | `(not A)`, `((not A) or B)` |
//! | quantifiers | `exists ?x, ?y : (φ)`: no types |
//! | `()` or `(and)` precondition | `T` (`Tautology`) |
//! | add, delete | `(T -> ADD(on(?a,?b)))`, `(COND -> DEL(…))` |
//! | assignments | `(T -> f(?x) := 10.0)`; `increase` etc. as `f(?x) := +(f(?x), 1)` |
//! | `when` with several effects | one effect per atomic effect, each with the condition |
//! | `forall` | `(T -> forall ([?x (type)]) : (E1, E2))`: the variables' `repr` shows types |
//!
//! Unconditional `(increase (total-cost) …)` effects at the top of an action become its cost
//! and are not effects.

use super::python;
use super::tarski;
use super::tarski::syntax::{Action, Atom, AtomicEffect, Effect, Formula, Term, VarDecl, terms_of};
use crate::diagnostics::Diagnostic;

/// The parts of a parsed domain the Text2World F1 metrics look at.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct DomainStrings {
    /// `language.predicates` without `=` and `!=` as `name_arity`, the arithmetic comparisons
    /// included when `:action-costs` or `:numeric-fluents` loads tarski's arithmetic theory.
    pub predicates: StrList,
    /// The actions in the order they are defined.
    pub actions: Vec<ActionStrings>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ActionStrings {
    /// The name as written (tarski keeps the case of action names).
    pub name: String,
    /// The parameters' symbols (`?x`, lower-cased), each name once.
    pub params: StrList,
    /// `str(action.precondition)`.
    pub precondition: String,
    /// `str(effect)` for each of `action.effects`.
    pub effects: StrList,
}

/// A list of strings written one after another into one buffer, so that a domain's many short
/// strings do not cost an allocation each.
#[derive(Clone, Debug, Default)]
pub(crate) struct StrList {
    text: String,
    /// Each string's start and end in `text`, in list order.
    items: Vec<(usize, usize)>,
}

impl StrList {
    /// An empty list with room for `items` strings of `bytes` bytes in all.
    pub fn with_capacity(items: usize, bytes: usize) -> StrList {
        StrList {
            text: String::with_capacity(bytes),
            items: Vec::with_capacity(items),
        }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The `i`-th string ("" past the end).
    pub fn get(&self, i: usize) -> &str {
        self.items
            .get(i)
            .and_then(|&(start, end)| self.text.get(start..end))
            .unwrap_or("")
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The strings' bytes, in list order (comparing them compares the strings).
    pub fn bytes(&self) -> impl Iterator<Item = &[u8]> {
        let text = self.text.as_bytes();
        self.items
            .iter()
            .map(|&(start, end)| text.get(start..end).unwrap_or(&[]))
    }

    pub fn push(&mut self, item: &str) {
        let start = self.text.len();
        self.text.push_str(item);
        self.items.push((start, self.text.len()));
    }

    /// Appends the string that `write` writes into the buffer.
    pub fn push_with(&mut self, write: impl FnOnce(&mut String)) {
        let start = self.text.len();
        write(&mut self.text);
        self.items.push((start, self.text.len()));
    }

    /// Replaces the `i`-th string with what `write` writes (at the buffer's end; the old text
    /// stays unused).
    pub fn replace_with(&mut self, i: usize, write: impl FnOnce(&mut String)) {
        let start = self.text.len();
        write(&mut self.text);
        if let Some(item) = self.items.get_mut(i) {
            *item = (start, self.text.len());
        }
    }

    /// Sorts the strings as Python sorts `str`s (by code point, which is byte order in UTF-8).
    /// Equal strings are alike, so the sort need not be stable.
    pub fn sort(&mut self) {
        let text = self.text.as_bytes();
        self.items
            .sort_unstable_by(|&(a, b), &(c, d)| text.get(a..b).cmp(&text.get(c..d)));
    }

    pub fn contains(&self, item: &str) -> bool {
        self.iter().any(|x| x == item)
    }
}

/// Two lists are equal when they hold the same strings in the same order, wherever their
/// buffers keep them.
impl PartialEq for StrList {
    fn eq(&self, other: &StrList) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<const N: usize> PartialEq<[&str; N]> for StrList {
    fn eq(&self, other: &[&str; N]) -> bool {
        self.len() == N && self.iter().eq(other.iter().copied())
    }
}

/// The F1 view of `text` when tarski 0.8.2 accepts it as a domain, else why it rejects it (one
/// `C150 tarski-rejects` diagnostic).
pub(crate) fn domain_strings(text: &str) -> Result<DomainStrings, Diagnostic> {
    crate::parse::with_stack(|| {
        let domain = tarski::read(text)?;
        let mut predicates = StrList::with_capacity(
            domain.predicates.len() + 4,
            16 * (domain.predicates.len() + 4),
        );
        let flags = domain.requirements.as_deref().unwrap_or(&[]);
        if flags
            .iter()
            .any(|f| f.text == ":action-costs" || f.text == ":numeric-fluents")
        {
            for symbol in ["<_2", "<=_2", ">_2", ">=_2"] {
                predicates.push(symbol);
            }
        }
        for predicate in &domain.predicates {
            predicates.push_with(|out| {
                out.push_str(&predicate.name.text);
                out.push('_');
                push_number(out, predicate.params.len());
            });
        }
        let actions = domain
            .actions
            .iter()
            .map(|action| action_strings(action, &domain.terms))
            .collect();
        Ok(DomainStrings {
            predicates,
            actions,
        })
    })
}

/// Appends the decimal digits of `n`.
fn push_number(out: &mut String, n: usize) {
    if n >= 10 {
        push_number(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

fn action_strings(action: &Action, terms: &[Term]) -> ActionStrings {
    let mut params = StrList::with_capacity(action.params.len(), 8 * action.params.len());
    for param in &action.params {
        if !params.contains(&param.name.text) {
            params.push(&param.name.text);
        }
    }
    let mut precondition = String::with_capacity(128);
    match &action.precondition {
        None => precondition.push('T'),
        Some(formula) => write_formula(&mut precondition, formula, terms),
    }
    let mut effects = StrList::with_capacity(action.effects.len(), 48 * action.effects.len());
    for effect in &action.effects {
        if is_cost_effect(effect) {
            continue;
        }
        effect_strings(effect, terms, &mut effects);
    }
    ActionStrings {
        name: action.name.text.to_string(),
        params,
        precondition,
        effects,
    }
}

/// An unconditional `(increase (total-cost) …)` (the only cost effect tarski accepts).
fn is_cost_effect(effect: &Effect) -> bool {
    match effect {
        Effect::Atomic(AtomicEffect::Update { lhs, .. }) => {
            matches!(&**lhs, Term::Function { name, .. } if name.text == "total-cost")
        }
        _ => false,
    }
}

/// Appends the strings of the tarski effects `effect` stands for: a `when` with several
/// atomic effects is one effect per atomic effect.
fn effect_strings(effect: &Effect, terms: &[Term], out: &mut StrList) {
    match effect {
        Effect::Atomic(atomic) => {
            out.push_with(|string| write_atomic_effect(string, atomic, "T", terms));
        }
        Effect::When { condition, effects } => {
            let mut condition_string = String::with_capacity(64);
            write_formula(&mut condition_string, condition, terms);
            for atomic in effects {
                out.push_with(|string| {
                    write_atomic_effect(string, atomic, &condition_string, terms)
                });
            }
        }
        Effect::Forall { vars, body, .. } => {
            let mut inner = StrList::default();
            for effect in body {
                effect_strings(effect, terms, &mut inner);
            }
            out.push_with(|string| {
                // `repr` of a tarski variable: its symbol and its sort's name.
                string.push_str("(T -> forall ([");
                for (i, var) in vars.iter().enumerate() {
                    if i > 0 {
                        string.push_str(", ");
                    }
                    string.push_str(&var.name.text);
                    string.push_str(" (");
                    string.push_str(&var.sort.text);
                    string.push(')');
                }
                string.push_str("]) : (");
                for (i, effect) in inner.iter().enumerate() {
                    if i > 0 {
                        string.push_str(", ");
                    }
                    string.push_str(effect);
                }
                string.push_str("))");
            });
        }
    }
}

/// tarski's `str()` of an effect with its condition: `(COND -> ADD(…))`.
fn write_atomic_effect(out: &mut String, effect: &AtomicEffect, condition: &str, terms: &[Term]) {
    out.push('(');
    out.push_str(condition);
    out.push_str(" -> ");
    match effect {
        AtomicEffect::Add(atom) => {
            out.push_str("ADD(");
            write_atom(out, atom, terms);
            out.push(')');
        }
        AtomicEffect::Delete(atom) => {
            out.push_str("DEL(");
            write_atom(out, atom, terms);
            out.push(')');
        }
        AtomicEffect::Assign { lhs, rhs, .. } => {
            write_term(out, lhs, terms);
            out.push_str(" := ");
            // A number assigned is shown as a float (`:= 10.0`).
            match &**rhs {
                Term::Number(number) => {
                    out.push_str(&python::float_repr(number.text.parse().unwrap_or(0.0)))
                }
                other => write_term(out, other, terms),
            }
        }
        AtomicEffect::Update { op, lhs, rhs, .. } => {
            let symbol = match &*op.text {
                "increase" => "+",
                "decrease" => "-",
                "scale-up" => "*",
                _ => "/",
            };
            let lhs_start = out.len();
            write_term(out, lhs, terms);
            let lhs_end = out.len();
            out.push_str(" := ");
            out.push_str(symbol);
            out.push('(');
            out.extend_from_within(lhs_start..lhs_end);
            out.push_str(", ");
            write_term(out, rhs, terms);
            out.push(')');
        }
    }
    out.push(')');
}

/// Appends tarski's `str()` of a formula.
fn write_formula(out: &mut String, formula: &Formula, terms: &[Term]) {
    match formula {
        Formula::Atom(atom) => write_atom(out, atom, terms),
        Formula::And(parts, _) => write_connective(out, parts, " and ", terms),
        Formula::Or(parts, _) => write_connective(out, parts, " or ", terms),
        Formula::Not(inner, _) => {
            out.push_str("(not ");
            write_formula(out, inner, terms);
            out.push(')');
        }
        Formula::Imply(lhs, rhs, _) => {
            out.push_str("((not ");
            write_formula(out, lhs, terms);
            out.push_str(") or ");
            write_formula(out, rhs, terms);
            out.push(')');
        }
        Formula::Exists(vars, body, _) => write_quantified(out, "exists", vars, body, terms),
        Formula::Forall(vars, body, _) => write_quantified(out, "forall", vars, body, terms),
        Formula::Comparison { op, lhs, rhs } => {
            out.push_str(&op.text);
            out.push('(');
            write_term(out, lhs, terms);
            out.push(',');
            write_term(out, rhs, terms);
            out.push(')');
        }
    }
}

/// `(A and B)`; an empty conjunction or disjunction is `T`, and one of a single part is that
/// part.
fn write_connective(out: &mut String, parts: &[Formula], connective: &str, terms: &[Term]) {
    match parts {
        [] => out.push('T'),
        [only] => write_formula(out, only, terms),
        _ => {
            out.push('(');
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    out.push_str(connective);
                }
                write_formula(out, part, terms);
            }
            out.push(')');
        }
    }
}

fn write_quantified(
    out: &mut String,
    quantifier: &str,
    vars: &[VarDecl],
    body: &Formula,
    terms: &[Term],
) {
    out.push_str(quantifier);
    out.push(' ');
    for (i, var) in vars.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&var.name.text);
    }
    out.push_str(" : (");
    write_formula(out, body, terms);
    out.push(')');
}

fn write_atom(out: &mut String, atom: &Atom, terms: &[Term]) {
    out.push_str(&atom.predicate.text);
    out.push('(');
    for (i, arg) in terms_of(terms, atom.args).iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_term(out, arg, terms);
    }
    out.push(')');
}

fn write_term(out: &mut String, term: &Term, terms: &[Term]) {
    match term {
        Term::Constant(name) | Term::Variable(name) => out.push_str(&name.text),
        Term::Number(number) => out.push_str(&number_string(&number.text)),
        Term::TimeStep(_) => out.push_str("#t"),
        Term::Function { name, args, .. } => {
            out.push_str(&name.text);
            out.push('(');
            for (i, arg) in terms_of(terms, *args).iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_term(out, arg, terms);
            }
            out.push(')');
        }
        Term::Arithmetic { op, lhs, rhs, .. } => {
            out.push_str(&op.text);
            out.push('(');
            write_term(out, lhs, terms);
            out.push_str(", ");
            write_term(out, rhs, terms);
            out.push(')');
        }
        Term::Unary { op, .. } => {
            out.push_str(&op.text);
            out.push_str("()");
        }
    }
}

/// A number token as tarski's constant prints it: Python's `int` when it has no `.`, else
/// Python's `float`.
fn number_string(text: &str) -> String {
    if text.contains('.') {
        return python::float_repr(text.parse().unwrap_or(0.0));
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, text),
    };
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        "0".to_string()
    } else if negative {
        format!("-{digits}")
    } else {
        digits.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{StrList, domain_strings, number_string, push_number};

    #[test]
    fn decimal_digits() {
        for n in [0, 7, 10, 42, 1000, 123_456] {
            let mut out = String::new();
            push_number(&mut out, n);
            assert_eq!(out, n.to_string());
        }
    }

    #[test]
    fn a_string_list_keeps_order_sorts_and_replaces() {
        let mut list = StrList::default();
        for item in ["b", "", "a(x)", "b"] {
            list.push(item);
        }
        assert_eq!(list, ["b", "", "a(x)", "b"]);
        list.sort();
        assert_eq!(list, ["", "a(x)", "b", "b"]);
        list.replace_with(1, |out| out.push('z'));
        assert_eq!(list, ["", "z", "b", "b"]);
        assert_eq!(list.get(9), "");
        assert!(list.contains("z") && !list.contains("a(x)"));
    }

    #[test]
    fn numbers_print_as_python_reads_them() {
        assert_eq!(number_string("007"), "7");
        assert_eq!(number_string("-0"), "0");
        assert_eq!(number_string("2.50"), "2.5");
    }

    #[test]
    fn strings_of_a_domain() {
        let text = "(define (domain d) (:requirements :typing :action-costs)
          (:types block) (:predicates (on ?a ?b - block) (clear ?a - block) (handempty))
          (:functions (total-cost) - number (w ?b - block) - number)
          (:action Move :parameters (?a ?b - block ?a - block)
            :precondition (and (clear ?a) (not (on ?a ?b)) (imply (clear ?b) (handempty))
                               (exists (?c - block) (on ?c ?a)) (>= (w ?a) 1))
            :effect (and (on ?a ?b) (not (clear ?b)) (increase (total-cost) 1)
                         (when (and (clear ?a) (handempty)) (and (handempty) (not (on ?b ?a))))
                         (forall (?c - block) (when (on ?c ?a) (clear ?c)))
                         (increase (w ?a) (w ?b))))
          (:action noop :parameters () :precondition () :effect (and))
          (:action empty :parameters () :precondition (and) :effect (handempty)))";
        let strings = domain_strings(text).expect("tarski accepts it");
        assert_eq!(
            strings.predicates,
            [
                "<_2",
                "<=_2",
                ">_2",
                ">=_2",
                "on_2",
                "clear_1",
                "handempty_0"
            ]
        );
        let action = &strings.actions[0];
        assert_eq!(action.name, "Move");
        assert_eq!(action.params, ["?a", "?b"]);
        assert_eq!(
            action.precondition,
            "(clear(?a) and (not on(?a,?b)) and ((not clear(?b)) or handempty()) and \
             exists ?c : (on(?c,?a)) and >=(w(?a),1))"
        );
        assert_eq!(
            action.effects,
            [
                "(T -> ADD(on(?a,?b)))",
                "(T -> DEL(clear(?b)))",
                "((clear(?a) and handempty()) -> ADD(handempty()))",
                "((clear(?a) and handempty()) -> DEL(on(?b,?a)))",
                "(T -> forall ([?c (block)]) : ((on(?c,?a) -> ADD(clear(?c)))))",
                "(T -> w(?a) := +(w(?a), w(?b)))",
            ]
        );
        assert_eq!(strings.actions[1].precondition, "T");
        assert!(strings.actions[1].effects.is_empty());
        assert_eq!(strings.actions[2].precondition, "T");
    }

    #[test]
    fn rejected_domains_give_the_reason() {
        assert!(domain_strings("(define (domain d) (:predicates (p)) (:action a)").is_err());
    }
}
