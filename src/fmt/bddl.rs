//! BDDL tree to canonical text, with the layout and comment handling of PDDL's printer:
//! `parse::bddl(fmt::bddl(tree))` is the tree again, spans aside. Sections print in file order,
//! repeats included (the reference gives them a meaning).

use super::{Doc, PrintOptions, broken, group, list, render, text, text_at};
use crate::ast::bddl::*;
use crate::ast::{Name, Span};

/// Canonical text of a BDDL file; with `options.comments_from`, its comments carried over.
pub fn bddl(file: &BddlFile, options: &PrintOptions) -> String {
    crate::parse::with_stack(|| {
        let doc = match file {
            BddlFile::Domain(domain) => domain_doc(domain),
            BddlFile::Problem(problem) => problem_doc(problem),
        };
        // Comments come from the text the tree was read from; a shorter text cannot be it.
        let fits = options
            .comments_from
            .is_some_and(|source| source.len() >= file_end(file));
        let options = PrintOptions {
            width: options.width,
            comments_from: options.comments_from.filter(|_| fits),
        };
        render(doc, &options)
    })
}

fn file_end(file: &BddlFile) -> usize {
    match file {
        BddlFile::Domain(domain) => domain.span.end,
        BddlFile::Problem(problem) => problem.span.end,
    }
}

/// A section's keyword, placed at the section's start: BDDL sections carry their own spans,
/// which the PDDL printer's widening (for sections without one) must leave alone.
fn keyword(keyword: &str, section: Span) -> Doc {
    text_at(
        keyword,
        Span::new(section.start + 1, section.start + 1 + keyword.len()),
    )
}

fn name(name: &Name) -> Doc {
    text_at(name.as_str(), name.span)
}

fn verbatim(verbatim: &Verbatim) -> Doc {
    text_at(verbatim.text.clone(), verbatim.span)
}

fn names(word: &str, flags: &[Name], span: Span) -> Doc {
    let mut items = vec![keyword(word, span)];
    items.extend(flags.iter().map(name));
    list(items, 1, Some(span))
}

fn typed_groups(groups: &[TypedGroup]) -> Vec<Doc> {
    groups
        .iter()
        .map(|g| {
            let mut items: Vec<Doc> = g.names.iter().map(name).collect();
            if let Some(category) = &g.category {
                items.push(text("-"));
                items.push(name(category));
            }
            group(items)
        })
        .collect()
}

fn domain_doc(domain: &BddlDomain) -> Doc {
    let mut items = vec![
        text("define"),
        list(vec![text("domain"), name(&domain.name)], 1, None),
    ];
    for section in &domain.sections {
        items.push(match section {
            DomainSection::Requirements { flags, span } => names(":requirements", flags, *span),
            DomainSection::Types { types, span } => {
                let mut parts = vec![keyword(":types", *span)];
                parts.extend(typed_groups(types));
                list(parts, 1, Some(*span))
            }
            DomainSection::Predicates { predicates, span } => {
                let mut parts = vec![keyword(":predicates", *span)];
                for predicate in predicates {
                    let mut declaration = vec![name(&predicate.name)];
                    declaration.extend(typed_groups(&predicate.parameters));
                    parts.push(list(declaration, 1, Some(predicate.span)));
                }
                broken(parts, 1, Some(*span))
            }
            DomainSection::Unknown(unknown) => verbatim(unknown),
        });
    }
    broken(items, 2, Some(domain.span))
}

fn problem_doc(problem: &BddlProblem) -> Doc {
    let mut items = vec![
        text("define"),
        list(vec![text("problem"), name(&problem.name)], 1, None),
    ];
    for section in &problem.sections {
        items.push(match section {
            ProblemSection::Domain { name: domain, span } => {
                let mut parts = vec![keyword(":domain", *span)];
                parts.extend(domain.iter().map(name));
                list(parts, 1, Some(*span))
            }
            ProblemSection::Requirements { flags, span } => names(":requirements", flags, *span),
            ProblemSection::Objects { groups, span } => {
                let mut parts = vec![keyword(":objects", *span)];
                parts.extend(typed_groups(groups));
                broken(parts, 1, Some(*span))
            }
            ProblemSection::Init { literals, span } => {
                let mut parts = vec![keyword(":init", *span)];
                parts.extend(literals.iter().map(formula));
                broken(parts, 1, Some(*span))
            }
            ProblemSection::Goal { formulas, span } => {
                let mut parts = vec![keyword(":goal", *span)];
                parts.extend(formulas.iter().map(formula));
                list(parts, 1, Some(*span))
            }
            ProblemSection::Unknown(unknown) => verbatim(unknown),
        });
    }
    broken(items, 2, Some(problem.span))
}

fn declaration(declaration: &Declaration) -> Doc {
    list(
        vec![group(vec![
            name(&declaration.variable),
            text("-"),
            name(&declaration.category),
        ])],
        1,
        Some(declaration.span),
    )
}

fn count(count: &Count) -> Doc {
    if count.parenthesised {
        list(vec![name(&count.text)], 1, Some(count.span))
    } else {
        name(&count.text)
    }
}

fn operator(keyword: &str, arguments: &[Formula], span: Span) -> Doc {
    let mut items = vec![text(keyword)];
    items.extend(arguments.iter().map(formula));
    list(items, 1, Some(span))
}

fn formula(formula_: &Formula) -> Doc {
    let span = formula_.span;
    match &formula_.kind {
        FormulaKind::Atom { predicate, args } => {
            let mut items = vec![name(predicate)];
            items.extend(args.iter().map(name));
            list(items, 1, Some(span))
        }
        FormulaKind::And(arguments) => operator("and", arguments, span),
        FormulaKind::Or(arguments) => operator("or", arguments, span),
        FormulaKind::Not(arguments) => operator("not", arguments, span),
        FormulaKind::Imply(arguments) => operator("imply", arguments, span),
        FormulaKind::Forall { variable, body } => list(
            vec![text("forall"), declaration(variable), formula(body)],
            2,
            Some(span),
        ),
        FormulaKind::Exists { variable, body } => list(
            vec![text("exists"), declaration(variable), formula(body)],
            2,
            Some(span),
        ),
        FormulaKind::Forn {
            count: n,
            variable,
            body,
        } => list(
            vec![text("forn"), count(n), declaration(variable), formula(body)],
            3,
            Some(span),
        ),
        FormulaKind::ForPairs {
            first,
            second,
            body,
        } => list(
            vec![
                text("forpairs"),
                declaration(first),
                declaration(second),
                formula(body),
            ],
            3,
            Some(span),
        ),
        FormulaKind::ForNPairs {
            count: n,
            first,
            second,
            body,
        } => list(
            vec![
                text("fornpairs"),
                count(n),
                declaration(first),
                declaration(second),
                formula(body),
            ],
            4,
            Some(span),
        ),
        FormulaKind::Verbatim(form) => verbatim(form),
    }
}
