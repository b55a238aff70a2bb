//! `pddlc kitchen eval`: whole run folders evaluated in one process, in parallel (semantics
//! §10.1): every plan's verdict, the per-task metrics, the paper's per-method table with
//! bootstrap intervals, paired comparisons between runs, and Simmer's annotated result files.

use super::input::{display_name, read_bytes, read_text};
use super::kitchen::{KitchenFormat, Report, count, load_world, table3};
use super::kitchen_task::EnvSource;
use super::{Format, Outcome, pool, render_diagnostics};
use pddlc::diagnostics::render::Sources;
use pddlc::kitchen::{
    self, BootstrapOptions, Comparison, EnvInput, Estimate, EvalOptions, FileNotes, Method, Mode,
    PairedTest, PlanInput, RunFolder, TTest, Tally, TaskEvaluation, TaskInput, TaskRow, World,
};
use rayon::prelude::*;
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
    /// Also write one self-contained HTML page: the per-method table with its intervals, the
    /// task × run grid coloured by failure kind, the paired comparisons as a forest plot
    /// (docs/reports.md). What is printed is unchanged.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
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

/// The environment of task `name`: in its folder as Simmer lays runs out, else in Simmer's
/// benchmark when `--simmer` names it (its tasks, then its examples), else the built-in task's.
/// `listed` holds the names of the folder's entries that are not folders (from its listing,
/// without a `stat` each).
fn find_env(dir: &Path, name: &str, listed: &[String], simmer: Option<&Path>) -> Option<EnvSource> {
    if let Some(own) = kitchen::own_env_file(name, listed) {
        return Some(EnvSource::File(dir.join(own)));
    }
    let file = kitchen::env_file_name(name);
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
        .filter(is_dir_entry)
        .map(|e| e.path())
        .collect();
    folders.sort();
    let mut tasks = Vec::new();
    for folder in folders {
        let name = file_name(&folder);
        // Not `is_file`: a plan that cannot be read (a dangling link) still yields a row.
        let names: Vec<String> = std::fs::read_dir(&folder)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| !is_dir_entry(e))
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        let env = find_env(&folder, &name, &names, simmer);
        let plans: Vec<PathBuf> = kitchen::plan_files(names)
            .iter()
            .map(|name| folder.join(name))
            .collect();
        if plans.is_empty() {
            continue;
        }
        tasks.push(Task {
            run,
            env,
            dir: folder.clone(),
            name,
            plans,
        });
    }
    if tasks.is_empty() {
        let message = kitchen::no_task_folder_message(&dir.display().to_string());
        report.io_error(dir, message);
    }
    tasks
}

/// Whether a listed entry is a folder, from the listing's own file type where it can tell (no
/// `stat` per entry: a run of hundreds of task folders lists thousands of files); a link is
/// followed.
fn is_dir_entry(entry: &std::fs::DirEntry) -> bool {
    match entry.file_type() {
        Ok(kind) if !kind.is_symlink() => kind.is_dir(),
        _ => entry.path().is_dir(),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// What the CLI keeps of a plan that ran, besides its counts and row.
struct Kept {
    /// Its failures as diagnostic lines (`--format gcc` or `val`).
    lines: String,
    /// Its annotated result file (`--results`).
    result_file: Option<String>,
}

/// What the run's output needs of every plan, decided once for all tasks.
struct Needs {
    mode: Mode,
    format: KitchenFormat,
    color: bool,
    results: bool,
}

/// A task folder read (its environment and plans) and its plans run.
fn run_task(
    task: &Task,
    label: &str,
    (world, envs): (&World, &kitchen::EnvCache),
    needs: &Needs,
) -> TaskEvaluation<Kept> {
    let env = match &task.env {
        Some(EnvSource::File(path)) => EnvInput::File {
            name: display_name(path),
            text: read_text(path),
        },
        Some(EnvSource::Builtin(builtin)) => EnvInput::Builtin(builtin),
        None => EnvInput::Missing {
            dir: display_name(&task.dir),
        },
    };
    let plans = task
        .plans
        .iter()
        .map(|path| PlanInput {
            name: display_name(path),
            bytes: read_bytes(path),
        })
        .collect();
    let input = TaskInput {
        run: task.run,
        label: label.to_string(),
        task: task.name.clone(),
        env,
        plans,
    };
    // The task's title (`task_NNN.txt`) is read only for the result files that show it.
    let title = needs
        .results
        .then(|| task.env.as_ref().and_then(EnvSource::title_line))
        .flatten()
        .unwrap_or_default();
    let options = EvalOptions {
        mode: needs.mode,
        rows: needs.format == KitchenFormat::Json,
    };
    kitchen::evaluate_task(world, input, envs, options, |file, outcome| {
        let view = Sources::new(std::slice::from_ref(file));
        let lines = match needs.format {
            KitchenFormat::Gcc | KitchenFormat::Val => render_diagnostics(
                needs.format.diagnostics(),
                &outcome.diagnostics(),
                &view,
                needs.color,
            ),
            _ => String::new(),
        };
        let result_file = needs
            .results
            .then(|| kitchen::result_file(&title, &file.name, &file.text, &outcome.failures));
        Kept { lines, result_file }
    })
}

/// Where `--results` puts a plan's result file.
fn result_path(out: &Path, run: Option<&str>, task: &str, plan: &Path) -> PathBuf {
    let base = run.map_or_else(|| out.to_path_buf(), |r| out.join(r));
    base.join(task)
        .join(kitchen::result_file_name(&file_name(plan)))
}

/// `shown`: how diagnostics about the inputs are shown (`KitchenFormat::resolve`).
pub fn run(args: &EvalArgs, format: KitchenFormat, shown: Format, color: bool) -> Outcome {
    if let Some(html) = &args.html {
        let inputs: Vec<&Path> = args.runs.iter().map(Path::new).collect();
        if let Err(message) = super::input::check_output(html, &inputs) {
            eprintln!("error: --html: {message}");
            return Outcome::Failure;
        }
    }
    let diagnostics_format = shown;
    let mut report = Report::new(diagnostics_format, color);
    let Ok(pool) = pool(args.jobs) else {
        return Outcome::Failure;
    };
    let options = BootstrapOptions {
        samples: args.bootstrap,
        seed: args.seed,
    };
    let runs: Vec<RunFolder> = args
        .runs
        .iter()
        .map(|r| RunFolder::parse(r, Path::new(r).is_dir()))
        .collect();
    let mut tally = Tally::new(&runs);
    let Some(world) = load_world(args.world.as_deref(), &mut report) else {
        return finish(format, &report, &tally, &[], &[], options);
    };
    let tasks: Vec<Task> = runs
        .iter()
        .enumerate()
        .flat_map(|(i, run)| discover(i, Path::new(&run.dir), args.simmer.as_deref(), &mut report))
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
        // The page shows each plan's result file from its grid cell.
        results: args.results.is_some() || args.html.is_some(),
    };
    let envs = kitchen::EnvCache::default();
    let evaluate = |task: Task| {
        let label = &runs[task.run].label;
        let result = run_task(&task, label, (&world, &envs), &needs);
        progress.inc(task.plans.len() as u64);
        (task, result)
    };
    // One job runs on this thread, without starting a worker (and its heap) for it.
    let results: Vec<(Task, TaskEvaluation<Kept>)> = if args.jobs == Some(1) {
        tasks.into_iter().map(evaluate).collect()
    } else {
        pool.install(|| tasks.into_par_iter().map(evaluate).collect())
    };
    progress.finish_and_clear();

    let mut lines = String::new();
    let mut annotated: Vec<pddlc::html::AnnotatedPlan> = Vec::new();
    let several = runs.len() > 1;
    for (task, evaluation) in results {
        let label = evaluation.label.clone();
        let notes = tally.add(evaluation, format == KitchenFormat::Json, |index, done| {
            lines.push_str(&done.extra.lines);
            if let (Some(_), Some(text)) = (&args.html, &done.extra.result_file) {
                annotated.push(pddlc::html::AnnotatedPlan {
                    run: label.clone(),
                    task: task.name.clone(),
                    plan: file_name(&task.plans[index]),
                    result_file: text.clone(),
                });
            }
            let (Some(out), Some(text)) = (&args.results, &done.extra.result_file) else {
                return None;
            };
            let run = several.then_some(label.as_str());
            let path = result_path(out, run, &task.name, &task.plans[index]);
            write_result_file(&path, text)
        });
        for note in notes {
            report.add(vec![note.file], note.diagnostics);
        }
    }
    for note in tally.result_file_notes() {
        report.add(vec![note.file], note.diagnostics);
    }
    // The CSV and the diagnostic lines show no statistics: they are not computed for them.
    let shown = matches!(format, KitchenFormat::Json | KitchenFormat::Human);
    let (methods, comparisons) = if shown || args.html.is_some() {
        tally.statistics(options)
    } else {
        (Vec::new(), Vec::new())
    };
    if matches!(format, KitchenFormat::Gcc | KitchenFormat::Val) {
        print!("{lines}");
    }
    let mut outcome = finish(format, &report, &tally, &methods, &comparisons, options);
    if let Some(html) = &args.html {
        let page = pddlc::html::kitchen_eval_page(&tally.tasks, &methods, &comparisons, &annotated);
        if let Err(e) = std::fs::write(html, page) {
            eprintln!(
                "error: --html: {}: {e}; no page was written",
                html.display()
            );
            outcome = outcome.max(Outcome::Failure);
        }
    }
    let plans = if tally.unreadable {
        Outcome::Failure
    } else if tally.any_failure {
        Outcome::InputErrors
    } else {
        Outcome::Clean
    };
    outcome.max(plans)
}

/// Writes one annotated result file (`--results`); a `P090` when it cannot.
fn write_result_file(path: &Path, text: &str) -> Option<FileNotes> {
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(path, text));
    let error = written.err()?;
    Some(FileNotes::io_error(
        display_name(path),
        format!("{}: {error}", path.display()),
    ))
}

fn finish(
    format: KitchenFormat,
    report: &Report,
    tally: &Tally,
    methods: &[Method],
    comparisons: &[Comparison],
    options: BootstrapOptions,
) -> Outcome {
    match format {
        KitchenFormat::Json => {
            let document = tally.document(report.json_diagnostics(), methods, comparisons, options);
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
            print!("{}", csv(&tally.tasks));
        }
        KitchenFormat::Gcc | KitchenFormat::Val => print!("{}", report.rendered()),
        KitchenFormat::Human => {
            eprint!("{}", report.rendered());
            print!("{}", table(&tally.tasks, methods, comparisons));
        }
    }
    report.outcome()
}

/// `run,task,plans,immediate,latent,irreversible,total,clean`, one row per run and task.
fn csv(tasks: &[TaskRow]) -> String {
    let quote = csv_field;
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

/// A CSV field, quoted when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The paper's Table 3 per task (as `kitchen run` prints it over the task's plans) and per
/// run, the per-method table and the comparisons, for a terminal. Every estimate shows the
/// number of tasks it is over (the table's `n`, `n=` in the comparisons); below two tasks it
/// has no interval and no test, and the line says so.
fn table(tasks: &[TaskRow], methods: &[Method], comparisons: &[Comparison]) -> String {
    let mut out = String::new();
    for t in tasks {
        out.push_str(&format!("{}/{}: {}\n", t.run, t.task, table3(&t.summary)));
    }
    out.push('\n');
    for m in methods {
        out.push_str(&format!(
            "{} ({}): {}\n",
            m.run,
            count(m.tasks, "task", "tasks"),
            table3(&m.summary)
        ));
    }
    out.push_str(&format!(
        "\n{:<16} {:>5}  {:<22} {:<22} {:<22} {:<22} {}\n",
        "method", "n", "total", "immediate", "latent", "irreversible", "clean"
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
            sum_cell(&m.total),
            sum_cell(&m.immediate),
            sum_cell(&m.latent),
            sum_cell(&m.irreversible),
            rate_cell(&m.clean)
        ));
        if let Some(reason) = m.total.reason {
            out.push_str(&format!(
                "{:<16} {:>5}  n={}: {reason}\n",
                "", "", m.total.n
            ));
        }
    }
    for c in comparisons {
        out.push_str(&comparison(c));
    }
    out
}

/// A sum with its interval, `160.6 [151.4, 169.7]`, or the value alone without one.
fn sum_cell(e: &Estimate) -> String {
    match (e.value, e.low, e.high) {
        (Some(value), Some(low), Some(high)) => format!("{value:.1} [{low:.1}, {high:.1}]"),
        (Some(value), _, _) => format!("{value:.1}"),
        (None, _, _) => "-".to_string(),
    }
}

/// A rate with its interval, `15.8% [12.8%, 18.8%]`, or the value alone without one.
fn rate_cell(e: &Estimate) -> String {
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    match (e.value, e.low, e.high) {
        (Some(value), Some(low), Some(high)) => {
            format!("{} [{}, {}]", pct(value), pct(low), pct(high))
        }
        (Some(value), _, _) => pct(value),
        (None, _, _) => "-".to_string(),
    }
}

/// One paired comparison: the mean difference of each metric with its interval, p and n, and
/// the t-test on the total.
fn comparison(c: &Comparison) -> String {
    let mut out = format!(
        "\n{} − {} ({}, mean per task):\n",
        c.a,
        c.b,
        count(c.tasks, "task", "tasks")
    );
    out.push_str(&format!("  {}\n", test_line("total", &c.total)));
    out.push_str(&t_test_line("total", c.t_test.as_ref()));
    for (name, t) in [
        ("immediate", &c.immediate),
        ("latent", &c.latent),
        ("irreversible", &c.irreversible),
    ] {
        out.push_str(&format!("  {}\n", test_line(name, t)));
    }
    out
}

/// The paired t-test's line on `metric` (`  paired t-test on total: t = …`), or nothing without
/// a test (below two tasks, where the metric's line says so).
pub fn t_test_line(metric: &str, test: Option<&TTest>) -> String {
    match test {
        Some(TTest {
            t: Some(t),
            p: Some(p),
            df,
            ..
        }) => format!(
            "  paired t-test on {metric}: t = {t:.3}, df = {df}, p = {p:.4} {}\n",
            kitchen::stars(*p)
        ),
        // scipy's NaN: no variance and no mean difference, so no statistic.
        Some(TTest { df, reason, .. }) => format!(
            "  paired t-test on {metric}: undefined, {} (df = {df})\n",
            reason.unwrap_or_default()
        ),
        None => String::new(),
    }
}

/// `total -0.50 [-0.82, -0.18] p=0.0020 ** (n=12)`, or the mean difference and why there is no
/// interval and no test (`total -0.50 (n=1: no interval and no test below 2 tasks)`).
pub fn test_line(name: &str, t: &PairedTest) -> String {
    let d = &t.mean_difference;
    let why = d.reason.unwrap_or_default();
    match (d.value, d.low, d.high, t.p) {
        (Some(value), Some(low), Some(high), Some(p)) => format!(
            "{name} {value:+.2} [{low:+.2}, {high:+.2}] p={p:.4} {} (n={})",
            kitchen::stars(p),
            d.n
        ),
        (Some(value), ..) => format!("{name} {value:+.2} (n={}: {why})", d.n),
        (None, ..) => format!("{name}: n={}: {why}", d.n),
    }
}
