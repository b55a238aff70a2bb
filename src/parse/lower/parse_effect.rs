//! Effects: conjunctions, universal, conditional, timed and numeric effects, adds and deletes.

use super::{Lower, P, R, next, unexpected};
use crate::ast::*;
use crate::parse::grammar::Rule;

impl<'s> Lower<'s> {
    pub(super) fn effect_slot(&mut self, pair: P<'s>) -> Option<Effect> {
        match pair.as_rule() {
            Rule::effect => match self.effect(pair) {
                Ok(effect) => Some(effect),
                Err(bug) => {
                    self.bug(bug);
                    None
                }
            },
            _ => {
                self.bad(&pair, Rule::effect_exact, "effect");
                None
            }
        }
    }

    fn effect(&mut self, pair: P<'s>) -> R<Effect> {
        let at = self.span(&pair);
        let form = next(&mut pair.into_inner(), at, "an effect")?;
        let mut inner = form.clone().into_inner();
        let kind = match form.as_rule() {
            Rule::empty_list => EffectKind::And { args: Vec::new() },
            Rule::and_effect => {
                inner.next();
                EffectKind::And {
                    args: inner.filter_map(|p| self.effect_slot(p)).collect(),
                }
            }
            Rule::forall_effect => {
                inner.next();
                let variables = self.typed_variables(next(&mut inner, at, "variables")?)?;
                let body = Box::new(self.effect(next(&mut inner, at, "an effect")?)?);
                EffectKind::Forall { variables, body }
            }
            Rule::when_effect => {
                inner.next();
                let condition = self.gd(next(&mut inner, at, "a condition")?)?;
                let body = Box::new(self.effect(next(&mut inner, at, "an effect")?)?);
                EffectKind::When { condition, body }
            }
            Rule::timed_effect => {
                let time = self.time_spec(&next(&mut inner, at, "a time specifier")?)?;
                let body = Box::new(self.effect(next(&mut inner, at, "an effect")?)?);
                EffectKind::Timed { time, body }
            }
            Rule::not_effect => {
                inner.next();
                EffectKind::Delete {
                    atom: self.atom(next(&mut inner, at, "an atom")?)?,
                }
            }
            Rule::numeric_effect => {
                let op_pair = next(&mut inner, at, "an assignment operator")?;
                let op = match op_pair.as_str().to_ascii_lowercase().as_str() {
                    "assign" => AssignOp::Assign,
                    "increase" => AssignOp::Increase,
                    "decrease" => AssignOp::Decrease,
                    "scale-up" => AssignOp::ScaleUp,
                    "scale-down" => AssignOp::ScaleDown,
                    _ => return unexpected(&op_pair, "an assignment operator"),
                };
                let target = self.expr(next(&mut inner, at, "a function term")?)?;
                let value = self.expr(next(&mut inner, at, "an expression")?)?;
                EffectKind::Numeric { op, target, value }
            }
            Rule::atom => EffectKind::Add {
                atom: self.atom(form)?,
            },
            _ => return unexpected(&form, "an effect"),
        };
        Ok(Effect { kind, span: at })
    }
}
