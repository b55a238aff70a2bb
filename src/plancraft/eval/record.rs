//! Episode records as runs leave them, read from their text: Plancraft's evaluator result
//! (`outputs/<run>/<split>/<generation>/<example_id>.json`), one JSON line with the same
//! fields, or the row `pddlc plancraft run --format json` prints (and the lines of
//! `shared/plancraft/reference/val-noisy.jsonl`, which have its shape with `id`). What the
//! metrics need is kept; a record that cannot be read is a located `M607`.

use super::metrics::{ActionCounts, classify};
use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic, FileId};
use serde::Deserialize;
use std::borrow::Cow;

/// One episode of a method, as the metrics read it.
#[derive(Clone, Debug, PartialEq)]
pub struct EpisodeRecord {
    pub example_id: String,
    pub success: bool,
    /// The evaluator's `number_of_steps` (messages sent); the assistant messages when absent.
    pub number_of_steps: usize,
    /// The assistant messages, classified (`count_actions`).
    pub counts: ActionCounts,
    /// The last message starts with `impossible:` (the F1's prediction).
    pub impossible_emitted: bool,
    /// The record's own `recipe_type`, when it has one (Plancraft's results do).
    pub recipe_type: Option<String>,
    pub tokens_used: Option<f64>,
    /// The generation (seed) folder it was found in, relative to the run; empty for a line of
    /// a JSONL file.
    pub seed: String,
    /// Where its example id is written, for the diagnostics about it.
    pub file: FileId,
    pub span: Span,
    /// The assistant messages' texts, in order, when the reader was asked to keep them (for a
    /// page that replays them); empty otherwise. A multimodal message without a text part is
    /// left out, as the metrics leave it out.
    pub messages: Vec<String>,
}

/// The fields of the three shapes; which are present tells them apart.
#[derive(Deserialize)]
struct Raw<'a> {
    #[serde(default, borrow)]
    example_id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    example: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    success: bool,
    #[serde(default)]
    number_of_steps: Option<usize>,
    #[serde(default)]
    impossible_emitted: Option<bool>,
    #[serde(default, borrow)]
    recipe_type: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    model_trace: Option<Trace<'a>>,
    #[serde(default, borrow)]
    steps: Option<Vec<RawStep<'a>>>,
}

#[derive(Deserialize)]
struct Trace<'a> {
    #[serde(borrow)]
    dialogue_history: Vec<RawMessage<'a>>,
    #[serde(default)]
    tokens_used: Option<f64>,
}

#[derive(Deserialize)]
struct RawMessage<'a> {
    #[serde(borrow)]
    role: Cow<'a, str>,
    #[serde(borrow)]
    content: Content<'a>,
}

/// A message's content: text, or a multimodal list of parts (`[{type: "text", text}]`).
#[derive(Deserialize)]
#[serde(untagged)]
enum Content<'a> {
    #[serde(borrow)]
    Text(Cow<'a, str>),
    #[serde(borrow)]
    Parts(Vec<Part<'a>>),
}

#[derive(Deserialize)]
struct Part<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct RawStep<'a> {
    #[serde(borrow)]
    text: Cow<'a, str>,
}

impl Content<'_> {
    /// The text `count_actions` classifies: the first text part of a list.
    fn first_text(&self) -> Option<&str> {
        match self {
            Content::Text(text) => Some(text),
            Content::Parts(parts) => parts
                .iter()
                .find(|part| part.kind == "text")
                .and_then(|part| part.text.as_deref()),
        }
    }

    /// The text `get_impossible` reads: the last part's of a list.
    fn last_text(&self) -> &str {
        match self {
            Content::Text(text) => text,
            Content::Parts(parts) => parts
                .last()
                .and_then(|part| part.text.as_deref())
                .unwrap_or_default(),
        }
    }
}

fn invalid(message: String, span: Span, file: FileId) -> Diagnostic {
    Diagnostic::new(Code::PlancraftEpisodeInvalid, message, span).in_file(file)
}

/// The byte offset of serde_json's 1-based line and column in `text`, clamped to it.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}

/// The episode in `text` (a whole record), its spans counted from `base` in `file`.
fn record(
    text: &str,
    base: usize,
    file: FileId,
    seed: &str,
    keep_messages: bool,
) -> Result<EpisodeRecord, Diagnostic> {
    let raw: Raw = serde_json::from_str(text).map_err(|error| {
        let at = base + offset_of(text, error.line(), error.column());
        // The label locates the error; serde's own position (within a line) would mislead.
        let text = error.to_string();
        let reason = text.rsplit_once(" at line ").map_or(text.as_str(), |(reason, _)| reason);
        let message = format!("not an episode record: {reason}");
        invalid(message, Span::new(at, at), file).with_help(
            "an episode is Plancraft's result (`success`, `example_id`, `model_trace.dialogue_history`), or a row of `pddlc plancraft run --format json` (`example`, `success`, `steps`)",
        )
    })?;
    let whole = Span::new(base, base + text.trim_end().len());
    let Some(id) = raw.example_id.or(raw.example).or(raw.id) else {
        let message = "the record names no example (`example_id`, `example` or `id`)".to_string();
        return Err(invalid(message, whole, file));
    };
    let quoted = format!("\"{id}\"");
    let span = text
        .find(&quoted)
        .map_or(whole, |at| Span::new(base + at, base + at + quoted.len()));
    let (messages, last) = if let Some(trace) = &raw.model_trace {
        let assistant: Vec<Option<&str>> = trace
            .dialogue_history
            .iter()
            .filter(|m| m.role == "assistant")
            .map(|m| m.content.first_text())
            .collect();
        let last = trace.dialogue_history.last().map(|m| m.content.last_text());
        (assistant, last)
    } else if let Some(steps) = &raw.steps {
        let texts: Vec<Option<&str>> = steps.iter().map(|s| Some(s.text.as_ref())).collect();
        (texts, steps.last().map(|s| s.text.as_ref()))
    } else {
        let message = format!(
            "the episode of `{id}` has no messages (`model_trace.dialogue_history` or `steps`)"
        );
        return Err(invalid(message, span, file));
    };
    let counts = classify(messages.iter().copied());
    let kept = if keep_messages {
        messages.iter().flatten().map(|m| m.to_string()).collect()
    } else {
        Vec::new()
    };
    Ok(EpisodeRecord {
        example_id: id.into_owned(),
        success: raw.success,
        number_of_steps: raw.number_of_steps.unwrap_or(messages.len()),
        counts,
        impossible_emitted: raw
            .impossible_emitted
            .unwrap_or_else(|| last.is_some_and(|text| text.starts_with("impossible:"))),
        recipe_type: raw.recipe_type.map(Cow::into_owned),
        tokens_used: raw.model_trace.and_then(|trace| trace.tokens_used),
        seed: seed.to_string(),
        file,
        span,
        messages: kept,
    })
}

/// How a run's file holds its episodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpisodeFile {
    /// One record (a `.json` file of a run folder).
    Json,
    /// One record a line (`.jsonl`); blank lines are skipped.
    JsonLines,
}

/// The episodes of one file, `file` among the caller's sources, found in the generation
/// folder `seed`, with their messages when `keep_messages`; a record that cannot be read is
/// an `M607` and the rest are still read.
pub fn read_episodes(
    text: &str,
    shape: EpisodeFile,
    file: FileId,
    seed: &str,
    keep_messages: bool,
) -> (Vec<EpisodeRecord>, Vec<Diagnostic>) {
    let mut episodes = Vec::new();
    let mut diagnostics = Vec::new();
    let mut keep = |result| match result {
        Ok(episode) => episodes.push(episode),
        Err(diagnostic) => diagnostics.push(diagnostic),
    };
    match shape {
        EpisodeFile::Json => keep(record(text, 0, file, seed, keep_messages)),
        EpisodeFile::JsonLines => {
            let mut base = 0;
            for line in text.split_inclusive('\n') {
                if !line.trim().is_empty() {
                    keep(record(line, base, file, seed, keep_messages));
                }
                base += line.len();
            }
        }
    }
    (episodes, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_shapes_give_the_same_episode() {
        let plancraft = r#"{"success": true, "recipe_type": "shaped", "complexity": "easy",
            "number_of_steps": 2, "example_id": "VAL0001",
            "model_trace": {"dialogue_history": [
                {"role": "user", "content": "obs"},
                {"role": "assistant", "content": "think: plan"},
                {"role": "user", "content": "Ok"},
                {"role": "assistant", "content": [{"type": "text", "text": "move: from [I1] to [A1] with quantity 1"}]}
            ], "tokens_used": 120}}"#;
        let (episodes, diagnostics) =
            read_episodes(plancraft, EpisodeFile::Json, FileId(3), "0", false);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let episode = &episodes[0];
        assert_eq!(episode.example_id, "VAL0001");
        assert_eq!(episode.counts.think, 1);
        assert_eq!(episode.counts.moves, 1);
        assert_eq!(episode.counts.total(), 2);
        assert_eq!(episode.tokens_used, Some(120.0));
        assert_eq!((episode.file, episode.seed.as_str()), (FileId(3), "0"));
        assert_eq!(
            &plancraft[episode.span.start..episode.span.end],
            "\"VAL0001\""
        );
        // Kept only when asked: the assistant messages' texts, the multimodal one's text part.
        assert!(episode.messages.is_empty());
        let (kept, _) = read_episodes(plancraft, EpisodeFile::Json, FileId(3), "0", true);
        assert_eq!(
            kept[0].messages,
            ["think: plan", "move: from [I1] to [A1] with quantity 1"]
        );
        let lines = "{\"id\": \"VAL0002\", \"success\": false, \"steps\": [{\"text\": \"impossible: no\"}]}\n\n{\"example\": \"VAL0003\", \"success\": true, \"number_of_steps\": 4, \"impossible_emitted\": false, \"steps\": []}\n";
        let (episodes, diagnostics) =
            read_episodes(lines, EpisodeFile::JsonLines, FileId(0), "", false);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert!(episodes[0].impossible_emitted && episodes[0].number_of_steps == 1);
        assert_eq!(episodes[0].counts.impossible, 1);
        let third = lines.find("\"VAL0003\"").unwrap_or_default();
        assert_eq!(
            (episodes[1].number_of_steps, episodes[1].span.start),
            (4, third)
        );
    }

    #[test]
    fn a_bad_line_is_located_and_the_others_are_read() {
        let lines = "{\"id\": \"A\", \"success\": true, \"steps\": []}\n{\"id\": \"B\", \"steps\": []}\n{\"id\": \"C\", \"success\": true}\n";
        let (episodes, diagnostics) =
            read_episodes(lines, EpisodeFile::JsonLines, FileId(1), "", false);
        assert_eq!(episodes.len(), 1);
        assert_eq!(diagnostics.len(), 2);
        assert!(diagnostics[0].message.contains("missing field `success`"));
        let second_line = lines.find("{\"id\": \"B\"").unwrap_or_default();
        let span = diagnostics[0].labels[0].span;
        assert!(span.start > second_line && span.start < second_line + 25);
        assert!(diagnostics[1].message.contains("no messages"));
        assert!(diagnostics.iter().all(|d| d.labels[0].file == FileId(1)));
        let (_, diagnostics) = read_episodes("[1, 2", EpisodeFile::Json, FileId(0), "", false);
        assert_eq!(diagnostics[0].code, Code::PlancraftEpisodeInvalid);
    }
}
