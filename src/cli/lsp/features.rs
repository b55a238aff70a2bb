//! Navigation: what the names under the cursor are, where they are declared and used; the
//! outline, formatting, folding and semantic tokens.

use super::state::{Source, State};
use super::symbols::{self, Kind, Occurrence};
use lsp_types::{
    DocumentHighlight, DocumentSymbol, Location, Position, Range, SemanticToken,
    SemanticTokenModifier, SemanticTokenType, SemanticTokens, SymbolKind, TextEdit, Uri,
    WorkspaceEdit,
};
use pddlc::ast::{PddlFile, Span, Structure, Typed, Variable};
use std::collections::HashMap;
use std::sync::Arc;

/// The occurrence under `position` in `source`.
pub(super) fn under(source: &Source, position: Position) -> Option<&Occurrence> {
    let offset = source.index().offset(position);
    symbols::at(source.occurrences(), offset)
}

/// Every occurrence of the symbol under `position`, across the files it can appear in: a
/// variable in its binder only, other names in the domain and its problems.
fn everywhere(
    state: &mut State,
    source: &Arc<Source>,
    position: Position,
) -> Vec<(Arc<Source>, Occurrence)> {
    let Some(target) = under(source, position).cloned() else {
        return Vec::new();
    };
    let files = if target.kind == Kind::Variable {
        vec![source.clone()]
    } else {
        state.family(source)
    };
    let mut out = Vec::new();
    for file in files {
        for occurrence in file.occurrences() {
            if occurrence.same_symbol(&target) {
                out.push((file.clone(), occurrence.clone()));
            }
        }
    }
    out
}

pub fn definition(state: &mut State, source: &Arc<Source>, position: Position) -> Vec<Location> {
    everywhere(state, source, position)
        .into_iter()
        .filter(|(_, o)| o.declaration)
        .map(|(file, o)| Location::new(file.uri.clone(), file.index().range(o.span)))
        .collect()
}

pub fn references(
    state: &mut State,
    source: &Arc<Source>,
    position: Position,
    include_declaration: bool,
) -> Vec<Location> {
    everywhere(state, source, position)
        .into_iter()
        .filter(|(_, o)| include_declaration || !o.declaration)
        .map(|(file, o)| Location::new(file.uri.clone(), file.index().range(o.span)))
        .collect()
}

pub fn highlights(source: &Source, position: Position) -> Vec<DocumentHighlight> {
    let Some(target) = under(source, position) else {
        return Vec::new();
    };
    let index = source.index();
    source
        .occurrences()
        .iter()
        .filter(|o| o.same_symbol(target))
        .map(|o| DocumentHighlight {
            range: index.range(o.span),
            kind: None,
        })
        .collect()
}

/// The range a rename would change, and the name there, when it is a renameable symbol.
pub fn prepare_rename(source: &Source, position: Position) -> Option<(Range, String)> {
    let target = under(source, position)?;
    if target.kind == Kind::Requirement {
        return None;
    }
    let text = source.text.get(target.span.start..target.span.end)?;
    Some((source.index().range(target.span), text.to_string()))
}

/// The edits renaming the symbol under `position` to `new_name` in every file it occurs in, or
/// why not.
pub fn rename(
    state: &mut State,
    source: &Arc<Source>,
    position: Position,
    new_name: &str,
) -> Result<Option<WorkspaceEdit>, String> {
    let Some(target) = under(source, position).cloned() else {
        return Ok(None);
    };
    if target.kind == Kind::Requirement {
        return Err("a requirement flag cannot be renamed".to_string());
    }
    let new_name = if target.kind == Kind::Variable {
        new_name.strip_prefix('?').unwrap_or(new_name)
    } else {
        new_name
    };
    let valid = new_name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && new_name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    if !valid {
        return Err(format!("`{new_name}` is not a PDDL name"));
    }
    // `WorkspaceEdit::changes` is keyed by `Uri` in lsp-types; its cached parts never change
    // a key's hash.
    #[allow(clippy::mutable_key_type)]
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for (file, occurrence) in everywhere(state, source, position) {
        changes.entry(file.uri.clone()).or_default().push(TextEdit {
            range: file.index().range(occurrence.span),
            new_text: new_name.to_string(),
        });
    }
    Ok(Some(WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    }))
}

/// The outline: the domain or problem, and under it its types, constants, predicates,
/// functions and structures (a problem's objects).
pub fn document_symbols(source: &Source) -> Vec<DocumentSymbol> {
    let index = source.index();
    let symbol = |name: &str, detail: Option<String>, kind, span: Span, selection: Span| {
        #[allow(deprecated)] // `deprecated` is a required field of the struct.
        DocumentSymbol {
            name: name.to_string(),
            detail,
            kind,
            tags: None,
            deprecated: None,
            range: index.range(span.to(selection)),
            selection_range: index.range(selection),
            children: None,
        }
    };
    let typed = |items: &[Typed<pddlc::ast::Name>], kind| -> Vec<DocumentSymbol> {
        items
            .iter()
            .map(|t| {
                let detail = t.ty.as_ref().map(pddlc::fmt::type_text);
                symbol(&t.item.text, detail, kind, t.item.span, t.item.span)
            })
            .collect()
    };
    let (mut top, children) = match source.file() {
        Some(PddlFile::Domain(domain)) => {
            let mut children = typed(&domain.types, SymbolKind::CLASS);
            children.extend(typed(&domain.constants, SymbolKind::CONSTANT));
            for p in &domain.predicates {
                let detail = Some(parameters_text(&p.parameters));
                children.push(symbol(
                    &p.name.text,
                    detail,
                    SymbolKind::INTERFACE,
                    p.span,
                    p.name.span,
                ));
            }
            for f in &domain.functions {
                let detail = Some(parameters_text(&f.parameters));
                children.push(symbol(
                    &f.name.text,
                    detail,
                    SymbolKind::FUNCTION,
                    f.span,
                    f.name.span,
                ));
            }
            for s in &domain.structures {
                let (name, span, parameters) = match s {
                    Structure::Action(a) | Structure::Process(a) | Structure::Event(a) => {
                        (&a.name, a.span, &a.parameters)
                    }
                    Structure::DurativeAction(a) => (&a.name, a.span, &a.parameters),
                    Structure::Derived(d) => (&d.predicate.name, d.span, &d.predicate.parameters),
                    Structure::Constraint(c) => (&c.name, c.span, &c.parameters),
                };
                let detail = Some(parameters_text(parameters));
                children.push(symbol(
                    &name.text,
                    detail,
                    SymbolKind::METHOD,
                    span,
                    name.span,
                ));
            }
            let top = symbol(
                &domain.name.text,
                Some("domain".into()),
                SymbolKind::MODULE,
                domain.span,
                domain.name.span,
            );
            (top, children)
        }
        Some(PddlFile::Problem(problem)) => {
            let children = typed(&problem.objects, SymbolKind::CONSTANT);
            let top = symbol(
                &problem.name.text,
                Some("problem".into()),
                SymbolKind::MODULE,
                problem.span,
                problem.name.span,
            );
            (top, children)
        }
        None => return Vec::new(),
    };
    top.children = Some(children);
    vec![top]
}

/// `?x ?y - block ?z`, as a parameter list is written.
pub(super) fn parameters_text(parameters: &[Typed<Variable>]) -> String {
    let mut out = String::new();
    for (i, p) in parameters.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push('?');
        out.push_str(&p.item.name.text);
        let last_of_group = parameters.get(i + 1).is_none_or(|next| {
            next.ty.as_ref().map(pddlc::fmt::type_text) != p.ty.as_ref().map(pddlc::fmt::type_text)
        });
        if last_of_group && let Some(ty) = &p.ty {
            out.push_str(" - ");
            out.push_str(&pddlc::fmt::type_text(ty));
        }
    }
    out
}

/// The whole document printed canonically with its comments, as `pddlc fmt` prints it; `None`
/// when it has syntax errors (printing would drop what did not parse) or is not PDDL.
pub fn format(source: &Source) -> Option<Vec<TextEdit>> {
    let options = pddlc::fmt::PrintOptions {
        width: 80,
        comments_from: Some(&source.text),
    };
    let printed = if source.bddl {
        let parsed = source.bddl_parsed();
        if parsed.diagnostics.iter().any(|d| d.is_error()) {
            return None;
        }
        pddlc::fmt::bddl(parsed.value.as_ref()?, &options)
    } else {
        let parsed = source.parsed();
        if parsed.diagnostics.iter().any(|d| d.is_error()) {
            return None;
        }
        pddlc::fmt::file_with(parsed.value.as_ref()?, &options)
    };
    if printed == source.text {
        return Some(Vec::new());
    }
    let index = source.index();
    Some(vec![TextEdit {
        range: Range::new(Position::new(0, 0), index.position(source.text.len())),
        new_text: printed,
    }])
}

/// A fold for each section and structure of the document that spans more than one line.
pub fn folding_ranges(source: &Source) -> Vec<lsp_types::FoldingRange> {
    let mut spans: Vec<Span> = Vec::new();
    match source.file() {
        Some(PddlFile::Domain(d)) => {
            spans.extend(d.predicates.iter().map(|p| p.span));
            spans.extend(d.structures.iter().map(|s| match s {
                Structure::Action(a) | Structure::Process(a) | Structure::Event(a) => a.span,
                Structure::DurativeAction(a) => a.span,
                Structure::Derived(d) => d.span,
                Structure::Constraint(c) => c.span,
            }));
            spans.push(d.span);
        }
        Some(PddlFile::Problem(p)) => {
            spans.extend(
                p.init
                    .first()
                    .map(|first| first.span.to(p.init[p.init.len() - 1].span)),
            );
            spans.extend(p.goal.as_ref().map(|g| g.span));
            spans.push(p.span);
        }
        None => {}
    }
    let index = source.index();
    let mut out: Vec<lsp_types::FoldingRange> = spans
        .into_iter()
        .filter_map(|span| {
            let (start, end) = (
                index.position(span.start).line,
                index.position(span.end).line,
            );
            (end > start).then_some(lsp_types::FoldingRange {
                start_line: start,
                end_line: end,
                kind: Some(lsp_types::FoldingRangeKind::Region),
                ..lsp_types::FoldingRange::default()
            })
        })
        .collect();
    out.sort_by_key(|f| (f.start_line, f.end_line));
    out.dedup_by_key(|f| (f.start_line, f.end_line));
    out
}

/// The declarations whose name contains `query` (ignoring case) in the open documents and the
/// workspace's `.pddl` files: types, constants and objects, predicates, functions, actions.
pub fn workspace_symbols(state: &mut State, query: &str) -> Vec<lsp_types::SymbolInformation> {
    let query = query.to_lowercase();
    let mut out = Vec::new();
    for file in state.candidates(None) {
        let container = file.file().map(|f| f.name().text.to_string());
        let index = file.index();
        for o in file.occurrences() {
            if !o.declaration || o.kind == Kind::Variable || !o.key.contains(&query) {
                continue;
            }
            let kind = match o.kind {
                Kind::Type => SymbolKind::CLASS,
                Kind::Object => SymbolKind::CONSTANT,
                Kind::Predicate => SymbolKind::INTERFACE,
                Kind::Function => SymbolKind::FUNCTION,
                _ => SymbolKind::METHOD,
            };
            let Some(name) = file.text.get(o.span.start..o.span.end) else {
                continue;
            };
            #[allow(deprecated)] // `deprecated` is a required field of the struct.
            out.push(lsp_types::SymbolInformation {
                name: name.to_string(),
                kind,
                tags: None,
                deprecated: None,
                location: Location::new(file.uri.clone(), index.range(o.span)),
                container_name: container.clone(),
            });
        }
    }
    out
}

/// The semantic token types, in the order of the legend the server announces: the index of
/// each is what a token carries.
pub const TOKEN_TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::TYPE,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::METHOD,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::KEYWORD,
];

/// The one token modifier: a name where it is declared.
pub const TOKEN_MODIFIERS: &[SemanticTokenModifier] = &[SemanticTokenModifier::DECLARATION];

/// Semantic tokens for every name the symbol index knows (types, predicates as functions,
/// functions as properties, constants and objects as enum members, actions as methods,
/// variables with their `?` as parameters, requirement flags as keywords), declarations
/// marked; in the protocol's relative encoding, lengths in UTF-16 units.
pub fn semantic_tokens(source: &Source) -> SemanticTokens {
    let index = source.index();
    let mut spans: Vec<(Span, u32, u32)> = source
        .occurrences()
        .iter()
        .map(|o| {
            let (kind, span) = match o.kind {
                Kind::Type => (0, o.span),
                Kind::Predicate => (1, o.span),
                Kind::Function => (2, o.span),
                Kind::Object => (3, o.span),
                Kind::Action => (4, o.span),
                // The `?` is one byte before the name.
                Kind::Variable => (5, Span::new(o.span.start.saturating_sub(1), o.span.end)),
                Kind::Requirement => (6, o.span),
            };
            (span, kind, u32::from(o.declaration))
        })
        .collect();
    spans.sort_by_key(|(span, _, _)| (span.start, span.end));
    spans.dedup_by_key(|(span, _, _)| span.start);
    let mut data = Vec::with_capacity(spans.len());
    let (mut line, mut character) = (0, 0);
    for (span, kind, modifiers) in spans {
        let Some(written) = source.text.get(span.start..span.end) else {
            continue;
        };
        if written.is_empty() || written.contains('\n') {
            continue;
        }
        let at = index.position(span.start);
        let delta_start = if at.line == line {
            at.character - character
        } else {
            at.character
        };
        data.push(SemanticToken {
            delta_line: at.line - line,
            delta_start,
            length: written.encode_utf16().count() as u32,
            token_type: kind,
            token_modifiers_bitset: modifiers,
        });
        (line, character) = (at.line, at.character);
    }
    SemanticTokens {
        result_id: None,
        data,
    }
}
