//! Tokens and typed lists: names, variables, numbers, terms, types, `a b - t` groups.

use super::{Bug, Lower, P, R, unexpected};
use crate::ast::*;
use crate::parse::grammar::Rule;

impl<'s> Lower<'s> {
    pub(super) fn name(&self, pair: &P) -> Name {
        Name::new(pair.as_str(), self.span(pair))
    }

    fn variable(&self, pair: &P) -> Variable {
        let text = pair.as_str();
        Variable {
            name: Name::new(text.strip_prefix('?').unwrap_or(text), self.span(pair)),
        }
    }

    pub(super) fn number(&self, pair: &P) -> Number {
        let text = pair.as_str();
        Number {
            text: text.to_string(),
            value: text.parse().unwrap_or(f64::NAN),
            span: self.span(pair),
        }
    }

    pub(super) fn term(&self, pair: &P) -> R<Term> {
        match pair.as_rule() {
            Rule::variable => Ok(Term::Variable(self.variable(pair))),
            Rule::name => Ok(Term::Name(self.name(pair))),
            _ => unexpected(pair, "a term"),
        }
    }

    pub(super) fn type_spec(&self, pair: P) -> R<Type> {
        match pair.as_rule() {
            Rule::name => Ok(Type::Name(self.name(&pair))),
            Rule::either_type => {
                let at = self.span(&pair);
                let types = pair
                    .into_inner()
                    .filter(|p| p.as_rule() == Rule::name)
                    .map(|p| self.name(&p))
                    .collect();
                Ok(Type::Either { types, span: at })
            }
            _ => unexpected(&pair, "a type"),
        }
    }

    /// A typed list of names or variables: groups `a b - t` followed by untyped items.
    fn typed<T>(&self, pair: P, item: impl Fn(&Self, &P) -> T) -> R<Vec<Typed<T>>> {
        let mut list = Vec::new();
        for child in pair.into_inner() {
            match child.as_rule() {
                Rule::typed_name_group | Rule::typed_variable_group => {
                    let mut members: Vec<P> = child.into_inner().collect();
                    let ty = match members.pop() {
                        Some(ty) => self.type_spec(ty)?,
                        None => {
                            return Err(Bug {
                                span: Span::default(),
                                expected: "a type",
                            });
                        }
                    };
                    list.extend(members.iter().map(|m| Typed {
                        item: item(self, m),
                        ty: Some(ty.clone()),
                    }));
                }
                _ => list.push(Typed {
                    item: item(self, &child),
                    ty: None,
                }),
            }
        }
        Ok(list)
    }

    pub(super) fn typed_names(&self, pair: P) -> R<Vec<Typed<Name>>> {
        self.typed(pair, |s, p| s.name(p))
    }

    pub(super) fn typed_variables(&self, pair: P) -> R<Vec<Typed<Variable>>> {
        self.typed(pair, |s, p| s.variable(p))
    }
}
