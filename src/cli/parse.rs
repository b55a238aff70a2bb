//! `pddlc parse`: the syntax tree of one file.

use super::input::load;
use super::{Color, Format, Outcome, outcome_of, render_diagnostics};
use pddlc::diagnostics::FileId;
use pddlc::diagnostics::render::{self, JSON_VERSION, Sources};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The domain or problem file (`-` reads standard input).
    file: PathBuf,
    /// `json` (the default): the tree and the diagnostics in one versioned document. `human`,
    /// `gcc`, `val`: the diagnostics only, as a syntax check of the file.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// The same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

pub fn run(args: &Args) -> Outcome {
    let format = if args.json {
        Format::Json
    } else {
        args.format.unwrap_or(Format::Json)
    };
    let loaded = load(&args.file, FileId(0));
    let outcome = outcome_of(&loaded.diagnostics, false);
    let sources = [loaded.source.clone()];
    let view = Sources::new(&sources);
    if format != Format::Json {
        print!(
            "{}",
            render_diagnostics(format, &loaded.diagnostics, &view, args.color.enabled())
        );
        return outcome;
    }
    let tree = match &loaded.file {
        None => Ok(serde_json::Value::Null),
        Some(file) => pddlc::parse::with_stack(|| serde_json::to_value(file)),
    };
    let tree = match tree {
        Ok(tree) => tree,
        Err(e) => {
            eprintln!("error: cannot serialise the tree: {e}");
            return Outcome::Failure;
        }
    };
    let document = serde_json::json!({
        "version": JSON_VERSION,
        "file": loaded.source.name,
        "tree": tree,
        "diagnostics": render::json_diagnostics(&loaded.diagnostics, &view),
    });
    match pddlc::parse::with_stack(|| serde_json::to_string_pretty(&document)) {
        Ok(json) => println!("{json}"),
        Err(e) => {
            eprintln!("error: cannot serialise the tree: {e}");
            return Outcome::Failure;
        }
    }
    outcome
}
