//! Kitchen executor speed over the Simmer dev plans in ../shared/kitchen/plans/dev.
//!
//! `cargo bench --profile release --bench kitchen` (the bench profile builds the library at
//! opt-level 1, which is not what ships). Figures are in CPU time (user + system), so that a loaded
//! machine changes them little:
//!
//! - start-up: `World::embedded()`, the world ready to run (the mean over many loads);
//! - the whole dev run in one process: every plan through `kitchen::run`, each task's
//!   environment read once, plan texts read beforehand (plans per second of CPU);
//! - the binary, `pddlc kitchen run`, started once per plan and once per task environment
//!   (the CPU time of the children, so process start-up and file reading are counted), and
//!   `pddlc kitchen eval` over the dev folder, one process for the whole run.
//!
//! Simmer's executor ran the same plans at 1,187 plans/s on a quiet machine
//! (../shared/perf/README.md); the targets are start-up under 1 ms, the whole run at 10,000
//! plans/s or more, and one plan per process under 2 ms.

use pddlc::kitchen::{self, Env, Mode, World};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// User + system CPU time of this process (`RUSAGE_SELF`) or of its waited-for children.
fn cpu_time(who: libc::c_int) -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a `rusage` into the pointer it is given, which is valid and
    // large enough; the zeroed value is read only when the call succeeds.
    let usage = unsafe {
        if libc::getrusage(who, usage.as_mut_ptr()) != 0 {
            return Duration::ZERO;
        }
        usage.assume_init()
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

fn cpu_seconds(who: libc::c_int, work: impl FnOnce()) -> f64 {
    let start = cpu_time(who);
    work();
    (cpu_time(who) - start).as_secs_f64()
}

/// Runs the binary with these arguments, output discarded.
fn pddlc(args: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_pddlc"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("pddlc runs");
    assert!(status.code().is_some_and(|c| c <= 1), "pddlc {args:?}");
}

fn main() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/kitchen");
    let Ok(index) = std::fs::read_to_string(shared.join("plans/dev/verdicts.jsonl")) else {
        println!("skipping the kitchen benchmark: ../shared/kitchen/plans is absent");
        return;
    };
    // Plans grouped by environment, in the verdicts' order.
    let mut tasks: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in index.lines() {
        let row: serde_json::Value = serde_json::from_str(line).expect("verdict line");
        let env = row["env"].as_str().expect("env").to_string();
        let plan = row["plan"].as_str().expect("plan").to_string();
        tasks.entry(env).or_default().push(plan);
    }
    let plans: usize = tasks.values().map(Vec::len).sum();
    let read = |path: &str| {
        String::from_utf8_lossy(&std::fs::read(shared.join(path)).expect("readable")).into_owned()
    };
    println!(
        "{plans} dev plans in {} environments; CPU time on one core",
        tasks.len()
    );

    let loads = 200;
    let startup = cpu_seconds(libc::RUSAGE_SELF, || {
        for _ in 0..loads {
            std::hint::black_box(World::embedded());
        }
    }) / loads as f64;
    println!("start-up (world ready): {:.3} ms", startup * 1e3);

    let world = World::embedded();
    let inputs: Vec<(String, Vec<String>)> = tasks
        .iter()
        .map(|(env, plans)| (read(env), plans.iter().map(|p| read(p)).collect()))
        .collect();
    for mode in [Mode::Simmer, Mode::Strict] {
        let rounds = if std::env::args().any(|a| a == "in-process") {
            1
        } else {
            5
        };
        let seconds = cpu_seconds(libc::RUSAGE_SELF, || {
            for _ in 0..rounds {
                for (env_text, plan_texts) in &inputs {
                    let env = Env::from_json(env_text).expect("the env loads");
                    for text in plan_texts {
                        std::hint::black_box(kitchen::run(&world, &env, text, mode));
                    }
                }
            }
        });
        println!(
            "whole dev run in one process, {mode:?} mode: {:.0} plans/s ({:.1} µs per plan)",
            (rounds * plans) as f64 / seconds,
            seconds / (rounds * plans) as f64 * 1e6
        );
    }

    // `cargo bench --profile release --bench kitchen -- in-process` stops here (for profilers).
    if std::env::args().any(|a| a == "in-process") {
        return;
    }
    let dev = shared.join("plans/dev");
    let dev = dev.to_str().expect("a UTF-8 path");
    // eval reports the files that are not plans (one empty dev plan) instead of running them.
    let runnable = inputs
        .iter()
        .flat_map(|(_, texts)| texts)
        .filter(|text| kitchen::not_a_plan(text.as_bytes()).is_none())
        .count();
    for format in ["table", "csv", "json"] {
        let seconds = cpu_seconds(libc::RUSAGE_CHILDREN, || {
            pddlc(&["kitchen", "eval", dev, "--jobs", "1", "--format", format])
        });
        println!(
            "pddlc kitchen eval over plans/dev ({runnable} plans), one process, --format {format}: {:.0} plans/s ({:.1} ms in all)",
            runnable as f64 / seconds,
            seconds * 1e3
        );
    }

    let path = |p: &str| shared.join(p).display().to_string();
    let seconds = cpu_seconds(libc::RUSAGE_CHILDREN, || {
        for (env, plan_paths) in &tasks {
            let mut args = vec![
                "kitchen".to_string(),
                "run".into(),
                "--env".into(),
                path(env),
            ];
            args.extend(plan_paths.iter().map(|p| path(p)));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            pddlc(&args);
        }
    });
    println!(
        "pddlc kitchen run, one process per task: {:.0} plans/s ({:.2} ms per process)",
        plans as f64 / seconds,
        seconds / tasks.len() as f64 * 1e3
    );

    let seconds = cpu_seconds(libc::RUSAGE_CHILDREN, || {
        for (env, plan_paths) in &tasks {
            for plan in plan_paths {
                pddlc(&["kitchen", "run", "--env", &path(env), &path(plan)]);
            }
        }
    });
    println!(
        "pddlc kitchen run, one process per plan: {:.0} plans/s ({:.2} ms per plan in all)",
        plans as f64 / seconds,
        seconds / plans as f64 * 1e3
    );
}
