//! `kitchen.eval`: whole run folders evaluated as `pddlc kitchen eval --format json` evaluates
//! them. This front end lists and reads the folders by the library's rules over names
//! (`kitchen::is_plan_file`, `plan_order`, `env_file_name`); the library runs the plans,
//! tallies the tasks and computes the statistics, so the document is the CLI's.

use crate::input::type_name;
use crate::value::to_py;
use pddlc::kitchen::{
    self, BootstrapOptions, EnvInput, EvalOptions, FileNotes, Mode, Notes, PlanInput, RunFolder,
    Tally, TaskInput, World,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use std::path::{Path, PathBuf};

/// Evaluates run folders (`RUN/NNN/` holding a task's plans and, as Simmer lays runs out,
/// `env_NNN.json`; a task folder without one takes the built-in task's environment): every
/// plan's verdict, the per-task metrics, the per-method table with bootstrap intervals and the
/// paired comparisons between runs. `runs` is a list of folders (`str` or `os.PathLike`), or
/// `(folder, label)` pairs. Returns the document of `pddlc kitchen eval --format json`.
#[pyfunction]
#[pyo3(signature = (runs, mode = "simmer", bootstrap = 10_000, seed = 42))]
pub fn kitchen_eval(
    py: Python<'_>,
    runs: &Bound<'_, PyAny>,
    mode: &str,
    bootstrap: usize,
    seed: u64,
) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        let mode: Mode = mode.parse().map_err(PyValueError::new_err)?;
        if runs.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "`runs` is a list of run folders, not one: write [folder]",
            ));
        }
        let runs = runs
            .try_iter()?
            .map(|item| run_folder(&item?))
            .collect::<PyResult<Vec<RunFolder>>>()?;
        if runs.is_empty() {
            return Err(PyValueError::new_err("`runs` names no run folder"));
        }
        let options = BootstrapOptions {
            samples: bootstrap,
            seed,
        };
        let document = py.detach(|| evaluate(&runs, mode, options));
        Ok(to_py(py, &document)?.unbind())
    })
}

/// One item of `runs`: a folder, or a `(folder, label)` pair.
fn run_folder(item: &Bound<'_, PyAny>) -> PyResult<RunFolder> {
    if let Ok(pair) = item.cast::<PyTuple>() {
        let (folder, label): (Bound<'_, PyAny>, String) = pair.extract().map_err(|_| {
            PyTypeError::new_err("a run given as a tuple is `(folder, label)`, the label a str")
        })?;
        return Ok(RunFolder {
            dir: folder_name(&folder)?,
            label,
        });
    }
    Ok(RunFolder::unlabelled(&folder_name(item)?))
}

fn folder_name(folder: &Bound<'_, PyAny>) -> PyResult<String> {
    let path = folder
        .py()
        .import("os")?
        .getattr("fspath")?
        .call1((folder,))
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "a run folder is a str or os.PathLike, not {}",
                type_name(folder)
            ))
        })?;
    path.extract::<String>()
}

/// The runs evaluated, as the JSON document.
fn evaluate(runs: &[RunFolder], mode: Mode, options: BootstrapOptions) -> serde_json::Value {
    let world = World::embedded();
    let mut notes = Notes::default();
    // Every run is listed before any task runs, as the CLI does, so that the diagnostics come
    // in the CLI's order.
    let tasks: Vec<TaskInput> = runs
        .iter()
        .enumerate()
        .flat_map(|(run, folder)| discover(run, folder, &mut notes))
        .collect();
    let mut tally = Tally::new(runs);
    let eval_options = EvalOptions { mode, rows: true };
    let envs = kitchen::EnvCache::default();
    for task in tasks {
        let evaluation = kitchen::evaluate_task(&world, task, &envs, eval_options, |_, _| ());
        for note in tally.add(evaluation, true, |_, _| None) {
            notes.add_file(note);
        }
    }
    for note in tally.result_file_notes() {
        notes.add_file(note);
    }
    let (methods, comparisons) = tally.statistics(options);
    let document = tally.document(notes.json(), &methods, &comparisons, options);
    serde_json::to_value(document).unwrap_or_default()
}

/// The task folders of a run with their environments and plans read, in sorted name order;
/// a `P090` when the run cannot be listed or holds no task folder with plans.
fn discover(run: usize, folder: &RunFolder, notes: &mut Notes) -> Vec<TaskInput> {
    let dir = Path::new(&folder.dir);
    let shown = dir.display().to_string();
    let mut folders: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.flatten().map(|e| e.path()).collect(),
        Err(e) => {
            notes.add_file(FileNotes::io_error(shown.clone(), format!("{shown}: {e}")));
            return Vec::new();
        }
    };
    folders.retain(|path| path.is_dir());
    folders.sort();
    let tasks: Vec<TaskInput> = folders
        .iter()
        .filter_map(|task_dir| task(run, &folder.label, task_dir))
        .collect();
    if tasks.is_empty() {
        let message = kitchen::no_task_folder_message(&shown);
        notes.add_file(FileNotes::io_error(shown, message));
    }
    tasks
}

/// A task folder read: its environment (its own `env_NNN.json`, else the built-in task's) and
/// its plans; `None` when it holds no plan.
fn task(run: usize, label: &str, dir: &Path) -> Option<TaskInput> {
    let name = file_name(dir);
    // Not `is_file`: a plan that cannot be read (a dangling link) still yields a row.
    let names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| !e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let own = kitchen::own_env_file(&name, &names).map(|file| dir.join(file));
    let plans = kitchen::plan_files(names);
    if plans.is_empty() {
        return None;
    }
    let env = if let Some(own) = own {
        EnvInput::File {
            name: own.display().to_string(),
            text: read(&own).map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
        }
    } else {
        match kitchen::embedded_task(&name) {
            Some(builtin) => EnvInput::Builtin(builtin),
            None => EnvInput::Missing {
                dir: dir.display().to_string(),
            },
        }
    };
    let plans = plans
        .iter()
        .map(|name| {
            let path = dir.join(name);
            PlanInput {
                name: path.display().to_string(),
                bytes: read(&path),
            }
        })
        .collect();
    Some(TaskInput {
        run,
        label: label.to_string(),
        task: name,
        env,
        plans,
    })
}

/// A file's bytes, or why they cannot be read, in the CLI's words.
fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
