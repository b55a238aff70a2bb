//! `pddlc plancraft eval`: the Plancraft paper's results table (semantics §11) from whole
//! runs: run folders of Plancraft's result files, or JSONL files, joined with a split's
//! examples; bootstrap intervals, paired comparisons, the steps table against an oracle run.

use super::input::{display_name, read_text};
use super::kitchen::{KitchenFormat, Report};
use super::kitchen_eval::{csv_field, t_test_line, test_line};
use super::{Format, Outcome};
use pddlc::diagnostics::render::JSON_VERSION;
use pddlc::kitchen::{BootstrapOptions, Estimate, RunFolder};
use pddlc::plancraft::eval::{
    self, EpisodeRow, EvalDocument, Evaluation, Examples, INTERVAL_METRICS, MethodComparison,
    MethodInput, MethodTable, OracleSummary, RESULTS_COLUMNS, ReplayedEpisode, RunFiles, RunReader,
    STEPS_COLUMNS,
};
use pddlc::plancraft::{Example, World};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct EvalArgs {
    /// Runs, `RUN[:LABEL]`: a folder searched for Plancraft's result files (`*.json`, as in
    /// `outputs/<run>/<split>/<generation>/<example_id>.json`, every generation pooled), or a
    /// `.jsonl` file of episodes, one a line. The label is the folder's (the file's) name.
    #[arg(required = true, value_name = "RUN[:LABEL]")]
    runs: Vec<String>,
    /// The split the runs were made on: Plancraft's `val.json`, `test.json`, ….
    #[arg(long, value_name = "SPLIT_JSON")]
    examples: PathBuf,
    /// The oracle's run (a folder or a JSONL file, as RUN): its action and step counts per
    /// example give AE and the steps table, which have no value without it.
    #[arg(long, value_name = "RUN")]
    oracle: Option<String>,
    /// Take the oracle's counts from `plancraft solve` instead of an oracle run: a solved
    /// example's messages and steps, one `impossible:` for a proven one (equal to the oracle
    /// run's counts on 569 of val's 570 examples; docs/plancraft-eval.md).
    #[arg(long, conflicts_with = "oracle")]
    oracle_from_solve: bool,
    /// Bootstrap resamples per interval and test.
    #[arg(long, default_value_t = 10_000)]
    bootstrap: usize,
    /// Seed of the bootstrap's generator (SplitMix64), set once before any resampling.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Also write one self-contained HTML page: the results and steps tables with their
    /// intervals, the paired comparisons as forest plots, the example × method grid whose
    /// cells unfold into their episodes replayed step by step (docs/reports.md). What is
    /// printed is unchanged.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// The file system, as runs are read from it.
struct Disk;

impl RunFiles for Disk {
    fn list(&self, folder: &Path) -> Result<Vec<(PathBuf, bool)>, String> {
        let entries =
            std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        Ok(entries
            .flatten()
            .map(|entry| {
                let path = entry.path();
                let is_dir = path.is_dir();
                (path, is_dir)
            })
            .collect())
    }

    fn read(&self, file: &Path) -> Result<String, String> {
        read_text(file)
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }

    fn shown(&self, path: &Path) -> String {
        display_name(path)
    }
}

/// The run `text` names (`RUN[:LABEL]`), read: its label and episodes.
fn read_run(text: &str, reader: &mut RunReader) -> MethodInput {
    let run = RunFolder::parse(text, Path::new(text).is_dir());
    let label = (text != run.dir).then_some(run.label.as_str());
    reader.read_run(&Disk, Path::new(&run.dir), label)
}

/// The embedded world and the split's examples read in it, or `None` after a diagnostic.
fn examples(path: &Path, report: &mut Report) -> Option<(World, Vec<Example>)> {
    let world = match World::embedded() {
        Ok(world) => world,
        Err(diagnostic) => {
            report.add(Vec::new(), vec![diagnostic]);
            return None;
        }
    };
    let text = report.read(path)?;
    match Example::from_json(&world, &text) {
        Ok(examples) => Some((world, examples)),
        Err(diagnostic) => {
            report.add_one(display_name(path), text, vec![diagnostic]);
            None
        }
    }
}

pub fn run(args: &EvalArgs, format: KitchenFormat, shown: Format, color: bool) -> Outcome {
    if let Some(html) = &args.html {
        let runs = args.runs.iter().chain(&args.oracle);
        let dirs: Vec<String> = runs
            .map(|run| RunFolder::parse(run, Path::new(run).is_dir()).dir)
            .collect();
        let mut inputs: Vec<&Path> = dirs.iter().map(Path::new).collect();
        inputs.push(&args.examples);
        if let Err(message) = super::input::check_output(html, &inputs) {
            eprintln!("error: --html: {message}");
            return Outcome::Failure;
        }
    }
    let mut report = Report::new(shown, color);
    let options = BootstrapOptions {
        samples: args.bootstrap,
        seed: args.seed,
    };
    let Some((world, split)) = examples(&args.examples, &mut report) else {
        if let Some(html) = &args.html {
            eprintln!(
                "error: --html: {}: no page was written, the split was not read",
                html.display()
            );
        }
        return finish(format, &report, None, options);
    };
    let examples = Examples::new(&split);
    let mut sources = RunReader {
        keep_messages: args.html.is_some(),
        ..RunReader::default()
    };
    let oracle = args.oracle.as_deref().map(|run| {
        let oracle_run = read_run(run, &mut sources);
        let (table, diagnostics) = eval::oracle_counts(&examples, &oracle_run.episodes);
        sources.diagnostics.extend(diagnostics);
        table
    });
    let (oracle, source) = match (oracle, args.oracle_from_solve) {
        (Some(table), _) => (Some(table), Some("run")),
        (None, true) => (Some(eval::solver_oracle(&world, &split)), Some("solve")),
        (None, false) => (None, None),
    };
    let methods: Vec<MethodInput> = args
        .runs
        .iter()
        .map(|run| read_run(run, &mut sources))
        .collect();
    let evaluation = eval::evaluate(&examples, &methods, oracle.as_ref(), options);
    sources
        .diagnostics
        .extend(evaluation.diagnostics.iter().cloned());
    report.add(sources.files, sources.diagnostics);
    let summary = OracleSummary {
        given: oracle.is_some(),
        examples: oracle.as_ref().map_or(0, |table| table.len()),
        source,
    };
    let done = Done {
        evaluation: &evaluation,
        examples: examples.len(),
        oracle: summary,
    };
    let outcome = finish(format, &report, Some(done), options);
    match &args.html {
        Some(html) => {
            let episodes = eval::replay_episodes(&world, &split, &methods);
            outcome.max(write_page(html, split.len(), &episodes, &evaluation))
        }
        None => outcome,
    }
}

/// The page of `--html` over a split of `examples` examples, with the episodes' replays.
fn write_page(
    html: &Path,
    examples: usize,
    episodes: &[ReplayedEpisode],
    evaluation: &Evaluation,
) -> Outcome {
    let page = pddlc::html::plancraft_eval_page(evaluation, examples, episodes);
    match std::fs::write(html, page) {
        Ok(()) => Outcome::Clean,
        Err(e) => {
            eprintln!(
                "error: --html: {}: {e}; no page was written",
                html.display()
            );
            Outcome::Failure
        }
    }
}

/// What the run found, for the output.
struct Done<'a> {
    evaluation: &'a Evaluation,
    examples: usize,
    oracle: OracleSummary,
}

fn finish(
    format: KitchenFormat,
    report: &Report,
    done: Option<Done>,
    options: BootstrapOptions,
) -> Outcome {
    match (format, done) {
        (KitchenFormat::Json, done) => {
            let document = done.map(|done| EvalDocument {
                version: JSON_VERSION,
                diagnostics: report.json_diagnostics(),
                examples: done.examples,
                oracle: done.oracle,
                episodes: &done.evaluation.rows,
                methods: &done.evaluation.methods,
                comparisons: &done.evaluation.comparisons,
                bootstrap: options.into(),
            });
            let value = serde_json::to_value(&document).unwrap_or_default();
            return report.finish_document(document.is_some().then_some(value));
        }
        (KitchenFormat::Gcc | KitchenFormat::Val, _) => print!("{}", report.rendered()),
        (KitchenFormat::Csv, done) => {
            eprint!("{}", report.rendered());
            if let Some(done) = done {
                print!("{}", csv(&done.evaluation.rows));
            }
        }
        (KitchenFormat::Human, done) => {
            eprint!("{}", report.rendered());
            if let Some(done) = done {
                print!("{}", table(&done));
            }
        }
    }
    let _ = std::io::stdout().flush();
    report.outcome()
}

/// One row per episode, the script's data frame.
fn csv(rows: &[EpisodeRow]) -> String {
    let mut out = String::from(
        "method,seed,example,group,recipe_type,impossible,success,number_of_steps,move,smelt,think,impossible_count,search,invalid,total_actions,impossible_emitted,tokens_used,actions_over_oracle,steps_diff\n",
    );
    let optional = |value: Option<String>| value.unwrap_or_default();
    for r in rows {
        let fields = [
            csv_field(&r.method),
            csv_field(&r.seed),
            csv_field(&r.example),
            r.group.to_string(),
            csv_field(&r.recipe_type),
            r.impossible.to_string(),
            r.success.to_string(),
            r.number_of_steps.to_string(),
            r.moves.to_string(),
            r.smelt.to_string(),
            r.think.to_string(),
            r.impossible_count.to_string(),
            r.search.to_string(),
            r.invalid.to_string(),
            r.total_actions.to_string(),
            r.impossible_emitted.to_string(),
            optional(r.tokens_used.map(|t| t.to_string())),
            optional(r.actions_over_oracle.map(|d| d.to_string())),
            optional(r.steps_diff.map(|d| d.to_string())),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// A value to two decimals, `-` without one.
fn value(e: Option<&Estimate>) -> String {
    match e.and_then(|e| e.value) {
        Some(v) => format!("{v:.2}"),
        None => "-".to_string(),
    }
}

/// A table of `columns` for every method, values to two decimals.
fn columns_table(title: &str, methods: &[MethodTable], columns: &[(&str, &str)]) -> String {
    let mut out = format!("{title:<16} {:>5}", "n");
    for (_, heading) in columns {
        out.push_str(&format!(" {heading:>9}"));
    }
    out.push('\n');
    for m in methods {
        out.push_str(&format!("{:<16} {:>5}", m.method, m.examples));
        for (name, _) in columns {
            out.push_str(&format!(" {:>9}", value(m.metric(name))));
        }
        out.push('\n');
    }
    out
}

/// Why a column's `-` has no value: `AE -: no oracle run was given (alpha, beta)`, one line
/// per column and reason.
fn absent_notes(methods: &[MethodTable], columns: &[(&str, &str)]) -> String {
    eval::absent_reasons(methods, columns)
        .into_iter()
        .map(|(heading, reason, names)| format!("  {heading} -: {reason} ({})\n", names.join(", ")))
        .collect()
}

/// `overall 0.93 [0.89, 0.96] (n=160)`, or the value alone and why there is no interval, or
/// `-` and why there is no value.
fn interval_line(name: &str, e: &Estimate) -> String {
    let why = e.reason.unwrap_or_default();
    match (e.value, e.low, e.high) {
        (Some(v), Some(low), Some(high)) => {
            format!("  {name} {v:.2} [{low:.2}, {high:.2}] (n={})\n", e.n)
        }
        (Some(v), ..) => format!("  {name} {v:.2} (n={}: {why})\n", e.n),
        (None, ..) => format!("  {name} - ({why})\n"),
    }
}

/// The paper's table, the steps table, each method's intervals and the comparisons.
fn table(done: &Done) -> String {
    let methods = &done.evaluation.methods;
    let mut out = format!(
        "Plancraft results on {} examples (success rates; mean messages per result outside \"other\")\n",
        done.examples
    );
    out.push_str(&columns_table("method", methods, &RESULTS_COLUMNS));
    out.push_str(&absent_notes(methods, &RESULTS_COLUMNS));
    out.push_str("\nsteps over the oracle per recipe type (a failure counts 10)\n");
    out.push_str(&columns_table("method", methods, &STEPS_COLUMNS));
    out.push_str(&absent_notes(methods, &STEPS_COLUMNS));
    for m in methods {
        out.push_str(&format!(
            "\n{} ({} examples, {} results, {} seed(s)):\n",
            m.method, m.examples, m.results, m.seeds
        ));
        for name in INTERVAL_METRICS {
            if let Some(e) = m.metric(name) {
                out.push_str(&interval_line(name, e));
            }
        }
    }
    for c in &done.evaluation.comparisons {
        out.push_str(&comparison(c));
    }
    out
}

/// One paired comparison, mean difference per example with its interval and p.
fn comparison(c: &MethodComparison) -> String {
    let mut out = format!(
        "\n{} − {} ({} shared examples, mean per example):\n",
        c.a, c.b, c.examples
    );
    out.push_str(&format!("  {}\n", test_line("overall", &c.overall)));
    out.push_str(&t_test_line("overall", c.t_test.as_ref()));
    out.push_str(&format!("  {}\n", test_line("plan_length", &c.plan_length)));
    match &c.steps_diff {
        Some(steps) => out.push_str(&format!("  {}\n", test_line("steps_diff", steps))),
        None => out.push_str("  steps_diff - (no oracle run was given)\n"),
    }
    out
}
