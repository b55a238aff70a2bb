//! `pddlc kitchen`: run plans in the kitchen world, describe it.

use super::Outcome;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: &Args) -> Outcome {
    eprintln!("error: `pddlc kitchen` is not built yet");
    Outcome::Failure
}
