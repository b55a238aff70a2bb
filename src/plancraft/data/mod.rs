//! What is read, not run: the world (items, tags, recipes) and the dataset's examples.

pub mod example;
pub mod world;
