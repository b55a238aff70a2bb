//! The `pddlc` binary: exit codes, output formats, hostile inputs, and that `fmt` never loses
//! what the user wrote. One test program; its modules group the tests by subcommand and by the
//! convention every subcommand follows (docs/cli.md).

mod answers;
mod bddl;
mod bddl_files;
#[path = "../common/mod.rs"]
mod common;
mod convention;
mod docs;
mod editors;
mod kitchen;
mod kitchen_eval;
mod kitchen_solve;
mod plans;
mod score;
mod score_functional;
mod surfaces;
mod worldmodel;

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

/// `pddlc` run from `dir`, as a user outside the repository runs it.
fn pddlc_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .args(args)
        .current_dir(dir)
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
