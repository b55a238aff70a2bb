//! Reads the shipped kitchen world (`domains/kitchen/*.toml`) at build time and embeds it in
//! binary form (postcard), so that `World::embedded()` deserializes it instead of parsing TOML
//! at run time: TOML parsing was nine tenths of a `pddlc kitchen run`'s start-up.
//!
//! The types are the library's own (`src/kitchen/data/model.rs`, included here), so the binary form
//! cannot drift from them; `World::embedded()` resolves the actions as `World::from_toml` does,
//! and tests/kitchen.rs checks that both give the same world.

#[allow(dead_code)]
#[path = "src/kitchen/data/model.rs"]
mod model;

use std::path::Path;

fn parse<T: serde::de::DeserializeOwned>(dir: &Path, name: &str) -> T {
    let path = dir.join(name);
    println!("cargo::rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()))
}

fn main() {
    println!("cargo::rerun-if-changed=src/kitchen/data/model.rs");
    println!("cargo::rerun-if-changed=build.rs");
    // Read when the script runs, not when it is compiled: a build script compiled for one
    // checkout is reused by another that shares the target directory (a git worktree).
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest_dir).join("domains/kitchen");
    let actions: model::ActionsFile = parse(&dir, "actions.toml");
    let world: model::WorldFile = parse(&dir, "world.toml");
    let classes: model::ClassesFile = parse(&dir, "classes.toml");
    // Two parts: running plans never reads the classes, so they are decoded only when asked for.
    let out = Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).to_path_buf();
    let write = |name: &str, bytes: Vec<u8>| {
        let path = out.join(name);
        std::fs::write(&path, bytes)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    };
    let serialized = postcard::to_allocvec(&(actions, world)).expect("the world serializes");
    write("kitchen_world.postcard", serialized);
    let serialized = postcard::to_allocvec(&classes).expect("the classes serialize");
    write("kitchen_classes.postcard", serialized);
    write("kitchen_tasks.rs", embedded_tasks(&dir).into_bytes());
}

/// The table of shipped tasks (`src/kitchen/data/task.rs`): every `envs/NNN.toml`, with
/// `tasks/NNN.toml` when there is one, included as text.
fn embedded_tasks(dir: &Path) -> String {
    let envs = dir.join("envs");
    println!("cargo::rerun-if-changed={}", envs.display());
    println!("cargo::rerun-if-changed={}", dir.join("tasks").display());
    let mut ids: Vec<String> = std::fs::read_dir(&envs)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", envs.display()))
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            Some(name.strip_suffix(".toml")?.to_string())
        })
        .collect();
    ids.sort();
    let mut out = String::from("&[\n");
    for id in ids {
        let env = envs.join(format!("{id}.toml"));
        let goal = dir.join(format!("tasks/{id}.toml"));
        let goal = if goal.is_file() {
            format!("Some(include_str!({:?}))", goal.display().to_string())
        } else {
            "None".to_string()
        };
        out.push_str(&format!(
            "    EmbeddedTask {{ id: {id:?}, env: include_str!({:?}), goal: {goal} }},\n",
            env.display().to_string()
        ));
    }
    out.push(']');
    out
}
