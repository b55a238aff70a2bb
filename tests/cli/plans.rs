//! `validate` and `applicable`: verdicts, the JSON contract, exit codes.

use crate::{code, pddlc, stderr, stdout, write};
use serde_json::Value;

#[test]
fn validate_reports_verdicts_in_the_json_contract_and_exit_codes() {
    let task = [
        "domains/blocksworld/domain.pddl",
        "domains/blocksworld/problem.pddl",
    ];
    let valid = "fixtures/validate/valid_reverse_tower/plan.txt";
    let out = pddlc(&["validate", "--format", "json", task[0], task[1], valid]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    // One shape for one plan or many: the versioned document with a row per plan.
    let document: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(document["version"], 1);
    let json = &document["plans"][0];
    let keys: Vec<&str> = json
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "plan",
            "valid",
            "steps",
            "failed_step",
            "unsatisfied",
            "unmet_goals",
            "metric",
            "failures",
            "diagnostics"
        ]
    );
    assert_eq!(json["valid"], true);
    assert_eq!(json["metric"], 6.0);

    let broken = "fixtures/validate/V306_precondition_unsatisfied/plan.txt";
    let out = pddlc(&["validate", "--format", "json", task[0], task[1], broken]);
    assert_eq!(code(&out), 1);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    let json = &json["plans"][0];
    assert_eq!(json["failed_step"], 2);
    assert_eq!(json["unsatisfied"], serde_json::json!(["(arm-empty)"]));
    assert_eq!(json["failures"][0]["kind"], "precondition");

    // --continue applies the failed step anyway and reports the later failure too.
    let out = pddlc(&[
        "validate",
        "--keep-going",
        "--format",
        "json",
        task[0],
        task[1],
        broken,
    ]);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    let steps: Vec<&Value> = json["plans"][0]["failures"]
        .as_array()
        .expect("failures")
        .iter()
        .map(|f| &f["step"])
        .collect();
    assert!(steps.len() >= 2, "{json}");

    // Several plans: one object each under "plans".
    let out = pddlc(&[
        "validate", "--format", "json", task[0], task[1], valid, broken,
    ]);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["plans"].as_array().map(Vec::len), Some(2));
    assert_eq!(code(&out), 1);

    // Usage and I/O failures.
    assert_eq!(code(&pddlc(&["validate", task[0], task[1]])), 2);
    // An unreadable plan is a row with a P090 diagnostic; the other plans' rows are kept.
    let out = pddlc(&[
        "validate",
        "--format",
        "json",
        task[0],
        task[1],
        "no/such.plan",
        valid,
    ]);
    assert_eq!(code(&out), 2);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["plans"][0]["diagnostics"][0]["code"], "P090");
    assert_eq!(json["plans"][1]["valid"], true);
    // An invalid task is reported before any plan runs.
    let broken_domain = "fixtures/check/C101_undeclared_predicate/domain.pddl";
    let out = pddlc(&[
        "validate",
        "--format",
        "json",
        broken_domain,
        task[1],
        valid,
    ]);
    assert_eq!(code(&out), 1);
    // On stdout, in the format asked for.
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["diagnostics"][0]["code"], "C101");
    assert!(stderr(&out).contains("must be valid"), "{}", stderr(&out));
    // No format asked for, not on a terminal: the convention's default, gcc lines.
    let out = pddlc(&["validate", broken_domain, task[1], valid]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).starts_with(&format!("{broken_domain}:")) && stdout(&out).contains("[C101]"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn applicable_lists_the_ground_actions_after_a_prefix() {
    let task = [
        "domains/blocksworld/domain.pddl",
        "domains/blocksworld/problem.pddl",
    ];
    let out = pddlc(&["applicable", task[0], task[1]]);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "(unstack a b)\n");
    let dir = tempfile::tempdir().expect("temporary directory");
    let prefix = write(dir.path(), "prefix.plan", b"(unstack a b)\n(put-down a)\n");
    let out = pddlc(&[
        "applicable",
        "--format",
        "json",
        task[0],
        task[1],
        &prefix.to_string_lossy(),
    ]);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(
        json["applicable"],
        serde_json::json!(["(pick-up a)", "(unstack b c)"])
    );
    // A prefix that cannot run is reported, not silently cut.
    let bad = write(dir.path(), "bad.plan", b"(stack a b)\n");
    let out = pddlc(&["applicable", task[0], task[1], &bad.to_string_lossy()]);
    assert_eq!(code(&out), 1);
}

#[test]
fn applicable_binds_pddl12_vars_as_validate_does() {
    // `:vars (?from)` is bound by the precondition `(at ?from)`; `validate` accepts the
    // fixture's plan `(go garden)`, so `applicable` must list it too.
    let dir = "fixtures/validate/valid_pddl12_vars";
    let (domain, problem) = (format!("{dir}/domain.pddl"), format!("{dir}/problem.pddl"));
    let out = pddlc(&["validate", &domain, &problem, &format!("{dir}/plan.txt")]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let out = pddlc(&["applicable", &domain, &problem]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert_eq!(stdout(&out), "(go garden)\n(go hall)\n(go kitchen)\n");
}

#[test]
fn applicable_does_not_judge_trajectory_constraints_on_a_prefix() {
    // `(always (not (ontable a)))` is broken once `a` is put down, but a prefix is not a plan:
    // the actions applicable after it are still listed.
    let problem = "fixtures/validate/V314_constraint_violated/problem.pddl";
    let dir = tempfile::tempdir().expect("temporary directory");
    let prefix = write(dir.path(), "prefix.plan", b"(unstack a b)\n(put-down a)\n");
    let out = pddlc(&[
        "applicable",
        "domains/blocksworld/domain.pddl",
        problem,
        &prefix.to_string_lossy(),
    ]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert_eq!(stdout(&out), "(pick-up a)\n(unstack b c)\n");
}

#[test]
fn validate_takes_an_undefined_total_cost_as_zero_as_val_does() {
    let dir = "fixtures/validate/valid_total_cost_undefined";
    let (domain, problem, plan) = (
        format!("{dir}/domain.pddl"),
        format!("{dir}/problem.pddl"),
        format!("{dir}/plan.txt"),
    );
    let out = pddlc(&["validate", "--format", "json", &domain, &problem, &plan]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["plans"][0]["valid"], true);
}

#[test]
fn applicable_says_what_it_cannot_interpret() {
    let dir = "fixtures/validate/V310_validate_unsupported";
    // In the initial state no time has passed: the exponential heating has not run yet.
    let out = pddlc(&[
        "applicable",
        "--format",
        "json",
        &format!("{dir}/domain.pddl"),
        &format!("{dir}/problem.pddl"),
    ]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["applicable"], serde_json::json!(["(start-heating)"]));
    // After a prefix that lets it run, it is not interpreted.
    let out = pddlc(&[
        "applicable",
        "--format",
        "json",
        &format!("{dir}/domain.pddl"),
        &format!("{dir}/problem.pddl"),
        &format!("{dir}/plan.txt"),
    ]);
    // No verdict has an exit status of its own, distinct from an invalid plan's 1.
    assert_eq!(code(&out), 3, "{}{}", stdout(&out), stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["diagnostics"][0]["code"], "V310");
    assert_eq!(json["applicable"], Value::Null);
    let plan = format!("{dir}/plan.txt");
    let task = [format!("{dir}/domain.pddl"), format!("{dir}/problem.pddl")];
    let out = pddlc(&["validate", "--format", "json", &task[0], &task[1], &plan]);
    assert_eq!(code(&out), 3, "{}{}", stdout(&out), stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["plans"][0]["valid"], Value::Null);
    // With an invalid plan beside it, the run exits 1.
    let temporary = tempfile::tempdir().expect("temporary directory");
    let invalid = write(temporary.path(), "unclosed.plan", b"(start-heating\n");
    let invalid = invalid.to_string_lossy().to_string();
    let out = pddlc(&["validate", &task[0], &task[1], &plan, &invalid]);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
}

#[test]
fn validate_names_the_part_and_time_of_a_temporal_failure() {
    let dir = "fixtures/validate/V311_invariant_violated";
    let task = [format!("{dir}/domain.pddl"), format!("{dir}/problem.pddl")];
    let plan = format!("{dir}/plan.txt");
    let out = pddlc(&[
        "validate",
        "--continue",
        "--format",
        "json",
        &task[0],
        &task[1],
        &plan,
    ]);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    let failures = json["plans"][0]["failures"].as_array().expect("failures");
    // `--continue` goes on happening by happening: the oven is off on two intervals.
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert_eq!(failures[0]["kind"], "invariant");
    assert_eq!(failures[0]["part"], "invariant");
    assert_eq!(failures[0]["time"], 6.0);
    assert_eq!(failures[1]["time"], 13.01);
    // `applicable` after a temporal prefix lists what can start there.
    let temporary = tempfile::tempdir().expect("temporary directory");
    let prefix = write(
        temporary.path(),
        "prefix.plan",
        b"0.000: (switch-on) [1.000]\n",
    );
    let prefix = prefix.to_string_lossy().to_string();
    let out = pddlc(&[
        "applicable",
        "--format",
        "json",
        &task[0],
        &task[1],
        &prefix,
    ]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(
        json["applicable"],
        serde_json::json!(["(bake bread)", "(switch-off)"])
    );
}
