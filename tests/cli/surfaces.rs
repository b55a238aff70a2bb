//! One table of inputs (fixtures/surfaces/cases.json) through the library's task layer and the
//! CLI: both must give the table's codes and verdict, and the CLI its exit code. The Python
//! binding runs the same table (python/tests/test_surfaces.py), so the three surfaces cannot
//! drift apart.

use super::{code, pddlc, stderr, stdout};
use pddlc::diagnostics::{Diagnostic, TaskFiles};
use pddlc::validate::ValidateOptions;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The table: every case has a name, a command, its inputs, and what every surface must say.
fn cases() -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/surfaces/cases.json");
    let text = std::fs::read_to_string(&path).expect("fixtures/surfaces/cases.json");
    let table: Value = serde_json::from_str(&text).expect("the table is JSON");
    let cases = table["cases"].as_array().expect("a list of cases").clone();
    // The table's own size: a truncated table fails here rather than passing on fewer cases.
    assert!(cases.len() >= 12, "only {} cases in the table", cases.len());
    cases
}

/// A case's input path: `shared:` paths are under ../shared (None when it is absent and the
/// test may skip), others under the repository.
fn input(name: &str, test: &str) -> Option<PathBuf> {
    match name.strip_prefix("shared:") {
        Some(rest) => {
            let part = rest.split('/').next().unwrap_or(rest);
            crate::common::shared_part(part, test).map(|root| root.join(&rest[part.len() + 1..]))
        }
        None => Some(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)),
    }
}

fn expected_codes(case: &Value) -> Vec<String> {
    let mut codes: Vec<String> = case["codes"]
        .as_array()
        .expect("codes")
        .iter()
        .map(|c| c.as_str().expect("a code").to_string())
        .collect();
    codes.sort();
    codes
}

fn sorted_codes<'a>(diagnostics: impl Iterator<Item = &'a Diagnostic>) -> Vec<String> {
    let mut codes: Vec<String> = diagnostics.map(|d| d.code.as_str().to_string()).collect();
    codes.sort();
    codes
}

/// What the library says: the codes and the verdict, through the task layer as every front end
/// calls it. Reading files is the front end's part: an unreadable input is `None`.
fn library(command: &str, paths: &[PathBuf]) -> (Vec<String>, String) {
    let texts: Vec<Option<String>> = paths
        .iter()
        .map(|p| std::fs::read_to_string(p).ok())
        .collect();
    if texts.iter().any(Option::is_none) {
        // The front end reports the unreadable input (P090); the task layer refuses the task.
        let loaded = pddlc::task::load(
            texts[0].as_deref(),
            texts[1].as_deref(),
            TaskFiles::default(),
        );
        assert!(
            loaded.is_err(),
            "a task with an unreadable input was loaded"
        );
        return (vec!["P090".to_string()], "unreadable".to_string());
    }
    let domain = texts[0].as_deref();
    let problem = texts[1].as_deref();
    if command == "score-functional" {
        let functional = pddlc::score::functional::compare_texts(
            domain.unwrap_or_default(),
            problem.unwrap_or_default(),
        );
        let verdict = serde_json::to_value(functional.verdict).expect("a verdict");
        return (Vec::new(), verdict.as_str().unwrap_or_default().to_string());
    }
    if command == "check" {
        let parsed: Vec<_> = [domain, problem]
            .iter()
            .map(|t| t.map(pddlc::parse::file))
            .collect();
        let checked =
            pddlc::task::check_parsed(parsed[0].as_ref(), parsed[1].as_ref(), TaskFiles::default());
        let verdict = if checked.has_errors() { "errors" } else { "ok" };
        return (
            sorted_codes(checked.diagnostics.iter()),
            verdict.to_string(),
        );
    }
    let task = match pddlc::task::load(domain, problem, TaskFiles::default()) {
        Ok(task) => task,
        Err(diagnostics) => {
            return (
                sorted_codes(diagnostics.iter().filter(|d| d.is_error())),
                "none".to_string(),
            );
        }
    };
    match command {
        "validate" => {
            let plan = texts[2].as_deref().unwrap_or_default();
            let report = pddlc::validate::validate(
                &task.domain,
                &task.problem,
                plan,
                &ValidateOptions::default(),
            );
            let verdict = match report.valid {
                Some(true) => "valid",
                Some(false) => "invalid",
                None => "none",
            };
            (sorted_codes(report.diagnostics()), verdict.to_string())
        }
        "solve" => {
            let options = pddlc::solve::Options::default();
            match pddlc::solve::solve(&task.domain, &task.problem, &options, &mut |_| {}) {
                Ok(answer) => {
                    let verdict = match answer.outcome {
                        pddlc::solve::Outcome::Solved { .. } => "solved",
                        pddlc::solve::Outcome::Unsolvable(_) => "unsolvable",
                        pddlc::solve::Outcome::Unknown(_) => "unknown",
                    };
                    (sorted_codes(answer.warnings.iter()), verdict.to_string())
                }
                Err(diagnostics) => (sorted_codes(diagnostics.iter()), "none".to_string()),
            }
        }
        other => panic!("the table names an unknown command `{other}`"),
    }
}

/// Every diagnostic code of a JSON document, wherever the command puts its diagnostics.
fn json_codes(document: &Value) -> Vec<String> {
    let mut codes = Vec::new();
    let mut collect = |list: &Value| {
        for d in list.as_array().into_iter().flatten() {
            codes.push(d["code"].as_str().unwrap_or_default().to_string());
        }
    };
    collect(&document["diagnostics"]);
    for plan in document["plans"].as_array().into_iter().flatten() {
        collect(&plan["diagnostics"]);
    }
    codes.sort();
    codes
}

/// What the CLI says, from its JSON: the codes, the verdict and the exit code.
fn cli(command: &str, paths: &[PathBuf]) -> (Vec<String>, String, i32) {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let mut args: Vec<&str> = match command {
        "kitchen-compile" => vec![
            "kitchen", "compile", "--env", &shown[0], "--goal", &shown[1],
        ],
        "score-functional" => vec!["score", "--functional", &shown[0], &shown[1]],
        _ => std::iter::once(command)
            .chain(shown.iter().map(String::as_str))
            .collect(),
    };
    args.extend(["--format", "json"]);
    let out = pddlc(&args);
    let document: Value = serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not JSON ({e}):\n{}{}",
            stdout(&out),
            stderr(&out)
        )
    });
    let codes = json_codes(&document);
    let verdict = match command {
        "validate" if codes.iter().any(|c| c == "P090") => "unreadable".to_string(),
        "validate" => match document["plans"][0]["valid"].as_bool() {
            Some(true) => "valid".to_string(),
            Some(false) => "invalid".to_string(),
            None => "none".to_string(),
        },
        "solve" => document["status"].as_str().unwrap_or("none").to_string(),
        "score-functional" => document["functional"]["verdict"]
            .as_str()
            .unwrap_or("none")
            .to_string(),
        "check" if code(&out) == 0 => "ok".to_string(),
        "check" => "errors".to_string(),
        _ if codes.iter().any(|c| c == "K410") => "unsolvable".to_string(),
        _ => "compiled".to_string(),
    };
    (codes, verdict, code(&out))
}

#[test]
fn the_library_and_the_cli_agree_on_every_case_of_the_table() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in cases() {
        let name = case["name"].as_str().expect("a name");
        let command = case["command"].as_str().expect("a command");
        let inputs: Option<Vec<PathBuf>> = case["inputs"]
            .as_array()
            .expect("inputs")
            .iter()
            .map(|i| input(i.as_str().expect("a path"), "the_library_and_the_cli_agree"))
            .collect();
        let Some(paths) = inputs else {
            continue;
        };
        ran += 1;
        let codes = expected_codes(&case);
        let verdict = case["verdict"].as_str().expect("a verdict");
        let exit = case["exit"].as_i64().expect("an exit code") as i32;
        let (cli_codes, cli_verdict, cli_exit) = cli(command, &paths);
        if (&cli_codes, cli_verdict.as_str(), cli_exit) != (&codes, verdict, exit) {
            failures.push(format!(
                "{name}: the CLI says {cli_codes:?} {cli_verdict} exit {cli_exit}, the table \
                 {codes:?} {verdict} exit {exit}"
            ));
        }
        if command != "kitchen-compile" {
            let (lib_codes, lib_verdict) = library(command, &paths);
            if (&lib_codes, lib_verdict.as_str()) != (&codes, verdict) {
                failures.push(format!(
                    "{name}: the library says {lib_codes:?} {lib_verdict}, the table {codes:?} \
                     {verdict}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Only the cases on ../shared may be left out, and only where a skip is allowed.
    assert!(ran >= 10, "only {ran} cases ran");
}
