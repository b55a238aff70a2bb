//! `pddlc validate` and `pddlc applicable`: plans against a domain and problem.

use super::input::load;
use super::{Color, Outcome};
use pddlc::ast::{Domain, PddlFile, Problem};
use pddlc::check::{self, Files};
use pddlc::diagnostics::render::{self, HumanOptions, Sources};
use pddlc::diagnostics::{Diagnostic, FileId, SourceFile};
use pddlc::plan::{Report, ValidateOptions};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
}

#[derive(clap::Args)]
pub struct Args {
    domain: PathBuf,
    problem: PathBuf,
    /// Plans in IPC format: one `(action arg…)` per line, optional `t: (…) [d]`.
    #[arg(required = true)]
    plans: Vec<PathBuf>,
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
    #[arg(long, value_enum)]
    format: Option<Format>,
}

/// The task, parsed and checked; on errors, the rendered diagnostics.
fn task(domain: &Path, problem: &Path) -> Result<(Domain, Problem), Outcome> {
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
    let sources = [d.source, p.source];
    let pair = match (d.file, p.file) {
        (Some(PddlFile::Domain(domain)), Some(PddlFile::Problem(problem))) => {
            diagnostics.extend(check::domain(&domain, FileId(0)));
            diagnostics.extend(check::problem(&domain, &problem, Files::default()));
            Some((domain, problem))
        }
        _ => None,
    };
    let errors: Vec<Diagnostic> = diagnostics
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    match pair {
        Some(pair) if errors.is_empty() => Ok(pair),
        _ => {
            eprint!("{}", render::gcc(&errors, &Sources::new(&sources)));
            eprintln!("error: the domain and problem must be valid before a plan can be validated");
            Err(Outcome::InputErrors)
        }
    }
}

/// A report with the plan it is about, fields in the order of the JSON contract.
#[derive(serde::Serialize)]
struct PlanReport<'a> {
    plan: String,
    #[serde(flatten)]
    report: &'a Report,
}

fn json(report: &Report, plan: &Path) -> serde_json::Value {
    let value = PlanReport {
        plan: plan.display().to_string(),
        report,
    };
    serde_json::to_value(value).unwrap_or_default()
}

fn human(report: &Report, plan: &Path, text: &str, color: bool) -> String {
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
    let sources = [SourceFile::new(name.to_string(), text)];
    let options = HumanOptions { color, width: 100 };
    out.push_str(&render::human(
        &report.diagnostics,
        &Sources::new(&sources),
        &options,
    ));
    for failure in &report.failures {
        if failure.kind == pddlc::plan::FailureKind::Goal {
            for atom in &failure.atoms {
                out.push_str(&format!("  unmet goal: {atom}\n"));
            }
        }
    }
    out
}

fn show(value: Option<f64>) -> String {
    value.map_or("-".into(), |v| format!("{v}"))
}

pub fn run(args: &Args) -> Outcome {
    let (domain, problem) = match task(&args.domain, &args.problem) {
        Ok(pair) => pair,
        Err(outcome) => return outcome,
    };
    let options = ValidateOptions {
        keep_going: args.keep_going,
        tolerance: args.tolerance,
    };
    let terminal = std::io::stdout().is_terminal();
    let format = args.format.unwrap_or(if terminal {
        Format::Human
    } else {
        Format::Json
    });
    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => terminal,
    };
    let mut outcome = Outcome::Clean;
    let mut reports = Vec::new();
    for path in &args.plans {
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).to_string(),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return Outcome::Failure;
            }
        };
        let report = pddlc::plan::validate(&domain, &problem, &text, &options);
        if report.valid != Some(true) {
            outcome = Outcome::InputErrors;
        }
        match format {
            Format::Human => print!("{}", human(&report, path, &text, color)),
            Format::Json => reports.push(json(&report, path)),
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
    let (domain, problem) = match task(&args.domain, &args.problem) {
        Ok(pair) => pair,
        Err(outcome) => return outcome,
    };
    let text = match &args.plan {
        None => String::new(),
        Some(path) => match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).to_string(),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return Outcome::Failure;
            }
        },
    };
    let format = args.format.unwrap_or(Format::Human);
    match pddlc::plan::applicable(&domain, &problem, &text) {
        Ok(actions) => {
            match format {
                Format::Human => actions.iter().for_each(|a| println!("{a}")),
                Format::Json => println!("{}", serde_json::json!({ "applicable": actions })),
            }
            Outcome::Clean
        }
        Err(report) => {
            let name = args
                .plan
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            match format {
                Format::Human => print!("{}", human(&report, Path::new(&name), &text, false)),
                Format::Json => println!("{}", json(&report, Path::new(&name))),
            }
            Outcome::InputErrors
        }
    }
}
