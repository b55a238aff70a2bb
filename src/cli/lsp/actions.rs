//! Code actions from the diagnostics' help: apply a "did you mean" rename, add a missing
//! requirement flag.

use super::state::Source;
use lsp_types::{CodeAction, CodeActionKind, Diagnostic, NumberOrString, TextEdit, WorkspaceEdit};
use pddlc::ast::Span;
use std::collections::HashMap;

/// The quick fixes for `diagnostics` (as the client sends them back, carrying our help after
/// `help: ` in the message).
pub fn quick_fixes(source: &Source, diagnostics: &[Diagnostic]) -> Vec<CodeAction> {
    let mut out = Vec::new();
    for diagnostic in diagnostics {
        if diagnostic.source.as_deref() != Some("pddlc") {
            continue;
        }
        let Some(help) = diagnostic.message.split_once("\nhelp: ").map(|(_, h)| h) else {
            continue;
        };
        let code = match &diagnostic.code {
            Some(NumberOrString::String(code)) => code.as_str(),
            _ => continue,
        };
        let edit = if let Some(name) = suggested(help) {
            rename(source, diagnostic, name).map(|edit| (format!("Change to `{name}`"), edit))
        } else if code == "C104" {
            quoted_flag(help).and_then(|flag| {
                add_requirement(source, flag)
                    .map(|edit| (format!("Add `{flag}` to the requirements"), edit))
            })
        } else {
            None
        };
        if let Some((title, edit)) = edit {
            // Keyed by `Uri` as lsp-types defines it; a URI's cached parts never change its hash.
            #[allow(clippy::mutable_key_type)]
            let mut changes = HashMap::new();
            changes.insert(source.uri.clone(), vec![edit]);
            out.push(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic.clone()]),
                edit: Some(WorkspaceEdit {
                    changes: Some(changes),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(true),
                ..CodeAction::default()
            });
        }
    }
    out
}

/// The name a help suggests: "did you mean `X`?" or "… if `X` was meant, use `X`".
fn suggested(help: &str) -> Option<&str> {
    let rest = help
        .split_once("did you mean `")
        .or_else(|| help.split_once("if `"))?
        .1;
    rest.split_once('`').map(|(name, _)| name)
}

/// The first flag quoted in a help such as "add `:typing` to `(:requirements …)`".
fn quoted_flag(help: &str) -> Option<&str> {
    let rest = help.split_once("`:")?.1;
    let flag = &help[help.len() - rest.len() - 1..];
    flag.split_once('`').map(|(flag, _)| flag)
}

/// Replaces the diagnostic's range when it holds one name (not a whole form).
fn rename(source: &Source, diagnostic: &Diagnostic, name: &str) -> Option<TextEdit> {
    let span = source.index().span(diagnostic.range);
    let written = source.text.get(span.start..span.end)?;
    let one_name = !written.is_empty()
        && !written
            .chars()
            .any(|c| c.is_whitespace() || c == '(' || c == ')' || c == ';');
    one_name.then(|| TextEdit {
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
