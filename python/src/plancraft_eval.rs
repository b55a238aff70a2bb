//! `plancraft.eval`: methods' runs evaluated as `pddlc plancraft eval --format json` evaluates
//! them. This front end finds and reads the run files as the CLI does (a folder: every
//! `*.json` below it, sorted, each generation folder a seed; a `.jsonl` file: an episode a
//! line); the library reads the episodes and computes the table, so the document is the CLI's.

use crate::input::type_name;
use crate::value::to_py;
use pddlc::diagnostics::render::{self, JSON_VERSION, Sources};
use pddlc::diagnostics::{Diagnostic, FileId, SourceFile};
use pddlc::kitchen::BootstrapOptions;
use pddlc::plancraft::eval::{
    self, EpisodeFile, EpisodeRecord, EvalDocument, Examples, MethodInput, OracleSummary,
};
use pddlc::plancraft::{Example, World};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use std::path::{Path, PathBuf};

/// Evaluates methods' runs on a split: `runs` lists run folders or `.jsonl` files (`str` or
/// `os.PathLike`), or `(run, label)` pairs; `examples` is the split (a path, JSON text, or a
/// list of records); `oracle` the oracle's run. Returns the document of
/// `pddlc plancraft eval --format json`.
#[pyfunction]
#[pyo3(signature = (runs, examples, oracle = None, bootstrap = 10_000, seed = 42, oracle_from_solve = false))]
pub fn plancraft_eval(
    py: Python<'_>,
    runs: &Bound<'_, PyAny>,
    examples: &Bound<'_, PyAny>,
    oracle: Option<&Bound<'_, PyAny>>,
    bootstrap: usize,
    seed: u64,
    oracle_from_solve: bool,
) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        if oracle.is_some() && oracle_from_solve {
            return Err(PyValueError::new_err(
                "give `oracle` or `oracle_from_solve=True`, not both",
            ));
        }
        if runs.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "`runs` is a list of runs, not one: write [run]",
            ));
        }
        let runs = runs
            .try_iter()?
            .map(|item| run_name(&item?))
            .collect::<PyResult<Vec<(PathBuf, Option<String>)>>>()?;
        if runs.is_empty() {
            return Err(PyValueError::new_err("`runs` names no run"));
        }
        let oracle = oracle.map(|o| run_name(o)).transpose()?;
        let world = World::embedded().map_err(|d| PyValueError::new_err(d.message))?;
        let split = split(py, &world, examples)?;
        let options = BootstrapOptions {
            samples: bootstrap,
            seed,
        };
        let oracle = match oracle {
            Some(run) => Oracle::Run(run),
            None if oracle_from_solve => Oracle::Solve(&world),
            None => Oracle::None,
        };
        let document = py.detach(|| evaluate(&split, &runs, oracle, options));
        Ok(to_py(py, &document)?.unbind())
    })
}

/// One run: a path, or a `(path, label)` pair.
fn run_name(item: &Bound<'_, PyAny>) -> PyResult<(PathBuf, Option<String>)> {
    if let Ok(pair) = item.cast::<PyTuple>() {
        let (run, label): (Bound<'_, PyAny>, String) = pair.extract().map_err(|_| {
            PyTypeError::new_err("a run given as a tuple is `(run, label)`, the label a str")
        })?;
        return Ok((path(&run)?, Some(label)));
    }
    Ok((path(item)?, None))
}

fn path(run: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    let name = run
        .py()
        .import("os")?
        .getattr("fspath")?
        .call1((run,))
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "a run is a folder or a .jsonl file (str or os.PathLike), not {}",
                type_name(run)
            ))
        })?;
    Ok(PathBuf::from(name.extract::<String>()?))
}

/// The split's examples: a list of records, JSON text or bytes, or a path.
fn split(py: Python<'_>, world: &World, obj: &Bound<'_, PyAny>) -> PyResult<Vec<Example>> {
    let text = if obj.is_instance_of::<PyList>() {
        let json = py.import("json")?;
        json.call_method1("dumps", (obj,))?.extract::<String>()?
    } else {
        let source = crate::input::source(obj, "examples")?;
        source
            .text()
            .ok_or_else(|| PyValueError::new_err("the split is not UTF-8 text"))?
            .to_string()
    };
    Example::from_json(world, &text).map_err(|d| PyValueError::new_err(d.message))
}

/// Every file read, in the order read (`FileId(i)` is the i-th), and the diagnostics.
#[derive(Default)]
struct ReadFiles {
    files: Vec<SourceFile>,
    diagnostics: Vec<Diagnostic>,
}

impl ReadFiles {
    fn read(&mut self, path: &Path, shape: EpisodeFile, seed: &str) -> Vec<EpisodeRecord> {
        let id = FileId(self.files.len() as u32);
        let name = path.display().to_string();
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let (episodes, diagnostics) = eval::read_episodes(&text, shape, id, seed);
                self.files.push(SourceFile::new(name, text));
                self.diagnostics.extend(diagnostics);
                episodes
            }
            Err(e) => {
                self.unreadable(name.clone(), format!("{name}: {e}"));
                Vec::new()
            }
        }
    }

    fn unreadable(&mut self, name: String, message: String) {
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile::new(name, String::new()));
        self.diagnostics
            .push(Diagnostic::io_error(message).in_file(id));
    }
}

/// A folder's entries, each with whether it is a folder.
fn list_folder(folder: &Path) -> Result<Vec<(PathBuf, bool)>, String> {
    let entries = std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    Ok(entries
        .flatten()
        .map(|entry| {
            let path = entry.path();
            let is_dir = path.is_dir();
            (path, is_dir)
        })
        .collect())
}

/// A run's label and episodes: a folder's every `*.json` below it (sorted; the generation is
/// the file's folder relative to the run), or a `.jsonl` file's lines.
fn read_run(run: &Path, label: Option<&str>, sources: &mut ReadFiles) -> MethodInput {
    let named = |p: &Path, stem: bool| {
        let name = if stem { p.file_stem() } else { p.file_name() };
        name.map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    if run.is_dir() {
        let label = label.map_or_else(|| named(run, false), str::to_string);
        let episodes = match eval::result_files(run, list_folder) {
            Ok(files) if files.is_empty() => {
                let shown = run.display().to_string();
                let message = format!("{shown}: no episode file (`*.json`) in the run");
                sources.unreadable(shown, message);
                Vec::new()
            }
            Ok(files) => files
                .iter()
                .flat_map(|(file, seed)| sources.read(file, EpisodeFile::Json, seed))
                .collect(),
            Err(message) => {
                sources.unreadable(run.display().to_string(), message);
                Vec::new()
            }
        };
        return MethodInput { label, episodes };
    }
    let lines = run.extension().is_some_and(|x| x == "jsonl");
    let label = label.map_or_else(|| named(run, lines), str::to_string);
    let shape = if lines {
        EpisodeFile::JsonLines
    } else {
        EpisodeFile::Json
    };
    MethodInput {
        label,
        episodes: sources.read(run, shape, ""),
    }
}

/// Where the oracle's counts come from.
enum Oracle<'a> {
    Run((PathBuf, Option<String>)),
    Solve(&'a World),
    None,
}

fn evaluate(
    split: &[Example],
    runs: &[(PathBuf, Option<String>)],
    oracle: Oracle,
    options: BootstrapOptions,
) -> serde_json::Value {
    let examples = Examples::new(split);
    let mut sources = ReadFiles::default();
    let (oracle, source) = match oracle {
        Oracle::Run((run, label)) => {
            let oracle_run = read_run(&run, label.as_deref(), &mut sources);
            let (table, diagnostics) = eval::oracle_counts(&examples, &oracle_run.episodes);
            sources.diagnostics.extend(diagnostics);
            (Some(table), Some("run"))
        }
        Oracle::Solve(world) => (Some(eval::solver_oracle(world, split)), Some("solve")),
        Oracle::None => (None, None),
    };
    let methods: Vec<MethodInput> = runs
        .iter()
        .map(|(run, label)| read_run(run, label.as_deref(), &mut sources))
        .collect();
    let evaluation = eval::evaluate(&examples, &methods, oracle.as_ref(), options);
    sources
        .diagnostics
        .extend(evaluation.diagnostics.iter().cloned());
    pddlc::diagnostics::sort(&mut sources.diagnostics);
    let document = EvalDocument {
        version: JSON_VERSION,
        diagnostics: render::json_diagnostics(&sources.diagnostics, &Sources::new(&sources.files)),
        examples: examples.len(),
        oracle: OracleSummary {
            given: oracle.is_some(),
            examples: oracle.as_ref().map_or(0, |table| table.len()),
            source,
        },
        episodes: &evaluation.rows,
        methods: &evaluation.methods,
        comparisons: &evaluation.comparisons,
        bootstrap: options.into(),
    };
    serde_json::to_value(&document).unwrap_or_default()
}
