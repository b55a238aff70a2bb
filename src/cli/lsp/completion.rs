//! Completion, read from the text before the cursor (the text being typed rarely parses):
//! section keywords and action parts, requirement flags, predicates and functions with an
//! argument snippet, the variables in scope (the enclosing action's parameters, the quantifiers
//! around the cursor), types after ` - `, constants and objects of a type that fits the
//! argument.

use super::state::{Source, State};
use lsp_types::{CompletionItem, CompletionItemKind, InsertTextFormat, Position};
use pddlc::ast::{Domain, Name, PddlFile, Type, Typed};
use pddlc::check::types::TypeGraph;
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
    // A plan file is not PDDL: nothing here fits it.
    if source.plan {
        return Vec::new();
    }
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
        for (variable, ty) in variables_in_scope(&source.text, word_start) {
            items.push(CompletionItem {
                label: variable,
                kind: Some(CompletionItemKind::VARIABLE),
                detail: ty,
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
    // An argument: the constants and objects whose type fits its parameter's, when the atom's
    // predicate or function is known.
    let wanted = domain
        .as_ref()
        .and_then(|d| wanted_type(&source.text, word_start, d));
    let types = domain.as_ref().map(|d| TypeGraph::of(&d.types));
    for file in &family {
        let names = match file.file() {
            Some(PddlFile::Domain(d)) => &d.constants,
            Some(PddlFile::Problem(p)) if file.uri == source.uri => &p.objects,
            _ => continue,
        };
        let fits = |t: &&Typed<Name>| match (&wanted, &types) {
            (Some(wanted), Some(types)) => types.fits(&t.ty, wanted),
            _ => true,
        };
        items.extend(names.iter().filter(fits).map(|t| CompletionItem {
            label: t.item.text.to_string(),
            kind: Some(CompletionItemKind::CONSTANT),
            detail: t.ty.as_ref().map(pddlc::fmt::type_text),
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

/// The open lists around byte `at` of `text`, innermost first, as the offsets of their `(`;
/// parentheses in `;` comments do not count.
fn enclosing_lists(text: &str, at: usize) -> Vec<usize> {
    let mut open = Vec::new();
    let bytes = &text.as_bytes()[..at.min(text.len())];
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => open.push(i),
            b')' => {
                open.pop();
            }
            _ => {}
        }
        i += 1;
    }
    open.reverse();
    open
}

/// The end of the list whose `(` is at `open` (after its `)`), or the end of the text when it
/// is not closed.
fn list_end(text: &str, open: usize) -> usize {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => depth += 1,
            b')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    text.len()
}

/// The word after the `(` at `open`, lower-cased, and where it ends.
fn head_at(text: &str, open: usize) -> (String, usize) {
    let rest = &text[open + 1..];
    let skipped = rest.len() - rest.trim_start().len();
    let word: String = rest[skipped..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '(' && *c != ')' && *c != ';')
        .collect();
    let end = open + 1 + skipped + word.len();
    (word.to_lowercase(), end)
}

/// The variables a typed list `(?a ?b - t ?c)` starting at or after `from` declares, with their
/// type as written.
fn typed_variables(text: &str, from: usize) -> Vec<(String, Option<String>)> {
    let Some(open) = text[from..].find('(').map(|i| from + i) else {
        return Vec::new();
    };
    // Up to the list's `)`, or to the end of an unclosed text.
    let end = list_end(text, open);
    let end = if text[..end].ends_with(')') && end > open + 1 {
        end - 1
    } else {
        end
    };
    let inside = &text[open + 1..end];
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    let mut pending = 0;
    let mut tokens = inside.split_whitespace();
    while let Some(token) = tokens.next() {
        if token == "-" {
            let ty = tokens.next().map(str::to_string);
            let count = out.len();
            for entry in &mut out[count - pending..] {
                entry.1.clone_from(&ty);
            }
            pending = 0;
        } else if token.starts_with('?') && token.len() > 1 {
            out.push((token.to_string(), None));
            pending += 1;
        }
    }
    out
}

/// The variables in scope at byte `at`: those of each quantifier around it, innermost first,
/// then the parameters (and `:vars`) of the action or derived predicate around it. Read from
/// the text, which rarely parses while it is being typed.
pub(super) fn variables_in_scope(text: &str, at: usize) -> Vec<(String, Option<String>)> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for open in enclosing_lists(text, at) {
        let (head, head_end) = head_at(text, open);
        let found = match head.as_str() {
            "forall" | "exists" => typed_variables(text, head_end),
            ":derived" => typed_variables(text, head_end),
            ":action" | ":durative-action" | ":process" | ":event" => {
                let end = list_end(text, open);
                let body = text[open..end].to_lowercase();
                let mut found = Vec::new();
                for part in [":parameters", ":vars"] {
                    if let Some(i) = body.find(part) {
                        found.extend(typed_variables(text, open + i + part.len()));
                    }
                }
                found
            }
            _ => continue,
        };
        for (name, ty) in found {
            if !out.iter().any(|(v, _)| v.eq_ignore_ascii_case(&name)) {
                out.push((name, ty));
            }
        }
    }
    out
}

/// The type the argument at byte `at` should have: the innermost list around it is an atom or
/// function term whose predicate or function `domain` declares, and the argument's position is
/// one of its parameters. `None` when no type can be told.
fn wanted_type(text: &str, at: usize, domain: &Domain) -> Option<Option<Type>> {
    let open = *enclosing_lists(text, at).first()?;
    let (head, head_end) = head_at(text, open);
    // The cursor's word is the head itself (`( at|`): no argument yet.
    if head_end > at {
        return None;
    }
    let predicates = domain.predicates.iter().map(|p| (&p.name, &p.parameters));
    let functions = domain.functions.iter().map(|f| (&f.name, &f.parameters));
    let (_, parameters) = predicates.chain(functions).find(|(n, _)| n.key() == head)?;
    // The arguments written before the cursor's: words, and whole lists (a function term).
    let mut index: usize = 0;
    let mut depth = 0usize;
    let mut in_word = false;
    for b in text[head_end..at].bytes() {
        match b {
            b'(' => {
                if depth == 0 {
                    index += 1;
                }
                depth += 1;
                in_word = false;
            }
            b')' => depth = depth.saturating_sub(1),
            _ if b.is_ascii_whitespace() => in_word = false,
            _ => {
                if depth == 0 && !in_word {
                    index += 1;
                }
                in_word = true;
            }
        }
    }
    // The word being typed is the argument itself, not one before it.
    if in_word {
        index = index.saturating_sub(1);
    }
    parameters.get(index).map(|p| p.ty.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_are_read_from_unfinished_text() {
        let text = "(define (domain d) (:action a :parameters (?x - t ?y) :precondition \
                    (forall (?z) (p ?x ?z é";
        let names = |at: usize| -> Vec<String> {
            variables_in_scope(text, at)
                .into_iter()
                .map(|(v, _)| v)
                .collect()
        };
        assert_eq!(names(text.len()), ["?z", "?x", "?y"]);
        // Before the quantifier: the action's parameters only.
        assert_eq!(names(text.find("(forall").expect("forall")), ["?x", "?y"]);
        assert_eq!(
            variables_in_scope(text, text.len())[1].1.as_deref(),
            Some("t")
        );
        // An unclosed list ending in a multi-byte character.
        assert_eq!(typed_variables("(?a ?b - é", 0)[0].1.as_deref(), Some("é"));
    }

    #[test]
    fn the_wanted_type_is_the_parameter_s_at_the_argument_s_position() {
        let domain = "(define (domain d) (:requirements :typing) (:types a b)
            (:predicates (p ?x - a ?y - b)))";
        let Some(PddlFile::Domain(domain)) = pddlc::parse::file(domain).value else {
            panic!("a domain");
        };
        let name = |ty: Option<Option<Type>>| ty.map(|t| t.map(|t| pddlc::fmt::type_text(&t)));
        let text = "(p c1 ";
        assert_eq!(
            name(wanted_type(text, text.len(), &domain)),
            Some(Some("b".into()))
        );
        assert_eq!(name(wanted_type("(p ", 3, &domain)), Some(Some("a".into())));
        // Past the last parameter, in the head itself, in an unknown atom: no type.
        assert_eq!(name(wanted_type("(p c1 c2 ", 9, &domain)), None);
        assert_eq!(name(wanted_type("( p", 2, &domain)), None);
        assert_eq!(name(wanted_type("(q ", 3, &domain)), None);
    }
}
