//! `pddlc solve`: the built-in planner on a domain and problem.
//!
//! Human format: the plan in IPC format on stdout (so that `pddlc solve d p > p.plan` writes a
//! plan file), or `unsolvable: …` / `unknown: …`; the statistics and progress on stderr. JSON:
//! one document. Exit 0 solved, 1 unsolvable or unknown, 2 usage or input errors.

use super::input::{display_name, io_error, read_text};
use super::validate::{Task, task};
use super::{Color, Format, Outcome, outcome_of, render_diagnostics};
use pddlc::diagnostics::render::Sources;
use pddlc::diagnostics::{Diagnostic, FileId, SourceFile};
use pddlc::solve::{self, Answer, Options, Outcome as Solved, Progress, SolveRow};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// The domain file (`-` reads standard input; once per run).
    domain: PathBuf,
    /// The problem file, or `-`.
    problem: PathBuf,
    /// Also write the plan (IPC format) to this file when one is found; an existing file is
    /// refused unless `--force`.
    #[arg(long)]
    plan_file: Option<PathBuf>,
    /// Overwrite the `--plan-file` if it exists.
    #[arg(long, requires = "plan_file")]
    force: bool,
    /// Give up (`unknown`) after this many seconds of CPU time, grounding included.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Give up (`unknown`) once the planner's tables are estimated to take this many MB.
    #[arg(long, value_name = "MB")]
    memory_limit: Option<u64>,
    /// A plan prefix (IPC format): plan from the state it reaches. The plan printed is the
    /// continuation; the prefix followed by it is what is validated.
    #[arg(long, value_name = "PREFIX.plan")]
    from: Option<PathBuf>,
    /// A* with LM-cut: a plan of least cost.
    #[arg(long)]
    optimal: bool,
    /// `human` (the default) or `json`; a plan is not a diagnostic, so `gcc` and `val` are
    /// refused.
    #[arg(long, value_enum)]
    format: Option<Format>,
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Also write one self-contained HTML page of the answer: the search's statistics, the
    /// plan's timeline of states, or the proof that there is none (docs/reports.md).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// The CPU time (user and system) this process has used: the clock `--time-limit` counts.
pub fn cpu_time() -> Duration {
    // SAFETY: getrusage writes into the struct we pass and reads nothing else.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return Duration::ZERO;
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// The peak resident memory of this process, in MB.
fn peak_memory_mb() -> f64 {
    // SAFETY: getrusage writes into the struct we pass and reads nothing else.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0.0;
    }
    // Linux reports kilobytes.
    usage.ru_maxrss as f64 / 1024.0
}

fn limits(args: &Args) -> Result<Options, String> {
    let time_limit = match args.time_limit {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
        Some(s) => return Err(format!("--time-limit must be a positive number, not {s}")),
    };
    let memory_limit = match args.memory_limit {
        None => None,
        Some(0) => return Err("--memory-limit must be at least 1 MB".into()),
        Some(mb) => Some((mb as usize).saturating_mul(1 << 20)),
    };
    Ok(Options {
        time_limit,
        memory_limit,
        optimal: args.optimal,
        clock: Some(cpu_time),
        ..Options::default()
    })
}

pub fn run(args: &Args) -> Outcome {
    let format = Format::or_default(args.format);
    if matches!(format, Format::Gcc | Format::Val) {
        eprintln!("error: solve prints a plan, not diagnostics: use --format human or json");
        return Outcome::Failure;
    }
    let options = match limits(args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::Failure;
        }
    };
    if let Err(message) = check_outputs(args) {
        eprintln!("error: {message}");
        return Outcome::Failure;
    }
    let color = args.color.enabled();
    let Task {
        domain,
        problem,
        mut sources,
        ..
    } = match task(&args.domain, &args.problem) {
        Ok(task) => task,
        Err((sources, diagnostics)) => return input_errors(format, &sources, &diagnostics, color),
    };
    let mut options = options;
    if let Some(path) = &args.from {
        match read_text(path) {
            Ok(text) => {
                sources.push(SourceFile::new(display_name(path), text.clone()));
                options.prefix = Some(text);
            }
            Err(message) => {
                sources.push(SourceFile::new(display_name(path), String::new()));
                let diagnostics = [io_error(&message, FileId(2))];
                return input_errors(format, &sources, &diagnostics, color);
            }
        }
    }
    let show_progress = format.is_human() && std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut last = Instant::now();
    let mut progress = |p: &Progress| {
        if show_progress && last.elapsed() >= Duration::from_millis(200) {
            last = Instant::now();
            eprint!(
                "\r{:.1} s: {} expanded, {} evaluated, best h {}   ",
                started.elapsed().as_secs_f64(),
                p.expanded,
                p.evaluated,
                p.best_h.map_or("-".into(), |h| h.to_string())
            );
        }
    };
    let result = solve::solve(&domain, &problem, &options, &mut progress);
    if show_progress {
        eprint!("\r\x1b[K");
    }
    let answer = match result {
        Ok(answer) => answer,
        Err(diagnostics) => return input_errors(format, &sources, &diagnostics, color),
    };
    let mut written = None;
    if let (Solved::Solved { plan, cost }, Some(path)) = (&answer.outcome, &args.plan_file) {
        let text = solve::plan_text(plan, *cost, answer.action_costs);
        if let Err(e) = write_plan(path, &text, args.force) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return Outcome::Failure;
        }
        written = Some(display_name(path));
    }
    let peak = peak_memory_mb();
    print_answer(format, &answer, &sources, written, peak, color);
    if let Some(html) = &args.html {
        let names = (sources[0].name.as_str(), sources[1].name.as_str());
        let prefix = options.prefix.as_deref();
        if let Err(message) = write_html(html, &domain, &problem, names, &answer, prefix) {
            eprintln!("error: --html: {message}; no page was written");
            return Outcome::Failure;
        }
    }
    match answer.outcome {
        Solved::Solved { .. } => Outcome::Clean,
        _ => Outcome::InputErrors,
    }
}

/// Refuses outputs that would overwrite a plan without `--force`, or an input.
fn check_outputs(args: &Args) -> Result<(), String> {
    if let Some(path) = &args.plan_file
        && path.exists()
        && !args.force
    {
        return Err(format!(
            "{} exists: give --force to overwrite it, or another --plan-file",
            path.display()
        ));
    }
    if let Some(html) = &args.html {
        let inputs: Vec<&Path> = [Some(&args.domain), Some(&args.problem), args.from.as_ref()]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path)
            .collect();
        super::input::check_output(html, &inputs)
            .map_err(|message| format!("--html: {message}"))?;
    }
    Ok(())
}

/// Prints the answer: a JSON document, or warnings on stderr and the plan.
fn print_answer(
    format: Format,
    answer: &Answer,
    sources: &[SourceFile],
    written: Option<String>,
    peak: f64,
    color: bool,
) {
    let view = Sources::new(sources);
    if let Format::Json = format {
        let document = SolveRow::answer(answer, &view, written, Some(peak));
        println!(
            "{}",
            serde_json::to_string_pretty(&document).unwrap_or_default()
        );
        return;
    }
    if !answer.warnings.is_empty() {
        eprint!(
            "{}",
            render_diagnostics(format, &answer.warnings, &view, color)
        );
    }
    human(answer, peak);
}

fn write_html(
    html: &Path,
    domain: &pddlc::ast::Domain,
    problem: &pddlc::ast::Problem,
    names: (&str, &str),
    answer: &Answer,
    prefix: Option<&str>,
) -> Result<(), String> {
    let page = pddlc::html::solve_page(domain, problem, names, answer, prefix)
        .map_err(|d| format!("{} [{}]", d.message, d.code))?;
    std::fs::write(html, page).map_err(|e| format!("{}: {e}", html.display()))
}

fn write_plan(path: &std::path::Path, text: &str, force: bool) -> std::io::Result<()> {
    let mut file = if force {
        std::fs::File::create(path)?
    } else {
        // Refused, even if the file appeared while we searched.
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)?
    };
    file.write_all(text.as_bytes())
}

/// The task cannot be solved as given: its diagnostics; exit 1 (2 when an input could not be
/// read), as `validate` exits on a task it cannot use.
fn input_errors(
    format: Format,
    sources: &[pddlc::diagnostics::SourceFile],
    diagnostics: &[Diagnostic],
    color: bool,
) -> Outcome {
    let view = Sources::new(sources);
    if format == Format::Json {
        let document = SolveRow::unusable(diagnostics, &view);
        println!(
            "{}",
            serde_json::to_string_pretty(&document).unwrap_or_default()
        );
    } else {
        eprint!("{}", render_diagnostics(format, diagnostics, &view, color));
        eprintln!(
            "error: no plan was searched for: the task (or the prefix) cannot be used as given"
        );
    }
    outcome_of(diagnostics, false).max(Outcome::InputErrors)
}

fn human(answer: &Answer, peak: f64) {
    match &answer.outcome {
        Solved::Solved { plan, cost } => {
            print!("{}", solve::plan_text(plan, *cost, answer.action_costs));
        }
        Solved::Unsolvable(why) => println!("unsolvable: {why}"),
        Solved::Unknown(limit) => println!(
            "unknown: the {} limit was reached before a plan or a proof was found",
            match limit {
                solve::Limit::Time => "time",
                solve::Limit::Memory => "memory",
            }
        ),
    }
    let s = &answer.statistics;
    eprintln!(
        "{}: grounding {:.3} s ({} atoms, {} operators, {} axioms), search {:.3} s ({} expanded, {} evaluated, {} generated), peak memory {:.0} MB",
        solve::status(&answer.outcome),
        s.grounding_seconds,
        s.atoms,
        s.operators,
        s.axioms,
        s.search_seconds,
        s.expanded,
        s.evaluated,
        s.generated,
        peak
    );
}
