//! pddlc for Python: the extension module `pddlc._pddlc`, a thin layer over the library.
//!
//! Every function takes text (a `str`, or `bytes` decoded as the CLI decodes files; a path is a
//! convenience), calls the library with the interpreter detached, so that other Python threads
//! run meanwhile, and returns objects made from the library's own values: diagnostics through
//! the JSON renderer's fields, trees through serde, scores through the CLI's JSON rows. Bad
//! input is a `Report` with diagnostics; misuse (a wrong type, an unknown mode) is a
//! `TypeError` or `ValueError`. The library does not panic; should it ever, the panic is caught
//! here and raised as `pddlc.InternalError`, never unwound into the interpreter.

mod bddl_check;
mod bddl_goal;
mod check;
mod env;
mod input;
mod kitchen;
mod kitchen_eval;
mod kitchen_solve;
mod plancraft;
mod plancraft_eval;
mod pickle;
mod plan;
mod report;
mod score;
mod solve;
mod tree;
mod value;
mod worldmodel;

use pyo3::prelude::*;
use std::any::Any;

pyo3::create_exception!(
    pddlc,
    InternalError,
    pyo3::exceptions::PyRuntimeError,
    "A bug in pddlc (a panic caught at the boundary): please report it with the input."
);

/// Runs `f`, turning a panic into [`InternalError`]: the last guard, for what the library's own
/// no-panic rule and tests do not catch.
pub(crate) fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => Err(InternalError::new_err(format!(
            "internal error in pddlc: {}; please report it with the input",
            panic_message(payload.as_ref())
        ))),
    }
}

/// The message a panic was raised with.
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".to_string()
    }
}

#[pymodule]
fn _pddlc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("JSON_VERSION", pddlc::diagnostics::render::JSON_VERSION)?;
    m.add("InternalError", m.py().get_type::<InternalError>())?;
    m.add_class::<report::Label>()?;
    m.add_class::<report::Diagnostic>()?;
    m.add_class::<report::Report>()?;
    m.add_class::<tree::Domain>()?;
    m.add_class::<tree::Problem>()?;
    m.add_class::<score::Scores>()?;
    m.add_class::<plan::PlanReport>()?;
    m.add_class::<solve::Solution>()?;
    m.add_class::<kitchen::KitchenRun>()?;
    m.add_class::<kitchen::KitchenFailure>()?;
    m.add_class::<kitchen_solve::KitchenSolution>()?;
    m.add_class::<plancraft::PlancraftEnv>()?;
    m.add_class::<env::Env>()?;
    m.add_class::<env::EnvState>()?;
    m.add("TaskError", m.py().get_type::<env::TaskError>())?;
    m.add_function(wrap_pyfunction!(pickle::restore, m)?)?;
    m.add_function(wrap_pyfunction!(tree::parse, m)?)?;
    m.add_function(wrap_pyfunction!(tree::format, m)?)?;
    m.add_function(wrap_pyfunction!(check::check, m)?)?;
    m.add_function(wrap_pyfunction!(bddl_check::bddl_check, m)?)?;
    m.add_function(wrap_pyfunction!(bddl_check::bddl_format, m)?)?;
    m.add_function(wrap_pyfunction!(bddl_check::bddl_compare, m)?)?;
    m.add_function(wrap_pyfunction!(bddl_goal::bddl_parse, m)?)?;
    m.add_class::<bddl_goal::BddlGoal>()?;
    m.add_function(wrap_pyfunction!(score::score, m)?)?;
    m.add_function(wrap_pyfunction!(score::score_many, m)?)?;
    m.add_function(wrap_pyfunction!(plan::validate, m)?)?;
    m.add_function(wrap_pyfunction!(plan::applicable, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(kitchen::kitchen_run, m)?)?;
    m.add_function(wrap_pyfunction!(kitchen::kitchen_describe, m)?)?;
    m.add_function(wrap_pyfunction!(kitchen::kitchen_compile, m)?)?;
    m.add_function(wrap_pyfunction!(kitchen::kitchen_tasks, m)?)?;
    m.add_function(wrap_pyfunction!(kitchen_solve::kitchen_solve, m)?)?;
    m.add_function(wrap_pyfunction!(kitchen_eval::kitchen_eval, m)?)?;
    m.add_function(wrap_pyfunction!(plancraft::plancraft_run, m)?)?;
    m.add_function(wrap_pyfunction!(plancraft::plancraft_solve, m)?)?;
    m.add_function(wrap_pyfunction!(plancraft::plancraft_compile, m)?)?;
    m.add_function(wrap_pyfunction!(plancraft::plancraft_from_pddl_plan, m)?)?;
    m.add_function(wrap_pyfunction!(plancraft_eval::plancraft_eval, m)?)?;
    m.add_function(wrap_pyfunction!(worldmodel::worldmodel_make, m)?)?;
    m.add_function(wrap_pyfunction!(worldmodel::worldmodel_score, m)?)?;
    Ok(())
}
