//! `kitchen`: running, describing and compiling the shipped example.

use crate::{code, pddlc, stderr, stdout, write};
use serde_json::Value;
use std::path::{Path, PathBuf};

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

const SALAD_ENV: &str = "domains/kitchen/examples/salad/env.json";

/// The JSON document of a run, which must parse and carry `version`.
fn document(out: &std::process::Output) -> Value {
    let json: Value = serde_json::from_str(&stdout(out)).expect("valid JSON");
    assert_eq!(json["version"], 1, "{json}");
    json
}

/// The codes of a JSON `diagnostics` array.
fn codes(diagnostics: &Value) -> Vec<&str> {
    diagnostics
        .as_array()
        .expect("a diagnostics array")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect()
}

#[test]
fn kitchen_compile_reports_a_malformed_or_missing_goal_as_a_diagnostic() {
    let goal = "fixtures/kitchen/K407_misspelled_ingredient.toml";
    let args = ["kitchen", "compile", "--env", SALAD_ENV, "--goal", goal];
    let out = pddlc(&[&args[..], &["--format", "gcc"]].concat());
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with(&format!("{goal}:4:3: error: unknown field `ingredients`")),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), "", "no PDDL without its goal");
    let out = pddlc(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(code(&out), 1);
    let json = document(&out);
    assert_eq!(codes(&json["diagnostics"]), ["K407"]);
    assert_eq!(json["diagnostics"][0]["line"], 4);
    assert_eq!(json["output"], Value::Null);
    // A goal named with --goal must be there.
    let out = pddlc(&[
        "kitchen",
        "compile",
        "--env",
        SALAD_ENV,
        "--goal",
        "no/such.toml",
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 2);
    let json = document(&out);
    assert_eq!(codes(&json["diagnostics"]), ["P090"]);
    assert_eq!(json["diagnostics"][0]["file"], "no/such.toml");
}

/// A tasks directory and a Simmer benchmark directory under `root` where each of `ids` has the
/// shipped salad kitchen as its environment (the goals are the test's to write), and where
/// `--out` is to go: `(tasks, simmer, out)`.
fn salad_tasks(root: &Path, ids: &[&str]) -> (PathBuf, PathBuf, PathBuf) {
    let tasks = root.join("tasks");
    let simmer = root.join("simmer");
    std::fs::create_dir_all(&tasks).expect("tasks directory");
    let env = std::fs::read(SALAD_ENV).expect("the salad env");
    for task in ids {
        let env_dir = simmer.join(format!("tasks/{task}"));
        std::fs::create_dir_all(&env_dir).expect("env directory");
        write(&env_dir, &format!("env_{task}.json"), &env);
    }
    (tasks, simmer, root.join("out"))
}

/// `--all --out`: a task whose goal is malformed is reported, the others are written.
#[test]
fn kitchen_compile_all_keeps_the_tasks_that_compile() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (tasks, simmer, out_dir) = salad_tasks(dir.path(), &["900", "901"]);
    write(
        &tasks,
        "900.toml",
        b"task = \"900\"\nserve = [\"lettuce_1\"]\n",
    );
    let bad = std::fs::read("fixtures/kitchen/K407_misspelled_ingredient.toml").expect("fixture");
    write(&tasks, "901.toml", &bad);
    let (tasks, simmer, out_dir) = (
        tasks.to_string_lossy().to_string(),
        simmer.to_string_lossy().to_string(),
        out_dir.to_string_lossy().to_string(),
    );
    let out = pddlc(&[
        "kitchen",
        "compile",
        "--all",
        "--tasks-dir",
        &tasks,
        "--simmer",
        &simmer,
        "--out",
        &out_dir,
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    let json = document(&out);
    assert_eq!(codes(&json["diagnostics"]), ["K407"]);
    assert!(
        json["diagnostics"][0]["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("901.toml")),
        "{json}"
    );
    let written: Vec<&str> = json["written"]
        .as_array()
        .expect("written")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(
        written,
        [
            format!("{out_dir}/domain.pddl"),
            format!("{out_dir}/900.pddl")
        ]
    );
    assert!(std::path::Path::new(&format!("{out_dir}/900.pddl")).is_file());
    assert!(!std::path::Path::new(&format!("{out_dir}/901.pddl")).exists());
    // A tasks directory that cannot be listed is an I/O error, in the document.
    let out = pddlc(&[
        "kitchen",
        "compile",
        "--all",
        "--tasks-dir",
        "no/such/dir",
        "--out",
        &out_dir,
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 2);
    assert_eq!(codes(&document(&out)["diagnostics"]), ["P090"]);
}

/// A goal that says it cannot be solved is reported (`K410`, a warning on its reason) and no
/// problem is written for it; the other tasks are, and the exit code stays 0.
#[test]
fn kitchen_compile_reports_unsolvable_tasks() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (tasks, simmer, out_dir) = salad_tasks(dir.path(), &["900", "902"]);
    write(
        &tasks,
        "900.toml",
        b"task = \"900\"\nserve = [\"lettuce_1\"]\n",
    );
    let unsolvable =
        std::fs::read("fixtures/kitchen/K410_unspreadable_icing.toml").expect("fixture");
    write(&tasks, "902.toml", &unsolvable);
    let (tasks, simmer, out_dir) = (
        tasks.to_string_lossy().to_string(),
        simmer.to_string_lossy().to_string(),
        out_dir.to_string_lossy().to_string(),
    );
    let common = [
        "--tasks-dir",
        &tasks,
        "--simmer",
        &simmer,
        "--format",
        "json",
    ];
    let out = pddlc(
        &[
            &["kitchen", "compile", "--all", "--out", &out_dir][..],
            &common,
        ]
        .concat(),
    );
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let json = document(&out);
    assert_eq!(codes(&json["diagnostics"]), ["K410"]);
    let diagnostic = &json["diagnostics"][0];
    assert_eq!(diagnostic["severity"], "warning", "{json}");
    assert!(
        diagnostic["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("902.toml")),
        "{json}"
    );
    assert!(
        diagnostic["message"]
            .as_str()
            .is_some_and(|m| m.contains("the icing is not spreadable in this world")),
        "{json}"
    );
    assert!(std::path::Path::new(&format!("{out_dir}/900.pddl")).is_file());
    assert!(!std::path::Path::new(&format!("{out_dir}/902.pddl")).exists());
    // One task: the warning, and no problem in the output (only the domain).
    let out = pddlc(
        &[
            &[
                "kitchen",
                "compile",
                "--task",
                "902",
                "--flavour",
                "planning",
            ][..],
            &common,
        ]
        .concat(),
    );
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let json = document(&out);
    assert_eq!(codes(&json["diagnostics"]), ["K410"]);
    let output = json["output"].as_str().unwrap_or_default();
    assert!(output.contains("(define (domain"), "{json}");
    assert!(!output.contains("(define (problem"), "{json}");
}

/// Usage errors are the argument parser's, exit 2, as for every subcommand.
#[test]
fn kitchen_compile_usage_errors_exit_two() {
    for args in [
        vec!["kitchen", "compile"],
        vec!["kitchen", "compile", "--all"],
        vec!["kitchen", "compile", "--all", "--task", "004", "--out", "x"],
    ] {
        let out = pddlc(&args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("Usage:"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert_eq!(stdout(&out), "", "{args:?}");
    }
}

#[test]
fn kitchen_plan_from_pddl_reports_every_step_it_cannot_translate() {
    let plan = "fixtures/kitchen/K408_unknown_action.pddl";
    let args = ["kitchen", "plan", "--from-pddl", "--env", SALAD_ENV, plan];
    let out = pddlc(&[&args[..], &["--format", "gcc"]].concat());
    assert_eq!(code(&out), 1);
    let shown = stderr(&out);
    let lines: Vec<&str> = shown
        .lines()
        .filter(|l| l.contains(": error: "))
        .map(|l| l.split(": error: ").next().unwrap_or(""))
        .collect();
    assert_eq!(lines, [format!("{plan}:4:1"), format!("{plan}:6:1")]);
    assert_eq!(stdout(&out), "");
    let out = pddlc(&[&args[..], &["--format", "json"]].concat());
    let json = document(&out);
    assert_eq!(codes(&json["diagnostics"]), ["K408", "K408"]);
    assert_eq!(json["output"], Value::Null);
}

/// An unreadable plan is one row among the others, not the end of the run.
#[test]
fn kitchen_run_keeps_the_other_plans_when_one_cannot_be_read() {
    let safe = "domains/kitchen/examples/salad/safe.txt";
    let args = ["kitchen", "run", "--env", SALAD_ENV, "no/such.txt", safe];
    let out = pddlc(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(code(&out), 2);
    let json = document(&out);
    assert_eq!(codes(&json["diagnostics"]), Vec::<&str>::new());
    let plans = json["plans"].as_array().expect("plans");
    assert_eq!(plans.len(), 2, "{json}");
    assert_eq!(plans[0]["plan"], "no/such.txt");
    assert_eq!(plans[0]["steps"], Value::Null);
    assert_eq!(codes(&plans[0]["diagnostics"]), ["P090"]);
    assert_eq!(plans[1]["plan"], safe);
    assert_eq!(plans[1]["steps"], 8);
    assert_eq!(json["summary"]["plans"], 1);
    let out = pddlc(&[&args[..], &["--format", "gcc"]].concat());
    assert_eq!(code(&out), 2);
    assert!(
        stdout(&out).starts_with("no/such.txt:1:1: error: ") && stdout(&out).contains("[P090]"),
        "{}",
        stdout(&out)
    );
    let out = pddlc(&args);
    assert_eq!(code(&out), 2);
    assert!(
        stdout(&out).contains("safe.txt: no failures"),
        "{}",
        stdout(&out)
    );
    assert!(stderr(&out).contains("P090"), "{}", stderr(&out));
}

/// A world or environment that cannot be used is reported inside each subcommand's document.
#[test]
fn kitchen_inputs_that_cannot_be_used_are_diagnostics_in_the_document() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let malformed = write(dir.path(), "env.json", b"{\"initial_objects\": 3}");
    let malformed = malformed.to_string_lossy().to_string();
    let safe = "domains/kitchen/examples/salad/safe.txt";
    for (env, expected, exit) in [("no/such.json", "P090", 2), (malformed.as_str(), "K402", 1)] {
        let runs = [
            vec!["kitchen", "run", "--env", env, safe],
            vec!["kitchen", "describe", "--env", env],
            vec!["kitchen", "compile", "--env", env],
            vec!["kitchen", "plan", "--to-pddl", "--env", env, safe],
        ];
        for args in runs {
            let out = pddlc(&[&args[..], &["--format", "json"]].concat());
            assert_eq!(code(&out), exit, "{args:?}: {}", stderr(&out));
            let json = document(&out);
            assert_eq!(codes(&json["diagnostics"]), [expected], "{args:?}: {json}");
            if args[1] == "run" {
                assert_eq!(json["plans"], serde_json::json!([]));
                assert_eq!(json["summary"], Value::Null);
            } else {
                assert_eq!(json["output"], Value::Null, "{args:?}");
            }
            // In the other formats: the diagnostic alone, nothing on stdout but for `run`'s
            // diagnostics in gcc.
            let out = pddlc(&[&args[..], &["--format", "gcc"]].concat());
            assert_eq!(code(&out), exit, "{args:?}");
            let shown = if args[1] == "run" {
                stdout(&out)
            } else {
                stderr(&out)
            };
            assert!(
                shown.contains(&format!("[{expected}]")),
                "{args:?}: {shown}"
            );
            if args[1] != "run" {
                assert_eq!(stdout(&out), "", "{args:?}");
            }
        }
    }
}

/// `describe --env` on a Simmer task: its goal, the agent, and its own 32 actions of 77.
#[test]
fn describe_gives_a_tasks_goal_and_its_own_actions() {
    let Some(kitchen) =
        crate::common::shared_part("kitchen", "describe_gives_a_tasks_goal_and_its_own_actions")
    else {
        return;
    };
    let env = kitchen.join("simmer/benchmark/tasks/031/env_031.json");
    let env = env.to_string_lossy();
    let actions = |text: &str| text.lines().filter(|l| l.starts_with("  [")).count();
    let out = pddlc(&["kitchen", "describe", "--env", &env]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("Goal: How to Boil Butternut Squash\n"),
        "{text}"
    );
    assert!(text.contains("holding nothing"));
    assert!(text.contains("butternut_squash_1 (edible, cuttable, grabbable) [dirty, raw, whole]"));
    assert_eq!(actions(&text), 32);
    let out = pddlc(&["kitchen", "describe", "--env", &env, "--all-actions"]);
    assert_eq!(actions(&stdout(&out)), 77);
}

/// `kitchen compile --only domain|problem` prints one definition, so that `> file.pddl` writes a
/// file `check` reads as one domain or one problem; without it both are printed, domain first.
#[test]
fn kitchen_compile_only_prints_one_definition() {
    let both = stdout(&pddlc(&["kitchen", "compile", "--task", "008"]));
    let domain = pddlc(&["kitchen", "compile", "--task", "008", "--only", "domain"]);
    let problem = pddlc(&["kitchen", "compile", "--task", "008", "--only", "problem"]);
    assert_eq!((code(&domain), code(&problem)), (0, 0));
    let (domain, problem) = (stdout(&domain), stdout(&problem));
    assert!(domain.starts_with("(define (domain") && !domain.contains("(define (problem"));
    assert!(problem.starts_with("(define (problem") && !problem.contains("(define (domain"));
    assert_eq!(both, format!("{domain}{problem}"));
    let dir = tempfile::tempdir().expect("temporary directory");
    let d = write(dir.path(), "domain.pddl", domain.as_bytes());
    let p = write(dir.path(), "008.pddl", problem.as_bytes());
    let out = pddlc(&[
        "check",
        "--format",
        "json",
        &d.to_string_lossy(),
        &p.to_string_lossy(),
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(
        json["files"][1]["checked_against"],
        d.to_string_lossy().as_ref(),
        "{json}"
    );
    let out = pddlc(&[
        "kitchen", "compile", "--task", "008", "--only", "domain", "--out", "x",
    ]);
    assert_eq!(code(&out), 2, "--only and --out exclude each other");
}

/// The built-in tasks need nothing beside the binary: from a directory outside the repository,
/// `describe --task`, `compile --task --out` and `run --task` work, and an unknown task number is
/// a usage error that says what to give instead.
#[test]
fn built_in_tasks_work_from_any_directory() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let out = crate::pddlc_in(dir.path(), &["kitchen", "describe", "--task", "031"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Goal: How to Boil Butternut Squash"),
        "{}",
        stdout(&out)
    );
    let out = crate::pddlc_in(
        dir.path(),
        &["kitchen", "compile", "--task", "001", "--out", "out"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    for file in ["out/domain.pddl", "out/001.pddl"] {
        let text = std::fs::read_to_string(dir.path().join(file)).expect("written");
        assert!(text.starts_with("(define"), "{file}");
    }
    write(
        dir.path(),
        "plan.txt",
        b"[OPEN] <fridge> (1)\n[GRAB] <egg> (1)\n",
    );
    let out = crate::pddlc_in(dir.path(), &["kitchen", "run", "--task", "001", "plan.txt"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let out = crate::pddlc_in(dir.path(), &["kitchen", "describe", "--task", "035"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("no built-in kitchen task `035`")
            && stderr(&out).contains("--env FILE")
    );
}
