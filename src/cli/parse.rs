//! `pddlc parse`: the syntax tree of one file.

use super::Outcome;
use super::input::load_reported;
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
    let loaded = match load_reported(&args.file) {
        Ok(loaded) => loaded,
        Err(outcome) => return outcome,
    };
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
