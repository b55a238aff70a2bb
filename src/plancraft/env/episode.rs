//! An episode as Plancraft's evaluator runs it (semantics §8): every message uses one of the
//! budget's steps; a move or smelt runs in the environment and is followed by the success
//! test; other messages leave the state alone and are answered with text; `impossible:`
//! ends the episode, a success when the example is impossible.

use super::message::{Handler, Message, format_error, only_select};
use super::slot::slot_name;
use super::state::{Environment, Refusal, SLOTS, Slots, Stack};
use crate::plancraft::data::example::Example;
use crate::plancraft::data::world::{ItemId, RecipeKind, World};

/// The evaluator's settings.
#[derive(Clone, Debug)]
pub struct EpisodeOptions {
    /// Messages per episode (Plancraft's `max_steps`, 30).
    pub max_steps: usize,
    /// The handlers, in the order they are tried.
    pub handlers: Vec<Handler>,
}

impl Default for EpisodeOptions {
    fn default() -> EpisodeOptions {
        EpisodeOptions {
            max_steps: 30,
            handlers: Handler::DEFAULT.to_vec(),
        }
    }
}

/// How a message was read, as the reference files name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    Move,
    Smelt,
    Impossible,
    Think,
    Search,
    FormatError,
    Unknown,
}

impl StepKind {
    pub fn name(self) -> &'static str {
        match self {
            StepKind::Move => "move",
            StepKind::Smelt => "smelt",
            StepKind::Impossible => "impossible",
            StepKind::Think => "think",
            StepKind::Search => "search",
            StepKind::FormatError => "format_error",
            StepKind::Unknown => "unknown",
        }
    }
}

/// Why an episode ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoppedBy {
    /// The target is held.
    Success,
    /// The agent said the task is impossible.
    Impossible,
    /// The budget's messages were all used.
    Budget,
    /// The messages ran out first.
    End,
}

impl StoppedBy {
    pub fn name(self) -> &'static str {
        match self {
            StoppedBy::Success => "success",
            StoppedBy::Impossible => "impossible",
            StoppedBy::Budget => "budget",
            StoppedBy::End => "end",
        }
    }
}

/// One message and what it did.
#[derive(Clone, Debug)]
pub struct Step {
    pub kind: StepKind,
    pub message: Message,
    /// What the agent receives instead of the inventory observation (format errors, `Ok`,
    /// search answers, "Only select …"); `None` for moves, smelts and stops.
    pub reply: Option<String>,
    /// The slots whose content changed, with their new content (`None`: emptied).
    pub delta: Vec<(usize, Option<Stack>)>,
    /// Why a move or smelt changed nothing.
    pub refusal: Option<Refusal>,
}

impl Step {
    pub fn changed(&self) -> bool {
        !self.delta.is_empty()
    }
}

/// An episode in progress: the environment, the messages used and whether it has ended.
#[derive(Clone, Debug)]
pub struct Episode<'w> {
    environment: Environment<'w>,
    target: ItemId,
    impossible: bool,
    options: EpisodeOptions,
    steps_used: usize,
    ended: Option<(StoppedBy, bool)>,
    last_was_impossible: bool,
}

impl<'w> Episode<'w> {
    pub fn new(world: &'w World, example: &Example, options: EpisodeOptions) -> Episode<'w> {
        Episode {
            environment: Environment::new(world, example.slots),
            target: example.target,
            impossible: example.impossible,
            options,
            steps_used: 0,
            ended: None,
            last_was_impossible: false,
        }
    }

    pub fn slots(&self) -> &Slots {
        self.environment.slots()
    }

    pub fn steps_used(&self) -> usize {
        self.steps_used
    }

    /// `Some((why, success))` once the episode has ended.
    pub fn ended(&self) -> Option<(StoppedBy, bool)> {
        self.ended
    }

    /// Whether the last message was an `impossible:` stop (the F1 metric's prediction).
    pub fn impossible_emitted(&self) -> bool {
        self.last_was_impossible
    }

    /// The observation text (Plancraft's `target_and_inventory_to_text_obs`).
    pub fn observation(&self) -> String {
        observation(self.environment.world(), self.target, self.slots())
    }

    /// Runs one message. `None` once the episode has ended: the message is not run.
    pub fn step(&mut self, text: &str) -> Option<Step> {
        if self.ended.is_some() {
            return None;
        }
        let before = *self.slots();
        let message = Message::parse(text, &self.options.handlers);
        self.steps_used += 1;
        self.last_was_impossible = false;
        let world = self.environment.world();
        let (kind, reply, result) = match &message {
            Message::Move { from, to, quantity } => (
                StepKind::Move,
                None,
                Some(self.environment.move_items(*from, *to, *quantity)),
            ),
            Message::Smelt { from, to, quantity } => (
                StepKind::Smelt,
                None,
                Some(self.environment.smelt(*from, *to, *quantity)),
            ),
            Message::Impossible { .. } => (StepKind::Impossible, None, None),
            Message::Think => (StepKind::Think, Some("Ok".to_string()), None),
            Message::Search { item } => (StepKind::Search, Some(search_answer(world, item)), None),
            Message::FormatError { handler, reason } => (
                StepKind::FormatError,
                Some(format_error(*handler, reason)),
                None,
            ),
            Message::Unknown => (
                StepKind::Unknown,
                Some(only_select(&self.options.handlers)),
                None,
            ),
        };
        if kind == StepKind::Impossible {
            self.last_was_impossible = true;
            self.ended = Some((StoppedBy::Impossible, self.impossible));
        } else if result.is_some() && self.environment.holds(self.target) {
            self.ended = Some((StoppedBy::Success, true));
        } else if self.steps_used >= self.options.max_steps {
            self.ended = Some((StoppedBy::Budget, false));
        }
        let after = self.slots();
        let delta = (0..SLOTS)
            .filter(|&slot| before[slot] != after[slot])
            .map(|slot| (slot, after[slot]))
            .collect();
        Some(Step {
            kind,
            message,
            reply,
            delta,
            refusal: result.and_then(Result::err),
        })
    }

    /// Ends an episode whose messages ran out.
    pub fn finish(&mut self) -> (StoppedBy, bool) {
        *self.ended.get_or_insert((StoppedBy::End, false))
    }
}

/// The observation text for a target and slots.
pub fn observation(world: &World, target: ItemId, slots: &Slots) -> String {
    let mut text = format!("Craft an item of type: {}\ninventory:", world.name(target));
    for (slot, stack) in slots.iter().enumerate() {
        if let Some(stack) = stack {
            text.push_str(&format!(
                "\n - {} {} quantity {}",
                world.name(stack.item),
                slot_name(slot),
                stack.quantity
            ));
        }
    }
    text
}

/// The answer to `search: <item>` (`search.py:gold_search_recipe`). Plancraft samples one
/// valid grid per recipe at random; this answer places each pattern at the top left with
/// the first allowed item per cell, and lists smelting inputs in item order.
pub fn search_answer(world: &World, item: &str) -> String {
    let recipes = world
        .id(item)
        .map(|id| world.recipes_for(id))
        .unwrap_or(&[]);
    if recipes.is_empty() {
        return "Could not find a recipe by that name.".to_string();
    }
    let mut text = format!("Recipes to craft {item}:\n");
    for (number, &index) in recipes.iter().enumerate() {
        text.push_str(&format!("recipe {}:\n", number + 1));
        match &world.recipes()[index].kind {
            RecipeKind::Shaped { width, cells, .. } => {
                let width = usize::from(*width);
                for (i, cell) in cells.iter().enumerate() {
                    if let Some(first) = cell.as_ref().and_then(|c| c.first()) {
                        let slot = (i / width) * 3 + i % width + 1;
                        text.push_str(&format!("{} at {}\n", world.name(*first), slot_name(slot)));
                    }
                }
            }
            RecipeKind::Shapeless { ingredients, .. } => {
                for (i, alternatives) in ingredients.iter().enumerate() {
                    text.push_str(&format!(
                        "{} at {}\n",
                        world.name(alternatives[0]),
                        slot_name(i + 1)
                    ));
                }
            }
            RecipeKind::Smelting { inputs } => {
                let names: Vec<String> = inputs
                    .iter()
                    .map(|&i| format!("'{}'", world.name(i)))
                    .collect();
                text.push_str(&format!("smelt {{{}}}\n", names.join(", ")));
            }
        }
    }
    text
}
