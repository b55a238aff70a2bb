//! `pddlc fmt`: canonical PDDL on stdout, or rewritten in place with `--write`.

use super::input::{
    Expanded, ReadInput, expand, io_error, is_stdin, load_expanded, read_expanded_extracting,
};
use super::{Color, Format, Outcome, outcome_of, render_diagnostics};
use pddlc::bddl::Dialect;
use pddlc::diagnostics::render::{self, JSON_VERSION, Sources};
use pddlc::diagnostics::{Diagnostic, FileId, SourceFile};
use pddlc::fmt::{PrintOptions, file_with};
use serde_json::{Value, json};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Files (`-` reads standard input), or directories to search for .pddl files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Rewrite the files in place instead of printing them; a file that does not parse is
    /// reported and left as it is (checker errors do not stop it).
    #[arg(long, conflicts_with = "check")]
    write: bool,
    /// Print the names of files that are not canonical and exit 1 if there are any.
    #[arg(long)]
    check: bool,
    /// The line width lists are fitted into.
    #[arg(long, default_value_t = 80)]
    width: usize,
    /// How diagnostics are shown (on stderr, after which the text goes to stdout): `human` by
    /// default (miette's report on a terminal, `gcc` lines otherwise). `json`: one versioned
    /// document on stdout with each file's canonical text, whether it changed, and its
    /// diagnostics.
    #[arg(long, value_enum)]
    format: Option<Format>,
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// `auto`: BDDL for a .bddl file, PDDL otherwise; `bddl` or `pddl`: every input in that
    /// language (standard input included).
    #[arg(long, default_value = "auto", value_parser = super::choice::<Dialect>())]
    dialect: Dialect,
}

/// What happened to one file.
struct Formatted {
    name: String,
    text: Option<String>,
    changed: bool,
    diagnostics: Vec<Diagnostic>,
    sources: Vec<pddlc::diagnostics::SourceFile>,
    outcome: Outcome,
}

pub fn run(args: &Args) -> Outcome {
    let format = Format::or_default(args.format);
    if args.write && args.files.iter().any(|p| is_stdin(p)) {
        eprintln!("error: --write cannot rewrite standard input");
        return Outcome::Failure;
    }
    let paths = expand(&args.files);
    let mut outcome = Outcome::Clean;
    let mut files = Vec::new();
    for path in &paths {
        let done = one(path, args);
        outcome = outcome.max(done.outcome);
        if format == Format::Json {
            files.push(done);
            continue;
        }
        let view = Sources::new(&done.sources);
        eprint!(
            "{}",
            render_diagnostics(format, &done.diagnostics, &view, args.color.enabled())
        );
        if done.text.is_none() && done.outcome == Outcome::InputErrors {
            eprintln!("{}: not formatted because it has errors", done.name);
        }
        if args.check {
            if done.changed {
                println!("{}", done.name);
            }
        } else if let (false, Some(text)) = (args.write, &done.text) {
            print!("{text}");
        }
    }
    if format == Format::Json {
        let rows: Vec<Value> = files
            .iter()
            .map(|f| {
                let view = Sources::new(&f.sources);
                json!({
                    "file": f.name,
                    "text": if args.check || args.write { None } else { f.text.as_deref() },
                    "changed": f.changed,
                    "diagnostics": render::json_diagnostics(&f.diagnostics, &view),
                })
            })
            .collect();
        let document = json!({ "version": JSON_VERSION, "files": rows });
        println!(
            "{}",
            serde_json::to_string_pretty(&document).unwrap_or_default()
        );
    }
    outcome
}

/// A file read and parsed in its dialect.
enum Tree {
    Pddl(Box<pddlc::ast::PddlFile>),
    Bddl(pddlc::ast::bddl::BddlFile),
}

fn load_tree(input: &Expanded, dialect: Dialect) -> (SourceFile, Option<Tree>, Vec<Diagnostic>) {
    if dialect.is_bddl(&input.0.to_string_lossy()) {
        return match read_expanded_extracting(input, FileId(0), None) {
            ReadInput::Text(source) => {
                let parsed = pddlc::parse::bddl(&source.text);
                (source, parsed.value.map(Tree::Bddl), parsed.diagnostics)
            }
            ReadInput::Failed(loaded) => (loaded.source, None, loaded.diagnostics),
        };
    }
    let loaded = load_expanded(input, FileId(0));
    (
        loaded.source,
        loaded.file.map(|f| Tree::Pddl(Box::new(f))),
        loaded.diagnostics,
    )
}

fn one(input: &Expanded, args: &Args) -> Formatted {
    let path = input.0.as_path();
    let (source, tree, diagnostics) = load_tree(input, args.dialect);
    let mut done = Formatted {
        name: source.name.clone(),
        text: None,
        changed: false,
        outcome: outcome_of(&diagnostics, false),
        diagnostics,
        sources: vec![source],
    };
    // Printing a file with errors would drop what did not parse: refuse.
    let tree = match (&tree, done.outcome) {
        (Some(tree), Outcome::Clean) => tree,
        _ => {
            done.outcome = done.outcome.max(Outcome::InputErrors);
            return done;
        }
    };
    let source = &done.sources[0].text;
    let options = PrintOptions {
        width: args.width,
        comments_from: Some(source),
    };
    let printed = match tree {
        Tree::Pddl(file) => file_with(file, &options),
        Tree::Bddl(file) => pddlc::fmt::bddl(file, &options),
    };
    done.changed = printed != *source;
    if args.check && done.changed {
        done.outcome = Outcome::InputErrors;
    }
    if args.write && done.changed {
        // Write next to the file and rename over it, so that a failure never leaves it half
        // written.
        let temporary = path.with_extension("pddlc-tmp");
        let written =
            std::fs::write(&temporary, &printed).and_then(|()| std::fs::rename(&temporary, path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temporary);
            done.diagnostics
                .push(io_error(&format!("{}: {e}", path.display()), FileId(0)));
            done.outcome = Outcome::Failure;
        }
    }
    done.text = Some(printed);
    done
}
