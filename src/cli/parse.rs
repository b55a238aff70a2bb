//! `pddlc parse`: the syntax tree of one file.

use super::input::{load, read_source};
use super::{Color, Format, Outcome, outcome_of, render_diagnostics};
use pddlc::bddl::Dialect;
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
    /// `auto`: BDDL for a .bddl file, PDDL otherwise; `bddl` or `pddl`: read as that.
    #[arg(long, default_value = "auto", value_parser = super::choice::<Dialect>())]
    dialect: Dialect,
}

pub fn run(args: &Args) -> Outcome {
    let format = if args.json {
        Format::Json
    } else {
        args.format.unwrap_or(Format::Json)
    };
    let (source, diagnostics, tree) = if args.dialect.is_bddl(&args.file.to_string_lossy()) {
        let (source, mut diagnostics) = read_source(&args.file, FileId(0));
        let parsed = (diagnostics.is_empty()).then(|| pddlc::parse::bddl(&source.text));
        let tree = parsed
            .as_ref()
            .and_then(|p| p.value.as_ref())
            .map(|file| pddlc::parse::with_stack(|| serde_json::to_value(file)));
        diagnostics.extend(parsed.map(|p| p.diagnostics).unwrap_or_default());
        (source, diagnostics, tree)
    } else {
        let loaded = load(&args.file, FileId(0));
        let tree = loaded
            .file
            .as_ref()
            .map(|file| pddlc::parse::with_stack(|| serde_json::to_value(file)));
        (loaded.source, loaded.diagnostics, tree)
    };
    let outcome = outcome_of(&diagnostics, false);
    let sources = [source];
    let view = Sources::new(&sources);
    if format != Format::Json {
        print!(
            "{}",
            render_diagnostics(format, &diagnostics, &view, args.color.enabled())
        );
        return outcome;
    }
    let tree = tree.unwrap_or(Ok(serde_json::Value::Null));
    let tree = match tree {
        Ok(tree) => tree,
        Err(e) => {
            eprintln!("error: cannot serialise the tree: {e}");
            return Outcome::Failure;
        }
    };
    let document = serde_json::json!({
        "version": JSON_VERSION,
        "file": sources[0].name,
        "tree": tree,
        "diagnostics": render::json_diagnostics(&diagnostics, &view),
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
