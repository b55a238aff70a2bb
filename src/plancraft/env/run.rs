//! A whole episode from an agent's messages (one per line), with what every step did, the
//! diagnostics that say why a step changed nothing, and the versioned JSON row `plancraft run`
//! prints and Python returns.

use super::episode::{Episode, EpisodeOptions, Step, StepKind, StoppedBy};
use super::message::Message;
use super::slot::slot_name;
use super::state::{Slots, Stack};
use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic, FileId};
use crate::plancraft::data::example::Example;
use crate::plancraft::data::world::World;
use serde::Serialize;
use std::collections::BTreeMap;

/// The version of `plancraft run`'s JSON document.
pub const RUN_JSON_VERSION: u32 = 1;

/// A slot's content in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SlotRow {
    #[serde(rename = "type")]
    pub item: String,
    pub quantity: u8,
}

/// Slot index (as a string, ascending) → content.
pub type InventoryRow = BTreeMap<SlotKey, SlotRow>;

/// A slot index that sorts numerically and serializes as a string (`"10"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SlotKey(pub usize);

impl Serialize for SlotKey {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

/// One message's row.
#[derive(Clone, Debug, Serialize)]
pub struct StepRow {
    /// The line of the actions text (1-based).
    pub line: usize,
    pub text: String,
    pub kind: &'static str,
    /// The action's canonical text, when it differs from `text`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// What the agent receives instead of the inventory observation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    pub changed: bool,
    /// Changed slots: the new content, or `null` when emptied.
    pub delta: BTreeMap<SlotKey, Option<SlotRow>>,
    /// Why a move or smelt changed nothing (the environment says nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Every slot after the step.
    pub inventory: InventoryRow,
}

/// The document `plancraft run --format json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct RunRow {
    pub version: u32,
    pub example: String,
    pub target: String,
    pub impossible: bool,
    pub success: bool,
    pub stopped_by: &'static str,
    /// Messages run (the evaluator's `number_of_steps`).
    pub number_of_steps: usize,
    /// Messages after the episode ended, not run.
    pub not_run: usize,
    pub impossible_emitted: bool,
    pub final_inventory: InventoryRow,
    /// The observation the agent would see next.
    pub observation: String,
    pub steps: Vec<StepRow>,
}

/// An episode run to its end.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub row: RunRow,
    pub steps: Vec<Step>,
    pub stopped_by: StoppedBy,
    pub final_slots: Slots,
    /// Format errors, unknown messages, refused actions and messages not run, labelled on
    /// their lines of the actions text (`file`).
    pub diagnostics: Vec<Diagnostic>,
}

pub fn slot_row(world: &World, stack: &Stack) -> SlotRow {
    SlotRow {
        item: world.name(stack.item).to_string(),
        quantity: stack.quantity,
    }
}

pub fn inventory_row(world: &World, slots: &Slots) -> InventoryRow {
    slots
        .iter()
        .enumerate()
        .filter_map(|(slot, stack)| Some((SlotKey(slot), slot_row(world, stack.as_ref()?))))
        .collect()
}

/// The messages of an actions text: one per line (`\n` or `\r\n`), with their spans; a final
/// line ending does not start another message.
pub fn messages(text: &str) -> Vec<(Span, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let body = body.strip_suffix('\r').unwrap_or(body);
        out.push((Span::new(start, start + body.len()), body));
        start += line.len();
    }
    out
}

/// Runs an example with the messages of `actions` (one per line).
pub fn run(
    world: &World,
    example: &Example,
    actions: &str,
    file: FileId,
    options: EpisodeOptions,
) -> RunResult {
    run_messages(world, example, &messages(actions), file, options)
}

/// Runs an example with `lines`, each message with its span in `file` (the step rows'
/// `line` is its position, 1-based): the messages of an actions text, or an episode's
/// messages as a run left them, a message of several lines among them.
pub fn run_messages(
    world: &World,
    example: &Example,
    lines: &[(Span, &str)],
    file: FileId,
    options: EpisodeOptions,
) -> RunResult {
    let mut episode = Episode::new(world, example, options);
    let mut steps = Vec::new();
    let mut rows = Vec::new();
    let mut diagnostics = Vec::new();
    let mut not_run = 0;
    for (line, (span, text)) in lines.iter().enumerate() {
        let Some(step) = episode.step(text) else {
            not_run = lines.len() - line;
            let (why, _) = episode.finish();
            diagnostics.push(
                Diagnostic::new(
                    Code::PlancraftNotRun,
                    format!(
                        "{not_run} message(s) after the episode ended ({}) are not run",
                        why.name()
                    ),
                    *span,
                )
                .in_file(file),
            );
            break;
        };
        if let Some(diagnostic) = step_diagnostic(world, &step, *span) {
            diagnostics.push(diagnostic.in_file(file));
        }
        rows.push(step_row(world, &step, line + 1, text, episode.slots()));
        steps.push(step);
    }
    let (stopped_by, success) = episode.finish();
    let final_slots = *episode.slots();
    let row = RunRow {
        version: RUN_JSON_VERSION,
        example: example.id.clone(),
        target: world.name(example.target).to_string(),
        impossible: example.impossible,
        success,
        stopped_by: stopped_by.name(),
        number_of_steps: episode.steps_used(),
        not_run,
        impossible_emitted: episode.impossible_emitted(),
        final_inventory: inventory_row(world, &final_slots),
        observation: episode.observation(),
        steps: rows,
    };
    RunResult {
        row,
        steps,
        stopped_by,
        final_slots,
        diagnostics,
    }
}

/// The run as text, as `plancraft run` prints it: the target, one line per message (its
/// number, how it was read, the slots it changed or why it changed nothing), then the verdict.
pub fn transcript(row: &RunRow) -> String {
    let name = if row.example.is_empty() {
        "example"
    } else {
        &row.example
    };
    let mut out = format!("{name}: craft {}\n", row.target);
    for step in &row.steps {
        let effect = if let Some(why) = &step.refused {
            format!("refused: {why}")
        } else if step.changed {
            let parts: Vec<String> = step
                .delta
                .iter()
                .map(|(slot, content)| match content {
                    Some(content) => {
                        format!(
                            "{} {} {}",
                            slot_name(slot.0),
                            content.item,
                            content.quantity
                        )
                    }
                    None => format!("{} empty", slot_name(slot.0)),
                })
                .collect();
            parts.join(", ")
        } else {
            step.message
                .as_deref()
                .and_then(|m| m.lines().next())
                .unwrap_or("no change")
                .to_string()
        };
        out.push_str(&format!("{:>3} {:<12} {}\n", step.line, step.kind, effect));
    }
    let verdict = if row.success { "success" } else { "failure" };
    out.push_str(&format!(
        "{verdict}: stopped by {} after {} message(s)",
        row.stopped_by, row.number_of_steps
    ));
    if row.not_run > 0 {
        out.push_str(&format!(", {} not run", row.not_run));
    }
    out.push('\n');
    out
}

fn step_row(world: &World, step: &Step, line: usize, text: &str, after: &Slots) -> StepRow {
    let action = step
        .message
        .canonical()
        .filter(|canonical| canonical != text);
    StepRow {
        line,
        text: text.to_string(),
        kind: step.kind.name(),
        action,
        message: step.reply.clone(),
        changed: step.changed(),
        delta: step
            .delta
            .iter()
            .map(|(slot, stack)| (SlotKey(*slot), stack.as_ref().map(|s| slot_row(world, s))))
            .collect(),
        refused: step.refusal.as_ref().map(|r| r.describe(world)),
        inventory: inventory_row(world, after),
    }
}

fn step_diagnostic(world: &World, step: &Step, span: Span) -> Option<Diagnostic> {
    match (&step.message, &step.refusal) {
        (Message::FormatError { .. }, _) => Some(Diagnostic::new(
            Code::PlancraftFormatError,
            step.reply.clone().unwrap_or_default(),
            span,
        )),
        (Message::Unknown, _) => Some(
            Diagnostic::new(
                Code::PlancraftUnknownMessage,
                "no action handler matches this message; it uses a step and changes nothing",
                span,
            )
            .with_help("a message is read by the first of `move:`, `smelt:`, `think:`, `search:`, `impossible:` it contains (case matters)"),
        ),
        (_, Some(refusal)) => {
            let verb = if step.kind == StepKind::Smelt { "smelt" } else { "move" };
            Some(Diagnostic::new(
                Code::PlancraftActionRefused,
                format!("the environment ignores this {verb}: {}", refusal.describe(world)),
                span,
            ))
        }
        _ => None,
    }
}
