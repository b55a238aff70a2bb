//! `pddlc worldmodel make`: evaluation items for LLM world models from a task and a reference
//! plan (docs/worldmodel.md). The items are JSON lines on standard output; a count by kind goes
//! to standard error. Exit 0 with items, 1 when the task or plan cannot be used, 2 usage or I/O.

use super::input::{display_name, read_text};
use super::solve::cpu_time;
use super::validate::{Task, task};
pub use super::worldmodel_score::ScoreArgs;
use super::{Color, Format, Outcome, outcome_of, render_diagnostics};
use pddlc::diagnostics::SourceFile;
use pddlc::diagnostics::render::Sources;
use pddlc::worldmodel::{self, Item, MakeOptions, TaskRecord};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Next-state, verification (with mutated plans, labelled by running them), proposal and
    /// planning items around a reference plan, one JSON line each (after the task's record).
    Make(MakeArgs),
    /// A model's predictions (JSON lines, by item id) against items `make` wrote: next-state
    /// exact and atom F1, verification accuracy with false positive and negative rates, top-K
    /// proposal accuracy against three sets, planning success; per task and overall, with
    /// bootstrap intervals.
    Score(ScoreArgs),
}

#[derive(clap::Args)]
struct MakeArgs {
    /// The domain file.
    domain: PathBuf,
    /// The problem file.
    problem: PathBuf,
    /// The reference plan (IPC format); without it, the built-in planner's.
    #[arg(long, value_name = "PLAN")]
    plan: Option<PathBuf>,
    /// Seeds the mutations and the alternative actions.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The fractions of the plan left to the model in verification and planning items.
    #[arg(long, value_delimiter = ',', default_value = "0.25,0.5,0.75,1")]
    fractions: Vec<f64>,
    /// Leave out the proposal items (they take an optimal search per state and successor).
    #[arg(long)]
    no_proposals: bool,
    /// CPU seconds one search may take.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    search_time: f64,
    /// How diagnostics are shown (`json`: one document on standard output instead of items).
    #[arg(long, value_enum)]
    format: Option<Format>,
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

pub fn run(args: &Args) -> Outcome {
    match &args.command {
        Command::Make(args) => make(args),
        Command::Score(args) => super::worldmodel_score::run(args),
    }
}

fn make(args: &MakeArgs) -> Outcome {
    let format = Format::or_default(args.format);
    let color = args.color.enabled();
    if args
        .fractions
        .iter()
        .any(|f| !(f.is_finite() && *f > 0.0 && *f <= 1.0))
    {
        eprintln!("error: --fractions are numbers in (0, 1], such as 0.25,0.5,0.75,1");
        return Outcome::Failure;
    }
    if !(args.search_time.is_finite() && args.search_time > 0.0) {
        eprintln!("error: --search-time must be a positive number of seconds");
        return Outcome::Failure;
    }
    let Task {
        domain,
        problem,
        mut sources,
        ..
    } = match task(&args.domain, &args.problem) {
        Ok(task) => task,
        Err((sources, diagnostics)) => return failed(format, &sources, &diagnostics, color),
    };
    let plan = match &args.plan {
        None => None,
        Some(path) => match read_text(path) {
            Ok(text) => {
                sources.push(SourceFile::new(display_name(path), text.clone()));
                Some(text)
            }
            Err(message) => {
                eprintln!("error: {message}");
                return Outcome::Failure;
            }
        },
    };
    let options = MakeOptions {
        seed: args.seed,
        fractions: args.fractions.clone(),
        proposals: !args.no_proposals,
        search_time: Duration::from_secs_f64(args.search_time),
        clock: Some(cpu_time),
    };
    let items = match worldmodel::make(&domain, &problem, plan.as_deref(), &options) {
        Ok(items) => items,
        Err(diagnostics) => return failed(format, &sources, &diagnostics, color),
    };
    let record = TaskRecord {
        task: problem.name.to_string(),
        domain: args.domain.display().to_string(),
        problem: args.problem.display().to_string(),
    };
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for item in &items {
        *counts.entry(kind(item)).or_default() += 1;
    }
    if std::io::stdout()
        .lock()
        .write_all(worldmodel::items_jsonl(&record, &items).as_bytes())
        .is_err()
    {
        return Outcome::Failure;
    }
    let counts: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
    eprintln!("{} items: {}", items.len(), counts.join(", "));
    Outcome::Clean
}

fn kind(item: &Item) -> &'static str {
    match item {
        Item::NextState { .. } => "next_state",
        Item::Verification { .. } => "verification",
        Item::Proposal { .. } => "proposal",
        Item::Planning { .. } => "planning",
    }
}

fn failed(
    format: Format,
    sources: &[SourceFile],
    diagnostics: &[pddlc::diagnostics::Diagnostic],
    color: bool,
) -> Outcome {
    let view = Sources::new(sources);
    if format == Format::Json {
        print!("{}", render_diagnostics(format, diagnostics, &view, color));
    } else {
        eprint!("{}", render_diagnostics(format, diagnostics, &view, color));
        eprintln!("error: no items were made");
    }
    outcome_of(diagnostics, false).max(Outcome::InputErrors)
}
