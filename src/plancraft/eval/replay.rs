//! Episodes replayed for a page: each method's episodes run again, message by message, in the
//! environment from their example's inventory, so that every step shows what it did (the
//! slots it changed, or why it changed nothing), as `plancraft run` prints it.

use super::MethodInput;
use crate::ast::Span;
use crate::diagnostics::FileId;
use crate::plancraft::data::example::Example;
use crate::plancraft::data::world::World;
use crate::plancraft::env::episode::EpisodeOptions;
use crate::plancraft::env::run::{run_messages, transcript};
use std::collections::HashMap;

/// One episode and its replay's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayedEpisode {
    pub method: String,
    pub seed: String,
    pub example: String,
    /// `plancraft run`'s text for the episode's messages, and a last line when the replay
    /// ends otherwise than the run's record says.
    pub transcript: String,
}

/// Every episode of `methods` whose example is in `examples`, replayed under the evaluator's
/// default settings (30 messages, every handler). The records must have been read with their
/// messages (`RunReader::keep_messages`); an episode of an example not in the split (an
/// `M608` of the evaluation) is left out.
pub fn replay_episodes(
    world: &World,
    examples: &[Example],
    methods: &[MethodInput],
) -> Vec<ReplayedEpisode> {
    let by_id: HashMap<&str, &Example> = examples.iter().map(|e| (e.id.as_str(), e)).collect();
    let mut out = Vec::new();
    for method in methods {
        for episode in &method.episodes {
            let Some(example) = by_id.get(episode.example_id.as_str()) else {
                continue;
            };
            let lines: Vec<(Span, &str)> = episode
                .messages
                .iter()
                .map(|m| (Span::new(0, 0), m.as_str()))
                .collect();
            let result = run_messages(world, example, &lines, FileId(0), EpisodeOptions::default());
            let mut text = transcript(&result.row);
            if result.row.success != episode.success {
                let recorded = if episode.success {
                    "success"
                } else {
                    "failure"
                };
                text.push_str(&format!(
                    "note: the run's record says {recorded}; it may have run with other settings than this replay's (30 messages, every handler)\n"
                ));
            }
            out.push(ReplayedEpisode {
                method: method.label.clone(),
                seed: episode.seed.clone(),
                example: episode.example_id.clone(),
                transcript: text,
            });
        }
    }
    out
}
