//! `kitchen`: running, describing and compiling the shipped example.

use crate::{code, pddlc, stderr, stdout, write};
use serde_json::Value;

#[test]
fn kitchen_runs_the_shipped_example_on_the_embedded_world() {
    let env = "domains/kitchen/examples/salad/env.json";
    let out = pddlc(&[
        "kitchen",
        "run",
        "--env",
        env,
        "domains/kitchen/examples/salad/safe.txt",
    ]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let out = pddlc(&[
        "kitchen",
        "run",
        "--format",
        "json",
        "--env",
        env,
        "domains/kitchen/examples/salad/unsafe.txt",
    ]);
    assert_eq!(code(&out), 1);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    let failures = json["plans"][0]["failures"].as_array().expect("failures");
    assert_eq!(failures.len(), 1, "{json}");
    assert_eq!(failures[0]["failure_type"], "latent");
    assert_eq!(failures[0]["reversible"], false);
    assert!(
        failures[0]["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("contaminated by raw chicken_breast")
    );
    let out = pddlc(&["kitchen", "describe", "--env", env]);
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("chicken_breast"), "{}", stdout(&out));
}

/// The CLI path of the faithfulness check, on the shipped example: compile the audit flavour
/// for a plan, translate the plan, validate it with `--continue`; the failing steps are those
/// `kitchen run` reports, including a step naming an object that does not exist (Q6) and one
/// that relies on an id being twice in the fridge's contents.
#[test]
fn kitchen_compile_and_validate_agree_with_kitchen_run() {
    let dir = std::env::temp_dir().join(format!("pddlc-cli-kc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let plan = write(
        &dir,
        "plan.txt",
        b"1. [OPEN] <fridge> (1)\n2. [GRAB] <lettuce> (1)\n3. [POUR] <lettuce> (1) <fridge> (1)\n\
4. [TAKE_OUT] <lettuce> (1) <fridge> (1)\n5. [PUT_ON] <lettuce> (1) <cutting_board> (1)\n\
6. [TAKE_OUT] <lettuce> (1) <fridge> (1)\n7. [PUT_IN] <tomato> (1) <bowl> (1)\n8. [MIX] <bowl> (1)\n",
    );
    let env = "domains/kitchen/examples/salad/env.json";
    let (plan, out) = (plan.to_string_lossy(), dir.to_string_lossy());
    let compiled = pddlc(&[
        "kitchen", "compile", "--env", env, "--plan", &plan, "--out", &out,
    ]);
    assert_eq!(code(&compiled), 0, "{}", stderr(&compiled));
    let translated = pddlc(&["kitchen", "plan", "--to-pddl", "--env", env, &plan]);
    assert_eq!(code(&translated), 0, "{}", stderr(&translated));
    let pddl_plan = write(&dir, "plan.pddl", &translated.stdout);
    let validated = pddlc(&[
        "validate",
        "--continue",
        "--format",
        "json",
        &dir.join("domain.pddl").to_string_lossy(),
        &dir.join("env.pddl").to_string_lossy(),
        &pddl_plan.to_string_lossy(),
    ]);
    assert_eq!(code(&validated), 1, "{}", stderr(&validated));
    let json: Value = serde_json::from_str(&stdout(&validated)).expect("valid JSON");
    let steps = |failures: &Value| -> Vec<u64> {
        let mut s: Vec<u64> = failures
            .as_array()
            .expect("failures")
            .iter()
            .filter_map(|f| f["step"].as_u64())
            .filter(|s| *s > 0)
            .collect();
        s.dedup();
        s
    };
    let ran = pddlc(&["kitchen", "run", "--format", "json", "--env", env, &plan]);
    let simmer: Value = serde_json::from_str(&stdout(&ran)).expect("valid JSON");
    assert_eq!(steps(&json["plans"][0]["failures"]), vec![3, 4, 7]);
    assert_eq!(
        steps(&json["plans"][0]["failures"]),
        steps(&simmer["plans"][0]["failures"])
    );
    assert!(stdout(&validated).contains("(present missing-tomato_1)"));
    let _ = std::fs::remove_dir_all(&dir);
}
