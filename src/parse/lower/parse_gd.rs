//! Goal descriptions: connectives, quantifiers, comparisons, preferences, timed and modal
//! conditions, and atoms.

use super::{Bug, Lower, P, R, next, unexpected};
use crate::ast::*;
use crate::parse::grammar::Rule;
use pest::iterators::Pairs;

impl<'s> Lower<'s> {
    pub(super) fn gd_slot(&mut self, pair: P<'s>) -> Option<Gd> {
        match pair.as_rule() {
            Rule::gd => match self.gd(pair) {
                Ok(gd) => Some(gd),
                Err(bug) => {
                    self.bug(bug);
                    None
                }
            },
            _ => {
                self.bad(&pair, Rule::gd_exact, "goal description");
                None
            }
        }
    }

    fn gd_list(&mut self, pairs: Pairs<'s, Rule>) -> Vec<Gd> {
        pairs.filter_map(|p| self.gd_slot(p)).collect()
    }

    pub(super) fn gd(&mut self, pair: P<'s>) -> R<Gd> {
        let at = self.span(&pair);
        let form = next(&mut pair.into_inner(), at, "a goal description")?;
        let mut inner = form.clone().into_inner();
        let kind = match form.as_rule() {
            Rule::empty_list => GdKind::And { args: Vec::new() },
            Rule::and_gd => {
                inner.next();
                GdKind::And {
                    args: self.gd_list(inner),
                }
            }
            Rule::or_gd => {
                inner.next();
                GdKind::Or {
                    args: self.gd_list(inner),
                }
            }
            Rule::not_gd => {
                inner.next();
                GdKind::Not {
                    arg: Box::new(self.gd(next(&mut inner, at, "a goal description")?)?),
                }
            }
            Rule::imply_gd => {
                inner.next();
                let condition = self.gd(next(&mut inner, at, "a condition")?)?;
                let consequence = self.gd(next(&mut inner, at, "a consequence")?)?;
                GdKind::Imply {
                    condition: Box::new(condition),
                    consequence: Box::new(consequence),
                }
            }
            Rule::exists_gd | Rule::forall_gd => {
                let keyword = next(&mut inner, at, "a quantifier")?;
                let variables = self.typed_variables(next(&mut inner, at, "variables")?)?;
                let body = Box::new(self.gd(next(&mut inner, at, "a goal description")?)?);
                if keyword.as_rule() == Rule::kw_exists {
                    GdKind::Exists { variables, body }
                } else {
                    GdKind::Forall { variables, body }
                }
            }
            Rule::preference_gd => {
                inner.next();
                let first = next(&mut inner, at, "a preference")?;
                let (name, body) = if first.as_rule() == Rule::name {
                    let body = next(&mut inner, at, "a goal description")?;
                    (Some(self.name(&first)), body)
                } else {
                    (None, first)
                };
                GdKind::Preference {
                    name,
                    body: Box::new(self.gd(body)?),
                }
            }
            Rule::timed_gd => {
                let time = self.time_spec(&next(&mut inner, at, "a time specifier")?)?;
                let body = Box::new(self.gd(next(&mut inner, at, "a goal description")?)?);
                GdKind::Timed { time, body }
            }
            Rule::modal_gd => {
                let op_pair = next(&mut inner, at, "a modal operator")?;
                let op = modal_op(op_pair.as_str()).ok_or(Bug {
                    span: self.span(&op_pair),
                    expected: "a modal operator",
                })?;
                let mut numbers = Vec::new();
                let mut args = Vec::new();
                for child in inner {
                    match child.as_rule() {
                        Rule::number => numbers.push(self.number(&child)),
                        _ => args.push(self.gd(child)?),
                    }
                }
                GdKind::Modal { op, numbers, args }
            }
            Rule::atom => GdKind::Atom(self.atom(form)?),
            Rule::comparison => {
                let op_pair = next(&mut inner, at, "a comparison operator")?;
                let op = match op_pair.as_str() {
                    "=" => CompareOp::Eq,
                    "<" => CompareOp::Lt,
                    ">" => CompareOp::Gt,
                    "<=" => CompareOp::Le,
                    ">=" => CompareOp::Ge,
                    _ => return unexpected(&op_pair, "a comparison operator"),
                };
                let lhs = self.expr(next(&mut inner, at, "an expression")?)?;
                let rhs = self.expr(next(&mut inner, at, "an expression")?)?;
                GdKind::Compare {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                }
            }
            _ => return unexpected(&form, "a goal description"),
        };
        Ok(Gd { kind, span: at })
    }

    pub(super) fn time_spec(&self, pair: &P) -> R<TimeSpec> {
        let words: Vec<Rule> = pair.clone().into_inner().map(|p| p.as_rule()).collect();
        match words.as_slice() {
            [Rule::kw_at, Rule::kw_start] => Ok(TimeSpec::AtStart),
            [Rule::kw_at, Rule::kw_end] => Ok(TimeSpec::AtEnd),
            [Rule::kw_over, Rule::kw_all] => Ok(TimeSpec::OverAll),
            _ => unexpected(pair, "a time specifier"),
        }
    }

    pub(super) fn atom(&self, pair: P) -> R<Atom> {
        let at = self.span(&pair);
        let mut inner = pair.into_inner();
        let predicate = self.name(&next(&mut inner, at, "a predicate")?);
        let args = inner.map(|p| self.term(&p)).collect::<R<Vec<_>>>()?;
        Ok(Atom {
            predicate,
            args,
            span: at,
        })
    }
}

fn modal_op(text: &str) -> Option<ModalOp> {
    Some(match text.to_ascii_lowercase().as_str() {
        "always" => ModalOp::Always,
        "sometime" => ModalOp::Sometime,
        "within" => ModalOp::Within,
        "at-most-once" => ModalOp::AtMostOnce,
        "sometime-after" => ModalOp::SometimeAfter,
        "sometime-before" => ModalOp::SometimeBefore,
        "always-within" => ModalOp::AlwaysWithin,
        "hold-during" => ModalOp::HoldDuring,
        "hold-after" => ModalOp::HoldAfter,
        _ => return None,
    })
}
