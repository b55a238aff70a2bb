//! What tarski's parse-tree visitor checks while it builds its first-order language: sorts,
//! symbols, variables, arities and argument sorts, then actions and their cost effects.

use super::syntax::{
    Action, Atom, AtomicEffect, Domain, Effect, Formula, FunctionDef, Ident, Term, Terms, TypeName,
    TypedNames, VarDecl, terms_of,
};
use super::{Rejection, shown};
use crate::ast::Span;
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

type Checked<T> = Result<T, Rejection>;

/// Index of a sort in [`Language::sorts`].
type SortId = usize;

const OBJECT: SortId = 0;

struct Sort<'d> {
    name: &'d str,
    parent: Option<SortId>,
}

/// The parts of tarski's `FirstOrderLanguage` that decide acceptance.
/// Its maps borrow their keys from the domain's syntax tree (`'d`).
struct Language<'d> {
    sorts: Vec<Sort<'d>>,
    sort_index: HashMap<&'d str, SortId>,
    /// Every sort, predicate, function and constant name: one namespace.
    global: HashSet<&'d str>,
    /// A predicate's argument sorts, as a range of `signatures`.
    predicates: HashMap<&'d str, Signature>,
    /// A function's argument sorts, as a range of `signatures`, and its result sort.
    functions: HashMap<&'d str, (Signature, SortId)>,
    /// The argument sorts of every predicate and function, one after the other.
    signatures: Vec<SortId>,
    constants: HashMap<&'d str, SortId>,
    /// The arithmetic theory: `Real`, `Integer`, `Natural`, `+ - * /` and `< <= > >=`.
    real: Option<SortId>,
    integer: Option<SortId>,
}

/// Where the argument sorts of a predicate or function are in [`Language::signatures`].
#[derive(Clone, Copy)]
struct Signature {
    start: usize,
    len: usize,
}

/// What a term evaluates to: its sort and, for a compound term, its head symbol.
#[derive(Clone, Copy)]
struct TermValue<'d> {
    sort: SortId,
    head: Option<&'d str>,
}

/// What a formula evaluates to. tarski returns the `Tautology` class itself (not an instance)
/// for `(and)`, which is not a `Formula`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FormulaValue {
    Formula,
    EmptyAnd,
}

/// An effect after evaluation, as far as cost processing looks at it.
struct EffectValue<'d> {
    conditional: bool,
    /// For a functional effect: the head of its left-hand side and of its right-hand side.
    functional: Option<(Option<&'d str>, Option<&'d str>)>,
    span: Span,
}

impl<'d> Language<'d> {
    /// The language with what tarski always loads, its tables sized for `domain`.
    fn new(domain: &Domain<'_>) -> Language<'d> {
        let count = |names: &Option<TypedNames>| {
            names.as_ref().map_or(0, |names| {
                names.untyped.len() + names.groups.iter().map(|(g, _)| g.len()).sum::<usize>()
            })
        };
        let (types, constants) = (count(&domain.types), count(&domain.constants));
        let (predicates, functions) = (domain.predicates.len(), domain.functions.len());
        // `object`, the arithmetic theory and `number`.
        let sorts = types + 5;
        let mut language = Language {
            sorts: Vec::with_capacity(sorts),
            sort_index: HashMap::with_capacity(sorts),
            global: HashSet::with_capacity(sorts + constants + predicates + functions + 12),
            predicates: HashMap::with_capacity(predicates),
            functions: HashMap::with_capacity(functions),
            signatures: Vec::new(),
            constants: HashMap::with_capacity(constants),
            real: None,
            integer: None,
        };
        language.attach_sort("object", None);
        // The equality theory, which tarski always loads.
        language.global.insert("=");
        language.global.insert("!=");
        language
    }

    fn attach_sort(&mut self, name: &'d str, parent: Option<SortId>) -> SortId {
        let id = self.sorts.len();
        self.sorts.push(Sort { name, parent });
        self.sort_index.insert(name, id);
        self.global.insert(name);
        id
    }

    fn load_arithmetic(&mut self) {
        if self.real.is_some() {
            return;
        }
        let real = self.attach_sort("Real", Some(OBJECT));
        let integer = self.attach_sort("Integer", Some(real));
        self.attach_sort("Natural", Some(integer));
        for symbol in ["+", "-", "*", "/", "**", "%", "<", "<=", ">", ">="] {
            self.global.insert(symbol);
        }
        self.real = Some(real);
        self.integer = Some(integer);
    }

    fn sort(&self, name: &str, span: Span) -> Checked<SortId> {
        self.sort_index.get(name).copied().ok_or_else(|| {
            Rejection::new(format!("undefined type `{}`", shown(name)), span).help(
                if name == "number" {
                    "tarski defines `number` only when `:action-costs` is among the requirements"
                        .to_string()
                } else {
                    format!("declare `{}` in `:types`", shown(name))
                },
            )
        })
    }

    /// The sort a declared name stands for.
    fn sort_of(&self, name: &Ident) -> Checked<SortId> {
        self.sort(&name.text, name.span)
    }

    fn signature(&mut self, sorts: &[SortId]) -> Signature {
        let start = self.signatures.len();
        self.signatures.extend_from_slice(sorts);
        Signature {
            start,
            len: sorts.len(),
        }
    }

    fn sorts_of(&self, signature: Signature) -> &[SortId] {
        &self.signatures[signature.start..signature.start + signature.len]
    }

    fn is_subtype(&self, sort: SortId, of: SortId) -> bool {
        let mut current = Some(sort);
        let mut steps = 0;
        while let Some(s) = current {
            if s == of {
                return true;
            }
            steps += 1;
            if steps > self.sorts.len() {
                return false;
            }
            current = self.sorts.get(s).and_then(|s| s.parent);
        }
        false
    }

    fn sort_name(&self, sort: SortId) -> &str {
        self.sorts.get(sort).map_or("?", |s| s.name)
    }

    /// The duplicate checks of `_check_name_not_defined`.
    fn check_new_name(&self, name: &str, span: Span, what: &str, own: bool) -> Checked<()> {
        if own {
            return Err(Rejection::new(
                format!("duplicate definition of {what} `{}`", shown(name)),
                span,
            ));
        }
        if self.global.contains(name) {
            return Err(Rejection::new(
                format!(
                    "`{}` is already defined: tarski keeps types, constants, predicates and functions in one namespace",
                    shown(name)
                ),
                span,
            )
            .help("rename one of them"));
        }
        Ok(())
    }
}

/// Runs tarski's visitor over `domain` and returns its first error.
pub fn check(domain: &Domain<'_>) -> Checked<()> {
    let mut checker = Checker {
        language: Language::new(domain),
        scopes: Vec::new(),
        depth: 0,
        actions: HashSet::with_capacity(domain.actions.len()),
        values: Vec::new(),
        terms: &domain.terms,
    };
    checker.domain(domain)
}

struct Checker<'d> {
    language: Language<'d>,
    /// Variable bindings, innermost last: the first `depth` maps (the others are kept for
    /// reuse); none outside actions.
    scopes: Vec<HashMap<&'d str, SortId>>,
    depth: usize,
    actions: HashSet<&'d str>,
    /// The values of the arguments being checked, a stack shared by nested terms.
    values: Vec<TermValue<'d>>,
    /// The domain's argument lists ([`Domain::terms`]).
    terms: &'d [Term<'d>],
}

impl<'d> Checker<'d> {
    fn domain(&mut self, domain: &'d Domain<'_>) -> Checked<()> {
        if let Some(flags) = &domain.requirements {
            let has = |flag: &str| flags.iter().any(|f| f.text == flag);
            if has(":action-costs") {
                self.language.load_arithmetic();
                let integer = self.language.integer.unwrap_or(OBJECT);
                self.language.attach_sort("number", Some(integer));
            } else if has(":numeric-fluents") {
                self.language.load_arithmetic();
            }
        }
        if let Some(types) = &domain.types {
            self.types(types)?;
        }
        if let Some(constants) = &domain.constants {
            self.constants(constants)?;
        }
        for predicate in &domain.predicates {
            let sorts = self.declared_sorts(&predicate.params)?;
            let name: &str = &predicate.name.text;
            let own = self.language.predicates.contains_key(name);
            self.language
                .check_new_name(name, predicate.name.span, "predicate", own)?;
            let signature = self.language.signature(&sorts);
            self.language.predicates.insert(name, signature);
            self.language.global.insert(name);
        }
        for function in &domain.functions {
            self.function(function)?;
        }
        for action in &domain.actions {
            self.action(action)?;
        }
        if let Some(keyword) = &domain.unsupported {
            return Err(Rejection::new(
                format!("tarski does not support `{}`", keyword.text),
                keyword.span,
            )
            .help("tarski 0.8.2 reads only `:action` definitions"));
        }
        Ok(())
    }

    /// `create_sort` for each declared type: the untyped names first, then each typed group in
    /// order, so a parent must be declared before (or untyped, after) its children.
    fn types(&mut self, types: &'d TypedNames<'_>) -> Checked<()> {
        let untyped = types.untyped.iter().map(|name| (name, None::<&TypeName>));
        let typed = types
            .groups
            .iter()
            .flat_map(|(names, parent)| names.iter().map(move |name| (name, Some(parent))));
        for (name, parent) in untyped.chain(typed).collect::<Vec<_>>() {
            let parent = match parent {
                None => None,
                Some(TypeName::Either(span)) => return Err(either(*span)),
                Some(TypeName::Primitive(parent)) => Some(parent),
            };
            if name.text == "object" {
                continue;
            }
            let translated = |text: &'d str| -> &'d str {
                match text {
                    "int" => "Integer",
                    "real" | "number" => "Real",
                    other => other,
                }
            };
            let parent_id = match parent {
                None => OBJECT,
                Some(parent) => self.language.sort(translated(&parent.text), parent.span)?,
            };
            let span = name.span;
            let name = translated(&name.text);
            let own = self.language.sort_index.contains_key(name);
            self.language.check_new_name(name, span, "type", own)?;
            self.language.attach_sort(name, Some(parent_id));
        }
        Ok(())
    }

    fn constants(&mut self, constants: &'d TypedNames<'_>) -> Checked<()> {
        let untyped = constants.untyped.iter().map(|name| (name, None));
        let typed = constants
            .groups
            .iter()
            .flat_map(|(names, sort)| names.iter().map(move |name| (name, Some(sort))));
        for (name, sort) in untyped.chain(typed).collect::<Vec<_>>() {
            let sort = match sort {
                None => self.language.sort("object", Span::new(0, 0))?,
                Some(TypeName::Either(span)) => return Err(either(*span)),
                Some(TypeName::Primitive(sort)) => self.language.sort_of(sort)?,
            };
            let span = name.span;
            let name: &str = &name.text;
            let own = self.language.constants.contains_key(name);
            self.language.check_new_name(name, span, "constant", own)?;
            self.language.constants.insert(name, sort);
            self.language.global.insert(name);
        }
        Ok(())
    }

    fn declared_sorts(&self, params: &[VarDecl]) -> Checked<Vec<SortId>> {
        params
            .iter()
            .map(|p| self.language.sort_of(&p.sort))
            .collect()
    }

    fn function(&mut self, function: &'d FunctionDef<'_>) -> Checked<()> {
        let args = self.declared_sorts(&function.params)?;
        let name: &str = &function.name.text;
        let own = self.language.functions.contains_key(name);
        self.language
            .check_new_name(name, function.name.span, "function", own)?;
        let sort = match &function.sort {
            Some(sort) => self.language.sort_of(sort)?,
            None => self.language.sort("number", function.name.span)?,
        };
        let signature = self.language.signature(&args);
        self.language.functions.insert(name, (signature, sort));
        self.language.global.insert(name);
        Ok(())
    }

    /// The variables of an action's parameter list become the only scope: a repeated name
    /// silently takes the last declaration's type (tarski's `VariableBinding` is a dictionary).
    fn bind(&mut self, vars: &'d [VarDecl<'_>]) -> Checked<()> {
        self.depth = 0;
        let sorts = self.sorts_of_variables(vars)?;
        let scope = self.next_scope();
        for (var, sort) in vars.iter().zip(sorts) {
            scope.insert(var.name.text.as_ref(), sort);
        }
        self.depth = 1;
        Ok(())
    }

    /// The variables of a quantifier become a scope inside the current ones; tarski adds them
    /// one by one to the binding in force, so a name already bound (a parameter, an outer
    /// quantifier's variable, or one earlier in the same list) is a duplicate definition.
    /// [`Checker::leave`] ends the scope.
    fn bind_nested(&mut self, vars: &'d [VarDecl<'_>]) -> Checked<()> {
        let sorts = self.sorts_of_variables(vars)?;
        let depth = self.depth;
        self.next_scope();
        let (outer, inner) = self.scopes.split_at_mut(depth);
        let scope = &mut inner[0];
        for (var, sort) in vars.iter().zip(sorts) {
            let name: &str = &var.name.text;
            if outer.iter().any(|s| s.contains_key(name)) || scope.contains_key(name) {
                return Err(Rejection::new(
                    format!("variable `{}` is already bound here", shown(name)),
                    var.name.span,
                )
                .help("tarski does not let a quantifier reuse the name of a parameter or of an enclosing quantifier's variable"));
            }
            scope.insert(name, sort);
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// The sorts of the variables' types, in order; the first undefined type is the error.
    fn sorts_of_variables(&self, vars: &[VarDecl]) -> Checked<Vec<SortId>> {
        vars.iter()
            .map(|var| self.language.sort_of(&var.sort))
            .collect()
    }

    /// The map of the scope after the current ones, emptied (the maps are kept for reuse).
    fn next_scope(&mut self) -> &mut HashMap<&'d str, SortId> {
        if self.scopes.len() <= self.depth {
            self.scopes.push(HashMap::new());
        }
        let scope = &mut self.scopes[self.depth];
        scope.clear();
        scope
    }

    fn action(&mut self, action: &'d Action<'_>) -> Checked<()> {
        self.bind(&action.params)?;
        let result = self.action_body(action);
        self.depth = 0;
        let effects = result?;
        for effect in &effects {
            let Some((lhs, rhs)) = &effect.functional else {
                continue;
            };
            if lhs.as_deref() != Some("total-cost") {
                continue;
            }
            if effect.conditional {
                return Err(Rejection::new(
                    "tarski cannot process a conditional `total-cost` effect",
                    effect.span,
                ));
            }
            if rhs.as_deref() != Some("+") {
                return Err(Rejection::new(
                    "tarski accepts only `(increase (total-cost) …)` as a cost effect",
                    effect.span,
                )
                .help("tarski rejects non-additive cost effects such as `decrease` or `assign`"));
            }
        }
        if !self.actions.insert(action.name.text.as_ref()) {
            return Err(Rejection::new(
                format!(
                    "duplicate definition of action `{}`",
                    shown(&action.name.text)
                ),
                action.name.span,
            )
            .help("tarski compares action names case-sensitively; rename or remove one"));
        }
        Ok(())
    }

    fn action_body(&mut self, action: &'d Action<'_>) -> Checked<Vec<EffectValue<'d>>> {
        if let Some(precondition) = &action.precondition {
            self.formula(precondition)?;
        }
        let mut effects = Vec::new();
        for effect in &action.effects {
            self.effect(effect, &mut effects)?;
        }
        Ok(effects)
    }

    fn effect(&mut self, effect: &'d Effect<'_>, out: &mut Vec<EffectValue<'d>>) -> Checked<()> {
        match effect {
            Effect::Atomic(atomic) => {
                let value = self.atomic_effect(atomic, false)?;
                out.push(value);
            }
            Effect::When { condition, effects } => {
                // tarski evaluates the effects before the condition.
                let mut values = Vec::new();
                for atomic in effects {
                    values.push(self.atomic_effect(atomic, true)?);
                }
                self.formula(condition)?;
                out.extend(values);
            }
            Effect::Forall { vars, body, span } => {
                self.bind_nested(vars)?;
                let mut inner = Vec::new();
                let result = body
                    .iter()
                    .try_for_each(|effect| self.effect(effect, &mut inner));
                self.leave();
                result?;
                // A universal effect is not a functional effect: cost processing skips it.
                out.push(EffectValue {
                    conditional: false,
                    functional: None,
                    span: *span,
                });
            }
        }
        Ok(())
    }

    fn atomic_effect(
        &mut self,
        effect: &'d AtomicEffect<'_>,
        conditional: bool,
    ) -> Checked<EffectValue<'d>> {
        match effect {
            AtomicEffect::Add(atom) | AtomicEffect::Delete(atom) => {
                self.atom(atom)?;
                Ok(EffectValue {
                    conditional,
                    functional: None,
                    span: atom.span,
                })
            }
            AtomicEffect::Assign { lhs, rhs, span } => {
                let lhs = self.term(lhs)?;
                let rhs = self.term(rhs)?;
                Ok(EffectValue {
                    conditional,
                    functional: Some((lhs.head, rhs.head)),
                    span: *span,
                })
            }
            AtomicEffect::Update { op, lhs, rhs, span } => {
                let lhs_value = self.term(lhs)?;
                let rhs_value = self.term(rhs)?;
                let symbol = match &*op.text {
                    "increase" => "+",
                    "decrease" => "-",
                    "scale-up" => "*",
                    _ => "/",
                };
                let value = self.arithmetic(symbol, &lhs_value, lhs, &rhs_value, rhs, *span)?;
                Ok(EffectValue {
                    conditional,
                    functional: Some((lhs_value.head, value.head)),
                    span: *span,
                })
            }
        }
    }

    fn formula(&mut self, formula: &'d Formula<'_>) -> Checked<FormulaValue> {
        match formula {
            Formula::Atom(atom) => {
                self.atom(atom)?;
                Ok(FormulaValue::Formula)
            }
            Formula::And(parts, span) => {
                let (count, first, empty) = self.formulas(parts)?;
                match count {
                    0 => Ok(FormulaValue::EmptyAnd),
                    1 => Ok(first),
                    _ => self.compound(empty, "and", *span),
                }
            }
            Formula::Or(parts, span) => {
                let (count, _, empty) = self.formulas(parts)?;
                if count < 2 {
                    return Err(Rejection::new(
                        "tarski requires at least two disjuncts in `or`",
                        *span,
                    ));
                }
                self.compound(empty, "or", *span)
            }
            Formula::Not(inner, span) => {
                let value = self.formula(inner)?;
                self.compound(value == FormulaValue::EmptyAnd, "not", *span)
            }
            Formula::Imply(lhs, rhs, span) => {
                let lhs = self.formula(lhs)?;
                let rhs = self.formula(rhs)?;
                let empty = lhs == FormulaValue::EmptyAnd || rhs == FormulaValue::EmptyAnd;
                self.compound(empty, "imply", *span)
            }
            Formula::Exists(vars, body, span) | Formula::Forall(vars, body, span) => {
                self.bind_nested(vars)?;
                let value = self.formula(body);
                self.leave();
                let value = value?;
                if vars.is_empty() {
                    return Err(Rejection::new(
                        "tarski requires at least one variable in a quantifier",
                        *span,
                    ));
                }
                if value == FormulaValue::EmptyAnd {
                    return Err(Rejection::new(
                        "tarski cannot quantify over an empty `(and)`",
                        *span,
                    ));
                }
                Ok(FormulaValue::Formula)
            }
            Formula::Comparison { op, lhs, rhs, .. } => {
                let lhs_value = self.term(lhs)?;
                let rhs_value = self.term(rhs)?;
                if op.text == "=" {
                    return Ok(FormulaValue::Formula);
                }
                let Some(real) = self.language.real else {
                    return Err(Rejection::new(
                        format!(
                            "tarski knows `{}` only with `:numeric-fluents` or `:action-costs`",
                            op.text
                        ),
                        op.span,
                    )
                    .help("declare `:numeric-fluents` and `:action-costs` in `:requirements`"));
                };
                for (value, term) in [(&lhs_value, lhs), (&rhs_value, rhs)] {
                    self.expect_sort(value, term, real)?;
                }
                Ok(FormulaValue::Formula)
            }
        }
    }

    /// The parts of an `and` or `or`, in order: how many, the first one's value, and whether
    /// one is an empty `(and)`.
    fn formulas(&mut self, parts: &'d [Formula<'_>]) -> Checked<(usize, FormulaValue, bool)> {
        let mut first = FormulaValue::Formula;
        let mut empty = false;
        for (i, part) in parts.iter().enumerate() {
            let value = self.formula(part)?;
            if i == 0 {
                first = value;
            }
            empty |= value == FormulaValue::EmptyAnd;
        }
        Ok((parts.len(), first, empty))
    }

    /// A `CompoundFormula`: tarski checks that every part is a formula, which an empty `(and)`
    /// is not.
    fn compound(&self, empty_part: bool, connective: &str, span: Span) -> Checked<FormulaValue> {
        if empty_part {
            return Err(Rejection::new(
                format!("tarski cannot use an empty `(and)` inside `{connective}`"),
                span,
            )
            .help("remove the empty `(and)`"));
        }
        Ok(FormulaValue::Formula)
    }

    fn atom(&mut self, atom: &'d Atom<'_>) -> Checked<()> {
        let Some(&signature) = self.language.predicates.get(&*atom.predicate.text) else {
            return Err(Rejection::new(
                format!("undefined predicate `{}`", shown(&atom.predicate.text)),
                atom.predicate.span,
            )
            .help("declare it in `:predicates`"));
        };
        let args = self.terms_of(atom.args);
        let start = self.arguments(args)?;
        if signature.len != args.len() {
            return Err(Rejection::new(
                format!(
                    "predicate `{}` takes {} argument{}, {} given",
                    shown(&atom.predicate.text),
                    signature.len,
                    if signature.len == 1 { "" } else { "s" },
                    args.len()
                ),
                atom.span,
            ));
        }
        self.expect_sorts(start, args, signature)
    }

    /// The terms of an argument list.
    fn terms_of(&self, at: Terms) -> &'d [Term<'d>] {
        terms_of(self.terms, at)
    }

    /// Evaluates `args` in order onto the stack of values; where their values start.
    fn arguments(&mut self, args: &'d [Term<'_>]) -> Checked<usize> {
        let start = self.values.len();
        for arg in args {
            let value = self.term(arg)?;
            self.values.push(value);
        }
        Ok(start)
    }

    /// Checks the values from `start` on against the signature's sorts, in order, and pops them.
    fn expect_sorts(
        &mut self,
        start: usize,
        args: &'d [Term<'_>],
        signature: Signature,
    ) -> Checked<()> {
        let sorts = self.language.sorts_of(signature);
        for ((value, term), expected) in self.values[start..].iter().zip(args).zip(sorts) {
            self.expect_sort(value, term, *expected)?;
        }
        self.values.truncate(start);
        Ok(())
    }

    fn expect_sort(
        &self,
        value: &TermValue<'d>,
        term: &'d Term<'_>,
        expected: SortId,
    ) -> Checked<()> {
        if self.language.is_subtype(value.sort, expected) {
            return Ok(());
        }
        Err(Rejection::new(
            format!(
                "sort mismatch: tarski expects a `{}` here, and this term is a `{}`",
                self.language.sort_name(expected),
                self.language.sort_name(value.sort)
            ),
            term.span(),
        )
        .help("tarski checks argument types strictly; an untyped variable is an `object`"))
    }

    fn term(&mut self, term: &'d Term<'_>) -> Checked<TermValue<'d>> {
        match term {
            Term::Constant(name) => match self.language.constants.get(&*name.text) {
                Some(sort) => Ok(TermValue {
                    sort: *sort,
                    head: None,
                }),
                None => Err(Rejection::new(
                    format!("undefined constant `{}`", shown(&name.text)),
                    name.span,
                )
                .help("declare it in `:constants`, or write a variable with `?`")),
            },
            Term::Number(number) => {
                let sort = if number.text.contains('.') {
                    self.language.real
                } else {
                    self.language.integer
                };
                match sort {
                    Some(sort) => Ok(TermValue { sort, head: None }),
                    None => Err(Rejection::new(
                        format!(
                            "tarski reads the number `{}` only with `:numeric-fluents` or `:action-costs`",
                            shown(&number.text)
                        ),
                        number.span,
                    )),
                }
            }
            Term::Variable(name) => {
                let sort = self.scopes[..self.depth]
                    .iter()
                    .rev()
                    .find_map(|scope| scope.get(&*name.text));
                match sort {
                    Some(sort) => Ok(TermValue {
                        sort: *sort,
                        head: None,
                    }),
                    None => Err(Rejection::new(
                        format!("undefined variable `{}`", shown(&name.text)),
                        name.span,
                    )
                    .help("declare it in the action's `:parameters` or in a quantifier")),
                }
            }
            Term::TimeStep(span) => Err(Rejection::new(
                "tarski does not support `#t` in a domain",
                *span,
            )),
            Term::Unary { op, span } => Err(Rejection::new(
                format!("tarski does not support the unary function `{}`", op.text),
                *span,
            )),
            Term::Function { name, args, span } => {
                let Some(&(signature, result)) = self.language.functions.get(&*name.text) else {
                    return Err(Rejection::new(
                        format!("undefined function `{}`", shown(&name.text)),
                        name.span,
                    )
                    .help("declare it in `:functions`"));
                };
                let args = self.terms_of(*args);
                let start = self.arguments(args)?;
                if signature.len != args.len() {
                    return Err(Rejection::new(
                        format!(
                            "function `{}` takes {} argument{}, {} given",
                            shown(&name.text),
                            signature.len,
                            if signature.len == 1 { "" } else { "s" },
                            args.len()
                        ),
                        *span,
                    ));
                }
                self.expect_sorts(start, args, signature)?;
                Ok(TermValue {
                    sort: result,
                    head: Some(name.text.as_ref()),
                })
            }
            Term::Arithmetic { op, lhs, rhs, span } => {
                let lhs_value = self.term(lhs)?;
                let rhs_value = self.term(rhs)?;
                self.arithmetic(&op.text, &lhs_value, lhs, &rhs_value, rhs, *span)
            }
        }
    }

    /// tarski's operator dispatch for a binary arithmetic function.
    fn arithmetic(
        &self,
        symbol: &'d str,
        lhs_value: &TermValue<'d>,
        lhs: &'d Term<'_>,
        rhs_value: &TermValue<'d>,
        rhs: &'d Term<'_>,
        span: Span,
    ) -> Checked<TermValue<'d>> {
        let Some(real) = self.language.real else {
            return Err(Rejection::new(
                format!(
                    "tarski knows arithmetic (`{symbol}`) only with `:numeric-fluents` or `:action-costs`"
                ),
                span,
            )
            .help("declare `:numeric-fluents` and `:action-costs` in `:requirements`"));
        };
        if !matches!(symbol, "+" | "-" | "*" | "/") {
            return Err(Rejection::new(
                format!("tarski does not support the function `{symbol}`"),
                span,
            ));
        }
        self.expect_sort(lhs_value, lhs, real)?;
        self.expect_sort(rhs_value, rhs, real)?;
        Ok(TermValue {
            sort: real,
            head: Some(symbol),
        })
    }
}

fn either(span: Span) -> Rejection {
    Rejection::new("tarski does not support `either` types", span)
        .help("declare a common supertype and use it instead of `(either …)`")
}
