//! Scoring speed: pairs per second over the Text2World dev pairs in ../shared/text2world.
//!
//! `cargo bench --bench score`: both modes, one thread and all cores, texts read beforehand.

use rayon::prelude::*;
use std::path::Path;
use std::time::Instant;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/text2world");
    let Ok(index) = std::fs::read_to_string(root.join("pairs/dev/scores.jsonl")) else {
        println!("skipping the score benchmark: ../shared/text2world is absent");
        return;
    };
    let pairs: Vec<(String, String, bool)> = index
        .lines()
        .filter_map(|line| {
            let row: serde_json::Value = serde_json::from_str(line).ok()?;
            let read = |key: &str| {
                std::fs::read(root.join(row[key].as_str()?))
                    .ok()
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
            };
            Some((read("gold")?, read("pred")?, row["kind"] == "response"))
        })
        .collect();
    println!("{} dev pairs", pairs.len());
    for mode in [pddlc::score::Mode::Text2World, pddlc::score::Mode::Clean] {
        let start = Instant::now();
        for (gold, pred, response) in &pairs {
            std::hint::black_box(pddlc::score::compare(gold, pred, mode, *response));
        }
        let single = pairs.len() as f64 / start.elapsed().as_secs_f64();
        let start = Instant::now();
        pairs.par_iter().for_each(|(gold, pred, response)| {
            std::hint::black_box(pddlc::score::compare(gold, pred, mode, *response));
        });
        let parallel = pairs.len() as f64 / start.elapsed().as_secs_f64();
        println!(
            "{mode:?}: {single:.0} pairs/s on 1 thread, {parallel:.0} pairs/s on {} threads",
            rayon::current_num_threads()
        );
    }
}
