//! `pddlc worldmodel score ITEMS PREDICTIONS`: a model's predictions against the items
//! `worldmodel make` wrote (docs/worldmodel.md, "Scoring"). The tasks are loaded from the items
//! file's task records; the table (or, under `--format json`, one document with every item's
//! result) goes to standard output, the diagnostics to standard error. Exit 0 when every item
//! and task could be used (unreadable and unmatched predictions are warnings: they score 0 or
//! are not used, and are counted), 1 with an unusable item or task, 2 usage or I/O.

use super::input::display_name;
use super::kitchen::{KitchenFormat, Report};
use super::validate::task;
use super::{Color, Outcome};
use pddlc::diagnostics::{FileId, SourceFile};
use pddlc::kitchen::Estimate;
use pddlc::worldmodel::{self, Answered, ScoreOptions, Scores, Summary, TaskRecord, Tasks};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct ScoreArgs {
    /// The items, as `pddlc worldmodel make` writes them (JSON lines).
    items: PathBuf,
    /// The model's predictions: one JSON object a line with the item's `"id"` and its answer
    /// (docs/worldmodel.md lists the fields each kind reads).
    predictions: PathBuf,
    /// The K of top-K proposal accuracy.
    #[arg(long, value_delimiter = ',', default_value = "1,3,5")]
    top_k: Vec<usize>,
    /// Bootstrap resamples per interval.
    #[arg(long, default_value_t = 10_000)]
    bootstrap: usize,
    /// Seed of the bootstrap's generator (SplitMix64), set once before any resampling.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// `human` (a table), `json` (one document, every item's result with it), or `gcc`/`val`
    /// for the diagnostics.
    #[arg(long, value_enum)]
    format: Option<KitchenFormat>,
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

/// A task loaded from its record.
struct Loaded {
    name: String,
    task: super::validate::Task,
}

pub fn run(args: &ScoreArgs) -> Outcome {
    let (format, diagnostics_format) = KitchenFormat::resolve(args.format);
    let mut report = Report::new(diagnostics_format, args.color.enabled());
    if format == KitchenFormat::Csv {
        report.usage_error("`worldmodel score` writes `human` or `json`, not `csv`".into());
        return report.outcome();
    }
    if args.top_k.is_empty() || args.top_k.contains(&0) {
        report.usage_error("--top-k takes positive numbers, such as 1,3,5".into());
        return report.outcome();
    }
    let (Some(items_text), Some(predictions_text)) =
        (report.read(&args.items), report.read(&args.predictions))
    else {
        return report.finish_document(None);
    };
    let items = worldmodel::read_items(&items_text, FileId(0));
    let loaded = load_tasks(&items.tasks, &args.items, &mut report);
    let tasks: Tasks = loaded
        .iter()
        .map(|l| (l.name.clone(), (&l.task.domain, &l.task.problem)))
        .collect();
    let options = ScoreOptions {
        top_k: args.top_k.clone(),
        samples: args.bootstrap,
        seed: args.seed,
        predictions_file: FileId(1),
    };
    let scores = worldmodel::score(&items, &tasks, &predictions_text, &options);
    let mut diagnostics = items.diagnostics.clone();
    diagnostics.extend(scores.diagnostics.iter().cloned());
    pddlc::diagnostics::sort(&mut diagnostics);
    report.add(
        vec![
            SourceFile::new(display_name(&args.items), items_text),
            SourceFile::new(display_name(&args.predictions), predictions_text),
        ],
        diagnostics,
    );
    if format == KitchenFormat::Json {
        return report.finish_document(Some(scores.document()));
    }
    print!("{}", table(&scores));
    eprint!("{}", report.rendered());
    report.outcome()
}

/// Loads each task record's domain and problem (paths as written, else from the items file's
/// folder); a task that cannot be loaded is reported and its items are not scored.
fn load_tasks(records: &[TaskRecord], items: &Path, report: &mut Report) -> Vec<Loaded> {
    let folder = items.parent().unwrap_or(Path::new(""));
    let resolve = |written: &str| {
        let path = PathBuf::from(written);
        if path.is_relative() && !path.exists() && folder.join(&path).exists() {
            folder.join(path)
        } else {
            path
        }
    };
    let mut loaded: Vec<Loaded> = Vec::new();
    for record in records {
        if loaded.iter().any(|l| l.name == record.task) {
            continue;
        }
        match task(&resolve(&record.domain), &resolve(&record.problem)) {
            Ok(task) => loaded.push(Loaded {
                name: record.task.clone(),
                task,
            }),
            Err((sources, diagnostics)) => report.add(sources, diagnostics),
        }
    }
    loaded
}

/// The overall table, then one line per task.
fn table(scores: &Scores) -> String {
    let mut out = String::new();
    let overall = &scores.overall;
    let items = scores.items.len();
    let predicted = scores
        .items
        .iter()
        .filter(|i| i.status != "unanswered")
        .count();
    let unreadable = scores
        .items
        .iter()
        .filter(|i| i.status == "unreadable")
        .count();
    let _ = writeln!(
        out,
        "{items} items of {} tasks: {predicted} predicted, {unreadable} unreadable\n",
        scores.tasks.len()
    );
    let _ = writeln!(
        out,
        "{:<40} {:>6}  {:<17} {:>6}",
        "metric", "value", "95% interval", "items"
    );
    let mut row = |name: &str, e: &Estimate| {
        let _ = writeln!(
            out,
            "{name:<40} {:>6}  {:<17} {:>6}",
            value(e),
            interval(e),
            e.n
        );
    };
    row("next state: exact", &overall.next_state.exact);
    row("next state: atom F1", &overall.next_state.atom_f1);
    row("verification: accuracy", &overall.verification.accuracy);
    row(
        "verification: false positive rate",
        &overall.verification.false_positive_rate,
    );
    row(
        "verification: false negative rate",
        &overall.verification.false_negative_rate,
    );
    for k in &overall.proposal.top_k {
        row(&format!("proposal: top-{} reference", k.k), &k.reference);
        row(
            &format!("proposal: top-{} on an optimal plan", k.k),
            &k.on_optimal_plan,
        );
        row(
            &format!("proposal: top-{} keeps the goal reachable", k.k),
            &k.keeps_goal_reachable,
        );
    }
    row("planning: success", &overall.planning.success);
    let _ = writeln!(out);
    let answered = |a: &Answered| format!("{}/{}/{}", a.items, a.predicted, a.unreadable);
    let _ = writeln!(
        out,
        "{:<24} {:>7} {:>7} {:>7} {:>7} {:>7}   items/predicted/unreadable",
        "task", "exact", "F1", "verify", "top-1*", "plan"
    );
    for task in &scores.tasks {
        let s: &Summary = &task.summary;
        let top1 = s
            .proposal
            .top_k
            .first()
            .map(|k| value(&k.on_optimal_plan))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{:<24} {:>7} {:>7} {:>7} {:>7} {:>7}   {} {} {} {}",
            task.task,
            value(&s.next_state.exact),
            value(&s.next_state.atom_f1),
            value(&s.verification.accuracy),
            top1,
            value(&s.planning.success),
            answered(&s.next_state.answered),
            answered(&s.verification.answered),
            answered(&s.proposal.answered),
            answered(&s.planning.answered),
        );
    }
    if !scores.tasks.is_empty() {
        let _ = writeln!(
            out,
            "(top-1*: the first proposed action is on an optimal plan; counts by kind: next state, verification, proposal, planning)"
        );
    }
    out
}

fn value(e: &Estimate) -> String {
    e.value.map_or("-".into(), |v| format!("{v:.3}"))
}

fn interval(e: &Estimate) -> String {
    match (e.low, e.high) {
        (Some(low), Some(high)) => format!("[{low:.3}, {high:.3}]"),
        _ => "-".into(),
    }
}
