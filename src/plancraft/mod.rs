//! Plancraft's crafting world (Dagan, Keller & Lascarides; gautierdag/plancraft @ 5ab294e):
//! the items, tags and recipes as data (`domains/plancraft/`), the environment that runs an
//! agent's messages exactly as Plancraft's evaluator does, and the views of a run.
//!
//! The specification reproduced is `shared/plancraft/semantics.md`; docs/plancraft.md
//! describes the commands, the data format and what differs.
//!
//! Private folders and this façade:
//! - `data`: the [`World`] and an [`Example`] from the dataset's JSON;
//! - `env`: slots, messages, the state's `move` and `smelt`, crafting matches, an
//!   [`Episode`] step by step and [`run`], a whole run with its diagnostics and JSON row;
//! - `eval`: the paper's results table from whole runs' episodes ([`eval::evaluate`]).

mod data;
mod env;
mod solve;
pub mod eval;

pub use data::example::Example;
pub use data::world::{
    ITEMS_TOML, Item, ItemId, RECIPES_TOML, Recipe, RecipeKind, TAGS_TOML, World,
};
pub use env::episode::{
    Episode, EpisodeOptions, Step, StepKind, StoppedBy, observation, search_answer,
};
pub use env::grid::{Craft, Grid, craft};
pub use env::message::{Handler, Message};
pub use env::run::{
    InventoryRow, RUN_JSON_VERSION, RunResult, RunRow, SlotKey, SlotRow, StepRow, inventory_row,
    messages, run, run_messages, transcript,
};
pub use env::slot::{slot_index, slot_name};
pub use env::{Environment, Refusal, SLOTS, Slots, Stack};
pub use solve::{
    Compiled, Encoding, GridCompiled, RecipeStep, Replay, SOLVE_JSON_VERSION, SolveOptions,
    SolveRow, compile_counts, compile_grid, compile_pddl, from_grid_plan, from_pddl_plan,
    from_pddl_plan_in, solve,
};
