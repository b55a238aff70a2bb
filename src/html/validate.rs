//! The page of `pddlc validate --html`: for each plan, its verdict, the plan as a timeline of
//! states (each step's action and the atoms and fluents it changes, the failing step with the
//! preconditions that do not hold), the goal's unmet atoms and the diagnostics. The states are
//! the ones [`Env`] steps through, the validator's own functions one step at a time.

use super::{BLUE, GREY, VERMILLION, atom_list, escape, page};
use crate::ast::{Domain, Problem};
use crate::diagnostics::Diagnostic;
use crate::validate::{Report, text};
use crate::worldmodel::{Env, Transition};
use std::fmt::Write as _;

/// One plan of the page: its name, its text and the validator's report on it.
pub struct PlanPage<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub report: &'a Report,
}

/// The page of the plans of one task: a timeline of states per plan, or for a temporal task
/// (durative actions, processes, events, timed initial literals) a Gantt chart and its
/// happenings. Errors: a task whose initial state cannot be built or breaks a state
/// constraint (the page is not written).
pub fn validate_page(
    domain: &Domain,
    problem: &Problem,
    names: (&str, &str),
    plans: &[PlanPage],
) -> Result<String, Diagnostic> {
    let mut body = format!(
        "<h1>Plan validation</h1>\n<p>Domain <code>{}</code> ({}), problem <code>{}</code> ({}): {} plan{}.</p>\n",
        escape(domain.name.as_str()),
        escape(names.0),
        escape(problem.name.as_str()),
        escape(names.1),
        plans.len(),
        if plans.len() == 1 { "" } else { "s" },
    );
    body.push_str(&plan_sections(domain, problem, plans)?);
    Ok(page(&format!("pddlc validate: {}", problem.name), &body))
}

/// A section per plan: its verdict, strip, timeline, goal and diagnostics.
pub(super) fn plan_sections(
    domain: &Domain,
    problem: &Problem,
    plans: &[PlanPage],
) -> Result<String, Diagnostic> {
    crate::parse::with_stack(|| {
        if crate::validate::is_temporal(domain, problem) {
            let sections = plans.iter().enumerate();
            return Ok(sections
                .map(|(index, plan)| super::gantt::temporal_section(domain, problem, index, plan))
                .collect());
        }
        // The states of a plan do not depend on its trajectory constraints, which judge the
        // whole sequence: the validator's report (its verdict, a broken constraint's `V314`)
        // says what they make of it.
        let unconstrained;
        let problem = if problem.constraints.is_some() {
            unconstrained = Problem {
                constraints: None,
                ..problem.clone()
            };
            &unconstrained
        } else {
            problem
        };
        let mut env = Env::new(domain, problem).map_err(|d| {
            Diagnostic::unlocated(
                d.code,
                format!("the page cannot draw this task's states: {}", d.message),
            )
        })?;
        let mut body = String::new();
        for (index, plan) in plans.iter().enumerate() {
            body.push_str(&plan_section(&mut env, index, plan));
        }
        Ok(body)
    })
}

/// What happened at one step.
enum Outcome {
    Applied(Transition),
    Refused(Transition),
    NotRun,
}

fn plan_section(env: &mut Env, index: usize, plan: &PlanPage) -> String {
    env.reset();
    let initial = env.atoms();
    let (steps, _) = text::parse(plan.text);
    let mut outcomes = Vec::new();
    let mut stopped = false;
    for step in &steps {
        if stopped {
            outcomes.push((step.text(), Outcome::NotRun));
            continue;
        }
        let transition = env.step(&step.text());
        if transition.applied {
            outcomes.push((step.text(), Outcome::Applied(transition)));
        } else {
            stopped = true;
            outcomes.push((step.text(), Outcome::Refused(transition)));
        }
    }
    let id = format!("plan-{}", index + 1);
    let mut out = format!(
        "<section aria-labelledby=\"{id}\">\n<h2 id=\"{id}\">Plan <code>{}</code></h2>\n",
        escape(plan.name)
    );
    out.push_str(&verdict(plan.report));
    out.push_str(&strip(&id, &outcomes));
    out.push_str(&timeline(&initial, &outcomes));
    out.push_str(&goal(env, plan.report, stopped));
    out.push_str(&diagnostics(plan.report));
    out.push_str("</section>\n");
    out
}

pub(super) fn verdict(report: &Report) -> String {
    let (class, word) = match report.valid {
        Some(true) => ("valid", "valid"),
        Some(false) => ("invalid", "invalid"),
        None => ("unknown", "no verdict"),
    };
    let detail = match (report.valid, report.failed_step) {
        (Some(true), _) => "every step applies and the goal holds after the last".to_string(),
        (_, Some(step)) => format!("step {step} cannot be applied"),
        (Some(false), None) => "every step applies; the goal does not hold".to_string(),
        (None, None) => "the validator cannot judge this plan".to_string(),
    };
    format!(
        "<p><span class=\"verdict {class}\">{word}</span> {} step{}: {detail}.</p>\n",
        report.steps,
        if report.steps == 1 { "" } else { "s" },
    )
}

/// The plan as a strip of boxes, one per step, coloured and labelled by what happened.
fn strip(id: &str, outcomes: &[(String, Outcome)]) -> String {
    if outcomes.is_empty() {
        return String::new();
    }
    let width = 14;
    let gap = 2;
    let total = outcomes.len() * (width + gap);
    let applied = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Applied(_)))
        .count();
    let summary = format!(
        "{} steps: {applied} applied, {} refused, {} not run",
        outcomes.len(),
        outcomes
            .iter()
            .filter(|(_, o)| matches!(o, Outcome::Refused(_)))
            .count(),
        outcomes
            .iter()
            .filter(|(_, o)| matches!(o, Outcome::NotRun))
            .count(),
    );
    let mut svg = format!(
        "<figure>\n<svg role=\"img\" aria-labelledby=\"{id}-strip-title {id}-strip-desc\" width=\"{total}\" height=\"28\" viewBox=\"0 0 {total} 28\">\n<title id=\"{id}-strip-title\">The plan's steps</title>\n<desc id=\"{id}-strip-desc\">{summary}</desc>\n"
    );
    for (i, (action, outcome)) in outcomes.iter().enumerate() {
        let (fill, what, height) = match outcome {
            Outcome::Applied(_) => (BLUE, "applied", 20),
            Outcome::Refused(_) => (VERMILLION, "cannot be applied", 28),
            Outcome::NotRun => (GREY, "not run", 12),
        };
        let _ = writeln!(
            svg,
            "<rect class=\"step\" x=\"{}\" y=\"{}\" width=\"{width}\" height=\"{height}\" fill=\"{fill}\"><title>step {}: {} ({what})</title></rect>",
            i * (width + gap),
            28 - height,
            i + 1,
            escape(action),
        );
    }
    let _ = write!(
        svg,
        "</svg>\n<figcaption>{summary}. Tall boxes are refused steps, short ones steps not run.</figcaption>\n</figure>\n"
    );
    svg
}

/// The table of states: the initial state, then each step's changes.
fn timeline(initial: &[String], outcomes: &[(String, Outcome)]) -> String {
    let mut out = String::from(
        "<table class=\"timeline\">\n<caption>The plan as a timeline of states</caption>\n<thead><tr><th scope=\"col\" class=\"num\">Step</th><th scope=\"col\">Action</th><th scope=\"col\">Atoms added and deleted</th><th scope=\"col\">Fluents</th></tr></thead>\n<tbody>\n",
    );
    let _ = writeln!(
        out,
        "<tr><td class=\"num\">0</td><td>initial state</td><td><details><summary>{} atoms</summary>{}</details></td><td></td></tr>",
        initial.len(),
        atom_list(initial, "")
    );
    for (i, (action, outcome)) in outcomes.iter().enumerate() {
        let (class, changes, fluents) = match outcome {
            Outcome::Applied(t) => (
                "applied",
                atom_list(&t.change.added, "added") + &atom_list(&t.change.deleted, "deleted"),
                t.change
                    .numeric
                    .iter()
                    .map(|n| {
                        let before = n.before.map_or("undefined".to_string(), |b| b.to_string());
                        format!(
                            "<code>{}</code>: {before} → {}<br>",
                            escape(&n.fluent),
                            n.after
                        )
                    })
                    .collect::<String>(),
            ),
            Outcome::Refused(t) => {
                let why = t
                    .diagnostic
                    .as_ref()
                    .map_or(String::new(), |d| format!("{}: {}", d.code, d.message));
                let unmet = if t.unsatisfied.is_empty() {
                    String::new()
                } else {
                    format!(
                        "<p>Preconditions that do not hold:</p>{}",
                        atom_list(&t.unsatisfied, "")
                    )
                };
                (
                    "failed",
                    format!(
                        "<p><strong>Cannot be applied.</strong> {}</p>{unmet}",
                        escape(&why)
                    ),
                    String::new(),
                )
            }
            Outcome::NotRun => ("skipped", "not run".to_string(), String::new()),
        };
        let _ = writeln!(
            out,
            "<tr class=\"{class}\"><td class=\"num\">{}</td><td><code>{}</code></td><td>{changes}</td><td>{fluents}</td></tr>",
            i + 1,
            escape(action),
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

fn goal(env: &Env, report: &Report, stopped: bool) -> String {
    let unmet = if report.unmet_goals.is_empty() && !stopped {
        env.unmet_goals()
    } else {
        report.unmet_goals.clone()
    };
    let text = if stopped {
        "The plan stops at a step that cannot be applied; the goal is not reached.".to_string()
    } else if unmet.is_empty() {
        "The goal holds after the last step.".to_string()
    } else {
        format!(
            "{} goal atom{} not hold after the last step:",
            unmet.len(),
            if unmet.len() == 1 { " does" } else { "s do" }
        )
    };
    format!(
        "<h3>Goal</h3>\n<p>{text}</p>\n{}\n",
        if stopped {
            String::new()
        } else {
            atom_list(&unmet, "")
        }
    )
}

pub(super) fn diagnostics(report: &Report) -> String {
    let found: Vec<&Diagnostic> = report.diagnostics().collect();
    if found.is_empty() {
        return String::new();
    }
    let items: String = found
        .iter()
        .map(|d| {
            format!(
                "<li><code>{}</code> {}{}</li>",
                d.code,
                escape(&d.message),
                d.help
                    .as_ref()
                    .map_or(String::new(), |h| format!(" <em>{}</em>", escape(h)))
            )
        })
        .collect();
    format!("<h3>Diagnostics</h3>\n<ul>{items}</ul>\n")
}
