//! The kitchen's data: the model as written (`model`, the TOML tables of
//! `domains/kitchen/`), the world resolved from it (`world`, with `resolve` turning each action
//! table into tests and primitives), a task environment in Simmer's format (`simmer`) and ours with the shipped tasks (`task`), a Simmer
//! plan's text (`plan`) and Simmer's object ids (`simmer_id`). Nothing here runs a plan; the
//! executor (`execute`) and the compiler (`compile`) read it.

pub mod model;
pub mod plan;
mod resolve;
pub mod simmer;
pub mod simmer_id;
pub mod task;
pub mod world;
