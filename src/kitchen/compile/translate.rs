//! Plans between Simmer's format and the compiled domain's PDDL plans.
//!
//! Both directions replay the plan in the engine, which knows the ids Simmer gives to created
//! objects (`lettuce_chunks_1`): a PDDL plan names its created object as the action's last
//! argument, a Simmer plan never does.

use super::spares::Spare;
use super::variants::{creates, variant_name, variants};
use super::vocabulary::{UNEXPRESSIBLE, phantom_name};
use crate::ast::Span;
use crate::diagnostics::{Code, Diagnostic, FileId};
use crate::kitchen::data::plan;
use crate::kitchen::data::simmer::Env;
use crate::kitchen::data::simmer_id::SimmerId;
use crate::kitchen::data::world::{Action, World};
use crate::kitchen::execute::engine::Engine;
use crate::kitchen::execute::{self, Mode};
use std::collections::{BTreeMap, BTreeSet};

fn created_ids(engine: &Engine) -> BTreeSet<String> {
    engine
        .state
        .created
        .iter()
        .map(|o| o.id.to_string())
        .collect()
}

/// One PDDL step per Simmer step, in order: `(action arg…)`, or `(simmer-syntax-error)` for a
/// step whose handler Simmer does not run (an unknown action, a wrong number of arguments).
/// A step naming an object that does not exist, or one object in two roles, runs its handler
/// in Simmer (quirk Q6), so it becomes its action too: an id that never exists is named by
/// [`phantom_name`] (declare [`plan_phantoms`] in the problem).
pub fn to_pddl_plan(world: &World, env: &Env, simmer_plan: &str) -> String {
    translate(world, env, simmer_plan).0
}

/// The ids a Simmer plan names that never exist, in the order first named: the phantoms to
/// declare in the audit problem its PDDL translation is checked against.
pub fn plan_phantoms(world: &World, env: &Env, simmer_plan: &str) -> Vec<String> {
    translate(world, env, simmer_plan).1
}

/// Whether a Simmer id can follow `missing-` in a PDDL name.
fn nameable(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The PDDL plan and the phantoms it names.
fn translate(world: &World, env: &Env, simmer_plan: &str) -> (String, Vec<String>) {
    let parsed = plan::parse(simmer_plan);
    // The ids that exist at some point: the environment's and those the plan creates.
    let mut real: BTreeSet<String> = env.objects.iter().map(|o| o.id.clone()).collect();
    real.extend(
        execute::run(world, env, simmer_plan, Mode::Simmer)
            .state
            .created
            .iter()
            .map(|o| o.id.to_string()),
    );
    let mut engine = Engine::new(world, env, Mode::Simmer);
    let mut out = String::new();
    let mut phantoms: Vec<String> = Vec::new();
    let stand_in = format!("({UNEXPRESSIBLE})\n");
    for step in &parsed.steps {
        let before = created_ids(&engine);
        let binding = engine.run_step(step);
        let (Some(binding), Some(action)) = (binding, world.action(&step.action)) else {
            out.push_str(&stand_in);
            continue;
        };
        let bound: Vec<bool> = binding.iter().map(Option::is_some).collect();
        let mut args = Vec::new();
        let mut named = Vec::new();
        let mut unnameable = false;
        for (role, value) in action.roles.iter().zip(&binding) {
            if let Some(v) = value
                && !world.is_value_role(&role.name)
            {
                if real.contains(v.as_str()) || world.is_name_role(&role.name) {
                    args.push(v.to_string());
                } else if nameable(v) {
                    args.push(phantom_name(v));
                    named.push(v.to_string());
                } else {
                    unnameable = true;
                }
            }
        }
        if unnameable {
            out.push_str(&stand_in);
            continue;
        }
        if creates(action) {
            let after = created_ids(&engine);
            match after.difference(&before).next() {
                Some(new) => args.push(new.clone()),
                None => {
                    out.push_str(&stand_in);
                    continue;
                }
            }
        }
        for id in named {
            if !phantoms.contains(&id) {
                phantoms.push(id);
            }
        }
        let mut line = format!("({}", variant_name(action, &bound));
        for a in &args {
            line.push(' ');
            line.push_str(a);
        }
        line.push_str(")\n");
        out.push_str(&line);
    }
    (out, phantoms)
}

/// The objects a Simmer plan creates, to declare in the audit problem it is checked against.
pub fn plan_spares(world: &World, env: &Env, simmer_plan: &str) -> Vec<Spare> {
    let outcome = execute::run(world, env, simmer_plan, Mode::Simmer);
    let initial: BTreeSet<&str> = env.objects.iter().map(|o| o.id.as_str()).collect();
    outcome
        .state
        .created
        .iter()
        .filter(|o| !initial.contains(o.id.as_str()))
        .map(|o| Spare {
            id: o.id.to_string(),
            name: o.name.to_string(),
            parent: None,
        })
        .collect()
}

/// Simmer's rendering of an id: `<lettuce> (1)`, or `<salad>` for an id without a number.
fn render(id: &str) -> String {
    let class = SimmerId::parse(id).class();
    if class.len() < id.len() {
        format!("<{class}> ({})", &id[class.len() + 1..])
    } else {
        format!("<{id}>")
    }
}

/// Default values for value roles, which the compiled domain does not model.
fn default_value(role: &str) -> &'static str {
    match role {
        "temperature" => "<350F>",
        _ => "<5_minutes>",
    }
}

/// A PDDL step's arguments as Simmer's (`<lettuce> (1)`), one per bound role: a value role's
/// default, else the next argument, its PDDL name for a created object or a phantom undone;
/// `None` when the step has too few.
fn simmer_arguments(
    world: &World,
    action: &Action,
    bound: &[bool],
    args: &[String],
    rename: &BTreeMap<String, String>,
) -> Option<Vec<String>> {
    let mut parts = Vec::new();
    let mut given = args.iter();
    for (role, &b) in action.roles.iter().zip(bound) {
        if !b {
            continue;
        }
        if world.is_value_role(&role.name) {
            parts.push(default_value(&role.name).to_string());
            continue;
        }
        let id = given.next()?;
        let id = rename.get(id).cloned().unwrap_or_else(|| id.clone());
        // A hallucinated id, as `to_pddl_plan` names it.
        let id = match id.strip_prefix("missing-") {
            Some(bare) => bare.to_string(),
            None => id,
        };
        parts.push(render(&id));
    }
    Some(parts)
}

/// A PDDL plan for the compiled domain, in Simmer's format, one step a line. Created objects
/// are renamed to the ids Simmer gives them. A step naming an action the domain does not have,
/// or giving it too few arguments, is a `K408` diagnostic on its line; every such step is
/// reported, and there is then no translation.
pub fn from_pddl_plan(
    world: &World,
    env: &Env,
    pddl_plan: &str,
) -> Result<String, Vec<Diagnostic>> {
    let mut by_name = BTreeMap::new();
    for action in world.actions.values() {
        for bound in variants(action) {
            by_name.insert(variant_name(action, &bound), (action, bound));
        }
    }
    let mut engine = Engine::new(world, env, Mode::Simmer);
    let mut rename: BTreeMap<String, String> = BTreeMap::new();
    let mut out = String::new();
    let mut number = 0;
    let mut errors = Vec::new();
    let mut start = 0;
    for raw in pddl_plan.split_inclusive('\n') {
        let line_start = start;
        start += raw.len();
        let code = raw.split(';').next().unwrap_or("");
        let line = code.trim();
        if line.is_empty() {
            continue;
        }
        let at = line_start + (code.len() - code.trim_start().len());
        let span = Span::new(at, at + line.len());
        let invalid = |message: String, help: &str| {
            Diagnostic::new(Code::KitchenPddlPlanInvalid, message, span)
                .in_file(FileId(0))
                .with_help(help)
        };
        let inner = line
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ':' || c == ' ')
            .trim_start_matches('(')
            .trim_end_matches([')', ' ']);
        let mut words = inner.split_whitespace().map(str::to_lowercase);
        let Some(name) = words.next() else { continue };
        let Some((action, bound)) = by_name.get(&name) else {
            errors.push(invalid(
                format!("the compiled kitchen domain has no action `{name}`"),
                "a step is `(action arg…)` with an action of `pddlc kitchen compile`'s domain",
            ));
            continue;
        };
        let mut args: Vec<String> = words.collect();
        let new = if creates(action) { args.pop() } else { None };
        let Some(parts) = simmer_arguments(world, action, bound, &args, &rename) else {
            errors.push(invalid(
                format!("too few arguments for `{name}`"),
                "give the action its parameters as the compiled domain declares them, the \
                 object it creates last",
            ));
            continue;
        };
        let text = format!("[{}] {}", action.name.to_uppercase(), parts.join(" "));
        number += 1;
        out.push_str(&format!("{number}. {text}\n"));
        let before = created_ids(&engine);
        if let Some(step) = plan::parse(&text).steps.first() {
            let mut step = step.clone();
            step.number = number;
            engine.run_step(&step);
        }
        if let Some(new) = new {
            let after = created_ids(&engine);
            if let Some(id) = after.difference(&before).next() {
                rename.insert(new, id.clone());
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}
