//! The `pddlc` binary: exit codes, output formats, hostile inputs, and that `fmt` never loses
//! what the user wrote.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn pddlc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("pddlc runs")
}

fn code(output: &Output) -> i32 {
    output
        .status
        .code()
        .expect("exited, not killed by a signal")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("temporary file");
    path
}

#[test]
fn check_exits_zero_on_the_shipped_domain_and_problem() {
    let out = pddlc(&[
        "check",
        "domains/blocksworld/domain.pddl",
        "domains/blocksworld/problem.pddl",
    ]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert_eq!(stdout(&out), "", "no diagnostics expected");
}

#[test]
fn check_exits_one_on_errors_and_two_on_io_and_usage_failures() {
    let out = pddlc(&["check", "fixtures/parse/P005_bad_effect.pddl"]);
    assert_eq!(code(&out), 1);
    let out = pddlc(&["check", "no/such/file.pddl"]);
    assert_eq!(code(&out), 2);
    // An unreadable input is a P090 diagnostic, in the format asked for.
    assert!(
        stdout(&out).starts_with("no/such/file.pddl:1:1: error: ")
            && stdout(&out).contains("[P090]"),
        "{}",
        stdout(&out)
    );
    let out = pddlc(&["check"]);
    assert_eq!(code(&out), 2);
    let out = pddlc(&["check", "--format", "xml", "domains/blocksworld"]);
    assert_eq!(code(&out), 2);
    // Warnings alone do not fail.
    let out = pddlc(&["check", "fixtures/parse/P013_repeated_section.pddl"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
}

#[test]
fn a_conflicting_redeclaration_exits_one_and_an_identical_one_exits_zero() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let domain = |predicates: &str| {
        format!(
            "(define (domain d) (:requirements :typing) (:types block)\n\
             (:predicates {predicates})\n\
             (:action a :parameters (?x - block) :precondition (p ?x) :effect (not (p ?x))))\n"
        )
    };
    // One parameter more in the second declaration: an error, though every use fits the first.
    let conflicting = write(
        dir.path(),
        "conflicting.pddl",
        domain("(p ?x - block) (p ?x - block ?y - block)").as_bytes(),
    );
    let out = pddlc(&["check", "--format", "gcc", conflicting.to_str().unwrap()]);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("conflicting.pddl:2:30: error: predicate `p` is declared again"),
        "{}",
        stdout(&out)
    );
    // The same signature in other spelling: a warning only.
    let identical = write(
        dir.path(),
        "identical.pddl",
        domain("(p ?x - block) (P ?y - BLOCK)").as_bytes(),
    );
    let out = pddlc(&["check", "--format", "gcc", identical.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("warning: predicate `P` is declared twice"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn hostile_inputs_give_a_clean_located_error_and_exit_one() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("deep.pddl", vec![b'('; 1_000_000], "P006"),
        (
            "deep_closed.pddl",
            [vec![b'('; 500_000], vec![b')'; 500_000]].concat(),
            "P006",
        ),
        ("empty.pddl", Vec::new(), "P009"),
        (
            "binary.pddl",
            (0..=255u8).cycle().take(4096).collect(),
            "P008",
        ),
        ("latin1.pddl", b"(define (domain caf\xe9))".to_vec(), "P007"),
        (
            "unclosed.pddl",
            b"(define (domain d) (:predicates (p)".to_vec(),
            "P001",
        ),
        ("garbage.pddl", b"hello world".to_vec(), "P005"),
    ];
    for (name, bytes, expected) in cases {
        let path = write(dir.path(), name, &bytes);
        let path = path.to_string_lossy().to_string();
        let out = pddlc(&["check", "--format", "gcc", &path]);
        assert_eq!(code(&out), 1, "{name}: {}{}", stdout(&out), stderr(&out));
        assert!(
            !stderr(&out).contains("panicked"),
            "{name}: {}",
            stderr(&out)
        );
        let line = stdout(&out);
        assert!(
            line.starts_with(&format!("{path}:")) && line.contains(&format!("[{expected}]\n")),
            "{name}: {line}"
        );
    }
}

#[test]
fn json_output_has_the_contracted_shape() {
    let out = pddlc(&[
        "check",
        "--format",
        "json",
        "fixtures/parse/P001_unclosed_action.pddl",
        "fixtures/parse/P013_repeated_section.pddl",
    ]);
    assert_eq!(code(&out), 1);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["version"], 1);
    let diagnostics = json["diagnostics"].as_array().expect("a diagnostics array");
    // The unclosed form, then the second file's warnings: two unused predicates around the
    // repeated section.
    let codes: Vec<&str> = diagnostics
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert_eq!(codes, ["P001", "C120", "P013", "C120"]);
    for d in diagnostics {
        for key in ["file", "severity", "code", "name", "message"] {
            assert!(d[key].is_string(), "{key} is a string in {d}");
        }
        for key in [
            "line",
            "column",
            "end_line",
            "end_column",
            "offset",
            "length",
        ] {
            assert!(d[key].is_u64(), "{key} is a number in {d}");
        }
        assert!(d["line"].as_u64() >= Some(1) && d["column"].as_u64() >= Some(1));
        assert!(d["help"].is_string() || d["help"].is_null());
        assert!(["error", "warning", "advice"].contains(&d["severity"].as_str().unwrap_or("")));
        for label in d["labels"].as_array().expect("labels") {
            for key in ["line", "column", "offset", "length"] {
                assert!(label[key].is_u64(), "label {key} in {label}");
            }
            assert!(label["file"].is_string());
            assert!(label["message"].is_string() || label["message"].is_null());
        }
    }
    // Sorted by file, then position.
    assert_eq!(diagnostics[0]["code"], "P001");
    assert_eq!(diagnostics[0]["line"], 24);
    assert_eq!(diagnostics[0]["column"], 3);
    assert_eq!(diagnostics[0]["name"], "unclosed-form");
    assert_eq!(diagnostics[2]["code"], "P013");
    assert_eq!(diagnostics[2]["severity"], "warning");
    assert_eq!(
        diagnostics[2]["file"],
        "fixtures/parse/P013_repeated_section.pddl"
    );
}

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
fn human_output_is_miettes_report() {
    let out = pddlc(&[
        "check",
        "--format",
        "human",
        "--color",
        "never",
        "fixtures/parse/P015_unknown_part.pddl",
    ]);
    let text = stdout(&out);
    assert!(text.contains("P015(unknown-part)"), "{text}");
    assert!(text.contains("did you mean `:precondition`?"), "{text}");
    assert!(
        stderr(&out).contains("checked 1 file: 1 error, 1 warning"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn check_reads_directories() {
    let out = pddlc(&["check", "--format", "gcc", "fixtures/parse"]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains("P017_operator_arity.pddl:5:30: error: "),
        "{}",
        stdout(&out)
    );
}

#[test]
fn fmt_prints_to_stdout_and_writes_only_when_asked() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let messy = b"; keep me\n(define (domain d) (:predicates (p ?x) ; and me\n (q)) (:action a :parameters (?x) :precondition (p ?x) :effect (q)))\n";
    let path = write(dir.path(), "messy.pddl", messy);
    let path_str = path.to_string_lossy().to_string();
    let out = pddlc(&["fmt", &path_str]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let printed = stdout(&out);
    assert!(
        printed.contains("; keep me") && printed.contains("; and me"),
        "{printed}"
    );
    assert_eq!(
        std::fs::read(&path).expect("file"),
        messy,
        "fmt without --write changed the file"
    );
    let out = pddlc(&["fmt", "--check", &path_str]);
    assert_eq!(code(&out), 1);
    let out = pddlc(&["fmt", "--write", &path_str]);
    assert_eq!(code(&out), 0);
    assert_eq!(std::fs::read_to_string(&path).expect("file"), printed);
    let out = pddlc(&["fmt", "--check", &path_str]);
    assert_eq!(code(&out), 0);
}

#[test]
fn fmt_refuses_to_rewrite_a_file_with_errors() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let broken =
        b"(define (domain d) (:predicates (p)) (:action a :parameters () :effect (not (p) (p))))";
    let path = write(dir.path(), "broken.pddl", broken);
    let out = pddlc(&["fmt", "--write", &path.to_string_lossy()]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("not formatted because it has errors"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&path).expect("file"), broken);
}

#[test]
fn parse_prints_the_tree_as_json() {
    let out = pddlc(&["parse", "--json", "domains/blocksworld/problem.pddl"]);
    assert_eq!(code(&out), 0);
    let document: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(document["version"], 1);
    assert_eq!(document["file"], "domains/blocksworld/problem.pddl");
    assert_eq!(document["diagnostics"], serde_json::json!([]));
    let json = &document["tree"];
    assert_eq!(json["file"], "problem");
    assert_eq!(json["name"]["text"], "reverse-three");
    assert_eq!(json["objects"].as_array().map(Vec::len), Some(3));
    assert_eq!(json["goal"]["type"], "and");
}

#[test]
fn files_are_told_apart_by_content_not_by_name() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let problem = std::fs::read("domains/blocksworld/problem.pddl").expect("shipped problem");
    let misnamed = write(dir.path(), "domain.pddl", &problem);
    let out = pddlc(&["parse", "--json", &misnamed.to_string_lossy()]);
    assert_eq!(code(&out), 0);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["tree"]["file"], "problem");
}

#[test]
fn the_tarski_profile_gives_tarskis_verdict() {
    let out = pddlc(&[
        "check",
        "--profile",
        "tarski",
        "--format",
        "gcc",
        "domains/blocksworld/domain.pddl",
    ]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let out = pddlc(&[
        "check",
        "--profile",
        "tarski",
        "--format",
        "gcc",
        "fixtures/tarski/C150_missing_precondition.pddl",
        "fixtures/parse/P007_invalid_utf8.pddl",
    ]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.contains("C150_missing_precondition.pddl:7:5: error: "),
        "{text}"
    );
    assert!(
        text.contains("P007_invalid_utf8.pddl:2:8: error: "),
        "{text}"
    );
    // The pddl profile accepts what tarski rejects here: a missing precondition is valid PDDL.
    let out = pddlc(&[
        "check",
        "--format",
        "gcc",
        "fixtures/tarski/C150_missing_precondition.pddl",
    ]);
    assert!(!stdout(&out).contains("error"), "{}", stdout(&out));
}

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
        "--continue",
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
    let out = pddlc(&["validate", task[0], task[1], "no/such.plan", valid]);
    assert_eq!(code(&out), 2);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["plans"][0]["diagnostics"][0]["code"], "P090");
    assert_eq!(json["plans"][1]["valid"], true);
    // An invalid task is reported before any plan runs.
    let out = pddlc(&[
        "validate",
        "fixtures/check/C101_undeclared_predicate/domain.pddl",
        task[1],
        valid,
    ]);
    assert_eq!(code(&out), 1);
    // On stdout, in the format asked for (JSON when not on a terminal).
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["diagnostics"][0]["code"], "C101");
    assert!(stderr(&out).contains("must be valid"), "{}", stderr(&out));
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
fn score_scores_pairs_and_batches_without_dropping_rows() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let gold = std::fs::read_to_string("domains/blocksworld/domain.pddl").expect("shipped domain");
    write(dir.path(), "gold.pddl", gold.as_bytes());
    let renamed = gold.replace("?x", "?top").replace("?y", "?below");
    write(dir.path(), "pred.pddl", renamed.as_bytes());
    let gold_path = dir.path().join("gold.pddl").to_string_lossy().to_string();
    let pred_path = dir.path().join("pred.pddl").to_string_lossy().to_string();

    // Renamed variables cost everything in text2world mode and nothing in clean mode.
    let out = pddlc(&[
        "score",
        "--format",
        "json",
        "--mode",
        "text2world",
        &gold_path,
        &pred_path,
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let t2w: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(t2w["EXEC"], 100.0);
    assert_eq!(t2w["F1_PARAM"], 0.0);
    // `codes` lists the diagnostic codes that made EXEC 0: none here.
    assert_eq!(t2w["codes"], serde_json::json!([]));
    let out = pddlc(&["score", "--format", "json", &gold_path, &pred_path]);
    let clean: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(clean["mode"], "clean");
    for key in ["F1_PRED", "F1_PARAM", "F1_PRECOND", "F1_EFF"] {
        assert_eq!(clean[key], 100.0, "{key}: {clean}");
    }

    // A batch: a file pair, an inline pair, a blank line and a broken line, in order, then the
    // summary.
    let inline = serde_json::json!({"id": "inline", "gold": gold, "pred": gold}).to_string();
    let lines = format!(
        "{{\"id\": \"files\", \"gold\": \"gold.pddl\", \"pred\": \"pred.pddl\"}}\n{inline}\n\n{{\"id\": \"broken\", \"gold\": \"missing.pddl\", \"pred\": \"pred.pddl\"}}\n"
    );
    let pairs = write(dir.path(), "pairs.jsonl", lines.as_bytes());
    let out = pddlc(&[
        "score",
        "--mode",
        "text2world",
        "--pairs",
        &pairs.to_string_lossy(),
    ]);
    // A failed line makes the batch exit 1; its row keeps the id and the file's line number.
    assert_eq!(code(&out), 1);
    let rows: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["id"], "files");
    assert_eq!(rows[1]["id"], "inline");
    assert_eq!(rows[1]["SIM"], 100.0);
    assert_eq!(rows[1]["codes"], serde_json::json!([]));
    assert_eq!(rows[2]["line"], 4);
    assert_eq!(rows[2]["id"], "broken");
    assert!(
        rows[2]["error"]
            .as_str()
            .is_some_and(|e| e.contains("missing.pddl")),
        "{}",
        rows[2]
    );
    assert_eq!(rows[2]["codes"], serde_json::json!(["P090"]));
    assert_eq!(rows[3]["pairs"], 3);
    assert_eq!(rows[3]["errors"], 1);

    // `--response` applies to every line that does not say otherwise: a chat answer with the
    // domain in a fence scores as the domain, as `score --response` does for one pair.
    let answer = format!("Here is the domain:\n```pddl\n{gold}\n```\nGood luck!");
    write(dir.path(), "answer.txt", answer.as_bytes());
    let lines = "{\"id\": \"chat\", \"gold\": \"gold.pddl\", \"pred\": \"answer.txt\"}\n\
                 {\"id\": \"raw\", \"gold\": \"gold.pddl\", \"pred\": \"answer.txt\", \"response\": false}\n";
    let pairs = write(dir.path(), "responses.jsonl", lines.as_bytes());
    let batch = pddlc(&[
        "score",
        "--mode",
        "text2world",
        "--response",
        "--pairs",
        &pairs.to_string_lossy(),
    ]);
    let rows: Vec<Value> = stdout(&batch)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let single = pddlc(&[
        "score",
        "--format",
        "json",
        "--mode",
        "text2world",
        "--response",
        &gold_path,
        &dir.path().join("answer.txt").to_string_lossy(),
    ]);
    let single: Value = serde_json::from_str(&stdout(&single)).expect("valid JSON");
    assert_eq!(single["EXEC"], 100.0, "{single}");
    for key in ["EXEC", "SIM", "F1_PRED", "F1_PARAM", "F1_PRECOND", "F1_EFF"] {
        assert_eq!(rows[0][key], single[key], "{key}: {}", rows[0]);
    }
    // The line that says `"response": false` is scored as raw text, which tarski rejects.
    assert_eq!(rows[1]["EXEC"], 0.0, "{}", rows[1]);
}

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

/// The VS Code PDDL extension's default problem pattern for VAL's parser output,
/// `^(file)\s*:\s*line\s*:\s*(\d*)\s*:\s*(Error|Warning)\s*:\s*(.*)$`, written out by hand:
/// the file, the line number and the severity word of a VAL-shaped line.
fn val_pattern(line: &str) -> Option<(&str, usize, &str)> {
    let (file, rest) = line.split_once(':')?;
    let rest = rest
        .trim_start()
        .strip_prefix("line")?
        .trim_start()
        .strip_prefix(':')?;
    let (number, rest) = rest.trim_start().split_once(':')?;
    let (severity, _message) = rest.trim_start().split_once(':')?;
    let severity = severity.trim();
    matches!(severity, "Error" | "Warning")
        .then(|| Some((file.trim(), number.trim().parse().ok()?, severity)))
        .flatten()
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

/// Output into a pipe whose reader has gone ends the process quietly: no panic, no message.
#[cfg(unix)]
#[test]
fn writing_into_a_closed_pipe_ends_quietly() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let dir = tempfile::tempdir().expect("temporary directory");
    // Output far larger than a pipe's buffer, so the writer meets the closed pipe.
    let predicates: String = (0..5000).map(|i| format!("(p{i} ?x)\n")).collect();
    let domain = format!("(define (domain big)\n(:predicates\n{predicates}))\n");
    let big = write(dir.path(), "big.pddl", domain.as_bytes());
    let big = big.to_string_lossy().to_string();
    for run in [
        vec!["fmt", big.as_str()],
        vec!["parse", "--json", big.as_str()],
        vec!["check", "--format", "gcc", big.as_str()],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pddlc"))
            .args(&run)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("pddlc runs");
        // Close the reading end at once, as `| head -0` would.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("pddlc ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{run:?}: {stderr}");
        // Ended by SIGPIPE (13), as `cat` or `grep` are.
        assert_eq!(
            out.status.signal(),
            Some(13),
            "{run:?}: {:?} {stderr}",
            out.status
        );
    }
}

/// Runs pddlc with `stdin` on its standard input, `NO_COLOR` set and `TERM=dumb`.
fn pddlc_piped(args: &[&str], stdin: Option<&[u8]>) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("TERM", "dumb")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pddlc runs");
    let mut input = child.stdin.take().expect("stdin");
    if let Some(bytes) = stdin {
        // A run that refuses its flags may end before reading: a closed pipe is fine.
        let _ = input.write_all(bytes);
    }
    drop(input);
    child.wait_with_output().expect("pddlc ends")
}

/// The CLI convention (docs/cli.md) as a table: every subcommand under every `--format`, from
/// files and from standard input, without colour; the exit code each must give, and every JSON
/// output parses and carries `version`.
#[test]
fn every_subcommand_speaks_every_format() {
    const D: &str = "domains/blocksworld/domain.pddl";
    const P: &str = "domains/blocksworld/problem.pddl";
    const PLAN: &str = "fixtures/validate/valid_reverse_tower/plan.txt";
    const BROKEN_PLAN: &str = "fixtures/validate/V306_precondition_unsatisfied/plan.txt";
    const BAD: &str = "fixtures/parse/P005_bad_effect.pddl";
    const ENV: &str = "domains/kitchen/examples/salad/env.json";
    const SAFE: &str = "domains/kitchen/examples/salad/safe.txt";
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().expect("temporary directory");
    let pair = format!("{{\"id\": 7, \"gold\": \"{root}/{D}\", \"pred\": \"{root}/{D}\"}}\n");
    let pairs = write(dir.path(), "pairs.jsonl", pair.as_bytes());
    let pairs = pairs.to_string_lossy().to_string();
    let read = |path: &str| std::fs::read(path).expect("fixture");

    // (arguments, the file given as `-` in the stdin variant, exit code by format: human,
    // json, gcc, val).
    type Row<'a> = (Vec<&'a str>, Option<&'a str>, [i32; 4]);
    let rows: Vec<Row> = vec![
        (vec!["check", D, P], Some(D), [0; 4]),
        (vec!["check", BAD], Some(BAD), [1; 4]),
        (vec!["check", "no/such.pddl"], None, [2; 4]),
        (vec!["fmt", D], Some(D), [0; 4]),
        (vec!["fmt", BAD], Some(BAD), [1; 4]),
        (vec!["parse", P], Some(P), [0; 4]),
        (vec!["parse", BAD], Some(BAD), [1; 4]),
        (vec!["validate", D, P, PLAN], Some(PLAN), [0; 4]),
        (
            vec!["validate", D, P, BROKEN_PLAN],
            Some(BROKEN_PLAN),
            [1; 4],
        ),
        (vec!["validate", D, P, "no/such.plan"], None, [2; 4]),
        (vec!["applicable", D, P], Some(P), [0; 4]),
        (
            vec!["applicable", D, P, BROKEN_PLAN],
            Some(BROKEN_PLAN),
            [1; 4],
        ),
        // A score is not a diagnostic: gcc and val are refused.
        (vec!["score", D, D], Some(D), [0, 0, 2, 2]),
        // A batch has no table.
        (vec!["score", "--pairs", &pairs], None, [2, 0, 2, 2]),
        (
            vec!["kitchen", "run", "--env", ENV, SAFE],
            Some(SAFE),
            [0; 4],
        ),
        (vec!["kitchen", "describe", "--env", ENV], Some(ENV), [0; 4]),
        (vec!["kitchen", "compile", "--env", ENV], None, [0; 4]),
        (
            vec!["kitchen", "plan", "--to-pddl", "--env", ENV, SAFE],
            Some(SAFE),
            [0; 4],
        ),
    ];
    let formats = ["human", "json", "gcc", "val"];
    let mut failures = Vec::new();
    for (args, piped, codes) in &rows {
        let mut variants: Vec<(Vec<&str>, Option<Vec<u8>>)> = vec![(args.clone(), None)];
        if let Some(file) = piped {
            let position = args.iter().position(|a| a == file).expect("piped file");
            let mut with_dash = args.clone();
            with_dash[position] = "-";
            variants.push((with_dash, Some(read(file))));
        }
        for (args, stdin) in &variants {
            for (format, expected) in formats.iter().zip(codes) {
                let mut full = args.clone();
                full.extend(["--format", format, "--color", "auto"]);
                let out = pddlc_piped(&full, stdin.as_deref());
                let shown = full.join(" ");
                if out.status.code() != Some(*expected) {
                    failures.push(format!(
                        "{shown}: exit {:?}, expected {expected}\n{}{}",
                        out.status.code(),
                        stdout(&out),
                        stderr(&out)
                    ));
                    continue;
                }
                if stdout(&out).contains('\u{1b}') {
                    failures.push(format!("{shown}: colour despite NO_COLOR"));
                }
                if *format == "json" && (*expected != 2 || !stdout(&out).is_empty()) {
                    match serde_json::from_str::<Value>(&stdout(&out)) {
                        Ok(json) if json["version"] == 1 => {}
                        Ok(json) => failures.push(format!("{shown}: no version in {json}")),
                        Err(e) => {
                            failures.push(format!("{shown}: not JSON ({e}): {}", stdout(&out)))
                        }
                    }
                }
            }
        }
    }
    // Batches: every JSON line carries the version, read from a file or from stdin.
    for (args, stdin) in [
        (
            vec!["score", "--pairs", pairs.as_str(), "--format", "jsonl"],
            None,
        ),
        (
            vec!["score", "--pairs", "-", "--format", "jsonl", "--jobs", "2"],
            Some(pair.as_bytes()),
        ),
    ] {
        let out = pddlc_piped(&args, stdin);
        assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
        let lines: Vec<Value> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        assert_eq!(lines.len(), 2, "{}", stdout(&out));
        assert!(lines.iter().all(|l| l["version"] == 1), "{}", stdout(&out));
        assert_eq!(lines[0]["id"], 7);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn io_errors_are_diagnostics_inside_every_format() {
    let missing = "fixtures/cli/P090_missing.pddl";
    let out = pddlc(&[
        "check",
        "--format",
        "json",
        "domains/blocksworld/domain.pddl",
        missing,
    ]);
    assert_eq!(code(&out), 2);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["diagnostics"][0]["code"], "P090");
    assert_eq!(json["diagnostics"][0]["file"], missing);
    assert_eq!(json["files"][0]["kind"], "domain");
    // Standard input twice is the same error, not a hang.
    let out = pddlc_piped(&["check", "--format", "gcc", "-", "-"], Some(b"(define"));
    assert_eq!(code(&out), 2);
    assert!(stdout(&out).contains("[P090]"), "{}", stdout(&out));
}

#[test]
fn deny_warnings_makes_warnings_exit_one() {
    let file = "fixtures/parse/P013_repeated_section.pddl";
    assert_eq!(code(&pddlc(&["check", file])), 0);
    assert_eq!(code(&pddlc(&["check", "--deny-warnings", file])), 1);
}

#[test]
fn check_names_the_domain_a_problem_was_checked_against_and_prefers_a_clean_one() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let good = std::fs::read("domains/blocksworld/domain.pddl").expect("domain");
    let text = String::from_utf8_lossy(&good);
    // The same name, an undeclared predicate: a broken domain that sorts first.
    let broken = text.replacen(
        "(:action",
        "(:action broken :parameters () :effect (nowhere))\n  (:action",
        1,
    );
    let a = write(dir.path(), "a-domain.pddl", broken.as_bytes());
    let b = write(dir.path(), "b-domain.pddl", &good);
    let out = pddlc(&[
        "check",
        "--format",
        "json",
        &a.to_string_lossy(),
        &b.to_string_lossy(),
        "domains/blocksworld/problem.pddl",
    ]);
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(
        json["files"][2]["checked_against"],
        b.to_string_lossy().as_ref(),
        "{json}"
    );
    let out = pddlc(&[
        "check",
        "--format",
        "gcc",
        "domains/blocksworld/domain.pddl",
        "domains/blocksworld/problem.pddl",
    ]);
    assert!(
        stderr(&out).contains("checked against domains/blocksworld/domain.pddl"),
        "{}",
        stderr(&out)
    );
    // The tarski profile is for domains: a problem is skipped with a note.
    let out = pddlc(&[
        "check",
        "--profile",
        "tarski",
        "domains/blocksworld/problem.pddl",
    ]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stderr(&out).contains("checks domains only"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn applicable_says_what_it_cannot_interpret() {
    let dir = "fixtures/validate/V310_validate_unsupported";
    let out = pddlc(&[
        "applicable",
        "--format",
        "json",
        &format!("{dir}/domain.pddl"),
        &format!("{dir}/problem.pddl"),
    ]);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(json["diagnostics"][0]["code"], "V310");
    assert_eq!(json["applicable"], Value::Null);
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

/// `check --extract` reads an LLM's answer as `score --response` does: the PDDL in its fence.
#[test]
fn check_extract_takes_the_pddl_out_of_a_chat_answer() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let domain = std::fs::read_to_string("domains/blocksworld/domain.pddl").expect("domain");
    let answer =
        format!("Sure! Here is the domain:\n\n```pddl\n{domain}```\n\nIt has four actions.\n");
    let path = write(dir.path(), "answer.md", answer.as_bytes());
    let path = path.to_string_lossy().to_string();
    let out = pddlc(&["check", "--format", "gcc", &path]);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("[P018]"), "{}", stdout(&out));
    assert!(stdout(&out).contains("--extract"), "{}", stdout(&out));
    let out = pddlc(&["check", "--extract", "--format", "gcc", &path]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert_eq!(stdout(&out), "");
}
