//! Problems: their sections, the initial state, the metric and `:length`.

use super::parse_sections::Definition;
use super::{Lower, P, R, Seen, next, unexpected};
use crate::ast::*;
use crate::parse::grammar::Rule;

impl<'s> Lower<'s> {
    pub(super) fn problem(&mut self, pair: P<'s>) -> R<Problem> {
        let at = self.span(&pair);
        let mut inner = pair.into_inner();
        next(&mut inner, at, "`define`")?;
        next(&mut inner, at, "`problem`")?;
        let name = self.name(&next(&mut inner, at, "a problem name")?);
        let mut problem = Problem {
            name,
            domain: None,
            requirements: Vec::new(),
            objects: Vec::new(),
            init: Vec::new(),
            goal: None,
            constraints: None,
            metric: None,
            length: None,
            span: at,
        };
        let mut seen = Seen::default();
        for section in inner {
            let section_span = self.span(&section);
            let keyword = section
                .clone()
                .into_inner()
                .next()
                .map(|k| k.as_str().to_string())
                .unwrap_or_default();
            match section.as_rule() {
                Rule::problem_domain => {
                    let name = section.into_inner().nth(1).map(|p| self.name(&p));
                    if self.single(&mut seen, &keyword, section_span) {
                        problem.domain = name;
                    }
                }
                Rule::requirements_def => {
                    self.repeated(&mut seen, &keyword, section_span);
                    problem.requirements.extend(self.requirements(section));
                }
                Rule::objects_def => {
                    self.repeated(&mut seen, &keyword, section_span);
                    let list = self.list_section(section)?;
                    problem.objects.extend(list);
                }
                Rule::init_def => {
                    self.repeated(&mut seen, &keyword, section_span);
                    for item in section.into_inner().skip(1) {
                        match item.as_rule() {
                            Rule::bad_item => self.bad(&item, Rule::init_exact, "initial fact"),
                            _ => {
                                let init = self.init(item)?;
                                problem.init.push(init);
                            }
                        }
                    }
                }
                Rule::goal_def => {
                    let gd = self.slot_section(section);
                    if self.single(&mut seen, &keyword, section_span) {
                        problem.goal = gd;
                    }
                }
                Rule::constraints_def => {
                    let gd = self.slot_section(section);
                    if self.single(&mut seen, &keyword, section_span) {
                        problem.constraints = gd;
                    }
                }
                Rule::metric_def => {
                    let metric = self.metric(section)?;
                    if self.single(&mut seen, &keyword, section_span) {
                        problem.metric = Some(metric);
                    }
                }
                Rule::length_def => {
                    let length = self.length(section);
                    if self.single(&mut seen, &keyword, section_span) {
                        problem.length = Some(length);
                    }
                }
                Rule::bad_problem_section => self.bad_section(&section, Definition::Problem),
                _ => return unexpected(&section, "a problem section"),
            }
        }
        Ok(problem)
    }

    fn init(&mut self, pair: P<'s>) -> R<Init> {
        let at = self.span(&pair);
        let rule = pair.as_rule();
        let mut inner = pair.clone().into_inner();
        let kind = match rule {
            Rule::atom => InitKind::Atom(self.atom(pair)?),
            Rule::not_init => {
                inner.next();
                InitKind::Not {
                    atom: self.atom(next(&mut inner, at, "an atom")?)?,
                }
            }
            Rule::numeric_init => {
                let target = self.expr(next(&mut inner, at, "a function term")?)?;
                let value_pair = next(&mut inner, at, "a value")?;
                let value_span = self.span(&value_pair);
                let value = match value_pair.as_rule() {
                    Rule::number => ExprKind::Number(self.number(&value_pair)),
                    _ => ExprKind::Term {
                        term: self.term(&value_pair)?,
                    },
                };
                InitKind::Assign {
                    target: Box::new(target),
                    value: Box::new(Expr {
                        kind: value,
                        span: value_span,
                    }),
                }
            }
            Rule::timed_init => {
                inner.next();
                let time = self.number(&next(&mut inner, at, "a time")?);
                let fact = self.init(next(&mut inner, at, "a fact")?)?;
                InitKind::At {
                    time,
                    fact: Box::new(fact),
                }
            }
            _ => return unexpected(&pair, "an initial fact"),
        };
        Ok(Init { kind, span: at })
    }

    fn metric(&mut self, pair: P) -> R<Metric> {
        let at = self.span(&pair);
        let mut inner = pair.into_inner();
        next(&mut inner, at, "`:metric`")?;
        let direction = next(&mut inner, at, "`minimize` or `maximize`")?;
        let optimization = match direction.as_rule() {
            Rule::kw_minimize => Optimization::Minimize,
            _ => Optimization::Maximize,
        };
        let expr = self.expr(next(&mut inner, at, "an expression")?)?;
        Ok(Metric {
            optimization,
            expr,
            span: at,
        })
    }

    fn length(&self, pair: P) -> Length {
        let mut length = Length {
            serial: None,
            parallel: None,
            span: self.span(&pair),
        };
        for item in pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::length_item)
        {
            let mut inner = item.into_inner();
            let (Some(kind), Some(number)) = (inner.next(), inner.next()) else {
                continue;
            };
            let number = Some(self.number(&number));
            if kind.as_rule() == Rule::kw_s_serial {
                length.serial = number;
            } else {
                length.parallel = number;
            }
        }
        length
    }
}
