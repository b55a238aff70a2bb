//! `pddlc solve` and Fast Downward (`--alias lama-first`) side by side, with the same time
//! limit, on: the classical problems of ../shared/plans that Fast Downward solved (`plans`),
//! the kitchen tasks with goals compiled in the planning flavour (`kitchen`), and impossible
//! variants of the plans set (an initial fact the reference plan needs removed: `variants`).
//! Prints, per set and planner, coverage (solved; for variants, proven unsolvable), total and
//! median time, and the mean plan length on the tasks both solved.
//!
//! With `--optimal`: `pddlc solve --optimal` (A* with LM-cut) against Fast Downward's
//! `--alias seq-opt-lmcut`, and the table adds the states each expanded on the tasks both solved
//! (Fast Downward's `Expanded N state(s).`) and checks that both found the same cost.
//!
//! `cargo run --release --example solve_bench -- [--limit SECONDS] [--set plans|kitchen|variants]…
//! [--max N] [--only TEXT] [--pddlc-only] [--optimal] [--keep-work]` (N tasks per set at most;
//! `--only` keeps the tasks whose name contains TEXT; `--pddlc-only` leaves Fast Downward out,
//! its column then empty; `--keep-work` keeps the variants' files). `PDDLC=path` measures that binary instead. Times are CPU seconds (user and system) of each planner's process
//! and its children; the limit is pddlc's `--time-limit` and Fast Downward's
//! `--overall-time-limit` (CPU time). Needs `../shared` and `pip install up-fast-downward`;
//! runs the `pddlc` binary built in `target/release`.

#[path = "../tests/common/fast_downward.rs"]
mod fast_downward;

use fast_downward::fast_downward;
use pddlc::ast::PddlFile;
use pddlc::validate::{ValidateOptions, validate};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One task: where its domain and problem are.
struct Task {
    name: String,
    domain: PathBuf,
    problem: PathBuf,
}

/// What one planner did on one task.
#[derive(Clone, Copy)]
struct Run {
    seconds: f64,
    /// Steps of the plan found, if any.
    steps: Option<usize>,
    /// The plan's cost, and the states expanded, where the planner says.
    cost: Option<u64>,
    expanded: Option<u64>,
    /// Whether the planner proved the task has no plan.
    unsolvable: bool,
}

/// The CPU seconds (user and system) of this process's children that have been waited for.
fn children_cpu() -> f64 {
    // SAFETY: getrusage writes into the struct we pass and reads nothing else.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } != 0 {
        return 0.0;
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

fn ours(binary: &Path, task: &Task, limit: u64, optimal: bool) -> Run {
    let start = children_cpu();
    let out = Command::new(binary)
        .args([
            "solve",
            "--format",
            "json",
            "--time-limit",
            &limit.to_string(),
        ])
        .args(optimal.then_some("--optimal"))
        .arg(&task.domain)
        .arg(&task.problem)
        .output();
    let seconds = children_cpu() - start;
    let document: serde_json::Value = out
        .ok()
        .and_then(|o| serde_json::from_slice(&o.stdout).ok())
        .unwrap_or_default();
    let solved = document["status"] == "solved";
    Run {
        seconds,
        steps: document["plan"].as_array().map(Vec::len),
        unsolvable: document["status"] == "unsolvable",
        cost: document["cost"].as_u64().filter(|_| solved),
        expanded: document["statistics"]["expanded"].as_u64(),
    }
}

fn downward(fd: &Path, task: &Task, limit: u64, work: &Path, optimal: bool) -> Run {
    let _ = std::fs::remove_file(work.join("sas_plan"));
    let start = children_cpu();
    let out = Command::new("python3")
        .arg(fd)
        .args(["--overall-time-limit", &format!("{limit}s")])
        .args([
            "--alias",
            if optimal {
                "seq-opt-lmcut"
            } else {
                "lama-first"
            },
        ])
        .arg(&task.domain)
        .arg(&task.problem)
        .current_dir(work)
        .stderr(std::process::Stdio::null())
        .output();
    let seconds = children_cpu() - start;
    let plan = std::fs::read_to_string(work.join("sas_plan")).ok();
    let steps = plan
        .as_ref()
        .map(|plan| plan.lines().filter(|l| l.starts_with('(')).count());
    // The plan file's last line: `; cost = 12 (general cost)` or `(unit cost)`.
    let cost = plan.as_ref().and_then(|plan| {
        let line = plan.lines().rfind(|l| l.starts_with("; cost = "))?;
        line.trim_start_matches("; cost = ")
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    });
    let log = out
        .as_ref()
        .map(|o| String::from_utf8_lossy(&o.stdout).to_string())
        .unwrap_or_default();
    let expanded = log
        .lines()
        .rfind(|l| l.contains("] Expanded ") && !l.contains("until") && l.ends_with("state(s)."))
        .and_then(|l| {
            l.split("] Expanded ")
                .nth(1)?
                .split(' ')
                .next()?
                .parse()
                .ok()
        });
    // The driver's exit codes 10 and 11: unsolvable, proven by the translator or the search.
    let unsolvable = matches!(out.ok().and_then(|o| o.status.code()), Some(10 | 11));
    Run {
        seconds,
        steps,
        unsolvable,
        cost,
        expanded,
    }
}

fn plans_set(shared: &Path) -> Vec<(Task, String)> {
    let index = std::fs::read_to_string(shared.join("plans/index.jsonl")).unwrap_or_default();
    let mut out = Vec::new();
    for line in index.lines() {
        let Ok(row) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let numeric = row["features"]
            .as_array()
            .is_some_and(|f| f.iter().any(|x| x == "numeric-fluents"));
        let by_downward = row["planner"]
            .as_str()
            .is_some_and(|p| p.starts_with("fast-downward"));
        if row["kind"] != "planner" || numeric || !by_downward {
            continue;
        }
        let path = |key: &str| shared.join(row[key].as_str().unwrap_or_default());
        let plan = std::fs::read_to_string(path("plan")).unwrap_or_default();
        out.push((
            Task {
                name: row["id"].as_str().unwrap_or_default().to_string(),
                domain: path("domain"),
                problem: path("problem"),
            },
            plan,
        ));
    }
    out
}

/// Impossible variants: for each task of the plans set, the first initial fact without which
/// the reference plan fails, removed; written into `work`.
fn variants(set: &[(Task, String)], work: &Path) -> Vec<Task> {
    let mut out = Vec::new();
    for (task, plan) in set {
        let read = |p: &Path| {
            std::fs::read_to_string(p)
                .ok()
                .and_then(|t| pddlc::parse::file(&t).value)
        };
        let (Some(PddlFile::Domain(domain)), Some(PddlFile::Problem(problem))) =
            (read(&task.domain), read(&task.problem))
        else {
            continue;
        };
        for index in 0..problem.init.len() {
            let mut variant = problem.clone();
            variant.init.remove(index);
            let report = validate(&domain, &variant, plan, &ValidateOptions::default());
            if report.valid == Some(true) {
                continue;
            }
            let file = work.join(format!("variant-{}.pddl", out.len()));
            if std::fs::write(&file, pddlc::fmt::problem(&variant)).is_ok() {
                out.push(Task {
                    name: format!("{} without init #{index}", task.name),
                    domain: task.domain.clone(),
                    problem: file,
                });
            }
            break;
        }
    }
    out
}

fn kitchen_set(binary: &Path, work: &Path) -> Vec<Task> {
    let dir = work.join("kitchen");
    let status = Command::new(binary)
        .args(["kitchen", "compile", "--all", "--for", "planning", "--out"])
        .arg(&dir)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .status();
    if !status.is_ok_and(|s| s.success()) {
        eprintln!("kitchen: the tasks could not be compiled");
        return Vec::new();
    }
    let mut tasks: Vec<Task> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.file_name().is_some_and(|n| n != "domain.pddl"))
                .map(|p| Task {
                    name: p
                        .file_stem()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .to_string(),
                    domain: dir.join("domain.pddl"),
                    problem: p,
                })
                .collect()
        })
        .unwrap_or_default();
    tasks.sort_by(|a, b| a.name.cmp(&b.name));
    tasks
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

fn report(set: &str, rows: &[(String, Run, Run)], impossible: bool, optimal: bool) {
    println!("\n{set}: {} tasks", rows.len());
    if optimal {
        println!(
            "| planner | coverage | total s | median s | mean steps (both solved) | expanded (both solved) |"
        );
        println!("|---|---|---|---|---|---|");
    } else {
        println!("| planner | coverage | total s | median s | mean steps (both solved) |");
        println!("|---|---|---|---|---|");
    }
    let both: Vec<&(String, Run, Run)> = rows
        .iter()
        .filter(|(_, a, b)| a.steps.is_some() && b.steps.is_some())
        .collect();
    let names = if optimal {
        ["pddlc solve --optimal", "Fast Downward seq-opt-lmcut"]
    } else {
        ["pddlc solve", "Fast Downward lama-first"]
    };
    for (pick, name) in names.into_iter().enumerate() {
        let run = |row: &(String, Run, Run)| if pick == 0 { row.1 } else { row.2 };
        let covered = rows
            .iter()
            .filter(|r| {
                if impossible {
                    run(r).unsolvable
                } else {
                    run(r).steps.is_some()
                }
            })
            .count();
        let times: Vec<f64> = rows.iter().map(|r| run(r).seconds).collect();
        let steps: usize = both.iter().map(|r| run(r).steps.unwrap_or(0)).sum();
        let mean = if both.is_empty() {
            0.0
        } else {
            steps as f64 / both.len() as f64
        };
        let expanded: u64 = both.iter().filter_map(|r| run(r).expanded).sum();
        let expanded = if optimal {
            format!(" {expanded} |")
        } else {
            String::new()
        };
        println!(
            "| {name} | {covered}/{} | {:.1} | {:.2} | {mean:.1} |{expanded}",
            rows.len(),
            times.iter().sum::<f64>(),
            median(times.clone())
        );
    }
    if optimal {
        let differ: Vec<&str> = both
            .iter()
            .filter(|r| r.1.cost != r.2.cost)
            .map(|r| r.0.as_str())
            .collect();
        println!(
            "tasks both solved: {}; with different costs (one is not optimal): {differ:?}",
            both.len()
        );
    }
    if impossible {
        let wrong = rows.iter().filter(|r| r.1.steps.is_some()).count();
        println!("pddlc plans found on impossible variants (each validated): {wrong}");
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared");
    // PDDLC: a binary to measure instead of target/release/pddlc (one a rebuild cannot replace
    // while the benchmark runs).
    let binary = std::env::var_os("PDDLC")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/release/pddlc"));
    let Some(fd) = fast_downward() else {
        eprintln!("skipped: Fast Downward is not installed (pip install up-fast-downward)");
        return;
    };
    if !shared.join("plans").is_dir() || !binary.is_file() {
        eprintln!("skipped: needs ../shared/plans and target/release/pddlc");
        return;
    }
    let mut limit = 60u64;
    let mut max = usize::MAX;
    let mut sets = Vec::new();
    let mut pddlc_only = false;
    let mut optimal = false;
    let mut only = String::new();
    let mut keep_work = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--limit" => limit = args.next().and_then(|x| x.parse().ok()).unwrap_or(60),
            "--max" => {
                max = args
                    .next()
                    .and_then(|x| x.parse().ok())
                    .unwrap_or(usize::MAX)
            }
            "--set" => sets.extend(args.next()),
            "--pddlc-only" => pddlc_only = true,
            "--optimal" => optimal = true,
            "--only" => only = args.next().unwrap_or_default(),
            "--keep-work" => keep_work = true,
            other => eprintln!("ignored argument: {other}"),
        }
    }
    if sets.is_empty() {
        sets = vec!["plans".into(), "variants".into(), "kitchen".into()];
    }
    let work = std::env::temp_dir().join(format!("pddlc-solve-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&work);
    let plans = plans_set(&shared);
    for set in &sets {
        let tasks: Vec<Task> = match set.as_str() {
            "plans" => plans_set(&shared).into_iter().map(|(t, _)| t).collect(),
            "variants" => variants(&plans, &work),
            "kitchen" => kitchen_set(&binary, &work),
            other => {
                eprintln!("unknown set {other}");
                continue;
            }
        };
        let mut rows = Vec::new();
        let chosen = tasks.into_iter().filter(|t| t.name.contains(&only));
        for task in chosen.take(max) {
            let a = ours(&binary, &task, limit, optimal);
            let b = if pddlc_only {
                Run {
                    seconds: 0.0,
                    steps: None,
                    unsolvable: false,
                    cost: None,
                    expanded: None,
                }
            } else {
                downward(&fd, &task, limit, &work, optimal)
            };
            eprintln!(
                "{}: pddlc {:?} cost {:?} {:?} expanded {:.2}s{}, fd {:?} cost {:?} {:?} expanded {:.2}s{}",
                task.name,
                a.steps,
                a.cost,
                a.expanded,
                a.seconds,
                if a.unsolvable { " unsolvable" } else { "" },
                b.steps,
                b.cost,
                b.expanded,
                b.seconds,
                if b.unsolvable { " unsolvable" } else { "" }
            );
            rows.push((task.name, a, b));
        }
        report(set, &rows, set == "variants", optimal);
    }
    if keep_work {
        eprintln!("work files kept in {}", work.display());
    } else {
        let _ = std::fs::remove_dir_all(&work);
    }
}
