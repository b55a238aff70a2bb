//! A Plancraft example (one record of the dataset's JSON, `config.py:PlancraftExample`)
//! resolved against the world: its target, its starting slots and the labels the evaluator
//! and the metrics read.

use super::world::{ItemId, World};
use crate::diagnostics::{Code, Diagnostic};
use crate::plancraft::env::{SLOTS, Slots, Stack};
use serde::Deserialize;
use std::collections::BTreeMap;

/// An example ready to run.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub id: String,
    pub target: ItemId,
    pub slots: Slots,
    /// The dataset's label: the oracle planner found no plan.
    pub impossible: bool,
    pub optimal_path_length: Option<u32>,
    pub complexity_bin: Option<u8>,
    pub complexity_split: Option<String>,
    /// `config.py:PlancraftExample.recipe_type` (semantics §10): the one type of every recipe
    /// of the items on the optimal path, `mixed` for several, `impossible` without a path.
    pub recipe_type: String,
}

#[derive(Deserialize)]
struct Record {
    #[serde(default)]
    id: String,
    target: String,
    slotted_inventory: BTreeMap<String, SlotRecord>,
    #[serde(default)]
    impossible: bool,
    #[serde(default)]
    optimal_path_length: Option<f64>,
    #[serde(default)]
    complexity_bin: Option<f64>,
    #[serde(default)]
    complexity_split: Option<String>,
    #[serde(default)]
    optimal_path: Option<Vec<String>>,
}

#[derive(Deserialize)]
struct SlotRecord {
    #[serde(rename = "type")]
    item: String,
    quantity: i64,
}

fn invalid(message: impl Into<String>) -> Diagnostic {
    Diagnostic::unlocated(Code::PlancraftExampleInvalid, message)
}

impl Example {
    /// The examples in a JSON text: one record, or a list of them (a split file).
    pub fn from_json(world: &World, text: &str) -> Result<Vec<Example>, Diagnostic> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| invalid(format!("not JSON: {e}")))?;
        let records = match value {
            serde_json::Value::Array(records) => records,
            record => vec![record],
        };
        records
            .into_iter()
            .enumerate()
            .map(|(index, record)| {
                let record: Record = serde_json::from_value(record)
                    .map_err(|e| invalid(format!("record {}: {e}", index + 1)))?;
                Example::resolve(world, record)
                    .map_err(|message| invalid(format!("record {}: {message}", index + 1)))
            })
            .collect()
    }

    /// The example a JSON text holds: its only record, or the one with `id` in a list.
    pub fn select(world: &World, text: &str, id: Option<&str>) -> Result<Example, Diagnostic> {
        let examples = Example::from_json(world, text)?;
        let count = examples.len();
        match id {
            Some(id) => examples
                .into_iter()
                .find(|example| example.id == id)
                .ok_or_else(|| invalid(format!("no example has the id `{id}` ({count} read)"))),
            None => {
                let mut examples = examples.into_iter();
                match (examples.next(), examples.next()) {
                    (Some(only), None) => Ok(only),
                    _ => Err(invalid(format!(
                        "the file holds {count} examples: name one with its id"
                    ))),
                }
            }
        }
    }

    fn resolve(world: &World, record: Record) -> Result<Example, String> {
        let target = world
            .id(&record.target)
            .ok_or_else(|| format!("the target `{}` is not a Plancraft item", record.target))?;
        let mut slots: Slots = [None; SLOTS];
        for (key, content) in &record.slotted_inventory {
            let slot = key
                .parse::<usize>()
                .ok()
                .filter(|slot| (1..SLOTS).contains(slot))
                .ok_or_else(|| {
                    format!("slot `{key}` is not a slot number from 1 to 45 (0 is the output)")
                })?;
            let item = world.id(&content.item).ok_or_else(|| {
                format!("slot {key} holds `{}`, not a Plancraft item", content.item)
            })?;
            let quantity = u8::try_from(content.quantity)
                .ok()
                .filter(|q| (1..=64).contains(q))
                .ok_or_else(|| {
                    format!("slot {key} holds {} items, not 1 to 64", content.quantity)
                })?;
            slots[slot] = Some(Stack { item, quantity });
        }
        let whole = |value: Option<f64>, what: &str| -> Result<Option<u32>, String> {
            value
                .map(|v| {
                    if v >= 0.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX) {
                        Ok(v as u32)
                    } else {
                        Err(format!("`{what}` is {v}, not a whole number"))
                    }
                })
                .transpose()
        };
        let complexity_bin = whole(record.complexity_bin, "complexity_bin")?
            .map(|bin| u8::try_from(bin).map_err(|_| format!("complexity_bin {bin} is too large")))
            .transpose()?;
        Ok(Example {
            id: record.id,
            target,
            slots,
            impossible: record.impossible,
            optimal_path_length: whole(record.optimal_path_length, "optimal_path_length")?,
            complexity_bin,
            complexity_split: record.complexity_split,
            recipe_type: recipe_type(world, record.optimal_path.as_deref()),
        })
    }
}

/// The recipe type of an example with this optimal path (semantics §10): the types of all the
/// recipes of each item on the path, as a set; one type is that type, several (or none, for
/// an empty path) `mixed`, no path `impossible`. An item the world does not know has no recipe.
fn recipe_type(world: &World, path: Option<&[String]>) -> String {
    let Some(path) = path else {
        return "impossible".to_string();
    };
    let mut kinds: Vec<&'static str> = path
        .iter()
        .filter_map(|item| world.id(item))
        .flat_map(|item| world.recipes_for(item))
        .map(|&recipe| world.recipes()[recipe].kind.name())
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    match kinds.as_slice() {
        [one] => (*one).to_string(),
        _ => "mixed".to_string(),
    }
}
