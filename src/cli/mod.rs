//! The command-line interface: reading files, calling the library, printing, exit codes.
//!
//! Exit codes: 0 clean, 1 a faulty input or plan, 2 usage or unreadable input, 3 no verdict.

mod bddl;
mod bddl_goal;
mod check;
mod check_batch;
mod check_bddl;
mod fmt;
mod input;
mod kitchen;
mod kitchen_eval;
mod kitchen_solve;
mod kitchen_task;
mod plancraft;
mod plancraft_eval;
mod lsp;
mod parse;
mod score;
mod score_functional;
mod solve;
mod validate;
mod worldmodel;
mod worldmodel_score;

use clap::{Parser, Subcommand, ValueEnum};
use pddlc::choice::Choice;
use pddlc::diagnostics::render::{self, HumanOptions, Sources};
use pddlc::diagnostics::{Code, Diagnostic, Severity};
use std::io::IsTerminal;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "pddlc",
    version,
    about = "A toolchain for PDDL: check, fmt, parse, validate, applicable, solve, score, kitchen, plancraft, bddl, lsp",
    after_help = "Every subcommand takes `--format` (human by default: on a terminal miette's \
                  report, otherwise one `gcc` line a diagnostic; `json` for scripts) and \
                  `--color`; `-` reads a file from standard input. Exit codes: 0 clean, 1 a \
                  faulty input or plan, 2 usage or unreadable input, 3 no verdict (validate, \
                  applicable). See docs/cli.md.\n\n\
                  Examples, from the repository's root:\n  \
                  $ pddlc check domains/blocksworld/domain.pddl domains/blocksworld/problem.pddl\n  \
                  $ pddlc kitchen run --task 001 \
                  domains/kitchen/examples/runs/planner/001/plan_001.txt"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check domains and problems (files or directories of .pddl files) and report every problem.
    Check(check::Args),
    /// Print files in canonical PDDL, keeping comments; `--write` rewrites them in place.
    Fmt(fmt::Args),
    /// Parse one file and print its syntax tree.
    Parse(parse::Args),
    /// Simulate plans against a domain and problem, and report the first failing step, unmet
    /// goals and the plan's value.
    Validate(validate::Args),
    /// List the ground actions applicable after a plan prefix (or in the initial state).
    Applicable(validate::ApplicableArgs),
    /// Find a plan with the built-in planner, or prove there is none.
    Solve(solve::Args),
    /// Score a generated domain against a gold one with Text2World's metrics.
    Score(score::Args),
    /// The Simmer kitchen world: run plans in it, describe it, compile it to PDDL, translate plans, solve tasks.
    Kitchen(kitchen::Args),
    /// Plancraft's crafting world: run an agent's messages in it, solve and audit its examples.
    Plancraft(plancraft::Args),
    /// BDDL and ActPlan-1K: compare plans with ActPlan-1K's LCS metric.
    Bddl(bddl::Args),
    /// LLM world models: evaluation items (next state, verification, proposal, planning) from a
    /// task and a reference plan.
    Worldmodel(worldmodel::Args),
    /// A Language Server Protocol server over standard input and output, for editors.
    Lsp(lsp::Args),
}

/// How results and diagnostics are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people: results as text, diagnostics as miette's graphical report.
    Human,
    /// The versioned JSON envelope.
    Json,
    /// `file:line:col: error: message [CODE]`, one line a diagnostic.
    Gcc,
    /// VAL's `file: line: N: Error: message`, read by the VS Code PDDL extension.
    Val,
    /// What an omitted `--format` gives when standard output is not a terminal: `human`
    /// results, with diagnostics as `gcc` lines (greppable, and read by editors' compile
    /// modes). Not a value of `--format`.
    #[value(skip)]
    Plain,
}

impl Format {
    /// The format asked for, else the one convention of every subcommand (docs/cli.md):
    /// `human` on a terminal, `Plain` (human results, `gcc` diagnostics) otherwise.
    pub fn or_default(format: Option<Format>) -> Format {
        format.unwrap_or_else(|| {
            if std::io::stdout().is_terminal() {
                Format::Human
            } else {
                Format::Plain
            }
        })
    }

    /// Whether results are shown as text for people (`human`, or the default off a terminal).
    pub fn is_human(self) -> bool {
        matches!(self, Format::Human | Format::Plain)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

/// The outcome of a command, mapped onto the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    Clean = 0,
    InputErrors = 1,
    Failure = 2,
    /// `validate` and `applicable`: a plan the validator cannot judge (V310), and nothing
    /// worse. Never combined with `max`: an invalid plan or an I/O failure outranks it.
    NoVerdict = 3,
}

impl Outcome {
    fn code(self) -> ExitCode {
        ExitCode::from(self as u8)
    }
}

impl Color {
    /// Whether to colour output written to standard output: `auto` colours a terminal unless
    /// `NO_COLOR` is set or `TERM` is `dumb`.
    pub fn enabled(self) -> bool {
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::env::var("TERM").map_or(true, |t| t != "dumb")
            }
        }
    }
}

/// Diagnostics in `format`: the one rendering path of every subcommand.
pub fn render_diagnostics(
    format: Format,
    diagnostics: &[Diagnostic],
    sources: &Sources,
    color: bool,
) -> String {
    match format {
        Format::Human => render::human(diagnostics, sources, &HumanOptions { color, width: 100 }),
        Format::Json => render::json(diagnostics, sources) + "\n",
        Format::Gcc | Format::Plain => render::gcc(diagnostics, sources),
        Format::Val => render::val(diagnostics, sources),
    }
}

/// The argument parser of an option spelled as words: the library's own spellings and help, read
/// by the library's `FromStr`, so the CLI and the Python binding accept the same words.
pub fn choice<T: Choice + Send + Sync>() -> impl clap::builder::TypedValueParser<Value = T> {
    let values = T::CHOICES
        .iter()
        .map(|(name, _, help)| clap::builder::PossibleValue::new(*name).help(*help));
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(values).try_map(|word: String| T::parse_choice(&word))
}

/// The exit code diagnostics call for: 2 when an input could not be read (`P090`), 1 on errors
/// (and on warnings under `--deny-warnings`), 0 otherwise.
pub fn outcome_of(diagnostics: &[Diagnostic], deny_warnings: bool) -> Outcome {
    if diagnostics.iter().any(|d| d.code == Code::IoError) {
        Outcome::Failure
    } else if diagnostics
        .iter()
        .any(|d| d.is_error() || (deny_warnings && d.severity == Severity::Warning))
    {
        Outcome::InputErrors
    } else {
        Outcome::Clean
    }
}

/// A local rayon pool of `jobs` threads (all cores when `None`), so that `--jobs` never touches
/// the global pool.
pub fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, Outcome> {
    // Threads with the stack the recursive stages ask for (reserved, not committed), so that
    // `parse::with_stack` need not map a new stack for every input.
    let mut builder = rayon::ThreadPoolBuilder::new().stack_size(pddlc::parse::STACK_SIZE);
    if let Some(jobs) = jobs {
        if jobs == 0 {
            eprintln!("error: --jobs must be at least 1");
            return Err(Outcome::Failure);
        }
        builder = builder.num_threads(jobs);
    }
    builder.build().map_err(|e| {
        eprintln!("error: cannot start {jobs:?} threads: {e}");
        Outcome::Failure
    })
}

pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // clap exits 0 for --help and --version and 2 for usage errors.
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() { 2 } else { 0 });
        }
    };
    let outcome = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Fmt(args) => fmt::run(&args),
        Command::Parse(args) => parse::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Applicable(args) => validate::applicable(&args),
        Command::Score(args) => score::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Kitchen(args) => kitchen::run(&args),
        Command::Plancraft(args) => plancraft::run(&args),
        Command::Bddl(args) => bddl::run(&args),
        Command::Worldmodel(args) => worldmodel::run(&args),
        Command::Lsp(args) => lsp::run(&args),
    };
    outcome.code()
}
