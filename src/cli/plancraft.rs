//! `pddlc plancraft`: run an agent's messages in Plancraft's crafting world (`run`), solve
//! or audit its examples (`solve`). Unreadable inputs are diagnostics shown in the run's format.

use super::input::display_name;
use super::kitchen::{KitchenFormat, Report};
use super::{Color, Format, Outcome};
use clap::Subcommand;
use pddlc::diagnostics::FileId;
use pddlc::plancraft::{
    self, EpisodeOptions, Example, Handler, SOLVE_JSON_VERSION, SolveOptions, SolveRow, World,
};
use serde_json::json;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
    /// Output format: `human` by default, `json` for one versioned document (docs/plancraft.md).
    #[arg(long, value_enum, global = true)]
    format: Option<KitchenFormat>,
    #[arg(long, value_enum, global = true, default_value_t = Color::Auto)]
    color: Color,
}

#[derive(Subcommand)]
enum Command {
    /// Run an agent's messages (one per line) on an example, as Plancraft's evaluator does:
    /// every step's effect, why a move or smelt changed nothing, success.
    Run(RunArgs),
    /// The fewest recipes that make an example's target, as move/smelt messages checked in the
    /// environment, or a proof that nothing makes it. A split without `--id` is audited whole.
    Solve(SolveArgs),
    /// Compile an example to PDDL at the counter level (or the grid level, `--encoding grid`):
    /// `domain.pddl` and `problem.pddl` in `--out`, or both on standard output.
    Compile(CompileArgs),
    /// Turn a plan for the compiled example into the agent's messages and run them.
    Plan(PlanArgs),
    /// The paper's results table from whole runs (Plancraft's result folders or JSONL files)
    /// on a split: success per complexity group, action counts, AE and impossible F1 with
    /// bootstrap intervals, paired comparisons, the steps table against an oracle run.
    Eval(super::plancraft_eval::EvalArgs),
}

#[derive(clap::Args)]
struct CompileArgs {
    #[command(flatten)]
    example: ExampleArgs,
    /// A directory to write `domain.pddl` and `problem.pddl` into.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace files `--out` already holds.
    #[arg(long, requires = "out")]
    force: bool,
    #[command(flatten)]
    encoding: EncodingArgs,
}

/// Which PDDL encoding.
#[derive(clap::Args)]
struct EncodingArgs {
    /// `counts`: item counts, an action per way to apply a recipe; `grid`: the crafting grid
    /// cell by cell, the inventory as counts (docs/plancraft.md).
    #[arg(long, value_enum, default_value_t = EncodingName::Counts)]
    encoding: EncodingName,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum EncodingName {
    Counts,
    Grid,
}

impl EncodingArgs {
    fn encoding(&self) -> plancraft::Encoding {
        match self.encoding {
            EncodingName::Counts => plancraft::Encoding::Counts,
            EncodingName::Grid => plancraft::Encoding::Grid,
        }
    }
}

#[derive(clap::Args)]
struct PlanArgs {
    #[command(flatten)]
    example: ExampleArgs,
    /// A plan for the compiled domain (IPC plan text, as Fast Downward's `sas_plan`).
    plan: PathBuf,
    /// The encoding the plan's task was compiled in.
    #[command(flatten)]
    encoding: EncodingArgs,
}

#[derive(clap::Args)]
struct SolveArgs {
    #[command(flatten)]
    example: ExampleArgs,
    /// Counter states the search may keep before the answer is `unknown`.
    #[arg(long, default_value_t = SolveOptions::default().max_states)]
    max_states: usize,
}

/// Which example: a dataset record, or one of a split's by id.
#[derive(clap::Args)]
struct ExampleArgs {
    /// A JSON file: one record of Plancraft's dataset, or a list of them (a split such as
    /// `val.json`) with `--id`.
    #[arg(long)]
    example: PathBuf,
    /// The example's `id` in a list of records.
    #[arg(long)]
    id: Option<String>,
}

#[derive(clap::Args)]
struct RunArgs {
    #[command(flatten)]
    example: ExampleArgs,
    /// The agent's messages, one per line (`-` for standard input).
    actions: PathBuf,
    /// Messages per episode.
    #[arg(long, default_value_t = 30)]
    max_steps: usize,
    /// The action handlers, tried in this order (the paper's configurations leave some out).
    #[arg(long, value_delimiter = ',', default_value = "move,smelt,think,search,impossible", value_parser = parse_handler)]
    handlers: Vec<Handler>,
}

fn parse_handler(word: &str) -> Result<Handler, String> {
    Handler::from_name(word)
        .ok_or_else(|| format!("`{word}` is not one of move, smelt, think, search, impossible"))
}

pub fn run(args: &Args) -> Outcome {
    let (format, shown) = KitchenFormat::resolve(args.format);
    if let Command::Eval(eval_args) = &args.command {
        return super::plancraft_eval::run(eval_args, format, shown, args.color.enabled());
    }
    if format == KitchenFormat::Csv {
        eprintln!("error: --format csv is for `plancraft eval`: use human, json, gcc or val");
        return Outcome::Failure;
    }
    let report = Report::new(shown, args.color.enabled());
    match &args.command {
        Command::Run(run_args) => run_actions(run_args, report),
        Command::Solve(solve_args) => solve(solve_args, report),
        Command::Compile(compile_args) => compile(compile_args, report),
        Command::Plan(plan_args) => plan(plan_args, report),
        Command::Eval(_) => Outcome::Failure,
    }
}

/// The embedded world, or `None` after a diagnostic (it is checked by the tests).
fn world(report: &mut Report) -> Option<World> {
    match World::embedded() {
        Ok(world) => Some(world),
        Err(diagnostic) => {
            report.add(Vec::new(), vec![diagnostic]);
            None
        }
    }
}

/// The example `--example` (and `--id`) name, or `None` after a diagnostic.
fn example(args: &ExampleArgs, world: &World, report: &mut Report) -> Option<Example> {
    let text = report.read(&args.example)?;
    match Example::select(world, &text, args.id.as_deref()) {
        Ok(example) => Some(example),
        Err(diagnostic) => {
            let message = diagnostic.message.clone();
            report.add_one(
                display_name(&args.example),
                text,
                vec![diagnostic.with_primary_message(message)],
            );
            None
        }
    }
}

fn run_actions(args: &RunArgs, mut report: Report) -> Outcome {
    if args.handlers.is_empty() || args.max_steps == 0 {
        report.usage_error(
            "--handlers needs at least one handler and --max-steps at least 1".to_string(),
        );
        return report.finish_document(None);
    }
    let Some(world) = world(&mut report) else {
        return report.finish_document(None);
    };
    let example = example(&args.example, &world, &mut report);
    let actions = report.read(&args.actions);
    let (Some(example), Some(actions)) = (example, actions) else {
        return report.finish_document(None);
    };
    let options = EpisodeOptions {
        max_steps: args.max_steps,
        handlers: args.handlers.clone(),
    };
    let result = plancraft::run(&world, &example, &actions, FileId(0), options);
    report.add_one(display_name(&args.actions), actions, result.diagnostics);
    let outcome = if result.row.success {
        Outcome::Clean
    } else {
        Outcome::InputErrors
    };
    if report.format == Format::Json {
        let document = serde_json::to_value(&result.row).unwrap_or_default();
        return outcome.max(report.finish_document(Some(document)));
    }
    eprint!("{}", report.rendered());
    print!("{}", plancraft::transcript(&result.row));
    outcome.max(report.outcome())
}

fn solve(args: &SolveArgs, mut report: Report) -> Outcome {
    let Some(world) = world(&mut report) else {
        return report.finish_document(None);
    };
    let Some(text) = report.read(&args.example.example) else {
        return report.finish_document(None);
    };
    let examples = match &args.example.id {
        Some(_) => Example::select(&world, &text, args.example.id.as_deref()).map(|e| vec![e]),
        None => Example::from_json(&world, &text),
    };
    let examples = match examples {
        Ok(examples) => examples,
        Err(diagnostic) => {
            report.add_one(display_name(&args.example.example), text, vec![diagnostic]);
            return report.finish_document(None);
        }
    };
    let options = SolveOptions {
        max_states: args.max_states,
    };
    let rows: Vec<SolveRow> = examples
        .iter()
        .map(|example| plancraft::solve(&world, example, options))
        .collect();
    let unknown = rows.iter().any(|row| row.status == "unknown");
    let outcome = if unknown {
        Outcome::InputErrors
    } else {
        Outcome::Clean
    };
    let single =
        rows.len() == 1 && (args.example.id.is_some() || !text.trim_start().starts_with('['));
    if report.format == Format::Json {
        let document = if single {
            serde_json::to_value(&rows[0]).unwrap_or_default()
        } else {
            json!({"version": SOLVE_JSON_VERSION, "summary": audit(&rows), "examples": rows})
        };
        return outcome.max(report.finish_document(Some(document)));
    }
    eprint!("{}", report.rendered());
    if single {
        print!("{}", human_solution(&rows[0]));
    } else {
        for row in &rows {
            println!("{}", one_line(row));
        }
        print!("{}", audit_table(&audit(&rows)));
    }
    outcome.max(report.outcome())
}

/// Counts of answers against the dataset's labels.
fn audit(rows: &[SolveRow]) -> serde_json::Value {
    let count = |f: &dyn Fn(&SolveRow) -> bool| rows.iter().filter(|r| f(r)).count();
    json!({
        "examples": rows.len(),
        "labelled_possible": count(&|r| !r.dataset_impossible),
        "solved_with_dataset_length": count(&|r| r.status == "solved" && !r.dataset_impossible && r.agrees_with_dataset == Some(true)),
        "solved_other_length": count(&|r| r.status == "solved" && !r.dataset_impossible && r.agrees_with_dataset != Some(true)),
        "labelled_impossible": count(&|r| r.dataset_impossible),
        "proven_impossible": count(&|r| r.status == "impossible" && r.dataset_impossible),
        "proof_unreachable": count(&|r| r.proof_kind == Some("unreachable")),
        "proof_weight": count(&|r| r.proof_kind == Some("weight")),
        "proof_exhausted": count(&|r| r.proof_kind == Some("exhausted")),
        "labelled_impossible_but_solved": count(&|r| r.status == "solved" && r.dataset_impossible),
        "labelled_possible_but_impossible": count(&|r| r.status == "impossible" && !r.dataset_impossible),
        "unknown": count(&|r| r.status == "unknown"),
        "replays_succeeding": count(&|r| r.replay.as_ref().is_some_and(|p| p.success)),
    })
}

fn audit_table(summary: &serde_json::Value) -> String {
    let mut out = String::from("\n");
    if let Some(object) = summary.as_object() {
        for (key, value) in object {
            out.push_str(&format!("{:<34} {value}\n", key.replace('_', " ")));
        }
    }
    out
}

fn one_line(row: &SolveRow) -> String {
    let detail = match row.status {
        "solved" => format!(
            "{} recipes, {} messages",
            row.length.unwrap_or(0),
            row.actions.len()
        ),
        "impossible" => format!("proof: {}", row.proof_kind.unwrap_or("")),
        _ => row.reason.clone().unwrap_or_default(),
    };
    let dataset = match (row.dataset_impossible, row.dataset_length) {
        (true, _) => "dataset: impossible".to_string(),
        (false, Some(n)) => format!("dataset: {n}"),
        (false, None) => "dataset: -".to_string(),
    };
    format!(
        "{:<10} {:<32} {:<10} {detail} ({dataset})",
        row.example, row.target, row.status
    )
}

fn human_solution(row: &SolveRow) -> String {
    let mut out = format!("{}\n", one_line(row));
    if !row.left_out.is_empty() {
        out.push_str(&format!(
            "  the plan as written does not succeed; left out {} steps it does without: {}\n",
            row.left_out.len(),
            row.left_out.join(" ")
        ));
    }
    for (i, step) in row.recipes.iter().enumerate() {
        let uses: Vec<String> = step
            .uses
            .iter()
            .map(|(item, n)| format!("{n} {item}"))
            .collect();
        out.push_str(&format!(
            "  recipe {}: {} {} from {} ({}, {})\n",
            i + 1,
            step.count,
            step.result,
            uses.join(" + "),
            step.kind,
            step.recipe
        ));
    }
    for action in &row.actions {
        out.push_str(&format!("  {action}\n"));
    }
    if let Some(proof) = &row.proof {
        out.push_str(&format!("  proof: {proof}\n"));
    }
    out
}

fn compile(args: &CompileArgs, mut report: Report) -> Outcome {
    let Some(world) = world(&mut report) else {
        return report.finish_document(None);
    };
    let Some(example) = example(&args.example, &world, &mut report) else {
        return report.finish_document(None);
    };
    let (domain, problem) = plancraft::compile_pddl(&world, &example, args.encoding.encoding());
    let Some(dir) = &args.out else {
        if report.format == Format::Json {
            let document =
                json!({"version": SOLVE_JSON_VERSION, "domain": domain, "problem": problem});
            return report.finish_document(Some(document));
        }
        eprint!("{}", report.rendered());
        print!("{domain}\n{problem}");
        return report.outcome();
    };
    let files = [("domain.pddl", &domain), ("problem.pddl", &problem)];
    if !args.force {
        for (name, _) in &files {
            if dir.join(name).exists() {
                report.usage_error(format!(
                    "{} exists: pass --force to replace it",
                    dir.join(name).display()
                ));
                return report.finish_document(None);
            }
        }
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        report.io_error(dir, e.to_string());
        return report.finish_document(None);
    }
    for (name, text) in files {
        if let Err(e) = std::fs::write(dir.join(name), text) {
            report.io_error(&dir.join(name), e.to_string());
        }
    }
    let document = json!({"version": SOLVE_JSON_VERSION, "written": [dir.join("domain.pddl"), dir.join("problem.pddl")]});
    report.finish_document((report.format == Format::Json).then_some(document))
}

fn plan(args: &PlanArgs, mut report: Report) -> Outcome {
    let Some(world) = world(&mut report) else {
        return report.finish_document(None);
    };
    let example = example(&args.example, &world, &mut report);
    let plan = report.read(&args.plan);
    let (Some(example), Some(plan)) = (example, plan) else {
        return report.finish_document(None);
    };
    let row = plancraft::from_pddl_plan_in(&world, &example, &plan, args.encoding.encoding());
    let outcome = if row.status == "solved" {
        Outcome::Clean
    } else {
        Outcome::InputErrors
    };
    if report.format == Format::Json {
        let document = serde_json::to_value(&row).unwrap_or_default();
        return outcome.max(report.finish_document(Some(document)));
    }
    eprint!("{}", report.rendered());
    print!("{}", human_solution(&row));
    outcome.max(report.outcome())
}
