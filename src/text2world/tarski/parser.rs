//! A recursive-descent parser for the domain rules of tarski's `fstrips.g4` (as shipped in
//! 0.8.2). ANTLR stops at the first syntax error and tarski raises on it, so the first error is
//! the verdict; the parse starts at the `domain` rule and stops at its closing `)`.

use super::lexer::{Kind, Lexer, Token};
use super::syntax::{
    Action, Atom, AtomicEffect, Domain, Effect, Formula, FunctionDef, Ident, PredicateDef, Term,
    Terms, TypeName, TypedNames, VarDecl,
};
use super::{Rejection, shown};
use crate::ast::Span;
use std::borrow::Cow;

/// How deep forms may nest before we give up, as tarski (Python's recursion limit) does.
pub const MAX_DEPTH: usize = 256;

pub struct Parser<'a> {
    text: &'a str,
    lexer: Lexer<'a>,
    /// The tokens lexed so far; the parser reads at `at` and looks a few tokens ahead.
    tokens: Vec<Token>,
    at: usize,
    depth: usize,
    /// The argument lists read so far, the domain's [`Domain::terms`].
    terms: Vec<Term<'a>>,
    /// The arguments of the lists being read, innermost last: a list moves into `terms` when
    /// it closes.
    scratch: Vec<Term<'a>>,
}

type Parsed<T> = Result<T, Rejection>;

impl<'a> Parser<'a> {
    pub fn new(text: &'a str) -> Parser<'a> {
        Parser {
            text,
            lexer: Lexer::new(text),
            // About one token for every five or six bytes of a domain, lexed as the parser asks.
            tokens: Vec::with_capacity(text.len().min(1 << 20) / 4),
            at: 0,
            depth: 0,
            // About one argument for every dozen bytes.
            terms: Vec::with_capacity(text.len().min(1 << 20) / 12),
            scratch: Vec::with_capacity(16),
        }
    }

    /// Moves the arguments read since `base` (the length `scratch` had when the list opened)
    /// into `terms`; where they are.
    fn store_terms(&mut self, base: usize) -> Terms {
        let start = self.terms.len();
        self.terms.extend(self.scratch.drain(base..));
        Terms {
            start,
            len: self.terms.len() - start,
        }
    }

    /// The token `k` places ahead; the last token (`Eof` or `Error`) repeats forever.
    #[inline]
    fn peek(&mut self, k: usize) -> Token {
        match self.tokens.get(self.at + k) {
            Some(&token) => token,
            None => self.peek_further(k),
        }
    }

    /// [`Parser::peek`] past the tokens lexed so far: lexes a few more (reading ahead never
    /// changes what the parser sees, since the stream ends at the first unreadable text).
    #[cold]
    fn peek_further(&mut self, k: usize) -> Token {
        const AHEAD: usize = 32;
        let wanted = self.at + k;
        let ended = self
            .tokens
            .last()
            .is_some_and(|last| matches!(last.kind, Kind::Eof | Kind::Error));
        if !ended && self.tokens.len() <= wanted {
            let count = wanted + AHEAD + 1 - self.tokens.len();
            self.lexer.lex_into(&mut self.tokens, count);
        }
        let last = self.tokens.len().saturating_sub(1);
        self.tokens.get(wanted.min(last)).copied().unwrap_or(Token {
            kind: Kind::Eof,
            span: Span::new(self.text.len(), self.text.len()),
        })
    }

    fn kind(&mut self, k: usize) -> Kind {
        self.peek(k).kind
    }

    fn advance(&mut self) -> Token {
        let token = self.peek(0);
        if !matches!(token.kind, Kind::Eof | Kind::Error) {
            self.at += 1;
        }
        token
    }

    fn text_of(&self, span: Span) -> &'a str {
        self.text.get(span.start..span.end).unwrap_or("")
    }

    /// The token's text as a name; lower-cased with `lower` (names are ASCII, so only ASCII
    /// letters change), borrowed from the text when that changes nothing.
    fn ident(&self, token: Token, lower: bool) -> Ident<'a> {
        let text = self.text_of(token.span);
        Ident {
            text: if lower && text.bytes().any(|b| b.is_ascii_uppercase()) {
                Cow::Owned(text.to_ascii_lowercase())
            } else {
                Cow::Borrowed(text)
            },
            span: token.span,
        }
    }

    /// The rejection for finding the current token where `expected` should be.
    fn unexpected(&mut self, expected: &str) -> Rejection {
        // ANTLR reads ahead while predicting; a token recognition error there comes first.
        for k in 0..3 {
            let token = self.peek(k);
            if token.kind == Kind::Error {
                return lex_error(self.text, token);
            }
            if token.kind == Kind::Eof {
                break;
            }
        }
        let token = self.peek(0);
        if token.kind == Kind::Eof {
            return Rejection::new(
                format!("the text ends where tarski expects {expected}"),
                token.span,
            )
            .help("close every form; tarski reads one `(define (domain …) …)`");
        }
        let found = self.text_of(token.span);
        if let Some(rejection) = self.wrong_case_keyword(token, found) {
            return rejection;
        }
        Rejection::new(
            format!("tarski expects {expected} here, found `{}`", shown(found)),
            token.span,
        )
    }

    /// [`Parser::unexpected`] for the token after the current `(`.
    fn unexpected_after_paren(&mut self, expected: &str) -> Rejection {
        let at = self.at;
        self.at += 1;
        let rejection = self.unexpected(expected);
        self.at = at;
        rejection
    }

    /// Keywords that tarski's lexer knows only in lower case, written otherwise.
    fn wrong_case_keyword(&self, token: Token, found: &str) -> Option<Rejection> {
        if token.kind != Kind::Name {
            return None;
        }
        let lower = found.to_ascii_lowercase();
        let known = ["define", "domain", "either", "assign", "object", "number"];
        if known.contains(&lower.as_str()) && lower != found {
            return Some(
                Rejection::new(
                    format!("keyword `{found}` must be lower case for tarski"),
                    token.span,
                )
                .help(format!("write `{lower}`")),
            );
        }
        None
    }

    fn require(&mut self, kind: Kind, expected: &str) -> Parsed<Token> {
        if self.kind(0) == kind {
            Ok(self.advance())
        } else {
            Err(self.unexpected(expected))
        }
    }

    fn open(&mut self, expected: &str) -> Parsed<Token> {
        let token = self.require(Kind::LParen, expected)?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Rejection::new(
                format!("forms nest deeper than {MAX_DEPTH} levels, beyond what tarski can read"),
                token.span,
            ));
        }
        Ok(token)
    }

    fn close(&mut self, expected: &str) -> Parsed<Token> {
        let token = self.require(Kind::RParen, expected)?;
        self.depth = self.depth.saturating_sub(1);
        Ok(token)
    }

    fn span_from(&self, start: Token, end: Token) -> Span {
        Span::new(start.span.start, end.span.end)
    }

    /// `domain`, then the one token tarski's token stream reads after its closing `)`.
    pub fn domain(&mut self) -> Parsed<Domain<'a>> {
        let mut domain = Domain::default();
        self.open("`(define`")?;
        self.require(Kind::Define, "`define`")?;
        self.open("`(domain <name>)`")?;
        self.require(Kind::Domain, "`domain`")?;
        self.require(Kind::Name, "the domain's name")?;
        self.close("`)` after the domain's name")?;
        if self.section_next(Kind::Requirements) {
            domain.requirements = Some(self.requirements()?);
        }
        if self.section_next(Kind::Types) {
            self.open("`(`")?;
            self.advance();
            domain.types = Some(self.typed_names(true)?);
            self.close("`)` closing `:types`")?;
        }
        if self.section_next(Kind::Constants) {
            self.open("`(`")?;
            self.advance();
            domain.constants = Some(self.typed_names(false)?);
            self.close("`)` closing `:constants`")?;
        }
        if self.section_next(Kind::Predicates) {
            domain.predicates = self.predicates()?;
        }
        if self.section_next(Kind::Functions) {
            domain.functions = self.functions()?;
        }
        while self.kind(0) == Kind::LParen {
            match self.kind(1) {
                Kind::Action => {
                    let action = self.action()?;
                    domain.actions.push(action);
                }
                Kind::Derived | Kind::Event | Kind::Constraint => {
                    let head = self.peek(1);
                    let keyword = self.ident(head, false);
                    domain.unsupported = Some(keyword);
                    domain.terms = std::mem::take(&mut self.terms);
                    // tarski rejects these whatever follows, so the parse may stop here.
                    return Ok(domain);
                }
                _ => return Err(self.misplaced_form()),
            }
        }
        self.close("`)` closing `(define`")?;
        let next = self.peek(0);
        if next.kind == Kind::Error {
            return Err(lex_error(self.text, next));
        }
        domain.terms = std::mem::take(&mut self.terms);
        Ok(domain)
    }

    fn section_next(&mut self, kind: Kind) -> bool {
        self.kind(0) == Kind::LParen && self.kind(1) == kind
    }

    /// The error for a form after the sections that is not an action.
    fn misplaced_form(&mut self) -> Rejection {
        let head = self.peek(1);
        let section = match head.kind {
            Kind::Requirements => Some(":requirements"),
            Kind::Types => Some(":types"),
            Kind::Constants => Some(":constants"),
            Kind::Predicates => Some(":predicates"),
            Kind::Functions => Some(":functions"),
            _ => None,
        };
        match section {
            Some(section) => Rejection::new(
                format!("section `{section}` is out of the order tarski requires"),
                head.span,
            )
            .help(
                "tarski reads `:requirements`, `:types`, `:constants`, `:predicates`, \
                 `:functions`, then the actions, in this order, each at most once",
            ),
            None => self.unexpected_after_paren("`(:action` or `)` closing the domain"),
        }
    }

    fn requirements(&mut self) -> Parsed<Vec<Ident<'a>>> {
        self.open("`(`")?;
        self.advance();
        let mut flags = Vec::new();
        while self.kind(0) == Kind::RequireKey {
            let token = self.advance();
            flags.push(self.ident(token, true));
        }
        if self.kind(0) != Kind::RParen && self.kind(0) != Kind::Error {
            let token = self.peek(0);
            let text = self.text_of(token.span);
            if text.starts_with(':') {
                return Err(Rejection::new(
                    format!("requirement `{}` is not one tarski knows", shown(text)),
                    token.span,
                )
                .help("remove the flag; tarski knows only lower-case PDDL 3.1 requirement flags"));
            }
        }
        self.close("a requirement flag or `)`")?;
        Ok(flags)
    }

    /// `possibly_typed_type_list` (`types`) or `possibly_typed_name_list`.
    fn typed_names(&mut self, types: bool) -> Parsed<TypedNames<'a>> {
        let mut names = TypedNames::default();
        loop {
            let mut group = Vec::new();
            let mut object = None;
            loop {
                match self.kind(0) {
                    Kind::Name => {
                        let token = self.advance();
                        group.push(self.ident(token, true));
                    }
                    Kind::ObjectType if types => {
                        let token = self.advance();
                        object.get_or_insert(token);
                    }
                    _ => break,
                }
            }
            if self.kind(0) == Kind::Minus && !group.is_empty() {
                if let Some(token) = object {
                    return Err(Rejection::new(
                        "tarski does not accept `object` as a subtype in a type list",
                        token.span,
                    ));
                }
                self.advance();
                let parent = self.type_name()?;
                names.groups.push((group, parent));
            } else {
                names.untyped = group;
                return Ok(names);
            }
        }
    }

    /// `typename`.
    fn type_name(&mut self) -> Parsed<TypeName<'a>> {
        if self.kind(0) == Kind::LParen {
            let start = self.open("`(`")?;
            self.require(Kind::Either, "`either`")?;
            self.primitive_type()?;
            while self.kind(0) != Kind::RParen {
                self.primitive_type()?;
            }
            let end = self.close("`)`")?;
            return Ok(TypeName::Either(self.span_from(start, end)));
        }
        Ok(TypeName::Primitive(self.primitive_type()?))
    }

    /// `primitive_type`: a name or a built-in type.
    fn primitive_type(&mut self) -> Parsed<Ident<'a>> {
        match self.kind(0) {
            Kind::Name | Kind::NumericType | Kind::ObjectType => {
                let token = self.advance();
                Ok(self.ident(token, true))
            }
            Kind::LParen if self.kind(1) == Kind::Either => Err(Rejection::new(
                "tarski does not support `either` types",
                self.peek(1).span,
            )),
            _ => Err(self.unexpected("a type name")),
        }
    }

    /// `possibly_typed_variable_list`. A group's variables go straight into the list, typed
    /// `object` until a `- type` after them says otherwise.
    fn variables(&mut self) -> Parsed<Vec<VarDecl<'a>>> {
        let mut vars = Vec::new();
        loop {
            let group = vars.len();
            while self.kind(0) == Kind::Variable {
                let token = self.advance();
                let name = self.ident(token, true);
                vars.push(VarDecl {
                    sort: Ident {
                        text: Cow::Borrowed("object"),
                        span: name.span,
                    },
                    name,
                });
            }
            if self.kind(0) == Kind::Minus && vars.len() > group {
                self.advance();
                let sort = self.primitive_type()?;
                for var in &mut vars[group..] {
                    var.sort = sort.clone();
                }
            } else {
                return Ok(vars);
            }
        }
    }

    fn predicates(&mut self) -> Parsed<Vec<PredicateDef<'a>>> {
        self.open("`(`")?;
        self.advance();
        let mut predicates = Vec::new();
        while self.kind(0) == Kind::LParen {
            self.open("`(`")?;
            let name = self.require(Kind::Name, "a predicate name")?;
            let name = self.ident(name, true);
            let params = self.variables()?;
            self.close("a variable, `-` or `)`")?;
            predicates.push(PredicateDef { name, params });
        }
        self.close("`(` or `)` closing `:predicates`")?;
        Ok(predicates)
    }

    fn functions(&mut self) -> Parsed<Vec<FunctionDef<'a>>> {
        self.open("`(`")?;
        self.advance();
        let mut functions = Vec::new();
        while self.kind(0) == Kind::LParen {
            self.open("`(`")?;
            let name = match self.kind(0) {
                Kind::Name | Kind::ExtName => self.advance(),
                _ => return Err(self.unexpected("a function name")),
            };
            let name = self.ident(name, true);
            let params = self.variables()?;
            self.close("a variable, `-` or `)`")?;
            let sort = if self.kind(0) == Kind::Minus {
                self.advance();
                Some(self.primitive_type()?)
            } else {
                None
            };
            functions.push(FunctionDef { name, params, sort });
        }
        self.close("`(` or `)` closing `:functions`")?;
        Ok(functions)
    }

    fn action(&mut self) -> Parsed<Action<'a>> {
        self.open("`(`")?;
        self.advance();
        let name = match self.kind(0) {
            Kind::Name | Kind::ExtName => self.advance(),
            _ => return Err(self.unexpected("the action's name")),
        };
        let name = self.ident(name, false);
        if self.kind(0) != Kind::Parameters {
            let token = self.peek(0);
            if matches!(token.kind, Kind::Precondition | Kind::Effect) {
                return Err(Rejection::new(
                    format!(
                        "tarski requires `:parameters` in every action, `{}` has none",
                        shown(&name.text)
                    ),
                    token.span,
                )
                .help("add `:parameters ()` after the action's name"));
            }
            return Err(self.unexpected("`:parameters`"));
        }
        self.advance();
        self.open("`(` opening the parameter list")?;
        let params = self.variables()?;
        self.close("a variable, `-` or `)`")?;
        if self.kind(0) != Kind::Precondition {
            let token = self.peek(0);
            if token.kind == Kind::Effect {
                return Err(Rejection::new(
                    format!(
                        "tarski requires `:precondition` in every action, `{}` has none",
                        shown(&name.text)
                    ),
                    token.span,
                )
                .help("add `:precondition ()` before `:effect`"));
            }
            return Err(self.unexpected("`:precondition`"));
        }
        self.advance();
        let precondition = if self.kind(0) == Kind::LParen && self.kind(1) == Kind::RParen {
            self.advance();
            self.advance();
            None
        } else {
            Some(self.formula()?)
        };
        if self.kind(0) != Kind::Effect {
            let token = self.peek(0);
            if token.kind == Kind::RParen {
                return Err(Rejection::new(
                    format!(
                        "tarski requires `:effect` in every action, `{}` has none",
                        shown(&name.text)
                    ),
                    token.span,
                ));
            }
            return Err(self.unexpected("`:effect`"));
        }
        self.advance();
        let effects = self.effect()?;
        self.close("`)` closing the action")?;
        Ok(Action {
            name,
            params,
            precondition,
            effects,
        })
    }

    /// `goalDesc`.
    fn formula(&mut self) -> Parsed<Formula<'a>> {
        let start = self.open("`(` opening a formula")?;
        let head = self.peek(0);
        let formula = match head.kind {
            Kind::And | Kind::Or => {
                self.advance();
                let mut parts = Vec::new();
                while self.kind(0) == Kind::LParen {
                    parts.push(self.formula()?);
                }
                let end = self.close("`(` or `)`")?;
                let span = self.span_from(start, end);
                if head.kind == Kind::And {
                    Formula::And(parts, span)
                } else {
                    Formula::Or(parts, span)
                }
            }
            Kind::Not => {
                self.advance();
                let inner = self.formula()?;
                let end = self.close("`)` closing `not`")?;
                Formula::Not(Box::new(inner), self.span_from(start, end))
            }
            Kind::Imply => {
                self.advance();
                let lhs = self.formula()?;
                let rhs = self.formula()?;
                let end = self.close("`)` closing `imply`")?;
                Formula::Imply(Box::new(lhs), Box::new(rhs), self.span_from(start, end))
            }
            Kind::Exists | Kind::Forall => {
                self.advance();
                self.open("`(` opening the quantified variables")?;
                let vars = self.variables()?;
                self.close("a variable, `-` or `)`")?;
                let body = self.formula()?;
                let end = self.close("`)` closing the quantifier")?;
                let span = self.span_from(start, end);
                if head.kind == Kind::Exists {
                    Formula::Exists(vars, Box::new(body), span)
                } else {
                    Formula::Forall(vars, Box::new(body), span)
                }
            }
            Kind::Comparison => {
                self.advance();
                let op = self.ident(head, true);
                let lhs = self.term()?;
                let rhs = self.term()?;
                self.close("`)` closing the comparison")?;
                Formula::Comparison {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                }
            }
            Kind::Name => Formula::Atom(self.atom_after_paren(start)?),
            _ => return Err(self.unexpected("a predicate name or a connective")),
        };
        Ok(formula)
    }

    /// `atomicTermFormula` after its `(`.
    fn atom_after_paren(&mut self, start: Token) -> Parsed<Atom<'a>> {
        let name = self.require(Kind::Name, "a predicate name")?;
        let predicate = self.ident(name, true);
        let base = self.scratch.len();
        while self.term_next() {
            let term = self.term()?;
            self.scratch.push(term);
        }
        let args = self.store_terms(base);
        let end = self.close("a term or `)`")?;
        Ok(Atom {
            predicate,
            args,
            span: self.span_from(start, end),
        })
    }

    fn atom(&mut self) -> Parsed<Atom<'a>> {
        let start = self.open("`(` opening an atom")?;
        self.atom_after_paren(start)
    }

    fn term_next(&mut self) -> bool {
        matches!(
            self.kind(0),
            Kind::Name | Kind::Number | Kind::Variable | Kind::TimeStep | Kind::LParen
        )
    }

    /// `term`.
    fn term(&mut self) -> Parsed<Term<'a>> {
        let token = self.peek(0);
        match token.kind {
            Kind::Name => {
                self.advance();
                Ok(Term::Constant(self.ident(token, true)))
            }
            Kind::Number => {
                self.advance();
                Ok(Term::Number(self.ident(token, false)))
            }
            Kind::Variable => {
                self.advance();
                Ok(Term::Variable(self.ident(token, true)))
            }
            Kind::TimeStep => {
                self.advance();
                Ok(Term::TimeStep(token.span))
            }
            Kind::LParen => self.function_term(),
            _ => Err(self.unexpected("a term")),
        }
    }

    /// `functionTerm`.
    fn function_term(&mut self) -> Parsed<Term<'a>> {
        let start = self.open("`(` opening a function term")?;
        let head = self.peek(0);
        match head.kind {
            Kind::Name | Kind::ExtName => {
                self.advance();
                let name = self.ident(head, true);
                let base = self.scratch.len();
                while self.term_next() {
                    let term = self.term()?;
                    self.scratch.push(term);
                }
                let args = self.store_terms(base);
                let end = self.close("a term or `)`")?;
                Ok(Term::Function {
                    name,
                    args,
                    span: self.span_from(start, end),
                })
            }
            Kind::BinaryFunction | Kind::Minus => {
                self.advance();
                let op = self.ident(head, true);
                let lhs = self.term()?;
                if head.kind == Kind::Minus && self.kind(0) == Kind::RParen {
                    let end = self.close("`)`")?;
                    return Ok(Term::Unary {
                        op,
                        span: self.span_from(start, end),
                    });
                }
                let rhs = self.term()?;
                let end = self.close("`)` closing the arithmetic term")?;
                Ok(Term::Arithmetic {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                    span: self.span_from(start, end),
                })
            }
            Kind::UnaryFunction => {
                self.advance();
                let op = self.ident(head, true);
                self.term()?;
                let end = self.close("`)` closing the arithmetic term")?;
                Ok(Term::Unary {
                    op,
                    span: self.span_from(start, end),
                })
            }
            _ => Err(self.unexpected("a function name")),
        }
    }

    /// `effect`: one `single_effect` or an `(and …)` of them.
    fn effect(&mut self) -> Parsed<Vec<Effect<'a>>> {
        if self.kind(0) == Kind::LParen && self.kind(1) == Kind::And {
            self.open("`(`")?;
            self.advance();
            let mut effects = Vec::new();
            while self.kind(0) == Kind::LParen {
                effects.push(self.single_effect()?);
            }
            self.close("`(` or `)` closing the effect's `and`")?;
            return Ok(effects);
        }
        Ok(vec![self.single_effect()?])
    }

    /// `single_effect`.
    fn single_effect(&mut self) -> Parsed<Effect<'a>> {
        match (self.kind(0), self.kind(1)) {
            (Kind::LParen, Kind::Forall) => {
                let start = self.open("`(`")?;
                self.advance();
                self.open("`(` opening the quantified variables")?;
                let vars = self.variables()?;
                self.close("a variable, `-` or `)`")?;
                let body = self.effect()?;
                let end = self.close("`)` closing `forall`")?;
                Ok(Effect::Forall {
                    vars,
                    body,
                    span: self.span_from(start, end),
                })
            }
            (Kind::LParen, Kind::When) => {
                self.open("`(`")?;
                self.advance();
                let condition = self.formula()?;
                let effects = if self.kind(0) == Kind::LParen && self.kind(1) == Kind::And {
                    self.open("`(`")?;
                    self.advance();
                    let mut effects = Vec::new();
                    while self.kind(0) == Kind::LParen {
                        effects.push(self.atomic_effect()?);
                    }
                    self.close("`(` or `)`")?;
                    effects
                } else {
                    vec![self.atomic_effect()?]
                };
                self.close("`)` closing `when`")?;
                Ok(Effect::When { condition, effects })
            }
            _ => Ok(Effect::Atomic(self.atomic_effect()?)),
        }
    }

    /// `atomic_effect`.
    fn atomic_effect(&mut self) -> Parsed<AtomicEffect<'a>> {
        if self.kind(0) != Kind::LParen {
            return Err(self.unexpected("`(` opening an effect"));
        }
        let head = self.peek(1);
        match head.kind {
            Kind::Name => Ok(AtomicEffect::Add(self.atom()?)),
            Kind::Not => {
                self.open("`(`")?;
                self.advance();
                let atom = self.atom()?;
                self.close("`)` closing `not`")?;
                Ok(AtomicEffect::Delete(atom))
            }
            Kind::Assign | Kind::AssignOp => {
                let start = self.open("`(`")?;
                self.advance();
                if self.kind(0) != Kind::LParen {
                    return Err(self.unexpected("a function term"));
                }
                let lhs = self.function_term()?;
                let rhs = self.term()?;
                let end = self.close("`)` closing the assignment")?;
                let span = self.span_from(start, end);
                if head.kind == Kind::Assign {
                    Ok(AtomicEffect::Assign {
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                        span,
                    })
                } else {
                    Ok(AtomicEffect::Update {
                        op: self.ident(head, true),
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                        span,
                    })
                }
            }
            Kind::And => Err(Rejection::new(
                "tarski does not accept an `(and …)` nested inside an effect",
                head.span,
            )
            .help("flatten the nested `and` into the effect's top-level `and`")),
            Kind::When | Kind::Forall => Err(Rejection::new(
                format!(
                    "tarski does not accept `{}` here: only atoms and assignments may appear inside `when`",
                    self.text_of(head.span)
                ),
                head.span,
            )),
            _ => Err(self
                .unexpected_after_paren("a predicate name, `not` or an assignment in an effect")),
        }
    }
}

/// The rejection for a token recognition error of tarski's lexer.
pub fn lex_error(text: &str, token: Token) -> Rejection {
    let found = text.get(token.span.start..token.span.end).unwrap_or("");
    let first = found.chars().next().unwrap_or(' ');
    let (message, help) = if first == ';' {
        (
            "tarski's lexer needs a line break after every comment, and this one ends the text"
                .to_string(),
            Some("end the file with a newline".to_string()),
        )
    } else if first == ':' {
        (
            format!(
                "tarski cannot read `{}`: keywords such as `:parameters` and requirement flags must be lower case and known to tarski",
                found.trim_end()
            ),
            Some(
                "write the keyword in lower case; tarski knows only PDDL 3.1's requirement flags"
                    .to_string(),
            ),
        )
    } else if first == '`' {
        (
            "tarski cannot read the backtick after the domain".to_string(),
            Some("remove the Markdown fence from the domain text".to_string()),
        )
    } else {
        let shown: String = found.chars().take(20).collect();
        (
            format!("tarski's lexer cannot read `{}`", shown.escape_debug()),
            None,
        )
    };
    let mut rejection = Rejection::new(message, token.span);
    rejection.help = help;
    rejection
}
