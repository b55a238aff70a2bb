//! `kitchen solve`: a Simmer task compiled, solved by the built-in planner, translated back and
//! run in strict mode, in one process.

use crate::{code, pddlc, pddlc_in, stderr, stdout, write};
use serde_json::Value;

/// The JSON document of a run, which must parse and carry `version`.
fn document(out: &std::process::Output) -> Value {
    let json: Value = serde_json::from_str(&stdout(out)).expect("valid JSON");
    assert_eq!(json["version"], 1, "{json}");
    json
}

/// A JSON value's shape: every leaf replaced by its type's name, an array by its first
/// element's shape, an object's keys kept; so the snapshot holds the contract, not the plan.
fn shape(value: &Value) -> Value {
    match value {
        Value::Null => "null".into(),
        Value::Bool(_) => "bool".into(),
        Value::Number(_) => "number".into(),
        Value::String(_) => "string".into(),
        Value::Array(items) => Value::Array(items.first().map(shape).into_iter().collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), shape(value)))
                .collect(),
        ),
    }
}

/// Task 008 (ice cream: eleven steps), built in, is solved from a directory outside the
/// repository; its Simmer plan runs clean in strict mode both inside `kitchen solve` and when
/// `kitchen run --mode strict --task 008` is given it; the JSON document has the documented
/// shape.
#[test]
fn kitchen_solve_solves_a_small_task_and_its_plan_runs_clean() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let args = ["kitchen", "solve", "--task", "008"];
    let out = pddlc_in(dir.path(), &[&args[..], &["--format", "json"]].concat());
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let json = document(&out);
    let task = &json["tasks"][0];
    assert_eq!(task["task"], "008");
    assert_eq!(task["status"], "solved");
    assert_eq!(task["clean"], true, "{task}");
    assert_eq!(task["strict"]["failures"], Value::Array(Vec::new()));
    let plan: Vec<&str> = task["plan"]
        .as_array()
        .expect("the plan's steps")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(plan.len(), task["pddl_plan"].as_array().map_or(0, Vec::len));
    assert!(plan.iter().any(|step| step.contains("[SERVE]")), "{plan:?}");
    assert_eq!(json["summary"]["solved"], 1);
    assert_eq!(json["summary"]["clean"], 1);
    insta::assert_snapshot!(
        "kitchen_solve_json_shape",
        serde_json::to_string_pretty(&shape(&json)).expect("JSON")
    );
    // The plan, run on its own in strict mode.
    write(dir.path(), "008.txt", (plan.join("\n") + "\n").as_bytes());
    let out = pddlc_in(
        dir.path(),
        &[
            "kitchen", "run", "--mode", "strict", "--task", "008", "008.txt",
        ],
    );
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    // Human: the task's line, then the Simmer plan.
    let out = pddlc_in(dir.path(), &args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("008: solved, ") && text.contains("runs clean in strict mode"),
        "{text}"
    );
    assert!(text.contains(&format!("\n{}\n", plan[0])), "{text}");
}

/// A limit reached is `unknown` and exit 1; inputs that cannot be used exit 2 with their
/// diagnostics; a format that is not a plan's is refused.
#[test]
fn kitchen_solve_exit_codes() {
    let base = ["kitchen", "solve", "--format", "json"];
    let out = pddlc(&[&base[..], &["--task", "008", "--time-limit", "0.000001"]].concat());
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let json = document(&out);
    assert_eq!(json["tasks"][0]["status"], "unknown");
    assert_eq!(json["tasks"][0]["limit"], "time");
    assert_eq!(json["tasks"][0]["plan"], Value::Null);
    // A task without a goal file: nothing to plan for.
    let dir = tempfile::tempdir().expect("temporary directory");
    let tasks = dir.path().to_string_lossy();
    let out = pddlc(&[&base[..], &["--task", "008", "--tasks-dir", &tasks]].concat());
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let json = document(&out);
    assert_eq!(json["diagnostics"][0]["code"], "P090", "{json}");
    assert_eq!(json["tasks"], Value::Array(Vec::new()));
    for bad in [
        &["kitchen", "solve", "--task", "008", "--format", "gcc"][..],
        &["kitchen", "solve", "--task", "008", "--time-limit", "0"],
        &["kitchen", "solve"],
        &["kitchen", "solve", "--task", "008", "--all"],
    ] {
        assert_eq!(code(&pddlc(bad)), 2, "{bad:?}");
    }
    // A task pddlc does not ship, with no environment given: a usage error naming the fix.
    let out = pddlc(&["kitchen", "solve", "--task", "999"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no built-in kitchen task `999`"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("--env FILE"), "{}", stderr(&out));
    // An environment without a goal: nothing to plan for, and the way to give one.
    let env = "domains/kitchen/envs/008.toml";
    let out = pddlc(&[&base[..], &["--env", env, "--tasks-dir", &tasks]].concat());
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    let json = document(&out);
    assert_eq!(json["diagnostics"][0]["code"], "P090", "{json}");
    assert!(
        json["diagnostics"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("--goal FILE")),
        "{json}"
    );
    // Our environment format, with a misspelt class: located, with the class it means.
    write(
        dir.path(),
        "env.toml",
        b"objects = [\"bowl_1\", \"eg_1\"]\n",
    );
    let env = dir.path().join("env.toml");
    let out = pddlc(
        &[
            &base[..],
            &[
                "--env",
                &env.to_string_lossy(),
                "--goal",
                "domains/kitchen/tasks/008.toml",
            ],
        ]
        .concat(),
    );
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let json = document(&out);
    let diagnostic = &json["diagnostics"][0];
    assert_eq!(diagnostic["code"], "K402", "{json}");
    assert_eq!(diagnostic["line"], 1, "{json}");
    assert_eq!(diagnostic["column"], 22, "{json}");
    assert!(
        diagnostic["help"]
            .as_str()
            .is_some_and(|h| h.contains("`egg`")),
        "{json}"
    );
}

/// A goal file that says no plan reaches its task (018: the icing is not spreadable; 023 states
/// no goal at all) brings its `K410` warning, and the task is reported `unsolvable` for the goal
/// file's reason, with no plan and exit 1, never `solved` with an empty plan.
#[test]
fn kitchen_solve_reports_a_goal_marked_unsolvable() {
    let Some(kitchen) =
        crate::common::shared_part("kitchen", "kitchen_solve_reports_a_goal_marked_unsolvable")
    else {
        return;
    };
    let simmer = kitchen.join("simmer/benchmark");
    let simmer = simmer.to_string_lossy();
    for (task, phrase) in [("018", "spreadable"), ("023", "ferments")] {
        let args = ["kitchen", "solve", "--task", task, "--simmer", &simmer];
        let out = pddlc(&[&args[..], &["--format", "json"]].concat());
        assert_eq!(code(&out), 1, "{task}: {}", stderr(&out));
        let json = document(&out);
        assert_eq!(json["diagnostics"][0]["code"], "K410", "{json}");
        assert_eq!(json["diagnostics"][0]["severity"], "warning", "{json}");
        let row = &json["tasks"][0];
        assert_eq!(row["status"], "unsolvable", "{row}");
        assert_eq!(row["plan"], Value::Null, "{row}");
        let reason = row["reason"].as_str().expect("a reason");
        assert!(reason.contains(phrase), "{reason}");
        let out = pddlc(&args);
        assert_eq!(code(&out), 1);
        assert!(stderr(&out).contains("K410"), "{}", stderr(&out));
        assert!(
            stdout(&out).contains("unsolvable, as its goal file says"),
            "{}",
            stdout(&out)
        );
    }
}
