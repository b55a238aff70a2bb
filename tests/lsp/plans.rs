//! Plan files: validated against the problem beside them and its domain, or against the task
//! the settings name, with `pddlc validate`'s diagnostics.

use crate::client::{Client, fixture, uri};
use serde_json::{Value, json};
use std::path::Path;

/// The codes of the latest diagnostics published for `path`.
fn codes(client: &mut Client, path: &Path) -> Vec<String> {
    let found = client.diagnostics(path);
    found
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_plan_beside_its_problem_gets_the_validator_s_diagnostics() {
    let mut client = Client::start(&fixture("lsp"));
    let plan = fixture("lsp/delivery/deliver-one.plan");
    client.open(&plan);
    let diagnostics = client.diagnostics(&plan);
    // `pddlc validate`: `deliver-one.plan:2:1: error: … [V306]`, with a note in the domain.
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let d = &diagnostics[0];
    assert_eq!(d["code"], "V306");
    assert_eq!(d["range"]["start"], json!({"line": 1, "character": 0}));
    let message = d["message"].as_str().expect("a message");
    assert!(
        message.starts_with("(load p1 t1 market) has an unsatisfied precondition at step 1"),
        "{message}"
    );
    let related = &d["relatedInformation"][0];
    assert_eq!(
        related["location"]["uri"],
        uri(&fixture("lsp/delivery/domain.pddl"))
    );
    assert_eq!(
        related["location"]["range"]["start"],
        json!({"line": 16, "character": 23})
    );
    // Fixed by driving first: no diagnostics.
    client.change(&plan, 2, "(drive t1 depot market)\n(load p1 t1 market)\n");
    assert_eq!(client.diagnostics(&plan), Vec::<Value>::new());
    // An edit of the open problem is a change of the plan's task: the goal is no longer met.
    let problem = fixture("lsp/delivery/problem.pddl");
    let text = std::fs::read_to_string(&problem).expect("the fixture");
    client.open_text(
        &problem,
        &text.replace("(:goal (in p1 t1))", "(:goal (at t1 depot))"),
    );
    assert_eq!(codes(&mut client, &plan), ["V307"]);
    // A task with errors: its errors, as `pddlc validate` gives them, at the plan's start and
    // with their place in the problem.
    client.change(
        &problem,
        2,
        &text.replace("(:goal (in p1 t1))", "(:goal (in p1 t9))"),
    );
    let found = client.diagnostics(&plan);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["code"], "C110");
    assert_eq!(
        found[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    let related = &found[0]["relatedInformation"][0]["location"];
    assert_eq!(related["uri"], uri(&problem));
    assert_eq!(
        related["range"]["start"],
        json!({"line": 4, "character": 16})
    );
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn the_settings_name_the_task_of_plans_elsewhere() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let plan = dir.path().join("sas_plan.1");
    let options = json!({"plan": {
        "domain": fixture("lsp/delivery/domain.pddl"),
        "problem": fixture("lsp/delivery/problem.pddl"),
    }});
    let mut client = Client::start_with(dir.path(), options);
    client.open_text(&plan, "(drive t1 depot market)\n(load p1 t1 depot)\n");
    assert_eq!(codes(&mut client, &plan), ["V306"]);
    // Without settings, nothing beside it is a problem: no diagnostics.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pddlc": {}}}),
    );
    assert_eq!(client.diagnostics(&plan), Vec::<Value>::new());
    assert_eq!(client.shutdown(), Some(0));
}
