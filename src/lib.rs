//! pddlc: a toolchain for PDDL, the language of AI planning.
//!
//! The library is a pipeline, one module a stage, listed here in the order data flows through
//! them (docs/ARCHITECTURE.md repeats this table):
//!
//! | stage | module | entry points | input → output | codes |
//! |---|---|---|---|---|
//! | parse | `parse` | `parse::file`, `parse::domain`, `parse::problem`, `parse::extract_answer`, `parse::bddl` | text → `Parsed<Option<PddlFile>>` (the `ast`, with byte spans); BDDL text → `Parsed<Option<ast::bddl::BddlFile>>` | `P0xx` |
//! | tree | `ast` | (data: `Domain`, `Problem`, `Gd`, `Effect`, …; `ast::bddl`: `BddlFile`, `Formula`, …) | the owned syntax tree every later stage reads | — |
//! | fmt | `fmt` | `fmt::file`, `fmt::domain`, `fmt::problem`, `fmt::bddl` | tree → canonical PDDL (or BDDL) text, comments kept | — |
//! | check | `check` | `check::domain`, `check::problem`, `check::problem_source`, `check::ProblemChecker` | tree → diagnostics | `C1xx` (domain), `C2xx` (problem) |
//! | task | `task` | `task::load`, `task::check_parsed` | domain and problem text → a checked `Task`, or why it cannot be used | `P005` for a misplaced or swapped input, and the two stages above |
//! | semantics | `semantics` | `semantics::World::new` | domain and problem → the ground world: objects, states, evaluation, derived predicates, VAL's mutex rules | — |
//! | validate | `validate` | `validate::validate`, `validate::applicable` | task and plan text → `Report` (the verdict, failures, metric) | `V3xx` |
//! | solve | `solve` | `solve::solve`, `solve::rank` | task → `Answer` (a validated plan, a proof of unsolvability, or unknown) | `S5xx` |
//! | worldmodel | `worldmodel` | `worldmodel::Env`, `worldmodel::make`, `worldmodel::score` | task → an environment: the state, the applicable ground actions, the successor of one (or why it cannot be applied), the goal test; task and plan → evaluation items for world models; items and a model's predictions → scores | the `V3xx` of a step, `W8xx` |
//! | text2world | `text2world` | `text2world::tarski::check`, `text2world::extract_response` | text → tarski 0.8.2's verdict and strings, Text2World's extraction | `C150` |
//! | score | `score` | `score::compare`, `score::Gold`, `score::summary` | gold and predicted text → `Scored` (six metrics and their detail) | the prediction's own |
//! | kitchen | `kitchen` | `kitchen::run`, `kitchen::compile_task`, `kitchen::describe_task`, `kitchen::World::embedded` | Simmer's environment and plan → `Outcome`; environment and goal → PDDL | `K4xx` |
//! | plancraft | `plancraft` | `plancraft::run`, `plancraft::solve`, `plancraft::compile_counts`, `plancraft::compile_grid`, `plancraft::Example::from_json`, `plancraft::World::embedded`, `plancraft::eval::evaluate` | Plancraft's example and an agent's messages → `RunResult`; an example → `SolveRow` (a shortest plan or a proof) or PDDL; runs' episodes and a split → the results table | `M6xx` |
//! | bddl | `bddl` | `bddl::check_file`, `bddl::Shipped`, `bddl::Activity`, `bddl::compile_problem_goal`, `bddl::State`, `bddl::compare`, `bddl::compare_with`, `bddl::summary` | a BDDL tree → diagnostics (against a domain, the shipped iGibson one, a taxonomy); a problem → `CompiledGoal`, with a `State` → `GoalVerdict` (bddl's semantics or the intended ones); a gold and a predicted plan (ActPlan-1K's text) → `Comparison` (the LCS metric and its matched steps) | `B7xx` |
//! | diagnostics | `diagnostics` | `Diagnostic`, `diagnostics::render::{human, json, gcc, val, rows}` | diagnostics → text (and the JSON contract's typed rows) | every code |
//! | html | `html` | `html::validate_page`, `html::solve_page`, `html::kitchen_eval_page`, `html::plancraft_eval_page`, `html::score_page` | a command's results → one self-contained HTML page (inline CSS and SVG, no network; only the score page has a few lines of script, its sort buttons) | — |
//! | options | `choice` | `Choice::parse_choice` (and `FromStr` of `score::Mode`, `check::Profile`, `kitchen::Mode`, `kitchen::Flavour`) | a word → an option's value, for the CLI and Python alike | — |
//!
//! Every stage returns what it could build plus its diagnostics, never fails and never panics;
//! the front ends (the `pddlc` binary in `cli`, the Python binding, the language server) load
//! tasks through [`task`] and print through [`diagnostics::render`]. The library does no I/O and
//! never prints.

pub mod parse;
pub mod ast;
pub mod fmt;
pub mod check;
pub mod task;
pub mod semantics;
pub mod validate;
pub mod solve;
pub mod worldmodel;
pub mod text2world;
pub mod score;
pub mod kitchen;
pub mod plancraft;
pub mod bddl;
pub mod diagnostics;
pub mod html;
pub mod choice;
