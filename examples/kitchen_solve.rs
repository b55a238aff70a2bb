//! Solves the planning flavour of every task with a formal goal with Fast Downward (LAMA,
//! `--alias lama-first`), translates each plan back to Simmer's format and runs it in the
//! executor; prints coverage and times.
//!
//! `cargo run --release --example kitchen_solve [-- TASK…] [--limit SECONDS] [--keep DIR]
//! [--tasks-dir DIR]` (`--tasks-dir` picks another folder of goals). A goal that says it is
//! unsolvable is listed with its reason, not solved. Needs `../shared/kitchen` and
//! `pip install up-fast-downward`.

use pddlc::fmt;
use pddlc::kitchen::{self, CompileOptions, Env, Flavour, Mode, TaskGoal, World};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

#[path = "../tests/common/fast_downward.rs"]
mod fast_downward;
use fast_downward::fast_downward;

/// The outcome of solving one task.
pub struct Solved {
    pub seconds: f64,
    /// The translator's time and the search's, from Fast Downward's log (wall clock), when it
    /// printed them.
    pub translate: Option<f64>,
    pub search: Option<f64>,
    /// The plan in Simmer's format, when one was found.
    pub plan: Option<String>,
    /// The executor's failures on it, in Simmer mode and in strict mode.
    pub failures: usize,
    pub strict_failures: usize,
    pub note: String,
}

/// The number after `key` up to the next `s` in Fast Downward's log: the translator's
/// `Done! [0.52s CPU, 0.53s wall-clock]` and the search's `Search time: 0.01s`.
fn logged_seconds(log: &str, line_start: &str, key: &str) -> Option<f64> {
    let line = log
        .lines()
        .rev()
        .find(|l| l.starts_with(line_start) && l.contains(key))?;
    let rest = &line[line.find(key)? + key.len()..];
    rest.trim_start()
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()?
        .parse()
        .ok()
}

/// Compiles, solves with a time limit, translates back and runs.
pub fn solve(
    fd: &Path,
    world: &World,
    env: &Env,
    goal: &TaskGoal,
    limit: Duration,
    dir: &Path,
) -> Solved {
    let options = CompileOptions {
        flavour: Flavour::Planning,
        ..CompileOptions::default()
    };
    let domain = kitchen::compile_domain(world, Flavour::Planning);
    let problem = kitchen::compile_problem(
        world,
        env,
        Some(goal),
        &format!("task-{}", goal.task),
        &options,
    );
    std::fs::create_dir_all(dir).expect("a work directory");
    std::fs::write(dir.join("domain.pddl"), fmt::domain(&domain)).expect("write");
    std::fs::write(dir.join("problem.pddl"), fmt::problem(&problem)).expect("write");
    let _ = std::fs::remove_file(dir.join("sas_plan"));
    let start = Instant::now();
    // Fast Downward's own limit (CPU time), as the issue measures it; `timeout` only guards
    // against a run that ignores it, with room for a loaded machine, where the wall clock runs
    // two to three times the CPU time.
    let output = Command::new("timeout")
        .arg(format!("{}", 3 * limit.as_secs() + 10))
        .arg("python3")
        .arg(fd)
        .args(["--alias", "lama-first"])
        .arg(format!("--overall-time-limit={}s", limit.as_secs()))
        .args(["domain.pddl", "problem.pddl"])
        .current_dir(dir)
        .stderr(std::process::Stdio::null())
        .output();
    let seconds = start.elapsed().as_secs_f64();
    let Ok(output) = output else {
        return Solved {
            seconds,
            translate: None,
            search: None,
            plan: None,
            failures: 0,
            strict_failures: 0,
            note: "could not start".into(),
        };
    };
    let status = output.status;
    let log = String::from_utf8_lossy(&output.stdout);
    let translate = logged_seconds(&log, "Done!", "Done! [");
    let search = logged_seconds(&log, "[t=", "Search time:");
    let Ok(pddl) = std::fs::read_to_string(dir.join("sas_plan")) else {
        let note = match status.code() {
            Some(124) | Some(23) => "time limit".to_string(),
            Some(code) => format!("no plan (exit {code})"),
            None => "no plan".to_string(),
        };
        return Solved {
            seconds,
            translate,
            search,
            plan: None,
            failures: 0,
            strict_failures: 0,
            note,
        };
    };
    match kitchen::from_pddl_plan(world, env, &pddl) {
        Ok(simmer) => {
            let outcome = kitchen::run(world, env, &simmer, Mode::Simmer);
            let strict = kitchen::run(world, env, &simmer, Mode::Strict);
            let note = outcome
                .failures
                .iter()
                .map(|f| format!("step {}: {}", f.step, f.reason))
                .chain(
                    strict
                        .failures
                        .iter()
                        .map(|f| format!("strict step {}: {}", f.step, f.reason)),
                )
                .collect::<Vec<_>>()
                .join("; ");
            Solved {
                seconds,
                translate,
                search,
                failures: outcome.failures.len(),
                strict_failures: strict.failures.len(),
                plan: Some(simmer),
                note,
            }
        }
        Err(diagnostics) => Solved {
            seconds,
            translate,
            search,
            plan: None,
            failures: 0,
            strict_failures: 0,
            note: diagnostics
                .iter()
                .map(|d| d.message.as_str())
                .collect::<Vec<_>>()
                .join("; "),
        },
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/kitchen");
    if !shared.is_dir() {
        eprintln!("skipped: ../shared/kitchen is absent");
        return;
    }
    let Some(fd) = fast_downward() else {
        eprintln!("skipped: Fast Downward is not installed (pip install up-fast-downward)");
        return;
    };
    let mut limit = 60;
    let mut keep: Option<PathBuf> = None;
    let mut tasks_dir = root.join("domains/kitchen/tasks");
    let mut wanted = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--keep" {
            keep = args.next().map(PathBuf::from);
        } else if a == "--tasks-dir" {
            if let Some(dir) = args.next() {
                tasks_dir = PathBuf::from(dir);
            }
        } else if a == "--limit" {
            limit = args.next().and_then(|x| x.parse().ok()).unwrap_or(60);
        } else {
            wanted.push(a);
        }
    }
    let world = World::embedded();
    let mut tasks: Vec<(String, TaskGoal)> = Vec::new();
    for e in std::fs::read_dir(&tasks_dir).expect("tasks").flatten() {
        if e.path().extension().is_none_or(|x| x != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(e.path()).expect("read");
        let goal = TaskGoal::from_toml(&text).expect("a task goal");
        if !wanted.is_empty() && !wanted.contains(&goal.task) {
            continue;
        }
        match &goal.unsolvable {
            Some(reason) => println!("{}  unsolvable: {}", goal.task, reason.get_ref()),
            None => tasks.push((goal.task.clone(), goal)),
        }
    }
    tasks.sort_by(|a, b| a.0.cmp(&b.0));
    let work = keep.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("kitchen-solve-{}", std::process::id()))
    });
    let (mut solved, mut clean) = (0, 0);
    for (task, goal) in &tasks {
        let path = shared.join(format!("simmer/benchmark/tasks/{task}/env_{task}.json"));
        let env = Env::from_json(&std::fs::read_to_string(path).expect("env")).expect("env");
        let r = solve(
            &fd,
            &world,
            &env,
            goal,
            Duration::from_secs(limit),
            &work.join(task),
        );
        let steps = r.plan.as_ref().map_or(0, |p| p.lines().count());
        solved += usize::from(r.plan.is_some());
        clean += usize::from(r.plan.is_some() && r.failures == 0 && r.strict_failures == 0);
        let shown = |t: Option<f64>| t.map_or("    -".to_string(), |t| format!("{t:>5.1}"));
        println!(
            "{task}  {:>6.1} s  translate {} s  search {} s  {}  steps {steps:>3}  failures {} simmer, {} strict  {}",
            r.seconds,
            shown(r.translate),
            shown(r.search),
            if r.plan.is_some() { "solved" } else { "------" },
            r.failures,
            r.strict_failures,
            r.note
        );
        if let (Some(dir), Some(plan)) = (&keep, &r.plan) {
            let _ = std::fs::write(dir.join(task).join("plan.txt"), plan);
        }
    }
    println!(
        "coverage: {solved}/{} solved, {clean} with zero failures under kitchen run in both modes",
        tasks.len()
    );
    if keep.is_none() {
        let _ = std::fs::remove_dir_all(work);
    }
}
