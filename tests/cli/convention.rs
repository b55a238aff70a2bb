//! The convention every subcommand follows (docs/cli.md): formats, standard input, colour, I/O
//! errors as diagnostics, and a closed pipe.

use crate::{code, pddlc, pddlc_piped, stderr, stdout, write};
use serde_json::Value;
use std::process::Command;

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
