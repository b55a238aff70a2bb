//! The convention every subcommand follows (docs/cli.md): formats, standard input, colour, I/O
//! errors as diagnostics, and a closed pipe.

use crate::{code, pddlc, stderr, stdout, write};
use serde_json::Value;
use std::process::{Command, Output};

/// What the reader of pddlc's standard output does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reader {
    /// Reads everything, as a script does.
    All,
    /// Is gone before pddlc starts, so that pddlc's first write, however small, meets a closed
    /// pipe.
    Gone,
    /// Reads the first line and leaves, as `| head -1` does.
    FirstLine,
}

/// Runs pddlc with `stdin` on its standard input, `NO_COLOR` set and `TERM=dumb`, its standard
/// output read as `reader` says. Standard input is written from a thread of its own and
/// standard error read from another, so that no order of the child's reads and writes
/// deadlocks.
fn pddlc_with(args: &[&str], stdin: Option<&[u8]>, reader: Reader) -> Output {
    use std::io::{BufRead, Read, Write};
    use std::process::Stdio;
    let mut command = Command::new(env!("CARGO_BIN_EXE_pddlc"));
    command
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("TERM", "dumb")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped());
    match reader {
        Reader::Gone => {
            let (read_end, write_end) = std::io::pipe().expect("a pipe");
            drop(read_end);
            command.stdout(write_end);
        }
        Reader::All | Reader::FirstLine => {
            command.stdout(Stdio::piped());
        }
    }
    let mut child = command.spawn().expect("pddlc runs");
    // The command holds the pipe's write end: drop it, or the pipe never reports its end.
    drop(command);
    let mut input = child.stdin.take().expect("stdin");
    let bytes = stdin.map(<[u8]>::to_vec);
    let writer = std::thread::spawn(move || {
        if let Some(bytes) = bytes {
            // A run that refuses its flags, or is ended by SIGPIPE, may not read it all.
            let _ = input.write_all(&bytes);
        }
    });
    let mut error = child.stderr.take().expect("stderr");
    let errors = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = error.read_to_end(&mut text);
        text
    });
    let mut output = Vec::new();
    if let Some(out) = child.stdout.take() {
        let mut out = std::io::BufReader::new(out);
        let _ = match reader {
            Reader::FirstLine => out.read_until(b'\n', &mut output),
            _ => out.read_to_end(&mut output),
        };
    }
    let status = child.wait().expect("pddlc ends");
    let _ = writer.join();
    Output {
        status,
        stdout: output,
        stderr: errors.join().unwrap_or_default(),
    }
}

/// [`pddlc_with`] whose output is read whole.
fn pddlc_piped(args: &[&str], stdin: Option<&[u8]>) -> Output {
    pddlc_with(args, stdin, Reader::All)
}

/// Whether the run was ended by SIGPIPE, as `cat` or `grep` are in `… | head -1`.
#[cfg(unix)]
fn ended_by_sigpipe(output: &Output) -> bool {
    use std::os::unix::process::ExitStatusExt;
    output.status.signal() == Some(13)
}

/// A pipe's buffer on Linux (64 KiB): output larger than this cannot all be written before the
/// reader leaves.
const PIPE_BUFFER: usize = 64 * 1024;

/// Every subcommand writing into a pipe whose reader has left ends quietly: killed by SIGPIPE as
/// other Unix tools are, with no panic (exit 101) and no message. Each row either prints more
/// than a pipe holds to a reader that takes one line and leaves (`| head -1`), which the
/// row's full output is checked to exceed, or meets a pipe closed before it started.
#[cfg(unix)]
#[test]
fn writing_into_a_closed_pipe_ends_quietly() {
    const D: &str = "domains/blocksworld/domain.pddl";
    const P: &str = "domains/blocksworld/problem.pddl";
    const PLAN: &str = "fixtures/validate/valid_reverse_tower/plan.txt";
    const ENV: &str = "domains/kitchen/examples/salad/env.json";
    const SAFE: &str = "domains/kitchen/examples/salad/safe.txt";
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = |name: &str, text: &str| write(dir.path(), name, text.as_bytes());
    let shown = |path: std::path::PathBuf| path.to_string_lossy().to_string();
    // 20,000 unused predicates: a long canonical text, tree and list of warnings.
    let predicates: String = (0..20_000).map(|i| format!("(p{i} ?x)\n")).collect();
    let big_text = format!("(define (domain big)\n(:predicates\n{predicates}))\n");
    let big = shown(path("big.pddl", &big_text));
    // A check reports at most 100 diagnostics an input: twenty inputs for a long report.
    let bigs: Vec<String> = (0..20)
        .map(|i| shown(path(&format!("big{i}.pddl"), &big_text)))
        .collect();
    let bigs: Vec<&str> = bigs.iter().map(String::as_str).collect();
    // 200 objects and an action of two parameters with no precondition: 40,000 ground actions.
    let objects: String = (0..200).map(|i| format!("o{i} ")).collect();
    let wide_domain = shown(path(
        "wide-domain.pddl",
        "(define (domain wide) (:predicates (p ?x ?y))\n\
         (:action a :parameters (?x ?y) :effect (p ?x ?y)))\n",
    ));
    let wide_problem = shown(path(
        "wide-problem.pddl",
        &format!(
            "(define (problem w) (:domain wide) (:objects {objects})\n\
             (:init) (:goal (p o0 o1)))\n"
        ),
    ));
    // 600 inline pairs.
    let gold = std::fs::read_to_string(D).expect("shipped domain");
    let pair = serde_json::json!({"gold": gold, "pred": gold}).to_string();
    let pairs = shown(path("pairs.jsonl", &vec![pair.as_str(); 600].join("\n")));
    // A Simmer plan of 4,200 steps.
    let safe = std::fs::read_to_string(SAFE).expect("shipped plan");
    let long_plan = shown(path("long.txt", &safe.repeat(600)));

    let many_plans = vec![PLAN; 1000];
    let many_kitchen_plans = vec![SAFE; 400];
    type Row<'a> = (Vec<&'a str>, Reader);
    let rows: Vec<Row> = vec![
        (
            [&["check", "--format", "gcc"][..], &bigs].concat(),
            Reader::FirstLine,
        ),
        (vec!["fmt", &big], Reader::FirstLine),
        (vec!["parse", "--format", "json", &big], Reader::FirstLine),
        (
            [&["validate", "--format", "json", D, P][..], &many_plans].concat(),
            Reader::FirstLine,
        ),
        (
            vec!["applicable", &wide_domain, &wide_problem],
            Reader::FirstLine,
        ),
        // One pair's scores are a few lines: they meet a pipe closed before the run.
        (vec!["score", "--format", "json", D, D], Reader::Gone),
        (vec!["score", "--pairs", &pairs], Reader::FirstLine),
        (
            [
                &["kitchen", "run", "--format", "json", "--env", ENV][..],
                &many_kitchen_plans,
            ]
            .concat(),
            Reader::FirstLine,
        ),
        (vec!["kitchen", "compile", "--env", ENV], Reader::FirstLine),
        (vec!["kitchen", "describe", "--env", ENV], Reader::Gone),
        (
            vec!["kitchen", "plan", "--to-pddl", "--env", ENV, &long_plan],
            Reader::FirstLine,
        ),
    ];
    let mut failures = Vec::new();
    for (args, reader) in &rows {
        let shown = args.iter().take(8).copied().collect::<Vec<_>>().join(" ");
        if *reader == Reader::FirstLine {
            let whole = pddlc_with(args, None, Reader::All);
            if whole.stdout.len() <= PIPE_BUFFER {
                failures.push(format!(
                    "{shown}: {} bytes fit in a pipe's buffer",
                    whole.stdout.len()
                ));
            }
        }
        let out = pddlc_with(args, None, *reader);
        let error = stderr(&out);
        if error.contains("panicked") || out.status.code() == Some(101) || !error.is_empty() {
            failures.push(format!("{shown}: {:?}\n{error}", out.status));
        } else if !ended_by_sigpipe(&out) {
            failures.push(format!("{shown}: {:?}, not SIGPIPE", out.status));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The CLI convention (docs/cli.md) as a table: every subcommand under every `--format`, from
/// files and from standard input, without colour, and again into a closed pipe; the exit code
/// each must give, and every JSON output parses and carries `version`.
#[test]
fn every_subcommand_speaks_every_format() {
    const D: &str = "domains/blocksworld/domain.pddl";
    const P: &str = "domains/blocksworld/problem.pddl";
    const PLAN: &str = "fixtures/validate/valid_reverse_tower/plan.txt";
    const BROKEN_PLAN: &str = "fixtures/validate/V306_precondition_unsatisfied/plan.txt";
    const BAD: &str = "fixtures/parse/P005_bad_effect.pddl";
    const UNSOLVABLE: &str = "fixtures/solve/unsolvable_cyclic_tower/problem.pddl";
    const ENV: &str = "domains/kitchen/examples/salad/env.json";
    const SAFE: &str = "domains/kitchen/examples/salad/safe.txt";
    const BDDL_GOLD: &str = "fixtures/bddl/plan_gold.txt";
    const BDDL_PRED: &str = "fixtures/bddl/plan_pred.txt";
    const BDDL_PAIRS: &str = "fixtures/bddl/B701_pair_invalid.jsonl";
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().expect("temporary directory");
    let pair = format!("{{\"id\": 7, \"gold\": \"{root}/{D}\", \"pred\": \"{root}/{D}\"}}\n");
    let pairs = write(dir.path(), "pairs.jsonl", pair.as_bytes());
    let pairs = pairs.to_string_lossy().to_string();
    let read = |path: &str| std::fs::read(path).expect("fixture");
    // A run folder as Simmer's scripts lay it out, for `kitchen eval`.
    let task = dir.path().join("run/001");
    std::fs::create_dir_all(&task).expect("a run folder");
    write(&task, "env_001.json", &read(ENV));
    write(&task, "plan_001.txt", &read(SAFE));
    let run = dir.path().join("run").to_string_lossy().to_string();

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
        (vec!["applicable", "--rank", "2", D, P], Some(P), [0; 4]),
        (
            vec!["applicable", D, P, BROKEN_PLAN],
            Some(BROKEN_PLAN),
            [1; 4],
        ),
        // A plan is not a diagnostic either: gcc and val are refused.
        (vec!["solve", D, P], Some(P), [0, 0, 2, 2]),
        (vec!["solve", D, UNSOLVABLE], Some(UNSOLVABLE), [1, 1, 2, 2]),
        (vec!["solve", D, BAD], Some(BAD), [1, 1, 2, 2]),
        // Swapped inputs are named, and exit as any other input error.
        (vec!["solve", P, D], Some(P), [1, 1, 2, 2]),
        (vec!["validate", P, D, PLAN], Some(PLAN), [1; 4]),
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
        (
            vec!["bddl", "compare", BDDL_GOLD, BDDL_PRED],
            Some(BDDL_PRED),
            [0; 4],
        ),
        (
            vec!["bddl", "compare", "no/such.txt", BDDL_PRED],
            None,
            [2; 4],
        ),
        (
            vec!["bddl", "compare", "--pairs", BDDL_PAIRS],
            Some(BDDL_PAIRS),
            [1; 4],
        ),
        (vec!["kitchen", "eval", &run], None, [0; 4]),
        (vec!["kitchen", "compile", "--env", ENV], Some(ENV), [0; 4]),
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
                // The same run into a pipe closed before it starts: what printed anything is
                // ended by SIGPIPE, what printed nothing exits as before; never a panic.
                #[cfg(unix)]
                {
                    let closed = pddlc_with(&full, stdin.as_deref(), Reader::Gone);
                    let wrote = !out.stdout.is_empty();
                    let quiet = if wrote {
                        ended_by_sigpipe(&closed)
                    } else {
                        closed.status.code() == Some(*expected)
                    };
                    if stderr(&closed).contains("panicked") || !quiet {
                        failures.push(format!(
                            "{shown} into a closed pipe: {:?}\n{}",
                            closed.status,
                            stderr(&closed)
                        ));
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

/// What a stream must hold, as a row of docs/cli.md's table says.
fn holds(what: &str, text: &str) -> Result<(), String> {
    let gcc = regex_lite_gcc;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let first_is_gcc = lines.first().is_some_and(|l| gcc(l));
    let any_gcc = lines.iter().any(|l| gcc(l));
    let ok = match what {
        "nothing" => text.is_empty(),
        "text" => !lines.is_empty() && !any_gcc,
        "diagnostics" => first_is_gcc,
        "text and diagnostics" => !first_is_gcc && any_gcc,
        "json" => serde_json::from_str::<Value>(text).is_ok_and(|v| v["version"] == 1),
        "usage" => text.starts_with("error:"),
        other => {
            return Err(format!(
                "the table says `{other}`, which the test does not know"
            ));
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!("expected {what}, got:\n{text}"))
    }
}

/// A `gcc` line: `file:line:col: severity: message`, with ` [CODE]` after an error or warning;
/// a diagnostic without a place is `file: severity: message [CODE]`.
fn regex_lite_gcc(line: &str) -> bool {
    let coded = |s: &str| s.ends_with(']') && s.contains(" [");
    let severity_first = |rest: &str| {
        let rest = rest.trim_start();
        rest.starts_with("note: ")
            || (rest.starts_with("error: ") && coded(rest))
            || (rest.starts_with("warning: ") && coded(rest))
    };
    let mut parts = line.splitn(4, ':');
    if let (Some(_file), Some(row), Some(column), Some(rest)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    {
        let numbers = [row, column]
            .iter()
            .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if numbers {
            return severity_first(rest);
        }
    }
    line.split_once(": ")
        .is_some_and(|(file, rest)| !file.contains(' ') && severity_first(rest))
}

/// The table of docs/cli.md's "The convention, by example": every row is run in a pipe from the
/// repository's root, and its exit code and both streams must be what the row says.
#[test]
fn the_convention_table_of_the_docs_holds() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("docs/cli.md")).expect("docs/cli.md");
    let table = docs
        .split("### The convention, by example")
        .nth(1)
        .expect("docs/cli.md has the convention's table");
    let rows: Vec<Vec<&str>> = table
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();
    assert!(rows.len() >= 25, "only {} rows in the table", rows.len());
    let mut failures = Vec::new();
    for row in &rows {
        let [command, exit, out, err] = row[..] else {
            panic!("a row of four cells: {row:?}");
        };
        let words: Vec<&str> = command.trim_matches('`').split_whitespace().collect();
        assert_eq!(words[0], "pddlc", "{command}");
        let output = pddlc_with(&words[1..], None, Reader::All);
        let exit: i32 = exit.parse().expect("an exit code");
        if code(&output) != exit {
            failures.push(format!(
                "{command}: exit {} (not {exit})\n{}",
                code(&output),
                stderr(&output)
            ));
            continue;
        }
        for (stream, what, text) in [
            ("stdout", out, stdout(&output)),
            ("stderr", err, stderr(&output)),
        ] {
            if let Err(message) = holds(what, &text) {
                failures.push(format!("{command}: {stream}: {message}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
