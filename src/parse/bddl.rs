//! BDDL text to [`crate::ast::bddl`]: the grammar `grammar/bddl.pest`, with the same lexical
//! pass over parentheses as PDDL and a diagnostic for every form that did not parse.

use super::{Parsed, scan, with_stack};
use crate::ast::bddl::*;
use crate::ast::{Name, Span};
use crate::diagnostics::{Code, Diagnostic, Severity};
use pest::Parser;
use pest::iterators::Pair;

mod grammar {
    use pest_derive::Parser;

    #[derive(Parser)]
    #[grammar = "../grammar/bddl.pest"]
    pub(super) struct BddlParser;
}

use grammar::{BddlParser, Rule};

/// Parses a BDDL domain or problem. Never fails: what could not be read is a diagnostic.
pub fn bddl(source: &str) -> Parsed<Option<BddlFile>> {
    with_stack(|| parse(source))
}

fn parse(source: &str) -> Parsed<Option<BddlFile>> {
    let mut scanned = scan::scan(source);
    if scanned.diagnostics.iter().any(Diagnostic::is_error) {
        crate::diagnostics::cap(&mut scanned.diagnostics);
        return Parsed {
            value: None,
            diagnostics: scanned.diagnostics,
        };
    }
    if source.trim().is_empty() || source.lines().all(|l| l.trim().starts_with(';')) {
        let end = source.len();
        return Parsed {
            value: None,
            diagnostics: vec![
                Diagnostic::new(
                    Code::EmptyInput,
                    "the input is empty: expected `(define (problem …))` or `(define (domain …))`",
                    Span::new(end, end),
                )
                .with_help("pass a BDDL activity definition or domain file"),
            ],
        };
    }
    let mut lower = Lower {
        diagnostics: scanned.diagnostics,
    };
    let value = match BddlParser::parse(Rule::file, source) {
        Ok(mut pairs) => pairs.next().and_then(|file| lower.file(file)),
        Err(error) => {
            let at = match error.location {
                pest::error::InputLocation::Pos(at) => at,
                pest::error::InputLocation::Span((at, _)) => at,
            };
            lower.diagnostics.push(Diagnostic::new(
                Code::SyntaxError,
                "the text does not match the BDDL grammar here",
                Span::new(at, (at + 1).min(source.len())),
            ));
            None
        }
    };
    let mut diagnostics = lower.diagnostics;
    crate::diagnostics::sort(&mut diagnostics);
    crate::diagnostics::cap(&mut diagnostics);
    Parsed { value, diagnostics }
}

struct Lower {
    diagnostics: Vec<Diagnostic>,
}

fn span_of(pair: &Pair<Rule>) -> Span {
    Span::new(pair.as_span().start(), pair.as_span().end())
}

fn name_of(pair: Pair<Rule>) -> Name {
    Name::new(pair.as_str(), span_of(&pair))
}

/// The head of a form as the reader sees it: its first token, or `(` for a list.
fn head_of(text: &str) -> &str {
    let inner = text.strip_prefix('(').unwrap_or(text).trim_start();
    let end = inner
        .find(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ';')
        .unwrap_or(inner.len());
    &inner[..end]
}

impl Lower {
    fn error(&mut self, code: Code, message: String, span: Span) -> &mut Diagnostic {
        self.diagnostics.push(Diagnostic::new(code, message, span));
        let last = self.diagnostics.len() - 1;
        &mut self.diagnostics[last]
    }

    fn verbatim(&self, pair: &Pair<Rule>) -> Verbatim {
        Verbatim {
            text: pair.as_str().to_string(),
            span: span_of(pair),
        }
    }

    fn file(&mut self, file: Pair<Rule>) -> Option<BddlFile> {
        let mut value = None;
        let mut definition_end = None;
        for pair in file.into_inner() {
            match pair.as_rule() {
                Rule::domain => {
                    definition_end = Some(span_of(&pair).end);
                    value = Some(BddlFile::Domain(self.domain(pair)));
                }
                Rule::problem => {
                    definition_end = Some(span_of(&pair).end);
                    value = Some(BddlFile::Problem(self.problem(pair)));
                }
                Rule::bad_definition => {
                    let span = span_of(&pair);
                    let message = format!(
                        "expected `(define (problem …))` or `(define (domain …))`, found `{}`",
                        head_of(pair.as_str())
                    );
                    self.error(Code::SyntaxError, message, span).help = Some(
                        "a BDDL file is one `(define …)` form; the reference reader fails with \
                         \"does not match problem pattern\""
                            .into(),
                    );
                }
                Rule::trailing => self.trailing(&pair, definition_end),
                _ => {}
            }
        }
        value
    }

    /// Anything after the definition: the reference fails on it ("Missing open parenthesis" for
    /// a `)`, "Malformed expression" for a form), so both are errors here.
    fn trailing(&mut self, pair: &Pair<Rule>, definition_end: Option<usize>) {
        let span = span_of(pair);
        let (code, message) = if pair.as_str() == ")" {
            (
                Code::SurplusClose,
                "surplus `)` after the end of the definition".to_string(),
            )
        } else {
            (
                Code::ContentAfterDefinition,
                format!(
                    "`{}` stands after the end of the definition",
                    head_of(pair.as_str())
                ),
            )
        };
        let mut diagnostic = Diagnostic::new(code, message, span).with_severity(Severity::Error);
        if let Some(end) = definition_end {
            diagnostic = diagnostic.with_label(Span::new(end - 1, end), "the definition ends here");
        }
        self.diagnostics.push(diagnostic.with_help(
            "BDDL's reader rejects the file: remove it, or move it inside the definition",
        ));
    }

    fn domain(&mut self, domain: Pair<Rule>) -> BddlDomain {
        let span = span_of(&domain);
        let mut name = None;
        let mut sections = Vec::new();
        for pair in domain.into_inner() {
            match pair.as_rule() {
                Rule::name => name = Some(name_of(pair)),
                Rule::requirements => sections.push(DomainSection::Requirements {
                    span: span_of(&pair),
                    flags: tokens(pair),
                }),
                Rule::types => {
                    let span = span_of(&pair);
                    let types = self.typed_names(only_child(pair));
                    sections.push(DomainSection::Types { types, span });
                }
                Rule::predicates => {
                    let span = span_of(&pair);
                    let predicates = self.predicates(pair);
                    sections.push(DomainSection::Predicates { predicates, span });
                }
                Rule::unknown_section => {
                    sections.push(DomainSection::Unknown(self.unknown_section(&pair)))
                }
                _ => {}
            }
        }
        BddlDomain {
            name: name.unwrap_or_else(|| Name::new("", span)),
            sections,
            span,
        }
    }

    fn predicates(&mut self, pair: Pair<Rule>) -> Vec<PredicateDecl> {
        let mut predicates = Vec::new();
        for item in pair.into_inner() {
            match item.as_rule() {
                Rule::predicate => {
                    let span = span_of(&item);
                    let mut inner = item.into_inner();
                    let (Some(name), Some(parameters)) = (inner.next(), inner.next()) else {
                        continue;
                    };
                    predicates.push(PredicateDecl {
                        name: name_of(name),
                        parameters: self.typed_names(Some(parameters)),
                        span,
                    });
                }
                Rule::bad_form => {
                    let message = format!(
                        "expected a predicate declaration such as `(inside ?obj1 ?obj2)`, found `{}`",
                        item.as_str()
                    );
                    self.error(Code::SyntaxError, message, span_of(&item));
                }
                _ => {}
            }
        }
        predicates
    }

    fn unknown_section(&mut self, pair: &Pair<Rule>) -> Verbatim {
        let span = span_of(pair);
        let head = head_of(pair.as_str());
        let message = if pair.as_str().starts_with('(') {
            format!("`{head}` is not a BDDL section")
        } else {
            format!("stray `{head}` between sections")
        };
        let diagnostic = Diagnostic::new(Code::UnknownSection, message, span)
            .with_severity(Severity::Warning)
            .with_help("the reference reader skips it; remove it or correct its keyword");
        self.diagnostics.push(diagnostic);
        self.verbatim(pair)
    }

    fn problem(&mut self, problem: Pair<Rule>) -> BddlProblem {
        let span = span_of(&problem);
        let mut name = None;
        let mut sections = Vec::new();
        for pair in problem.into_inner() {
            let section_span = span_of(&pair);
            let section = match pair.as_rule() {
                Rule::name => {
                    name = Some(name_of(pair));
                    continue;
                }
                Rule::problem_domain => ProblemSection::Domain {
                    name: pair
                        .into_inner()
                        .find(|p| p.as_rule() == Rule::name)
                        .map(name_of),
                    span: section_span,
                },
                Rule::requirements => ProblemSection::Requirements {
                    flags: tokens(pair),
                    span: section_span,
                },
                Rule::objects => ProblemSection::Objects {
                    groups: self.typed_names(only_child(pair)),
                    span: section_span,
                },
                Rule::init => ProblemSection::Init {
                    literals: self.formulas(pair),
                    span: section_span,
                },
                Rule::goal => ProblemSection::Goal {
                    formulas: self.formulas(pair),
                    span: section_span,
                },
                Rule::unknown_section => ProblemSection::Unknown(self.unknown_section(&pair)),
                _ => continue,
            };
            sections.push(section);
        }
        BddlProblem {
            name: name.unwrap_or_else(|| Name::new("", span)),
            sections,
            span,
        }
    }

    /// `a b - c d - e f`: groups with their category, then names without one.
    fn typed_names(&mut self, pair: Option<Pair<Rule>>) -> Vec<TypedGroup> {
        let Some(pair) = pair else {
            return Vec::new();
        };
        let mut groups = Vec::new();
        let mut untyped: Vec<Name> = Vec::new();
        for item in pair.into_inner() {
            match item.as_rule() {
                Rule::typed_group => {
                    let span = span_of(&item);
                    let mut names: Vec<Name> = item
                        .into_inner()
                        .filter(|p| p.as_rule() == Rule::name)
                        .map(name_of)
                        .collect();
                    let category = names.pop();
                    groups.push(TypedGroup {
                        names,
                        category,
                        span,
                    });
                }
                Rule::name => untyped.push(name_of(item)),
                Rule::dangling_hyphen => {
                    let message = "`-` without a category after it".to_string();
                    self.error(Code::SyntaxError, message, span_of(&item)).help = Some(
                        "write the category after the `-` (the reference reader fails with \
                         IndexError here)"
                            .into(),
                    );
                }
                _ => {}
            }
        }
        if let (Some(first), Some(last)) = (untyped.first(), untyped.last()) {
            let span = first.span.to(last.span);
            groups.push(TypedGroup {
                names: untyped,
                category: None,
                span,
            });
        }
        groups
    }

    fn formulas(&mut self, pair: Pair<Rule>) -> Vec<Formula> {
        pair.into_inner()
            .filter(|p| !is_keyword(p.as_rule()))
            .map(|p| self.formula(p))
            .collect()
    }

    fn formula(&mut self, pair: Pair<Rule>) -> Formula {
        let span = span_of(&pair);
        let rule = pair.as_rule();
        let kind = match rule {
            Rule::atom => {
                let mut names = pair.into_inner().map(name_of);
                // The grammar's `atom` starts with a name.
                let predicate = names.next().unwrap_or_else(|| Name::new("", span));
                FormulaKind::Atom {
                    predicate,
                    args: names.collect(),
                }
            }
            Rule::and => FormulaKind::And(self.formulas(pair)),
            Rule::or => FormulaKind::Or(self.formulas(pair)),
            Rule::not => FormulaKind::Not(self.formulas(pair)),
            Rule::imply => FormulaKind::Imply(self.formulas(pair)),
            Rule::forall | Rule::exists | Rule::forn | Rule::forpairs | Rule::fornpairs => {
                self.quantifier(pair)
            }
            _ => FormulaKind::Verbatim(self.bad_form(&pair)),
        };
        Formula { kind, span }
    }

    fn quantifier(&mut self, pair: Pair<Rule>) -> FormulaKind {
        let rule = pair.as_rule();
        let span = span_of(&pair);
        let mut count = None;
        let mut declarations = Vec::new();
        let mut body = None;
        for item in pair.into_inner() {
            match item.as_rule() {
                Rule::count => {
                    let parenthesised = item.as_str().starts_with('(');
                    let count_span = span_of(&item);
                    let text = item.into_inner().next().map(name_of);
                    count = text.map(|text| Count {
                        text,
                        parenthesised,
                        span: count_span,
                    });
                }
                Rule::declaration => {
                    let declaration_span = span_of(&item);
                    let mut names = item.into_inner().filter(|p| p.as_rule() == Rule::name);
                    if let (Some(variable), Some(category)) = (names.next(), names.next()) {
                        declarations.push(Declaration {
                            variable: name_of(variable),
                            category: name_of(category),
                            span: declaration_span,
                        });
                    }
                }
                r if is_keyword(r) => {}
                _ => body = Some(Box::new(self.formula(item))),
            }
        }
        let body = body.unwrap_or_else(|| {
            Box::new(Formula {
                kind: FormulaKind::And(Vec::new()),
                span,
            })
        });
        let mut declarations = declarations.into_iter();
        // The grammar's rules give each quantifier its declarations and count.
        let (first, second) = (declarations.next(), declarations.next());
        let missing = || Declaration {
            variable: Name::new("", span),
            category: Name::new("", span),
            span,
        };
        let zero = || Count {
            text: Name::new("0", span),
            parenthesised: true,
            span,
        };
        let first = first.unwrap_or_else(missing);
        match rule {
            Rule::forall => FormulaKind::Forall {
                variable: first,
                body,
            },
            Rule::exists => FormulaKind::Exists {
                variable: first,
                body,
            },
            Rule::forn => FormulaKind::Forn {
                count: count.unwrap_or_else(zero),
                variable: first,
                body,
            },
            Rule::forpairs => FormulaKind::ForPairs {
                first,
                second: second.unwrap_or_else(missing),
                body,
            },
            _ => FormulaKind::ForNPairs {
                count: count.unwrap_or_else(zero),
                first,
                second: second.unwrap_or_else(missing),
                body,
            },
        }
    }

    /// A form where a formula was expected: says what it should have been.
    fn bad_form(&mut self, pair: &Pair<Rule>) -> Verbatim {
        let text = pair.as_str();
        let head = head_of(text).to_ascii_lowercase();
        let message = if !text.starts_with('(') {
            format!("expected a formula in parentheses, found `{text}`")
        } else {
            match head.as_str() {
                "forall" | "exists" => {
                    format!("`{head}` takes a declaration `(?v - category)` and one formula")
                }
                "forn" => {
                    "`forn` takes a count `(N)`, a declaration `(?v - category)` and one formula"
                        .into()
                }
                "forpairs" => {
                    "`forpairs` takes two declarations `(?v - category)` and one formula".into()
                }
                "fornpairs" => {
                    "`fornpairs` takes a count `(N)`, two declarations and one formula".into()
                }
                "" => "a formula must start with a predicate or an operator".into(),
                _ => format!("`{head}` is not a formula: an atom's arguments are names"),
            }
        };
        self.error(Code::SyntaxError, message, span_of(pair));
        self.verbatim(pair)
    }
}

fn is_keyword(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::kw_and
            | Rule::kw_or
            | Rule::kw_not
            | Rule::kw_imply
            | Rule::kw_forall
            | Rule::kw_exists
            | Rule::kw_forn
            | Rule::kw_forpairs
            | Rule::kw_fornpairs
            | Rule::kw_s_init
            | Rule::kw_s_goal
    )
}

/// The tokens of a list section after its keyword.
fn tokens(pair: Pair<Rule>) -> Vec<Name> {
    pair.into_inner()
        .filter(|p| p.as_rule() == Rule::token)
        .map(name_of)
        .collect()
}

/// The `typed_names` child of a section.
fn only_child(pair: Pair<Rule>) -> Option<Pair<Rule>> {
    pair.into_inner().find(|p| p.as_rule() == Rule::typed_names)
}
