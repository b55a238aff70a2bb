//! `pddlc fmt`: canonical PDDL on stdout, or rewritten in place with `--write`.

use super::Outcome;
use super::input::{expand, load_reported};
use pddlc::diagnostics::Severity;
use pddlc::print::{PrintOptions, file_with};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Files, or directories to search for .pddl files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Rewrite the files in place instead of printing them.
    #[arg(long, conflicts_with = "check")]
    write: bool,
    /// Print the names of files that are not canonical and exit 1 if there are any.
    #[arg(long)]
    check: bool,
    /// The line width lists are fitted into.
    #[arg(long, default_value_t = 80)]
    width: usize,
}

pub fn run(args: &Args) -> Outcome {
    let paths = match expand(&args.files) {
        Ok(paths) => paths,
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::Failure;
        }
    };
    let mut outcome = Outcome::Clean;
    for path in &paths {
        outcome = outcome.max(one(path, args));
    }
    outcome
}

fn one(path: &Path, args: &Args) -> Outcome {
    let loaded = match load_reported(path) {
        Ok(loaded) => loaded,
        Err(outcome) => return outcome,
    };
    let sources = [loaded.source];
    let has_errors = loaded
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error);
    let file = match (&loaded.file, has_errors) {
        (Some(file), false) => file,
        // Printing a file with errors would drop what did not parse: refuse.
        _ => {
            eprintln!("{}: not formatted because it has errors", path.display());
            return Outcome::InputErrors;
        }
    };
    let source = &sources[0].text;
    let printed = file_with(
        file,
        &PrintOptions {
            width: args.width,
            comments_from: Some(source),
        },
    );
    if args.check {
        if printed != *source {
            println!("{}", path.display());
            return Outcome::InputErrors;
        }
        return Outcome::Clean;
    }
    if !args.write {
        print!("{printed}");
        return Outcome::Clean;
    }
    if printed == *source {
        return Outcome::Clean;
    }
    // Write next to the file and rename over it, so that a failure never leaves it half written.
    let temporary = path.with_extension("pddl.pddlc-tmp");
    let written =
        std::fs::write(&temporary, &printed).and_then(|()| std::fs::rename(&temporary, path));
    match written {
        Ok(()) => Outcome::Clean,
        Err(e) => {
            let _ = std::fs::remove_file(&temporary);
            eprintln!("error: {}: {e}", path.display());
            Outcome::Failure
        }
    }
}
