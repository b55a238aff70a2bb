//! `score` and `score_many`: Text2World's six metrics, one result per pair, as the CLI's rows.

use crate::input::{Source, source, type_name};
use crate::report::{Diagnostic, render_in};
use crate::value::to_py;
use pddlc::diagnostics::render::{self, JSON_VERSION, Sources};
use pddlc::diagnostics::{self as diag, SourceFile};
use pddlc::score::functional::{self, Functional};
use pddlc::score::{self as scorer, Metrics, Mode};
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::time::Duration;

fn mode(name: Option<&str>) -> PyResult<Mode> {
    let Some(name) = name else {
        return Ok(Mode::default());
    };
    name.parse().map_err(PyValueError::new_err)
}

/// What each pair is scored with: the mode, and the functional comparison's options when it is
/// asked for.
#[derive(Clone, Copy)]
struct Scoring {
    mode: Mode,
    functional: Option<functional::Options>,
}

impl Scoring {
    fn new(
        mode: Option<&str>,
        functional: bool,
        time_limit: Option<f64>,
        no_sample: bool,
    ) -> PyResult<Scoring> {
        if no_sample && !functional {
            return Err(PyValueError::new_err(
                "`no_sample` leaves out the functional comparison's sample: give `functional=True`",
            ));
        }
        let time_limit = match time_limit {
            None => None,
            Some(_) if !functional => {
                return Err(PyValueError::new_err(
                    "`time_limit` bounds the functional comparison: give `functional=True`",
                ));
            }
            Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
            Some(s) => {
                return Err(PyValueError::new_err(format!(
                    "`time_limit` must be a positive number of seconds, not {s}"
                )));
            }
        };
        // Wall time: the binding has no CPU clock (the CLI counts the thread's CPU time).
        let options = functional::Options {
            time_limit,
            clock: None,
            no_sample,
        };
        Ok(Scoring {
            mode: self::mode(mode)?,
            functional: functional.then_some(options),
        })
    }
}

/// One pair's scores: the six metrics (percentages with one decimal, as published), the mode's
/// detail, and why EXEC is 0; or, for a pair that could not be scored, its `error`.
#[pyclass(frozen, module = "pddlc")]
pub struct Scores {
    metrics: Option<Metrics>,
    /// The CLI's JSON row, `version` first.
    row: Value,
    /// The diagnostics that made EXEC 0, located in the prediction as scored.
    diagnostics: Value,
    /// Their source, for rendering.
    pred: Option<SourceFile>,
    exec_diagnostics: Vec<diag::Diagnostic>,
    notes: Vec<String>,
    error: Option<String>,
    id: Option<Py<PyAny>>,
}

/// What a pickled `Scores` carries besides its id (pickled by Python itself).
#[derive(serde::Serialize, serde::Deserialize)]
pub struct ScoresState {
    metrics: Option<Metrics>,
    row: Value,
    diagnostics: Value,
    pred: Option<SourceFile>,
    exec_diagnostics: Vec<diag::Diagnostic>,
    notes: Vec<String>,
    error: Option<String>,
}

impl ScoresState {
    pub fn with_id(self, id: Option<Py<PyAny>>) -> Scores {
        Scores {
            metrics: self.metrics,
            row: self.row,
            diagnostics: self.diagnostics,
            pred: self.pred,
            exec_diagnostics: self.exec_diagnostics,
            notes: self.notes,
            error: self.error,
            id,
        }
    }
}

impl Scores {
    /// The functional comparison as the CLI's JSON has it, or None.
    fn functional_value(&self) -> Option<&Value> {
        self.row.get("functional")
    }
}

/// What the worker computes for one pair, without the interpreter.
struct Scored {
    metrics: Option<Metrics>,
    row: Value,
    diagnostics: Value,
    pred: Option<SourceFile>,
    exec_diagnostics: Vec<diag::Diagnostic>,
    notes: Vec<String>,
    error: Option<String>,
    /// With `functional=True`, the comparison (its counterexamples' texts included).
    functional: Option<Functional>,
}

impl Scored {
    fn failed(error: String, codes: Vec<&str>) -> Scored {
        Scored {
            metrics: None,
            row: json!({ "version": JSON_VERSION, "error": error, "codes": codes }),
            diagnostics: Value::Array(Vec::new()),
            pred: None,
            exec_diagnostics: Vec::new(),
            notes: Vec::new(),
            error: Some(error),
            functional: None,
        }
    }
}

/// A pair ready for a worker: the two texts and whether the prediction is a chat answer; or
/// why it cannot be scored.
enum Job {
    Pair(Box<Pair>),
    Failed(String, Vec<&'static str>),
}

struct Pair {
    gold: Source,
    pred: Source,
    response: bool,
}

fn job(gold: Source, pred: Source, response: bool) -> Job {
    for (side, input) in [("gold", &gold), ("pred", &pred)] {
        if let Some(d) = &input.undecodable {
            return Job::Failed(format!("{side}: {}", d.message), vec![d.code.as_str()]);
        }
    }
    Job::Pair(Box::new(Pair {
        gold,
        pred,
        response,
    }))
}

fn run(job: &Job, scoring: Scoring) -> Scored {
    let mode = scoring.mode;
    let (gold, pred, response) = match job {
        Job::Failed(error, codes) => return Scored::failed(error.clone(), codes.clone()),
        Job::Pair(pair) => (&pair.gold.file.text, &pair.pred.file, pair.response),
    };
    // The library does not panic; a panic here still fails this pair only.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let scored = scorer::compare(gold, &pred.text, mode, response);
        // Diagnostics point into the prediction as scored: extracted from a chat answer.
        let text = scorer::scored_text(&pred.text, mode, response).into_owned();
        let source = SourceFile::new(pred.name.clone(), text);
        let exec: Vec<diag::Diagnostic> = scored.exec_diagnostics().to_vec();
        let diagnostics =
            render::json_diagnostics(&exec, &Sources::new(std::slice::from_ref(&source)));
        let functional = scoring
            .functional
            .map(|options| functional::compare_texts_with(gold, &source.text, &options));
        let mut row = json!({ "version": JSON_VERSION });
        if let (Some(out), Value::Object(fields)) = (row.as_object_mut(), scored.json()) {
            out.extend(fields);
            if let Some(functional) = &functional {
                let value = serde_json::to_value(functional).unwrap_or(Value::Null);
                out.insert("functional".to_string(), value);
            }
        }
        Scored {
            metrics: Some(scored.metrics),
            row,
            diagnostics,
            pred: Some(source),
            exec_diagnostics: exec,
            notes: scored.notes(),
            error: None,
            functional,
        }
    }));
    result.unwrap_or_else(|payload| {
        Scored::failed(
            format!(
                "internal error in pddlc: {}; please report it with the pair",
                crate::panic_message(payload.as_ref())
            ),
            Vec::new(),
        )
    })
}

impl Scores {
    fn new(py: Python<'_>, scored: Scored, id: Option<Py<PyAny>>) -> PyResult<Scores> {
        let mut row = scored.row;
        if let Some(id) = &id {
            let value: Value = match id.bind(py).extract::<String>() {
                Ok(s) => Value::String(s),
                Err(_) => match id.bind(py).extract::<i64>() {
                    Ok(i) => json!(i),
                    Err(_) => Value::String(id.bind(py).str()?.to_string()),
                },
            };
            row["id"] = value;
        }
        Ok(Scores {
            metrics: scored.metrics,
            row,
            diagnostics: scored.diagnostics,
            pred: scored.pred,
            exec_diagnostics: scored.exec_diagnostics,
            notes: scored.notes,
            error: scored.error,
            id,
        })
    }
}

#[pymethods]
impl Scores {
    /// Pickled as its scores, diagnostics and the prediction's text, its id as Python pickles
    /// it (`pickle`, Ray, multiprocessing).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, String, Option<Py<PyAny>>))> {
        let state = ScoresState {
            metrics: self.metrics,
            row: self.row.clone(),
            diagnostics: self.diagnostics.clone(),
            pred: self.pred.clone(),
            exec_diagnostics: self.exec_diagnostics.clone(),
            notes: self.notes.clone(),
            error: self.error.clone(),
        };
        let id = self.id.as_ref().map(|id| id.clone_ref(py));
        Ok((
            crate::pickle::restorer(py)?,
            ("scores", crate::pickle::state(&state)?, id),
        ))
    }

    /// `"text2world"` or `"clean"`; None for a pair that could not be scored.
    #[getter]
    fn mode(&self) -> Option<String> {
        self.row["mode"].as_str().map(str::to_string)
    }

    /// EXEC: 100.0 when the prediction is executable (parses and checks), else 0.0.
    #[getter]
    fn exec(&self) -> Option<f64> {
        self.metrics.map(|m| m.exec)
    }

    /// SIM: the Levenshtein ratio of the comment-free texts, in percent.
    #[getter]
    fn sim(&self) -> Option<f64> {
        self.metrics.map(|m| m.sim)
    }

    /// F1_PRED: the F1 score of the declared predicates, in percent.
    #[getter]
    fn f1_pred(&self) -> Option<f64> {
        self.metrics.map(|m| m.f1_pred)
    }

    /// F1_PARAM: the F1 score of the actions' parameters, averaged over the gold actions, in percent.
    #[getter]
    fn f1_param(&self) -> Option<f64> {
        self.metrics.map(|m| m.f1_param)
    }

    /// F1_PRECOND: the F1 score of the actions' preconditions, averaged over the gold actions, in percent.
    #[getter]
    fn f1_precond(&self) -> Option<f64> {
        self.metrics.map(|m| m.f1_precond)
    }

    /// F1_EFF: the F1 score of the actions' effects, averaged over the gold actions, in percent.
    #[getter]
    fn f1_eff(&self) -> Option<f64> {
        self.metrics.map(|m| m.f1_eff)
    }

    /// The unrounded values (text2world mode; EXEC as 1.0 or 0.0), else None.
    #[getter]
    fn raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.row.get("raw").unwrap_or(&Value::Null))
    }

    /// The diagnostic codes that made EXEC 0, each once.
    #[getter]
    fn codes(&self) -> Vec<String> {
        self.row["codes"]
            .as_array()
            .map(|c| {
                c.iter()
                    .filter_map(|c| c.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The diagnostics that made EXEC 0, located in the prediction as scored (after extraction
    /// from a chat answer).
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        Diagnostic::list(&self.diagnostics)
    }

    /// Remarks, as the CLI's table prints them (renamed actions, tarski's rejection …).
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    /// Why the pair could not be scored (a wrong type, undecodable bytes, an unreadable
    /// file), or None.
    #[getter]
    fn error(&self) -> Option<String> {
        self.error.clone()
    }

    /// With `functional=True`, the behavioural comparison as the CLI's JSON has it (a dict:
    /// `verdict`, `reason` when there is one, `alignment`, `actions`, `counterexamples`,
    /// `notes`); None otherwise, and for a pair that could not be scored.
    #[getter]
    fn functional<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.functional_value().unwrap_or(&Value::Null))
    }

    /// Whether the pair was scored (`error` is None).
    #[getter]
    fn ok(&self) -> bool {
        self.error.is_none()
    }

    /// The `id` of a dict pair, or None.
    #[getter]
    fn id(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.id.as_ref().map(|id| id.clone_ref(py))
    }

    /// The diagnostics that made EXEC 0, rendered (`"human"`, `"gcc"`, `"val"`, `"json"`).
    #[pyo3(signature = (format = "human", *, color = false, width = 80))]
    fn render(&self, format: &str, color: bool, width: usize) -> PyResult<String> {
        let sources: Vec<SourceFile> = self.pred.iter().cloned().collect();
        render_in(format, &self.exec_diagnostics, &sources, color, width)
    }

    /// The pair as `pddlc score --format json` writes it (a `--pairs` row without `line`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.row)
    }

    /// A field of `to_dict()`: `scores["EXEC"]`, `scores["F1_EFF"]` …
    fn __getitem__<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.row.get(key) {
            Some(value) => to_py(py, value),
            None => Err(PyKeyError::new_err(key.to_string())),
        }
    }

    fn __repr__(&self) -> String {
        match (&self.error, self.metrics) {
            (Some(error), _) => format!("Scores(error={})", crate::value::repr(Some(error))),
            (None, Some(m)) => format!(
                "Scores(mode={}, EXEC={:?}, SIM={:?}, F1_PRED={:?}, F1_PARAM={:?}, F1_PRECOND={:?}, F1_EFF={:?})",
                crate::value::repr(self.mode().as_deref()),
                m.exec,
                m.sim,
                m.f1_pred,
                m.f1_param,
                m.f1_precond,
                m.f1_eff
            ),
            (None, None) => "Scores()".to_string(),
        }
    }
}

/// Scores a predicted domain against a gold one with Text2World's six metrics.
///
/// `mode="clean"` (the default, as on the command line) computes what the metrics were meant to
/// measure, on the syntax tree; `"text2world"` gives the official scorer's values, quirks
/// included (docs/scoring.md). With
/// `response=True`, `pred` is a raw LLM answer and the domain is extracted from it as
/// Text2World does.
///
/// With `functional=True`, the two domains' behaviour is also compared, action by action
/// (`Scores.functional`, as `pddlc score --functional`); `counterexamples` names a directory to
/// write each counterexample's problem and plan files into (an existing file raises
/// `FileExistsError` unless `force=True`, before any is written), and `time_limit` bounds the
/// comparison in seconds of wall time: the actions not decided by then are `unknown`;
/// `no_sample=True` leaves out the sampled applicability (`sampled` is then `None`), as
/// `--no-sample` does.
#[pyfunction]
#[pyo3(signature = (gold, pred, mode = None, response = false, *, functional = false, counterexamples = None, force = false, time_limit = None, no_sample = false))]
#[allow(clippy::too_many_arguments)]
pub fn score(
    py: Python<'_>,
    gold: &Bound<'_, PyAny>,
    pred: &Bound<'_, PyAny>,
    mode: Option<&str>,
    response: bool,
    functional: bool,
    counterexamples: Option<&Bound<'_, PyAny>>,
    force: bool,
    time_limit: Option<f64>,
    no_sample: bool,
) -> PyResult<Scores> {
    crate::guarded(|| {
        let scoring = Scoring::new(mode, functional, time_limit, no_sample)?;
        let directory = match counterexamples {
            None => None,
            Some(_) if !functional => {
                return Err(PyValueError::new_err(
                    "`counterexamples` holds the functional comparison's files: give \
                     `functional=True`",
                ));
            }
            Some(dir) => Some(crate::input::path_argument(dir)?),
        };
        let gold = source(gold, "gold")?;
        let pred = source(pred, "pred")?;
        let job = job(gold, pred, response);
        let scored = py.detach(|| run(&job, scoring));
        if let (Some(dir), Some(functional)) = (&directory, &scored.functional) {
            write_counterexamples(functional, dir, force)?;
        }
        Scores::new(py, scored, None)
    })
}

/// Writes each counterexample's files into `dir` (created if need be); nothing is written when
/// a file exists and `force` is not given.
fn write_counterexamples(
    functional: &Functional,
    dir: &std::path::Path,
    force: bool,
) -> PyResult<()> {
    let files: Vec<(std::path::PathBuf, &str)> = functional
        .counterexamples
        .iter()
        .flat_map(|example| example.files())
        .map(|(name, text)| (dir.join(name), text))
        .collect();
    let shown = |path: &std::path::Path| path.display().to_string();
    if !force && let Some((path, _)) = files.iter().find(|(path, _)| path.exists()) {
        return Err(pyo3::exceptions::PyFileExistsError::new_err((
            17,
            "File exists: give force=True to overwrite it",
            shown(path),
        )));
    }
    std::fs::create_dir_all(dir).map_err(|e| crate::input::io_error(&shown(dir), &e))?;
    for (path, text) in &files {
        std::fs::write(path, text).map_err(|e| crate::input::io_error(&shown(path), &e))?;
    }
    Ok(())
}

/// One item of `score_many`'s input as a job and its id; a malformed item is a failed job.
fn item_job(item: &Bound<'_, PyAny>, index: usize, response: bool) -> (Job, Option<Py<PyAny>>) {
    let sides = |gold: &Bound<'_, PyAny>, pred: &Bound<'_, PyAny>, response: bool| {
        let read = |obj: &Bound<'_, PyAny>, what: &str| {
            source(obj, what).map_err(|e| {
                let unreadable = e.is_instance_of::<pyo3::exceptions::PyOSError>(item.py());
                let codes = if unreadable { vec!["P090"] } else { Vec::new() };
                (format!("{what}: {}", e.value(item.py())), codes)
            })
        };
        match (read(gold, "gold"), read(pred, "pred")) {
            (Ok(gold), Ok(pred)) => job(gold, pred, response),
            (Err((error, codes)), _) | (_, Err((error, codes))) => Job::Failed(error, codes),
        }
    };
    if let Ok(dict) = item.cast::<PyDict>() {
        let id = dict.get_item("id").ok().flatten().map(Bound::unbind);
        let field = |key: &str| dict.get_item(key).ok().flatten();
        let response = match field("response") {
            Some(value) => value.is_truthy().unwrap_or(response),
            None => response,
        };
        let job = match (field("gold"), field("pred")) {
            (Some(gold), Some(pred)) => sides(&gold, &pred, response),
            _ => Job::Failed(
                format!("pair {index}: a dict pair needs `gold` and `pred`"),
                Vec::new(),
            ),
        };
        return (job, id);
    }
    let parts: Option<Vec<Bound<'_, PyAny>>> = if let Ok(t) = item.cast::<PyTuple>() {
        Some(t.iter().collect())
    } else if let Ok(l) = item.cast::<PyList>() {
        Some(l.iter().collect())
    } else {
        None
    };
    match parts.as_deref() {
        Some([gold, pred]) => (sides(gold, pred, response), None),
        _ => (
            Job::Failed(
                format!(
                    "pair {index}: expected a (gold, pred) tuple or a dict with `gold` and `pred`, \
                     not {}",
                    type_name(item)
                ),
                Vec::new(),
            ),
            None,
        ),
    }
}

/// Scores many pairs in parallel, with the interpreter detached: one `Scores` per input, in
/// order; a pair that cannot be scored is a `Scores` whose `error` says why.
///
/// `pairs` is an iterable of `(gold, pred)` tuples, or of dicts with `gold`, `pred` and
/// optionally `id` and `response` (a line of `pddlc score --pairs`'s JSONL, once loaded).
/// `threads` is the number of worker threads (all cores by default). `functional` and
/// `time_limit` (per pair) and `no_sample` are as for `score`.
#[pyfunction]
#[pyo3(signature = (pairs, mode = None, response = false, threads = None, *, functional = false, time_limit = None, no_sample = false))]
#[allow(clippy::too_many_arguments)]
pub fn score_many(
    py: Python<'_>,
    pairs: &Bound<'_, PyAny>,
    mode: Option<&str>,
    response: bool,
    threads: Option<i64>,
    functional: bool,
    time_limit: Option<f64>,
    no_sample: bool,
) -> PyResult<Vec<Scores>> {
    crate::guarded(|| {
        let scoring = Scoring::new(mode, functional, time_limit, no_sample)?;
        let threads = match threads {
            None => None,
            Some(n) if n >= 1 => Some(n as usize),
            Some(n) => {
                return Err(PyValueError::new_err(format!(
                    "`threads` must be at least 1, not {n}"
                )));
            }
        };
        let iterator = pairs.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "`pairs` must be an iterable of (gold, pred) tuples or dicts, not {}",
                type_name(pairs)
            ))
        })?;
        let mut jobs = Vec::new();
        let mut ids = Vec::new();
        for (index, item) in iterator.enumerate() {
            let (job, id) = item_job(&item?, index, response);
            jobs.push(job);
            ids.push(id);
        }
        // Threads with the deep stack the stages ask for (as the CLI's pool), so that
        // `parse::with_stack` does not map a stack of its own for every pair.
        let mut builder = rayon::ThreadPoolBuilder::new().stack_size(pddlc::parse::STACK_SIZE);
        if let Some(n) = threads {
            builder = builder.num_threads(n);
        }
        let pool = builder
            .build()
            .map_err(|e| PyValueError::new_err(format!("cannot start {threads:?} threads: {e}")))?;
        let scored: Vec<Scored> =
            py.detach(|| pool.install(|| jobs.par_iter().map(|job| run(job, scoring)).collect()));
        scored
            .into_iter()
            .zip(ids)
            .map(|(scored, id)| Scores::new(py, scored, id))
            .collect()
    })
}
