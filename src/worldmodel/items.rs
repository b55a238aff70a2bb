//! The items file: JSON lines, a `task` record naming a task's domain and problem, then the
//! task's items, each tagged with the task's name. `worldmodel make` writes it
//! ([`items_jsonl`]); `worldmodel score` reads it back ([`read_items`]), keeping only what
//! scoring needs, so that files from other versions and hand-written items read too.

use super::make::Item;
use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic, FileId};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// A task an items file refers to: the name its items carry, and where its domain and problem
/// are (as given to `make`; a relative path is looked up from the working directory, then
/// from the items file's folder).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    pub task: String,
    pub domain: String,
    pub problem: String,
}

/// The items of one task as JSON lines: the task record, then each item with `"task"`.
pub fn items_jsonl(task: &TaskRecord, items: &[Item]) -> String {
    #[derive(Serialize)]
    struct Header<'a> {
        kind: &'static str,
        #[serde(flatten)]
        task: &'a TaskRecord,
    }
    #[derive(Serialize)]
    struct Tagged<'a> {
        task: &'a str,
        #[serde(flatten)]
        item: &'a Item,
    }
    let mut out = String::new();
    let header = Header { kind: "task", task };
    let lines = std::iter::once(serde_json::to_string(&header)).chain(items.iter().map(|item| {
        serde_json::to_string(&Tagged {
            task: &task.task,
            item,
        })
    }));
    for line in lines.flatten() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// An item as scoring reads it.
#[derive(Clone, Debug)]
pub(crate) struct ScoredItem {
    pub(crate) id: String,
    pub(crate) task: String,
    /// Where the item's line is in the items file.
    pub(crate) span: Span,
    pub(crate) truth: Truth,
}

/// What an item's prediction is compared with.
#[derive(Clone, Debug)]
pub(crate) enum Truth {
    NextState {
        state: Vec<String>,
        added: Vec<String>,
        deleted: Vec<String>,
        numeric: Vec<(String, f64)>,
    },
    Verification {
        valid: bool,
    },
    Proposal {
        reference: String,
        keeps_goal_reachable: Option<Vec<String>>,
        on_optimal_plan: Option<Vec<String>>,
    },
    Planning {
        prefix: Vec<String>,
    },
}

impl Truth {
    pub(crate) fn kind(&self) -> Kind {
        match self {
            Truth::NextState { .. } => Kind::NextState,
            Truth::Verification { .. } => Kind::Verification,
            Truth::Proposal { .. } => Kind::Proposal,
            Truth::Planning { .. } => Kind::Planning,
        }
    }
}

/// The four kinds of item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    NextState,
    Verification,
    Proposal,
    Planning,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::NextState => "next_state",
            Kind::Verification => "verification",
            Kind::Proposal => "proposal",
            Kind::Planning => "planning",
        }
    }
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Record {
    Task(TaskRecord),
    NextState {
        id: String,
        task: Option<String>,
        state: Vec<String>,
        change: ChangeRecord,
    },
    Verification {
        id: String,
        task: Option<String>,
        label: LabelRecord,
    },
    Proposal {
        id: String,
        task: Option<String>,
        reference: String,
        keeps_goal_reachable: Option<Vec<String>>,
        on_optimal_plan: Option<Vec<String>>,
    },
    Planning {
        id: String,
        task: Option<String>,
        prefix: Vec<String>,
    },
}

#[derive(Deserialize)]
struct ChangeRecord {
    #[serde(default)]
    added: Vec<String>,
    #[serde(default)]
    deleted: Vec<String>,
    #[serde(default)]
    numeric: Vec<NumericRecord>,
}

#[derive(Deserialize)]
struct NumericRecord {
    fluent: String,
    after: f64,
}

#[derive(Deserialize)]
struct LabelRecord {
    valid: bool,
}

/// An items file read: its tasks, its items, and a `W803` for each line that is not an item
/// (located on the line), for a repeated id and for an item whose task is not named.
#[derive(Clone, Debug, Default)]
pub struct Items {
    pub tasks: Vec<TaskRecord>,
    pub(crate) items: Vec<ScoredItem>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Items {
    /// The number of items read.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// The non-blank lines of a JSON lines text, each without its line ending and with its span
/// (what the items file and the predictions are read from).
pub(crate) fn json_lines(text: &str) -> impl Iterator<Item = (Span, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n').filter_map(move |line| {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_end();
        (!trimmed.trim().is_empty()).then(|| (Span::new(start, start + trimmed.len()), trimmed))
    })
}

/// The items of `text` (JSON lines), with diagnostics in `file`.
pub fn read_items(text: &str, file: FileId) -> Items {
    let mut read = Items::default();
    let mut untagged = Vec::new();
    let mut seen = HashSet::new();
    for (span, trimmed) in json_lines(text) {
        let bad = |message: String| {
            Diagnostic::new(Code::WorldmodelBadItems, message, span)
                .in_file(file)
                .with_help(
                    "an items file is what `pddlc worldmodel make` writes, one JSON object a line",
                )
        };
        let record = match serde_json::from_str::<Record>(trimmed) {
            Ok(record) => record,
            Err(e) => {
                read.diagnostics
                    .push(bad(format!("this line is not an item: {e}")));
                continue;
            }
        };
        let (id, task, truth) = match record {
            Record::Task(task) => {
                read.tasks.push(task);
                continue;
            }
            Record::NextState {
                id,
                task,
                state,
                change,
            } => (
                id,
                task,
                Truth::NextState {
                    state,
                    added: change.added,
                    deleted: change.deleted,
                    numeric: change
                        .numeric
                        .into_iter()
                        .map(|n| (n.fluent, n.after))
                        .collect(),
                },
            ),
            Record::Verification { id, task, label } => {
                (id, task, Truth::Verification { valid: label.valid })
            }
            Record::Proposal {
                id,
                task,
                reference,
                keeps_goal_reachable,
                on_optimal_plan,
            } => (
                id,
                task,
                Truth::Proposal {
                    reference,
                    keeps_goal_reachable,
                    on_optimal_plan,
                },
            ),
            Record::Planning { id, task, prefix } => (id, task, Truth::Planning { prefix }),
        };
        if !seen.insert((task.clone(), id.clone())) {
            read.diagnostics
                .push(bad(format!("item `{id}` appears twice; the first is kept")));
            continue;
        }
        if task.is_none() {
            untagged.push(read.items.len());
        }
        read.items.push(ScoredItem {
            id,
            task: task.unwrap_or_default(),
            span,
            truth,
        });
    }
    // An item without `task` belongs to the file's one task; with several, it is not scored.
    if !untagged.is_empty() {
        if let [only] = read.tasks.as_slice() {
            for &i in &untagged {
                read.items[i].task = only.task.clone();
            }
        } else {
            let mut keep = vec![true; read.items.len()];
            for &i in &untagged {
                keep[i] = false;
                read.diagnostics.push(
                    Diagnostic::new(
                        Code::WorldmodelBadItems,
                        format!(
                            "item `{}` names no task, and the file has {} task records",
                            read.items[i].id,
                            read.tasks.len()
                        ),
                        read.items[i].span,
                    )
                    .in_file(file)
                    .with_help("give each item `\"task\"`, the name of its task record"),
                );
            }
            let mut flags = keep.into_iter();
            read.items.retain(|_| flags.next().unwrap_or(false));
        }
    }
    read
}
