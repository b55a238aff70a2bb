//! `pddlc parse`: the syntax tree of one file.

use super::Outcome;
use super::input::load;
use pddlc::diagnostics::FileId;
use pddlc::diagnostics::render::{self, Sources};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The domain or problem file.
    file: PathBuf,
    /// Print the tree as JSON (the only format for now; kept explicit for later ones).
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> Outcome {
    let loaded = match load(&args.file, FileId(0)) {
        Ok(loaded) => loaded,
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::Failure;
        }
    };
    let sources = [loaded.source];
    if !loaded.diagnostics.is_empty() {
        eprint!(
            "{}",
            render::gcc(&loaded.diagnostics, &Sources::new(&sources))
        );
    }
    if let Some(file) = &loaded.file {
        match pddlc::parse::with_stack(|| serde_json::to_string_pretty(file)) {
            Ok(json) => println!("{json}"),
            Err(e) => {
                eprintln!("error: cannot serialise the tree: {e}");
                return Outcome::Failure;
            }
        }
    }
    if loaded.diagnostics.iter().any(|d| d.is_error()) {
        Outcome::InputErrors
    } else {
        Outcome::Clean
    }
}
