//! Diagnostics off the thread that answers requests: one worker checks documents, newest
//! first-come, and skips the texts an edit has already replaced; its results carry the
//! generation they were asked for, so that the server publishes only current ones.

use super::diagnostics;
use super::state::{Document, PlanTask, Source, State};
use crossbeam_channel::{Receiver, Sender};
use lsp_types::Uri;
use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;

/// A document to check, with what its check may read: the open documents as they were when
/// it was asked for (the newest text of each), the workspace folders and the plan settings.
pub struct Job {
    pub uri: Uri,
    pub version: i32,
    /// Increases with every job the server sends; a later job for the same document
    /// supersedes an earlier one.
    pub generation: u64,
    pub source: Arc<Source>,
    pub open: Vec<(Uri, i32, Arc<Source>)>,
    pub roots: Vec<PathBuf>,
    pub plan_task: Option<PlanTask>,
}

/// A check's result.
pub struct Done {
    pub uri: Uri,
    pub version: i32,
    pub generation: u64,
    /// The text checked (parsed now, so requests can be answered from it).
    pub source: Arc<Source>,
    /// `None` when the check panicked (a bug): nothing is published rather than the server
    /// ending.
    pub diagnostics: Option<Vec<lsp_types::Diagnostic>>,
    /// The jobs the worker dropped unchecked because a later one replaced them.
    pub skipped: usize,
}

/// Starts the worker thread; it ends when the job channel closes.
pub fn spawn() -> (Sender<Job>, Receiver<Done>) {
    let (jobs, job_receiver) = crossbeam_channel::unbounded::<Job>();
    let (done_sender, done) = crossbeam_channel::unbounded::<Done>();
    std::thread::spawn(move || run(&job_receiver, &done_sender));
    (jobs, done)
}

fn run(jobs: &Receiver<Job>, done: &Sender<Done>) {
    // Its own state: the workspace files it reads from disk stay cached between checks.
    let mut state = State::default();
    // Waiting jobs by document; the newest of each only.
    let mut pending: BTreeMap<String, Job> = BTreeMap::new();
    let mut skipped: HashMap<String, usize> = HashMap::new();
    loop {
        if pending.is_empty() {
            match jobs.recv() {
                Ok(job) => add(&mut pending, &mut skipped, job),
                Err(_) => return,
            }
        }
        // Everything queued meanwhile: an edit that arrived during the last check replaces
        // the job of the text it edited.
        while let Ok(job) = jobs.try_recv() {
            add(&mut pending, &mut skipped, job);
        }
        let Some(key) = pending
            .iter()
            .min_by_key(|(_, job)| job.generation)
            .map(|(key, _)| key.clone())
        else {
            continue;
        };
        let Some(job) = pending.remove(&key) else {
            continue;
        };
        state.documents = job
            .open
            .iter()
            .map(|(uri, version, source)| {
                let document = Document {
                    version: *version,
                    source: source.clone(),
                    parsed: None,
                    diagnostics: Vec::new(),
                };
                (uri.clone(), document)
            })
            .collect();
        state.roots = job.roots;
        state.plan_task = job.plan_task;
        let source = job.source;
        let found = catch_unwind(AssertUnwindSafe(|| diagnostics::of(&mut state, &source))).ok();
        let result = Done {
            uri: job.uri,
            version: job.version,
            generation: job.generation,
            source: source.clone(),
            diagnostics: found,
            skipped: skipped.remove(&key).unwrap_or(0),
        };
        if done.send(result).is_err() {
            return;
        }
        // The symbol index requests read, built here rather than by the first request on the
        // text (a tenth of a second on a 4 MB domain); one that comes meanwhile waits for it.
        let _ = catch_unwind(AssertUnwindSafe(|| source.occurrences().len()));
    }
}

fn add(pending: &mut BTreeMap<String, Job>, skipped: &mut HashMap<String, usize>, job: Job) {
    let key = job.uri.as_str().to_string();
    if pending.insert(key.clone(), job).is_some() {
        *skipped.entry(key).or_default() += 1;
    }
}
