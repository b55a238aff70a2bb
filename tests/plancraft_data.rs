//! The shipped Plancraft world (domains/plancraft/*.toml) equals Plancraft's own data files
//! (shared/plancraft/data, gautierdag/plancraft @ 5ab294e), read here from their JSON as
//! Plancraft's `recipes.py` and `items.py` read them.

mod common;

use pddlc::plancraft::{RecipeKind, World};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn clean(name: &str) -> String {
    name.strip_prefix("minecraft:").unwrap_or(name).to_string()
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("a data file")).expect("JSON")
}

/// Plancraft's `get_item`: an ingredient's item names, tags expanded, in order.
fn get_item(value: &Value, tags: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    match value {
        Value::Array(list) => list.iter().flat_map(|v| get_item(v, tags)).collect(),
        Value::String(s) if s.starts_with('#') => {
            let values: Vec<Value> = tags[&clean(&s[1..])]
                .iter()
                .map(|v| Value::String(v.clone()))
                .collect();
            get_item(&Value::Array(values), tags)
        }
        Value::String(s) => vec![clean(s)],
        Value::Object(map) => match map.get("item") {
            Some(item) => vec![clean(item.as_str().expect("an item name"))],
            None => {
                let tag = clean(map["tag"].as_str().expect("a tag name"));
                let values: Vec<Value> = tags[&tag]
                    .iter()
                    .map(|v| Value::String(v.clone()))
                    .collect();
                get_item(&Value::Array(values), tags)
            }
        },
        _ => panic!("an ingredient of another shape: {value}"),
    }
}

#[test]
fn shipped_world_equals_plancrafts_data() {
    let Some(data) = common::shared_part("plancraft", "shipped_world_equals_plancrafts_data")
    else {
        return;
    };
    let data = data.join("data");
    let world = World::embedded().expect("the shipped world loads");
    let names =
        |ids: &[u16]| -> Vec<String> { ids.iter().map(|&i| world.name(i).to_string()).collect() };

    let items = read(&data.join("constants.json"))["items"]
        .as_array()
        .expect("items")
        .clone();
    assert!(items.len() >= 976);
    assert_eq!(world.items().len(), items.len());
    for (ours, theirs) in world.items().iter().zip(&items) {
        assert_eq!(ours.name, theirs["type"].as_str().expect("type"));
        let stack = if theirs["stackable"].as_bool().expect("stackable") {
            theirs["stackSize"].as_u64().expect("size")
        } else {
            1
        };
        assert_eq!(u64::from(ours.stack_size), stack, "{}", ours.name);
    }

    let mut tags = BTreeMap::new();
    for entry in std::fs::read_dir(data.join("tags")).expect("tags") {
        let path = entry.expect("entry").path();
        let values = read(&path)["values"]
            .as_array()
            .expect("values")
            .iter()
            .map(|v| clean(v.as_str().expect("a value")))
            .collect::<Vec<_>>();
        tags.insert(
            path.file_stem()
                .expect("a name")
                .to_string_lossy()
                .to_string(),
            values,
        );
    }
    assert!(tags.len() >= 54);
    assert_eq!(world.tags().len(), tags.len());
    for (tag, ids) in world.tags() {
        let expanded = get_item(&Value::String(format!("#{tag}")), &tags);
        assert_eq!(names(ids), expanded, "tag {tag}");
    }

    let mut files: Vec<_> = std::fs::read_dir(data.join("recipes"))
        .expect("recipes")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let mut recipes = world.recipes().iter();
    let mut skipped: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in &files {
        let recipe = read(path);
        let stem = path
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .to_string();
        let kind = clean(recipe["type"].as_str().expect("a type"));
        if !["crafting_shaped", "crafting_shapeless", "smelting"].contains(&kind.as_str()) {
            skipped.entry(kind).or_default().push(stem);
            continue;
        }
        let ours = recipes.next().expect("as many recipes as loaded files");
        assert_eq!(ours.file, stem);
        match (&ours.kind, kind.as_str()) {
            (
                RecipeKind::Shaped {
                    height,
                    width,
                    cells,
                },
                "crafting_shaped",
            ) => {
                let pattern: Vec<&str> = recipe["pattern"]
                    .as_array()
                    .expect("pattern")
                    .iter()
                    .map(|r| r.as_str().expect("a row"))
                    .collect();
                assert_eq!(usize::from(*height), pattern.len());
                assert_eq!(usize::from(*width), pattern[0].chars().count());
                let theirs: Vec<Option<BTreeSet<String>>> = pattern
                    .iter()
                    .flat_map(|row| row.chars())
                    .map(|c| {
                        (c != ' ').then(|| {
                            get_item(&recipe["key"][c.to_string()], &tags)
                                .into_iter()
                                .collect()
                        })
                    })
                    .collect();
                let ours: Vec<Option<BTreeSet<String>>> = cells
                    .iter()
                    .map(|c| c.as_ref().map(|ids| names(ids).into_iter().collect()))
                    .collect();
                assert_eq!(ours, theirs, "{stem}");
            }
            (RecipeKind::Shapeless { ingredients, .. }, "crafting_shapeless") => {
                let theirs: Vec<Vec<String>> = recipe["ingredients"]
                    .as_array()
                    .expect("ingredients")
                    .iter()
                    .map(|i| get_item(i, &tags))
                    .collect();
                let ours: Vec<Vec<String>> = ingredients.iter().map(|ids| names(ids)).collect();
                assert_eq!(ours, theirs, "{stem}");
            }
            (RecipeKind::Smelting { inputs }, "smelting") => {
                let theirs: BTreeSet<String> =
                    get_item(&recipe["ingredient"], &tags).into_iter().collect();
                assert_eq!(
                    names(inputs).into_iter().collect::<BTreeSet<_>>(),
                    theirs,
                    "{stem}"
                );
                assert_eq!(
                    world.name(ours.result),
                    clean(recipe["result"].as_str().expect("a result"))
                );
                assert_eq!(ours.count, 1);
                continue;
            }
            _ => panic!("{stem}: kind {kind} read as {}", ours.kind.name()),
        }
        assert_eq!(
            world.name(ours.result),
            clean(recipe["result"]["item"].as_str().expect("a result")),
            "{stem}"
        );
        assert_eq!(
            u64::from(ours.count),
            recipe["result"]
                .get("count")
                .and_then(Value::as_u64)
                .unwrap_or(1),
            "{stem}"
        );
    }
    assert!(recipes.next().is_none(), "more recipes than loaded files");
    assert!(world.recipes().len() >= 687);
    assert_eq!(world.skipped(), &skipped);
}
