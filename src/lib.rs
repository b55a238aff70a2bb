//! pddlc: a toolchain for PDDL, the language of AI planning.
//!
//! The pipeline, one module a stage:
//! - [`parse`] turns text into the owned [`ast`], with byte spans and diagnostics;
//! - [`print`] turns the AST back into canonical PDDL text;
//! - [`diagnostics`] is the one `Diagnostic` type every stage reports with, and its renderers.
//!
//! The library does no I/O and never prints; the `pddlc` binary (in `cli`) does both.
#![doc = ""]

pub mod ast;
pub mod check;
pub mod diagnostics;
pub mod kitchen;
pub mod parse;
pub mod plan;
pub mod print;
pub mod score;
pub mod text2world;
