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
use super::tarski::syntax::{Action, Atom, AtomicEffect, Effect, Formula, Term, VarDecl};
use crate::diagnostics::Diagnostic;

/// The parts of a parsed domain the Text2World F1 metrics look at.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct DomainStrings {
    /// `language.predicates` without `=` and `!=`: name and arity, the arithmetic comparisons
    /// included when `:action-costs` or `:numeric-fluents` loads tarski's arithmetic theory.
    pub predicates: Vec<(String, usize)>,
    /// The actions in the order they are defined.
    pub actions: Vec<ActionStrings>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ActionStrings {
    /// The name as written (tarski keeps the case of action names).
    pub name: String,
    /// The parameters' symbols (`?x`, lower-cased), each name once.
    pub params: Vec<String>,
    /// `str(action.precondition)`.
    pub precondition: String,
    /// `str(effect)` for each of `action.effects`.
    pub effects: Vec<String>,
}

/// The F1 view of `text` when tarski 0.8.2 accepts it as a domain, else why it rejects it (one
/// `C150 tarski-rejects` diagnostic).
pub(crate) fn domain_strings(text: &str) -> Result<DomainStrings, Diagnostic> {
    crate::parse::with_stack(|| {
        let domain = tarski::read(text)?;
        let mut predicates: Vec<(String, usize)> = Vec::new();
        let flags = domain.requirements.as_deref().unwrap_or(&[]);
        if flags
            .iter()
            .any(|f| f.text == ":action-costs" || f.text == ":numeric-fluents")
        {
            for symbol in ["<", "<=", ">", ">="] {
                predicates.push((symbol.to_string(), 2));
            }
        }
        for predicate in &domain.predicates {
            predicates.push((predicate.name.text.clone(), predicate.params.len()));
        }
        let actions = domain.actions.iter().map(action_strings).collect();
        Ok(DomainStrings {
            predicates,
            actions,
        })
    })
}

fn action_strings(action: &Action) -> ActionStrings {
    let mut params: Vec<String> = Vec::new();
    for param in &action.params {
        if !params.contains(&param.name.text) {
            params.push(param.name.text.clone());
        }
    }
    let precondition = match &action.precondition {
        None => "T".to_string(),
        Some(formula) => formula_string(formula),
    };
    let mut effects = Vec::new();
    for effect in &action.effects {
        if is_cost_effect(effect) {
            continue;
        }
        effect_strings(effect, &mut effects);
    }
    ActionStrings {
        name: action.name.text.clone(),
        params,
        precondition,
        effects,
    }
}

/// An unconditional `(increase (total-cost) …)` (the only cost effect tarski accepts).
fn is_cost_effect(effect: &Effect) -> bool {
    matches!(
        effect,
        Effect::Atomic(AtomicEffect::Update {
            lhs: Term::Function { name, .. },
            ..
        }) if name.text == "total-cost"
    )
}

/// Appends the strings of the tarski effects `effect` stands for: a `when` with several
/// atomic effects is one effect per atomic effect.
fn effect_strings(effect: &Effect, out: &mut Vec<String>) {
    match effect {
        Effect::Atomic(atomic) => out.push(atomic_effect_string(atomic, "T")),
        Effect::When { condition, effects } => {
            let condition = formula_string(condition);
            for atomic in effects {
                out.push(atomic_effect_string(atomic, &condition));
            }
        }
        Effect::Forall { vars, body, .. } => {
            let mut inner = Vec::new();
            for effect in body {
                effect_strings(effect, &mut inner);
            }
            out.push(format!(
                "(T -> forall ([{}]) : ({}))",
                vars.iter()
                    .map(variable_repr)
                    .collect::<Vec<_>>()
                    .join(", "),
                inner.join(", ")
            ));
        }
    }
}

/// `repr` of a tarski variable: its symbol and its sort's name.
fn variable_repr(var: &VarDecl) -> String {
    format!("{} ({})", var.name.text, var.sort.text)
}

fn atomic_effect_string(effect: &AtomicEffect, condition: &str) -> String {
    let body = match effect {
        AtomicEffect::Add(atom) => format!("ADD({})", atom_string(atom)),
        AtomicEffect::Delete(atom) => format!("DEL({})", atom_string(atom)),
        AtomicEffect::Assign { lhs, rhs, .. } => {
            // A number assigned is shown as a float (`:= 10.0`).
            let rhs = match rhs {
                Term::Number(number) => python::float_repr(number.text.parse().unwrap_or(0.0)),
                other => term_string(other),
            };
            format!("{} := {}", term_string(lhs), rhs)
        }
        AtomicEffect::Update { op, lhs, rhs, .. } => {
            let symbol = match op.text.as_str() {
                "increase" => "+",
                "decrease" => "-",
                "scale-up" => "*",
                _ => "/",
            };
            let lhs = term_string(lhs);
            format!("{lhs} := {symbol}({lhs}, {})", term_string(rhs))
        }
    };
    format!("({condition} -> {body})")
}

/// tarski's `str()` of a formula.
pub(crate) fn formula_string(formula: &Formula) -> String {
    match formula {
        Formula::Atom(atom) => atom_string(atom),
        Formula::And(parts, _) => match parts.as_slice() {
            [] => "T".to_string(),
            [only] => formula_string(only),
            _ => connective_string(parts, " and "),
        },
        Formula::Or(parts, _) => match parts.as_slice() {
            [] => "T".to_string(),
            [only] => formula_string(only),
            _ => connective_string(parts, " or "),
        },
        Formula::Not(inner, _) => format!("(not {})", formula_string(inner)),
        Formula::Imply(lhs, rhs, _) => {
            format!("((not {}) or {})", formula_string(lhs), formula_string(rhs))
        }
        Formula::Exists(vars, body, _) => quantified_string("exists", vars, body),
        Formula::Forall(vars, body, _) => quantified_string("forall", vars, body),
        Formula::Comparison { op, lhs, rhs } => {
            format!("{}({},{})", op.text, term_string(lhs), term_string(rhs))
        }
    }
}

fn connective_string(parts: &[Formula], connective: &str) -> String {
    let inner: Vec<String> = parts.iter().map(formula_string).collect();
    format!("({})", inner.join(connective))
}

fn quantified_string(quantifier: &str, vars: &[VarDecl], body: &Formula) -> String {
    let names: Vec<&str> = vars.iter().map(|v| v.name.text.as_str()).collect();
    format!(
        "{quantifier} {} : ({})",
        names.join(", "),
        formula_string(body)
    )
}

fn atom_string(atom: &Atom) -> String {
    let args: Vec<String> = atom.args.iter().map(term_string).collect();
    format!("{}({})", atom.predicate.text, args.join(","))
}

fn term_string(term: &Term) -> String {
    match term {
        Term::Constant(name) | Term::Variable(name) => name.text.clone(),
        Term::Number(number) => number_string(&number.text),
        Term::TimeStep(_) => "#t".to_string(),
        Term::Function { name, args, .. } => {
            let args: Vec<String> = args.iter().map(term_string).collect();
            format!("{}({})", name.text, args.join(", "))
        }
        Term::Arithmetic { op, lhs, rhs, .. } => {
            format!("{}({}, {})", op.text, term_string(lhs), term_string(rhs))
        }
        Term::Unary { op, .. } => format!("{}()", op.text),
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
    use super::{domain_strings, number_string};

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
        let keys: Vec<String> = strings
            .predicates
            .iter()
            .map(|(n, a)| format!("{n}_{a}"))
            .collect();
        assert_eq!(
            keys,
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
