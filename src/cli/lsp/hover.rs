//! Hover: what the symbol under the cursor is (a signature, a type's supertypes, an action
//! printed canonically, a requirement's meaning), and the documentation of the code of a
//! diagnostic there.

use super::features::{parameters_text, under};
use super::state::{Source, State};
use super::symbols::Kind;
use lsp_types::{Position, Range};
use pddlc::ast::{Domain, PddlFile, Structure, Type, Typed, Variable};
use std::sync::Arc;

/// docs/diagnostics.md, one section per code, as the binary was built with it.
const DIAGNOSTICS_MD: &str = include_str!("../../../docs/diagnostics.md");

/// Markdown for what is under `position`, and the range it is about: the symbol there, then
/// the documentation of the code of each diagnostic published there.
pub fn hover(
    state: &mut State,
    source: &Arc<Source>,
    position: Position,
) -> Option<(String, Range)> {
    let symbol = symbol(state, source, position);
    let published = state
        .documents
        .get(&source.uri)
        .map(|d| d.diagnostics.as_slice())
        .unwrap_or_default();
    let mut codes: Vec<(&str, Range)> = Vec::new();
    for d in published {
        let inside = d.range.start <= position && position <= d.range.end;
        if let (true, Some(lsp_types::NumberOrString::String(code))) = (inside, &d.code)
            && !codes.iter().any(|(c, _)| c == code)
        {
            codes.push((code, d.range));
        }
    }
    let docs: Vec<String> = codes.iter().filter_map(|(c, _)| code_doc(c)).collect();
    match symbol {
        Some((text, range)) if docs.is_empty() => Some((text, range)),
        Some((text, range)) => Some((
            format!("{text}\n\n---\n\n{}", docs.join("\n\n---\n\n")),
            range,
        )),
        None => {
            let range = codes.first()?.1;
            (!docs.is_empty()).then(|| (docs.join("\n\n---\n\n"), range))
        }
    }
}

/// The documentation of a diagnostic code: its registered name and summary, then its section
/// of docs/diagnostics.md.
pub fn code_doc(code: &str) -> Option<String> {
    let code = pddlc::diagnostics::Code::ALL
        .iter()
        .find(|c| c.as_str().eq_ignore_ascii_case(code))?;
    let heading = format!("## {} {}\n", code.as_str(), code.name());
    let mut text = format!(
        "**{}** `{}`: {}",
        code.as_str(),
        code.name(),
        code.summary()
    );
    if let Some(at) = DIAGNOSTICS_MD.find(&heading) {
        let body = &DIAGNOSTICS_MD[at + heading.len()..];
        let end = body.find("\n## ").unwrap_or(body.len());
        text.push_str("\n\n");
        text.push_str(body[..end].trim());
    }
    Some(text)
}

/// Markdown for the symbol under `position`, and the range it is about.
fn symbol(state: &mut State, source: &Arc<Source>, position: Position) -> Option<(String, Range)> {
    let target = under(source, position)?.clone();
    let range = source.index().range(target.span);
    let name = source
        .text
        .get(target.span.start..target.span.end)?
        .to_string();
    let family = if target.kind == Kind::Variable || target.kind == Kind::Requirement {
        vec![source.clone()]
    } else {
        state.family(source)
    };
    let domain_source = family.iter().find(|s| s.domain().is_some()).cloned();
    let domain = domain_source.as_ref().and_then(|s| s.domain());
    let declared_in = |kind: Kind| -> Option<String> {
        for file in &family {
            if let Some(o) = file
                .occurrences()
                .iter()
                .find(|o| o.declaration && o.kind == kind && o.key == target.key)
            {
                let line = file.index().position(o.span.start).line + 1;
                let file_name = file.path.as_ref().and_then(|p| p.file_name()).map_or_else(
                    || file.uri.as_str().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                return Some(format!("declared in `{file_name}`, line {line}"));
            }
        }
        None
    };
    let text = match target.kind {
        Kind::Predicate => {
            let d = domain?;
            let p = d.predicates.iter().find(|p| p.name.key() == target.key)?;
            let signature = signature(&p.name.text, &p.parameters);
            format!(
                "```pddl\n{signature}\n```\npredicate, {}",
                declared_in(Kind::Predicate)?
            )
        }
        Kind::Function => {
            let d = domain?;
            let f = d.functions.iter().find(|f| f.name.key() == target.key)?;
            let mut signature = signature(&f.name.text, &f.parameters);
            if let Some(ty) = &f.ty {
                signature.push_str(&format!(" - {}", pddlc::fmt::type_text(ty)));
            }
            format!(
                "```pddl\n{signature}\n```\nfunction, {}",
                declared_in(Kind::Function)?
            )
        }
        Kind::Type => {
            let chain = supertypes(domain?, &target.key);
            let mut text = format!("type `{name}`");
            if chain.len() > 1 {
                text.push_str(": ");
                text.push_str(&chain.join(" < "));
            }
            match declared_in(Kind::Type) {
                Some(at) => format!("{text}\n\n{at}"),
                None => text,
            }
        }
        Kind::Action => {
            let d = domain?;
            let s = d.structures.iter().find(|s| match s {
                Structure::Action(a) | Structure::Process(a) | Structure::Event(a) => {
                    a.name.key() == target.key
                }
                Structure::DurativeAction(a) => a.name.key() == target.key,
                _ => false,
            })?;
            format!("```pddl\n{}\n```", pddlc::fmt::structure(s))
        }
        Kind::Object => {
            let ty = object_type(&family, &target.key);
            let mut text = format!("object `{name}`");
            if let Some(ty) = ty {
                text.push_str(&format!(" - `{ty}`"));
            }
            match declared_in(Kind::Object) {
                Some(at) => format!("{text}\n\n{at}"),
                None => text,
            }
        }
        Kind::Variable => {
            let declaration = source
                .occurrences()
                .iter()
                .find(|o| o.declaration && o.same_symbol(&target))?;
            let ty = variable_type(source, declaration.span.start);
            match ty {
                Some(ty) => format!("variable `?{name}` - `{ty}`"),
                None => format!("variable `?{name}`"),
            }
        }
        Kind::Requirement => requirement(&target.key)?,
    };
    Some((text, range))
}

/// `(name ?x - t ?y - u)`.
fn signature(name: &str, parameters: &[Typed<Variable>]) -> String {
    if parameters.is_empty() {
        format!("({name})")
    } else {
        format!("({name} {})", parameters_text(parameters))
    }
}

/// The type and its supertypes, nearest first, up to `object` or a cycle.
fn supertypes(domain: &Domain, key: &str) -> Vec<String> {
    let mut chain = vec![];
    let mut current = key.to_string();
    let mut spelled = domain
        .types
        .iter()
        .find(|t| t.item.key() == key)
        .map_or_else(|| key.to_string(), |t| t.item.text.to_string());
    loop {
        if chain.contains(&spelled) {
            break;
        }
        chain.push(spelled.clone());
        let parent = domain
            .types
            .iter()
            .find(|t| t.item.key() == current)
            .and_then(|t| t.ty.as_ref());
        match parent {
            Some(Type::Name(name)) => {
                current = name.key();
                spelled = name.text.to_string();
            }
            Some(either @ Type::Either { .. }) => {
                chain.push(pddlc::fmt::type_text(either));
                break;
            }
            None => {
                if current != "object" {
                    chain.push("object".to_string());
                }
                break;
            }
        }
    }
    chain
}

fn object_type(family: &[Arc<Source>], key: &str) -> Option<String> {
    for file in family {
        let items = match file.file()? {
            PddlFile::Domain(d) => &d.constants,
            PddlFile::Problem(p) => &p.objects,
        };
        if let Some(t) = items.iter().find(|t| t.item.key() == key) {
            return Some(t.ty.as_ref().map_or("object".into(), pddlc::fmt::type_text));
        }
    }
    None
}

/// The type written for the variable declared at byte `at`, found again in the tree.
fn variable_type(source: &Source, at: usize) -> Option<String> {
    let text = &source.text;
    // The declaration's group ends at the first ` - type` after it inside its list; read the
    // type from the text, which holds it exactly as the tree does.
    let rest = text.get(at..)?;
    let close = rest.find(')')?;
    let group = &rest[..close];
    let dash = group.find(" - ").or_else(|| group.find("\t- "))?;
    let ty = group[dash + 3..].trim_start();
    let end = ty
        .find(|c: char| c.is_whitespace() || c == '?')
        .unwrap_or(ty.len());
    (end > 0).then(|| ty[..end].to_string())
}

/// What a requirement flag means and what it implies (the checker's own implications).
fn requirement(flag: &str) -> Option<String> {
    let flag = if flag.starts_with(':') {
        flag.to_string()
    } else {
        format!(":{flag}")
    };
    if !pddlc::check::is_known_requirement(&flag) {
        return Some(format!("`{flag}` is not a requirement flag pddlc knows"));
    }
    let meaning = match flag.as_str() {
        ":strips" => "add and delete effects",
        ":typing" => "typed parameters, constants and objects",
        ":negative-preconditions" => "`not` in preconditions and goals",
        ":disjunctive-preconditions" => "`or` and `imply` in preconditions and goals",
        ":equality" => "the built-in `=` predicate",
        ":existential-preconditions" => "`exists` in preconditions and goals",
        ":universal-preconditions" => "`forall` in preconditions and goals",
        ":quantified-preconditions" => "`exists` and `forall` in preconditions and goals",
        ":conditional-effects" => "`when` and `forall` in effects",
        ":adl" => "the Action Description Language's features",
        ":fluents" => "numeric and object fluents",
        ":numeric-fluents" => "numeric functions, comparisons and numeric effects",
        ":object-fluents" => "functions whose values are objects",
        ":action-costs" => "a `total-cost` function increased by actions, for the metric",
        ":durative-actions" => "actions with durations, timed conditions and effects",
        ":duration-inequalities" => "durations bounded by inequalities",
        ":continuous-effects" => "effects that change with `#t` over a durative action",
        ":derived-predicates" => "`:derived` rules",
        ":timed-initial-literals" => "facts that become true at a time, `(at 10 (p))` in `:init`",
        ":preferences" => "soft goals and constraints with `preference`",
        ":constraints" => "trajectory constraints (`always`, `sometime`, …)",
        _ => "",
    };
    let mut text = format!("requirement `{flag}`");
    if !meaning.is_empty() {
        text.push_str(&format!(": {meaning}"));
    }
    let implied = pddlc::check::requirement_implies(&flag);
    if !implied.is_empty() {
        let list: Vec<String> = implied.iter().map(|f| format!("`{f}`")).collect();
        text.push_str(&format!("\n\nimplies {}", list.join(", ")));
    }
    Some(text)
}
