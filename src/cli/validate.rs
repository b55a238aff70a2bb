//! `pddlc validate` and `pddlc applicable`: plans against a domain and problem.

use super::input::load;
use super::{Color, Format, Outcome, render_diagnostics};
use pddlc::ast::{Domain, PddlFile, Problem};
use pddlc::check::{self, Files};
use pddlc::diagnostics::render::{self, Sources};
use pddlc::diagnostics::{Diagnostic, FileId, SourceFile};
use pddlc::plan::{Report, TaskFiles, ValidateOptions};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    domain: PathBuf,
    problem: PathBuf,
    /// Plans in IPC format: one `(action arg…)` per line, optional `t: (…) [d]`.
    #[arg(required = true)]
    plans: Vec<PathBuf>,
    /// Output format: `human` on a terminal, `json` otherwise; `gcc` and `val` print one line
    /// per failure, located on the plan step, for editors.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Keep simulating after a failure (applying the step's effects anyway) and report every one.
    #[arg(long = "continue")]
    keep_going: bool,
    /// Steps whose times are this close form one happening, as VAL's `-t`.
    #[arg(long, default_value_t = 0.01)]
    tolerance: f64,
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

#[derive(clap::Args)]
pub struct ApplicableArgs {
    domain: PathBuf,
    problem: PathBuf,
    /// A plan prefix; without it, the initial state.
    plan: Option<PathBuf>,
    /// Output format: one ground action a line (`human`), or JSON; diagnostics in the format
    /// asked for.
    #[arg(long, value_enum)]
    format: Option<Format>,
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

/// A task, parsed and checked, with the sources of its domain (file 0) and problem (file 1).
struct Task {
    domain: Domain,
    problem: Problem,
    sources: Vec<SourceFile>,
}

/// The task, parsed and checked; on errors, the diagnostics rendered in `format`.
fn task(domain: &Path, problem: &Path, format: Format, color: bool) -> Result<Task, Outcome> {
    let d = load(domain, FileId(0)).map_err(|m| {
        eprintln!("error: {m}");
        Outcome::Failure
    })?;
    let p = load(problem, FileId(1)).map_err(|m| {
        eprintln!("error: {m}");
        Outcome::Failure
    })?;
    let mut diagnostics: Vec<Diagnostic> = d.diagnostics.clone();
    diagnostics.extend(p.diagnostics.clone());
    let sources = vec![d.source, p.source];
    let pair = match (d.file, p.file) {
        (Some(PddlFile::Domain(domain)), Some(PddlFile::Problem(problem))) => {
            diagnostics.extend(check::domain(&domain, FileId(0)));
            diagnostics.extend(check::problem(&domain, &problem, Files::default()));
            Some((domain, problem))
        }
        _ => None,
    };
    let mut errors: Vec<Diagnostic> = diagnostics
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    pddlc::diagnostics::sort(&mut errors);
    match pair {
        Some((domain, problem)) if errors.is_empty() => Ok(Task {
            domain,
            problem,
            sources,
        }),
        _ => {
            print!(
                "{}",
                render_diagnostics(format, &errors, &Sources::new(&sources), color)
            );
            eprintln!("error: the domain and problem must be valid before a plan can be validated");
            Err(Outcome::InputErrors)
        }
    }
}

/// A report with the plan it is about, fields in the order of the JSON contract, and its
/// diagnostics located in the domain, problem and plan.
#[derive(serde::Serialize)]
struct PlanReport<'a> {
    plan: String,
    #[serde(flatten)]
    report: &'a Report,
    diagnostics: serde_json::Value,
}

fn json(report: &Report, plan: &Path, sources: &Sources) -> serde_json::Value {
    let diagnostics: Vec<Diagnostic> = report.diagnostics().cloned().collect();
    let value = PlanReport {
        plan: plan.display().to_string(),
        report,
        diagnostics: render::json_diagnostics(&diagnostics, sources),
    };
    serde_json::to_value(value).unwrap_or_default()
}

fn human(report: &Report, plan: &Path, sources: &Sources, color: bool) -> String {
    let name = plan.display();
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
    out.push_str(&render_diagnostics(
        Format::Human,
        &diagnostics,
        sources,
        color,
    ));
    out
}

fn show(value: Option<f64>) -> String {
    value.map_or("-".into(), |v| format!("{v}"))
}

/// The output format: `human` on a terminal, JSON otherwise.
fn format_or_default(format: Option<Format>) -> Format {
    format.unwrap_or(if std::io::stdout().is_terminal() {
        Format::Human
    } else {
        Format::Json
    })
}

fn read_plan(path: &Path) -> Result<String, Outcome> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(String::from_utf8_lossy(&bytes).to_string()),
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            Err(Outcome::Failure)
        }
    }
}

pub fn run(args: &Args) -> Outcome {
    let format = format_or_default(args.format);
    let color = args.color.enabled();
    let Task {
        domain,
        problem,
        mut sources,
    } = match task(&args.domain, &args.problem, format, color) {
        Ok(task) => task,
        Err(outcome) => return outcome,
    };
    let mut outcome = Outcome::Clean;
    let mut reports = Vec::new();
    for (index, path) in args.plans.iter().enumerate() {
        let text = match read_plan(path) {
            Ok(text) => text,
            Err(outcome) => return outcome,
        };
        let options = ValidateOptions {
            keep_going: args.keep_going,
            tolerance: args.tolerance,
            files: TaskFiles {
                plan: FileId(2 + index as u32),
                ..TaskFiles::default()
            },
        };
        sources.push(SourceFile::new(path.display().to_string(), text));
        let report = pddlc::plan::validate(&domain, &problem, &sources[2 + index].text, &options);
        if report.valid != Some(true) {
            outcome = Outcome::InputErrors;
        }
        let view = Sources::new(&sources);
        match format {
            Format::Human => print!("{}", human(&report, path, &view, color)),
            Format::Json => reports.push(json(&report, path, &view)),
            Format::Gcc | Format::Val => {
                let diagnostics: Vec<Diagnostic> = report.diagnostics().cloned().collect();
                print!("{}", render_diagnostics(format, &diagnostics, &view, color));
            }
        }
    }
    if format == Format::Json {
        let value = match reports.len() {
            1 => reports.remove(0),
            _ => serde_json::json!({ "plans": reports }),
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
    }
    outcome
}

pub fn applicable(args: &ApplicableArgs) -> Outcome {
    let format = args.format.unwrap_or(Format::Human);
    let color = args.color.enabled();
    let Task {
        domain,
        problem,
        mut sources,
    } = match task(&args.domain, &args.problem, format, color) {
        Ok(task) => task,
        Err(outcome) => return outcome,
    };
    let (name, text) = match &args.plan {
        None => (String::new(), String::new()),
        Some(path) => match read_plan(path) {
            Ok(text) => (path.display().to_string(), text),
            Err(outcome) => return outcome,
        },
    };
    sources.push(SourceFile::new(name.clone(), text));
    match pddlc::plan::applicable(&domain, &problem, &sources[2].text) {
        Ok(actions) => {
            match format {
                Format::Json => println!("{}", serde_json::json!({ "applicable": actions })),
                _ => actions.iter().for_each(|a| println!("{a}")),
            }
            Outcome::Clean
        }
        Err(report) => {
            let view = Sources::new(&sources);
            match format {
                Format::Human => print!("{}", human(&report, Path::new(&name), &view, color)),
                Format::Json => println!("{}", json(&report, Path::new(&name), &view)),
                Format::Gcc | Format::Val => {
                    let diagnostics: Vec<Diagnostic> = report.diagnostics().cloned().collect();
                    print!("{}", render_diagnostics(format, &diagnostics, &view, color));
                }
            }
            Outcome::InputErrors
        }
    }
}
