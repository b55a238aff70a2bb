//! `kitchen eval` (semantics §10.1) without the I/O: a task folder's plans run in its
//! environment, the tasks' results tallied in task order, and the statistics of the runs. The
//! front ends (the CLI, Python) list and read the folders by the rules of `discover`, hand
//! each task here, and print or return the document, so that they cannot disagree.

mod discover;
mod table;

pub use discover::{
    RunFolder, env_file_name, is_plan_file, missing_env_message, no_task_folder_message,
    own_env_file, plan_files, plan_order, result_file_name,
};
pub use table::{
    BootstrapOptions, BootstrapRow, Comparison, EvalDocument, Method, TaskRow, statistics,
};

use super::data::plan::not_a_plan;
use super::data::simmer::Env;
use super::data::task::EmbeddedTask;
use super::data::world::World;
use super::execute::{Mode, Outcome, State, run_from};
use super::report::{Counts, TaskMetrics, plan_json};
use crate::ast::Span;
use crate::diagnostics::render::{JSON_VERSION, Sources, json_diagnostics};
use crate::diagnostics::{Code, Diagnostic, FileId, SourceFile};
use foldhash::HashMap;
use serde_json::json;
use serde_json::value::RawValue;
use std::sync::{Arc, Mutex};

/// Diagnostics in the order found, each about the file it was added with: what a front end's
/// report holds, for the JSON document's `diagnostics`.
#[derive(Clone, Debug, Default)]
pub struct Notes {
    pub files: Vec<SourceFile>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Notes {
    /// Takes diagnostics about `files`, whose `FileId`s count from 0 in that list.
    pub fn add(&mut self, files: Vec<SourceFile>, diagnostics: Vec<Diagnostic>) {
        let base = self.files.len() as u32;
        self.files.extend(files);
        self.diagnostics
            .extend(diagnostics.into_iter().map(|mut diagnostic| {
                for label in &mut diagnostic.labels {
                    label.file = FileId(label.file.0 + base);
                }
                diagnostic
            }));
    }

    /// Takes diagnostics about one file.
    pub fn add_file(&mut self, notes: FileNotes) {
        self.add(vec![notes.file], notes.diagnostics);
    }

    /// The document's `diagnostics`.
    pub fn json(&self) -> serde_json::Value {
        json_diagnostics(&self.diagnostics, &Sources::new(&self.files))
    }
}

/// Diagnostics about one file (its name and text; empty for a file that cannot be read).
#[derive(Clone, Debug)]
pub struct FileNotes {
    pub file: SourceFile,
    pub diagnostics: Vec<Diagnostic>,
}

impl FileNotes {
    /// A `P090` about `name`, which could not be read, with the reason.
    pub fn io_error(name: String, message: String) -> FileNotes {
        FileNotes {
            file: SourceFile::new(name, String::new()),
            diagnostics: vec![Diagnostic::io_error(message)],
        }
    }
}

/// A task's environment as the front end found it.
#[derive(Clone, Debug)]
pub enum EnvInput {
    /// A file (Simmer's JSON or ours): its name, and its text or why it cannot be read.
    File {
        name: String,
        text: Result<String, String>,
    },
    /// The built-in task's.
    Builtin(&'static EmbeddedTask),
    /// None, for the task folder `dir`.
    Missing { dir: String },
}

/// A plan file as the front end read it: its name, and its bytes or why they cannot be read.
#[derive(Clone, Debug)]
pub struct PlanInput {
    pub name: String,
    pub bytes: Result<Vec<u8>, String>,
}

/// One task folder of a run, read.
#[derive(Clone, Debug)]
pub struct TaskInput {
    /// The run's position among the runs given.
    pub run: usize,
    /// The run's label.
    pub label: String,
    /// The task's name (its folder's).
    pub task: String,
    pub env: EnvInput,
    pub plans: Vec<PlanInput>,
}

/// How the plans run and what is kept of them.
#[derive(Clone, Copy, Debug)]
pub struct EvalOptions {
    pub mode: Mode,
    /// Keep each plan's row of the JSON document's `plans`.
    pub rows: bool,
}

/// What a plan that ran leaves: its counts and metrics, its JSON row, and what the front end
/// kept of its outcome (`extra`); the outcome itself is dropped, so that a run of thousands
/// of plans holds only what is printed.
#[derive(Debug)]
pub struct RanPlan<X> {
    pub counts: Counts,
    pub metrics: TaskMetrics,
    pub row: Option<Box<RawValue>>,
    pub extra: X,
}

/// What became of one file of a task folder.
#[derive(Debug)]
pub enum PlanVerdict<X> {
    Ran(RanPlan<X>),
    /// It cannot be read: the reason.
    Unreadable(String),
    /// It is not a plan (K409), with its text.
    NotAPlan(Diagnostic, String),
}

/// A task's plans, in the order given, or the diagnostics of its environment.
#[derive(Debug)]
pub struct TaskEvaluation<X> {
    pub run: usize,
    pub label: String,
    pub task: String,
    /// Why the environment cannot be used, when it cannot.
    pub notes: Vec<FileNotes>,
    /// Each plan's name and verdict (none when the environment cannot be used).
    pub plans: Vec<(String, PlanVerdict<X>)>,
}

/// The environment of a task, or the diagnostics of why it cannot be used.
/// The environments of one evaluation, each parsed once per distinct text: the task folders
/// of a benchmark's runs hold copies of the same few files (one a plan, in Simmer's held-out
/// layout). The caller owns it and shares it between its threads; an environment is a pure
/// function of its text, so a copy found under another name is the same environment.
#[derive(Debug, Default)]
pub struct EnvCache {
    parsed: Mutex<HashMap<String, Arc<State>>>,
}

impl EnvCache {
    /// The world as the environment of `text` starts it, loaded now or found; the diagnostics
    /// of a text that is not one (not kept: a broken file is reported each time it is given).
    fn environment(&self, text: &str, world: &World) -> Result<Arc<State>, Vec<Diagnostic>> {
        // A poisoned lock (a thread that panicked while holding it) only loses the cache.
        if let Some(state) = self
            .parsed
            .lock()
            .ok()
            .and_then(|map| map.get(text).cloned())
        {
            return Ok(state);
        }
        let env = Env::from_text(text, world.classes())?;
        let state = Arc::new(State::load(world, &env));
        if let Ok(mut map) = self.parsed.lock() {
            map.insert(text.to_string(), Arc::clone(&state));
        }
        Ok(state)
    }

    /// How many distinct environments were parsed.
    pub fn len(&self) -> usize {
        self.parsed.lock().map_or(0, |map| map.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn load_env(
    world: &World,
    input: EnvInput,
    task: &str,
    envs: &EnvCache,
) -> Result<Arc<State>, FileNotes> {
    let (name, text) = match input {
        EnvInput::File {
            name,
            text: Ok(text),
        } => (name, text),
        EnvInput::File {
            name,
            text: Err(message),
        } => return Err(FileNotes::io_error(name, message)),
        EnvInput::Builtin(builtin) => (builtin.env_name(), builtin.env.to_string()),
        EnvInput::Missing { dir } => {
            return Err(FileNotes::io_error(dir, missing_env_message(task)));
        }
    };
    envs.environment(&text, world)
        .map_err(|diagnostics| FileNotes {
            file: SourceFile::new(name, text),
            diagnostics,
        })
}

/// Runs every plan of a task in its environment, parsed or found in `envs`. `extra` keeps what
/// the front end needs of a plan's outcome besides its counts and row (its diagnostics as
/// text, its result file).
pub fn evaluate_task<X>(
    world: &World,
    input: TaskInput,
    envs: &EnvCache,
    options: EvalOptions,
    extra: impl Fn(&SourceFile, &Outcome) -> X,
) -> TaskEvaluation<X> {
    let mut evaluation = TaskEvaluation {
        run: input.run,
        label: input.label,
        task: input.task,
        notes: Vec::new(),
        plans: Vec::new(),
    };
    let initial = match load_env(world, input.env, &evaluation.task, envs) {
        Ok(initial) => initial,
        Err(notes) => {
            evaluation.notes.push(notes);
            return evaluation;
        }
    };
    for plan in input.plans {
        let verdict = match plan.bytes {
            Err(message) => PlanVerdict::Unreadable(message),
            Ok(bytes) => {
                let verdict = not_a_plan(&bytes);
                // Valid UTF-8 (nearly every plan) is taken as it is, without a copy.
                let text = String::from_utf8(bytes)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
                match verdict {
                    Some(d) => PlanVerdict::NotAPlan(d, text),
                    None => {
                        let file = SourceFile::new(plan.name.clone(), text);
                        let plan_task = (evaluation.label.as_str(), evaluation.task.as_str());
                        PlanVerdict::Ran(run_plan(
                            world, &initial, file, plan_task, options, &extra,
                        ))
                    }
                }
            }
        };
        evaluation.plans.push((plan.name, verdict));
    }
    evaluation
}

/// Runs one plan and keeps what the output needs: its row (serialized here, on the caller's
/// worker, and the tree dropped here), and the caller's `extra`.
fn run_plan<X>(
    world: &World,
    initial: &Arc<State>,
    file: SourceFile,
    (label, task): (&str, &str),
    options: EvalOptions,
    extra: &impl Fn(&SourceFile, &Outcome) -> X,
) -> RanPlan<X> {
    let outcome = run_from(world, initial, &file.text, options.mode);
    let row = options.rows.then(|| {
        let mut value = plan_json(&file.name, &outcome);
        value["run"] = json!(label);
        value["task"] = json!(task);
        let sources = std::slice::from_ref(&file);
        value["diagnostics"] = json_diagnostics(&outcome.diagnostics(), &Sources::new(sources));
        serde_json::value::to_raw_value(&value).ok()
    });
    RanPlan {
        counts: outcome.counts(),
        metrics: TaskMetrics::of(&outcome.failures),
        row: row.flatten(),
        extra: extra(&file, &outcome),
    }
}

/// The JSON row of a plan that cannot be read: the run's fields `null`, the reason a `P090`.
fn unreadable_row(run: &str, task: &str, name: &str, message: &str) -> Option<Box<RawValue>> {
    let sources = [SourceFile::new(name.to_string(), String::new())];
    let diagnostics = [Diagnostic::io_error(message)];
    serde_json::value::to_raw_value(&json!({
        "run": run, "task": task, "plan": name,
        "steps": null, "failures": null, "counts": null,
        "irreversible_actions": null,
        "diagnostics": json_diagnostics(&diagnostics, &Sources::new(&sources)),
    }))
    .ok()
}

/// What the tasks' results add up to, in task order.
#[derive(Debug)]
pub struct Tally {
    runs: Vec<RunFolder>,
    /// The `plans` rows (JSON).
    pub rows: Vec<Box<RawValue>>,
    /// One row per task with a plan that ran (§10.1: the others are left out of the statistics).
    pub tasks: Vec<TaskRow>,
    /// Per run, the counts of each plan that ran.
    counts: Vec<Vec<Counts>>,
    /// Per run, how many of Simmer's result files were found, and the first.
    result_files: Vec<(usize, String)>,
    /// Whether a plan that ran has a failure.
    pub any_failure: bool,
    /// Whether a plan could not be read.
    pub unreadable: bool,
}

impl Tally {
    pub fn new(runs: &[RunFolder]) -> Tally {
        Tally {
            runs: runs.to_vec(),
            rows: Vec::new(),
            tasks: Vec::new(),
            counts: vec![Vec::new(); runs.len()],
            result_files: vec![(0, String::new()); runs.len()],
            any_failure: false,
            unreadable: false,
        }
    }

    /// Adds one task's evaluation (tasks in order) and returns its diagnostics in the order
    /// found: the environment's, the files that are not plans, the plans that cannot be read
    /// (as rows instead when `unreadable_rows`), and whatever `ran` reports for a plan that ran
    /// (given its position in the task's plans).
    pub fn add<X>(
        &mut self,
        evaluation: TaskEvaluation<X>,
        unreadable_rows: bool,
        mut ran: impl FnMut(usize, &RanPlan<X>) -> Option<FileNotes>,
    ) -> Vec<FileNotes> {
        let TaskEvaluation {
            run,
            label,
            task,
            mut notes,
            plans,
        } = evaluation;
        let mut metrics = Vec::new();
        for (index, (name, verdict)) in plans.into_iter().enumerate() {
            match verdict {
                PlanVerdict::NotAPlan(d, _) if d.message.contains("result file") => {
                    let entry = &mut self.result_files[run];
                    entry.0 += 1;
                    if entry.1.is_empty() {
                        entry.1 = name;
                    }
                }
                PlanVerdict::NotAPlan(d, text) => notes.push(FileNotes {
                    file: SourceFile::new(name, text),
                    diagnostics: vec![d],
                }),
                PlanVerdict::Unreadable(message) => {
                    self.unreadable = true;
                    if unreadable_rows {
                        self.rows
                            .extend(unreadable_row(&label, &task, &name, &message));
                    } else {
                        notes.push(FileNotes::io_error(name, message));
                    }
                }
                PlanVerdict::Ran(done) => {
                    self.any_failure |= done.counts.any > 0;
                    notes.extend(ran(index, &done));
                    self.counts[run].push(done.counts);
                    metrics.push((done.counts, done.metrics));
                    self.rows.extend(done.row);
                }
            }
        }
        // §10.1: a task none of whose plans ran is left out of the statistics.
        if !metrics.is_empty() {
            self.tasks.push(TaskRow::of(&label, &task, &metrics));
        }
        notes
    }

    /// One `K409` note per run whose folder holds Simmer's own result files, which are not run,
    /// about the run folder.
    pub fn result_file_notes(&self) -> Vec<FileNotes> {
        let mut notes = Vec::new();
        for (run, (count, first)) in self.runs.iter().zip(&self.result_files) {
            if *count > 0 {
                let message = format!(
                    "{count} of Simmer's result files in `{}` are not plans and were not run (the first: `{first}`)",
                    run.dir
                );
                // About the run folder: located there, not at whichever file comes first.
                let note = Diagnostic::new(Code::KitchenNotAPlan, message, Span::new(0, 0))
                    .in_file(FileId(0))
                    .with_help("these are `evaluate_plans.py`'s annotated results; `--results DIR` writes them afresh");
                notes.push(FileNotes {
                    file: SourceFile::new(run.dir.clone(), String::new()),
                    diagnostics: vec![note],
                });
            }
        }
        notes
    }

    /// The per-method table and the paired comparisons (`statistics`).
    pub fn statistics(&self, options: BootstrapOptions) -> (Vec<Method>, Vec<Comparison>) {
        let labels: Vec<String> = self.runs.iter().map(|r| r.label.clone()).collect();
        statistics(&labels, &self.tasks, &self.counts, options)
    }

    /// The JSON document, with the front end's `diagnostics`.
    pub fn document<'a>(
        &'a self,
        diagnostics: serde_json::Value,
        methods: &'a [Method],
        comparisons: &'a [Comparison],
        options: BootstrapOptions,
    ) -> EvalDocument<'a> {
        EvalDocument {
            version: JSON_VERSION,
            diagnostics,
            plans: &self.rows,
            tasks: &self.tasks,
            methods,
            comparisons,
            bootstrap: options.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(name: &str, text: &str, plan: &PlanInput) -> TaskInput {
        TaskInput {
            run: 0,
            label: "run".to_string(),
            task: "001".to_string(),
            env: EnvInput::File {
                name: name.to_string(),
                text: Ok(text.to_string()),
            },
            plans: vec![plan.clone()],
        }
    }

    #[test]
    fn an_environment_is_loaded_once_per_text_and_a_broken_one_reported_each_time() {
        let world = World::embedded();
        let builtin = crate::kitchen::data::task::embedded_task("001").expect("task 001");
        let plan_text =
            include_str!("../../../domains/kitchen/examples/runs/planner/001/plan_001.txt");
        let plan = PlanInput {
            name: "plan_001.txt".to_string(),
            bytes: Ok(plan_text.as_bytes().to_vec()),
        };
        let options = EvalOptions {
            mode: Mode::Simmer,
            rows: false,
        };
        let envs = EnvCache::default();
        let counts = |evaluation: TaskEvaluation<()>| -> Vec<Counts> {
            assert!(evaluation.notes.is_empty(), "{:?}", evaluation.notes);
            evaluation
                .plans
                .into_iter()
                .filter_map(|(_, verdict)| match verdict {
                    PlanVerdict::Ran(ran) => Some(ran.counts),
                    _ => None,
                })
                .collect()
        };
        let first = evaluate_task(
            &world,
            task("a/env_001.json", builtin.env, &plan),
            &envs,
            options,
            |_, _| (),
        );
        let copy = evaluate_task(
            &world,
            task("b/env_001.json", builtin.env, &plan),
            &envs,
            options,
            |_, _| (),
        );
        assert_eq!(envs.len(), 1);
        let (first, copy) = (counts(first), counts(copy));
        // The same as the plan run on its own, its environment loaded afresh.
        let env = Env::from_text(builtin.env, world.classes()).expect("the built-in environment");
        let alone = crate::kitchen::execute::run(&world, &env, plan_text, Mode::Simmer).counts();
        assert_eq!(
            (first.as_slice(), copy.as_slice()),
            ([alone].as_slice(), [alone].as_slice())
        );
        // A text that is no environment is not kept: each task given it says so.
        for _ in 0..2 {
            let broken = evaluate_task(
                &world,
                task("c/env_001.json", "{", &plan),
                &envs,
                options,
                |_, _| (),
            );
            assert_eq!(broken.notes.len(), 1);
            assert!(broken.plans.is_empty());
        }
        assert_eq!(envs.len(), 1);
    }
}
