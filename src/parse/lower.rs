//! Lowering of pest pairs into the AST, with a diagnostic for every recovery pair.
//!
//! The grammar fixes the shape of every pair, so a shape this code does not expect is a bug in
//! pddlc: it is reported as `P000 internal-error` instead of a panic.

use super::Parsed;
use super::errors::{from_pest, locate};
use super::grammar::{PddlParser, Rule};
use crate::ast::*;
use crate::diagnostics::{Code, Diagnostic};
use pest::Parser;
use pest::iterators::{Pair, Pairs};

type P<'a> = Pair<'a, Rule>;

/// A pair of a shape the grammar rules out: where it was met, and what was expected.
struct Bug {
    span: Span,
    expected: &'static str,
}

type R<T> = Result<T, Bug>;

pub(super) fn file(source: &str, top_level_close: Option<usize>) -> Parsed<Option<PddlFile>> {
    let mut lower = Lower {
        source,
        diagnostics: Vec::new(),
        top_level_close,
    };
    if is_blank(source) {
        lower.diagnostics.push(
            Diagnostic::new(
                Code::EmptyInput,
                "the input is empty: expected `(define (domain …))` or `(define (problem …))`",
                Span::new(source.len(), source.len()),
            )
            .with_help("pass a PDDL domain or problem file"),
        );
        return lower.finish(None);
    }
    let whole = Span::new(0, source.len());
    let value = match PddlParser::parse(Rule::file, source) {
        Err(error) => {
            lower.diagnostics.push(from_pest(source, whole, &error));
            None
        }
        Ok(mut pairs) => match pairs.next() {
            Some(pair) => match lower.file(pair) {
                Ok(value) => value,
                Err(bug) => {
                    lower.bug(bug);
                    None
                }
            },
            None => {
                lower.bug(Bug {
                    span: whole,
                    expected: "a file",
                });
                None
            }
        },
    };
    lower.finish(value)
}

/// Whether the text has nothing but whitespace and comments.
fn is_blank(source: &str) -> bool {
    source.lines().all(|line| {
        let code = line.split(';').next().unwrap_or("");
        code.chars()
            .all(|c| c.is_whitespace() || c == '\u{FEFF}' || c == '\u{A0}')
    })
}

struct Lower<'s> {
    source: &'s str,
    diagnostics: Vec<Diagnostic>,
    top_level_close: Option<usize>,
}

/// Which sections a definition has seen, for duplicate reporting.
#[derive(Default)]
struct Seen {
    sections: Vec<(String, Span)>,
}

impl Seen {
    /// Records `keyword` at `span`; returns the span of an earlier occurrence.
    fn first(&mut self, keyword: &str, span: Span) -> Option<Span> {
        let keyword = keyword.to_ascii_lowercase();
        if let Some((_, earlier)) = self.sections.iter().find(|(k, _)| *k == keyword) {
            return Some(*earlier);
        }
        self.sections.push((keyword, span));
        None
    }
}

fn span(pair: &P) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn next<'a>(pairs: &mut Pairs<'a, Rule>, within: Span, expected: &'static str) -> R<P<'a>> {
    pairs.next().ok_or(Bug {
        span: within,
        expected,
    })
}

fn unexpected<T>(pair: &P, expected: &'static str) -> R<T> {
    Err(Bug {
        span: span(pair),
        expected,
    })
}

impl<'s> Lower<'s> {
    fn finish<T>(self, value: T) -> Parsed<T> {
        let mut diagnostics = self.diagnostics;
        crate::diagnostics::sort(&mut diagnostics);
        Parsed { value, diagnostics }
    }

    fn bug(&mut self, bug: Bug) {
        self.diagnostics.push(
            Diagnostic::new(
                Code::InternalError,
                format!("internal parser error: expected {} here", bug.expected),
                bug.span,
            )
            .with_help("this is a bug in pddlc; please report it with this input"),
        );
    }

    fn file(&mut self, pair: P<'s>) -> R<Option<PddlFile>> {
        let mut value = None;
        let mut trailing: Vec<Span> = Vec::new();
        let mut definition_span = None;
        for child in pair.into_inner() {
            match child.as_rule() {
                Rule::preamble => self.diagnostics.push(
                    Diagnostic::new(
                        Code::LispPreamble,
                        "a Lisp `(in-package …)` form before the definition is ignored",
                        span(&child),
                    )
                    .with_help("PDDL files hold one `(define …)`; remove this line"),
                ),
                Rule::domain => {
                    definition_span = Some(span(&child));
                    value = Some(PddlFile::Domain(self.domain(child)?));
                }
                Rule::problem => {
                    definition_span = Some(span(&child));
                    value = Some(PddlFile::Problem(self.problem(child)?));
                }
                Rule::bad_definition => self.bad_definition(&child),
                Rule::leading => self.diagnostics.push(
                    Diagnostic::new(
                        Code::SyntaxError,
                        format!("unexpected `{}` before the definition", child.as_str()),
                        span(&child),
                    )
                    .with_help("a PDDL file starts with `(define`; remove this"),
                ),
                Rule::trailing => trailing.push(span(&child)),
                Rule::EOI => {}
                _ => return unexpected(&child, "a definition"),
            }
        }
        self.trailing(&trailing, definition_span);
        Ok(value)
    }

    fn bad_definition(&mut self, pair: &P) {
        let at = span(pair);
        let text = pair.as_str().to_ascii_lowercase();
        let looks_like_problem = text.contains("(problem");
        let rule = if looks_like_problem {
            Rule::problem_exact
        } else {
            Rule::domain_exact
        };
        let what = if looks_like_problem {
            "problem"
        } else {
            "domain"
        };
        let diagnostic = if text.starts_with('(') && text[1..].trim_start().starts_with("define") {
            locate(self.source, at, rule, what)
        } else {
            Diagnostic::new(
                Code::SyntaxError,
                "expected `(define (domain …))` or `(define (problem …))`",
                at,
            )
        };
        self.diagnostics.push(diagnostic);
    }

    /// Reports what stands after the definition: surplus `)` are a warning, anything else an
    /// error (it is content the definition does not hold).
    fn trailing(&mut self, trailing: &[Span], definition: Option<Span>) {
        let Some(first) = trailing.first() else {
            return;
        };
        let content = trailing
            .iter()
            .find(|s| &self.source[s.start..s.end] != ")");
        match content {
            None => {
                let last = trailing[trailing.len() - 1];
                let count = trailing.len();
                let mut diagnostic = Diagnostic::new(
                    Code::SurplusClose,
                    if count == 1 {
                        "surplus `)` after the end of the definition".to_string()
                    } else {
                        format!("{count} surplus `)` after the end of the definition")
                    },
                    first.to(last),
                )
                .with_help("remove it; every form is already closed");
                if let Some(definition) = definition {
                    diagnostic = diagnostic.with_label(
                        Span::new(definition.end - 1, definition.end),
                        "the definition ends here",
                    );
                }
                self.diagnostics.push(diagnostic);
            }
            Some(content) => {
                let mut diagnostic = Diagnostic::new(
                    Code::ContentAfterDefinition,
                    format!(
                        "{} stands after the end of the definition",
                        describe_form(&self.source[content.start..content.end])
                    ),
                    *content,
                )
                .with_primary_message("outside the definition");
                let close = self
                    .top_level_close
                    .or(definition.map(|d| d.end.saturating_sub(1)));
                if let Some(close) = close {
                    diagnostic = diagnostic
                        .with_label(Span::new(close, close + 1), "the definition ends here")
                        .with_help(
                            "a `)` too many before this point closes the definition early; \
                             remove it so that what follows is part of the definition",
                        );
                }
                self.diagnostics.push(diagnostic);
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Tokens

    fn name(&self, pair: &P) -> Name {
        Name::new(pair.as_str(), span(pair))
    }

    fn variable(&self, pair: &P) -> Variable {
        let text = pair.as_str();
        Variable {
            name: Name::new(text.strip_prefix('?').unwrap_or(text), span(pair)),
        }
    }

    fn number(&self, pair: &P) -> Number {
        let text = pair.as_str();
        Number {
            text: text.to_string(),
            value: text.parse().unwrap_or(f64::NAN),
            span: span(pair),
        }
    }

    fn term(&self, pair: &P) -> R<Term> {
        match pair.as_rule() {
            Rule::variable => Ok(Term::Variable(self.variable(pair))),
            Rule::name => Ok(Term::Name(self.name(pair))),
            _ => unexpected(pair, "a term"),
        }
    }

    fn type_spec(&self, pair: P) -> R<Type> {
        match pair.as_rule() {
            Rule::name => Ok(Type::Name(self.name(&pair))),
            Rule::either_type => {
                let at = span(&pair);
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

    fn typed_names(&self, pair: P) -> R<Vec<Typed<Name>>> {
        self.typed(pair, |s, p| s.name(p))
    }

    fn typed_variables(&self, pair: P) -> R<Vec<Typed<Variable>>> {
        self.typed(pair, |s, p| s.variable(p))
    }

    // -----------------------------------------------------------------------------------------
    // Domains

    fn domain(&mut self, pair: P<'s>) -> R<Domain> {
        let at = span(&pair);
        let mut inner = pair.into_inner();
        next(&mut inner, at, "`define`")?;
        next(&mut inner, at, "`domain`")?;
        let name = self.name(&next(&mut inner, at, "a domain name")?);
        let mut domain = Domain {
            name,
            requirements: Vec::new(),
            types: Vec::new(),
            constants: Vec::new(),
            predicates: Vec::new(),
            functions: Vec::new(),
            constraints: None,
            structures: Vec::new(),
            span: at,
        };
        let mut seen = Seen::default();
        for section in inner {
            let section_span = span(&section);
            let keyword = section
                .clone()
                .into_inner()
                .next()
                .map(|k| k.as_str().to_string())
                .unwrap_or_default();
            match section.as_rule() {
                Rule::requirements_def => {
                    self.repeated(&mut seen, &keyword, section_span);
                    domain.requirements.extend(self.requirements(section));
                }
                Rule::types_def => {
                    self.repeated(&mut seen, &keyword, section_span);
                    let list = self.list_section(section)?;
                    domain.types.extend(list);
                }
                Rule::constants_def => {
                    self.repeated(&mut seen, &keyword, section_span);
                    let list = self.list_section(section)?;
                    domain.constants.extend(list);
                }
                Rule::predicates_def => {
                    self.repeated(&mut seen, &keyword, section_span);
                    for item in section.into_inner().skip(1) {
                        match item.as_rule() {
                            Rule::atomic_skeleton => domain.predicates.push(self.skeleton(item)?),
                            _ => self.bad(&item, Rule::atomic_skeleton_exact, "predicate"),
                        }
                    }
                }
                Rule::functions_def => {
                    self.repeated(&mut seen, &keyword, section_span);
                    let decls = section.into_inner().nth(1);
                    if let Some(decls) = decls {
                        self.functions(decls, &mut domain.functions)?;
                    }
                }
                Rule::constraints_def => {
                    let gd = self.slot_section(section);
                    if self.single(&mut seen, &keyword, section_span) {
                        domain.constraints = gd;
                    }
                }
                Rule::action_def => {
                    let action = self.action(section, "action")?;
                    domain.structures.push(Structure::Action(action));
                }
                Rule::process_def => {
                    let action = self.action(section, "process")?;
                    domain.structures.push(Structure::Process(action));
                }
                Rule::event_def => {
                    let action = self.action(section, "event")?;
                    domain.structures.push(Structure::Event(action));
                }
                Rule::durative_action_def => {
                    let action = self.durative_action(section)?;
                    domain.structures.push(Structure::DurativeAction(action));
                }
                Rule::derived_def => {
                    let derived = self.derived(section)?;
                    if let Some(derived) = derived {
                        domain.structures.push(Structure::Derived(derived));
                    }
                }
                Rule::global_constraint_def => {
                    let constraint = self.global_constraint(section)?;
                    domain.structures.push(Structure::Constraint(constraint));
                }
                Rule::bad_domain_section => self.bad_section(&section, Definition::Domain),
                _ => return unexpected(&section, "a domain section"),
            }
        }
        Ok(domain)
    }

    /// Records a list section; a second one is merged, with a warning.
    fn repeated(&mut self, seen: &mut Seen, keyword: &str, at: Span) {
        if let Some(earlier) = seen.first(keyword, at) {
            self.diagnostics.push(
                Diagnostic::new(
                    Code::RepeatedSection,
                    format!("`{keyword}` appears again; its contents are merged with the first"),
                    at,
                )
                .with_label(earlier, "first here")
                .with_help("merge the two sections into one"),
            );
        }
    }

    /// Records a section that holds one value; returns false (after an error) for a second one.
    fn single(&mut self, seen: &mut Seen, keyword: &str, at: Span) -> bool {
        match seen.first(keyword, at) {
            None => true,
            Some(earlier) => {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::DuplicateSection,
                        format!("`{keyword}` appears twice; the second is ignored"),
                        at,
                    )
                    .with_label(earlier, "first here")
                    .with_help("keep one of them"),
                );
                false
            }
        }
    }

    fn requirements(&self, section: P) -> Vec<Name> {
        section
            .into_inner()
            .filter(|p| p.as_rule() == Rule::requirement)
            .map(|p| self.name(&p))
            .collect()
    }

    /// `(:types …)`, `(:constants …)`, `(:objects …)`: a keyword and a typed list of names.
    fn list_section(&self, section: P) -> R<Vec<Typed<Name>>> {
        let at = span(&section);
        let mut inner = section.into_inner();
        next(&mut inner, at, "a section keyword")?;
        self.typed_names(next(&mut inner, at, "a typed list")?)
    }

    /// A section holding one goal description: `(:constraints gd)`, `(:goal gd)`.
    fn slot_section(&mut self, section: P<'s>) -> Option<Gd> {
        let value = section.into_inner().nth(1)?;
        self.gd_slot(value)
    }

    fn skeleton(&self, pair: P) -> R<AtomicSkeleton> {
        let at = span(&pair);
        let mut inner = pair.into_inner();
        let name = self.name(&next(&mut inner, at, "a predicate name")?);
        let parameters = self.typed_variables(next(&mut inner, at, "parameters")?)?;
        Ok(AtomicSkeleton {
            name,
            parameters,
            span: at,
        })
    }

    fn functions(&mut self, decls: P<'s>, out: &mut Vec<FunctionDecl>) -> R<()> {
        for group in decls.into_inner() {
            if group.as_rule() != Rule::function_group {
                self.bad(&group, Rule::function_decl_exact, "function declaration");
                continue;
            }
            let mut skeletons = Vec::new();
            let mut ty = None;
            for member in group.into_inner() {
                match member.as_rule() {
                    Rule::atomic_skeleton => skeletons.push(self.skeleton(member)?),
                    _ => ty = Some(self.type_spec(member)?),
                }
            }
            out.extend(skeletons.into_iter().map(|s| FunctionDecl {
                name: s.name,
                parameters: s.parameters,
                ty: ty.clone(),
                span: s.span,
            }));
        }
        Ok(())
    }

    fn action(&mut self, pair: P<'s>, kind: &'static str) -> R<Action> {
        let at = span(&pair);
        let mut inner = pair.into_inner();
        next(&mut inner, at, "a keyword")?;
        let name = self.name(&next(&mut inner, at, "a name")?);
        let mut action = Action {
            name,
            parameters: Vec::new(),
            vars: Vec::new(),
            precondition: None,
            effect: None,
            span: at,
        };
        let mut seen = Seen::default();
        for part in inner {
            let part_span = span(&part);
            match part.as_rule() {
                Rule::parameters_part => {
                    let parameters = self.parameters(part)?;
                    if self.part_once(&mut seen, ":parameters", part_span, kind) {
                        action.parameters = parameters;
                    }
                }
                Rule::vars_part => {
                    let vars = self.parameters(part)?;
                    if self.part_once(&mut seen, ":vars", part_span, kind) {
                        action.vars = vars;
                    }
                }
                Rule::precondition_part => {
                    let gd = self.part_gd(part);
                    if self.part_once(&mut seen, ":precondition", part_span, kind) {
                        action.precondition = gd;
                    }
                }
                Rule::effect_part => {
                    let effect = self.part_effect(part);
                    if self.part_once(&mut seen, ":effect", part_span, kind) {
                        action.effect = effect;
                    }
                }
                Rule::bad_part => self.bad_part(
                    &part,
                    kind,
                    &[":parameters", ":vars", ":precondition", ":effect"],
                ),
                _ => return unexpected(&part, "an action part"),
            }
        }
        Ok(action)
    }

    fn durative_action(&mut self, pair: P<'s>) -> R<DurativeAction> {
        let at = span(&pair);
        let mut inner = pair.into_inner();
        next(&mut inner, at, "`:durative-action`")?;
        let name = self.name(&next(&mut inner, at, "a name")?);
        let mut action = DurativeAction {
            name,
            parameters: Vec::new(),
            duration: None,
            condition: None,
            effect: None,
            span: at,
        };
        let kind = "durative action";
        let mut seen = Seen::default();
        for part in inner {
            let part_span = span(&part);
            match part.as_rule() {
                Rule::parameters_part => {
                    let parameters = self.parameters(part)?;
                    if self.part_once(&mut seen, ":parameters", part_span, kind) {
                        action.parameters = parameters;
                    }
                }
                Rule::duration_part => {
                    let gd = self.part_gd(part);
                    if self.part_once(&mut seen, ":duration", part_span, kind) {
                        action.duration = gd;
                    }
                }
                Rule::condition_part => {
                    let gd = self.part_gd(part);
                    if self.part_once(&mut seen, ":condition", part_span, kind) {
                        action.condition = gd;
                    }
                }
                Rule::effect_part => {
                    let effect = self.part_effect(part);
                    if self.part_once(&mut seen, ":effect", part_span, kind) {
                        action.effect = effect;
                    }
                }
                Rule::bad_part => self.bad_part(
                    &part,
                    kind,
                    &[":parameters", ":duration", ":condition", ":effect"],
                ),
                _ => return unexpected(&part, "a durative action part"),
            }
        }
        Ok(action)
    }

    fn global_constraint(&mut self, pair: P<'s>) -> R<GlobalConstraint> {
        let at = span(&pair);
        let mut inner = pair.into_inner();
        next(&mut inner, at, "`:constraint`")?;
        let name = self.name(&next(&mut inner, at, "a name")?);
        let mut constraint = GlobalConstraint {
            name,
            parameters: Vec::new(),
            condition: None,
            span: at,
        };
        let kind = "constraint";
        let mut seen = Seen::default();
        for part in inner {
            let part_span = span(&part);
            match part.as_rule() {
                Rule::parameters_part => {
                    let parameters = self.parameters(part)?;
                    if self.part_once(&mut seen, ":parameters", part_span, kind) {
                        constraint.parameters = parameters;
                    }
                }
                Rule::condition_part => {
                    let gd = self.part_gd(part);
                    if self.part_once(&mut seen, ":condition", part_span, kind) {
                        constraint.condition = gd;
                    }
                }
                Rule::bad_part => self.bad_part(&part, kind, &[":parameters", ":condition"]),
                _ => return unexpected(&part, "a constraint part"),
            }
        }
        Ok(constraint)
    }

    fn derived(&mut self, pair: P<'s>) -> R<Option<Derived>> {
        let at = span(&pair);
        let mut inner = pair.into_inner();
        next(&mut inner, at, "`:derived`")?;
        let predicate = self.skeleton(next(&mut inner, at, "a predicate")?)?;
        let body = self.gd_slot(next(&mut inner, at, "a goal description")?);
        Ok(body.map(|body| Derived {
            predicate,
            body,
            span: at,
        }))
    }

    /// Records a part of an action-like definition; false (after an error) for a second one.
    fn part_once(&mut self, seen: &mut Seen, keyword: &str, at: Span, kind: &str) -> bool {
        match seen.first(keyword, at) {
            None => true,
            Some(earlier) => {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::DuplicatePart,
                        format!("this {kind} has `{keyword}` twice; the second is ignored"),
                        at,
                    )
                    .with_label(earlier, "first here")
                    .with_help(format!("keep one `{keyword}`")),
                );
                false
            }
        }
    }

    fn parameters(&self, part: P) -> R<Vec<Typed<Variable>>> {
        let at = span(&part);
        let mut inner = part.into_inner();
        next(&mut inner, at, "`:parameters`")?;
        self.typed_variables(next(&mut inner, at, "a list of variables")?)
    }

    fn part_gd(&mut self, part: P<'s>) -> Option<Gd> {
        let value = part.into_inner().nth(1)?;
        self.gd_slot(value)
    }

    fn part_effect(&mut self, part: P<'s>) -> Option<Effect> {
        let value = part.into_inner().nth(1)?;
        self.effect_slot(value)
    }

    /// A part that did not parse: a keyword without a value, an unknown keyword, a value that
    /// is not what the keyword takes, or a form without a keyword.
    fn bad_part(&mut self, part: &P, kind: &str, known: &[&str]) {
        let at = span(part);
        let mut inner = part.clone().into_inner();
        let first = inner.next();
        let keyword = first
            .as_ref()
            .filter(|p| p.as_rule() == Rule::keyword_token);
        let Some(keyword) = keyword else {
            self.diagnostics.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    format!(
                        "expected a `:keyword` in this {kind}, found {}",
                        describe_form(part.as_str())
                    ),
                    at,
                )
                .with_help(format!(
                    "{} has the parts {}",
                    with_article(kind),
                    list_keywords(known)
                )),
            );
            return;
        };
        let text = keyword.as_str();
        let key_span = span(keyword);
        let has_value = inner.next().is_some();
        if known.iter().any(|k| k.eq_ignore_ascii_case(text)) {
            if !has_value {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::MissingValue,
                        format!("`{text}` has no value"),
                        key_span,
                    )
                    .with_help(if text.eq_ignore_ascii_case(":parameters") {
                        "write `:parameters ()` for an action without parameters".to_string()
                    } else {
                        format!("give `{text}` a value, or remove it")
                    }),
                );
            } else if text.eq_ignore_ascii_case(":parameters") {
                self.diagnostics.push(locate(
                    self.source,
                    at,
                    Rule::parameters_exact,
                    "parameter list",
                ));
            } else {
                // Other parts take any form and recover inside it, so only a keyword where the
                // value should be ends up here; that is handled above.
                self.diagnostics.push(Diagnostic::new(
                    Code::SyntaxError,
                    format!("`{text}` has no valid value"),
                    at,
                ));
            }
            return;
        }
        let mut diagnostic = Diagnostic::new(
            Code::UnknownPart,
            format!("{} has no part `{text}`", with_article(kind)),
            key_span,
        );
        let suggestion = known
            .iter()
            .map(|k| (strsim::jaro_winkler(&text.to_ascii_lowercase(), k), k))
            .filter(|(score, _)| *score > 0.8)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        diagnostic = match suggestion {
            Some((_, k)) => diagnostic.with_help(format!("did you mean `{k}`?")),
            None => diagnostic.with_help(format!(
                "{} has the parts {}",
                with_article(kind),
                list_keywords(known)
            )),
        };
        self.diagnostics.push(diagnostic);
    }

    /// A section that did not parse: unknown, in the wrong kind of file, or malformed.
    fn bad_section(&mut self, pair: &P, definition: Definition) {
        let at = span(pair);
        let text = pair.as_str();
        let head = text
            .strip_prefix('(')
            .map(|rest| {
                rest.trim_start()
                    .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ';')
                    .next()
                    .unwrap_or("")
            })
            .unwrap_or("");
        let head_lower = head.to_ascii_lowercase();
        let (own, other, exact) = match definition {
            Definition::Domain => (
                DOMAIN_SECTIONS,
                PROBLEM_SECTIONS,
                Rule::domain_section_exact,
            ),
            Definition::Problem => (
                PROBLEM_SECTIONS,
                DOMAIN_SECTIONS,
                Rule::problem_section_exact,
            ),
        };
        let what = definition.as_str();
        if own.contains(&head_lower.as_str()) {
            self.diagnostics
                .push(locate(self.source, at, exact, &format!("`{head}` section")));
            return;
        }
        let head_span = Span::new(
            at.start + text.find(head).unwrap_or(0),
            at.start + text.find(head).unwrap_or(0) + head.len(),
        );
        if !head.starts_with(':') {
            self.diagnostics.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    format!(
                        "expected a section such as `(:{} …)`, found {}",
                        own[0].trim_start_matches(':'),
                        describe_form(text)
                    ),
                    at,
                )
                .with_help(format!(
                    "a {what} holds the sections {}",
                    list_keywords(own)
                )),
            );
            return;
        }
        let mut diagnostic = Diagnostic::new(
            Code::UnknownSection,
            if other.contains(&head_lower.as_str()) {
                format!(
                    "`{head}` is a section of a {}, not of a {what}",
                    definition.other()
                )
            } else {
                format!("a {what} has no section `{head}`")
            },
            head_span,
        );
        let suggestion = own
            .iter()
            .map(|k| (strsim::jaro_winkler(&head_lower, k), k))
            .filter(|(score, _)| *score > 0.85)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        diagnostic = match suggestion {
            Some((_, k)) => diagnostic.with_help(format!("did you mean `{k}`?")),
            None => diagnostic.with_help(format!(
                "a {what} holds the sections {}",
                list_keywords(own)
            )),
        };
        self.diagnostics.push(diagnostic);
    }

    /// A recovery pair where `exact` was expected.
    fn bad(&mut self, pair: &P, exact: Rule, what: &str) {
        self.diagnostics
            .push(locate(self.source, span(pair), exact, what));
    }

    // -----------------------------------------------------------------------------------------
    // Goal descriptions

    fn gd_slot(&mut self, pair: P<'s>) -> Option<Gd> {
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

    fn gd(&mut self, pair: P<'s>) -> R<Gd> {
        let at = span(&pair);
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
                    span: span(&op_pair),
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
                GdKind::Compare { op, lhs, rhs }
            }
            _ => return unexpected(&form, "a goal description"),
        };
        Ok(Gd { kind, span: at })
    }

    fn time_spec(&self, pair: &P) -> R<TimeSpec> {
        let words: Vec<Rule> = pair.clone().into_inner().map(|p| p.as_rule()).collect();
        match words.as_slice() {
            [Rule::kw_at, Rule::kw_start] => Ok(TimeSpec::AtStart),
            [Rule::kw_at, Rule::kw_end] => Ok(TimeSpec::AtEnd),
            [Rule::kw_over, Rule::kw_all] => Ok(TimeSpec::OverAll),
            _ => unexpected(pair, "a time specifier"),
        }
    }

    fn atom(&self, pair: P) -> R<Atom> {
        let at = span(&pair);
        let mut inner = pair.into_inner();
        let predicate = self.name(&next(&mut inner, at, "a predicate")?);
        let args = inner.map(|p| self.term(&p)).collect::<R<Vec<_>>>()?;
        Ok(Atom {
            predicate,
            args,
            span: at,
        })
    }

    fn function_term(&self, pair: P) -> R<FunctionTerm> {
        let at = span(&pair);
        let mut inner = pair.into_inner();
        let name = self.name(&next(&mut inner, at, "a function name")?);
        let args = inner.map(|p| self.term(&p)).collect::<R<Vec<_>>>()?;
        Ok(FunctionTerm {
            name,
            args,
            span: at,
        })
    }

    // -----------------------------------------------------------------------------------------
    // Numeric expressions

    fn expr(&mut self, pair: P) -> R<Expr> {
        let at = span(&pair);
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

    // -----------------------------------------------------------------------------------------
    // Effects

    fn effect_slot(&mut self, pair: P<'s>) -> Option<Effect> {
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
        let at = span(&pair);
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

    // -----------------------------------------------------------------------------------------
    // Problems

    fn problem(&mut self, pair: P<'s>) -> R<Problem> {
        let at = span(&pair);
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
            let section_span = span(&section);
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
        let at = span(&pair);
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
                let value_span = span(&value_pair);
                let value = match value_pair.as_rule() {
                    Rule::number => ExprKind::Number(self.number(&value_pair)),
                    _ => ExprKind::Term {
                        term: self.term(&value_pair)?,
                    },
                };
                InitKind::Assign {
                    target,
                    value: Expr {
                        kind: value,
                        span: value_span,
                    },
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
        let at = span(&pair);
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
            span: span(&pair),
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

#[derive(Clone, Copy)]
enum Definition {
    Domain,
    Problem,
}

impl Definition {
    fn as_str(self) -> &'static str {
        match self {
            Definition::Domain => "domain",
            Definition::Problem => "problem",
        }
    }

    fn other(self) -> &'static str {
        match self {
            Definition::Domain => "problem",
            Definition::Problem => "domain",
        }
    }
}

const DOMAIN_SECTIONS: &[&str] = &[
    ":requirements",
    ":types",
    ":constants",
    ":predicates",
    ":functions",
    ":constraints",
    ":action",
    ":durative-action",
    ":process",
    ":event",
    ":derived",
];

const PROBLEM_SECTIONS: &[&str] = &[
    ":domain",
    ":requirements",
    ":objects",
    ":init",
    ":goal",
    ":constraints",
    ":metric",
    ":length",
];

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

/// "an action", "a process".
fn with_article(noun: &str) -> String {
    let vowel = noun.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {noun}", if vowel { "an" } else { "a" })
}

fn list_keywords(keywords: &[&str]) -> String {
    let quoted: Vec<String> = keywords.iter().map(|k| format!("`{k}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}

/// "`(foo …)`" or "`bar`" for a form's text.
fn describe_form(text: &str) -> String {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix('(') {
        let head: String = rest
            .trim_start()
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '(' && *c != ')')
            .collect();
        if head.is_empty() {
            "`(…)`".to_string()
        } else {
            format!("`({head} …)`")
        }
    } else {
        format!("`{}`", text.chars().take(40).collect::<String>())
    }
}
