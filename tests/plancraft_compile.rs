//! `plancraft compile` on the val split: every feasible example's counter-level PDDL checks
//! clean and `pddlc solve` solves it within 60 s (all 470 take about 10 s); Fast Downward
//! (lama-first) solves a sample (every example with `--ignored`: about 4 minutes); the plans
//! of both turn back into messages that succeed in the environment. The impossible examples
//! compile too, but a planner proves them unsolvable only by exhausting every combination of
//! counts, which can take long; `plancraft solve` proves them directly
//! (tests/plancraft_solve.rs).

mod common;

use pddlc::diagnostics::TaskFiles;
use pddlc::plancraft::{Example, World, compile_counts, from_pddl_plan};
use pddlc::solve::{self, Options, Outcome};
use std::time::Duration;

fn val(test: &str) -> Option<(World, Vec<Example>)> {
    let root = common::shared_part("plancraft", test)?;
    let world = World::embedded().expect("the shipped world loads");
    let text = std::fs::read_to_string(root.join("data/val.json")).expect("val.json");
    let examples = Example::from_json(&world, &text).expect("val.json reads");
    assert!(examples.len() >= 570, "{} examples", examples.len());
    Some((world, examples))
}

#[test]
fn compiled_val_checks_clean_and_pddlc_solve_plans_succeed() {
    let Some((world, examples)) = val("compiled_val_checks_clean_and_pddlc_solve_plans_succeed")
    else {
        return;
    };
    let mut failures = Vec::new();
    let (mut feasible, mut solved, mut impossible_compiled) = (0, 0, 0);
    for example in &examples {
        let compiled = compile_counts(&world, example);
        let task = match pddlc::task::load(
            Some(&compiled.domain),
            Some(&compiled.problem),
            TaskFiles::default(),
        ) {
            Ok(task) => task,
            Err(diagnostics) => {
                failures.push(format!("{}: {:?}", example.id, diagnostics[0].message));
                continue;
            }
        };
        if example.impossible {
            impossible_compiled += 1;
            continue;
        }
        if let Some(warning) = task.warnings.first() {
            failures.push(format!("{}: warning {}", example.id, warning.message));
        }
        feasible += 1;
        let options = Options {
            time_limit: Some(Duration::from_secs(60)),
            ..Options::default()
        };
        let answer = solve::solve(&task.domain, &task.problem, &options, &mut |_| {})
            .unwrap_or_else(|d| panic!("{}: {:?}", example.id, d[0].message));
        match (answer.outcome, example.impossible) {
            (Outcome::Solved { plan, .. }, false) => {
                let row = from_pddl_plan(&world, example, &plan.join("\n"));
                if row.status != "solved" {
                    failures.push(format!(
                        "{}: the plan does not carry out: {:?}",
                        example.id, row.reason
                    ));
                }
                solved += 1;
            }
            (outcome, impossible) => failures.push(format!(
                "{} (impossible {impossible}): {}",
                example.id,
                match outcome {
                    Outcome::Solved { .. } => "solved",
                    Outcome::Unsolvable(_) => "unsolvable",
                    Outcome::Unknown(_) => "unknown",
                }
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        feasible >= 470 && solved == feasible && impossible_compiled >= 100,
        "{feasible} feasible, {solved} solved, {impossible_compiled} impossible"
    );
}

fn fast_downward_solves(every: usize) {
    let Some((world, examples)) = val("fast_downward_solves_compiled_val") else {
        return;
    };
    let Some(fd) = common::fast_downward::fast_downward() else {
        common::skip(
            "fast_downward_solves_compiled_val",
            "Fast Downward is not installed (pip install up-fast-downward)",
        );
        return;
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for example in examples.iter().filter(|e| !e.impossible).step_by(every) {
        let compiled = compile_counts(&world, example);
        let dir = tempfile::tempdir().expect("a work directory");
        std::fs::write(dir.path().join("domain.pddl"), &compiled.domain).expect("write");
        std::fs::write(dir.path().join("problem.pddl"), &compiled.problem).expect("write");
        let status = std::process::Command::new("timeout")
            .arg("60")
            .arg("python3")
            .arg(&fd)
            .args(["--alias", "lama-first", "domain.pddl", "problem.pddl"])
            .current_dir(dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .expect("python3 runs");
        let plan = std::fs::read_to_string(dir.path().join("sas_plan"));
        checked += 1;
        match (plan, example.impossible) {
            (Ok(plan), false) => {
                let row = from_pddl_plan(&world, example, &plan);
                if row.status != "solved" {
                    failures.push(format!("{}: {:?}", example.id, row.reason));
                }
            }
            (plan, impossible) => failures.push(format!(
                "{} (impossible {impossible}): plan {}, exit {status}",
                example.id,
                plan.is_ok()
            )),
        }
    }
    assert!(checked >= 470 / every, "{checked} examples");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fast_downward_solves_a_sample_of_compiled_val() {
    fast_downward_solves(10);
}

#[test]
#[ignore = "runs Fast Downward 470 times (several minutes)"]
fn fast_downward_solves_all_of_compiled_val() {
    fast_downward_solves(1);
}

/// Picks count toward the recipe application that follows them, in any interleaving; a pick of
/// an item the cell does not allow, or an application missing its picks, is no plan.
#[test]
fn picked_units_translate_into_the_recipe_they_fill() {
    let Some((world, examples)) = val("picked_units_translate_into_the_recipe_they_fill") else {
        return;
    };
    let example = examples
        .iter()
        .find(|e| e.id == "VAL0075")
        .expect("VAL0075 (smithing table from four planks of any kind) is in val");
    let compiled = compile_counts(&world, example);
    assert!(compiled.domain.contains("(:action pick-smithing-table-3"));
    let plan = "(pick-smithing-table-0 spruce_planks n2 n1)\n\
                (pick-smithing-table-1 spruce_planks n1 n0)\n\
                (craft-iron-ingot-from-nuggets-0 n0 n1 n18 n9)\n\
                (pick-smithing-table-2 warped_planks n1 n0)\n\
                (craft-crimson-planks-0 n0 n4 n18 n17)\n\
                (pick-smithing-table-3 crimson_planks n4 n3)\n\
                (craft-iron-ingot-from-nuggets-0 n1 n2 n9 n0)\n\
                (craft-smithing-table n2 n0 n0 n1)\n";
    let row = from_pddl_plan(&world, example, plan);
    assert_eq!(row.status, "solved", "{:?}", row.reason);
    assert_eq!(row.length, Some(4));
    let table = &row.recipes[3];
    assert_eq!(table.result, "smithing_table");
    let uses: Vec<(&str, u16)> = table.uses.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(
        uses,
        [
            ("crimson_planks", 1),
            ("iron_ingot", 2),
            ("spruce_planks", 2),
            ("warped_planks", 1)
        ]
    );

    let not_allowed = plan.replace(
        "(pick-smithing-table-2 warped_planks n1 n0)",
        "(pick-smithing-table-2 iron_nugget n18 n17)",
    );
    let row = from_pddl_plan(&world, example, &not_allowed);
    assert_eq!(row.status, "unknown");
    let reason = row.reason.unwrap_or_default();
    assert!(reason.starts_with("line 8: "), "{reason}");

    let unpicked = plan.replace("(pick-smithing-table-3 crimson_planks n4 n3)\n", "");
    let row = from_pddl_plan(&world, example, &unpicked);
    assert_eq!(row.status, "unknown", "{:?}", row.reason);
}
