//! `pddlc check`: parse every input and report its diagnostics.

use super::input::{expand, load};
use super::{Color, Format, Outcome};
use pddlc::diagnostics::render::{self, HumanOptions, Sources};
use pddlc::diagnostics::{Diagnostic, FileId, Severity, SourceFile};
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Domain and problem files, or directories to search for .pddl files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format; `human` on a terminal, `gcc` otherwise.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Colour in the human format.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

pub fn run(args: &Args) -> Outcome {
    let paths = match expand(&args.files) {
        Ok(paths) => paths,
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::Failure;
        }
    };
    let mut sources: Vec<SourceFile> = Vec::new();
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        match load(path, FileId(i as u32)) {
            Ok(loaded) => {
                sources.push(loaded.source);
                diagnostics.extend(loaded.diagnostics);
            }
            Err(message) => {
                eprintln!("error: {message}");
                return Outcome::Failure;
            }
        }
    }
    pddlc::diagnostics::sort(&mut diagnostics);
    let terminal = std::io::stdout().is_terminal();
    let format = args
        .format
        .unwrap_or(if terminal { Format::Human } else { Format::Gcc });
    let sources_view = Sources::new(&sources);
    let output = match format {
        Format::Human => render::human(
            &diagnostics,
            &sources_view,
            &HumanOptions {
                color: match args.color {
                    Color::Always => true,
                    Color::Never => false,
                    Color::Auto => terminal,
                },
                width: 100,
            },
        ),
        Format::Json => render::json(&diagnostics, &sources_view) + "\n",
        Format::Gcc => render::gcc(&diagnostics, &sources_view),
        Format::Val => render::val(&diagnostics, &sources_view),
    };
    print!("{output}");
    let count = |severity| {
        diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    };
    let errors = count(Severity::Error);
    if format == Format::Human {
        eprintln!(
            "checked {} file{}: {} error{}, {} warning{}",
            paths.len(),
            plural(paths.len()),
            errors,
            plural(errors),
            count(Severity::Warning),
            plural(count(Severity::Warning)),
        );
    }
    if errors > 0 {
        Outcome::InputErrors
    } else {
        Outcome::Clean
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
