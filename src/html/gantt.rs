//! A temporal plan on the validate page: its verdict, a Gantt chart of the actions (a bar from
//! each durative step's start to its end, a diamond for an instantaneous one, the timed initial
//! literals and the happenings as vertical lines), the happenings as a table, the goal's unmet
//! atoms and the diagnostics. The validator's report is the verdict; the states between
//! happenings are not drawn.

use super::validate::{PlanPage, diagnostics, verdict};
use super::{BLUE, VERMILLION, atom_list, escape};
use crate::ast::{Domain, InitKind, Problem, Structure};
use crate::validate::{Failure, text};
use std::fmt::Write as _;

/// Okabe–Ito orange, for the timed initial literals.
const ORANGE: &str = "#E69F00";
/// The steps a chart draws; a longer plan's others are in the table only.
const CHARTED_STEPS: usize = 400;

/// One step as the chart draws it.
struct Bar {
    /// 1-based, as the validator counts steps.
    number: usize,
    text: String,
    start: f64,
    /// `None` for an instantaneous action.
    end: Option<f64>,
}

/// Something that happens at a time: a step starts or ends, or a timed literal takes effect.
struct Happening {
    time: f64,
    what: String,
    /// The step it belongs to, if any, and which part of it: `start`, `end`, or none for an
    /// instantaneous step (the validator's names for the parts).
    step: Option<usize>,
    part: Option<&'static str>,
}

/// A time as the page writes it: at most three decimals, no trailing zeros.
fn time(t: f64) -> String {
    let text = format!("{t:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The section of the temporal plan `plan` (the `index`-th of the page).
pub(super) fn temporal_section(
    domain: &Domain,
    problem: &Problem,
    index: usize,
    plan: &PlanPage,
) -> String {
    let (steps, _) = text::parse(plan.text);
    let bars: Vec<Bar> = steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let start = step.time.unwrap_or(0.0);
            Bar {
                number: i + 1,
                text: step.text(),
                start,
                end: step.duration.map(|d| start + d),
            }
        })
        .collect();
    let literals: Vec<(f64, String)> = problem
        .init
        .iter()
        .filter_map(|init| match &init.kind {
            InitKind::At { time, fact } => Some((time.value, crate::fmt::init_text(fact))),
            _ => None,
        })
        .collect();
    let failed = plan.report.failed_step;
    let id = format!("plan-{}", index + 1);
    let mut out = format!(
        "<section aria-labelledby=\"{id}\">\n<h2 id=\"{id}\">Plan <code>{}</code></h2>\n",
        escape(plan.name)
    );
    out.push_str(&verdict(plan.report));
    let continuous = domain
        .structures
        .iter()
        .any(|s| matches!(s, Structure::Process(_) | Structure::Event(_)));
    if continuous {
        out.push_str("<p>The domain has processes or events: they run between the happenings below and are not drawn.</p>\n");
    }
    let failures = &plan.report.failures;
    out.push_str(&chart(&id, &bars, &literals, failed, failures));
    out.push_str(&happenings_table(&bars, &literals, failures));
    let unmet = &plan.report.unmet_goals;
    let goal = if failed.is_some() {
        "The validator stops at a step that cannot be carried out; the goal is not reached."
            .to_string()
    } else if unmet.is_empty() {
        "The goal holds at the end of the plan.".to_string()
    } else {
        format!(
            "{} goal atom{} not hold at the end of the plan:",
            unmet.len(),
            if unmet.len() == 1 { " does" } else { "s do" }
        )
    };
    let _ = writeln!(
        out,
        "<h3>Goal</h3>\n<p>{goal}</p>\n{}",
        atom_list(unmet, "")
    );
    out.push_str(&diagnostics(plan.report));
    out.push_str("</section>\n");
    out
}

/// The Gantt chart: a row per step (the first [`CHARTED_STEPS`]), time left to right.
fn chart(
    id: &str,
    bars: &[Bar],
    literals: &[(f64, String)],
    failed: Option<usize>,
    failures: &[Failure],
) -> String {
    let shown = &bars[..bars.len().min(CHARTED_STEPS)];
    let horizon = shown
        .iter()
        .map(|b| b.end.unwrap_or(b.start))
        .chain(literals.iter().map(|(t, _)| *t))
        .fold(0.0_f64, f64::max)
        .max(1e-9);
    let (label, plot, row) = (280.0, 540.0, 22.0);
    let x = |t: f64| label + plot * t / horizon;
    let top = 18.0;
    let height = top + row * shown.len() as f64 + 30.0;
    let width = label + plot + 20.0;
    let mut svg = format!(
        "<figure>\n<svg class=\"gantt\" role=\"img\" aria-labelledby=\"{id}-gantt {id}-gantt-desc\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n<title id=\"{id}-gantt\">The plan's actions over time, 0 to {}</title>\n<desc id=\"{id}-gantt-desc\">{} steps{}; the table below lists every happening.</desc>\n",
        time(horizon),
        bars.len(),
        if literals.is_empty() {
            String::new()
        } else {
            format!(" and {} timed initial literals", literals.len())
        },
    );
    let bottom = top + row * shown.len() as f64;
    for (t, fact) in literals {
        let _ = write!(
            svg,
            "<line class=\"literal\" x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"4\" y2=\"{bottom}\" stroke=\"{ORANGE}\" stroke-width=\"2\" stroke-dasharray=\"5 3\"><title>at {1}: {2}</title></line>",
            x(*t),
            time(*t),
            escape(fact)
        );
    }
    for failure in failures {
        if let Some(t) = failure.time {
            let _ = write!(
                svg,
                "<line class=\"failure\" x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"4\" y2=\"{bottom}\" stroke=\"{VERMILLION}\" stroke-width=\"2\"><title>at {1}: {2}</title></line>",
                x(t),
                time(t),
                escape(&failure.diagnostic.message)
            );
        }
    }
    for (i, bar) in shown.iter().enumerate() {
        let refused = failed == Some(bar.number);
        svg.push_str(&step_row(
            bar,
            top + row * i as f64,
            &x,
            refused,
            (label, row),
        ));
    }
    let _ = write!(
        svg,
        "<line x1=\"{label}\" x2=\"{}\" y1=\"{bottom}\" y2=\"{bottom}\" stroke=\"#555\"/>",
        label + plot
    );
    for k in 0..=4 {
        let t = horizon * k as f64 / 4.0;
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{}</text>",
            x(t),
            bottom + 16.0,
            time(t)
        );
    }
    let more = if bars.len() > shown.len() {
        format!(
            " The chart shows the first {} steps; the table lists them all.",
            shown.len()
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        svg,
        "\n</svg>\n<figcaption><span class=\"swatch\" style=\"background:{BLUE}\"></span> an action (a bar from start to end; a diamond when instantaneous) <span class=\"swatch\" style=\"background:{VERMILLION}\"></span> the step where the plan fails (also marked ✗), a solid line where the validator finds the failure <span class=\"swatch\" style=\"background:{ORANGE}\"></span> a timed initial literal (dashed).{more}</figcaption>\n</figure>"
    );
    svg
}

/// One step's row of the chart: its label, and its bar (or diamond) with a title; `x` maps
/// a time to the chart's abscissa, `y` is the row's top.
fn step_row(
    bar: &Bar,
    y: f64,
    x: &dyn Fn(f64) -> f64,
    refused: bool,
    (label, row): (f64, f64),
) -> String {
    let mut svg = String::new();
    let colour = if refused { VERMILLION } else { BLUE };
    let _ = write!(
        svg,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"12\">{}{}</text>",
        label - 8.0,
        y + 15.0,
        if refused { "✗ " } else { "" },
        escape(&bar.text)
    );
    let title = match bar.end {
        Some(end) => format!(
            "step {}: {} from {} to {}{}",
            bar.number,
            bar.text,
            time(bar.start),
            time(end),
            if refused {
                ", where the plan fails"
            } else {
                ""
            }
        ),
        None => format!("step {}: {} at {}", bar.number, bar.text, time(bar.start)),
    };
    match bar.end {
        Some(end) => {
            let _ = write!(
                svg,
                "<rect class=\"action\" x=\"{:.1}\" y=\"{}\" width=\"{:.1}\" height=\"{}\" fill=\"{colour}\"{}><title>{}</title></rect>",
                x(bar.start),
                y + 4.0,
                (x(end) - x(bar.start)).max(2.0),
                row - 8.0,
                if refused {
                    " stroke=\"#000\" stroke-width=\"2\""
                } else {
                    ""
                },
                escape(&title)
            );
        }
        None => {
            let (cx, cy) = (x(bar.start), y + row / 2.0);
            let _ = write!(
                svg,
                "<polygon class=\"instant\" points=\"{:.1},{cy} {cx:.1},{:.1} {:.1},{cy} {cx:.1},{:.1}\" fill=\"{colour}\"><title>{}</title></polygon>",
                cx - 6.0,
                cy - 6.0,
                cx + 6.0,
                cy + 6.0,
                escape(&title)
            );
        }
    }
    svg.push('\n');
    svg
}

/// Whether `failure` is about the happening `h` of its step: the part the validator names (a
/// wrong duration is its start's; an `over all` condition broken is found at a later
/// happening, and marked on the chart only).
fn fails_at(failure: &Failure, h: &Happening) -> bool {
    match (failure.part, h.part) {
        (Some("duration"), Some("start")) => true,
        (Some(part), Some(here)) => part == here,
        (None, None) => true,
        _ => false,
    }
}

/// Every happening in time order: the steps' starts and ends and the timed literals.
fn happenings_table(bars: &[Bar], literals: &[(f64, String)], failures: &[Failure]) -> String {
    let mut happenings: Vec<Happening> = Vec::new();
    for bar in bars {
        match bar.end {
            Some(end) => {
                happenings.push(Happening {
                    time: bar.start,
                    what: format!("start of {}", bar.text),
                    step: Some(bar.number),
                    part: Some("start"),
                });
                happenings.push(Happening {
                    time: end,
                    what: format!("end of {}", bar.text),
                    step: Some(bar.number),
                    part: Some("end"),
                });
            }
            None => happenings.push(Happening {
                time: bar.start,
                what: bar.text.clone(),
                step: Some(bar.number),
                part: None,
            }),
        }
    }
    for (t, fact) in literals {
        happenings.push(Happening {
            time: *t,
            what: format!("timed initial literal {fact}"),
            step: None,
            part: None,
        });
    }
    happenings.sort_by(|a, b| a.time.total_cmp(&b.time));
    let mut out = String::from(
        "<table class=\"happenings\">\n<caption>Happenings, in time order</caption>\n<thead><tr><th scope=\"col\" class=\"num\">Time</th><th scope=\"col\">What happens</th><th scope=\"col\" class=\"num\">Step</th></tr></thead>\n<tbody>\n",
    );
    for h in &happenings {
        let failure = failures
            .iter()
            .find(|f| h.step.is_some() && f.step == h.step && fails_at(f, h));
        let note = failure.map_or(String::new(), |f| {
            let atoms: Vec<String> = f.atoms.iter().map(|a| escape(a)).collect();
            format!(
                " <strong>fails here</strong> (<code>{}</code>{})",
                f.diagnostic.code,
                if atoms.is_empty() {
                    String::new()
                } else {
                    let verb = if atoms.len() == 1 { "does" } else { "do" };
                    format!(": {} {verb} not hold", atoms.join(", "))
                }
            )
        });
        let _ = writeln!(
            out,
            "<tr{}><td class=\"num\">{}</td><td><code>{}</code>{note}</td><td class=\"num\">{}</td></tr>",
            if failure.is_some() {
                " class=\"failed\""
            } else {
                ""
            },
            time(h.time),
            escape(&h.what),
            h.step.map_or("–".to_string(), |s| s.to_string()),
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out
}
