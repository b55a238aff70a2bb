//! `pddlc check --batch LIST`: one JSON line per listed input, with the verdict one `pddlc check`
//! of that input gives, then a summary line; exit 1 when any input failed.

use std::path::Path;
use std::process::Command;

fn run(list: &str, extra: &[&str]) -> (i32, Vec<serde_json::Value>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("list.tsv");
    std::fs::write(&path, list).expect("write list");
    let output = Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .arg("check")
        .arg("--batch")
        .arg(&path)
        .args(extra)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("pddlc runs");
    let rows = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("every line is JSON"))
        .collect();
    (output.status.code().expect("exit code"), rows)
}

fn fixture(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

#[test]
fn each_line_gets_its_verdict_and_the_summary_counts_the_failures() {
    let domain = fixture("domains/blocksworld/domain.pddl");
    let problem = fixture("domains/blocksworld/problem.pddl");
    let broken = fixture("fixtures/check/C101_undeclared_predicate/domain.pddl");
    let list = format!(
        "problem\t{problem}\t{domain}\n\ndomain\t{domain}\t\n{broken}\n/no/such/file.pddl\n"
    );
    let (code, rows) = run(&list, &["--jobs", "1"]);
    assert_eq!(code, 1, "a failed input exits 1: {rows:?}");
    assert_eq!(
        rows.len(),
        5,
        "four inputs (the blank line skipped) and a summary"
    );
    assert_eq!(rows[0]["line"], 1);
    assert_eq!(rows[0]["kind"], "problem");
    assert_eq!(rows[0]["ok"], true);
    assert_eq!(rows[1]["line"], 3, "lines are counted with the blank one");
    assert_eq!(rows[1]["kind"], "domain");
    assert_eq!(rows[1]["ok"], true);
    assert_eq!(rows[2]["ok"], false);
    assert_eq!(rows[2]["codes"], serde_json::json!(["C101"]));
    assert_eq!(rows[3]["ok"], false);
    assert!(
        rows[3]["error"]
            .as_str()
            .unwrap_or_default()
            .contains("/no/such/file.pddl"),
        "an unreadable file says which: {}",
        rows[3]
    );
    for row in &rows {
        assert_eq!(row["version"], 1);
    }
    assert_eq!(rows[4]["summary"], true);
    assert_eq!(rows[4]["items"], 4);
    assert_eq!(rows[4]["failed"], 2);
}

#[test]
fn a_clean_batch_exits_0_and_the_flags_it_cannot_honour_are_refused() {
    let domain = fixture("domains/blocksworld/domain.pddl");
    let (code, rows) = run(&format!("{domain}\n"), &[]);
    assert_eq!(code, 0, "{rows:?}");
    for flag in [["--format", "json"], ["--profile", "tarski"]] {
        let (code, _) = run(&format!("{domain}\n"), &flag);
        assert_eq!(code, 2, "--batch with {flag:?} is refused");
    }
}

#[test]
fn problems_of_one_domain_each_report_its_errors_when_it_is_read_once() {
    let broken_domain = fixture("fixtures/check/C101_undeclared_predicate/domain.pddl");
    let broken_problem = fixture("fixtures/check/C101_undeclared_predicate/problem.pddl");
    let domain = fixture("domains/blocksworld/domain.pddl");
    let problem = fixture("domains/blocksworld/problem.pddl");
    let broken = format!("problem\t{broken_problem}\t{broken_domain}\n");
    let clean = format!("problem\t{problem}\t{domain}\n");
    let list = format!("{broken}{broken}{clean}{broken}");
    for jobs in ["1", "2"] {
        let (code, rows) = run(&list, &["--jobs", jobs]);
        assert_eq!(code, 1, "{rows:?}");
        let standalone = run(&broken, &[]).1;
        for i in [0, 1, 3] {
            assert_eq!(rows[i]["ok"], false, "row {i}: {}", rows[i]);
            assert_eq!(rows[i]["codes"], standalone[0]["codes"], "row {i}");
            assert_eq!(rows[i]["errors"], standalone[0]["errors"], "row {i}");
            assert_eq!(rows[i]["warnings"], standalone[0]["warnings"], "row {i}");
        }
        assert_eq!(rows[2]["ok"], true, "{}", rows[2]);
        assert_eq!(rows[2]["warnings"], 0, "{}", rows[2]);
    }
}
