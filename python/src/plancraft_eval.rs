//! `plancraft.eval`: methods' runs evaluated as `pddlc plancraft eval --format json` evaluates
//! them. This front end finds and reads the run files as the CLI does (a folder: every
//! `*.json` below it, sorted, each generation folder a seed; a `.jsonl` file: an episode a
//! line); the library reads the episodes and computes the table, so the document is the CLI's.

use crate::input::type_name;
use crate::value::to_py;
use pddlc::diagnostics::render::{self, JSON_VERSION, Sources};
use pddlc::kitchen::BootstrapOptions;
use pddlc::plancraft::eval::{
    self, EvalDocument, Examples, MethodInput, OracleSummary, RunFiles, RunReader,
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
        std::fs::read(file)
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .map_err(|e| format!("{}: {e}", file.display()))
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
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
    let mut sources = RunReader::default();
    let (oracle, source) = match oracle {
        Oracle::Run((run, label)) => {
            let oracle_run = sources.read_run(&Disk, &run, label.as_deref());
            let (table, diagnostics) = eval::oracle_counts(&examples, &oracle_run.episodes);
            sources.diagnostics.extend(diagnostics);
            (Some(table), Some("run"))
        }
        Oracle::Solve(world) => (Some(eval::solver_oracle(world, split)), Some("solve")),
        Oracle::None => (None, None),
    };
    let methods: Vec<MethodInput> = runs
        .iter()
        .map(|(run, label)| sources.read_run(&Disk, run, label.as_deref()))
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
