//! `pddlc score`: Text2World's metrics for one pair or a batch of pairs.

use super::input::{io_error, read_text};
use super::score_functional::{self, Written};
use super::{Color, Outcome};
use pddlc::diagnostics::render::{self, JSON_VERSION, Sources};
use pddlc::diagnostics::{Diagnostic, FileId, SourceFile};
use pddlc::html::{PairResult, ScorePair};
use pddlc::score::functional::{self, Functional};
use pddlc::score::{self, Metrics, Mode, Scored};
use rayon::prelude::*;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The six metrics as a table, with notes (one pair only).
    #[value(alias = "table")]
    Human,
    /// One versioned JSON document (for `--pairs`: every row, then the summary).
    Json,
    /// One JSON object a line (`--pairs` only): every row, then the summary row.
    Jsonl,
    /// Not meaningful for scores: refused with exit code 2.
    Gcc,
    /// Not meaningful for scores: refused with exit code 2.
    Val,
}

#[derive(clap::Args)]
pub struct Args {
    /// The gold domain (`-` reads standard input).
    #[arg(required_unless_present = "pairs", requires = "pred")]
    gold: Option<PathBuf>,
    /// The predicted domain (or, with `--response`, the raw LLM answer); `-` reads stdin.
    pred: Option<PathBuf>,
    #[arg(long, default_value_t = Mode::default(), value_parser = super::choice::<Mode>())]
    mode: Mode,
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// PRED is an LLM response. `--mode clean` reads the domain as a person would: the fenced
    /// block holding `(define` (any fence and info string, such as ```lisp or ~~~), prose and
    /// CRLF allowed. `--mode text2world` extracts exactly as Text2World does: the longest
    /// ```pddl block, else the longest ``` block with nothing after the backticks, else the
    /// whole text.
    #[arg(long)]
    response: bool,
    /// A file of pairs, one a line: a JSON object with `gold` and `pred` (paths relative to the
    /// file, or inline PDDL text), and optionally `id` and `response` (which overrides
    /// `--response` for that line); or `GOLD<TAB>PRED[<TAB>KIND]` with `KIND` `domain` or
    /// `response` (the list format of perf.py's `pddlc-batch`). One JSON line is written per
    /// input line, in order, with its 1-based line number in the file and `ok`, then a dataset
    /// summary; the exit code is 1 when a line failed. Each distinct gold is read once. `-`
    /// reads the pairs from standard input (file paths are then relative to the current
    /// directory).
    #[arg(long, conflicts_with_all = ["gold", "pred"])]
    pairs: Option<PathBuf>,
    /// Also compare the two domains' behaviour, action by action (docs/scoring.md,
    /// "Functional scoring"): a `functional` object in JSON (in every row with `--pairs`, and
    /// the verdicts counted in the summary), a section in the human format.
    #[arg(long)]
    functional: bool,
    /// With `--functional`, write each counterexample's problem and plan files into DIR
    /// (created if need be); with `--pairs`, each row's into the subfolder named by its `id`
    /// (else its line number). Existing files are refused unless `--force`, before any file is
    /// written.
    #[arg(long, value_name = "DIR", requires = "functional")]
    counterexamples: Option<PathBuf>,
    /// With `--functional`, stop deciding a pair after this many seconds of CPU time (of the
    /// thread scoring it, so that `--jobs` does not shorten it): the actions not decided are
    /// `unknown`, and the pair's `reason` says the limit was reached.
    #[arg(long, value_name = "SECONDS", requires = "functional")]
    time_limit: Option<f64>,
    /// With `--functional`, leave out the sampled applicability (`sampled` is null): the
    /// decision alone is several times faster on large domains.
    #[arg(long, requires = "functional")]
    no_sample: bool,
    /// Overwrite counterexample files that exist.
    #[arg(long, requires = "counterexamples")]
    force: bool,
    /// Also write the results as one self-contained HTML page (docs/reports.md): the summary,
    /// EXEC and why it is 0, a histogram per metric, the behaviour with `--functional`, and the
    /// pairs worst first, each with the two domains side by side where they differ. What is
    /// printed does not change.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Threads for `--pairs` (all cores by default).
    #[arg(long)]
    jobs: Option<usize>,
    /// Colour of the diagnostics shown in the human format (an unreadable input); the metrics
    /// have none.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

pub fn run(args: &Args) -> Outcome {
    if matches!(args.format, Some(Format::Gcc | Format::Val)) {
        eprintln!(
            "error: score prints metrics, not diagnostics: use --format human, json or jsonl"
        );
        return Outcome::Failure;
    }
    let functional = match score_functional::options(args.time_limit, args.no_sample) {
        Ok(options) => args.functional.then_some(options),
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::Failure;
        }
    };
    match &args.pairs {
        Some(file) => {
            let format = args.format.unwrap_or(Format::Jsonl);
            if format == Format::Human {
                eprintln!(
                    "error: --format human (table) shows one pair: use json or jsonl with --pairs"
                );
                return Outcome::Failure;
            }
            batch(file, args, format, functional.as_ref())
        }
        None => {
            if args.format == Some(Format::Jsonl) {
                eprintln!("error: --format jsonl is for --pairs: use json for one pair");
                return Outcome::Failure;
            }
            if args.jobs.is_some() {
                eprintln!("error: --jobs is for --pairs: one pair is scored on one thread");
                return Outcome::Failure;
            }
            one(args, functional.as_ref())
        }
    }
}

fn read(path: &Path) -> Result<String, String> {
    read_text(path)
}

/// Unreadable inputs, each a `P090` diagnostic (exit code 2): in the human format on stderr,
/// otherwise as the versioned JSON document on stdout, so that a script reading the JSON sees
/// why.
fn io_failure(unreadable: &[(&Path, String)], asked: Option<Format>, color: Color) -> Outcome {
    let sources: Vec<SourceFile> = unreadable
        .iter()
        .map(|(path, _)| SourceFile::new(super::input::display_name(path), String::new()))
        .collect();
    let diagnostics: Vec<Diagnostic> = unreadable
        .iter()
        .enumerate()
        .map(|(i, (_, message))| io_error(message, FileId(i as u32)))
        .collect();
    let view = Sources::new(&sources);
    if asked.is_none_or(|format| format == Format::Human) {
        // Miette's report when asked for, else the convention's default for diagnostics.
        let shown = match asked {
            Some(_) => super::Format::Human,
            None => super::Format::or_default(None),
        };
        eprint!(
            "{}",
            super::render_diagnostics(shown, &diagnostics, &view, color.enabled())
        );
    } else {
        let document = json!({
            "version": JSON_VERSION,
            "diagnostics": render::json_diagnostics(&diagnostics, &view),
        });
        println!("{document}");
    }
    Outcome::Failure
}

fn one(args: &Args, functional: Option<&functional::Options>) -> Outcome {
    let (Some(gold_path), Some(pred_path)) = (&args.gold, &args.pred) else {
        eprintln!("error: give GOLD and PRED, or --pairs FILE");
        return Outcome::Failure;
    };
    // One convention (docs/cli.md): `human` unless asked otherwise.
    let format = args.format.unwrap_or(Format::Human);
    if let Some(html) = &args.html
        && let Err(message) = super::input::check_output(html, &[gold_path, pred_path])
    {
        eprintln!("error: --html: {message}");
        return Outcome::Failure;
    }
    // Both are read before giving up, so that each unreadable one is reported.
    let (gold, pred) = match (read(gold_path), read(pred_path)) {
        (Ok(gold), Ok(pred)) => (gold, pred),
        (gold, pred) => {
            let unreadable: Vec<(&Path, String)> = [(gold_path, gold), (pred_path, pred)]
                .into_iter()
                .filter_map(|(path, text)| Some((path.as_path(), text.err()?)))
                .collect();
            return io_failure(&unreadable, args.format, args.color);
        }
    };
    let scored = score::compare(&gold, &pred, args.mode, args.response);
    let functional = functional.map(|options| {
        let pred = score::scored_text(&pred, args.mode, args.response);
        functional::compare_texts_with(&gold, &pred, options)
    });
    if let (Some(functional), Some(dir)) = (&functional, &args.counterexamples)
        && let Err(message) = score_functional::write_counterexamples(functional, dir, args.force)
    {
        eprintln!("error: {message}");
        return Outcome::Failure;
    }
    if let Some(html) = &args.html {
        let pred = score::scored_text(&pred, args.mode, args.response);
        let pair = ScorePair {
            line: 1,
            id: None,
            result: PairResult::Scored {
                gold: &gold,
                pred: &pred,
                scored: &scored,
                functional: functional.as_ref(),
            },
        };
        if let Err(message) = write_page(html, &[pair]) {
            eprintln!("error: --html: {message}; no page was written");
            return Outcome::Failure;
        }
    }
    match format {
        Format::Human => {
            print!("{}", table(&scored));
            if let Some(functional) = &functional {
                print!("{}", score_functional::section(functional));
            }
        }
        _ => {
            let mut document = json!({ "version": JSON_VERSION });
            if let (Some(out), Value::Object(fields)) = (document.as_object_mut(), scored.json()) {
                out.extend(fields);
                if let Some(functional) = &functional {
                    let value = serde_json::to_value(functional).unwrap_or(Value::Null);
                    out.insert("functional".to_string(), value);
                }
            }
            println!(
                "{}",
                serde_json::to_string_pretty(&document).unwrap_or_default()
            )
        }
    }
    Outcome::Clean
}

/// Writes the page of `pairs` to `html`.
fn write_page(html: &Path, pairs: &[ScorePair]) -> Result<(), String> {
    std::fs::write(html, pddlc::html::score_page(pairs))
        .map_err(|e| format!("{}: {e}", html.display()))
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
fn text(spec: &str, base: &Path) -> Result<String, String> {
    let path = base.join(spec);
    if !spec.contains('\n') {
        // Read without asking first whether it is a file: a batch names thousands.
        match std::fs::read(&path) {
            Ok(bytes) => {
                return Ok(String::from_utf8(bytes).unwrap_or_else(|error| {
                    String::from_utf8_lossy(error.as_bytes()).into_owned()
                }));
            }
            // No file there (or a directory): inline text, or an unknown file.
            Err(error) if matches!(error.kind(), ErrorKind::NotFound | ErrorKind::IsADirectory) => {
            }
            Err(error) => return Err(format!("{}: {error}", path.display())),
        }
    }
    if spec.contains('(') {
        Ok(spec.to_string())
    } else {
        Err(format!("{}: no such file", path.display()))
    }
}

/// One non-blank line of a pairs file, read.
struct Request {
    /// The line's 1-based number in the file.
    number: usize,
    id: Option<Value>,
    pair: Result<Pair, String>,
}

/// What a line asks to score: the gold (as an index into the batch's distinct golds) and the
/// prediction, as written (a path or inline text).
struct Pair {
    gold: usize,
    pred: String,
    response: bool,
}

/// The distinct golds of a batch, as written, in the order they first appear.
#[derive(Default)]
struct Golds {
    specs: Vec<String>,
    index: HashMap<String, usize>,
}

impl Golds {
    fn index(&mut self, spec: String) -> usize {
        if let Some(&at) = self.index.get(&spec) {
            return at;
        }
        self.specs.push(spec.clone());
        self.index.insert(spec, self.specs.len() - 1);
        self.specs.len() - 1
    }
}

/// Reads one line: a JSON object, or `GOLD<TAB>PRED[<TAB>KIND]` (`KIND` is `domain` or
/// `response`), the list format of ../shared/perf/perf.py. `golds` collects the distinct golds.
fn request(number: usize, line: &str, response: bool, golds: &mut Golds) -> Request {
    let mut id = None;
    let pair = if line.trim_start().starts_with('{') {
        serde_json::from_str::<Value>(line)
            .map_err(|e| {
                // serde_json says "… at line 1 column 7": the line is the row's, the column is
                // kept.
                let message = e.to_string();
                let reason = message
                    .rsplit_once(" at line ")
                    .map_or(message.as_str(), |(r, _)| r);
                format!("not valid JSON: {reason} (column {})", e.column())
            })
            .and_then(|v| {
                id = v.get("id").cloned();
                let field = |key: &str| {
                    v[key]
                        .as_str()
                        .map(str::to_string)
                        .ok_or(format!("{key}: missing, or not a string"))
                };
                let gold = field("gold")?;
                let pred = field("pred")?;
                let response = v["response"].as_bool().unwrap_or(response);
                Ok((gold, pred, response))
            })
    } else {
        let mut fields = line.trim_end_matches(['\r', '\n']).split('\t');
        match (fields.next(), fields.next(), fields.next(), fields.next()) {
            (Some(gold), Some(pred), kind, None) => match kind {
                None | Some("") => Ok((gold.to_string(), pred.to_string(), response)),
                Some("domain") => Ok((gold.to_string(), pred.to_string(), false)),
                Some("response") => Ok((gold.to_string(), pred.to_string(), true)),
                Some(other) => Err(format!(
                    "kind `{other}`: write `domain` or `response` (or nothing)"
                )),
            },
            _ => Err(
                "neither a JSON object nor GOLD, PRED and an optional KIND separated by tabs"
                    .to_string(),
            ),
        }
    };
    Request {
        number,
        id,
        pair: pair.map(|(gold, pred, response)| Pair {
            gold: golds.index(gold),
            pred,
            response,
        }),
    }
}

/// A distinct gold of a batch, read once: prepared for the metrics, and its text for
/// `--functional` and `--html`.
struct GoldDomain {
    prepared: score::Gold,
    text: Option<String>,
}

/// What every line of a batch is scored with.
struct Scoring<'a> {
    golds: &'a [Result<GoldDomain, String>],
    base: &'a Path,
    mode: Mode,
    functional: Option<&'a functional::Options>,
    /// Whether the rows keep their texts, for `--html`.
    keep_texts: bool,
}

fn batch(
    file: &Path,
    args: &Args,
    format: Format,
    functional: Option<&functional::Options>,
) -> Outcome {
    let (mode, color) = (args.mode, args.color);
    // One job runs on the calling thread, whose stack is deep enough for the stages
    // (`parse::STACK_NEEDED`), so no pool is started.
    let pool = match args.jobs {
        Some(1) => None,
        _ => match super::pool(args.jobs) {
            Ok(pool) => Some(pool),
            Err(outcome) => return outcome,
        },
    };
    let content = match read(file) {
        Ok(c) => c,
        Err(e) => return io_failure(&[(file, e)], Some(format), color),
    };
    let base = if super::input::is_stdin(file) {
        Path::new(".")
    } else {
        file.parent().unwrap_or(Path::new("."))
    };
    // Blank lines are skipped, but every row keeps the line number it has in the file.
    let mut golds = Golds::default();
    let requests: Vec<Request> = content
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| request(i + 1, l, args.response, &mut golds))
        .collect();
    if let Some(html) = &args.html {
        // The page is not written over the pairs file, nor over a domain a line names.
        let named: Vec<PathBuf> = golds
            .specs
            .iter()
            .chain(
                requests
                    .iter()
                    .filter_map(|r| Some(&r.pair.as_ref().ok()?.pred)),
            )
            .filter(|spec| !spec.contains('\n'))
            .map(|spec| base.join(spec))
            .collect();
        let inputs: Vec<&Path> = std::iter::once(file)
            .chain(named.iter().map(PathBuf::as_path))
            .collect();
        if let Err(message) = super::input::check_output(html, &inputs) {
            eprintln!("error: --html: {message}");
            return Outcome::Failure;
        }
    }
    let progress = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(requests.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    // Each distinct gold is read once, however many lines score against it.
    let gold = |spec: &String| {
        text(spec, base)
            .map(|text| GoldDomain {
                prepared: score::Gold::new(&text, mode),
                text: (functional.is_some() || args.html.is_some()).then_some(text),
            })
            .map_err(|e| format!("gold: {e}"))
    };
    let row = |request: Request, golds: &[Result<GoldDomain, String>]| {
        let scoring = Scoring {
            golds,
            base,
            mode,
            functional,
            keep_texts: args.html.is_some(),
        };
        let row = score_request(request, &scoring);
        progress.inc(1);
        row
    };
    let (golds_read, rows): (Vec<_>, Vec<Row>) = match pool {
        None => {
            let golds: Vec<_> = golds.specs.iter().map(gold).collect();
            let rows = requests.into_iter().map(|r| row(r, &golds)).collect();
            (golds, rows)
        }
        Some(pool) => pool.install(|| {
            let golds: Vec<_> = golds.specs.par_iter().map(gold).collect();
            let rows = requests.into_par_iter().map(|r| row(r, &golds)).collect();
            (golds, rows)
        }),
    };
    progress.finish_and_clear();
    let mut rows = rows;
    if let Some(html) = &args.html {
        let golds: Vec<Option<&str>> = golds_read
            .iter()
            .map(|g| g.as_ref().ok().and_then(|g| g.text.as_deref()))
            .collect();
        let pairs: Vec<ScorePair> = rows.iter().map(|row| row.page_pair(&golds)).collect();
        if let Err(message) = write_page(html, &pairs) {
            eprintln!("error: --html: {message}; no page was written");
            return Outcome::Failure;
        }
    }
    if let Some(dir) = &args.counterexamples
        && let Err(message) = counterexamples(&mut rows, dir, args.force)
    {
        eprintln!("error: {message}");
        return Outcome::Failure;
    }
    print_rows(&rows, format, functional.is_some())
}

/// Prints the rows and the summary (with `functional`, the verdicts counted); exit 1 when a
/// line failed.
fn print_rows(rows: &[Row], format: Format, functional: bool) -> Outcome {
    let all: Vec<Metrics> = rows
        .iter()
        .map(|row| match &row.outcome {
            Ok(scored) => scored.metrics,
            Err(_) => Metrics::default(),
        })
        .collect();
    let errors = rows.iter().filter(|row| row.outcome.is_err()).count();
    let mut summary = json!({
        "version": JSON_VERSION,
        "summary": score::summary(&all),
        "pairs": rows.len(),
        "errors": errors,
    });
    if functional {
        let tally = functional::tally(rows.iter().filter_map(|row| row.functional.as_ref()));
        summary["functional"] = serde_json::to_value(tally).unwrap_or(Value::Null);
    }
    // Rows are written straight from the scores, through one buffer.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if format == Format::Jsonl {
        rows.iter()
            .try_for_each(|row| {
                serde_json::to_writer(&mut out, row)?;
                out.write_all(b"\n").map_err(serde_json::Error::io)
            })
            .and_then(|()| serde_json::to_writer(&mut out, &summary))
            .and_then(|()| out.write_all(b"\n").map_err(serde_json::Error::io))
    } else {
        let mut document = json!({
            "version": JSON_VERSION,
            "rows": rows,
            "summary": summary["summary"],
            "pairs": summary["pairs"],
            "errors": summary["errors"],
        });
        if functional {
            document["functional"] = summary["functional"].take();
        }
        serde_json::to_writer_pretty(&mut out, &document)
            .and_then(|()| out.write_all(b"\n").map_err(serde_json::Error::io))
    };
    if let Err(error) = written.and_then(|()| out.flush().map_err(serde_json::Error::io)) {
        eprintln!("error: cannot write the scores: {error}");
        return Outcome::Failure;
    }
    if errors > 0 {
        Outcome::InputErrors
    } else {
        Outcome::Clean
    }
}

/// One output line: a pair's scores, or why it could not be scored, with the line's number
/// and the input's `id` when it has one.
struct Row {
    number: usize,
    id: Option<Value>,
    outcome: Result<Box<Scored>, String>,
    /// With `--functional`, the comparison of a pair that could be read.
    functional: Option<Functional>,
    /// With `--counterexamples`, the subfolder this row's files went into, when it has any.
    folder: Option<String>,
    /// With `--html`, the row's gold (an index into the batch's golds) and its prediction as
    /// scored.
    texts: Option<(usize, String)>,
}

impl Row {
    /// The row as the page shows it; `golds` are the batch's gold texts.
    fn page_pair<'a>(&'a self, golds: &[Option<&'a str>]) -> ScorePair<'a> {
        let id = self.id.as_ref().map(|id| match id {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        let result = match (&self.outcome, &self.texts) {
            (Ok(scored), Some((gold, pred))) => PairResult::Scored {
                gold: golds.get(*gold).copied().flatten().unwrap_or_default(),
                pred,
                scored,
                functional: self.functional.as_ref(),
            },
            (Ok(_), None) => PairResult::Failed("its texts were not kept"),
            (Err(error), _) => PairResult::Failed(error),
        };
        ScorePair {
            line: self.number,
            id,
            result,
        }
    }
}

impl Serialize for Row {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("version", &JSON_VERSION)?;
        map.serialize_entry("ok", &self.outcome.is_ok())?;
        match &self.outcome {
            Ok(scored) => {
                scored.serialize_entries(&mut map)?;
                map.serialize_entry("line", &self.number)?;
                if let Some(functional) = &self.functional {
                    map.serialize_entry("functional", functional)?;
                }
                if let Some(folder) = &self.folder {
                    map.serialize_entry("counterexamples_folder", folder)?;
                }
            }
            Err(error) => {
                // A file that cannot be read is P090, as everywhere; a malformed line has no
                // code.
                let unreadable = error.ends_with("no such file") || error.contains("(os error");
                let codes: &[&str] = if unreadable { &["P090"] } else { &[] };
                map.serialize_entry("line", &self.number)?;
                map.serialize_entry("error", error)?;
                map.serialize_entry("codes", codes)?;
            }
        }
        if let Some(id) = &self.id {
            map.serialize_entry("id", id)?;
        }
        map.end()
    }
}

/// Scores one line, or says why it cannot be scored; a line is never dropped.
fn score_request(request: Request, scoring: &Scoring) -> Row {
    let mut functional = None;
    let mut texts = None;
    let outcome = request.pair.and_then(|pair| {
        let gold = scoring.golds[pair.gold].as_ref().map_err(String::clone)?;
        let pred = text(&pair.pred, scoring.base).map_err(|e| format!("pred: {e}"))?;
        if let (Some(options), Some(gold)) = (scoring.functional, &gold.text) {
            let pred = score::scored_text(&pred, scoring.mode, pair.response);
            functional = Some(functional::compare_texts_with(gold, &pred, options));
        }
        if scoring.keep_texts {
            let scored = score::scored_text(&pred, scoring.mode, pair.response);
            texts = Some((pair.gold, scored.into_owned()));
        }
        Ok(Box::new(gold.prepared.compare(&pred, pair.response)))
    });
    Row {
        number: request.number,
        id: request.id,
        outcome,
        functional,
        folder: None,
        texts,
    }
}

/// Writes the counterexamples of every row into its subfolder of `dir`, and records the
/// subfolder in the rows that have any.
fn counterexamples(rows: &mut [Row], dir: &Path, force: bool) -> Result<(), String> {
    let folders: Vec<String> = rows
        .iter()
        .map(|row| score_functional::folder_name(row.number, row.id.as_ref()))
        .collect();
    let written: Vec<Written> = rows
        .iter()
        .zip(&folders)
        .filter_map(|(row, folder)| {
            Some(Written {
                line: row.number,
                folder,
                functional: row.functional.as_ref()?,
            })
        })
        .collect();
    score_functional::write_batch(&written, dir, force)?;
    for (row, folder) in rows.iter_mut().zip(folders) {
        if row
            .functional
            .as_ref()
            .is_some_and(|f| !f.counterexamples.is_empty())
        {
            row.folder = Some(folder);
        }
    }
    Ok(())
}
