//! Text2World compatibility: tarski 0.8.2 and the Text2World benchmark reproduced, behaviour
//! for behaviour, so that pddlc's verdicts and scores equal the published ones.
//!
//! - [`tarski`]: tarski's lexer, grammar and semantic checks; its verdict is EXEC and
//!   `check --profile tarski`.
//! - `strings`: what Text2World's F1 metrics read from a domain tarski accepts (tarski's
//!   `str()` of predicates, parameters, preconditions and effects).
//! - [`extract`]: the domain Text2World takes from an LLM response.
//! - [`python`]: the Python built-ins they rely on (`strip`, slicing, `round`, float `repr`).
//!
//! The metrics themselves are computed in [`crate::score::text2world`], which uses this stage.

pub mod extract;
pub mod python;
pub(crate) mod strings;
pub mod tarski;

pub use extract::extract_response;
