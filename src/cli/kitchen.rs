//! `pddlc kitchen`: run plans in the kitchen world, describe it, compile it to PDDL, translate
//! plans, solve tasks (`kitchen_solve`). Every problem with an input (an unreadable file, a malformed world, environment, goal
//! or plan) is a diagnostic shown in the run's format, next to what the other inputs gave.

use super::input::{display_name, io_error, read_text};
use super::kitchen_eval::{self, EvalArgs};
use super::kitchen_solve::{self, SolveArgs};
use super::kitchen_task::{EnvSource, EnvSources, GoalSources};
use super::{Color, Format, Outcome, outcome_of, render_diagnostics};
use clap::{Subcommand, ValueEnum};
use pddlc::diagnostics::render::{self, JSON_VERSION, Sources};
use pddlc::diagnostics::{Diagnostic, FileId, SourceFile};
use pddlc::kitchen::{self, Env, Mode, World};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
    /// Output format: `human` by default, `json` for one versioned document; what each
    /// subcommand prints under each is in docs/cli.md.
    #[arg(long, value_enum, global = true)]
    format: Option<KitchenFormat>,
    #[arg(long, value_enum, global = true, default_value_t = Color::Auto)]
    color: Color,
}

/// The formats of `kitchen`: the convention's four, and `csv` for `eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KitchenFormat {
    #[value(alias = "table")]
    Human,
    Json,
    Gcc,
    Val,
    /// `eval` only: one row per run and task.
    Csv,
}

impl KitchenFormat {
    /// The format asked for (`human` when none is), and how diagnostics are shown: as the
    /// format says, or, when none was asked for, the convention's default (docs/cli.md:
    /// miette's report on a terminal, `gcc` lines otherwise).
    pub fn resolve(asked: Option<KitchenFormat>) -> (KitchenFormat, Format) {
        match asked {
            Some(format) => (format, format.diagnostics()),
            None => (KitchenFormat::Human, Format::or_default(None)),
        }
    }

    /// The convention's format; `csv` shows its diagnostics as `gcc` lines.
    pub fn diagnostics(self) -> Format {
        match self {
            KitchenFormat::Human => Format::Human,
            KitchenFormat::Json => Format::Json,
            KitchenFormat::Gcc | KitchenFormat::Csv => Format::Gcc,
            KitchenFormat::Val => Format::Val,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Run Simmer plans in a task environment and report every failure, then the audits'.
    Run(RunArgs),
    /// Evaluate whole run folders (`RUN/NNN/` with plans, and `env_NNN.json` or the built-in
    /// environment) in one process: verdicts, the per-task metrics, the paper's table with
    /// bootstrap intervals, paired comparisons.
    Eval(EvalArgs),
    /// Print the world (or a task's environment and the world) as text for an LLM prompt.
    Describe(DescribeArgs),
    /// Compile the world and task environments to PDDL (`domain.pddl`, `NNN.pddl`).
    Compile(CompileArgs),
    /// Translate a plan between Simmer's format and the compiled domain's PDDL.
    Plan(PlanArgs),
    /// Solve tasks with the built-in planner: compile the planning flavour, solve, translate
    /// the plan to Simmer's format and run it in strict mode.
    Solve(SolveArgs),
}

#[derive(clap::Args)]
#[command(group(
    clap::ArgGroup::new("tasks").required(true).multiple(true).args(["task", "env", "all"])
))]
struct CompileArgs {
    #[command(flatten)]
    sources: EnvSources,
    /// Every task that has a goal (built in, or in `--tasks-dir`), written to `--out`.
    #[arg(long, requires = "out", conflicts_with_all = ["task", "env", "goal", "plan"])]
    all: bool,
    #[command(flatten)]
    goals: GoalSources,
    /// Where to write `domain.pddl` and `NNN.pddl` (default: standard output, one task only:
    /// the domain, then the problem; with `--only`, one of them, a file of its own).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print only the domain or only the problem on standard output, so that `> file.pddl`
    /// writes one definition, as a PDDL file holds.
    #[arg(long, value_enum, conflicts_with = "out")]
    only: Option<Definition>,
    /// Which PDDL to compile (`--for` is the older name; Python's `flavour`).
    #[arg(long, alias = "for", default_value = "audit", value_parser = super::choice::<kitchen::Flavour>())]
    flavour: kitchen::Flavour,
    /// A world directory instead of the built-in one.
    #[arg(long)]
    world: Option<PathBuf>,
    /// A Simmer plan to check against the problem (one task): declares the objects it
    /// creates and the ids it names that do not exist, so that its `plan --to-pddl`
    /// translation validates against the problem.
    #[arg(long)]
    plan: Option<PathBuf>,
}

/// One of the two definitions `kitchen compile` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Definition {
    Domain,
    Problem,
}

#[derive(clap::Args)]
#[command(group(
    clap::ArgGroup::new("environment").required(true).multiple(true).args(["task", "env"])
))]
struct PlanArgs {
    /// Simmer's plan to a PDDL plan for the compiled domain.
    #[arg(long, conflicts_with = "from_pddl")]
    to_pddl: bool,
    /// A PDDL plan for the compiled domain to Simmer's format.
    #[arg(long)]
    from_pddl: bool,
    #[command(flatten)]
    sources: EnvSources,
    plan: PathBuf,
    #[arg(long)]
    world: Option<PathBuf>,
}

#[derive(clap::Args)]
#[command(group(
    clap::ArgGroup::new("environment").required(true).multiple(true).args(["task", "env"])
))]
struct RunArgs {
    #[command(flatten)]
    sources: EnvSources,
    /// Plans in Simmer's format: `[PUT_ON] <lettuce> (1) <cutting_board> (1)`, one step a line.
    #[arg(required = true)]
    plans: Vec<PathBuf>,
    /// A world directory instead of the embedded one: Simmer's `world_model/`
    /// (`action_def.json`, `object_def.json`) or ours (`actions.toml`, `world.toml`, `classes.toml`).
    #[arg(long)]
    world: Option<PathBuf>,
    #[arg(long, default_value = "simmer", value_parser = super::choice::<Mode>())]
    mode: Mode,
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("environment").multiple(true).args(["task", "env"])))]
struct DescribeArgs {
    /// With `--task` or `--env`: the task's objects, its title (the built-in goal's, or the
    /// first line of `task_NNN.txt` beside `env_NNN.json`), the agent's state and the task's
    /// own actions, after the world.
    #[command(flatten)]
    sources: EnvSources,
    /// With a task: list every action of the world, not only those the task defines.
    #[arg(long, requires = "environment")]
    all_actions: bool,
    /// A world directory instead of the embedded one.
    #[arg(long)]
    world: Option<PathBuf>,
}

pub fn run(args: &Args) -> Outcome {
    let color = args.color.enabled();
    let (format, shown) = KitchenFormat::resolve(args.format);
    if let Command::Eval(eval_args) = &args.command {
        return kitchen_eval::run(eval_args, format, shown, color);
    }
    if let Command::Solve(solve_args) = &args.command {
        return kitchen_solve::run(solve_args, format, shown, color);
    }
    if format == KitchenFormat::Csv {
        eprintln!("error: --format csv is for `kitchen eval`: use human, json, gcc or val");
        return Outcome::Failure;
    }
    let report = Report::new(shown, color);
    match &args.command {
        Command::Eval(_) | Command::Solve(_) => Outcome::Failure,
        Command::Run(run_args) => run_plans(run_args, report),
        Command::Describe(describe_args) => describe(describe_args, report),
        Command::Compile(compile_args) => compile(compile_args, report),
        Command::Plan(plan_args) => plan(plan_args, report),
    }
}

/// What a kitchen subcommand has found wrong with its inputs: diagnostics, each in the file its
/// `FileId` names among `files`, shown once at the end in the run's format.
pub struct Report {
    pub format: Format,
    pub color: bool,
    /// The files and their diagnostics, in the order found (the library's collection, which
    /// Python's `kitchen.eval` fills the same way).
    notes: kitchen::Notes,
    /// Whether a usage error was printed (`usage_error`).
    usage: bool,
}

impl Report {
    pub fn new(format: Format, color: bool) -> Report {
        Report {
            format,
            color,
            notes: kitchen::Notes::default(),
            usage: false,
        }
    }

    /// Takes diagnostics about `files`, whose `FileId`s count from 0 in that list (as the
    /// library's loaders number the files they are given).
    pub fn add(&mut self, files: Vec<SourceFile>, diagnostics: Vec<Diagnostic>) {
        self.notes.add(files, diagnostics);
    }

    /// Diagnostics about one file, `name` with `text`.
    pub fn add_one(&mut self, name: String, text: String, diagnostics: Vec<Diagnostic>) {
        self.add(vec![SourceFile::new(name, text)], diagnostics);
    }

    /// A `P090 io-error` about `path`, with the reason.
    pub fn io_error(&mut self, path: &Path, message: String) {
        self.add_one(
            display_name(path),
            String::new(),
            vec![io_error(&message, FileId(0))],
        );
    }

    /// The text of `path` (or `-`), or `None` after a `P090` diagnostic.
    pub fn read(&mut self, path: &Path) -> Option<String> {
        match read_text(path) {
            Ok(text) => Some(text),
            Err(message) => {
                self.io_error(path, message);
                None
            }
        }
    }

    pub fn outcome(&self) -> Outcome {
        let usage = self.usage.then_some(Outcome::Failure);
        outcome_of(&self.notes.diagnostics, false).max(usage.unwrap_or(Outcome::Clean))
    }

    /// An error in how the command was called (a task pddlc does not ship): printed on stderr
    /// at once, as clap prints its own, and the run exits 2.
    pub fn usage_error(&mut self, message: String) {
        eprintln!("error: {message}");
        self.usage = true;
    }

    pub fn json_diagnostics(&self) -> Value {
        self.notes.json()
    }

    /// The diagnostics in the run's format, for the given output stream.
    pub fn rendered(&self) -> String {
        render_diagnostics(
            self.format,
            &self.notes.diagnostics,
            &Sources::new(&self.notes.files),
            self.color,
        )
    }

    /// Ends a subcommand whose result is a JSON document (`None` when the inputs' errors left
    /// none): under `--format json` the document with its `diagnostics` beside its fields (or
    /// `{"version", "diagnostics"}` alone) on stdout; otherwise the diagnostics on stderr.
    pub fn finish_document(&self, document: Option<Value>) -> Outcome {
        if self.format == Format::Json {
            let mut document = document.unwrap_or_else(|| json!({ "version": JSON_VERSION }));
            if let Some(object) = document.as_object_mut() {
                object.insert("diagnostics".to_string(), self.json_diagnostics());
            }
            println!(
                "{}",
                serde_json::to_string_pretty(&document).unwrap_or_default()
            );
        } else {
            eprint!("{}", self.rendered());
        }
        self.outcome()
    }

    /// Ends a subcommand whose output is text (PDDL, a plan, a description): the diagnostics on
    /// stderr and `output` on stdout, or under `--format json` one versioned document
    /// `{"version", "diagnostics", "output", …extra}` on stdout. `output` is `None` when the
    /// inputs' errors left nothing to print.
    fn finish(self, output: Option<&str>, extra: Option<(&str, Value)>) -> Outcome {
        if self.format == Format::Json {
            let mut document = json!({
                "version": JSON_VERSION,
                "diagnostics": self.json_diagnostics(),
                "output": output,
            });
            if let (Some((key, value)), Some(object)) = (extra, document.as_object_mut()) {
                object.insert(key.to_string(), value);
            }
            println!(
                "{}",
                serde_json::to_string_pretty(&document).unwrap_or_default()
            );
        } else {
            eprint!("{}", self.rendered());
            if let Some(output) = output {
                print!("{output}");
            }
        }
        self.outcome()
    }
}

/// The embedded world, or the one in `dir` (ours if it has `actions.toml`, else Simmer's);
/// `None` after diagnostics when it cannot be read or loaded.
pub fn load_world(dir: Option<&Path>, report: &mut Report) -> Option<World> {
    let Some(dir) = dir else {
        return Some(World::embedded());
    };
    let ours = dir.join("actions.toml");
    let (result, files) = if ours.is_file() {
        let names = ["actions.toml", "world.toml", "classes.toml"];
        // Read all three before giving up, so that every unreadable one is reported.
        let actions = report.read(&dir.join(names[0]));
        let world = report.read(&dir.join(names[1]));
        let classes = report.read(&dir.join(names[2]));
        let (Some(actions), Some(world), Some(classes)) = (actions, world, classes) else {
            return None;
        };
        let result = World::from_toml(&actions, &world, &classes);
        let files = names
            .iter()
            .zip([actions, world, classes])
            .map(|(name, text)| SourceFile::new(dir.join(name).display().to_string(), text))
            .collect::<Vec<_>>();
        (result, files)
    } else {
        let actions = report.read(&dir.join("action_def.json"))?;
        let objects_path = dir.join("object_def.json");
        let objects = if objects_path.is_file() {
            Some(report.read(&objects_path)?)
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
    result
        .map_err(|diagnostics| report.add(files, diagnostics))
        .ok()
}

/// The environment `sources` name for one task, loaded in `world`; `None` after its
/// diagnostics, or after a usage error for a task pddlc does not ship (`usage` set).
fn load_task_env(sources: &EnvSources, world: Option<&World>, report: &mut Report) -> Option<Env> {
    match sources.source() {
        // A world that could not be loaded is reported; the environment is still read (with
        // the built-in world's classes) so that its own problems are reported too.
        Ok(Some(source)) => match world {
            Some(world) => source.load(world, report),
            None => source.load(&World::embedded(), report),
        },
        Ok(None) => None,
        Err(message) => {
            report.usage_error(message);
            None
        }
    }
}

fn human(path: &Path, outcome: &kitchen::Outcome) -> String {
    let counts = outcome.counts();
    let steps = count(outcome.steps, "step", "steps");
    let mut out = if counts.any == 0 {
        format!("{}: no failures ({steps})\n", display_name(path))
    } else {
        format!(
            "{}: {} in {steps}: {} syntax, {} immediate, {} latent ({} irreversible)\n",
            display_name(path),
            count(counts.any, "failure", "failures"),
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

/// `kitchen run`: every plan that can be read runs; an unreadable plan is a `P090` (in JSON, a
/// row of its own with the run's fields `null`) and the other plans' results are kept. Problems
/// with the world or the environment stop the run before any plan.
fn run_plans(args: &RunArgs, mut report: Report) -> Outcome {
    let format = report.format;
    let color = report.color;
    let world = load_world(args.world.as_deref(), &mut report);
    let env = load_task_env(&args.sources, world.as_ref(), &mut report);
    let mut outcomes = Vec::new();
    let mut rows = Vec::new();
    let mut unreadable = false;
    if let (Some(world), Some(env)) = (&world, &env) {
        let mode = args.mode;
        for path in &args.plans {
            let text = match read_text(path) {
                Ok(text) => text,
                Err(message) => {
                    unreadable = true;
                    unreadable_plan(path, &message, format, color, &mut rows);
                    continue;
                }
            };
            // Simmer's result files, empty and binary files are reported, never run.
            if let Some(diagnostic) = kitchen::not_a_plan(text.as_bytes()) {
                report.add_one(display_name(path), text, vec![diagnostic]);
                continue;
            }
            let outcome = kitchen::run(world, env, &text, mode);
            let sources = [SourceFile::new(display_name(path), text)];
            let view = Sources::new(&sources);
            match format {
                Format::Human | Format::Plain => {
                    // Problems with the plan text itself go to stderr; the failures are listed
                    // in Simmer's own line shape below.
                    if !outcome.plan_diagnostics.is_empty() {
                        eprint!("{}", render::gcc(&outcome.plan_diagnostics, &view));
                    }
                    print!("{}", human(path, &outcome));
                }
                Format::Json => {
                    let mut row = kitchen::plan_json(&display_name(path), &outcome);
                    row["diagnostics"] = render::json_diagnostics(&outcome.diagnostics(), &view);
                    rows.push(row);
                }
                Format::Gcc | Format::Val => print!(
                    "{}",
                    render_diagnostics(format, &outcome.diagnostics(), &view, color)
                ),
            }
            outcomes.push(outcome);
        }
    }
    let ran = world.is_some() && env.is_some();
    let summary = ran.then(|| kitchen::summary(&outcomes));
    match format {
        Format::Json => {
            // One shape for one plan or many, and for inputs that could not be used.
            let value = json!({
                "version": JSON_VERSION,
                "diagnostics": report.json_diagnostics(),
                "plans": rows,
                "summary": summary,
            });
            println!(
                "{}",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            );
        }
        // Problems with the inputs go where this format's other diagnostics go.
        Format::Gcc | Format::Val => print!("{}", report.rendered()),
        Format::Human | Format::Plain => {
            eprint!("{}", report.rendered());
            if let Some(summary) = summary.as_ref().filter(|_| outcomes.len() > 1) {
                println!("\n{}", table3(summary));
            }
        }
    }
    let plans = if unreadable {
        Outcome::Failure
    } else if summary.is_some_and(|s| s.with_any > 0) {
        Outcome::InputErrors
    } else {
        Outcome::Clean
    };
    report.outcome().max(plans)
}

/// `1 plan`, `2 plans`: a number and the noun it counts, singular or plural as it takes.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The paper's Table 3 over some plans, on one line: `12 plans: any failure 83.3%, …`.
pub fn table3(summary: &kitchen::Summary) -> String {
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    format!(
        "{}: any failure {}, immediate {}, syntax {}, latent {}, irreversible {}; {:.2} failures per plan",
        count(summary.plans, "plan", "plans"),
        pct(summary.share_any),
        pct(summary.share_immediate),
        pct(summary.share_syntax),
        pct(summary.share_latent),
        pct(summary.share_irreversible),
        summary.failures_per_plan
    )
}

/// Shows a plan that cannot be read where its results would be: its `P090` in the run's
/// format, under JSON as a row with the run's fields `null`.
fn unreadable_plan(path: &Path, message: &str, format: Format, color: bool, rows: &mut Vec<Value>) {
    let sources = [SourceFile::new(display_name(path), String::new())];
    let diagnostics = [io_error(message, FileId(0))];
    let view = Sources::new(&sources);
    match format {
        Format::Json => rows.push(json!({
            "plan": display_name(path),
            "steps": null,
            "failures": null,
            "counts": null,
            "irreversible_actions": null,
            "diagnostics": render::json_diagnostics(&diagnostics, &view),
        })),
        Format::Human | Format::Plain => {
            eprint!("{}", render_diagnostics(format, &diagnostics, &view, color))
        }
        Format::Gcc | Format::Val => {
            print!("{}", render_diagnostics(format, &diagnostics, &view, color))
        }
    }
}

fn describe(args: &DescribeArgs, mut report: Report) -> Outcome {
    let world = load_world(args.world.as_deref(), &mut report);
    let source = match args.sources.source() {
        Ok(source) => source,
        Err(message) => {
            report.usage_error(message);
            return report.finish(None, None);
        }
    };
    let env = match &source {
        // A world that could not be loaded is reported; the environment is still read with the
        // built-in world's classes, as `load_task_env` does, so that its problems show too.
        Some(source) => match &world {
            Some(world) => source.load(world, &mut report).map(Some),
            None => source.load(&World::embedded(), &mut report).map(Some),
        },
        None => Some(None),
    };
    let goal = source.as_ref().and_then(EnvSource::title_line);
    let options = kitchen::DescribeOptions {
        goal: goal.as_deref(),
        all_actions: args.all_actions,
    };
    let text = match (&world, &env) {
        (Some(world), Some(None)) => Some(kitchen::describe_world(world)),
        (Some(world), Some(Some(env))) => Some(kitchen::describe_task(world, env, &options)),
        _ => None,
    };
    report.finish(text.as_deref(), None)
}

/// `kitchen compile`: the domain, then a problem per task. With `--out`, a task whose inputs
/// cannot be used is reported and the others are written (listed under JSON as `written`);
/// on standard output, nothing is printed unless every input could be used.
fn compile(args: &CompileArgs, mut report: Report) -> Outcome {
    use kitchen::CompileOptions;
    let Some(world) = load_world(args.world.as_deref(), &mut report) else {
        return report.finish(None, None);
    };
    let flavour = args.flavour;
    let Some(tasks) = super::kitchen_task::task_names(&args.sources, &args.goals, &mut report)
    else {
        return report.finish(None, None);
    };
    let domain = pddlc::fmt::domain(&kitchen::compile_domain(&world, flavour));
    let mut written = Vec::new();
    let mut printed = String::new();
    match &args.out {
        Some(out) => {
            let path = out.join("domain.pddl");
            let done = std::fs::create_dir_all(out).and_then(|()| std::fs::write(&path, &domain));
            if let Err(e) = done {
                report.io_error(&path, format!("{}: {e}", path.display()));
                return report.finish(None, None);
            }
            written.push(path.display().to_string());
        }
        None if args.only != Some(Definition::Problem) => printed.push_str(&format!("{domain}\n")),
        None => {}
    }
    for task in &tasks {
        let env = match args.sources.for_task(task) {
            Ok(source) => source.load(&world, &mut report),
            Err(message) => {
                report.usage_error(message);
                None
            }
        };
        let goal = args.goals.load(task, &mut report);
        let plan_text = match &args.plan {
            Some(path) => match report.read(path) {
                Some(text) => Some(text),
                None => continue,
            },
            None => None,
        };
        let (Some(env), Some(goal)) = (env, goal) else {
            continue;
        };
        let options = match &plan_text {
            Some(text) => CompileOptions::for_plan(flavour, &world, &env, text),
            None => CompileOptions {
                flavour,
                ..CompileOptions::default()
            },
        };
        let (goal, goal_file) = match goal {
            Some(goal) => (Some(goal.goal), Some((goal.name, goal.text))),
            None => (None, None),
        };
        let name = format!("task-{task}");
        let problem = match kitchen::compile_task(&world, &env, goal.as_ref(), &name, &options) {
            Ok(problem) => problem,
            // A goal that says it cannot be solved is reported, not compiled.
            Err(unsolvable) => {
                if let Some((name, text)) = goal_file {
                    report.add_one(name, text, vec![unsolvable]);
                }
                continue;
            }
        };
        let text = pddlc::fmt::problem(&problem);
        match &args.out {
            Some(out) => {
                let path = out.join(format!("{task}.pddl"));
                match std::fs::write(&path, text) {
                    Ok(()) => written.push(path.display().to_string()),
                    Err(e) => report.io_error(&path, format!("{}: {e}", path.display())),
                }
            }
            None if args.only != Some(Definition::Domain) => printed.push_str(&format!("{text}\n")),
            None => {}
        }
    }
    let output = match (&args.out, report.outcome()) {
        (None, Outcome::Clean) => Some(printed.as_str()),
        _ => None,
    };
    let written = args.out.is_some().then(|| ("written", json!(written)));
    report.finish(output, written)
}

fn plan(args: &PlanArgs, mut report: Report) -> Outcome {
    let world = load_world(args.world.as_deref(), &mut report);
    let env = load_task_env(&args.sources, world.as_ref(), &mut report);
    let text = report.read(&args.plan);
    let (Some(world), Some(env), Some(text)) = (world, env, text) else {
        return report.finish(None, None);
    };
    if !args.from_pddl {
        return report.finish(Some(&kitchen::to_pddl_plan(&world, &env, &text)), None);
    }
    match kitchen::from_pddl_plan(&world, &env, &text) {
        Ok(plan) => report.finish(Some(&plan), None),
        Err(diagnostics) => {
            report.add_one(display_name(&args.plan), text, diagnostics);
            report.finish(None, None)
        }
    }
}
