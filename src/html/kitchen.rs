//! The page of `pddlc kitchen eval --html`: the per-method table with its intervals, the task ×
//! method grid (each cell coloured by the kind of failure its plans have, its counts written
//! in it), and the paired comparisons as a forest plot of the mean differences with their
//! intervals.

use super::forest::{Forest, comparison_table, estimate, forest_plot};
use super::{BLUE, ORANGE, PURPLE, VERMILLION, escape, page};
use crate::kitchen::{Comparison, Method, PairedTest, TaskRow};
use std::fmt::Write as _;

/// One plan that ran, for its grid cell: its run's label, its task, its file name and
/// Simmer's annotated result file for it (each failing step followed by its failures).
pub struct AnnotatedPlan {
    pub run: String,
    pub task: String,
    pub plan: String,
    pub result_file: String,
}

/// The page of one evaluation: `tasks` (a row per run and task), `methods` (a row per run),
/// `comparisons` (between runs), as `kitchen eval` computes them, and `plans`, each plan's
/// result file, shown folded in its cell.
pub fn kitchen_eval_page(
    tasks: &[TaskRow],
    methods: &[Method],
    comparisons: &[Comparison],
    plans: &[AnnotatedPlan],
) -> String {
    let ran: usize = tasks.iter().map(|t| t.plans).sum();
    let mut body = format!(
        "<h1>Kitchen evaluation</h1>\n<p>{} run{}, {} task rows, {ran} plans that ran; a cell of the task grid unfolds into its plans' annotated result files.</p>\n",
        methods.len(),
        if methods.len() == 1 { "" } else { "s" },
        tasks.len(),
    );
    body.push_str(&method_table(methods));
    body.push_str(&forest(comparisons));
    body.push_str(&grid(tasks, methods, plans));
    page("pddlc kitchen eval", &body)
}

fn method_table(methods: &[Method]) -> String {
    let mut out = String::from(
        "<h2>Methods</h2>\n<table class=\"methods\">\n<caption>Failures per task, mean over tasks, with bootstrap 95% intervals (the paper's Table 3)</caption>\n<thead><tr><th scope=\"col\">Run</th><th scope=\"col\" class=\"num\">Tasks</th><th scope=\"col\" class=\"num\">Total</th><th scope=\"col\" class=\"num\">Immediate</th><th scope=\"col\" class=\"num\">Latent</th><th scope=\"col\" class=\"num\">Irreversible</th><th scope=\"col\" class=\"num\">Clean</th></tr></thead>\n<tbody>\n",
    );
    for m in methods {
        let _ = writeln!(
            out,
            "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(&m.run),
            m.tasks,
            estimate(&m.total),
            estimate(&m.immediate),
            estimate(&m.latent),
            estimate(&m.irreversible),
            estimate(&m.clean),
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// The paired comparisons, one row per comparison and metric, as a forest plot and a table.
fn forest(comparisons: &[Comparison]) -> String {
    if comparisons.is_empty() {
        return String::new();
    }
    let rows: Vec<(String, &PairedTest)> = comparisons
        .iter()
        .flat_map(|c| {
            [
                ("total", &c.total),
                ("immediate", &c.immediate),
                ("latent", &c.latent),
                ("irreversible", &c.irreversible),
            ]
            .map(|(metric, test)| (format!("{} − {}: {metric}", c.a, c.b), test))
        })
        .collect();
    let mut out = String::from("<h2>Paired comparisons</h2>\n");
    out.push_str(&forest_plot(&Forest {
        id: "forest",
        title: "Mean differences between runs, with 95% intervals",
        reading: "A dot left of zero: the first run fails less.",
        rows: &rows,
    }));
    out.push_str(&comparison_table(
        "Paired comparisons (a − b, failures per task)",
        &rows,
    ));
    out
}

/// The task × run grid: each cell's colour is the worst kind of failure among its plans
/// (irreversible, then latent, then immediate), blue when every plan ran clean; the counts are
/// written in the cell, so colour is never the only sign.
fn grid(tasks: &[TaskRow], methods: &[Method], plans: &[AnnotatedPlan]) -> String {
    let mut by_cell: std::collections::HashMap<(&str, &str), Vec<&AnnotatedPlan>> =
        std::collections::HashMap::new();
    for plan in plans {
        by_cell
            .entry((plan.task.as_str(), plan.run.as_str()))
            .or_default()
            .push(plan);
    }
    let runs: Vec<&str> = methods.iter().map(|m| m.run.as_str()).collect();
    let mut names: Vec<&str> = tasks.iter().map(|t| t.task.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let mut out = format!(
        "<h2>Tasks</h2>\n<p class=\"legend\"><span class=\"swatch\" style=\"background:{BLUE}\"></span> clean <span class=\"swatch\" style=\"background:{VERMILLION}\"></span> immediate <span class=\"swatch\" style=\"background:{ORANGE}\"></span> latent <span class=\"swatch\" style=\"background:{PURPLE}\"></span> irreversible (the worst kind a task's plans have; I, L, R: failures per plan)</p>\n<table class=\"grid\">\n<caption>Failures per plan, by task and run</caption>\n<thead><tr><th scope=\"col\">Task</th>"
    );
    for run in &runs {
        let _ = write!(out, "<th scope=\"col\">{}</th>", escape(run));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for name in names {
        let _ = write!(out, "<tr><th scope=\"row\">{}</th>", escape(name));
        for run in &runs {
            match tasks.iter().find(|t| t.task == name && t.run == *run) {
                None => out.push_str("<td class=\"none\">no plan ran</td>"),
                Some(t) => {
                    let (colour, kind) = if t.irreversible > 0.0 {
                        (PURPLE, "irreversible")
                    } else if t.latent > 0.0 {
                        (ORANGE, "latent")
                    } else if t.immediate > 0.0 {
                        (VERMILLION, "immediate")
                    } else {
                        (BLUE, "clean")
                    };
                    let counts = format!(
                        "I {:.1} L {:.1} R {:.1} <small>({} plan{})</small>",
                        t.immediate,
                        t.latent,
                        t.irreversible,
                        t.plans,
                        if t.plans == 1 { "" } else { "s" },
                    );
                    let cell = match by_cell.get(&(name, *run)) {
                        Some(plans) => format!(
                            "<details><summary>{counts}</summary>{}</details>",
                            cell_plans(plans)
                        ),
                        None => counts,
                    };
                    let _ = write!(
                        out,
                        "<td class=\"cell {kind}\" style=\"border-left:6px solid {colour}\">{cell}</td>"
                    );
                }
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// A cell's plans, each its file name over its result file.
fn cell_plans(plans: &[&AnnotatedPlan]) -> String {
    plans
        .iter()
        .map(|p| {
            format!(
                "<p class=\"plan\"><code>{}</code></p><pre class=\"result\">{}</pre>",
                escape(&p.plan),
                escape(&p.result_file)
            )
        })
        .collect()
}
