//! `pddlc bddl compare`: ActPlan-1K's LCS plan metric on two plan files, or on a JSONL file of
//! pairs (`--pairs`). Unreadable inputs and bad pairs are diagnostics in the run's format.

use super::input::display_name;
use super::kitchen::{KitchenFormat, Report};
use super::{Color, Format, Outcome};
use clap::Subcommand;
use pddlc::ast::Span;
use pddlc::bddl::{self, COMPARE_JSON_VERSION, Comparison, Matching, Mode};
use pddlc::diagnostics::{Code, Diagnostic, FileId};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
    /// Output format: `human` by default, `json` for one versioned document (docs/bddl.md).
    #[arg(long, value_enum, global = true)]
    format: Option<KitchenFormat>,
    #[arg(long, value_enum, global = true, default_value_t = Color::Auto)]
    color: Color,
}

#[derive(Subcommand)]
enum Command {
    /// ActPlan-1K's plan metric: the longest common subsequence of the two plans' steps over
    /// the longer plan's length, with the matched steps.
    Compare(CompareArgs),
    /// A problem's goal evaluated on a state (or many): satisfied, and each top-level
    /// conjunct, with bddl's semantics or the intended ones.
    Goal(super::bddl_goal::GoalArgs),
}

#[derive(clap::Args)]
struct CompareArgs {
    /// The gold plan, one step a line.
    #[arg(required_unless_present = "pairs", conflicts_with = "pairs")]
    gold: Option<PathBuf>,
    /// The predicted plan.
    #[arg(required_unless_present = "pairs")]
    pred: Option<PathBuf>,
    /// A JSONL file, one pair a line: `{"gold": TEXT, "pred": TEXT}` or
    /// `{"gold_path": FILE, "pred_path": FILE}` (relative to the JSONL file's folder).
    #[arg(long)]
    pairs: Option<PathBuf>,
    /// `compat`: the reference's quirks (untrimmed `split("\n")`, a missing gold plan scores
    /// 1.0); `default`: trimmed steps, blank lines dropped, a missing gold plan is an error.
    #[arg(long, value_enum, default_value_t = ModeName::Default)]
    mode: ModeName,
    /// When two steps match: `exact` bytes, or `normalised` (case, spacing, `-`/`_` in the
    /// verb, argument order of placements).
    #[arg(long = "match", value_enum, default_value_t = MatchName::Exact)]
    matching: MatchName,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ModeName {
    Compat,
    Default,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum MatchName {
    Exact,
    Normalised,
}

impl CompareArgs {
    fn mode(&self) -> Mode {
        match self.mode {
            ModeName::Compat => Mode::Compat,
            ModeName::Default => Mode::Default,
        }
    }

    fn matching(&self) -> Matching {
        match self.matching {
            MatchName::Exact => Matching::Exact,
            MatchName::Normalised => Matching::Normalised,
        }
    }
}

pub fn run(args: &Args) -> Outcome {
    let (format, shown) = KitchenFormat::resolve(args.format);
    if format == KitchenFormat::Csv {
        eprintln!("error: --format csv is not for `bddl`: use human, json, gcc or val");
        return Outcome::Failure;
    }
    let report = Report::new(shown, args.color.enabled());
    match &args.command {
        Command::Compare(compare_args) => match &compare_args.pairs {
            Some(pairs) => compare_pairs(compare_args, pairs, report),
            None => compare_two(compare_args, report),
        },
        Command::Goal(goal_args) => super::bddl_goal::run(goal_args, format, report),
    }
}

fn compare_two(args: &CompareArgs, mut report: Report) -> Outcome {
    let (Some(gold_path), Some(pred_path)) = (&args.gold, &args.pred) else {
        report.usage_error("give GOLD and PRED, or --pairs".to_string());
        return report.finish_document(None);
    };
    let gold = report.read(gold_path);
    let pred = report.read(pred_path);
    let (Some(gold), Some(pred)) = (gold, pred) else {
        return report.finish_document(None);
    };
    let comparison = match bddl::compare(Some(&gold), &pred, args.mode(), args.matching()) {
        Ok(comparison) => comparison,
        Err(diagnostic) => {
            report.add_one(display_name(gold_path), gold, vec![diagnostic]);
            return report.finish_document(None);
        }
    };
    if report.format == Format::Json {
        let mut document = serde_json::to_value(&comparison).unwrap_or_default();
        if let Some(object) = document.as_object_mut() {
            object.insert("version".to_string(), json!(COMPARE_JSON_VERSION));
        }
        return report.finish_document(Some(document));
    }
    eprint!("{}", report.rendered());
    print!("{}", human(&comparison));
    report.outcome()
}

/// One comparison as text: the score, then the matched steps.
fn human(comparison: &Comparison) -> String {
    let mut out = one_line(comparison);
    out.push('\n');
    for pair in &comparison.matched {
        out.push_str(&format!(
            "  {:>4} {:>4}  {:?} = {:?}\n",
            pair.gold_index + 1,
            pair.pred_index + 1,
            pair.gold,
            pair.pred
        ));
    }
    out
}

fn one_line(comparison: &Comparison) -> String {
    let own = if comparison.self_reference {
        " (no gold: scored against itself)"
    } else {
        ""
    };
    format!(
        "score {:.4}  lcs {}  gold {} steps  pred {} steps{own}",
        comparison.score, comparison.lcs, comparison.gold_steps, comparison.pred_steps
    )
}

/// A pair from a line of the JSONL file: the two texts, the gold possibly missing.
struct Pair {
    line: usize,
    gold: Option<String>,
    pred: String,
}

fn compare_pairs(args: &CompareArgs, path: &Path, mut report: Report) -> Outcome {
    let Some(text) = report.read(path) else {
        return report.finish_document(None);
    };
    let base = path.parent().unwrap_or(Path::new("."));
    let mut diagnostics = Vec::new();
    let mut rows = Vec::new();
    let mut comparisons = Vec::new();
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let span = Span::new(offset, offset + line.trim_end().len());
        offset += line.len();
        if line.trim().is_empty() {
            continue;
        }
        let Some(pair) = read_pair(line, index + 1, base, span, &mut diagnostics, &mut report)
        else {
            continue;
        };
        match bddl::compare(
            pair.gold.as_deref(),
            &pair.pred,
            args.mode(),
            args.matching(),
        ) {
            Ok(comparison) => {
                rows.push((pair.line, comparison.clone()));
                comparisons.push(comparison);
            }
            Err(diagnostic) => diagnostics.push(located(diagnostic, span)),
        }
    }
    report.add_one(display_name(path), text, diagnostics);
    let summary = bddl::summary(&comparisons);
    if report.format == Format::Json {
        let pairs: Vec<Value> = rows
            .iter()
            .map(|(line, c)| {
                json!({"line": line, "score": c.score, "lcs": c.lcs, "gold_steps": c.gold_steps,
                       "pred_steps": c.pred_steps, "self_reference": c.self_reference,
                       "matched": c.matched})
            })
            .collect();
        let document = json!({"version": COMPARE_JSON_VERSION, "summary": summary, "pairs": pairs});
        return report.finish_document(Some(document));
    }
    eprint!("{}", report.rendered());
    for (line, comparison) in &rows {
        println!("line {line:>5}  {}", one_line(comparison));
    }
    println!(
        "{} pairs  mean lcs {:.4}  mean score {:.4}",
        summary.count, summary.mean_lcs, summary.mean_score
    );
    report.outcome()
}

/// A diagnostic placed on a line of the pairs file, its help kept.
fn located(diagnostic: Diagnostic, span: Span) -> Diagnostic {
    let message = diagnostic.message.clone();
    let placed = Diagnostic::new(diagnostic.code, message.clone(), span)
        .with_primary_message(message)
        .in_file(FileId(0));
    match diagnostic.help {
        Some(help) => placed.with_help(help),
        None => placed,
    }
}

/// The pair on one line, or `None` after a diagnostic (`B701` on the line, or `P090` for a
/// file it names that cannot be read).
fn read_pair(
    line: &str,
    number: usize,
    base: &Path,
    span: Span,
    diagnostics: &mut Vec<Diagnostic>,
    report: &mut Report,
) -> Option<Pair> {
    let invalid = |message: &str| {
        Diagnostic::new(Code::BddlPairInvalid, message.to_string(), span)
            .with_primary_message(message.to_string())
            .in_file(FileId(0))
            .with_help(
                "one JSON object a line: {\"gold\": TEXT, \"pred\": TEXT} or \
                 {\"gold_path\": FILE, \"pred_path\": FILE}",
            )
    };
    let value: Value = match serde_json::from_str(line) {
        Ok(Value::Object(object)) => Value::Object(object),
        Ok(_) => {
            diagnostics.push(invalid("the line is not a JSON object"));
            return None;
        }
        Err(error) => {
            diagnostics.push(invalid(&format!("the line is not JSON: {error}")));
            return None;
        }
    };
    // A plan or a path is a string; `null` counts as absent (a missing gold plan).
    for key in ["gold", "pred", "gold_path", "pred_path"] {
        if value
            .get(key)
            .is_some_and(|v| !v.is_string() && !v.is_null())
        {
            diagnostics.push(invalid(&format!("`{key}` is not a string")));
            return None;
        }
    }
    let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_string);
    let file = |key: &str, report: &mut Report| -> Option<Option<String>> {
        match value.get(key).and_then(Value::as_str) {
            None => Some(None),
            Some(name) => report.read(&base.join(name)).map(Some),
        }
    };
    let pred = match text("pred") {
        Some(pred) => pred,
        None if value.get("pred_path").is_some_and(Value::is_string) => file("pred_path", report)??,
        None => {
            diagnostics.push(invalid("the pair has no `pred` or `pred_path` string"));
            return None;
        }
    };
    let gold = match text("gold") {
        Some(gold) => Some(gold),
        None => file("gold_path", report)?,
    };
    Some(Pair {
        line: number,
        gold,
        pred,
    })
}
