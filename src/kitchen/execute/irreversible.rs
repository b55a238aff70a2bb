//! Simmer's `detect_irreversible.py` (semantics §10): steps of transforming actions that failed
//! a precondition but changed the world anyway, driven by the rules of `world.toml`.

use super::failure::{Failure, FailureType};
use super::state::{Binding, State};
use crate::kitchen::data::world::{Action, World};
use serde::Serialize;

/// One flagged step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Flag {
    pub step: usize,
    pub action: String,
    pub detail: String,
    pub category: String,
}

/// Python's `repr` of a string.
fn py_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::from(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// The flag for one step, if its action transforms and a precondition failed.
pub fn detect(
    world: &World,
    state: &State,
    action: &Action,
    binding: &Binding,
    step_failures: &[Failure],
    step: usize,
) -> Option<Flag> {
    let family = action.transforms.as_deref()?;
    let failed: Vec<String> = step_failures
        .iter()
        .filter(|f| {
            f.failure_type() == FailureType::Immediate
                && f.reason.starts_with("Precondition failed")
        })
        .map(|f| py_repr(&f.reason))
        .collect();
    if failed.is_empty() {
        return None;
    }
    let bound = |role: &str| -> Option<&str> {
        let i = action.roles.iter().position(|r| r.name == role)?;
        binding.get(i)?.as_deref()
    };
    for rule in world
        .config
        .irreversible
        .iter()
        .filter(|r| r.family == family)
    {
        let Some(id) = rule.roles.iter().find_map(|r| bound(r)) else {
            continue;
        };
        let Some(object) = state.get(id) else {
            continue;
        };
        if !rule.states.is_empty()
            && !object
                .states
                .iter()
                .any(|s| rule.states.iter().any(|x| x == s))
        {
            continue;
        }
        let container = bound("container").unwrap_or("None");
        let n = state.get(container).map_or(0, |c| c.contents.len());
        let detail = rule
            .detail
            .replace("{id}", id)
            .replace("{action}", &action.name)
            .replace("{container}", container)
            .replace("{n}", &n.to_string())
            .replace("{reasons}", &format!("[{}]", failed.join(", ")));
        return Some(Flag {
            step,
            action: action.name.clone(),
            detail,
            category: rule.category.clone(),
        });
    }
    None
}
