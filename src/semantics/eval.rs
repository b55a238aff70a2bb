//! Evaluation: whether a goal description holds, the value of a numeric expression, and what
//! a condition that does not hold lacks, written with its variables replaced by objects.

use super::{Binding, Eval, EvalError, Fact, State, World};
use crate::ast::*;

impl World<'_> {
    /// Whether `gd` holds in `state` under `binding`.
    pub fn holds(&self, gd: &Gd, binding: &mut Binding, state: &State) -> Eval<bool> {
        Ok(match &gd.kind {
            GdKind::Atom(atom) => {
                if atom.predicate.text == "=" {
                    let [left, right] = atom.args.as_slice() else {
                        return Err(EvalError::Unsupported(format!(
                            "`=` with {} argument{}",
                            atom.args.len(),
                            if atom.args.len() == 1 { "" } else { "s" }
                        )));
                    };
                    self.resolve(left, binding)? == self.resolve(right, binding)?
                } else {
                    self.fact_holds(&self.atom_fact(atom, binding)?, state)
                }
            }
            GdKind::And { args } => {
                for a in args {
                    if !self.holds(a, binding, state)? {
                        return Ok(false);
                    }
                }
                true
            }
            GdKind::Or { args } => {
                for a in args {
                    if self.holds(a, binding, state)? {
                        return Ok(true);
                    }
                }
                false
            }
            GdKind::Not { arg } => !self.holds(arg, binding, state)?,
            GdKind::Imply {
                condition,
                consequence,
            } => {
                !self.holds(condition, binding, state)?
                    || self.holds(consequence, binding, state)?
            }
            GdKind::Exists { variables, body } => {
                self.quantify(variables, body, binding, state, true)?
            }
            GdKind::Forall { variables, body } => {
                !self.quantify(variables, body, binding, state, false)?
            }
            GdKind::Compare { op, lhs, rhs } => {
                let (l, r) = (
                    self.value(lhs, binding, state)?,
                    self.value(rhs, binding, state)?,
                );
                // VAL compares with a tolerance of 0.0001 (`evaluateAtPointError`).
                const TOO_SMALL: f64 = 0.0001;
                let d = l - r;
                match op {
                    CompareOp::Eq => d.abs() < TOO_SMALL,
                    CompareOp::Lt => d < TOO_SMALL,
                    CompareOp::Gt => d > -TOO_SMALL,
                    CompareOp::Le => d <= TOO_SMALL,
                    CompareOp::Ge => d >= -TOO_SMALL,
                }
            }
            // A preference is soft: it never makes a condition fail.
            GdKind::Preference { .. } => true,
            GdKind::Timed { .. } => {
                return Err(EvalError::Unsupported(
                    "`at start`/`at end`/`over all`".into(),
                ));
            }
            GdKind::Modal { .. } => {
                return Err(EvalError::Unsupported("trajectory constraints".into()));
            }
        })
    }

    /// Whether an atom's fact is true in `state` (a derived one among its derived atoms).
    pub(crate) fn fact_holds(&self, fact: &Fact, state: &State) -> bool {
        if self.derived_predicates.contains(&fact[0]) {
            state.derived.contains(fact)
        } else {
            state.facts.contains(fact)
        }
    }

    /// `exists` (`want` true): some binding satisfies `body`. `forall` (`want` false): some
    /// binding falsifies it.
    fn quantify(
        &self,
        variables: &[Typed<Variable>],
        body: &Gd,
        binding: &mut Binding,
        state: &State,
        want: bool,
    ) -> Eval<bool> {
        // Looking for a binding under which `body` holds (`exists`), only those where its
        // conjuncts can hold matter; for a counterexample to `forall`, those where an
        // implication's condition can hold.
        let condition = match (&body.kind, want) {
            (_, true) => Some(body),
            (GdKind::Imply { condition, .. }, false) => Some(condition.as_ref()),
            _ => None,
        };
        self.each_binding_where(variables, condition, state, binding, &mut |binding| {
            Ok(self.holds(body, binding, state)? == want)
        })
    }

    pub fn value(&self, e: &Expr, binding: &Binding, state: &State) -> Eval<f64> {
        match &e.kind {
            ExprKind::Number(n) => Ok(n.value),
            ExprKind::Function(f) => {
                self.fluent_value(&self.function_fact(&f.name, &f.args, binding)?, state)
            }
            ExprKind::Term {
                term: Term::Name(n),
            } => self.fluent_value(&self.function_fact(n, &[], binding)?, state),
            ExprKind::Term {
                term: Term::Variable(v),
            } if v.name.key() == "duration" && binding.duration.is_some() => {
                Ok(binding.duration.unwrap_or_default())
            }
            ExprKind::Term {
                term: Term::Variable(v),
            } => Err(EvalError::Unsupported(format!(
                "the variable `?{}` as a number",
                v.name.text
            ))),
            ExprKind::Op { op, args } => {
                let values = args
                    .iter()
                    .map(|a| self.value(a, binding, state))
                    .collect::<Eval<Vec<f64>>>()?;
                Ok(match (op, values.as_slice()) {
                    (ArithOp::Sub, [x]) => -x,
                    (ArithOp::Sub, [x, rest @ ..]) => rest.iter().fold(*x, |a, b| a - b),
                    (ArithOp::Add, _) => values.iter().sum(),
                    (ArithOp::Mul, _) => values.iter().product(),
                    (ArithOp::Div, [x, y]) => {
                        if *y == 0.0 {
                            return Err(EvalError::Arithmetic("division by zero".into()));
                        }
                        x / y
                    }
                    (ArithOp::Pow, [x, y]) => x.powf(*y),
                    _ => {
                        return Err(EvalError::Unsupported(
                            "an operator with this many arguments".into(),
                        ));
                    }
                })
            }
            ExprKind::TotalTime => Err(EvalError::Unsupported(
                "`total-time` inside an action".into(),
            )),
            ExprKind::IsViolated { .. } => Err(EvalError::Unsupported("`is-violated`".into())),
            ExprKind::Time => Err(EvalError::Unsupported("`#t`".into())),
            ExprKind::Call { function, .. } => {
                Err(EvalError::Unsupported(format!("`{}`", function.text)))
            }
        }
    }

    /// The value of a fluent in `state`; reading one that has none is an error.
    fn fluent_value(&self, fact: &Fact, state: &State) -> Eval<f64> {
        state
            .values
            .get(fact)
            .copied()
            .ok_or_else(|| EvalError::Undefined(self.show_value(fact)))
    }

    /// The ground atoms and conditions of `gd` that do not hold: what a failed precondition or
    /// goal lacks, as VAL's repair advice lists it.
    pub fn unsatisfied(
        &self,
        gd: &Gd,
        binding: &mut Binding,
        state: &State,
        out: &mut Vec<(String, Span)>,
    ) {
        match &gd.kind {
            GdKind::And { args } => {
                for a in args {
                    self.unsatisfied(a, binding, state, out);
                }
            }
            _ => match self.holds(gd, binding, state) {
                Ok(true) => {}
                Ok(false) => out.push((self.show_failed(gd, binding, state), gd.span)),
                Err(e) => out.push((format!("{} ({e})", self.show_gd(gd, binding)), gd.span)),
            },
        }
    }

    /// A condition that does not hold, as `show_gd` writes it; a comparison also gets the
    /// current values of the fluents it reads, which decide it, as VAL reports them:
    /// `(>= (fuel plane1) (* 810 4)) [fuel plane1 = 1288]`.
    fn show_failed(&self, gd: &Gd, binding: &Binding, state: &State) -> String {
        let shown = self.show_gd(gd, binding);
        let GdKind::Compare { lhs, rhs, .. } = &gd.kind else {
            return shown;
        };
        let mut facts = Vec::new();
        self.fluents(lhs, binding, &mut facts);
        self.fluents(rhs, binding, &mut facts);
        let values: Vec<String> = facts
            .iter()
            .map(|fact| {
                let name = self.show_value(fact);
                let name = &name[1..name.len() - 1];
                match state.values.get(fact) {
                    Some(value) => format!("{name} = {value}"),
                    None => format!("{name} undefined"),
                }
            })
            .collect();
        if values.is_empty() {
            shown
        } else {
            format!("{shown} [{}]", values.join(", "))
        }
    }

    /// The ground fluents an expression reads, each once, in order.
    fn fluents(&self, e: &Expr, binding: &Binding, out: &mut Vec<Fact>) {
        let fact = match &e.kind {
            ExprKind::Function(f) => self.function_fact(&f.name, &f.args, binding),
            ExprKind::Term {
                term: Term::Name(n),
            } => self.function_fact(n, &[], binding),
            ExprKind::Op { args, .. } | ExprKind::Call { args, .. } => {
                for a in args {
                    self.fluents(a, binding, out);
                }
                return;
            }
            _ => return,
        };
        if let Ok(fact) = fact
            && !out.contains(&fact)
        {
            out.push(fact);
        }
    }

    /// A numeric expression with its bound variables replaced by their objects; `None` for
    /// the forms that print only as written.
    fn show_expr(&self, e: &Expr, binding: &Binding) -> Option<String> {
        let term = |t: &Term| match self.resolve(t, binding) {
            Ok(o) => self.objects[o as usize].clone(),
            Err(_) => match t {
                Term::Variable(v) => format!("?{}", v.name.text),
                Term::Name(n) => n.text.to_string(),
            },
        };
        Some(match &e.kind {
            ExprKind::Number(n) => n.text.clone(),
            ExprKind::Term { term: t } => term(t),
            ExprKind::Function(f) => {
                let mut out = format!("({}", f.name.text.to_lowercase());
                for a in &f.args {
                    out.push(' ');
                    out.push_str(&term(a));
                }
                out.push(')');
                out
            }
            ExprKind::Op { op, args } => {
                let parts = args
                    .iter()
                    .map(|a| self.show_expr(a, binding))
                    .collect::<Option<Vec<String>>>()?;
                format!("({} {})", op.symbol(), parts.join(" "))
            }
            _ => return None,
        })
    }

    /// A condition with its bound variables replaced by their objects.
    pub fn show_gd(&self, gd: &Gd, binding: &Binding) -> String {
        match &gd.kind {
            GdKind::Atom(atom) => {
                let mut out = format!("({}", atom.predicate.text.to_lowercase());
                for a in &atom.args {
                    out.push(' ');
                    match self.resolve(a, binding) {
                        Ok(o) => out.push_str(&self.objects[o as usize]),
                        Err(_) => out.push_str(&match a {
                            Term::Variable(v) => format!("?{}", v.name.text),
                            Term::Name(n) => n.text.to_string(),
                        }),
                    }
                }
                out.push(')');
                out
            }
            GdKind::Not { arg } => format!("(not {})", self.show_gd(arg, binding)),
            GdKind::Compare { op, lhs, rhs } => {
                match (self.show_expr(lhs, binding), self.show_expr(rhs, binding)) {
                    (Some(l), Some(r)) => format!("({} {l} {r})", op.symbol()),
                    _ => crate::fmt::gd_text(gd),
                }
            }
            GdKind::And { args } | GdKind::Or { args } => {
                let op = if matches!(gd.kind, GdKind::And { .. }) {
                    "and"
                } else {
                    "or"
                };
                let parts: Vec<String> = args.iter().map(|a| self.show_gd(a, binding)).collect();
                format!("({op} {})", parts.join(" "))
            }
            _ => {
                // Other forms print as written.
                crate::fmt::gd_text(gd)
            }
        }
    }
}
