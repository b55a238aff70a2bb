//! Completion, read from the text before the cursor (the text being typed rarely parses):
//! section keywords and action parts, requirement flags, predicates and functions with an
//! argument snippet, variables of the enclosing action, types after ` - `, constants and
//! objects.

use super::state::{Source, State};
use lsp_types::{CompletionItem, CompletionItemKind, InsertTextFormat, Position};
use pddlc::ast::PddlFile;
use pddlc::parse::DOMAIN_SECTIONS;
use std::sync::Arc;

/// A problem's sections as completion offers them: the parser's list but for PDDL 1.2's
/// obsolete `:length`.
const PROBLEM_SECTIONS: &[&str] = &[
    ":domain",
    ":requirements",
    ":objects",
    ":init",
    ":goal",
    ":constraints",
    ":metric",
];
const ACTION_PARTS: &[&str] = &[":parameters", ":precondition", ":effect"];
const DURATIVE_PARTS: &[&str] = &[":parameters", ":duration", ":condition", ":effect"];
const CONNECTIVES: &[&str] = &[
    "and", "or", "not", "imply", "exists", "forall", "when", "increase", "decrease", "assign",
];

pub fn complete(
    state: &mut State,
    source: &Arc<Source>,
    position: Position,
) -> Vec<CompletionItem> {
    let offset = source.index().offset(position);
    let before = &source.text[..offset];
    let word_start = before
        .rfind(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .map_or(0, |i| {
            i + before[i..].chars().next().map_or(1, char::len_utf8)
        });
    let word = &before[word_start..];
    let head = enclosing_head(&before[..word_start]);
    let after_open = before[..word_start].ends_with('(');
    let mut items = Vec::new();
    let keyword = |label: &str| CompletionItem {
        label: label.to_string(),
        kind: Some(CompletionItemKind::KEYWORD),
        ..CompletionItem::default()
    };
    if word.starts_with(':') {
        let is_problem = source.problem_domain_name().is_some()
            || matches!(source.file(), Some(PddlFile::Problem(_)));
        let choices: &[&str] = match head.as_str() {
            ":requirements" => pddlc::check::known_requirements(),
            ":action" | ":process" | ":event" => ACTION_PARTS,
            ":durative-action" => DURATIVE_PARTS,
            _ if is_problem => PROBLEM_SECTIONS,
            _ => DOMAIN_SECTIONS,
        };
        items.extend(choices.iter().map(|k| keyword(k)));
        return items;
    }
    if word.starts_with('?') {
        for variable in variables_in_action(before, &source.text[offset..]) {
            items.push(CompletionItem {
                label: variable,
                kind: Some(CompletionItemKind::VARIABLE),
                ..CompletionItem::default()
            });
        }
        return items;
    }
    let family = state.family(source);
    let domain = family.iter().find_map(|s| s.domain().cloned());
    if before[..word_start].trim_end().ends_with(" -") || before[..word_start].ends_with("- ") {
        if let Some(domain) = &domain {
            items.extend(domain.types.iter().map(|t| CompletionItem {
                label: t.item.text.to_string(),
                kind: Some(CompletionItemKind::CLASS),
                ..CompletionItem::default()
            }));
        }
        items.push(CompletionItem {
            label: "object".to_string(),
            kind: Some(CompletionItemKind::CLASS),
            ..CompletionItem::default()
        });
        return items;
    }
    if after_open {
        if let Some(domain) = &domain {
            for p in &domain.predicates {
                items.push(snippet(
                    &p.name.text,
                    p.parameters.len(),
                    CompletionItemKind::INTERFACE,
                ));
            }
            for f in &domain.functions {
                items.push(snippet(
                    &f.name.text,
                    f.parameters.len(),
                    CompletionItemKind::FUNCTION,
                ));
            }
        }
        items.extend(CONNECTIVES.iter().map(|k| keyword(k)));
        return items;
    }
    // An argument: constants and objects.
    for file in &family {
        let names = match file.file() {
            Some(PddlFile::Domain(d)) => &d.constants,
            Some(PddlFile::Problem(p)) if file.uri == source.uri => &p.objects,
            _ => continue,
        };
        items.extend(names.iter().map(|t| CompletionItem {
            label: t.item.text.to_string(),
            kind: Some(CompletionItemKind::CONSTANT),
            detail: t.ty.as_ref().map(pddlc::print::type_text),
            ..CompletionItem::default()
        }));
    }
    items
}

/// `name ?x ?y` as a snippet with a placeholder per argument.
fn snippet(name: &str, arity: usize, kind: CompletionItemKind) -> CompletionItem {
    let mut text = name.to_string();
    for i in 1..=arity {
        text.push_str(&format!(" ${{{i}}}"));
    }
    CompletionItem {
        label: name.to_string(),
        kind: Some(kind),
        insert_text: Some(text),
        insert_text_format: Some(InsertTextFormat::SNIPPET),
        ..CompletionItem::default()
    }
}

/// The head of the innermost list still open at the end of `before` (`:action`, `:requirements`
/// …), lower-cased; empty at the top level. A `;` comment's parentheses do not count.
fn enclosing_head(before: &str) -> String {
    let mut depth = 0usize;
    let bytes = before.as_bytes();
    let mut i = bytes.len();
    while i > 0 {
        i -= 1;
        match bytes[i] {
            b')' => depth += 1,
            b'(' if depth == 0 => {
                let rest = &before[i + 1..];
                let head: String = rest
                    .trim_start()
                    .chars()
                    .take_while(|c| !c.is_whitespace() && *c != '(' && *c != ')')
                    .collect();
                return head.to_lowercase();
            }
            b'(' => depth -= 1,
            _ => {}
        }
    }
    String::new()
}

/// The variables written in the structure around the cursor, from its `(:action` (or other
/// structure keyword) to the next one, in order of first appearance.
fn variables_in_action(before: &str, after: &str) -> Vec<String> {
    let lower = before.to_lowercase();
    let start = [
        ":action",
        ":durative-action",
        ":derived",
        ":process",
        ":event",
    ]
    .iter()
    .filter_map(|k| lower.rfind(&format!("({k}")))
    .max();
    let Some(start) = start else {
        return Vec::new();
    };
    let end = after.find("(:").unwrap_or(after.len());
    let text = format!("{}{}", &before[start..], &after[..end]);
    let mut out: Vec<String> = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find('?') {
        let name: String = rest[i..]
            .chars()
            .skip(1)
            .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if !name.is_empty() {
            let variable = format!("?{name}");
            if !out.iter().any(|v| v.eq_ignore_ascii_case(&variable)) {
                out.push(variable);
            }
        }
        rest = &rest[i + 1..];
    }
    out
}
