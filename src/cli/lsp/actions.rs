//! Code actions from the diagnostics' help: apply a "did you mean" rename, add a missing
//! requirement flag, declare an undeclared predicate with the arity and types of its use.

use super::completion::variables_in_scope;
use super::state::{Source, State};
use lsp_types::{CodeAction, CodeActionKind, Diagnostic, Range, TextEdit, Uri, WorkspaceEdit};
use pddlc::ast::{Name, PddlFile, Span, Typed};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// The quick fixes for `diagnostics`, from the `data` the server attached to each (the client
/// hands it back): apply a "did you mean", add a missing requirement, declare an undeclared
/// predicate.
pub fn quick_fixes(
    state: &mut State,
    source: &Arc<Source>,
    diagnostics: &[Diagnostic],
) -> Vec<CodeAction> {
    let mut out = Vec::new();
    for diagnostic in diagnostics {
        if diagnostic.source.as_deref() != Some("pddlc") {
            continue;
        }
        let Some(data) = &diagnostic.data else {
            continue;
        };
        let text = |key: &str| data.get(key).and_then(Value::as_str);
        // (title, the file edited, the edit)
        let mut fixes: Vec<(String, Uri, TextEdit)> = Vec::new();
        if let Some(name) = text("replace")
            && let Some(edit) = rename(source, diagnostic, name)
        {
            fixes.push((format!("Change to `{name}`"), source.uri.clone(), edit));
        }
        if let Some(flag) = text("requirement")
            && let Some(edit) = add_requirement(source, flag)
        {
            let title = format!("Add `{flag}` to the requirements");
            fixes.push((title, source.uri.clone(), edit));
        }
        if data.get("declare") == Some(&Value::Bool(true)) {
            // In a problem, the predicate is declared in its domain.
            let domain = if source.domain().is_some() {
                Some(source.clone())
            } else {
                state.domain_of(source)
            };
            if let Some(domain) = domain
                && let Some(declaration) = declaration(source, &domain, diagnostic.range)
                && let Some(edit) = add_predicate(&domain, &declaration)
            {
                fixes.push((format!("Declare `{declaration}`"), domain.uri.clone(), edit));
            }
        }
        for (i, (title, uri, edit)) in fixes.into_iter().enumerate() {
            // Keyed by `Uri` as lsp-types defines it; a URI's cached parts never change its hash.
            #[allow(clippy::mutable_key_type)]
            let mut changes = HashMap::new();
            changes.insert(uri, vec![edit]);
            out.push(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic.clone()]),
                edit: Some(WorkspaceEdit {
                    changes: Some(changes),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(i == 0),
                ..CodeAction::default()
            });
        }
    }
    out
}

/// The declaration of the predicate an atom at `range` of `source` uses, with a parameter per
/// argument: a variable keeps its name and the type its action or quantifier gives it, a
/// constant or object gives its type (from `source`'s objects or `domain`'s constants).
fn declaration(source: &Source, domain: &Source, range: Range) -> Option<String> {
    let text = &source.text;
    let span = source.index().span(range);
    let name = text.get(span.start..span.end)?;
    if !is_one_name(name) {
        return None;
    }
    // The arguments, up to the atom's `)`.
    let rest = text.get(span.end..)?;
    let close = rest.find([')', '('])?;
    let scope = variables_in_scope(text, span.start);
    let declared: Vec<&Typed<Name>> = [source, domain]
        .iter()
        .filter_map(|s| match s.file() {
            Some(PddlFile::Domain(d)) => Some(&d.constants),
            Some(PddlFile::Problem(p)) => Some(&p.objects),
            None => None,
        })
        .flatten()
        .collect();
    let mut parameters: Vec<(String, Option<String>)> = Vec::new();
    for argument in rest[..close].split_whitespace() {
        let (base, ty) = if argument.starts_with('?') {
            let ty = scope
                .iter()
                .find(|(v, _)| v.eq_ignore_ascii_case(argument))
                .and_then(|(_, ty)| ty.clone());
            (argument.to_string(), ty)
        } else {
            let constant = declared
                .iter()
                .find(|c| c.item.key() == argument.to_lowercase());
            let ty = constant.and_then(|c| c.ty.as_ref().map(pddlc::fmt::type_text));
            let base = ty.as_deref().unwrap_or("x").to_string();
            (format!("?{base}"), ty)
        };
        let mut unique = base.clone();
        let mut n = 2;
        while parameters
            .iter()
            .any(|(p, _)| p.eq_ignore_ascii_case(&unique))
        {
            unique = format!("{base}{n}");
            n += 1;
        }
        parameters.push((unique, ty));
    }
    let mut declaration = format!("({name}");
    for (i, (parameter, ty)) in parameters.iter().enumerate() {
        declaration.push(' ');
        declaration.push_str(parameter);
        let group_ends = parameters.get(i + 1).is_none_or(|(_, next)| next != ty);
        if let (true, Some(ty)) = (group_ends, ty) {
            declaration.push_str(&format!(" - {ty}"));
        }
    }
    declaration.push(')');
    Some(declaration)
}

/// Adds `declaration` to the domain's `(:predicates …)`, after its last predicate (on its line
/// when they share lines); the section is created before the first action when there is none.
fn add_predicate(source: &Source, declaration: &str) -> Option<TextEdit> {
    let domain = source.domain()?;
    let text = &source.text;
    let (at, new_text) = match domain.predicates.last() {
        Some(last) => {
            let line_start = text[..last.span.start].rfind('\n').map_or(0, |i| i + 1);
            let indent = &text[line_start..last.span.start];
            if indent.chars().all(char::is_whitespace) {
                (last.span.end, format!("\n{indent}{declaration}"))
            } else {
                (last.span.end, format!(" {declaration}"))
            }
        }
        None => {
            let lower = text.get(domain.span.start..domain.span.end)?.to_lowercase();
            if let Some(i) = lower.find("(:predicates") {
                let at = domain.span.start + i + "(:predicates".len();
                (at, format!(" {declaration}"))
            } else if let Some(first) = domain.structures.first() {
                let start = first.span().start;
                let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
                let indent: String = text[line_start..start]
                    .chars()
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                (start, format!("(:predicates {declaration})\n{indent}"))
            } else {
                let end = domain.span.end.checked_sub(1)?;
                (end, format!("\n  (:predicates {declaration})"))
            }
        }
    };
    let range = source.index().range(Span::new(at, at));
    Some(TextEdit { range, new_text })
}

fn is_one_name(written: &str) -> bool {
    !written.is_empty()
        && !written
            .chars()
            .any(|c| c.is_whitespace() || c == '(' || c == ')' || c == ';')
}

/// Replaces the diagnostic's range when it holds one name (not a whole form).
fn rename(source: &Source, diagnostic: &Diagnostic, name: &str) -> Option<TextEdit> {
    let span = source.index().span(diagnostic.range);
    let written = source.text.get(span.start..span.end)?;
    is_one_name(written).then(|| TextEdit {
        range: diagnostic.range,
        new_text: name.to_string(),
    })
}

/// Appends `flag` to the domain's requirements, or adds the section after the domain's name.
fn add_requirement(source: &Source, flag: &str) -> Option<TextEdit> {
    let domain = source.domain()?;
    let (at, text) = match domain.requirements.last() {
        Some(last) => (last.span.end, format!(" {flag}")),
        None => {
            let close =
                domain.name.span.end + source.text.get(domain.name.span.end..)?.find(')')?;
            (close + 1, format!("\n  (:requirements {flag})"))
        }
    };
    let range = source.index().range(Span::new(at, at));
    Some(TextEdit {
        range,
        new_text: text,
    })
}
