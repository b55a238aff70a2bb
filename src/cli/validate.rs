//! `pddlc validate` and `pddlc applicable`: plans against a domain and problem.

use super::input::{display_name, io_error, read_source, read_text};
use super::{Color, Format, Outcome, outcome_of, render_diagnostics};
use pddlc::ast::{Domain, Problem};
use pddlc::diagnostics::TaskFiles;
use pddlc::diagnostics::render::{self, JSON_VERSION, Sources};
use pddlc::diagnostics::{Diagnostic, FileId, SourceFile};
use pddlc::validate::{PlanRow, Report, ValidateOptions};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The domain file (`-` reads standard input; once per run).
    domain: PathBuf,
    /// The problem file, or `-`.
    problem: PathBuf,
    /// Plans in IPC format: one `(action arg…)` per line, optional `t: (…) [d]`; `-` for one.
    #[arg(required = true)]
    plans: Vec<PathBuf>,
    /// Output format: `human` by default (the verdicts, then the diagnostics: miette's report on
    /// a terminal, `gcc` lines otherwise); `gcc` and `val` print one line per failure, located
    /// on the plan step, for editors.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Keep simulating after a failure (applying the step's effects anyway) and report every one
    /// (`--continue` is the older name; Python's `keep_going`).
    #[arg(long, alias = "continue")]
    keep_going: bool,
    /// Steps whose times are this close form one happening, as VAL's `-t`.
    #[arg(long, default_value_t = 0.01)]
    tolerance: f64,
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Exit 1 on the task's warnings too (they are then shown).
    #[arg(long)]
    deny_warnings: bool,
    /// Also write one self-contained HTML page of the plans: each as a timeline of states, the
    /// failing step with the preconditions that do not hold, the goal's unmet atoms
    /// (docs/reports.md). Classical and numeric tasks; what is printed is unchanged.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct ApplicableArgs {
    domain: PathBuf,
    problem: PathBuf,
    /// A plan prefix; without it, the initial state.
    plan: Option<PathBuf>,
    /// Only the K actions whose successors are closest to the goal (the planner's h^FF),
    /// closest first, each with its value (`dead-end` when the goal is unreachable from it).
    #[arg(long, value_name = "K")]
    rank: Option<usize>,
    /// Output format: one ground action a line (`human`), or JSON; diagnostics in the format
    /// asked for.
    #[arg(long, value_enum)]
    format: Option<Format>,
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

/// A task, parsed and checked, with the sources of its domain (file 0) and problem (file 1).
pub(super) struct Task {
    pub(super) domain: Domain,
    pub(super) problem: Problem,
    pub(super) sources: Vec<SourceFile>,
    /// The task's warnings, which count under `--deny-warnings`.
    warnings: Vec<Diagnostic>,
}

/// The task, read and handed to the library's task layer; when it cannot be used, its sources
/// and the errors that say why (unreadable inputs, parse and check errors, a problem given as
/// the domain or the two swapped).
pub(super) fn task(
    domain: &Path,
    problem: &Path,
) -> Result<Task, (Vec<SourceFile>, Vec<Diagnostic>)> {
    let files = TaskFiles::default();
    let (domain_source, mut unreadable) = read_source(domain, files.domain);
    let (problem_source, problem_unreadable) = read_source(problem, files.problem);
    let domain_text = unreadable.is_empty().then_some(domain_source.text.as_str());
    let problem_text = problem_unreadable
        .is_empty()
        .then_some(problem_source.text.as_str());
    let loaded = pddlc::task::load(domain_text, problem_text, files);
    unreadable.extend(problem_unreadable);
    let sources = vec![domain_source, problem_source];
    match loaded {
        Ok(task) if unreadable.is_empty() => Ok(Task {
            domain: task.domain,
            problem: task.problem,
            sources,
            warnings: task.warnings,
        }),
        Ok(_) => Err((sources, unreadable)),
        Err(mut diagnostics) => {
            diagnostics.retain(Diagnostic::is_error);
            diagnostics.extend(unreadable);
            pddlc::diagnostics::sort(&mut diagnostics);
            Err((sources, diagnostics))
        }
    }
}

/// Prints why the task cannot be used, in `format` (JSON: the versioned document with no
/// plans), and returns the exit code.
fn report_task(
    format: Format,
    sources: &[SourceFile],
    diagnostics: &[Diagnostic],
    color: bool,
    json_key: &str,
) -> Outcome {
    let view = Sources::new(sources);
    if format == Format::Json {
        let document = serde_json::json!({
            "version": JSON_VERSION,
            "diagnostics": render::json_diagnostics(diagnostics, &view),
            // Nothing was validated or listed.
            json_key: if json_key == "plans" { serde_json::json!([]) } else { serde_json::Value::Null },
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&document).unwrap_or_default()
        );
    } else {
        print!("{}", render_diagnostics(format, diagnostics, &view, color));
    }
    let outcome = outcome_of(diagnostics, false).max(Outcome::InputErrors);
    if outcome == Outcome::InputErrors {
        eprintln!("error: the domain and problem must be valid before a plan can be validated");
    }
    outcome
}

/// A plan's row of the JSON contract, the library's typed `PlanRow`.
fn json(report: &Report, plan: &Path, sources: &Sources) -> serde_json::Value {
    let diagnostics: Vec<Diagnostic> = report.diagnostics().cloned().collect();
    let name = display_name(plan);
    let row = PlanRow::new(&name, Some(report), &diagnostics, sources);
    serde_json::to_value(row).unwrap_or_default()
}

fn human(report: &Report, plan: &Path, sources: &Sources, format: Format, color: bool) -> String {
    let name = display_name(plan);
    let mut out = match report.valid {
        Some(true) => format!(
            "{name}: valid, {} steps, value {}\n",
            report.steps,
            show(report.metric)
        ),
        Some(false) => format!("{name}: invalid\n"),
        None => format!("{name}: no verdict\n"),
    };
    let diagnostics: Vec<Diagnostic> = report.diagnostics().cloned().collect();
    out.push_str(&render_diagnostics(format, &diagnostics, sources, color));
    out
}

fn show(value: Option<f64>) -> String {
    value.map_or("-".into(), |v| format!("{v}"))
}

/// The output format: the convention's default (docs/cli.md) unless one is asked for.
fn format_or_default(format: Option<Format>) -> Format {
    Format::or_default(format)
}

pub fn run(args: &Args) -> Outcome {
    let format = format_or_default(args.format);
    let color = args.color.enabled();
    if let Some(html) = &args.html {
        let inputs: Vec<&Path> = [args.domain.as_path(), args.problem.as_path()]
            .into_iter()
            .chain(args.plans.iter().map(PathBuf::as_path))
            .collect();
        if let Err(message) = super::input::check_output(html, &inputs) {
            eprintln!("error: --html: {message}");
            return Outcome::Failure;
        }
    }
    let mut pages: Vec<(usize, Report)> = Vec::new();
    let Task {
        domain,
        problem,
        mut sources,
        warnings,
    } = match task(&args.domain, &args.problem) {
        Ok(task) => task,
        Err((sources, diagnostics)) => {
            return report_task(format, &sources, &diagnostics, color, "plans");
        }
    };
    let mut outcome = Outcome::Clean;
    let shown: &[Diagnostic] = if args.deny_warnings { &warnings } else { &[] };
    if args.deny_warnings && !warnings.is_empty() {
        outcome = Outcome::InputErrors;
    }
    if format != Format::Json {
        let view = Sources::new(&sources);
        print!("{}", render_diagnostics(format, shown, &view, color));
    }
    let mut reports = Vec::new();
    // A plan without a verdict exits 3, unless another plan is invalid or unreadable.
    let mut no_verdict = false;
    for (index, path) in args.plans.iter().enumerate() {
        let file = FileId(2 + index as u32);
        let text = match read_text(path) {
            Ok(text) => text,
            Err(message) => {
                // An unreadable plan is a row of its own; the other plans' results are kept.
                outcome = Outcome::Failure;
                sources.push(SourceFile::new(display_name(path), String::new()));
                let diagnostics = [io_error(&message, file)];
                let view = Sources::new(&sources);
                match format {
                    Format::Json => {
                        let name = display_name(path);
                        let row = PlanRow::new(&name, None, &diagnostics, &view);
                        reports.push(serde_json::to_value(row).unwrap_or_default());
                    }
                    _ => print!("{}", render_diagnostics(format, &diagnostics, &view, color)),
                }
                continue;
            }
        };
        let options = ValidateOptions {
            keep_going: args.keep_going,
            tolerance: args.tolerance,
            files: TaskFiles {
                plan: file,
                ..TaskFiles::default()
            },
        };
        sources.push(SourceFile::new(display_name(path), text));
        let report =
            pddlc::validate::validate(&domain, &problem, &sources[2 + index].text, &options);
        match report.valid {
            Some(true) => {}
            Some(false) => outcome = outcome.max(Outcome::InputErrors),
            None => no_verdict = true,
        }
        let view = Sources::new(&sources);
        match format {
            Format::Human | Format::Plain => {
                print!("{}", human(&report, path, &view, format, color))
            }
            Format::Json => reports.push(json(&report, path, &view)),
            Format::Gcc | Format::Val => {
                let diagnostics: Vec<Diagnostic> = report.diagnostics().cloned().collect();
                print!("{}", render_diagnostics(format, &diagnostics, &view, color));
            }
        }
        if args.html.is_some() {
            pages.push((2 + index, report));
        }
    }
    if let Some(html) = &args.html
        && let Err(message) = write_page(html, &domain, &problem, &sources, &pages)
    {
        eprintln!("error: --html: {message}; no page was written");
        outcome = outcome.max(Outcome::Failure);
    }
    if format == Format::Json {
        let view = Sources::new(&sources);
        let document = serde_json::json!({
            "version": JSON_VERSION,
            "diagnostics": render::json_diagnostics(shown, &view),
            "plans": reports,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&document).unwrap_or_default()
        );
    }
    if no_verdict && outcome == Outcome::Clean {
        return Outcome::NoVerdict;
    }
    outcome
}

/// Writes the page of the plans (`pages`: each plan's source index and report) to `html`.
fn write_page(
    html: &Path,
    domain: &Domain,
    problem: &Problem,
    sources: &[SourceFile],
    pages: &[(usize, Report)],
) -> Result<(), String> {
    let plans: Vec<pddlc::html::PlanPage> = pages
        .iter()
        .map(|(source, report)| pddlc::html::PlanPage {
            name: &sources[*source].name,
            text: &sources[*source].text,
            report,
        })
        .collect();
    let names = (sources[0].name.as_str(), sources[1].name.as_str());
    let page = pddlc::html::validate_page(domain, problem, names, &plans)
        .map_err(|d| format!("{} [{}]", d.message, d.code))?;
    std::fs::write(html, page).map_err(|e| format!("{}: {e}", html.display()))
}

pub fn applicable(args: &ApplicableArgs) -> Outcome {
    let format = Format::or_default(args.format);
    let color = args.color.enabled();
    let Task {
        domain,
        problem,
        mut sources,
        ..
    } = match task(&args.domain, &args.problem) {
        Ok(task) => task,
        Err((sources, diagnostics)) => {
            return report_task(format, &sources, &diagnostics, color, "applicable");
        }
    };
    let (name, text) = match &args.plan {
        None => (String::new(), String::new()),
        Some(path) => match read_text(path) {
            Ok(text) => (display_name(path), text),
            Err(message) => {
                sources.push(SourceFile::new(display_name(path), String::new()));
                let diagnostics = [io_error(&message, FileId(2))];
                return report_task(format, &sources, &diagnostics, color, "applicable");
            }
        },
    };
    sources.push(SourceFile::new(name.clone(), text));
    if let Some(k) = args.rank {
        return ranked(format, &domain, &problem, &sources, k, color);
    }
    match pddlc::validate::applicable(&domain, &problem, &sources[2].text) {
        Ok(actions) => {
            match format {
                Format::Json => println!(
                    "{}",
                    serde_json::json!({
                        "version": JSON_VERSION,
                        "diagnostics": [],
                        "applicable": actions,
                    })
                ),
                _ => actions.iter().for_each(|a| println!("{a}")),
            }
            Outcome::Clean
        }
        Err(report) => {
            let view = Sources::new(&sources);
            match format {
                Format::Human | Format::Plain => {
                    print!("{}", human(&report, Path::new(&name), &view, format, color))
                }
                Format::Json => {
                    let mut value = json(&report, Path::new(&name), &view);
                    if let Some(object) = value.as_object_mut() {
                        object.insert("version".into(), JSON_VERSION.into());
                        object.insert("applicable".into(), serde_json::Value::Null);
                    }
                    println!("{value}")
                }
                Format::Gcc | Format::Val => {
                    let diagnostics: Vec<Diagnostic> = report.diagnostics().cloned().collect();
                    print!("{}", render_diagnostics(format, &diagnostics, &view, color));
                }
            }
            if report.valid.is_none() {
                Outcome::NoVerdict
            } else {
                Outcome::InputErrors
            }
        }
    }
}

/// `applicable --rank K`: the K actions closest to the goal, by the planner's heuristic.
fn ranked(
    format: Format,
    domain: &Domain,
    problem: &Problem,
    sources: &[SourceFile],
    k: usize,
    color: bool,
) -> Outcome {
    let prefix = sources.get(2).map_or("", |s| s.text.as_str());
    match pddlc::solve::rank(domain, problem, prefix, k, TaskFiles::default()) {
        Ok(ranked) => {
            match format {
                Format::Json => println!(
                    "{}",
                    serde_json::json!({
                        "version": JSON_VERSION,
                        "diagnostics": [],
                        "applicable": ranked.iter().map(|r| r.action.as_str()).collect::<Vec<_>>(),
                        "ranked": ranked,
                    })
                ),
                _ => {
                    for r in &ranked {
                        let h = r.h.map_or("dead-end".into(), |h| h.to_string());
                        println!("{} {h}", r.action);
                    }
                }
            }
            Outcome::Clean
        }
        Err(diagnostics) => {
            let view = Sources::new(sources);
            if format == Format::Json {
                println!(
                    "{}",
                    serde_json::json!({
                        "version": JSON_VERSION,
                        "diagnostics": render::json_diagnostics(&diagnostics, &view),
                        "applicable": null,
                        "ranked": null,
                    })
                );
            } else {
                print!("{}", render_diagnostics(format, &diagnostics, &view, color));
            }
            Outcome::InputErrors
        }
    }
}
