//! The page of `pddlc solve --html`: the answer (solved, unsolvable, unknown), the search's
//! statistics, and for a plan its timeline of states (the validate page's), for an unsolvable
//! task the proof (the goal atoms no relaxed plan reaches, or the number of states exhausted),
//! for an unknown answer the limit reached.

use super::validate::{PlanPage, plan_sections};
use super::{atom_list, escape, page};
use crate::ast::{Domain, Problem};
use crate::diagnostics::Diagnostic;
use crate::solve::{Answer, Limit, Outcome, Unsolvable, plan_text};
use crate::validate::{ValidateOptions, validate};
use std::fmt::Write as _;

/// The page of `answer` for `problem` in `domain`; `prefix`, the plan text the search started
/// after (`solve --from`), is part of the plan's timeline. Errors as `validate_page`'s.
pub fn solve_page(
    domain: &Domain,
    problem: &Problem,
    names: (&str, &str),
    answer: &Answer,
    prefix: Option<&str>,
) -> Result<String, Diagnostic> {
    let mut body = format!(
        "<h1>Planning</h1>\n<p>Domain <code>{}</code> ({}), problem <code>{}</code> ({}).</p>\n",
        escape(domain.name.as_str()),
        escape(names.0),
        escape(problem.name.as_str()),
        escape(names.1),
    );
    let (class, word, detail) = match &answer.outcome {
        Outcome::Solved { plan, cost } => (
            "valid",
            "solved",
            format!(
                "a plan of {} step{}, cost {cost}{}",
                plan.len(),
                if plan.len() == 1 { "" } else { "s" },
                if prefix.is_some() {
                    ", after the prefix given"
                } else {
                    ""
                }
            ),
        ),
        Outcome::Unsolvable(_) => ("invalid", "unsolvable", "no plan exists".to_string()),
        Outcome::Unknown(Limit::Time) => {
            ("unknown", "unknown", "the time limit was reached".into())
        }
        Outcome::Unknown(Limit::Memory) => {
            ("unknown", "unknown", "the memory limit was reached".into())
        }
    };
    let _ = writeln!(
        body,
        "<p><span class=\"verdict {class}\">{word}</span> {detail}.</p>"
    );
    body.push_str(&statistics(answer));
    match &answer.outcome {
        Outcome::Solved { plan, cost } => {
            let mut text = prefix
                .map(|p| p.trim_end().to_string() + "\n")
                .unwrap_or_default();
            text.push_str(&plan_text(plan, *cost, answer.action_costs));
            let report = validate(domain, problem, &text, &ValidateOptions::default());
            let plans = [PlanPage {
                name: "the plan found",
                text: &text,
                report: &report,
            }];
            body.push_str(&plan_sections(domain, problem, &plans)?);
        }
        Outcome::Unsolvable(proof) => body.push_str(&proof_section(proof)),
        Outcome::Unknown(_) => {}
    }
    Ok(page(&format!("pddlc solve: {}", problem.name), &body))
}

fn statistics(answer: &Answer) -> String {
    let s = &answer.statistics;
    let rows = [
        ("Ground atoms", s.atoms.to_string()),
        ("Ground operators", s.operators.to_string()),
        ("Axioms", s.axioms.to_string()),
        ("States expanded", s.expanded.to_string()),
        ("States generated", s.generated.to_string()),
        ("States evaluated", s.evaluated.to_string()),
        (
            "Best heuristic value",
            s.best_h.map_or("-".into(), |h| h.to_string()),
        ),
        ("Grounding (s)", format!("{:.3}", s.grounding_seconds)),
        ("Search (s)", format!("{:.3}", s.search_seconds)),
    ];
    let mut out = String::from(
        "<h2>Search</h2>\n<table class=\"statistics\">\n<caption>The search's statistics</caption>\n<thead><tr><th scope=\"col\">Statistic</th><th scope=\"col\" class=\"num\">Value</th></tr></thead>\n<tbody>\n",
    );
    for (name, value) in rows {
        let _ = writeln!(
            out,
            "<tr><th scope=\"row\">{name}</th><td class=\"num\">{value}</td></tr>"
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

fn proof_section(proof: &Unsolvable) -> String {
    let mut out = String::from("<h2>Why no plan exists</h2>\n");
    match proof {
        Unsolvable::GoalUnreachable { atoms } if atoms.is_empty() => out.push_str(
            "<p>The goal is false in every state: no plan reaches it, even with deletes ignored.</p>\n",
        ),
        Unsolvable::GoalUnreachable { atoms } => {
            let _ = writeln!(
                out,
                "<p>No plan reaches these goal atoms even when deletes and negative conditions are ignored:</p>\n{}",
                atom_list(atoms, "")
            );
        }
        Unsolvable::Exhausted { states } => {
            let _ = writeln!(
                out,
                "<p>Every state reachable from the start was visited ({states} states); none satisfies the goal.</p>"
            );
        }
    }
    out
}
