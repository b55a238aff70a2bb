//! The Simmer kitchen world as a declarative model, the executor that runs VirtualHome-style
//! plans in it, and the compiler that lowers it to PDDL.
//!
//! `domains/kitchen/*.toml` hold the model (actions with their checks and effect primitives,
//! object classes, contamination and audit rules). The specification reproduced is
//! `shared/kitchen/simmer-semantics.md`; docs/kitchen.md describes the format and the two modes.
//!
//! Three folders, each private, and this façade:
//! - `data`: what is read, not run: the model as written, the [`World`] resolved from it, a
//!   task environment ([`Env`]), a plan's text and Simmer's object ids;
//! - `execute`: the executor: the state, the engine, strict mode's rules, the irreversible
//!   steps and the end-of-plan audits; [`run`] gives an [`Outcome`] whose every
//!   [`Failure`] is a diagnostic with Simmer's step data;
//! - `compile`: the world and a task to a PDDL domain and problem, and plans between formats.
//!
//! Beside them, `report` holds the views of outcomes (Simmer's JSON, result files, Table 3),
//! `describe` the world as prompt text, `eval` whole runs evaluated (no I/O: the front ends
//! read the folders), `solve` a task solved end to end (compiled, planned,
//! translated back and run in strict mode) and `stats` the statistics `kitchen eval` reports.
//! Every front end (the CLI, Python) calls these, so that they cannot disagree.

mod compile;
mod data;
mod describe;
mod eval;
mod execute;
mod report;
mod solve;
mod stats;

// The world and a task.
pub use data::plan::not_a_plan;
pub use data::simmer::Env;
pub use data::task::{
    EmbeddedTask, embedded_task, embedded_task_range, embedded_tasks, task_of_env_file,
};
pub use data::world::{ACTIONS_TOML, CLASSES_TOML, WORLD_TOML, World};
// Running a plan.
pub use execute::{
    Failure, FailureType, Mode, Name, Object, Outcome, State, run, states_after_steps,
};
// Views of outcomes, and of the world as prompt text.
pub use describe::{DescribeOptions, describe_env, describe_task, describe_world};
pub use report::{
    Counts, Summary, TaskMetrics, final_state_json, plan_json, result_file, summarise, summary,
};
// Compiling to PDDL.
pub use compile::{
    CompileOptions, Flavour, Spare, TaskGoal, UNEXPRESSIBLE, compile_task, default_spares,
    domain as compile_domain, from_pddl_plan, is_syntax_condition, plan_phantoms, plan_spares,
    problem as compile_problem, relevant_env, to_pddl_plan,
};
// Solving a task: compile, plan, translate back, run in strict mode.
pub use solve::{
    SolutionRow, SolutionStatistics, SolveError, SolveOptions, StrictRow, TaskSolution, solve_task,
};
// `kitchen eval` without the I/O: the rules over a run folder's names, a task's plans run,
// the tally in task order, and the statistics' document.
pub use eval::{
    BootstrapOptions, BootstrapRow, Comparison, EnvCache, EnvInput, EvalDocument, EvalOptions,
    FileNotes, Method, Notes, PlanInput, PlanVerdict, RanPlan, RunFolder, Tally, TaskEvaluation,
    TaskInput, TaskRow, env_file_name, evaluate_task, is_plan_file, missing_env_message,
    no_task_folder_message, own_env_file, plan_files, plan_order, result_file_name,
};
// The statistics of `kitchen eval`.
pub use stats::{
    Estimate, PairedTest, SplitMix64, Statistic, TTest, bootstrap, estimate_of, paired_bootstrap,
    paired_t_test, resample_statistics, stars,
};
