//! Loaders for Simmer's own files: the role lists of `action_def.json`, the classes of
//! `object_def.json`, and a task's `env_NNN.json` (semantics §1).

use super::model::ClassDef;
use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic, FileId};
use serde_json::Value;
use std::collections::BTreeMap;

/// One object of a task environment, with its id already made (`egg_2`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvObject {
    pub id: String,
    pub name: String,
    pub properties: Vec<String>,
    pub states: Vec<String>,
    pub location: Option<String>,
}

/// A task environment: its initial objects in load order, duplicates already merged; the
/// actions it defines for its task and the agent's start, as a prompt shows them (the executor
/// reads neither: Simmer runs every action and starts the agent from its own defaults).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Env {
    pub objects: Vec<EnvObject>,
    /// The names (lower case) of `action_definitions`, the task's own actions, when it has them.
    pub actions: Option<std::collections::BTreeSet<String>>,
    /// `agent`, when the file has it.
    pub agent: Option<EnvAgent>,
}

/// The agent's start as a task environment gives it.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
pub struct EnvAgent {
    #[serde(default)]
    pub location: Option<String>,
    #[serde(default)]
    pub holding: Option<String>,
    #[serde(default)]
    pub states: Vec<String>,
}

/// `action_definitions`' names, in lower case.
fn action_names<'a>(names: impl Iterator<Item = &'a String>) -> std::collections::BTreeSet<String> {
    names.map(|name| name.to_lowercase()).collect()
}

/// The byte offset of a 1-based line and column.
fn offset(text: &str, line: usize, column: usize) -> usize {
    let mut at = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return (at + column.saturating_sub(1)).min(text.len());
        }
        at += l.len();
    }
    text.len()
}

fn json_error(code: Code, error: &serde_json::Error, text: &str, file: FileId) -> Diagnostic {
    let at = offset(text, error.line(), error.column());
    let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    let message = error.to_string();
    let message = message
        .split(" at line ")
        .next()
        .unwrap_or(&message)
        .to_string();
    Diagnostic::new(code, message, Span::new(at, end)).in_file(file)
}

/// The span of the first `"key"` in the text, if any.
fn key_span(text: &str, key: &str) -> Span {
    let needle = format!("\"{key}\"");
    text.find(&needle)
        .map_or(Span::new(0, 0), |i| Span::new(i, i + needle.len()))
}

fn located(code: Code, message: String, span: Span, file: FileId) -> Diagnostic {
    if span.is_empty() {
        Diagnostic::unlocated(code, message)
    } else {
        Diagnostic::new(code, message, span).in_file(file)
    }
}

fn strings(value: &Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// A world file's JSON, which must be an object; `what` says so when it is not.
fn json_object(text: &str, file: FileId, what: &str) -> Result<Value, Vec<Diagnostic>> {
    let code = Code::KitchenWorldInvalid;
    let value: Value =
        serde_json::from_str(text).map_err(|e| vec![json_error(code, &e, text, file)])?;
    if !value.is_object() {
        return Err(vec![located(
            code,
            what.into(),
            Span::new(0, text.len().min(1)),
            file,
        )]);
    }
    Ok(value)
}

/// The ordered role lists of `action_def.json`; only `args` is read, as Simmer does.
pub fn action_roles(text: &str) -> Result<Vec<(String, Vec<String>)>, Vec<Diagnostic>> {
    let code = Code::KitchenWorldInvalid;
    let file = FileId(0);
    let value = json_object(text, file, "`action_def.json` must be an object of actions")?;
    let map = value.as_object().into_iter().flatten();
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (name, entry) in map {
        let definition = entry.get("definition").or_else(|| {
            entry
                .get("definitions")
                .and_then(|d| d.get(0))
                .map(|first| first.get("definition").unwrap_or(first))
        });
        match definition.and_then(|d| d.get("args")).and_then(strings) {
            Some(args) => out.push((name.to_lowercase(), args)),
            None => errors.push(located(
                code,
                format!("action `{name}` has no `definition.args` list of role names"),
                key_span(text, name),
                file,
            )),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The classes of `object_def.json` (FileId 1): `{class: {properties, states, location}}`.
pub fn object_classes(text: &str) -> Result<BTreeMap<String, ClassDef>, Vec<Diagnostic>> {
    let code = Code::KitchenWorldInvalid;
    let file = FileId(1);
    let value = json_object(text, file, "`object_def.json` must be an object of classes")?;
    let map = value.as_object().into_iter().flatten();
    let mut out = BTreeMap::new();
    let mut errors = Vec::new();
    for (name, entry) in map {
        let properties = entry.get("properties").and_then(strings);
        let states = entry.get("states").and_then(strings);
        let location = entry.get("location").and_then(Value::as_str);
        match (properties, states, location) {
            (Some(properties), Some(states), Some(location)) => {
                out.insert(
                    name.clone(),
                    ClassDef {
                        properties,
                        states,
                        location: location.to_string(),
                    },
                );
            }
            _ => errors.push(located(
                code,
                format!("class `{name}` needs `properties` and `states` lists and a `location`"),
                key_span(text, name),
                file,
            )),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The byte spans of the elements of the first array after the key `"key"`, found by a scan
/// that follows strings and nesting (the text is known to be valid JSON).
fn element_spans(text: &str, key: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let Some(start) = text.find(&format!("\"{key}\"")) else {
        return out;
    };
    let Some(open) = text[start..].find('[').map(|i| start + i) else {
        return out;
    };
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut element: Option<usize> = None;
    let mut i = open + 1;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => {
                    in_string = true;
                    element.get_or_insert(i);
                }
                b'[' | b'{' => {
                    element.get_or_insert(i);
                    depth += 1;
                }
                b']' | b'}' if depth == 0 => {
                    if let Some(s) = element.take() {
                        out.push(Span::new(s, text[..i].trim_end().len()));
                    }
                    return out;
                }
                b']' | b'}' => depth -= 1,
                b',' if depth == 0 => {
                    if let Some(s) = element.take() {
                        out.push(Span::new(s, text[..i].trim_end().len()));
                    }
                }
                b if !b.is_ascii_whitespace() => {
                    element.get_or_insert(i);
                }
                _ => {}
            }
        }
        i += 1;
    }
    out
}

/// Python's `str()` of a JSON scalar used as an id: `1` → `1`, `"a"` → `a`.
fn id_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(true) => Some("True".into()),
        Value::Bool(false) => Some("False".into()),
        _ => None,
    }
}

/// An environment as it is almost always written, read straight into typed fields (no tree of
/// JSON values, no spans): the fast path of [`Env::from_json`]. Anything else fails it, and the
/// general path reads the text again and locates what is wrong.
#[derive(serde::Deserialize)]
struct Typed {
    initial_objects: Vec<TypedObject>,
    #[serde(default)]
    action_definitions: Option<BTreeMap<String, serde::de::IgnoredAny>>,
    #[serde(default)]
    agent: Option<EnvAgent>,
}

#[derive(serde::Deserialize)]
struct TypedObject {
    id: TypedId,
    class_name: String,
    #[serde(default)]
    properties: Option<Vec<String>>,
    #[serde(default)]
    states: Option<Vec<String>>,
    /// Absent (the object is in the kitchen), null, or a place.
    #[serde(default, deserialize_with = "present")]
    location: Option<Option<String>>,
}

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum TypedId {
    Number(serde_json::Number),
    Text(String),
}

/// A field that is there, null or not: `Some(None)` for null, `None` (the default) when absent.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    serde::Deserialize::deserialize(d).map(Some)
}

impl Env {
    /// The objects in load order, a later object with the same id replacing the earlier one.
    pub(super) fn merged(objects: impl Iterator<Item = EnvObject>) -> Env {
        let mut env = Env::default();
        let mut positions: std::collections::HashMap<String, usize> = Default::default();
        for object in objects {
            match positions.get(&object.id) {
                Some(&earlier) => env.objects[earlier] = object,
                None => {
                    positions.insert(object.id.clone(), env.objects.len());
                    env.objects.push(object);
                }
            }
        }
        env
    }

    /// The fast path: `None` when the text is not an environment in the usual shape.
    fn from_typed(text: &str) -> Option<Env> {
        let typed: Typed = serde_json::from_str(text).ok()?;
        let actions = typed.action_definitions.map(|d| action_names(d.keys()));
        let mut env = Env::merged(typed.initial_objects.into_iter().map(|o| {
            let id = match o.id {
                TypedId::Number(n) => n.to_string(),
                TypedId::Text(t) => t,
            };
            EnvObject {
                id: format!("{}_{id}", o.class_name),
                name: o.class_name,
                properties: o.properties.unwrap_or_default(),
                states: o.states.unwrap_or_default(),
                location: o.location.unwrap_or_else(|| Some("kitchen".to_string())),
            }
        }));
        env.actions = actions;
        env.agent = typed.agent;
        Some(env)
    }

    /// Reads `env_NNN.json`; only `initial_objects` matters (semantics §1.2).
    pub fn from_json(text: &str) -> Result<Env, Vec<Diagnostic>> {
        if let Some(env) = Env::from_typed(text) {
            return Ok(env);
        }
        Env::from_value(text)
    }

    /// The general path: every object checked and every problem located.
    fn from_value(text: &str) -> Result<Env, Vec<Diagnostic>> {
        let code = Code::KitchenEnvInvalid;
        let file = FileId(0);
        let value: Value =
            serde_json::from_str(text).map_err(|e| vec![json_error(code, &e, text, file)])?;
        let Some(list) = value.get("initial_objects").and_then(Value::as_array) else {
            let span = key_span(text, "initial_objects");
            return Err(vec![
                located(
                    code,
                    "the environment has no `initial_objects` list".into(),
                    if span.is_empty() {
                        Span::new(0, text.len().min(1))
                    } else {
                        span
                    },
                    file,
                )
                .with_help("an environment is `{\"initial_objects\": [{\"id\": 1, \"class_name\": \"egg\", …}]}`"),
            ]);
        };
        let spans = element_spans(text, "initial_objects");
        let mut objects = Vec::new();
        let mut errors = Vec::new();
        for (index, entry) in list.iter().enumerate() {
            let span = spans.get(index).copied().unwrap_or(Span::new(0, 0));
            let problem = |what: &str| {
                located(
                    code,
                    format!("object {} of `initial_objects` {what}", index + 1),
                    span,
                    file,
                )
            };
            let Some(class) = entry.get("class_name").and_then(Value::as_str) else {
                errors.push(problem("has no `class_name` string"));
                continue;
            };
            let Some(id) = entry.get("id").and_then(id_text) else {
                errors.push(problem("has no `id` (a number or a string)"));
                continue;
            };
            let list_field = |key: &str| match entry.get(key) {
                None | Some(Value::Null) => Some(Vec::new()),
                Some(v) => strings(v),
            };
            let (Some(properties), Some(states)) = (list_field("properties"), list_field("states"))
            else {
                errors.push(problem(
                    "has `properties` or `states` that are not lists of strings",
                ));
                continue;
            };
            let location = match entry.get("location") {
                None => Some("kitchen".to_string()),
                Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(_) => {
                    errors.push(problem("has a `location` that is not a string"));
                    continue;
                }
            };
            objects.push(EnvObject {
                id: format!("{class}_{id}"),
                name: class.to_string(),
                properties,
                states,
                location,
            });
        }
        if errors.is_empty() {
            let mut env = Env::merged(objects.into_iter());
            env.actions = value
                .get("action_definitions")
                .and_then(Value::as_object)
                .map(|d| action_names(d.keys()));
            // An agent of another shape is no reason to refuse the file: nothing runs from it.
            env.agent = value
                .get("agent")
                .and_then(|a| serde_json::from_value(a.clone()).ok());
            Ok(env)
        } else {
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path reads what the general path reads: ids as numbers or text, lists absent
    /// or null, the location absent (the kitchen), null (nowhere) or a place, duplicates merged,
    /// other keys ignored; what it cannot read goes to the general path.
    #[test]
    fn the_typed_path_reads_what_the_general_path_reads() {
        let text = r#"{"environment": "kitchen", "initial_objects": [
            {"id": 1, "class_name": "egg", "properties": ["edible"], "states": ["raw"], "location": "fridge", "note": 3},
            {"id": "x", "class_name": "bowl", "properties": null},
            {"id": 2, "class_name": "egg", "states": [], "location": null},
            {"id": 1, "class_name": "egg", "properties": [], "states": ["cooked"], "location": "counter"},
            {"id": 1.5, "class_name": "pan"}
        ], "action_definitions": {"GRAB": {"args": ["object"]}, "wash": {"definition": {}}},
        "agent": {"id": 1, "location": "kitchen", "holding": null, "states": ["hands_empty"]}}"#;
        let typed = Env::from_typed(text).expect("the usual shape");
        assert_eq!(Ok(typed.clone()), Env::from_value(text));
        let ids: Vec<&str> = typed.objects.iter().map(|o| o.id.as_str()).collect();
        assert_eq!(ids, ["egg_1", "bowl_x", "egg_2", "pan_1.5"]);
        assert_eq!(typed.objects[0].states, ["cooked"]);
        assert_eq!(typed.objects[1].location.as_deref(), Some("kitchen"));
        assert_eq!(typed.objects[2].location, None);
        let actions: Vec<&str> = typed.actions.iter().flatten().map(String::as_str).collect();
        assert_eq!(actions, ["grab", "wash"]);
        let agent = typed.agent.expect("the agent");
        assert_eq!(
            (agent.location.as_deref(), agent.holding),
            (Some("kitchen"), None)
        );
        // A boolean id, or a location that is not a string: the general path decides.
        for odd in [
            r#"{"initial_objects": [{"id": true, "class_name": "egg"}]}"#,
            r#"{"initial_objects": [{"id": 1, "class_name": "egg", "location": 3}]}"#,
        ] {
            assert!(Env::from_typed(odd).is_none());
        }
        assert_eq!(
            Env::from_json(r#"{"initial_objects": [{"id": true, "class_name": "egg"}]}"#)
                .map(|e| e.objects[0].id.clone()),
            Ok("egg_True".to_string())
        );
    }
}
