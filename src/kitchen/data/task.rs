//! The tasks shipped with the project: each task's environment in our format
//! (`domains/kitchen/envs/NNN.toml`, converted from Simmer's `env_NNN.json`) and its goal
//! (`domains/kitchen/tasks/NNN.toml`), compiled into the binary by build.rs so that a task runs
//! from any directory with nothing beside the binary. [`Env::from_toml`] reads the format.

use super::model::ClassDef;
use super::simmer::{Env, EnvAgent, EnvObject};
use super::world::toml_error;
use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic, FileId};
use std::collections::BTreeMap;

/// One task as the project ships it: the texts of its environment and its goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmbeddedTask {
    /// The task number, `"001"`.
    pub id: &'static str,
    /// `domains/kitchen/envs/NNN.toml`.
    pub env: &'static str,
    /// `domains/kitchen/tasks/NNN.toml`, when the task has a formal goal.
    pub goal: Option<&'static str>,
}

/// Written by build.rs: every task of `domains/kitchen/envs/`, sorted by number.
const EMBEDDED_TASKS: &[EmbeddedTask] = include!(concat!(env!("OUT_DIR"), "/kitchen_tasks.rs"));

/// The tasks shipped with the project, sorted by number.
pub fn embedded_tasks() -> &'static [EmbeddedTask] {
    EMBEDDED_TASKS
}

/// The shipped task numbered `id` (`"001"`).
pub fn embedded_task(id: &str) -> Option<&'static EmbeddedTask> {
    EMBEDDED_TASKS.iter().find(|task| task.id == id)
}

/// Which tasks are built in, for the message about a task that is not: `the 100 built-in tasks
/// are Simmer's, numbered 000 to 119 with gaps`. Each front end adds how to give a task's
/// environment its own way.
pub fn embedded_task_range() -> String {
    match (EMBEDDED_TASKS.first(), EMBEDDED_TASKS.last()) {
        (Some(first), Some(last)) => format!(
            "the {} built-in tasks are Simmer's, numbered {} to {} with gaps",
            EMBEDDED_TASKS.len(),
            first.id,
            last.id
        ),
        _ => "pddlc was built without tasks".to_string(),
    }
}

/// The task an environment file is for, from the file's stem: `env_004` (Simmer's
/// `env_004.json`) and `004` (ours, `004.toml`) are task 004.
pub fn task_of_env_file(stem: &str) -> &str {
    stem.strip_prefix("env_").unwrap_or(stem)
}

impl EmbeddedTask {
    /// The name its environment is shown under in diagnostics.
    pub fn env_name(&self) -> String {
        format!("domains/kitchen/envs/{}.toml", self.id)
    }

    /// The name its goal is shown under in diagnostics.
    pub fn goal_name(&self) -> String {
        format!("domains/kitchen/tasks/{}.toml", self.id)
    }

    /// The task's title line as Simmer shows it (`Task: How to make fresh churros`), from its
    /// goal's title, when it has a goal with one.
    pub fn title_line(&self) -> Option<String> {
        let goal = crate::kitchen::TaskGoal::from_toml(self.goal?).ok()?;
        (!goal.title.is_empty()).then(|| format!("Task: {}", goal.title))
    }
}

/// `envs/NNN.toml` as written: the objects (an id, or a table of what differs from the class),
/// the task's own actions and the agent's start.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct EnvFile {
    #[serde(default)]
    actions: Option<Vec<String>>,
    #[serde(default)]
    agent: Option<EnvAgent>,
    objects: Vec<toml::Spanned<toml::Value>>,
}

/// The fields an object's table may give.
const OBJECT_FIELDS: [&str; 4] = ["id", "properties", "states", "in"];

impl Env {
    /// Reads a task environment in our format (`domains/kitchen/envs/NNN.toml`): each object
    /// takes its class's properties, states and place from `classes` unless its table says
    /// otherwise. Every problem is a located `K402`.
    pub fn from_toml(
        text: &str,
        classes: &BTreeMap<String, ClassDef>,
    ) -> Result<Env, Vec<Diagnostic>> {
        let code = Code::KitchenEnvInvalid;
        let file: EnvFile =
            toml::from_str(text).map_err(|e| vec![toml_error(code, &e, FileId(0))])?;
        let mut errors = Vec::new();
        let mut objects = Vec::new();
        for entry in &file.objects {
            let span = Span::new(entry.span().start, entry.span().end);
            match object(entry.get_ref(), classes) {
                Ok(object) => objects.push(object),
                Err((message, help)) => {
                    let mut d = Diagnostic::new(code, message, span).in_file(FileId(0));
                    if let Some(help) = help {
                        d = d.with_help(help);
                    }
                    errors.push(d);
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut env = Env::merged(objects.into_iter());
        env.actions = file
            .actions
            .map(|names| names.iter().map(|n| n.to_lowercase()).collect());
        env.agent = file.agent;
        Ok(env)
    }

    /// A task environment in either format: Simmer's JSON (a text starting with `{`) or ours.
    pub fn from_text(
        text: &str,
        classes: &BTreeMap<String, ClassDef>,
    ) -> Result<Env, Vec<Diagnostic>> {
        if text.trim_start().starts_with('{') {
            Env::from_json(text)
        } else {
            Env::from_toml(text, classes)
        }
    }
}

/// What is wrong with an object entry: the message and, when there is one, the fix.
type EntryError = (String, Option<String>);

/// One entry of `objects`: `"egg_1"` or `{ id = "egg_1", states = […], in = "counter" }`.
fn object(
    value: &toml::Value,
    classes: &BTreeMap<String, ClassDef>,
) -> Result<EnvObject, EntryError> {
    let table = match value {
        toml::Value::String(id) => return from_class(id, None, classes),
        toml::Value::Table(table) => table,
        other => {
            let kind = other.type_str();
            let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            return Err((
                format!("an object is an id or a table, not {article} {kind}"),
                Some("write `\"egg_1\"` or `{ id = \"egg_1\", states = [\"raw\"] }`".into()),
            ));
        }
    };
    if let Some(key) = table.keys().find(|k| !OBJECT_FIELDS.contains(&k.as_str())) {
        return Err((
            format!("an object has no field `{key}`"),
            Some(format!(
                "an object's fields are {}",
                OBJECT_FIELDS.map(|f| format!("`{f}`")).join(", ")
            )),
        ));
    }
    let Some(id) = table.get("id").and_then(toml::Value::as_str) else {
        return Err(("an object's table has no `id` string".into(), None));
    };
    from_class(id, Some(table), classes)
}

/// The object `id` (`CLASS_N`) with its class's fields, replaced by those `table` gives.
fn from_class(
    id: &str,
    table: Option<&toml::Table>,
    classes: &BTreeMap<String, ClassDef>,
) -> Result<EnvObject, EntryError> {
    let Some((class, _)) = id
        .rsplit_once('_')
        .filter(|(c, n)| !c.is_empty() && !n.is_empty())
    else {
        return Err((
            format!("`{id}` is not an object id"),
            Some("an id is the class and a number: `egg_1`".into()),
        ));
    };
    let list = |key: &str| -> Result<Option<Vec<String>>, EntryError> {
        let Some(value) = table.and_then(|t| t.get(key)) else {
            return Ok(None);
        };
        value
            .as_array()
            .and_then(|items| {
                items
                    .iter()
                    .map(|i| i.as_str().map(str::to_string))
                    .collect()
            })
            .map(Some)
            .ok_or_else(|| (format!("`{key}` of `{id}` is not a list of strings"), None))
    };
    let properties = list("properties")?;
    let states = list("states")?;
    let location = match table.and_then(|t| t.get("in")) {
        None => None,
        Some(value) => match value.as_str() {
            Some(place) => Some(place.to_string()),
            None => return Err((format!("`in` of `{id}` is not a place name"), None)),
        },
    };
    let default = classes.get(class);
    if default.is_none() && (properties.is_none() || states.is_none() || location.is_none()) {
        let names: Vec<&str> = classes.keys().map(String::as_str).collect();
        let near = crate::check::suggest_name(class, &names);
        let help = match near {
            Some(near) => {
                format!("did you mean `{near}`? (or give its properties, states and `in`)")
            }
            None => "give its properties, states and `in`, or use a class of classes.toml".into(),
        };
        return Err((format!("the world has no class `{class}`"), Some(help)));
    }
    Ok(EnvObject {
        id: id.to_string(),
        name: class.to_string(),
        properties: properties
            .unwrap_or_else(|| default.map(|d| d.properties.clone()).unwrap_or_default()),
        states: states.unwrap_or_else(|| default.map(|d| d.states.clone()).unwrap_or_default()),
        location: Some(
            location.unwrap_or_else(|| default.map(|d| d.location.clone()).unwrap_or_default()),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kitchen::World;

    fn load(text: &str) -> Result<Env, Vec<Diagnostic>> {
        Env::from_toml(text, World::embedded().classes())
    }

    /// The first diagnostic's message, help and the text it is on.
    fn error(text: &str) -> (String, Option<String>, String) {
        let errors = load(text).expect_err("the environment is refused");
        let d = &errors[0];
        assert_eq!(d.code, Code::KitchenEnvInvalid);
        let span = d.labels[0].span;
        let on = text[span.start..span.end].to_string();
        (d.message.clone(), d.help.clone(), on)
    }

    #[test]
    fn an_object_takes_its_class_unless_it_says_otherwise() {
        let env = load(
            "actions = [\"GRAB\"]\nobjects = [\"egg_1\", { id = \"egg_2\", states = [\"broken\"], in = \"counter\" }, \"egg_1\"]\n",
        )
        .expect("loads");
        let world = World::embedded();
        let egg = &world.classes()["egg"];
        assert_eq!(env.objects.len(), 2, "a repeated id is one object");
        assert_eq!(env.objects[0].properties, egg.properties);
        assert_eq!(env.objects[0].states, egg.states);
        assert_eq!(
            env.objects[0].location.as_deref(),
            Some(egg.location.as_str())
        );
        assert_eq!(env.objects[1].states, ["broken"]);
        assert_eq!(env.objects[1].properties, egg.properties);
        assert_eq!(env.objects[1].location.as_deref(), Some("counter"));
        assert_eq!(env.actions, Some(["grab".to_string()].into()));
    }

    #[test]
    fn every_mistake_is_located_with_its_fix() {
        let (message, help, on) = error("objects = [\"eg_1\"]\n");
        assert_eq!(message, "the world has no class `eg`");
        assert!(help.is_some_and(|h| h.contains("`egg`")));
        assert_eq!(on, "\"eg_1\"");
        let (message, _, on) = error("objects = [\"bowl_1\", \"egg\"]\n");
        assert_eq!(
            (message.as_str(), on.as_str()),
            ("`egg` is not an object id", "\"egg\"")
        );
        let (message, help, _) = error("objects = [{ id = \"egg_1\", colour = \"red\" }]\n");
        assert_eq!(message, "an object has no field `colour`");
        assert!(help.is_some_and(|h| h.contains("`states`")));
        let (message, _, on) = error("objects = [1]\n");
        assert_eq!(
            (message.as_str(), on.as_str()),
            ("an object is an id or a table, not an integer", "1")
        );
        let (message, _, _) = error("objects = [{ id = \"egg_1\", states = \"raw\" }]\n");
        assert_eq!(message, "`states` of `egg_1` is not a list of strings");
        let (message, _, on) = error("object = [\"egg_1\"]\n");
        assert!(message.contains("unknown field `object`"), "{message}");
        assert_eq!(on, "object");
        // A class the world lacks is fine when the object says everything.
        let env = load("objects = [{ id = \"kiwi_1\", properties = [\"edible\"], states = [], in = \"fridge\" }]\n")
            .expect("loads");
        assert_eq!(env.objects[0].name, "kiwi");
    }
}
