//! A forest plot: one row per paired comparison, the mean difference a − b as a dot, its
//! bootstrap interval as a line, zero as a dashed line; and the table of the same figures,
//! which is the chart's text alternative.

use super::{BLUE, VERMILLION, escape};
use crate::kitchen::{Estimate, PairedTest};
use std::fmt::Write as _;

/// A value to two decimals with its interval in small print, `–` without a value.
pub(super) fn estimate(e: &Estimate) -> String {
    let value = e.value.map_or("–".to_string(), |v| format!("{v:.2}"));
    match (e.low, e.high) {
        (Some(low), Some(high)) => format!("{value} <small>[{low:.2}, {high:.2}]</small>"),
        _ => value,
    }
}

/// One forest plot: `id` makes its title's and description's ids unique on the page, `reading`
/// says which side of zero favours the first method, `rows` are labelled tests.
pub(super) struct Forest<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub reading: &'a str,
    pub rows: &'a [(String, &'a PairedTest)],
}

/// The plot of `forest.rows`, scaled to the largest bound (at least 0.5 each side).
pub(super) fn forest_plot(forest: &Forest) -> String {
    let Forest {
        id,
        title,
        reading,
        rows,
    } = *forest;
    let bound = rows
        .iter()
        .flat_map(|(_, t)| {
            let e = &t.mean_difference;
            [e.value, e.low, e.high]
        })
        .flatten()
        .fold(0.5_f64, |m, v| m.max(v.abs()));
    let (label_width, plot_width, row_height) = (300.0, 420.0, 22.0);
    let x = |v: f64| label_width + plot_width * (v + bound) / (2.0 * bound);
    let height = row_height * rows.len() as f64 + 30.0;
    let mut svg = format!(
        "<figure>\n<svg class=\"forest\" role=\"img\" aria-labelledby=\"{id}-title {id}-desc\" width=\"{w}\" height=\"{height}\" viewBox=\"0 0 {w} {height}\">\n<title id=\"{id}-title\">{title}</title>\n<desc id=\"{id}-desc\">{n} differences; the table below gives each value, interval and p-value.</desc>\n<line x1=\"{z}\" x2=\"{z}\" y1=\"0\" y2=\"{axis}\" stroke=\"#555\" stroke-dasharray=\"4 3\"/>\n",
        w = label_width + plot_width + 20.0,
        n = rows.len(),
        z = x(0.0),
        axis = height - 24.0,
        title = escape(title),
    );
    for (i, (label, test)) in rows.iter().enumerate() {
        let y = row_height * i as f64 + row_height / 2.0;
        let e = &test.mean_difference;
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"12\">{}</text>",
            label_width - 8.0,
            y + 4.0,
            escape(label)
        );
        if let (Some(low), Some(high)) = (e.low, e.high) {
            let _ = write!(
                svg,
                "<line class=\"interval\" x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y}\" y2=\"{y}\" stroke=\"{BLUE}\" stroke-width=\"2\"/>",
                x(low),
                x(high)
            );
        }
        if let Some(v) = e.value {
            let _ = write!(
                svg,
                "<circle class=\"difference\" cx=\"{:.1}\" cy=\"{y}\" r=\"4\" fill=\"{VERMILLION}\"><title>{}: {}</title></circle>",
                x(v),
                escape(label),
                estimate(e).replace("<small>", "").replace("</small>", "")
            );
        }
        svg.push('\n');
    }
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"12\">−{bound:.2}</text><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"12\">0</text><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"12\">+{bound:.2}</text>\n</svg>\n<figcaption>{reading} The lines are bootstrap 95% intervals.</figcaption>\n</figure>",
        x(-bound),
        height - 8.0,
        x(0.0),
        height - 8.0,
        x(bound),
        height - 8.0,
        reading = escape(reading),
    );
    svg
}

/// The table of `rows`: each comparison's mean difference with its interval, and its p-value.
pub(super) fn comparison_table(caption: &str, rows: &[(String, &PairedTest)]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<table class=\"comparisons\">\n<caption>{}</caption>\n<thead><tr><th scope=\"col\">Comparison</th><th scope=\"col\" class=\"num\">Mean difference</th><th scope=\"col\" class=\"num\">p</th></tr></thead>\n<tbody>\n",
        escape(caption)
    );
    for (label, test) in rows {
        let _ = writeln!(
            out,
            "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(label),
            estimate(&test.mean_difference),
            test.p.map_or("–".to_string(), |p| format!(
                "{p:.3} {}",
                test.stars().unwrap_or("")
            )),
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out
}
