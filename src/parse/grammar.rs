//! The pest parser generated from `grammar/pddl.pest`.

use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../grammar/pddl.pest"]
pub(super) struct PddlParser;
