//! `plancraft solve` over the val split: every feasible example solved in exactly the
//! dataset's `optimal_path_length` recipes, its messages succeeding in the environment; every
//! impossible example proven impossible (or shown solvable by messages that succeed).

mod common;

use pddlc::plancraft::{Example, SolveOptions, World, solve};
use std::time::Instant;

#[test]
fn val_examples_are_solved_optimally_or_proven_impossible() {
    let Some(root) = common::shared_part(
        "plancraft",
        "val_examples_are_solved_optimally_or_proven_impossible",
    ) else {
        return;
    };
    let world = World::embedded().expect("the shipped world loads");
    let text = std::fs::read_to_string(root.join("data/val.json")).expect("val.json");
    let examples = Example::from_json(&world, &text).expect("val.json reads");
    assert!(examples.len() >= 570, "{} examples", examples.len());
    let mut failures = Vec::new();
    let (mut solved, mut proven, mut states_max) = (0, 0, 0);
    for example in &examples {
        let started = Instant::now();
        let row = solve(&world, example, SolveOptions::default());
        let took = started.elapsed();
        if took.as_millis() > 500 {
            eprintln!(
                "{}: {} in {:?} ({} states)",
                example.id, row.status, took, row.states
            );
        }
        states_max = states_max.max(row.states);
        match (row.status, example.impossible) {
            ("solved", false) => {
                solved += 1;
                if row.length != example.optimal_path_length.map(|n| n as usize) {
                    failures.push(format!(
                        "{}: {:?} recipes, the dataset says {:?}",
                        example.id, row.length, example.optimal_path_length
                    ));
                }
                let replay = row.replay.as_ref().expect("a solved example has a replay");
                assert!(replay.success, "{}: the replay fails", example.id);
            }
            ("impossible", true) => proven += 1,
            ("solved", true) => {
                // Shown solvable: acceptable only with messages that succeed.
                let replay = row.replay.as_ref().expect("a replay");
                failures.push(format!(
                    "{}: labelled impossible, solved in {:?} (replay success {})",
                    example.id, row.length, replay.success
                ));
            }
            (status, _) => failures.push(format!(
                "{}: {status} ({:?} {:?})",
                example.id, row.proof, row.reason
            )),
        }
    }
    eprintln!("{solved} solved, {proven} proven impossible, at most {states_max} states");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(solved >= 470 && proven >= 100);
}
