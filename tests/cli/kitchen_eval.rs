//! `kitchen eval`: whole run folders; agreement with `kitchen run` per environment, Simmer's
//! result files, the statistics' shape, and files that are not plans.

use crate::{code, pddlc, stderr, stdout, write};
use serde_json::Value;
use std::path::Path;

fn json(args: &[&str]) -> Value {
    let out = pddlc(args);
    assert!(code(&out) <= 1, "{args:?}: {}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("one JSON document")
}

/// On the dev plans: every task's Table 3 is `kitchen run`'s over the same environment, and
/// every result file `--results` writes is Simmer's `.result.txt` but for the `# Plan:` line
/// (the path, which the reference files give relative to `shared/kitchen`).
#[test]
fn eval_agrees_with_kitchen_run_per_environment_and_writes_simmers_result_files() {
    let Some(kitchen) = crate::common::shared_part(
        "kitchen",
        "eval_agrees_with_kitchen_run_per_environment_and_writes_simmers_result_files",
    ) else {
        return;
    };
    let dev = kitchen.join("plans/dev");
    let simmer = kitchen.join("simmer/benchmark");
    let out = tempfile::tempdir().expect("temporary directory");
    let (dev_arg, simmer_arg) = (dev.to_string_lossy(), simmer.to_string_lossy());
    let results = out.path().to_string_lossy();
    let document = json(&[
        "kitchen",
        "eval",
        &dev_arg,
        "--simmer",
        &simmer_arg,
        "--format",
        "json",
        "--results",
        &results,
    ]);
    let tasks = document["tasks"].as_array().expect("tasks");
    assert_eq!(tasks.len(), 51);
    let human = stdout(&pddlc(&[
        "kitchen",
        "eval",
        &dev_arg,
        "--simmer",
        &simmer_arg,
    ]));
    for task in tasks {
        let name = task["task"].as_str().expect("task");
        let env = match name {
            "900" => kitchen.join("simmer/examples/chicken_salad/env_900.json"),
            _ => simmer.join(format!("tasks/{name}/env_{name}.json")),
        };
        let mut plans: Vec<String> = std::fs::read_dir(dev.join(name))
            .expect("task folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.to_string_lossy().ends_with(".txt"))
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        plans.sort();
        let env = env.to_string_lossy();
        let mut args = vec!["kitchen", "run", "--format", "json", "--env", &env];
        args.extend(plans.iter().map(String::as_str));
        let run = json(&args);
        assert_eq!(run["summary"], task["summary"], "task {name}");
        // The human outputs print the same line (kitchen run's after its plans).
        let human_args: Vec<&str> = args[..2].iter().chain(&args[4..]).copied().collect();
        let run_human = stdout(&pddlc(&human_args));
        let line = run_human
            .lines()
            .last()
            .expect("kitchen run's summary line");
        assert!(
            human.contains(&format!("dev/{name}: {line}\n")),
            "{line}\n{human}"
        );
    }
    // The empty dev plan (900/24.txt) is reported, not run: 641 plans.
    let methods = &document["methods"][0];
    assert_eq!(methods["summary"]["plans"], 641);
    assert_eq!(methods["summary"]["failures"]["any"], 2296);
    assert_eq!(document["plans"].as_array().map(Vec::len), Some(641));
    let mut compared = 0;
    for row in document["plans"].as_array().expect("plans") {
        let plan = Path::new(row["plan"].as_str().expect("plan"));
        let task = row["task"].as_str().expect("task");
        let stem = plan.file_stem().expect("stem").to_string_lossy();
        let ours =
            std::fs::read_to_string(out.path().join(task).join(format!("{stem}.result.txt")))
                .expect("a result file per plan");
        let theirs = std::fs::read_to_string(plan.with_file_name(format!("{stem}.result.txt")))
            .expect("Simmer's result file");
        let without_path = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| !l.starts_with("# Plan: "))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(
            without_path(&ours),
            without_path(&theirs),
            "{}",
            plan.display()
        );
        assert!(ours.contains(&format!("# Plan: {}\n", plan.display())));
        compared += 1;
    }
    assert_eq!(compared, 641);
}

/// A run folder laid out as Simmer's scripts expect, with files that are not plans beside the
/// plans, given twice with labels: rows, K409 warnings, CSV, and comparisons of equal runs.
#[test]
fn eval_reads_simmer_run_folders_and_reports_what_is_not_a_plan() {
    let run = tempfile::tempdir().expect("temporary directory");
    let env = salad("env.json");
    let (safe, unsafe_plan) = (salad("safe.txt"), salad("unsafe.txt"));
    for (task, plan) in [("001", &safe), ("002", &unsafe_plan)] {
        let dir = task_folder(run.path(), task, &env, plan);
        write(
            &dir,
            &format!("result_{task}.txt"),
            b"# Task: x\n# Plan: p\n#\n# === Annotated Plan ===\n\n[GRAB] <a> (1)\n",
        );
    }
    let third = task_folder(run.path(), "003", &env, b"");
    write(&third, "binary.txt", b"\x89PNG\r\n\x1a\n\0\0\0");
    // A plan that cannot be read (a link to nothing): a row with its error.
    std::os::unix::fs::symlink(third.join("nowhere"), third.join("broken.txt")).expect("a link");

    let dir = run.path().to_string_lossy();
    let (a, b) = (format!("{dir}:before"), format!("{dir}:after"));
    let out = pddlc(&[
        "kitchen",
        "eval",
        &a,
        &b,
        "--format",
        "json",
        "--bootstrap",
        "500",
    ]);
    // The unreadable plan exits 2, as an unreadable input does everywhere; the rest is kept.
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let document: Value = serde_json::from_str(&stdout(&out)).expect("one JSON document");
    let codes: Vec<&str> = document["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    // Per run: the empty plan, the binary file, and one warning for both result files.
    assert_eq!(
        codes.iter().filter(|c| **c == "K409").count(),
        6,
        "{codes:?}"
    );
    let rows = document["plans"].as_array().expect("plans");
    // Per run: the two plans and the folder that cannot be read.
    assert_eq!(rows.len(), 6, "{rows:?}");
    assert!(
        rows.iter()
            .any(|r| r["failures"].is_null() && r["diagnostics"][0]["code"] == "P090")
    );
    let tasks = document["tasks"].as_array().expect("tasks");
    assert_eq!(tasks.len(), 4);
    assert_eq!(tasks[0]["run"], "before");
    assert_eq!(
        (tasks[0]["total"].as_f64(), tasks[0]["clean"].as_f64()),
        (Some(0.0), Some(1.0))
    );
    assert_eq!(tasks[1]["latent"], 1.0);
    assert_eq!(tasks[1]["irreversible"], 1.0);
    assert_eq!(tasks[1]["clean"], 0.0);
    let method = &document["methods"][0];
    assert_eq!(method["tasks"], 2);
    assert_eq!(method["total"]["value"], 1.0);
    assert_eq!(method["clean"]["value"], 0.5);
    let comparison = &document["comparisons"][0];
    assert_eq!(
        (comparison["a"].as_str(), comparison["b"].as_str()),
        (Some("before"), Some("after"))
    );
    assert_eq!(comparison["total"]["mean_difference"]["value"], 0.0);
    assert_eq!(comparison["total"]["p"], 1.0);
    assert_eq!(document["bootstrap"]["seed"], 42);

    let out = pddlc(&[
        "kitchen",
        "eval",
        &a,
        "--format",
        "csv",
        "--bootstrap",
        "100",
    ]);
    assert_eq!(
        code(&out),
        2,
        "an unreadable plan exits 2: {}",
        stderr(&out)
    );
    assert_eq!(
        stdout(&out),
        "run,task,plans,immediate,latent,irreversible,total,clean\n\
         before,001,1,0,0,0,0,1\nbefore,002,1,0,1,1,1,0\n"
    );
    let out = pddlc(&["kitchen", "eval", &a, "--bootstrap", "100"]);
    assert!(
        stdout(&out).contains("before (2 tasks): 2 plans: any failure 50.0%"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("before/002: 1 plan: any failure 100.0%"));
    assert!(stderr(&out).contains("K409"), "{}", stderr(&out));
}

/// `kitchen run` over a glob that picks up Simmer's result files runs only the plans.
#[test]
fn kitchen_run_reports_result_files_instead_of_running_them() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let result = write(
        dir.path(),
        "1.result.txt",
        b"# Task: x\n# Plan: p\n#\n# === Annotated Plan ===\n\n[GRAB] <a> (1)\n",
    );
    let result = result.to_string_lossy();
    let document = json(&[
        "kitchen",
        "run",
        "--format",
        "json",
        "--env",
        "domains/kitchen/examples/salad/env.json",
        "domains/kitchen/examples/salad/safe.txt",
        &result,
    ]);
    assert_eq!(document["plans"].as_array().map(Vec::len), Some(1));
    assert_eq!(document["diagnostics"][0]["code"], "K409");
    assert_eq!(document["summary"]["plans"], 1);
}

#[test]
fn csv_is_for_eval_only() {
    let out = pddlc(&[
        "kitchen",
        "run",
        "--format",
        "csv",
        "--env",
        "domains/kitchen/examples/salad/env.json",
        "domains/kitchen/examples/salad/safe.txt",
    ]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("kitchen eval"));
}

#[test]
fn identical_runs_have_no_t_statistic_and_a_missing_run_no_estimate() {
    let run = tempfile::tempdir().expect("temporary directory");
    let (env, plan) = (salad("env.json"), salad("unsafe.txt"));
    for task in ["001", "002", "003"] {
        task_folder(run.path(), task, &env, &plan);
    }
    let path = run.path().to_string_lossy().to_string();
    let (a, b) = (format!("{path}:a"), format!("{path}:b"));
    let out = pddlc(&["kitchen", "eval", "--format", "table", &a, &b]);
    let table = stdout(&out);
    assert!(
        table.contains("paired t-test on total: undefined, every task's difference is 0 (df = 2)"),
        "{table}"
    );
    assert!(!table.contains("NaN"), "{table}");
    let missing = format!("{path}/none");
    let out = pddlc(&["kitchen", "eval", "--format", "table", &missing]);
    assert_eq!(code(&out), 2);
    assert!(stdout(&out).contains("no task was run"), "{}", stdout(&out));
    assert!(!stdout(&out).contains("NaN"), "{}", stdout(&out));
}

/// A case of too little to estimate: the runs (each a task 001 with the given salad plan, or
/// `None` for a folder that does not exist), what the table must say, and fields of the JSON
/// document.
struct Thin {
    name: &'static str,
    runs: &'static [Option<&'static str>],
    table: &'static [&'static str],
    json: Vec<(&'static str, Value)>,
}

fn thin_cases() -> Vec<Thin> {
    let no_interval = Value::from("no interval below 2 tasks");
    let no_test = Value::from("no interval and no test below 2 tasks");
    let no_task = Value::from("no task was run");
    vec![
        Thin {
            name: "one task",
            runs: &[Some("unsafe.txt")],
            table: &[
                "run0/001: 1 plan: any failure 100.0%",
                "run0 (1 task): 1 plan:",
                "n=1: no interval below 2 tasks",
            ],
            json: vec![
                ("/methods/0/total/value", Value::from(1.0)),
                ("/methods/0/total/low", Value::Null),
                ("/methods/0/total/high", Value::Null),
                ("/methods/0/total/n", Value::from(1)),
                ("/methods/0/total/reason", no_interval.clone()),
                ("/methods/0/clean/reason", no_interval),
            ],
        },
        Thin {
            name: "two runs of one task",
            runs: &[Some("safe.txt"), Some("unsafe.txt")],
            table: &[
                "run0 − run1 (1 task, mean per task):",
                "  total -1.00 (n=1: no interval and no test below 2 tasks)",
                "  latent -1.00 (n=1: no interval and no test below 2 tasks)",
            ],
            json: vec![
                ("/comparisons/0/tasks", Value::from(1)),
                (
                    "/comparisons/0/total/mean_difference/value",
                    Value::from(-1.0),
                ),
                ("/comparisons/0/total/mean_difference/low", Value::Null),
                ("/comparisons/0/total/mean_difference/reason", no_test),
                ("/comparisons/0/total/p", Value::Null),
                ("/comparisons/0/t_test", Value::Null),
            ],
        },
        Thin {
            name: "a missing run folder",
            runs: &[Some("unsafe.txt"), None],
            table: &[
                "run1 (0 tasks): 0 plans:",
                "run1                 0  no task was run",
                "run0 − run1 (0 tasks, mean per task):",
                "  total: n=0: no task was run",
            ],
            json: vec![
                ("/methods/1/tasks", Value::from(0)),
                ("/methods/1/total/value", Value::Null),
                ("/methods/1/clean/value", Value::Null),
                ("/methods/1/clean/reason", no_task.clone()),
                ("/comparisons/0/total/mean_difference/value", Value::Null),
                ("/comparisons/0/total/mean_difference/reason", no_task),
            ],
        },
    ]
}

/// With fewer than two tasks, every estimate says how many tasks it is over and gives no
/// interval and no test, saying why; no format shows NaN, nor a p-value from one task.
#[test]
fn too_few_tasks_give_no_interval_no_test_and_no_nan() {
    for case in thin_cases() {
        let root = tempfile::tempdir().expect("temporary directory");
        let env = salad("env.json");
        let runs: Vec<String> = case
            .runs
            .iter()
            .enumerate()
            .map(|(i, plan)| {
                let dir = root.path().join(format!("run{i}"));
                if let Some(plan) = plan {
                    task_folder(&dir, "001", &env, &salad(plan));
                }
                dir.to_string_lossy().into_owned()
            })
            .collect();
        let run = |format: &str| {
            let mut args = vec!["kitchen", "eval", "--bootstrap", "200", "--format", format];
            args.extend(runs.iter().map(String::as_str));
            stdout(&pddlc(&args))
        };
        let table = run("table");
        for line in case.table {
            assert!(table.contains(line), "{}: {line:?} in\n{table}", case.name);
        }
        for format in ["table", "json", "csv"] {
            let out = run(format);
            assert!(!out.contains("NaN"), "{} ({format}): {out}", case.name);
            assert!(!out.contains("p=0.0000"), "{} ({format}): {out}", case.name);
        }
        let document: Value = serde_json::from_str(&run("json")).expect("one JSON document");
        for (pointer, expected) in &case.json {
            assert_eq!(
                document.pointer(pointer),
                Some(expected),
                "{}: {pointer}",
                case.name
            );
        }
    }
}

/// A file of the shipped salad example.
fn salad(name: &str) -> Vec<u8> {
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::read(format!("{root}/domains/kitchen/examples/salad/{name}")).expect("a salad file")
}

/// `RUN/TASK/` with `env_TASK.json` and `plan_TASK.txt`, as Simmer's scripts lay out a task.
fn task_folder(run: &Path, task: &str, env: &[u8], plan: &[u8]) -> std::path::PathBuf {
    let dir = run.join(task);
    std::fs::create_dir_all(&dir).expect("task folder");
    write(&dir, &format!("env_{task}.json"), env);
    write(&dir, &format!("plan_{task}.txt"), plan);
    dir
}
