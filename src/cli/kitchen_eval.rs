//! `pddlc kitchen eval`: whole run folders evaluated in one process, in parallel (semantics
//! §10.1): every plan's verdict, the per-task metrics, the paper's per-method table with
//! bootstrap intervals, paired comparisons between runs, and Simmer's annotated result files.

use super::input::display_name;
use super::kitchen::{KitchenFormat, Report, load_world, table3};
use super::kitchen_task::EnvSource;
use super::{Outcome, pool, render_diagnostics};
use pddlc::diagnostics::render::{self, JSON_VERSION, Sources};
use pddlc::diagnostics::{Code, Diagnostic, FileId, SourceFile};
use pddlc::kitchen::{
    self, Counts, Env, Estimate, Mode, PairedTest, SplitMix64, Statistic, Summary, TTest,
    TaskMetrics, World,
};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct EvalArgs {
    /// Run folders, `RUN_DIR` or `RUN_DIR:LABEL`: one subfolder per task, `NNN/`, holding its
    /// plans (`plan_NNN.txt`, or any `*.txt`) and, as Simmer lays them out, `env_NNN.json`.
    #[arg(required = true, value_name = "RUN_DIR[:LABEL]")]
    runs: Vec<String>,
    #[arg(long, default_value = "simmer", value_parser = super::choice::<Mode>())]
    mode: Mode,
    /// Write Simmer's annotated result file for every plan that ran: `OUT/NNN/result_NNN.txt`
    /// for `plan_NNN.txt` (`N.result.txt` for `N.txt`); under `OUT/LABEL/` with several runs.
    #[arg(long, value_name = "OUT_DIR")]
    results: Option<PathBuf>,
    /// Simmer's benchmark directory, where a task folder without `env_NNN.json` finds its
    /// environment (`tasks/NNN/env_NNN.json`, or `../examples/*/env_NNN.json`) instead of
    /// the built-in tasks'.
    #[arg(long, value_name = "DIR")]
    simmer: Option<PathBuf>,
    /// A world directory instead of the embedded one.
    #[arg(long)]
    world: Option<PathBuf>,
    /// Threads (all cores by default).
    #[arg(long)]
    jobs: Option<usize>,
    /// Bootstrap resamples per interval and test.
    #[arg(long, default_value_t = 10_000)]
    bootstrap: usize,
    /// Seed of the bootstrap's generator (SplitMix64), set once before any resampling.
    #[arg(long, default_value_t = 42)]
    seed: u64,
}

/// One run folder and its label (the folder's name unless given).
struct Run {
    label: String,
    dir: PathBuf,
}

/// `RUN_DIR[:LABEL]`: the label is what follows the last `:` when the whole text is not itself
/// a folder.
fn parse_run(text: &str) -> Run {
    let path = Path::new(text);
    let (dir, label) = match text.rsplit_once(':') {
        Some((dir, label)) if !path.is_dir() && !label.is_empty() && !label.contains('/') => {
            (PathBuf::from(dir), label.to_string())
        }
        _ => {
            let label = path.file_name().map_or_else(
                || text.to_string(),
                |name| name.to_string_lossy().into_owned(),
            );
            (path.to_path_buf(), label)
        }
    };
    Run { label, dir }
}

/// One task folder of a run, with what is needed to run its plans.
struct Task {
    run: usize,
    name: String,
    /// The task's folder.
    dir: PathBuf,
    env: Option<EnvSource>,
    plans: Vec<PathBuf>,
}

/// Sorts names as numbers when they are (`2.txt` before `10.txt`), else as text.
fn natural(path: &Path) -> (u64, String) {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    let stem = stem.unwrap_or_default();
    let digits: String = stem.chars().filter(char::is_ascii_digit).collect();
    (digits.parse().unwrap_or(u64::MAX), stem)
}

/// The environment of task `name`: in its folder as Simmer lays runs out, else in Simmer's
/// benchmark when `--simmer` names it (its tasks, then its examples), else the built-in task's.
fn find_env(dir: &Path, name: &str, simmer: Option<&Path>) -> Option<EnvSource> {
    let file = format!("env_{name}.json");
    let own = dir.join(&file);
    if own.is_file() {
        return Some(EnvSource::File(own));
    }
    let Some(simmer) = simmer else {
        return kitchen::embedded_task(name).map(EnvSource::Builtin);
    };
    let benchmark = simmer.join("tasks").join(name).join(&file);
    if benchmark.is_file() {
        return Some(EnvSource::File(benchmark));
    }
    let examples = simmer.join("../examples");
    let mut found: Vec<PathBuf> = std::fs::read_dir(examples)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path().join(&file))
        .filter(|path| path.is_file())
        .collect();
    found.sort();
    found.into_iter().next().map(EnvSource::File)
}

/// The task folders of a run, in sorted name order, or a `P090` when it cannot be listed.
fn discover(run: usize, dir: &Path, simmer: Option<&Path>, report: &mut Report) -> Vec<Task> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            report.io_error(dir, format!("{}: {e}", dir.display()));
            return Vec::new();
        }
    };
    let mut folders: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut tasks = Vec::new();
    for folder in folders {
        let name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut plans: Vec<PathBuf> = std::fs::read_dir(&folder)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            // Not `is_file`: a plan that cannot be read (a dangling link) still yields a row.
            .filter(|p| !p.is_dir() && p.extension().is_some_and(|x| x == "txt"))
            .filter(|p| {
                !p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("task_"))
            })
            .collect();
        if plans.is_empty() {
            continue;
        }
        plans.sort_by_key(|p| natural(p));
        tasks.push(Task {
            run,
            env: find_env(&folder, &name, simmer),
            dir: folder.clone(),
            name,
            plans,
        });
    }
    if tasks.is_empty() {
        report.io_error(
            dir,
            format!(
                "{}: no task folder with plans (RUN/NNN/plan_NNN.txt)",
                dir.display()
            ),
        );
    }
    tasks
}

/// What a plan that ran leaves for the output: its outcome itself (the final states) is dropped
/// on the worker thread, so that a run of thousands of plans holds only what is printed.
struct Ran {
    counts: Counts,
    metrics: TaskMetrics,
    /// Its row of `plans` (`--format json`).
    row: Option<Box<RawValue>>,
    /// Its failures as diagnostic lines (`--format gcc` or `val`).
    lines: String,
    /// Its annotated result file (`--results`).
    result_file: Option<String>,
}

/// What became of one file of a task folder.
enum Verdict {
    Ran(Ran),
    /// It cannot be read: the reason.
    Unreadable(String),
    /// It is not a plan (K409), with its text.
    NotAPlan(Diagnostic, String),
}

struct PlanResult {
    path: PathBuf,
    verdict: Verdict,
}

/// A task's plans run, or the diagnostics of its environment.
struct TaskResult {
    task: Task,
    report: Report,
    plans: Vec<PlanResult>,
}

/// What the run's output needs of every plan, decided once for all tasks.
struct Needs {
    mode: Mode,
    format: KitchenFormat,
    color: bool,
    results: bool,
}

/// Runs one plan and keeps what the output needs.
fn run_plan(
    world: &World,
    env: &Env,
    path: &Path,
    text: String,
    task: &TaskInfo,
    needs: &Needs,
) -> Ran {
    let outcome = kitchen::run(world, env, &text, needs.mode);
    let name = display_name(path);
    let result_file = needs
        .results
        .then(|| kitchen::result_file(&task.line, &name, &text, &outcome.failures));
    let sources = [SourceFile::new(name.clone(), text)];
    let view = Sources::new(&sources);
    let mut row = None;
    let mut lines = String::new();
    match needs.format {
        KitchenFormat::Json => {
            let mut value = kitchen::plan_json(&name, &outcome);
            value["run"] = json!(task.run);
            value["task"] = json!(task.name);
            value["diagnostics"] = render::json_diagnostics(&outcome.diagnostics(), &view);
            // Serialized here, on the worker, and the tree dropped here: the document of a large
            // run holds only the text of its rows.
            row = serde_json::value::to_raw_value(&value).ok();
        }
        KitchenFormat::Gcc | KitchenFormat::Val => {
            lines = render_diagnostics(
                needs.format.diagnostics(),
                &outcome.diagnostics(),
                &view,
                needs.color,
            );
        }
        KitchenFormat::Human | KitchenFormat::Csv => {}
    }
    Ran {
        counts: outcome.counts(),
        metrics: TaskMetrics::of(&outcome.failures),
        row,
        lines,
        result_file,
    }
}

/// The run's label, the task's name and its title line, as a plan's output shows them.
struct TaskInfo {
    run: String,
    name: String,
    line: String,
}

fn run_task(task: Task, run: &str, world: &World, needs: &Needs) -> TaskResult {
    let mut report = Report::new(needs.format.diagnostics(), false);
    let env = match &task.env {
        Some(source) => source.load(world, &mut report),
        None => {
            let message = format!(
                "task {}: no env_{}.json in its folder, and no built-in task {} (or give Simmer's benchmark with --simmer)",
                task.name, task.name, task.name
            );
            report.io_error(&task.dir, message);
            None
        }
    };
    let line = task
        .env
        .as_ref()
        .and_then(EnvSource::title_line)
        .unwrap_or_default();
    let info = TaskInfo {
        run: run.to_string(),
        name: task.name.clone(),
        line,
    };
    let mut plans = Vec::new();
    if let Some(env) = &env {
        for path in &task.plans {
            let verdict = match std::fs::read(path) {
                Err(e) => Verdict::Unreadable(format!("{}: {e}", path.display())),
                Ok(bytes) => {
                    let text = String::from_utf8_lossy(&bytes).into_owned();
                    match kitchen::not_a_plan(&bytes) {
                        Some(d) => Verdict::NotAPlan(d, text),
                        None => Verdict::Ran(run_plan(world, env, path, text, &info, needs)),
                    }
                }
            };
            plans.push(PlanResult {
                path: path.clone(),
                verdict,
            });
        }
    }
    TaskResult {
        task,
        report,
        plans,
    }
}

/// One row of `tasks`: a task of a run, its plans' mean §10.1 metrics and its Table 3.
#[derive(Serialize)]
struct TaskRow {
    run: String,
    task: String,
    plans: usize,
    immediate: f64,
    latent: f64,
    irreversible: f64,
    total: f64,
    clean: f64,
    summary: Summary,
}

/// The metrics in §10.1's order, with the statistic each is reported as.
const METRICS: [(&str, Statistic); 5] = [
    ("total", Statistic::Sum),
    ("immediate", Statistic::Sum),
    ("latent", Statistic::Sum),
    ("irreversible", Statistic::Sum),
    ("clean", Statistic::Mean),
];

fn metric(row: &TaskRow, name: &str) -> f64 {
    match name {
        "total" => row.total,
        "immediate" => row.immediate,
        "latent" => row.latent,
        "irreversible" => row.irreversible,
        _ => row.clean,
    }
}

/// One method (run) in the paper's table.
#[derive(Serialize)]
struct Method {
    run: String,
    tasks: usize,
    total: Estimate,
    immediate: Estimate,
    latent: Estimate,
    irreversible: Estimate,
    clean: Estimate,
    summary: Summary,
}

/// A paired comparison of two runs.
#[derive(Serialize)]
struct Comparison {
    a: String,
    b: String,
    tasks: usize,
    total: PairedTest,
    t_test: Option<TTest>,
    immediate: PairedTest,
    latent: PairedTest,
    irreversible: PairedTest,
}

/// The mean of each §10.1 metric over a task's plans (one plan: the metrics themselves).
fn task_row(run: &str, task: &str, ran: &[&Ran]) -> TaskRow {
    let n = ran.len().max(1) as f64;
    let mean =
        |f: fn(&TaskMetrics) -> usize| ran.iter().map(|r| f(&r.metrics)).sum::<usize>() as f64 / n;
    let counts: Vec<Counts> = ran.iter().map(|r| r.counts).collect();
    TaskRow {
        run: run.to_string(),
        task: task.to_string(),
        plans: ran.len(),
        immediate: mean(|m| m.immediate),
        latent: mean(|m| m.latent),
        irreversible: mean(|m| m.irreversible),
        total: mean(|m| m.total),
        clean: mean(|m| m.clean),
        summary: kitchen::summarise(&counts),
    }
}

/// Where `--results` puts a plan's result file.
fn result_path(out: &Path, run: Option<&str>, task: &str, plan: &Path) -> PathBuf {
    let name = plan
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = match name
        .strip_prefix("plan_")
        .and_then(|n| n.strip_suffix(".txt"))
    {
        Some(number) => format!("result_{number}.txt"),
        None => format!("{}.result.txt", name.trim_end_matches(".txt")),
    };
    let base = run.map_or_else(|| out.to_path_buf(), |r| out.join(r));
    base.join(task).join(file)
}

pub fn run(args: &EvalArgs, format: KitchenFormat, color: bool) -> Outcome {
    let diagnostics_format = format.diagnostics();
    let mut report = Report::new(diagnostics_format, color);
    let Ok(pool) = pool(args.jobs) else {
        return Outcome::Failure;
    };
    let Some(world) = load_world(args.world.as_deref(), &mut report) else {
        return finish(format, &report, &[], &[], &[], &[], args);
    };
    let runs: Vec<Run> = args.runs.iter().map(|r| parse_run(r)).collect();
    let tasks: Vec<Task> = runs
        .iter()
        .enumerate()
        .flat_map(|(i, run)| discover(i, &run.dir, args.simmer.as_deref(), &mut report))
        .collect();
    let total: usize = tasks.iter().map(|t| t.plans.len()).sum();
    let progress = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(total as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let needs = Needs {
        mode: args.mode,
        format,
        color,
        results: args.results.is_some(),
    };
    let results: Vec<TaskResult> = pool.install(|| {
        tasks
            .into_par_iter()
            .map(|task| {
                let count = task.plans.len() as u64;
                let run = &runs[task.run].label;
                let result = run_task(task, run, &world, &needs);
                progress.inc(count);
                result
            })
            .collect()
    });
    progress.finish_and_clear();

    let gathered = gather(results, &runs, format, args, &mut report);
    report_result_files(&runs, &gathered.result_files, &mut report);
    let Gathered {
        rows,
        task_rows,
        lines,
        run_counts,
        any_failure,
        unreadable,
        ..
    } = gathered;
    let (methods, comparisons) = statistics(&runs, &task_rows, &run_counts, args);
    if matches!(format, KitchenFormat::Gcc | KitchenFormat::Val) {
        print!("{lines}");
    }
    let outcome = finish(
        format,
        &report,
        &rows,
        &task_rows,
        &methods,
        &comparisons,
        args,
    );
    let plans = if unreadable {
        Outcome::Failure
    } else if any_failure {
        Outcome::InputErrors
    } else {
        Outcome::Clean
    };
    outcome.max(plans)
}

/// What the tasks' results add up to, in task order.
struct Gathered {
    /// The `plans` rows (`--format json`).
    rows: Vec<Box<RawValue>>,
    /// One row per task with a plan that ran (§10.1: the others are left out of the statistics).
    task_rows: Vec<TaskRow>,
    /// The failures as diagnostic lines (`--format gcc` or `val`).
    lines: String,
    /// Per run, how many of Simmer's result files were found, and the first.
    result_files: Vec<(usize, PathBuf)>,
    /// Per run, the counts of each plan that ran.
    run_counts: Vec<Vec<Counts>>,
    any_failure: bool,
    unreadable: bool,
}

/// Gathers the tasks' results: their reports into `report`, their rows, lines and counts, and
/// the result files written (`--results`).
fn gather(
    results: Vec<TaskResult>,
    runs: &[Run],
    format: KitchenFormat,
    args: &EvalArgs,
    report: &mut Report,
) -> Gathered {
    let mut gathered = Gathered {
        rows: Vec::new(),
        task_rows: Vec::new(),
        lines: String::new(),
        result_files: vec![(0, PathBuf::new()); runs.len()],
        run_counts: vec![Vec::new(); runs.len()],
        any_failure: false,
        unreadable: false,
    };
    let several = runs.len() > 1;
    for result in results {
        let TaskResult {
            task,
            report: task_report,
            plans,
        } = result;
        report.absorb(task_report);
        let label = &runs[task.run].label;
        let mut ran: Vec<&Ran> = Vec::new();
        for plan in &plans {
            let name = display_name(&plan.path);
            match &plan.verdict {
                Verdict::NotAPlan(d, _) if d.message.contains("result file") => {
                    let entry = &mut gathered.result_files[task.run];
                    entry.0 += 1;
                    if entry.1.as_os_str().is_empty() {
                        entry.1 = plan.path.clone();
                    }
                }
                Verdict::NotAPlan(d, text) => {
                    report.add_one(name, text.clone(), vec![d.clone()]);
                }
                Verdict::Unreadable(message) => {
                    gathered.unreadable = true;
                    if format == KitchenFormat::Json {
                        gathered
                            .rows
                            .extend(unreadable_row(label, &task.name, name, message));
                    } else {
                        report.io_error(&plan.path, message.clone());
                    }
                }
                Verdict::Ran(done) => {
                    gathered.any_failure |= done.counts.any > 0;
                    gathered.rows.extend(done.row.clone());
                    gathered.lines.push_str(&done.lines);
                    if let (Some(out), Some(text)) = (&args.results, &done.result_file) {
                        let run = several.then_some(label.as_str());
                        let path = result_path(out, run, &task.name, &plan.path);
                        write_result_file(&path, text, report);
                    }
                    gathered.run_counts[task.run].push(done.counts);
                    ran.push(done);
                }
            }
        }
        // §10.1: a task none of whose plans ran is left out of the statistics.
        if !ran.is_empty() {
            gathered.task_rows.push(task_row(label, &task.name, &ran));
        }
    }
    gathered
}

/// The JSON row of a plan that cannot be read: the run's fields `null`, the reason a `P090`.
fn unreadable_row(run: &str, task: &str, name: String, message: &str) -> Option<Box<RawValue>> {
    let sources = [SourceFile::new(name.clone(), String::new())];
    let diagnostics = [super::input::io_error(message, FileId(0))];
    let view = Sources::new(&sources);
    serde_json::value::to_raw_value(&json!({
        "run": run, "task": task, "plan": name,
        "steps": null, "failures": null, "counts": null,
        "irreversible_actions": null,
        "diagnostics": render::json_diagnostics(&diagnostics, &view),
    }))
    .ok()
}

/// Writes one annotated result file (`--results`), reporting a `P090` when it cannot.
fn write_result_file(path: &Path, text: &str, report: &mut Report) {
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(path, text));
    if let Err(e) = written {
        report.io_error(path, format!("{}: {e}", path.display()));
    }
}

/// One `K409` note per run whose folder holds Simmer's own result files, which are not run.
fn report_result_files(runs: &[Run], result_files: &[(usize, PathBuf)], report: &mut Report) {
    for (run, (count, first)) in runs.iter().zip(result_files) {
        if *count > 0 {
            let message = format!(
                "{count} of Simmer's result files in `{}` are not plans and were not run (the first: `{}`)",
                run.dir.display(),
                first.display()
            );
            let diagnostic = Diagnostic::unlocated(Code::KitchenNotAPlan, message)
                .with_help("these are `evaluate_plans.py`'s annotated results; `--results DIR` writes them afresh");
            report.add(Vec::new(), vec![diagnostic]);
        }
    }
}

/// The per-method table and the paired comparisons, drawing from one generator seeded once, in
/// §10.1's order: method by method (total, immediate, latent, irreversible, clean), then every
/// pair in the order given (total with its t-test, immediate, latent, irreversible).
fn statistics(
    runs: &[Run],
    rows: &[TaskRow],
    counts: &[Vec<Counts>],
    args: &EvalArgs,
) -> (Vec<Method>, Vec<Comparison>) {
    let mut rng = SplitMix64::new(args.seed);
    let values = |run: &str, name: &str| -> Vec<f64> {
        rows.iter()
            .filter(|r| r.run == run)
            .map(|r| metric(r, name))
            .collect()
    };
    let mut methods = Vec::new();
    for (run, counts) in runs.iter().zip(counts) {
        let [total, immediate, latent, irreversible, clean] = METRICS.map(|(name, statistic)| {
            kitchen::bootstrap(
                &values(&run.label, name),
                statistic,
                args.bootstrap,
                &mut rng,
            )
        });
        methods.push(Method {
            run: run.label.clone(),
            tasks: rows.iter().filter(|r| r.run == run.label).count(),
            total,
            immediate,
            latent,
            irreversible,
            clean,
            summary: kitchen::summarise(counts),
        });
    }
    let mut comparisons = Vec::new();
    for (i, a) in runs.iter().enumerate() {
        for b in &runs[i + 1..] {
            let mut test = |name: &str| {
                kitchen::paired_bootstrap(
                    &values(&a.label, name),
                    &values(&b.label, name),
                    args.bootstrap,
                    &mut rng,
                )
            };
            let total = test("total");
            let (immediate, latent, irreversible) =
                (test("immediate"), test("latent"), test("irreversible"));
            let (ta, tb) = (values(&a.label, "total"), values(&b.label, "total"));
            comparisons.push(Comparison {
                a: a.label.clone(),
                b: b.label.clone(),
                tasks: ta.len().min(tb.len()),
                total,
                t_test: kitchen::paired_t_test(&ta, &tb),
                immediate,
                latent,
                irreversible,
            });
        }
    }
    (methods, comparisons)
}

/// `--format json`'s document; its rows are text already (a row a line).
#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    diagnostics: Value,
    plans: &'a [Box<RawValue>],
    tasks: &'a [TaskRow],
    methods: &'a [Method],
    comparisons: &'a [Comparison],
    bootstrap: Value,
}

fn finish(
    format: KitchenFormat,
    report: &Report,
    rows: &[Box<RawValue>],
    tasks: &[TaskRow],
    methods: &[Method],
    comparisons: &[Comparison],
    args: &EvalArgs,
) -> Outcome {
    match format {
        KitchenFormat::Json => {
            let document = Document {
                version: JSON_VERSION,
                diagnostics: report.json_diagnostics(),
                plans: rows,
                tasks,
                methods,
                comparisons,
                bootstrap: json!({"generator": "splitmix64", "seed": args.seed, "samples": args.bootstrap}),
            };
            // Written as it is serialized: the document of a large run is megabytes. A closed
            // pipe ends the process by SIGPIPE (main restores it), so errors are not expected.
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let _ = serde_json::to_writer_pretty(&mut out, &document)
                .map_err(std::io::Error::from)
                .and_then(|()| writeln!(out))
                .and_then(|()| out.flush());
        }
        KitchenFormat::Csv => {
            eprint!("{}", report.rendered());
            print!("{}", csv(tasks));
        }
        KitchenFormat::Gcc | KitchenFormat::Val => print!("{}", report.rendered()),
        KitchenFormat::Human => {
            eprint!("{}", report.rendered());
            print!("{}", table(tasks, methods, comparisons));
        }
    }
    report.outcome()
}

/// `run,task,plans,immediate,latent,irreversible,total,clean`, one row per run and task.
fn csv(tasks: &[TaskRow]) -> String {
    let quote = |s: &str| {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut out = String::from("run,task,plans,immediate,latent,irreversible,total,clean\n");
    for t in tasks {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{}\n",
            quote(&t.run),
            quote(&t.task),
            t.plans,
            t.immediate,
            t.latent,
            t.irreversible,
            t.total,
            t.clean
        ));
    }
    out
}

/// The paper's Table 3 per task (as `kitchen run` prints it over the task's plans) and per
/// run, the per-method table and the comparisons, for a terminal.
fn table(tasks: &[TaskRow], methods: &[Method], comparisons: &[Comparison]) -> String {
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let mut out = String::new();
    for t in tasks {
        out.push_str(&format!("{}/{}: {}\n", t.run, t.task, table3(&t.summary)));
    }
    out.push('\n');
    for m in methods {
        out.push_str(&format!(
            "{} ({} tasks): {}\n",
            m.run,
            m.tasks,
            table3(&m.summary)
        ));
    }
    let sum = |e: &Estimate| format!("{:.1} [{:.1}, {:.1}]", e.value, e.low, e.high);
    let rate = |e: &Estimate| format!("{} [{}, {}]", pct(e.value), pct(e.low), pct(e.high));
    out.push_str(&format!(
        "\n{:<16} {:>5}  {:<22} {:<22} {:<22} {:<22} {}\n",
        "method", "tasks", "total", "immediate", "latent", "irreversible", "clean"
    ));
    for m in methods {
        if m.tasks == 0 {
            // A run folder that could not be read (its error is on stderr): no estimate.
            out.push_str(&format!("{:<16} {:>5}  no task was run\n", m.run, m.tasks));
            continue;
        }
        out.push_str(&format!(
            "{:<16} {:>5}  {:<22} {:<22} {:<22} {:<22} {}\n",
            m.run,
            m.tasks,
            sum(&m.total),
            sum(&m.immediate),
            sum(&m.latent),
            sum(&m.irreversible),
            rate(&m.clean)
        ));
    }
    let test = |name: &str, t: &PairedTest| {
        let d = &t.mean_difference;
        format!(
            "{name} {:+.2} [{:+.2}, {:+.2}] p={:.4} {}",
            d.value,
            d.low,
            d.high,
            t.p,
            t.stars()
        )
    };
    for c in comparisons {
        out.push_str(&format!(
            "\n{} − {} ({} tasks, mean per task):\n",
            c.a, c.b, c.tasks
        ));
        out.push_str(&format!("  {}\n", test("total", &c.total)));
        match &c.t_test {
            // scipy's NaN: no variance and no mean difference, so no statistic.
            Some(t) if t.t.is_nan() => out.push_str(&format!(
                "  paired t-test on total: undefined, every task's difference is 0 (df = {})\n",
                t.df
            )),
            Some(t) => out.push_str(&format!(
                "  paired t-test on total: t = {:.3}, df = {}, p = {:.4} {}\n",
                t.t,
                t.df,
                t.p,
                kitchen::stars(t.p)
            )),
            None => {}
        }
        for (name, t) in [
            ("immediate", &c.immediate),
            ("latent", &c.latent),
            ("irreversible", &c.irreversible),
        ] {
            out.push_str(&format!("  {}\n", test(name, t)));
        }
    }
    out
}
