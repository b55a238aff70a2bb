//! `pddlc.worldmodel` for Python: `make` (the items of a task around a reference plan, as JSON
//! lines, the same text `pddlc worldmodel make` writes) and `score` (predictions against items,
//! the document `pddlc worldmodel score --format json` writes). The Python module
//! (`pddlc/worldmodel.py`) turns lists of dicts into lines and back.

use crate::env::task_error;
use crate::input::source;
use crate::plan::task;
use crate::report::Report;
use pddlc::diagnostics::{FileId, SourceFile};
use pddlc::worldmodel::{self, MakeOptions, ScoreOptions, TaskRecord, Tasks};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::time::Duration;

/// Loads a task as `pddlc validate` does, or raises `TaskError` with the report.
fn load(
    py: Python<'_>,
    domain: &Bound<'_, PyAny>,
    problem: &Bound<'_, PyAny>,
) -> PyResult<(
    pddlc::ast::Domain,
    pddlc::ast::Problem,
    SourceFile,
    SourceFile,
)> {
    let domain = source(domain, "domain")?;
    let problem = source(problem, "problem")?;
    match py.detach(|| task(&domain, &problem)) {
        Ok((d, p)) => Ok((d, p, domain.file, problem.file)),
        Err(diagnostics) => Err(task_error(py, domain.file, problem.file, diagnostics)),
    }
}

/// The items file's text: the task record, then one JSON line per item; or a `Report` when
/// there is no reference plan (`W801`).
#[pyfunction]
#[pyo3(signature = (domain, problem, plan, seed, fractions, proposals, search_time))]
#[allow(clippy::too_many_arguments)]
pub fn worldmodel_make(
    py: Python<'_>,
    domain: &Bound<'_, PyAny>,
    problem: &Bound<'_, PyAny>,
    plan: Option<&Bound<'_, PyAny>>,
    seed: u64,
    fractions: Vec<f64>,
    proposals: bool,
    search_time: f64,
) -> PyResult<Py<PyAny>> {
    crate::guarded(|| {
        if fractions.is_empty()
            || fractions
                .iter()
                .any(|f| !(f.is_finite() && *f > 0.0 && *f <= 1.0))
        {
            return Err(PyValueError::new_err(
                "fractions are numbers in (0, 1], such as (0.25, 0.5, 0.75, 1.0)",
            ));
        }
        if !(search_time.is_finite() && search_time > 0.0) {
            return Err(PyValueError::new_err(
                "search_time must be a positive number of seconds",
            ));
        }
        let (d, p, domain_file, problem_file) = load(py, domain, problem)?;
        let plan = plan.map(|plan| source(plan, "plan")).transpose()?;
        let options = MakeOptions {
            seed,
            fractions,
            proposals,
            search_time: Duration::from_secs_f64(search_time),
            clock: None,
        };
        let plan_text = plan.as_ref().and_then(|p| p.text());
        let made = py.detach(|| worldmodel::make(&d, &p, plan_text, &options));
        match made {
            Ok(items) => {
                let record = TaskRecord {
                    task: p.name.to_string(),
                    domain: domain_file.name,
                    problem: problem_file.name,
                };
                Ok(worldmodel::items_jsonl(&record, &items)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind())
            }
            Err(diagnostics) => {
                let mut sources = vec![domain_file, problem_file];
                if let Some(plan) = plan {
                    sources.push(plan.file);
                }
                Ok(Py::new(py, Report::new(sources, diagnostics, None))?.into_any())
            }
        }
    })
}

/// `(document, report)`: the scores as JSON text and the diagnostics of the items (file 0) and
/// predictions (file 1). `tasks` are `(name, domain, problem)`; a task that cannot be loaded
/// raises `TaskError`.
#[pyfunction]
#[pyo3(signature = (items, predictions, tasks, top_k, bootstrap, seed))]
pub fn worldmodel_score(
    py: Python<'_>,
    items: String,
    predictions: String,
    tasks: Vec<(String, Bound<'_, PyAny>, Bound<'_, PyAny>)>,
    top_k: Vec<usize>,
    bootstrap: usize,
    seed: u64,
) -> PyResult<(String, Report)> {
    crate::guarded(|| {
        if top_k.is_empty() || top_k.contains(&0) {
            return Err(PyValueError::new_err(
                "top_k takes positive numbers, such as (1, 3, 5)",
            ));
        }
        let mut loaded = Vec::new();
        for (name, domain, problem) in &tasks {
            let (d, p, _, _) = load(py, domain, problem)?;
            loaded.push((name.clone(), d, p));
        }
        let options = ScoreOptions {
            top_k,
            samples: bootstrap,
            seed,
            predictions_file: FileId(1),
        };
        let (document, diagnostics) = py.detach(|| {
            let tasks: Tasks = loaded.iter().map(|(n, d, p)| (n.clone(), (d, p))).collect();
            let read = worldmodel::read_items(&items, FileId(0));
            let scores = worldmodel::score(&read, &tasks, &predictions, &options);
            let mut diagnostics = read.diagnostics.clone();
            diagnostics.extend(scores.diagnostics.iter().cloned());
            (scores.document().to_string(), diagnostics)
        });
        let sources = vec![
            SourceFile::new("<items>", items),
            SourceFile::new("<predictions>", predictions),
        ];
        Ok((document, Report::new(sources, diagnostics, None)))
    })
}
