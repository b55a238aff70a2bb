//! Numeric expressions: function terms, calls, arithmetic and its operator arity.

use super::{Lower, P, R, next, unexpected};
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic};
use crate::parse::grammar::Rule;

impl<'s> Lower<'s> {
    fn function_term(&self, pair: P) -> R<FunctionTerm> {
        let at = self.span(&pair);
        let mut inner = pair.into_inner();
        let name = self.name(&next(&mut inner, at, "a function name")?);
        let args = inner.map(|p| self.term(&p)).collect::<R<Vec<_>>>()?;
        Ok(FunctionTerm {
            name,
            args,
            span: at,
        })
    }

    pub(super) fn expr(&mut self, pair: P) -> R<Expr> {
        let at = self.span(&pair);
        let form = match pair.as_rule() {
            Rule::f_exp | Rule::f_head => next(&mut pair.into_inner(), at, "an expression")?,
            _ => pair,
        };
        let kind = match form.as_rule() {
            Rule::number => ExprKind::Number(self.number(&form)),
            Rule::variable | Rule::name => ExprKind::Term {
                term: self.term(&form)?,
            },
            Rule::function_term => ExprKind::Function(self.function_term(form)?),
            Rule::total_time => ExprKind::TotalTime,
            Rule::time_token | Rule::paren_time => ExprKind::Time,
            Rule::function_call => {
                let mut inner = form.into_inner();
                let function = self.name(&next(&mut inner, at, "a function name")?);
                let args = inner.map(|p| self.expr(p)).collect::<R<Vec<_>>>()?;
                ExprKind::Call { function, args }
            }
            Rule::is_violated => {
                let mut inner = form.into_inner();
                inner.next();
                let name = next(&mut inner, at, "a preference name")?;
                ExprKind::IsViolated {
                    preference: self.name(&name),
                }
            }
            Rule::arith_exp => {
                let mut inner = form.into_inner();
                let op_pair = next(&mut inner, at, "an operator")?;
                let op = match op_pair.as_str() {
                    "+" => ArithOp::Add,
                    "-" => ArithOp::Sub,
                    "*" => ArithOp::Mul,
                    "/" => ArithOp::Div,
                    "^" => ArithOp::Pow,
                    _ => return unexpected(&op_pair, "an arithmetic operator"),
                };
                let args = inner.map(|p| self.expr(p)).collect::<R<Vec<_>>>()?;
                self.check_arity(op, args.len(), at);
                ExprKind::Op { op, args }
            }
            _ => return unexpected(&form, "an expression"),
        };
        Ok(Expr { kind, span: at })
    }

    fn check_arity(&mut self, op: ArithOp, count: usize, at: Span) {
        let (ok, expected) = match op {
            ArithOp::Sub => (count == 1 || count == 2, "one or two arguments"),
            ArithOp::Div | ArithOp::Pow => (count == 2, "two arguments"),
            ArithOp::Add | ArithOp::Mul => (count >= 2, "two or more arguments"),
        };
        if !ok {
            self.diagnostics.push(
                Diagnostic::new(
                    Code::OperatorArity,
                    format!("`{}` takes {expected}, found {count}", op.symbol()),
                    at,
                )
                .with_help(format!("write `({} a b)`", op.symbol())),
            );
        }
    }
}
