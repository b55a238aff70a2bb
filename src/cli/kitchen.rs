//! `pddlc kitchen`: run plans in the kitchen world, describe it.

use super::{Color, Format, Outcome, render_diagnostics};
use clap::{Subcommand, ValueEnum};
use pddlc::diagnostics::render::{self, JSON_VERSION, Sources};
use pddlc::diagnostics::{Code, Diagnostic, FileId, SourceFile};
use pddlc::kitchen::{self, Env, Mode, World};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
    /// `run`: `human` (Simmer's failure lines and a summary), `json` (the verdicts with their
    /// diagnostics), `gcc` and `val` (one line per failure, located on the plan step). Every
    /// subcommand: how diagnostics about its inputs are shown (on stderr; `json`: one versioned
    /// document on stdout instead of the output).
    #[arg(long, value_enum, global = true, default_value_t = Format::Human)]
    format: Format,
    #[arg(long, value_enum, global = true, default_value_t = Color::Auto)]
    color: Color,
}

/// The diagnostic style of this run, set once from the arguments.
static STYLE: std::sync::OnceLock<(Format, bool)> = std::sync::OnceLock::new();

#[derive(Subcommand)]
enum Command {
    /// Run Simmer plans in a task environment and report every failure, then the audits'.
    Run(RunArgs),
    /// Print the world (or a task's environment and the world) as text for an LLM prompt.
    Describe(DescribeArgs),
    /// Compile the world and task environments to PDDL (`domain.pddl`, `NNN.pddl`).
    Compile(CompileArgs),
    /// Translate a plan between Simmer's format and the compiled domain's PDDL.
    Plan(PlanArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FlavourArg {
    /// Faithful to the executor, for checking plans with `validate --continue`.
    Audit,
    /// Tightened for planners (docs/kitchen.md lists each tightening).
    Planning,
}

#[derive(clap::Args)]
struct CompileArgs {
    /// One task, `004`.
    #[arg(long, conflicts_with = "all")]
    task: Option<String>,
    /// Every task that has a formal goal in the tasks directory.
    #[arg(long)]
    all: bool,
    /// Where to write `domain.pddl` and `NNN.pddl` (default: standard output, one task only).
    #[arg(long)]
    out: Option<PathBuf>,
    #[arg(long = "for", value_enum, default_value_t = FlavourArg::Audit)]
    flavour: FlavourArg,
    /// The task goals (`NNN.toml`).
    #[arg(long, default_value = "domains/kitchen/tasks")]
    tasks_dir: PathBuf,
    /// Simmer's benchmark directory, holding `tasks/NNN/env_NNN.json`.
    #[arg(long, default_value = "../shared/kitchen/simmer/benchmark")]
    simmer: PathBuf,
    /// A world directory instead of the embedded one.
    #[arg(long)]
    world: Option<PathBuf>,
    /// A Simmer plan to check against the problem (one task): declares the objects it
    /// creates and the ids it names that do not exist, so that its `plan --to-pddl`
    /// translation validates against the problem.
    #[arg(long, conflicts_with = "all")]
    plan: Option<PathBuf>,
    /// A task environment (`env.json`) instead of Simmer's `tasks/NNN/env_NNN.json`; the
    /// problem is named after `--task`, or after the file.
    #[arg(long, conflicts_with = "all")]
    env: Option<PathBuf>,
    /// The task goal (default: `TASKS_DIR/NNN.toml` for `--task NNN`, if there is one).
    #[arg(long, conflicts_with = "all")]
    goal: Option<PathBuf>,
}

#[derive(clap::Args)]
struct PlanArgs {
    /// Simmer's plan to a PDDL plan for the compiled domain.
    #[arg(long, conflicts_with = "from_pddl")]
    to_pddl: bool,
    /// A PDDL plan for the compiled domain to Simmer's format.
    #[arg(long)]
    from_pddl: bool,
    /// The task environment, Simmer's `env_NNN.json`.
    #[arg(long)]
    env: PathBuf,
    plan: PathBuf,
    #[arg(long)]
    world: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ModeArg {
    /// Simmer's executor exactly, quirks included.
    Simmer,
    /// Simmer's quirks fixed (docs/kitchen.md lists the differences).
    Strict,
}

#[derive(clap::Args)]
struct RunArgs {
    /// The task environment, Simmer's `env_NNN.json`.
    #[arg(long)]
    env: PathBuf,
    /// Plans in Simmer's format: `[PUT_ON] <lettuce> (1) <cutting_board> (1)`, one step a line.
    #[arg(required = true)]
    plans: Vec<PathBuf>,
    /// A world directory instead of the embedded one: Simmer's `world_model/`
    /// (`action_def.json`, `object_def.json`) or ours (`actions.toml`, `world.toml`, `classes.toml`).
    #[arg(long)]
    world: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = ModeArg::Simmer)]
    mode: ModeArg,
}

#[derive(clap::Args)]
struct DescribeArgs {
    /// A task environment whose objects to list.
    #[arg(long)]
    env: Option<PathBuf>,
    /// A world directory instead of the embedded one.
    #[arg(long)]
    world: Option<PathBuf>,
}

pub fn run(args: &Args) -> Outcome {
    let _ = STYLE.set((args.format, args.color.enabled()));
    match &args.command {
        Command::Run(run_args) => run_plans(run_args, args.format, args.color),
        Command::Describe(describe_args) => describe(describe_args),
        Command::Compile(compile_args) => compile(compile_args),
        Command::Plan(plan_args) => plan(plan_args),
    }
}

fn read(path: &Path) -> Result<String, Outcome> {
    super::input::read_text(path).map_err(|message| {
        report(
            &[super::input::io_error(&message, FileId(0))],
            vec![SourceFile::new(
                super::input::display_name(path),
                String::new(),
            )],
        );
        Outcome::Failure
    })
}

/// Prints diagnostics about the inputs in the run's format, each in the file its `FileId`
/// names: on stderr, or as the versioned JSON document on stdout.
fn report(diagnostics: &[Diagnostic], files: Vec<SourceFile>) {
    let (format, color) = STYLE.get().copied().unwrap_or((Format::Gcc, false));
    let view = Sources::new(&files);
    if format == Format::Json {
        let document = serde_json::json!({
            "version": JSON_VERSION,
            "diagnostics": render::json_diagnostics(diagnostics, &view),
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&document).unwrap_or_default()
        );
    } else {
        eprint!("{}", render_diagnostics(format, diagnostics, &view, color));
    }
}

/// Prints a text output (PDDL, a plan, a description): as it is, or under `--format json` as
/// the versioned document `{"version", "diagnostics": [], "output": text}`.
fn emit(text: &str) {
    if STYLE
        .get()
        .is_some_and(|(format, _)| *format == Format::Json)
    {
        let document = serde_json::json!({
            "version": JSON_VERSION,
            "diagnostics": [],
            "output": text,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&document).unwrap_or_default()
        );
    } else {
        print!("{text}");
    }
}

/// The embedded world, or the one in `dir` (ours if it has `actions.toml`, else Simmer's).
fn load_world(dir: Option<&Path>) -> Result<World, Outcome> {
    let Some(dir) = dir else {
        return Ok(World::embedded());
    };
    let ours = dir.join("actions.toml");
    let (result, files) = if ours.is_file() {
        let names = ["actions.toml", "world.toml", "classes.toml"];
        let mut texts = Vec::new();
        for name in names {
            texts.push(read(&dir.join(name))?);
        }
        let result = World::from_toml(&texts[0], &texts[1], &texts[2]);
        let files = names
            .iter()
            .zip(&texts)
            .map(|(n, t)| SourceFile::new(dir.join(n).display().to_string(), t.clone()))
            .collect::<Vec<_>>();
        (result, files)
    } else {
        let actions = read(&dir.join("action_def.json"))?;
        let objects_path = dir.join("object_def.json");
        let objects = if objects_path.is_file() {
            Some(read(&objects_path)?)
        } else {
            None
        };
        let result = World::from_simmer(&actions, objects.as_deref(), &World::embedded());
        let files = vec![
            SourceFile::new(dir.join("action_def.json").display().to_string(), actions),
            SourceFile::new(
                objects_path.display().to_string(),
                objects.unwrap_or_default(),
            ),
        ];
        (result, files)
    };
    result.map_err(|diagnostics| {
        report(&diagnostics, files);
        Outcome::InputErrors
    })
}

fn load_env(path: &Path) -> Result<Env, Outcome> {
    let text = read(path)?;
    Env::from_json(&text).map_err(|diagnostics| {
        report(
            &diagnostics,
            vec![SourceFile::new(path.display().to_string(), text)],
        );
        Outcome::InputErrors
    })
}

fn human(path: &Path, outcome: &kitchen::Outcome) -> String {
    let counts = outcome.counts();
    let mut out = if counts.any == 0 {
        format!(
            "{}: no failures ({} steps)\n",
            path.display(),
            outcome.steps
        )
    } else {
        format!(
            "{}: {} failure(s) in {} steps: {} syntax, {} immediate, {} latent ({} irreversible)\n",
            path.display(),
            counts.any,
            outcome.steps,
            counts.syntax,
            counts.immediate,
            counts.latent,
            counts.irreversible
        )
    };
    for failure in &outcome.failures {
        let irreversible = if failure.reversible {
            ""
        } else {
            " [irreversible]"
        };
        out.push_str(&format!("  {}{irreversible}\n", failure.line()));
    }
    out
}

fn run_plans(args: &RunArgs, format: Format, color: Color) -> Outcome {
    let world = match load_world(args.world.as_deref()) {
        Ok(world) => world,
        Err(outcome) => return outcome,
    };
    let env = match load_env(&args.env) {
        Ok(env) => env,
        Err(outcome) => return outcome,
    };
    let mode = match args.mode {
        ModeArg::Simmer => Mode::Simmer,
        ModeArg::Strict => Mode::Strict,
    };
    let mut outcomes = Vec::new();
    let mut plans = Vec::new();
    for path in &args.plans {
        let text = match read(path) {
            Ok(text) => text,
            Err(outcome) => return outcome,
        };
        let outcome = kitchen::run(&world, &env, &text, mode);
        let sources = [SourceFile::new(super::input::display_name(path), text)];
        let view = Sources::new(&sources);
        let color = color.enabled();
        match format {
            Format::Human => {
                // Problems with the plan text itself go to stderr; the failures are listed in
                // Simmer's own line shape below.
                let text_problems: Vec<Diagnostic> = outcome
                    .diagnostics
                    .iter()
                    .filter(|d| d.code == Code::KitchenPlanEmpty)
                    .cloned()
                    .collect();
                if !text_problems.is_empty() {
                    eprint!("{}", render::gcc(&text_problems, &view));
                }
                print!("{}", human(path, &outcome));
            }
            Format::Json => {
                let mut value = kitchen::plan_json(&super::input::display_name(path), &outcome);
                value["diagnostics"] = render::json_diagnostics(&outcome.diagnostics, &view);
                plans.push(value);
            }
            Format::Gcc | Format::Val => print!(
                "{}",
                render_diagnostics(format, &outcome.diagnostics, &view, color)
            ),
        }
        outcomes.push(outcome);
    }
    let summary = kitchen::summary(&outcomes);
    match format {
        Format::Json => {
            // One shape for one plan or many.
            let value = serde_json::json!({
                "version": JSON_VERSION,
                "plans": plans,
                "summary": summary,
            });
            println!(
                "{}",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            );
        }
        Format::Human if outcomes.len() > 1 => {
            let pct = |x: f64| format!("{:.1}%", 100.0 * x);
            println!(
                "\n{} plans: any failure {}, immediate {}, syntax {}, latent {}, irreversible {}; {:.2} failures per plan",
                summary.plans,
                pct(summary.share_any),
                pct(summary.share_immediate),
                pct(summary.share_syntax),
                pct(summary.share_latent),
                pct(summary.share_irreversible),
                summary.failures_per_plan
            );
        }
        Format::Human | Format::Gcc | Format::Val => {}
    }
    if summary.with_any > 0 {
        Outcome::InputErrors
    } else {
        Outcome::Clean
    }
}

fn describe(args: &DescribeArgs) -> Outcome {
    let world = match load_world(args.world.as_deref()) {
        Ok(world) => world,
        Err(outcome) => return outcome,
    };
    match &args.env {
        None => emit(&kitchen::describe::world(&world)),
        Some(path) => match load_env(path) {
            Ok(env) => emit(&kitchen::describe::env(&world, &env)),
            Err(outcome) => return outcome,
        },
    }
    Outcome::Clean
}

fn compile(args: &CompileArgs) -> Outcome {
    use kitchen::compile::{self, Flavour, Options, TaskGoal};
    let world = match load_world(args.world.as_deref()) {
        Ok(w) => w,
        Err(o) => return o,
    };
    let flavour = match args.flavour {
        FlavourArg::Audit => Flavour::Audit,
        FlavourArg::Planning => Flavour::Planning,
    };
    let mut tasks: Vec<String> = Vec::new();
    if let Some(t) = &args.task {
        tasks.push(t.clone());
    } else if let Some(env) = &args.env {
        let stem = env.file_stem().map(|s| s.to_string_lossy().into_owned());
        tasks.push(stem.unwrap_or_else(|| "env".to_string()));
    } else if args.all {
        let Ok(entries) = std::fs::read_dir(&args.tasks_dir) else {
            eprintln!("error: {}: not a directory", args.tasks_dir.display());
            return Outcome::Failure;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.extension().is_some_and(|x| x == "toml")
                && let Some(stem) = path.file_stem()
            {
                tasks.push(stem.to_string_lossy().into_owned());
            }
        }
        tasks.sort();
    } else {
        eprintln!("error: give --task NNN, --env FILE or --all");
        return Outcome::Failure;
    }
    if args.out.is_none() && tasks.len() > 1 {
        eprintln!("error: --all needs --out DIR");
        return Outcome::Failure;
    }
    let domain = pddlc::print::domain(&compile::domain(&world, flavour));
    if let Some(out) = &args.out
        && let Err(e) = std::fs::create_dir_all(out)
            .and_then(|_| std::fs::write(out.join("domain.pddl"), &domain))
    {
        eprintln!("error: {}: {e}", out.display());
        return Outcome::Failure;
    }
    let mut printed = String::new();
    if args.out.is_none() {
        printed.push_str(&format!("{domain}\n"));
    }
    for task in &tasks {
        let env_path = match &args.env {
            Some(path) => path.clone(),
            None => args.simmer.join(format!("tasks/{task}/env_{task}.json")),
        };
        let env = match load_env(&env_path) {
            Ok(e) => e,
            Err(o) => return o,
        };
        // A goal named with --goal must be there; the tasks directory's is optional.
        let (goal_path, required) = match &args.goal {
            Some(path) => (path.clone(), true),
            None => (args.tasks_dir.join(format!("{task}.toml")), false),
        };
        let goal = match std::fs::read_to_string(&goal_path) {
            Ok(text) => match TaskGoal::from_toml(&text) {
                Ok(g) => Some(g),
                Err(e) => {
                    eprintln!("error: {}: {e}", goal_path.display());
                    return Outcome::InputErrors;
                }
            },
            Err(e) if required => {
                eprintln!("error: {}: {e}", goal_path.display());
                return Outcome::Failure;
            }
            Err(_) => None,
        };
        let mut options = Options {
            flavour,
            ..Options::default()
        };
        if let Some(path) = &args.plan {
            let text = match read(path) {
                Ok(t) => t,
                Err(o) => return o,
            };
            options.spares = compile::plan_spares(&world, &env, &text);
            options.phantoms = compile::plan_phantoms(&world, &env, &text);
        }
        let problem = compile::problem(
            &world,
            &env,
            goal.as_ref(),
            &format!("task-{task}"),
            &options,
        );
        let text = pddlc::print::problem(&problem);
        match &args.out {
            Some(out) => {
                if let Err(e) = std::fs::write(out.join(format!("{task}.pddl")), text) {
                    eprintln!("error: {}: {e}", out.display());
                    return Outcome::Failure;
                }
            }
            None => printed.push_str(&format!("{text}\n")),
        }
    }
    emit(&printed);
    Outcome::Clean
}

fn plan(args: &PlanArgs) -> Outcome {
    let world = match load_world(args.world.as_deref()) {
        Ok(w) => w,
        Err(o) => return o,
    };
    let env = match load_env(&args.env) {
        Ok(e) => e,
        Err(o) => return o,
    };
    let text = match read(&args.plan) {
        Ok(t) => t,
        Err(o) => return o,
    };
    if args.from_pddl {
        match kitchen::from_pddl_plan(&world, &env, &text) {
            Ok(plan) => emit(&plan),
            Err(e) => {
                eprintln!("error: {}: {e}", args.plan.display());
                return Outcome::InputErrors;
            }
        }
    } else {
        emit(&kitchen::to_pddl_plan(&world, &env, &text));
    }
    Outcome::Clean
}
