//! The environment: slots, the message parser, the state and its actions, crafting matches,
//! episodes and whole runs.

pub mod episode;
pub mod grid;
pub mod message;
pub mod run;
pub mod slot;
pub mod state;

pub use state::{Environment, Refusal, SLOTS, Slots, Stack};
