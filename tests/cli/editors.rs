//! The editor formats: GCC's lines with their notes, VAL's lines as the VS Code PDDL extension
//! reads them.

use crate::{code, pddlc, stdout, val_pattern, write};
use serde_json::Value;

#[test]
fn val_and_gcc_lines_have_their_editor_shapes() {
    let file = "fixtures/parse/P005_several_errors.pddl";
    let out = pddlc(&["check", "--format", "val", file]);
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(
        lines[0],
        format!("{file}: line: 2: Warning: [C120] predicate `r` is never used")
    );
    assert_eq!(
        lines[2],
        format!(
            "{file}: line: 6: Error: [P005] expected a numeric expression or `total-time`, found `)`"
        )
    );
    let out = pddlc(&["check", "--format", "gcc", file]);
    // Vim's `%f:%l:%c: %trror: %m` reads the first line of each diagnostic; `note:` lines
    // follow with the labels and the help.
    let text = stdout(&out);
    let errors: Vec<&str> = text.lines().filter(|l| !l.contains(": note: ")).collect();
    assert!(
        stdout(&out).contains(&format!(
            "{file}:6:29: error: expected a numeric expression or `total-time`, found `)` [P005]\n"
        )),
        "{}",
        stdout(&out)
    );
    assert_eq!(errors.len(), 4, "{}", stdout(&out));
}

#[test]
fn validate_and_kitchen_run_speak_the_editor_formats() {
    let task = [
        "domains/blocksworld/domain.pddl",
        "domains/blocksworld/problem.pddl",
    ];
    let broken = "fixtures/validate/V306_precondition_unsatisfied/plan.txt";
    let out = pddlc(&["validate", "--format", "gcc", task[0], task[1], broken]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).starts_with(&format!("{broken}:2:1: error: (unstack b c)")),
        "{}",
        stdout(&out)
    );
    let out = pddlc(&["validate", "--format", "val", task[0], task[1], broken]);
    assert_eq!(code(&out), 1);
    let first = stdout(&out).lines().next().unwrap_or_default().to_string();
    assert_eq!(val_pattern(&first), Some((broken, 2, "Error")), "{first}");

    // An unmet goal is located on the goal in the problem file.
    let short = "fixtures/validate/V307_goal_unsatisfied/plan.txt";
    let out = pddlc(&["validate", "--format", "gcc", task[0], task[1], short]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).starts_with(&format!("{}:", task[1])) && stdout(&out).contains("[V307]"),
        "{}",
        stdout(&out)
    );

    let env = "domains/kitchen/examples/salad/env.json";
    let plan = "fixtures/kitchen/K405_fridge_closed.txt";
    let out = pddlc(&["kitchen", "run", "--format", "gcc", "--env", env, plan]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).starts_with(&format!(
            "{plan}:1:1: error: `[TAKE_OUT] <lettuce> (1) <fridge> (1)` cannot run"
        )),
        "{}",
        stdout(&out)
    );
    let out = pddlc(&["kitchen", "run", "--format", "val", "--env", env, plan]);
    let first = stdout(&out).lines().next().unwrap_or_default().to_string();
    assert_eq!(val_pattern(&first), Some((plan, 1, "Error")), "{first}");
    let out = pddlc(&["kitchen", "run", "--format", "json", "--env", env, plan]);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["version"], 1);
    let json = &json["plans"][0];
    assert_eq!(json["failures"][0]["failure_type"], "immediate");
    assert_eq!(json["diagnostics"][0]["code"], "K405");
    assert_eq!(json["diagnostics"][0]["line"], 1);
}

#[test]
fn gcc_counts_display_columns_and_json_counts_characters() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = write(
        dir.path(),
        "tabs.pddl",
        b"(define (domain d)\n\t(:requirements :strips)\n\t(:predicates (p))\n\t(:action a :parameters () :effect (q)))\n",
    );
    let name = file.to_string_lossy().to_string();
    let out = pddlc(&["check", "--format", "gcc", &name]);
    assert_eq!(code(&out), 1);
    // `q` after one tab and 35 characters: display column 8 + 35 + 1, character column 37.
    assert!(
        stdout(&out).contains(&format!("{name}:4:44: error: ")),
        "{}",
        stdout(&out)
    );
    let out = pddlc(&["check", "--format", "json", &name]);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    let error = json["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["code"] == "C101")
        .expect("the undeclared predicate")
        .clone();
    assert_eq!(
        (error["line"].clone(), error["column"].clone()),
        (4.into(), 37.into())
    );
}
