//! The walk over numeric expressions: function terms, math functions, operands that must be
//! numbers.

use super::domain::{At, Checker, Scope, Signature};
use super::suggest;
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic};

/// Names of math functions that ENHSP accepts in expressions without a declaration.
const MATH_FUNCTIONS: &[&str] = &[
    "sin", "cos", "tan", "sqrt", "abs", "exp", "log", "pow", "min", "max",
];

impl<'a> Checker<'a> {
    pub fn expr(&mut self, e: &Expr, scope: &mut Scope, at: At) {
        match &e.kind {
            ExprKind::Number(_) | ExprKind::TotalTime | ExprKind::IsViolated { .. } => {}
            ExprKind::Time => {
                self.need(&[":continuous-effects"], at.file, e.span, "`#t`");
            }
            ExprKind::Term { term } => match term {
                Term::Variable(_) => {
                    self.term(term, scope, at);
                }
                // A bare name: a 0-ary function written without parentheses, or an object.
                Term::Name(n) => {
                    let signatures = self.function_signatures(&n.key());
                    if signatures.is_empty() {
                        self.term(term, scope, at);
                    } else {
                        self.function_use(n, &signatures, &[], e.span, scope, at);
                    }
                }
            },
            ExprKind::Function(f) => self.function_term(f, scope, at),
            ExprKind::Call { function, args } => {
                let key = function.key();
                let signatures = self.function_signatures(&key);
                if let Some(first) = signatures.first() {
                    if !signatures.iter().any(|s| s.0.len() == args.len()) {
                        self.push(
                            Diagnostic::new(
                                Code::ArityMismatch,
                                format!(
                                    "function `{}` takes {} arguments, found {}",
                                    function.text,
                                    first.0.len(),
                                    args.len()
                                ),
                                e.span,
                            )
                            .in_file(at.file)
                            .with_label_in(self.file, first.1, "declared here")
                            .with_help(super::goals::signature_help(&function.text, first.0)),
                        );
                    }
                } else if !MATH_FUNCTIONS.contains(&key.as_str()) {
                    self.undeclared_function(function, at);
                }
                for arg in args {
                    self.expr(arg, scope, at);
                }
            }
            ExprKind::Op { args, .. } => {
                for arg in args {
                    self.numeric_operand(arg, at);
                    self.expr(arg, scope, at);
                }
            }
        }
    }

    /// Whether the expression is an object-valued function's value, `(loc ?b)` of
    /// `(:functions (loc ?b - block) - place)`: PDDL 3.1's object fluents.
    pub(super) fn object_valued(&self, e: &Expr) -> bool {
        let name = match &e.kind {
            ExprKind::Function(f) => &f.name,
            _ => return false,
        };
        self.functions
            .get(&name.key())
            .and_then(|all| all.first())
            .and_then(|f| f.ty.as_ref())
            .is_some_and(|ty| !matches!(ty, Type::Name(n) if n.is("number")))
    }

    /// An operand of arithmetic must be numeric: not an object-valued function.
    fn numeric_operand(&mut self, e: &Expr, at: At) {
        let name = match &e.kind {
            ExprKind::Function(f) => &f.name,
            ExprKind::Term {
                term: Term::Name(n),
            } => n,
            _ => return,
        };
        if let Some(f) = self.functions.get(&name.key()).and_then(|all| all.first())
            && let Some(ty) = &f.ty
            && !matches!(ty, Type::Name(n) if n.is("number"))
        {
            let declared = f.name.span;
            self.push(
                Diagnostic::new(
                    Code::NonNumericFluent,
                    format!("function `{}` has object values, not numbers", name.text),
                    e.span,
                )
                .in_file(at.file)
                .with_label_in(self.file, declared, "declared here with an object type")
                .with_help("arithmetic needs a function declared `- number`"),
            );
        }
    }

    fn undeclared_function(&mut self, name: &Name, at: At) {
        let key = name.key();
        let mut diagnostic = Diagnostic::new(
            Code::UndeclaredFunction,
            format!("function `{}` is not declared", name.text),
            name.span,
        )
        .in_file(at.file);
        if let Some(p) = self.predicates.get(&key).and_then(|all| all.first()) {
            diagnostic = Diagnostic::new(
                Code::NonNumericFluent,
                format!("`{}` is a predicate, not a function", name.text),
                name.span,
            )
            .in_file(at.file)
            .with_label_in(self.file, p.name.span, "declared as a predicate here")
            .with_help("declare a function in `(:functions …)` for numeric values");
        } else {
            let candidates: Vec<&str> = self
                .functions
                .values()
                .filter_map(|all| all.first())
                .map(|f| f.name.text.as_str())
                .collect();
            let declare = format!("declare it in `(:functions ({}) - number)`", name.text);
            let closest = suggest::closest(&name.text, candidates).map(str::to_string);
            self.report_once(diagnostic, &name.text, declare, closest.as_deref());
            return;
        }
        self.push(diagnostic);
    }

    /// Whether `name` is a declared function.
    pub fn is_function(&self, name: &Name) -> bool {
        self.functions.contains_key(&name.key())
    }

    pub fn function_term(&mut self, f: &FunctionTerm, scope: &mut Scope, at: At) {
        let signatures = self.function_signatures(&f.name.key());
        if !signatures.is_empty() {
            self.function_use(&f.name, &signatures, &f.args, f.span, scope, at);
            return;
        }
        if MATH_FUNCTIONS.contains(&f.name.key().as_str()) {
            // A math function's arguments are expressions: `(cos heading)` reads `heading`.
            for arg in &f.args {
                let expr = Expr {
                    kind: ExprKind::Term { term: arg.clone() },
                    span: arg.span(),
                };
                self.expr(&expr, scope, at);
            }
            return;
        }
        self.undeclared_function(&f.name, at);
        for arg in &f.args {
            self.term(arg, scope, at);
        }
    }

    fn function_use(
        &mut self,
        name: &Name,
        signatures: &[Signature<'_>],
        args: &[Term],
        span: Span,
        scope: &mut Scope,
        at: At,
    ) {
        // `:action-costs` allows `total-cost` and static functions in cost expressions and in
        // the initial state; other uses are also checked where they stand (comparisons, effects).
        self.need(
            &[":numeric-fluents", ":object-fluents", ":action-costs"],
            at.file,
            span,
            "functions",
        );
        self.arguments("function", name, signatures, args, span, scope, at);
    }
}
