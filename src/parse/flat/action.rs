//! The fast path for the structures grounded domains write thousands of: actions such as
//! `(:action name :parameters (?x - t) :precondition (and (p ?x) (not (q ?x))) :effect (and
//! (r ?x) (not (p ?x)) (increase (total-cost) 1)))` and derived predicates such as
//! `(:derived (p ?x) (and (q ?x) (not (r ?x))))`. Each part at most once; a precondition or a
//! derived predicate's body is `()`, a literal or a conjunction of literals; an effect is `()`,
//! an add, a delete or an assignment of a number or a function term to a function term, or a
//! conjunction of those. Anything else leaves the structure to pest.

use super::{Reader, word_after};
use crate::ast::*;

/// Predicates that open a numeric effect in the grammar (`(increase a b)` is one), so never
/// read here as an atom in an effect.
const ASSIGN_OPS: &[(&[u8], AssignOp)] = &[
    (b"assign", AssignOp::Assign),
    (b"increase", AssignOp::Increase),
    (b"decrease", AssignOp::Decrease),
    (b"scale-up", AssignOp::ScaleUp),
    (b"scale-down", AssignOp::ScaleDown),
];

/// Words that, after `(`, make an expression other than a function term (the grammar's
/// `total_time` and `is_violated` come before `function_term` in `f_exp`).
const NOT_FUNCTIONS: &[&[u8]] = &[b"total-time", b"is-violated"];

impl Reader<'_> {
    /// A `:keyword` token ending at a delimiter, as a byte range.
    fn keyword(&mut self) -> Option<(usize, usize)> {
        self.skip();
        let start = self.at;
        if self.peek()? != b':' {
            return None;
        }
        let word = word_after(self.bytes, start);
        if word.0 != start || word.1 == start + 1 {
            return None;
        }
        self.at = word.1;
        Some(word)
    }

    fn keyword_is(&self, word: (usize, usize), keyword: &[u8]) -> bool {
        self.bytes[word.0..word.1].eq_ignore_ascii_case(keyword)
    }

    /// `(` and the section keyword `keyword` at the cursor.
    fn structure_head(&mut self, keyword: &[u8]) -> Option<()> {
        self.consume(b'(')?;
        let word = self.keyword()?;
        self.keyword_is(word, keyword).then_some(())
    }

    /// The action whose `(` is at the cursor and whose `)` ends just before `end`.
    pub(super) fn action(&mut self, end: usize) -> Option<Action> {
        let start = self.at;
        self.structure_head(b":action")?;
        let mut action = Action {
            name: self.name()?,
            parameters: Vec::new(),
            vars: Vec::new(),
            precondition: None,
            effect: None,
            span: Span::new(start, end),
        };
        let (mut parameters, mut precondition, mut effect) = (false, false, false);
        loop {
            self.skip();
            if self.peek()? == b')' {
                break;
            }
            let part = self.keyword()?;
            if self.keyword_is(part, b":parameters") && !parameters {
                parameters = true;
                self.consume(b'(')?;
                action.parameters = self.typed_variables()?;
            } else if self.keyword_is(part, b":precondition") && !precondition {
                precondition = true;
                action.precondition = Some(self.condition()?);
            } else if self.keyword_is(part, b":effect") && !effect {
                effect = true;
                action.effect = Some(self.effect()?);
            } else {
                return None;
            }
        }
        self.at += 1;
        (self.at == end).then_some(action)
    }

    /// `?a ?b - t ?c` up to and including the `)`.
    fn typed_variables(&mut self) -> Option<Vec<Typed<Variable>>> {
        let mut list: Vec<Typed<Variable>> = Vec::new();
        let mut pending = 0;
        loop {
            self.skip();
            match self.peek()? {
                b')' => break,
                b'-' => {
                    self.at += 1;
                    if pending == 0 || !self.peek().is_some_and(super::is_space) {
                        return None;
                    }
                    let ty = Type::Name(self.name()?);
                    let from = list.len() - pending;
                    for typed in &mut list[from..] {
                        typed.ty = Some(ty.clone());
                    }
                    pending = 0;
                }
                b'?' => {
                    let Term::Variable(variable) = self.term()? else {
                        return None;
                    };
                    list.push(Typed {
                        item: variable,
                        ty: None,
                    });
                    pending += 1;
                }
                _ => return None,
            }
        }
        self.at += 1;
        list.shrink_to_fit();
        Some(list)
    }

    /// The word after the `(` at the cursor, when the cursor is at a `(`.
    fn head(&mut self) -> Option<(usize, usize)> {
        self.skip();
        if self.peek()? != b'(' {
            return None;
        }
        Some(word_after(self.bytes, self.at + 1))
    }

    /// `()` at the cursor: its span, past its `)`.
    fn empty_list(&mut self) -> Option<Span> {
        let start = self.at;
        self.consume(b'(')?;
        self.consume(b')')?;
        Some(Span::new(start, self.at))
    }

    /// A precondition: `()`, a literal, or `(and literal…)`.
    fn condition(&mut self) -> Option<Gd> {
        let head = self.head()?;
        if head.0 == head.1 {
            let span = self.empty_list()?;
            return Some(Gd {
                kind: GdKind::And { args: Vec::new() },
                span,
            });
        }
        if !self.keyword_is(head, b"and") {
            return self.literal();
        }
        let (args, span) = self.conjunction(head, Self::literal)?;
        Some(Gd {
            kind: GdKind::And { args },
            span,
        })
    }

    /// The parts of the `(and …` whose head word is `head`, each read by `part`, and the
    /// conjunction's span, past its `)`.
    fn conjunction<T>(
        &mut self,
        head: (usize, usize),
        part: fn(&mut Self) -> Option<T>,
    ) -> Option<(Vec<T>, Span)> {
        let start = self.at;
        self.at = head.1;
        let mut parts = Vec::new();
        loop {
            self.skip();
            if self.peek()? == b')' {
                break;
            }
            parts.push(part(self)?);
        }
        self.at += 1;
        parts.shrink_to_fit();
        Some((parts, Span::new(start, self.at)))
    }

    /// An atom or `(not atom)` in a condition or a goal.
    pub(super) fn literal(&mut self) -> Option<Gd> {
        let head = self.head()?;
        if !self.keyword_is(head, b"not") {
            return self.goal_atom();
        }
        let start = self.at;
        self.at = head.1;
        let atom = self.goal_atom()?;
        self.consume(b')')?;
        Some(Gd {
            kind: GdKind::Not {
                arg: Box::new(atom),
            },
            span: Span::new(start, self.at),
        })
    }

    /// An effect: `()`, an add or delete, or `(and …)` of them.
    fn effect(&mut self) -> Option<Effect> {
        let head = self.head()?;
        if head.0 == head.1 {
            let span = self.empty_list()?;
            return Some(Effect {
                kind: EffectKind::And { args: Vec::new() },
                span,
            });
        }
        if !self.keyword_is(head, b"and") {
            return self.effect_literal();
        }
        let (args, span) = self.conjunction(head, Self::effect_literal)?;
        Some(Effect {
            kind: EffectKind::And { args },
            span,
        })
    }

    /// `(p a)` adds, `(not (p a))` deletes.
    fn effect_literal(&mut self) -> Option<Effect> {
        let head = self.head()?;
        if let Some(op) = ASSIGN_OPS
            .iter()
            .find(|(word, _)| self.keyword_is(head, word))
        {
            return self.numeric_effect(head, op.1);
        }
        let start = self.at;
        let deletes = self.keyword_is(head, b"not");
        if deletes {
            self.at = head.1;
        }
        let Gd {
            kind: GdKind::Atom(atom),
            span,
        } = self.goal_atom()?
        else {
            return None;
        };
        if !deletes {
            return Some(Effect {
                kind: EffectKind::Add { atom },
                span,
            });
        }
        self.consume(b')')?;
        Some(Effect {
            kind: EffectKind::Delete { atom },
            span: Span::new(start, self.at),
        })
    }

    /// `(increase (f a) 1)` and the other assignments whose head word is `head`: a function
    /// term or bare name as the target, a number or a function term as the value, as action
    /// costs write them (`(increase (total-cost) (distance ?a ?b))`).
    fn numeric_effect(&mut self, head: (usize, usize), op: AssignOp) -> Option<Effect> {
        let start = self.at;
        self.at = head.1;
        if !self.peek().is_some_and(super::is_space) {
            return None;
        }
        let target = self.function_head()?;
        let value = match self.head() {
            Some(word) if word.0 == word.1 => return None,
            Some(word) if NOT_FUNCTIONS.iter().any(|w| self.keyword_is(word, w)) => return None,
            Some(_) => {
                let value = self.function_head()?;
                matches!(value.kind, ExprKind::Function(_)).then_some(value)?
            }
            None => self.number_expr()?,
        };
        self.consume(b')')?;
        Some(Effect {
            kind: EffectKind::Numeric { op, target, value },
            span: Span::new(start, self.at),
        })
    }

    /// The derived predicate whose `(` is at the cursor and whose `)` ends just before `end`:
    /// `(:derived (p ?x - t) body)` with a body as a precondition's.
    /// `(p ?x ?y - t)`: a predicate's name and typed parameters.
    fn skeleton(&mut self) -> Option<AtomicSkeleton> {
        self.skip();
        let start = self.at;
        self.consume(b'(')?;
        let name = self.name()?;
        let parameters = self.typed_variables()?;
        Some(AtomicSkeleton {
            name,
            parameters,
            span: Span::new(start, self.at),
        })
    }

    /// The body of a domain's `(:predicates …)` section: skeletons up to `end`.
    pub(super) fn predicates(&mut self, end: usize) -> Option<Vec<AtomicSkeleton>> {
        let mut list = Vec::new();
        while !self.at_end(end) {
            list.push(self.skeleton()?);
        }
        (self.at == end).then_some(list)
    }

    pub(super) fn derived(&mut self, end: usize) -> Option<Derived> {
        let start = self.at;
        self.structure_head(b":derived")?;
        let predicate = self.skeleton()?;
        let body = self.condition()?;
        self.consume(b')')?;
        (self.at == end).then_some(Derived {
            predicate,
            body,
            span: Span::new(start, end),
        })
    }
}
