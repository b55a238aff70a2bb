//! Plancraft's environment against the real one: every step of `shared/plancraft/reference/`
//! (28 probes, 1,000 noisy sequences, 570 oracle replays) gives the kind, change, delta,
//! message, success, stop reason, step count and final inventory Plancraft's code gave.

mod common;

use pddlc::diagnostics::FileId;
use pddlc::plancraft::{
    Episode, EpisodeOptions, Example, SLOTS, Slots, Stack, Step, StepKind, World, run,
};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

fn world() -> World {
    World::embedded().expect("the shipped world loads")
}

fn read_jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// `{"10": ["oak_log", 3]}` as slots.
fn slots_of(world: &World, inventory: &Value) -> Slots {
    let mut slots: Slots = [None; SLOTS];
    for (key, content) in inventory.as_object().expect("an inventory object") {
        let slot: usize = key.parse().expect("a slot number");
        let item = world
            .id(content[0].as_str().expect("a type"))
            .expect("a known item");
        let quantity = content[1].as_u64().expect("a quantity") as u8;
        slots[slot] = Some(Stack { item, quantity });
    }
    slots
}

fn inventory_json(world: &World, slots: &Slots) -> Value {
    let mut map = serde_json::Map::new();
    for (slot, stack) in slots.iter().enumerate() {
        if let Some(stack) = stack {
            map.insert(
                slot.to_string(),
                serde_json::json!([world.name(stack.item), stack.quantity]),
            );
        }
    }
    Value::Object(map)
}

fn delta_json(world: &World, step: &Step) -> Value {
    let mut map = serde_json::Map::new();
    for (slot, stack) in &step.delta {
        let value = match stack {
            Some(stack) => serde_json::json!([world.name(stack.item), stack.quantity]),
            None => Value::Null,
        };
        map.insert(slot.to_string(), value);
    }
    Value::Object(map)
}

/// Runs a reference sequence step by step and returns the differences found, if any.
fn compare(world: &World, example: &Example, reference: &Value) -> Vec<String> {
    let mut episode = Episode::new(world, example, EpisodeOptions::default());
    let mut problems = Vec::new();
    let steps = reference["steps"].as_array().expect("steps");
    for (i, expected) in steps.iter().enumerate() {
        let text = expected["text"].as_str().expect("text");
        let Some(step) = episode.step(text) else {
            problems.push(format!("step {i}: the episode had already ended"));
            break;
        };
        if step.kind.name() != expected["kind"] {
            problems.push(format!(
                "step {i} `{text}`: kind {} not {}",
                step.kind.name(),
                expected["kind"]
            ));
        }
        if step.changed() != expected["changed"] {
            problems.push(format!("step {i} `{text}`: changed {}", step.changed()));
        }
        let delta = delta_json(world, &step);
        let expected_delta = expected
            .get("delta")
            .cloned()
            .unwrap_or(Value::Object(Default::default()));
        if delta != expected_delta {
            problems.push(format!(
                "step {i} `{text}`: delta {delta} not {expected_delta}"
            ));
        }
        if let Some(message) = expected.get("message").and_then(Value::as_str) {
            let ours = step.reply.clone().unwrap_or_default();
            let same = match step.kind {
                StepKind::Search => ours.lines().next() == message.lines().next(),
                _ => ours == message,
            };
            if !same {
                problems.push(format!(
                    "step {i} `{text}`: message `{ours}` not `{message}`"
                ));
            }
        }
    }
    let (stopped_by, success) = episode.finish();
    if stopped_by.name() != reference["stopped_by"] {
        problems.push(format!(
            "stopped by {} not {}",
            stopped_by.name(),
            reference["stopped_by"]
        ));
    }
    if success != reference["success"] {
        problems.push(format!("success {success}"));
    }
    if let Some(n) = reference.get("number_of_steps")
        && episode.steps_used() as u64 != n.as_u64().expect("a count")
    {
        problems.push(format!("{} steps not {n}", episode.steps_used()));
    }
    if inventory_json(world, episode.slots()) != reference["final_inventory"] {
        problems.push("final inventory differs".to_string());
    }
    problems
}

fn val_examples(world: &World, root: &Path) -> HashMap<String, Example> {
    let text = std::fs::read_to_string(root.join("data/val.json")).expect("val.json");
    Example::from_json(world, &text)
        .expect("val.json reads")
        .into_iter()
        .map(|example| (example.id.clone(), example))
        .collect()
}

#[test]
fn probes_step_as_the_real_environment() {
    let Some(root) = common::shared_part("plancraft", "probes_step_as_the_real_environment") else {
        return;
    };
    let world = world();
    let probes = read_jsonl(&root.join("reference/probes.jsonl"));
    assert!(probes.len() >= 28, "{} probes", probes.len());
    let mut failures = Vec::new();
    for probe in &probes {
        let example = Example {
            id: probe["probe"].as_str().unwrap_or_default().to_string(),
            target: world
                .id(probe["target"].as_str().expect("target"))
                .expect("known"),
            slots: slots_of(&world, &probe["inventory"]),
            impossible: probe["impossible"].as_bool().expect("impossible"),
            optimal_path_length: None,
            complexity_bin: None,
            complexity_split: None,
            recipe_type: String::new(),
        };
        for problem in compare(&world, &example, probe) {
            failures.push(format!("{}: {problem}", example.id));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn noisy_sequences_step_as_the_real_environment() {
    let Some(root) =
        common::shared_part("plancraft", "noisy_sequences_step_as_the_real_environment")
    else {
        return;
    };
    let world = world();
    let examples = val_examples(&world, &root);
    let sequences = read_jsonl(&root.join("reference/val-noisy.jsonl"));
    assert!(sequences.len() >= 1000, "{} sequences", sequences.len());
    let mut failures = Vec::new();
    let mut steps = 0;
    for sequence in &sequences {
        let id = sequence["id"].as_str().expect("id");
        steps += sequence["steps"].as_array().map_or(0, Vec::len);
        for problem in compare(&world, &examples[id], sequence) {
            failures.push(format!("{id} seq {}: {problem}", sequence["seq"]));
        }
    }
    assert!(steps >= 18_000, "{steps} steps");
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

#[test]
fn oracle_replays_succeed_as_in_the_real_environment() {
    let Some(root) = common::shared_part(
        "plancraft",
        "oracle_replays_succeed_as_in_the_real_environment",
    ) else {
        return;
    };
    let world = world();
    let examples = val_examples(&world, &root);
    let oracle = read_jsonl(&root.join("reference/val-oracle.jsonl"));
    assert!(oracle.len() >= 570, "{} examples", oracle.len());
    let mut failures = Vec::new();
    for record in &oracle {
        let id = record["id"].as_str().expect("id");
        let mut replay = record["replay"].clone();
        replay["number_of_steps"] = record["evaluator"]["number_of_steps"].clone();
        // The replay's actions are also given whole, one per line, to the run of `plancraft run`.
        let actions: Vec<&str> = record["actions"]
            .as_array()
            .expect("actions")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let result = run(
            &world,
            &examples[id],
            &(actions.join("\n") + "\n"),
            FileId(0),
            EpisodeOptions::default(),
        );
        if result.row.success != record["evaluator"]["success"] {
            failures.push(format!("{id}: run's success is {}", result.row.success));
        }
        for problem in compare(&world, &examples[id], &replay) {
            failures.push(format!("{id}: {problem}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}
