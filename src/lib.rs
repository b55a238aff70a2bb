//! pddlc: a toolchain for PDDL, the language of AI planning.
//!
//! The pipeline, one module a stage:
//! - [`parse`] turns text into the owned [`ast`], with byte spans and diagnostics;
//! - [`print`] turns the AST back into canonical PDDL text;
//! - [`check`] finds semantic errors in domains and problems;
//! - [`semantics`] is the ground world that validation and planning share: objects, states,
//!   evaluation, derived predicates, VAL's mutex rules;
//! - [`plan`] validates plans against a task;
//! - [`text2world`] reproduces tarski 0.8.2 and the Text2World benchmark: tarski's verdict
//!   (`check --profile tarski`), its strings, response extraction;
//! - [`score`] computes the Text2World metrics, reproduced or clean, on the stages above;
//! - [`kitchen`] is the kitchen world, its executor and its compiler to PDDL;
//! - [`diagnostics`] is the one `Diagnostic` type every stage reports with, and its renderers.
//!
//! The library does no I/O and never prints; the `pddlc` binary (in `cli`) does both.
#![doc = ""]

pub mod ast;
pub mod check;
pub mod choice;
pub mod diagnostics;
pub mod kitchen;
pub mod parse;
pub mod plan;
pub mod print;
pub mod score;
pub mod semantics;
pub mod solve;
pub mod task;
pub mod text2world;
