//! The page of `pddlc plancraft eval --html`: the paper's results table and its steps table
//! with their intervals, the paired comparisons as forest plots, and the example × method grid
//! (each cell coloured by how its episodes ended, its counts written in it), whose cells unfold
//! into their episodes replayed step by step.

use super::forest::{Forest, comparison_table, estimate, forest_plot};
use super::{BLUE, ORANGE, PURPLE, VERMILLION, escape, page};
use crate::kitchen::PairedTest;
use crate::plancraft::eval::{
    EpisodeRow, Evaluation, GROUPS, INTERVAL_METRICS, MethodTable, RESULTS_COLUMNS,
    ReplayedEpisode, STEPS_COLUMNS, absent_reasons,
};
use std::collections::HashMap;
use std::fmt::Write as _;

/// The page of one evaluation over a split of `examples` examples: `evaluation` as
/// `plancraft eval` computes it, and `episodes`, each episode's replay, shown folded in its
/// grid cell.
pub fn plancraft_eval_page(
    evaluation: &Evaluation,
    examples: usize,
    episodes: &[ReplayedEpisode],
) -> String {
    let methods = &evaluation.methods;
    let mut body = format!(
        "<h1>Plancraft evaluation</h1>\n<p>{} method{} on a split of {examples} examples, {} results; a cell of the example grid unfolds into its episodes, replayed step by step.</p>\n",
        methods.len(),
        if methods.len() == 1 { "" } else { "s" },
        evaluation.rows.len(),
    );
    body.push_str(&columns_table(
        "Results",
        "Success rates per complexity group, mean messages per result outside \"other\" (the paper's table)",
        methods,
        &RESULTS_COLUMNS,
    ));
    body.push_str(&columns_table(
        "Steps over the oracle",
        "Messages over the oracle's per recipe type (a failure counts 10)",
        methods,
        &STEPS_COLUMNS,
    ));
    body.push_str(&intervals_table(methods));
    body.push_str(&comparisons(evaluation));
    body.push_str(&grid(&evaluation.rows, methods, episodes));
    page("pddlc plancraft eval", &body)
}

/// A table of `columns` for every method, each value with its interval, and below it why a
/// `–` has no value.
fn columns_table(
    title: &str,
    caption: &str,
    methods: &[MethodTable],
    columns: &[(&str, &str)],
) -> String {
    let mut out = format!(
        "<h2>{}</h2>\n<div class=\"wide\"><table class=\"methods compact\">\n<caption>{}</caption>\n<thead><tr><th scope=\"col\">Method</th><th scope=\"col\" class=\"num\">Examples</th><th scope=\"col\" class=\"num\">Results</th>",
        escape(title),
        escape(caption)
    );
    for (_, heading) in columns {
        let _ = write!(
            out,
            "<th scope=\"col\" class=\"num\">{}</th>",
            escape(heading)
        );
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for m in methods {
        let _ = write!(
            out,
            "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td>",
            escape(&m.method),
            m.examples,
            m.results
        );
        for (name, _) in columns {
            let Some(e) = m.metric(name) else {
                out.push_str("<td class=\"num\">–</td>");
                continue;
            };
            let value = e.value.map_or("–".to_string(), |v| format!("{v:.2}"));
            let _ = write!(out, "<td class=\"num\">{value}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table></div>\n");
    let absent = absent_reasons(methods, columns);
    if !absent.is_empty() {
        out.push_str("<ul class=\"absent\">");
        for (heading, reason, names) in absent {
            let _ = write!(
                out,
                "<li>{} –: {} ({})</li>",
                escape(heading),
                escape(reason),
                escape(&names.join(", "))
            );
        }
        out.push_str("</ul>\n");
    }
    out
}

/// The metrics `plancraft eval` gives intervals for, per method: value, bootstrap 95%
/// interval over examples, and the number of examples it is over.
fn intervals_table(methods: &[MethodTable]) -> String {
    let mut out = String::from(
        "<h2>Intervals</h2>\n<div class=\"wide\"><table class=\"methods compact intervals\">\n<caption>Bootstrap 95% intervals over examples (n: the examples each figure is over)</caption>\n<thead><tr><th scope=\"col\">Method</th>",
    );
    for name in INTERVAL_METRICS {
        let _ = write!(out, "<th scope=\"col\" class=\"num\">{}</th>", escape(name));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for m in methods {
        let _ = write!(out, "<tr><th scope=\"row\">{}</th>", escape(&m.method));
        for name in INTERVAL_METRICS {
            match m.metric(name) {
                Some(e) => {
                    let _ = write!(
                        out,
                        "<td class=\"num\">{} <small>n={}</small></td>",
                        estimate(e),
                        e.n
                    );
                }
                None => out.push_str("<td class=\"num\">–</td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table></div>\n");
    out
}

/// The paired comparisons: success (overall) in one plot, messages (plan length and steps over
/// the oracle) in another, each row's figures in one table.
fn comparisons(evaluation: &Evaluation) -> String {
    if evaluation.comparisons.is_empty() {
        return String::new();
    }
    let label = |a: &str, b: &str, metric: &str| format!("{a} − {b}: {metric}");
    let success: Vec<(String, &PairedTest)> = evaluation
        .comparisons
        .iter()
        .map(|c| (label(&c.a, &c.b, "overall"), &c.overall))
        .collect();
    let messages: Vec<(String, &PairedTest)> = evaluation
        .comparisons
        .iter()
        .flat_map(|c| {
            let steps = c
                .steps_diff
                .as_ref()
                .map(|t| (label(&c.a, &c.b, "steps_diff"), t));
            std::iter::once((label(&c.a, &c.b, "plan_length"), &c.plan_length)).chain(steps)
        })
        .collect();
    let mut out = String::from("<h2>Paired comparisons</h2>\n");
    out.push_str(&forest_plot(&Forest {
        id: "forest-success",
        title: "Differences in success rate between methods, with 95% intervals",
        reading: "A dot right of zero: the first method succeeds more often.",
        rows: &success,
    }));
    out.push_str(&forest_plot(&Forest {
        id: "forest-messages",
        title: "Differences in messages per result between methods, with 95% intervals",
        reading: "A dot left of zero: the first method needs fewer messages.",
        rows: &messages,
    }));
    let all: Vec<(String, &PairedTest)> = success.into_iter().chain(messages).collect();
    out.push_str(&comparison_table(
        "Paired comparisons (a − b, mean per shared example)",
        &all,
    ));
    out
}

/// How a method's episodes of one example ended, for the cell's colour and text.
struct Cell {
    results: usize,
    successes: usize,
    wrongly_impossible: usize,
    invalid: usize,
    messages: usize,
}

impl Cell {
    fn of(rows: &[&EpisodeRow]) -> Cell {
        Cell {
            results: rows.len(),
            successes: rows.iter().filter(|r| r.success).count(),
            wrongly_impossible: rows
                .iter()
                .filter(|r| r.impossible_emitted && !r.impossible)
                .count(),
            invalid: rows.iter().map(|r| r.invalid).sum(),
            messages: rows.iter().map(|r| r.number_of_steps).sum(),
        }
    }

    /// The class and colour: every result a success, some, a possible example called
    /// impossible, or none.
    fn kind(&self) -> (&'static str, &'static str) {
        if self.successes == self.results {
            ("success", BLUE)
        } else if self.wrongly_impossible > 0 {
            ("wrongly-impossible", PURPLE)
        } else if self.successes > 0 {
            ("some", ORANGE)
        } else {
            ("failure", VERMILLION)
        }
    }

    fn text(&self) -> String {
        let mut text = format!(
            "{}/{} <small>({} message{})</small>",
            self.successes,
            self.results,
            self.messages,
            if self.messages == 1 { "" } else { "s" }
        );
        if self.invalid > 0 {
            let _ = write!(text, " · {} invalid", self.invalid);
        }
        if self.wrongly_impossible > 0 {
            text.push_str(" · said impossible");
        }
        text
    }
}

/// The example × method grid, a table per complexity group.
fn grid(rows: &[EpisodeRow], methods: &[MethodTable], episodes: &[ReplayedEpisode]) -> String {
    let mut by_cell: HashMap<(&str, &str), Vec<&EpisodeRow>> = HashMap::new();
    let mut examples: Vec<(usize, &str, &str)> = Vec::new();
    for row in rows {
        let cell = by_cell
            .entry((row.example.as_str(), row.method.as_str()))
            .or_default();
        if cell.is_empty() {
            let group = GROUPS.iter().position(|g| *g == row.group).unwrap_or(0);
            examples.push((group, row.example.as_str(), row.recipe_type.as_str()));
        }
        cell.push(row);
    }
    examples.sort_unstable();
    examples.dedup_by(|a, b| a.1 == b.1);
    let mut replays: HashMap<(&str, &str), Vec<&ReplayedEpisode>> = HashMap::new();
    for episode in episodes {
        replays
            .entry((episode.example.as_str(), episode.method.as_str()))
            .or_default()
            .push(episode);
    }
    let mut out = format!(
        "<h2>Examples</h2>\n<p class=\"legend\"><span class=\"swatch\" style=\"background:{BLUE}\"></span> every result a success <span class=\"swatch\" style=\"background:{ORANGE}\"></span> some <span class=\"swatch\" style=\"background:{VERMILLION}\"></span> none <span class=\"swatch\" style=\"background:{PURPLE}\"></span> a possible example said impossible (successes/results, messages, invalid messages)</p>\n"
    );
    for (index, group) in GROUPS.iter().enumerate() {
        let in_group: Vec<&(usize, &str, &str)> =
            examples.iter().filter(|(g, ..)| *g == index).collect();
        if in_group.is_empty() {
            continue;
        }
        let _ = write!(
            out,
            "<h3>{}</h3>\n<table class=\"grid examples\">\n<caption>Successes per result, {} example{} of group {}, by method</caption>\n<thead><tr><th scope=\"col\">Example</th>",
            escape(group),
            in_group.len(),
            if in_group.len() == 1 { "" } else { "s" },
            escape(group)
        );
        for m in methods {
            let _ = write!(out, "<th scope=\"col\">{}</th>", escape(&m.method));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for (_, example, recipe_type) in in_group {
            let _ = write!(
                out,
                "<tr><th scope=\"row\">{} <small>{}</small></th>",
                escape(example),
                escape(recipe_type)
            );
            for m in methods {
                let key = (*example, m.method.as_str());
                let Some(rows) = by_cell.get(&key) else {
                    out.push_str("<td class=\"none\">no result</td>");
                    continue;
                };
                let cell = Cell::of(rows);
                let (kind, colour) = cell.kind();
                let text = match replays.get(&key) {
                    Some(replayed) => format!(
                        "<details><summary>{}</summary>{}</details>",
                        cell.text(),
                        cell_episodes(replayed)
                    ),
                    None => cell.text(),
                };
                let _ = write!(
                    out,
                    "<td class=\"cell {kind}\" style=\"border-left:6px solid {colour}\">{text}</td>"
                );
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
    }
    out
}

/// A cell's episodes, each its seed over its replay.
fn cell_episodes(episodes: &[&ReplayedEpisode]) -> String {
    episodes
        .iter()
        .map(|e| {
            let seed = if e.seed.is_empty() {
                String::new()
            } else {
                format!(
                    "<p class=\"plan\"><code>seed {}</code></p>",
                    escape(&e.seed)
                )
            };
            format!(
                "{seed}<pre class=\"result\">{}</pre>",
                escape(&e.transcript)
            )
        })
        .collect()
}
