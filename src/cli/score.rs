//! `pddlc score`: Text2World's metrics for one pair or a batch of pairs.

use super::Outcome;
use pddlc::score::{self, Metrics, Mode, Scored};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Json,
    Table,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ModeArg {
    /// What the metrics were meant to measure, computed on the syntax tree.
    Clean,
    /// The official Text2World scorer's values, quirks included.
    Text2world,
}

#[derive(clap::Args)]
pub struct Args {
    /// The gold domain.
    #[arg(required_unless_present = "pairs", requires = "pred")]
    gold: Option<PathBuf>,
    /// The predicted domain (or, with `--response`, the raw LLM answer).
    pred: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = ModeArg::Clean)]
    mode: ModeArg,
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// PRED is an LLM response: extract the domain as Text2World does (the longest ```pddl
    /// block, else any fenced block, else the whole text).
    #[arg(long)]
    response: bool,
    /// A JSON-lines file of pairs: each line has `gold` and `pred` (paths relative to the file,
    /// or inline PDDL text), and optionally `id` and `response` (which overrides `--response`
    /// for that line). One JSON line is written per input line, in order, with its 1-based line
    /// number in the file, then a dataset summary; the exit code is 1 when a line failed.
    #[arg(long, conflicts_with_all = ["gold", "pred"])]
    pairs: Option<PathBuf>,
}

fn mode(arg: ModeArg) -> Mode {
    match arg {
        ModeArg::Clean => Mode::Clean,
        ModeArg::Text2world => Mode::Text2World,
    }
}

pub fn run(args: &Args) -> Outcome {
    match &args.pairs {
        Some(file) => batch(file, mode(args.mode), args.response),
        None => one(args),
    }
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn one(args: &Args) -> Outcome {
    let (Some(gold), Some(pred)) = (&args.gold, &args.pred) else {
        eprintln!("error: give GOLD and PRED, or --pairs FILE");
        return Outcome::Failure;
    };
    let (gold, pred) = match (read(gold), read(pred)) {
        (Ok(g), Ok(p)) => (g, p),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return Outcome::Failure;
        }
    };
    let scored = score::compare(&gold, &pred, mode(args.mode), args.response);
    let format = args.format.unwrap_or(if std::io::stdout().is_terminal() {
        Format::Table
    } else {
        Format::Json
    });
    match format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&scored.json()).unwrap_or_default()
        ),
        Format::Table => print!("{}", table(&scored)),
    }
    Outcome::Clean
}

fn table(scored: &Scored) -> String {
    let m = scored.metrics;
    let mut out = String::new();
    for (name, value) in [
        ("EXEC", m.exec),
        ("SIM", m.sim),
        ("F1_PRED", m.f1_pred),
        ("F1_PARAM", m.f1_param),
        ("F1_PRECOND", m.f1_precond),
        ("F1_EFF", m.f1_eff),
    ] {
        out.push_str(&format!("{name:<11} {value:>6}\n"));
    }
    for note in scored.notes() {
        out.push_str(&format!("note: {note}\n"));
    }
    out
}

/// A pair's text: a file (a path relative to the pairs file; file names may hold parentheses,
/// as Text2World's `domain(2)` does), else inline PDDL text.
fn text(value: &Value, base: &Path) -> Result<String, String> {
    let s = value.as_str().ok_or("missing, or not a string")?;
    let path = base.join(s);
    if !s.contains('\n') && path.is_file() {
        read(&path)
    } else if s.contains('(') {
        Ok(s.to_string())
    } else {
        Err(format!("{}: no such file", path.display()))
    }
}

fn batch(file: &Path, mode: Mode, response: bool) -> Outcome {
    let content = match read(file) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return Outcome::Failure;
        }
    };
    let base = file.parent().unwrap_or(Path::new("."));
    // Blank lines are skipped, but every row keeps the line number it has in the file.
    let lines: Vec<(usize, &str)> = content
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
        .collect();
    let progress = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(lines.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let rows: Vec<(Value, Option<Metrics>)> = lines
        .par_iter()
        .map(|(number, line)| {
            let row = score_line(*number, line, base, mode, response);
            progress.inc(1);
            row
        })
        .collect();
    progress.finish_and_clear();
    let mut errors = 0;
    let mut all = Vec::new();
    for (row, metrics) in &rows {
        println!("{}", serde_json::to_string(row).unwrap_or_default());
        match metrics {
            Some(m) => all.push(*m),
            None => {
                errors += 1;
                all.push(Metrics::default());
            }
        }
    }
    let summary = score::summary(&all);
    println!(
        "{}",
        json!({ "summary": summary, "pairs": rows.len(), "errors": errors })
    );
    if errors > 0 {
        Outcome::InputErrors
    } else {
        Outcome::Clean
    }
}

/// One output line: the pair's metrics, or its error (with the input's `id` when it has one);
/// never dropped. `response` is the default for lines that do not say.
fn score_line(
    number: usize,
    line: &str,
    base: &Path,
    mode: Mode,
    response: bool,
) -> (Value, Option<Metrics>) {
    let parsed: Result<Value, String> = serde_json::from_str(line).map_err(|e| e.to_string());
    let id = parsed.as_ref().ok().and_then(|v| v.get("id")).cloned();
    let result = parsed.and_then(|v| {
        let gold = text(&v["gold"], base).map_err(|e| format!("gold: {e}"))?;
        let pred = text(&v["pred"], base).map_err(|e| format!("pred: {e}"))?;
        let response = v["response"].as_bool().unwrap_or(response);
        Ok((v, score::compare(&gold, &pred, mode, response)))
    });
    match result {
        Ok((input, scored)) => {
            let mut out = scored.json();
            if let Some(object) = out.as_object_mut() {
                object.insert("line".into(), json!(number));
                if let Some(id) = input.get("id") {
                    object.insert("id".into(), id.clone());
                }
            }
            (out, Some(scored.metrics))
        }
        Err(error) => {
            let mut row = json!({ "line": number, "error": error });
            if let Some(id) = id {
                row["id"] = id;
            }
            (row, None)
        }
    }
}
