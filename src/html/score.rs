//! The page of `pddlc score --pairs --html`: the dataset's scores, EXEC split by why it is 0,
//! each metric's distribution as a histogram (split by EXEC), the functional verdicts when
//! they were asked for, and the pairs, worst first, each with the gold and predicted domains
//! side by side where they differ, its notes and its counterexamples. A few lines of inline
//! script sort the pairs by any column; without it the page reads the same, worst first.

use super::diff::{self, Compared};
use super::{BLUE, VERMILLION, escape, page};
use crate::diagnostics::Code;
use crate::score::functional::{ActionVerdict, Functional, Verdict};
use crate::score::{self, Detail, Metrics, Scored, Side};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One line of a pairs file, for the page.
pub struct ScorePair<'a> {
    /// The line's 1-based number in the pairs file.
    pub line: usize,
    /// The line's `id`, when it has one.
    pub id: Option<String>,
    pub result: PairResult<'a>,
}

/// What became of a line: its scores, or why it could not be scored.
pub enum PairResult<'a> {
    Scored {
        /// The gold domain's text.
        gold: &'a str,
        /// The prediction as scored (the domain taken out of a response).
        pred: &'a str,
        scored: &'a Scored,
        /// With `--functional`, the comparison of the two domains' behaviour.
        functional: Option<&'a Functional>,
    },
    Failed(&'a str),
}

/// A metric's value in a pair's metrics.
type MetricOf = fn(&Metrics) -> f64;

/// The metrics in the order the page shows them, with their names.
const METRICS: [(&str, MetricOf); 6] = [
    ("EXEC", |m| m.exec),
    ("SIM", |m| m.sim),
    ("F1_PRED", |m| m.f1_pred),
    ("F1_PARAM", |m| m.f1_param),
    ("F1_PRECOND", |m| m.f1_precond),
    ("F1_EFF", |m| m.f1_eff),
];

/// The counterexamples a pair shows on the page (`--counterexamples DIR` writes them all).
const SHOWN_COUNTEREXAMPLES: usize = 3;

/// The page of a scored batch.
pub fn score_page(pairs: &[ScorePair]) -> String {
    let scored: Vec<(&Scored, Option<&Functional>)> = pairs
        .iter()
        .filter_map(|p| match &p.result {
            PairResult::Scored {
                scored, functional, ..
            } => Some((*scored, *functional)),
            PairResult::Failed(_) => None,
        })
        .collect();
    let mode = scored.first().map_or("clean".to_string(), |(s, _)| {
        serde_json::to_value(s.mode)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    });
    let failed = pairs.len() - scored.len();
    let mut body = format!(
        "<h1>Scores</h1>\n<p>{} pair{} scored in <code>{}</code> mode{}.</p>\n",
        pairs.len(),
        plural(pairs.len()),
        escape(&mode),
        match failed {
            0 => String::new(),
            n => format!(
                "; {n} line{} could not be scored (each counts 0)",
                plural(n)
            ),
        }
    );
    body.push_str(&summary_table(pairs, &scored));
    body.push_str(&exec_section(&scored, failed));
    body.push_str(&histograms(&scored));
    if scored.iter().any(|(_, f)| f.is_some()) {
        body.push_str(&functional_section(&scored));
    }
    body.push_str(&pairs_table(pairs));
    body.push_str(&SORT_SCRIPT.replace("SHOWN_PAIRS", &SHOWN_PAIRS.to_string()));
    page("pddlc score", &body)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The dataset's score (as the summary row computes it, failed lines counting 0), the mean
/// over the pairs whose prediction executes, and how many pairs reach 100.
fn summary_table(pairs: &[ScorePair], scored: &[(&Scored, Option<&Functional>)]) -> String {
    let all: Vec<Metrics> = pairs
        .iter()
        .map(|p| match &p.result {
            PairResult::Scored { scored, .. } => scored.metrics,
            PairResult::Failed(_) => Metrics::default(),
        })
        .collect();
    let dataset = score::summary(&all);
    let executing: Vec<&Scored> = scored
        .iter()
        .map(|(s, _)| *s)
        .filter(|s| s.metrics.exec > 0.0)
        .collect();
    let mut out = String::from(
        "<h2>Summary</h2>\n<table class=\"statistics\">\n<caption>Per metric: the dataset score (the mean over every line, as Text2World's summary computes it), the mean over the pairs whose prediction executes, and the pairs at 100</caption>\n<thead><tr><th scope=\"col\">Metric</th><th scope=\"col\" class=\"num\">Dataset</th><th scope=\"col\" class=\"num\">EXEC 100 pairs</th><th scope=\"col\" class=\"num\">Pairs at 100</th></tr></thead>\n<tbody>\n",
    );
    for (name, value) in METRICS {
        let mean = if executing.is_empty() {
            "–".to_string()
        } else {
            let sum: f64 = executing.iter().map(|s| value(&s.metrics)).sum();
            format!("{:.1}", sum / executing.len() as f64)
        };
        let perfect = scored
            .iter()
            .filter(|(s, _)| value(&s.metrics) >= 100.0)
            .count();
        let _ = writeln!(
            out,
            "<tr><th scope=\"row\">{name}</th><td class=\"num\">{:.1}</td><td class=\"num\">{mean}</td><td class=\"num\">{perfect}</td></tr>",
            value(&dataset)
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// How many predictions execute, as a bar and in words, and the codes that make EXEC 0.
fn exec_section(scored: &[(&Scored, Option<&Functional>)], failed: usize) -> String {
    let executing = scored.iter().filter(|(s, _)| s.metrics.exec > 0.0).count();
    let not = scored.len() - executing;
    let total = (scored.len() + failed).max(1) as f64;
    let width = 480.0;
    let mut out = format!(
        "<h2>EXEC</h2>\n<p>{executing} prediction{} execute{} (EXEC 100), {not} do{} not (EXEC 0){}.</p>\n<figure>\n<svg class=\"exec\" role=\"img\" aria-labelledby=\"exec-title\" width=\"{width}\" height=\"24\" viewBox=\"0 0 {width} 24\">\n<title id=\"exec-title\">{executing} EXEC 100, {not} EXEC 0, {failed} not scored</title>\n",
        plural(executing),
        if executing == 1 { "s" } else { "" },
        if not == 1 { "es" } else { "" },
        match failed {
            0 => String::new(),
            n => format!(", {n} could not be scored"),
        }
    );
    let mut x = 0.0;
    for (count, colour, label) in [
        (executing, BLUE, "EXEC 100"),
        (not, VERMILLION, "EXEC 0"),
        (failed, "#777777", "not scored"),
    ] {
        let w = width * count as f64 / total;
        if count > 0 {
            let _ = write!(
                out,
                "<rect x=\"{x:.1}\" y=\"0\" width=\"{w:.1}\" height=\"24\" fill=\"{colour}\"><title>{label}: {count}</title></rect>"
            );
        }
        x += w;
    }
    let _ = writeln!(
        out,
        "\n</svg>\n<figcaption><span class=\"swatch\" style=\"background:{BLUE}\"></span> EXEC 100 <span class=\"swatch\" style=\"background:{VERMILLION}\"></span> EXEC 0 <span class=\"swatch\" style=\"background:#777777\"></span> not scored</figcaption>\n</figure>"
    );
    let mut codes: BTreeMap<Code, usize> = BTreeMap::new();
    for (s, _) in scored {
        for code in s.exec_codes() {
            *codes.entry(code).or_default() += 1;
        }
    }
    if !codes.is_empty() {
        out.push_str("<table class=\"statistics\">\n<caption>Why EXEC is 0: the pairs with each code (a pair may have several)</caption>\n<thead><tr><th scope=\"col\">Code</th><th scope=\"col\">What it reports</th><th scope=\"col\" class=\"num\">Pairs</th></tr></thead>\n<tbody>\n");
        let mut rows: Vec<(Code, usize)> = codes.into_iter().collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for (code, count) in rows {
            let _ = writeln!(
                out,
                "<tr><th scope=\"row\"><code>{code}</code></th><td>{}</td><td class=\"num\">{count}</td></tr>",
                escape(code.summary())
            );
        }
        out.push_str("</tbody>\n</table>\n");
    }
    out
}

/// The eleven bins of a metric: 0–9.9, …, 90–99.9, and 100.
const BINS: usize = 11;

fn bin(value: f64) -> usize {
    ((value / 10.0).floor().max(0.0) as usize).min(BINS - 1)
}

fn bin_label(i: usize) -> String {
    if i == BINS - 1 {
        "100".to_string()
    } else {
        format!("{}–{}.9", i * 10, i * 10 + 9)
    }
}

/// A histogram per metric but EXEC, each bar split into the pairs that execute (blue, below)
/// and those that do not (vermillion, above), and the counts as a table.
fn histograms(scored: &[(&Scored, Option<&Functional>)]) -> String {
    let mut out = String::from(
        "<h2>Distributions</h2>\n<p class=\"legend\"><span class=\"swatch\" style=\"background:#0072B2\"></span> EXEC 100 (lower part of a bar) <span class=\"swatch\" style=\"background:#D55E00\"></span> EXEC 0 (upper part)</p>\n<div class=\"histograms\">\n",
    );
    // counts[metric][bin] = (EXEC 100, EXEC 0)
    let mut counts = vec![[(0usize, 0usize); BINS]; METRICS.len() - 1];
    for (s, _) in scored {
        for (m, (_, value)) in METRICS.iter().skip(1).enumerate() {
            let cell = &mut counts[m][bin(value(&s.metrics))];
            if s.metrics.exec > 0.0 {
                cell.0 += 1;
            } else {
                cell.1 += 1;
            }
        }
    }
    for (m, (name, _)) in METRICS.iter().skip(1).enumerate() {
        out.push_str(&histogram(name, &counts[m]));
    }
    out.push_str("</div>\n<details>\n<summary>The counts as a table</summary>\n<table class=\"histogram-counts\">\n<caption>Pairs per bin and metric (EXEC 0 pairs in brackets)</caption>\n<thead><tr><th scope=\"col\">Bin</th>");
    for (name, _) in METRICS.iter().skip(1) {
        let _ = write!(out, "<th scope=\"col\" class=\"num\">{name}</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for b in 0..BINS {
        let _ = write!(out, "<tr><th scope=\"row\">{}</th>", bin_label(b));
        for metric in &counts {
            let (yes, no) = metric[b];
            let _ = write!(out, "<td class=\"num\">{} ({no})</td>", yes + no);
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</details>\n");
    out
}

fn histogram(name: &str, counts: &[(usize, usize); BINS]) -> String {
    let most = counts.iter().map(|(a, b)| a + b).max().unwrap_or(0).max(1);
    let (bar, gap, plot_height, left) = (20.0, 4.0, 120.0, 34.0);
    let width = left + (bar + gap) * BINS as f64;
    let height = plot_height + 34.0;
    let id = name.to_lowercase();
    let mut svg = format!(
        "<figure>\n<svg class=\"histogram\" role=\"img\" aria-labelledby=\"h-{id}\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n<title id=\"h-{id}\">{name}: pairs per bin of ten points ({}); the table below has the counts</title>\n<text x=\"{}\" y=\"12\" text-anchor=\"end\" font-size=\"11\">{most}</text><text x=\"{}\" y=\"{plot_height}\" text-anchor=\"end\" font-size=\"11\">0</text>\n",
        counts
            .iter()
            .enumerate()
            .map(|(i, (a, b))| format!("{}: {}", bin_label(i), a + b))
            .collect::<Vec<_>>()
            .join(", "),
        left - 4.0,
        left - 4.0,
    );
    for (i, &(yes, no)) in counts.iter().enumerate() {
        let x = left + (bar + gap) * i as f64;
        let h_yes = plot_height * yes as f64 / most as f64;
        let h_no = plot_height * no as f64 / most as f64;
        let title = format!(
            "{name} {}: {} pairs ({yes} EXEC 100, {no} EXEC 0)",
            bin_label(i),
            yes + no
        );
        let _ = write!(
            svg,
            "<g class=\"bar\"><title>{title}</title><rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bar}\" height=\"{h_yes:.1}\" fill=\"{BLUE}\"/><rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bar}\" height=\"{h_no:.1}\" fill=\"{VERMILLION}\"/></g>",
            plot_height - h_yes,
            plot_height - h_yes - h_no,
        );
    }
    let _ = writeln!(
        svg,
        "\n<line x1=\"{left}\" x2=\"{width}\" y1=\"{plot_height}\" y2=\"{plot_height}\" stroke=\"#555\"/><text x=\"{left}\" y=\"{}\" font-size=\"11\">0</text><text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">50</text><text x=\"{:.1}\" y=\"{}\" text-anchor=\"end\" font-size=\"11\">100</text>\n</svg>\n<figcaption>{name}</figcaption>\n</figure>",
        plot_height + 14.0,
        left + (bar + gap) * 5.0,
        plot_height + 14.0,
        width - gap,
        plot_height + 14.0,
    );
    svg
}

fn verdict_name(verdict: impl serde::Serialize) -> String {
    serde_json::to_value(verdict)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The functional verdicts counted, against whether the metrics call the pair perfect: where
/// the metrics and the behaviour disagree is what the comparison is for.
fn functional_section(scored: &[(&Scored, Option<&Functional>)]) -> String {
    let mut rows: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for verdict in [Verdict::Equivalent, Verdict::Different, Verdict::Unknown] {
        rows.insert(verdict_name(verdict), (0, 0));
    }
    let mut actions: BTreeMap<String, usize> = BTreeMap::new();
    for (s, f) in scored {
        let Some(f) = f else { continue };
        let perfect = METRICS.iter().all(|(_, v)| v(&s.metrics) >= 100.0);
        let row = rows.entry(verdict_name(f.verdict)).or_default();
        if perfect {
            row.0 += 1;
        } else {
            row.1 += 1;
        }
        for a in &f.actions {
            *actions.entry(verdict_name(a.verdict)).or_default() += 1;
        }
    }
    let mut out = String::from(
        "<h2>Behaviour</h2>\n<table class=\"statistics\">\n<caption>Functional verdicts, against the metrics: pairs whose six metrics are all 100, and the others</caption>\n<thead><tr><th scope=\"col\">Verdict</th><th scope=\"col\" class=\"num\">All metrics 100</th><th scope=\"col\" class=\"num\">Not all 100</th><th scope=\"col\" class=\"num\">Pairs</th></tr></thead>\n<tbody>\n",
    );
    for (verdict, (perfect, other)) in &rows {
        let _ = writeln!(
            out,
            "<tr><th scope=\"row\">{verdict}</th><td class=\"num\">{perfect}</td><td class=\"num\">{other}</td><td class=\"num\">{}</td></tr>",
            perfect + other
        );
    }
    out.push_str("</tbody>\n</table>\n<table class=\"statistics\">\n<caption>Actions by verdict</caption>\n<thead><tr><th scope=\"col\">Verdict</th><th scope=\"col\" class=\"num\">Actions</th></tr></thead>\n<tbody>\n");
    for (verdict, count) in &actions {
        let _ = writeln!(
            out,
            "<tr><th scope=\"row\">{verdict}</th><td class=\"num\">{count}</td></tr>"
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// How a verdict sorts: the most worrying first.
fn functional_rank(f: Option<&Functional>) -> i32 {
    match f.map(|f| f.verdict) {
        Some(Verdict::Different) => 0,
        Some(Verdict::Unknown) => 1,
        Some(Verdict::Equivalent) => 2,
        None => -1,
    }
}

/// The pairs, a `tbody` each (its row of values, then its details when it has any), sorted
/// by the mean of the six metrics, lowest first.
fn pairs_table(pairs: &[ScorePair]) -> String {
    let functional = pairs.iter().any(|p| {
        matches!(
            p.result,
            PairResult::Scored {
                functional: Some(_),
                ..
            }
        )
    });
    let mean = |p: &ScorePair| match &p.result {
        PairResult::Scored { scored, .. } => {
            METRICS.iter().map(|(_, v)| v(&scored.metrics)).sum::<f64>() / 6.0
        }
        PairResult::Failed(_) => -1.0,
    };
    let mut order: Vec<(f64, &ScorePair)> = pairs.iter().map(|p| (mean(p), p)).collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.line.cmp(&b.1.line)));
    let columns = 9 + usize::from(functional);
    let head = pairs_head(functional);
    let mut out = format!(
        "<h2>Pairs</h2>\n<p>Worst first (by the mean of the six metrics); a column's button sorts by it, the other way when pressed again. A pair's details show the two domains side by side where they differ. The first {SHOWN_PAIRS} pairs are shown; the others are below them, folded.</p>\n<table class=\"pairs\">\n<caption>The pairs in the chosen order, their metrics and their differences</caption>\n{head}",
    );
    for (i, (mean, pair)) in order.into_iter().enumerate() {
        if i == SHOWN_PAIRS {
            let _ = write!(
                out,
                "</table>\n<details class=\"more\"><summary>The other {} pairs</summary>\n<table class=\"pairs\">\n<caption>The other pairs, continuing the order</caption>\n{head}",
                pairs.len() - SHOWN_PAIRS
            );
        }
        out.push_str(&pair_body(pair, mean, functional, columns));
    }
    out.push_str("</table>\n");
    if pairs.len() > SHOWN_PAIRS {
        out.push_str("</details>\n");
    }
    out
}

/// The pairs shown unfolded: a browser lays a page of thousands of rows out slowly.
const SHOWN_PAIRS: usize = 100;

/// The header row of the pairs' tables, a sort button in each sortable column.
fn pairs_head(functional: bool) -> String {
    let mut out = String::from(
        "<thead><tr><th scope=\"col\" class=\"num\"><button type=\"button\" data-key=\"line\">Line</button></th><th scope=\"col\">Id</th>",
    );
    for (name, _) in METRICS {
        let key = name.trim_start_matches("F1_").to_lowercase();
        let _ = write!(
            out,
            "<th scope=\"col\" class=\"num\"><button type=\"button\" data-key=\"{key}\">{name}</button></th>"
        );
    }
    out.push_str("<th scope=\"col\" class=\"num\" aria-sort=\"ascending\"><button type=\"button\" data-key=\"mean\">Mean</button></th>");
    if functional {
        out.push_str("<th scope=\"col\"><button type=\"button\" data-key=\"functional\">Behaviour</button></th>");
    }
    out.push_str("</tr></thead>\n");
    out
}

fn pair_body(pair: &ScorePair, mean: f64, functional: bool, columns: usize) -> String {
    let id = pair.id.as_deref().map(escape).unwrap_or_default();
    let mut data = format!("data-line=\"{}\" data-mean=\"{mean:.2}\"", pair.line);
    let mut cells = format!(
        "<th scope=\"row\" class=\"num\">{}</th><td>{id}</td>",
        pair.line
    );
    let details = match &pair.result {
        PairResult::Failed(reason) => {
            for (name, _) in METRICS {
                let key = name.trim_start_matches("F1_").to_lowercase();
                let _ = write!(data, " data-{key}=\"-1\"");
            }
            let _ = write!(
                cells,
                "<td colspan=\"{}\" class=\"none\">not scored: {}</td>",
                7 + usize::from(functional),
                escape(reason)
            );
            String::new()
        }
        PairResult::Scored {
            gold,
            pred,
            scored,
            functional: f,
        } => {
            for (name, value) in METRICS {
                let key = name.trim_start_matches("F1_").to_lowercase();
                let v = value(&scored.metrics);
                let _ = write!(data, " data-{key}=\"{v}\"");
                let class = if v >= 100.0 { "num" } else { "num low" };
                let _ = write!(cells, "<td class=\"{class}\">{v:.1}</td>");
            }
            let _ = write!(cells, "<td class=\"num\">{mean:.1}</td>");
            if functional {
                let _ = write!(data, " data-functional=\"{}\"", functional_rank(*f));
                let verdict = f.map(|f| verdict_name(f.verdict)).unwrap_or_default();
                let _ = write!(cells, "<td class=\"behaviour-{verdict}\">{verdict}</td>");
            }
            pair_details(gold, pred, scored, *f)
        }
    };
    let mut out = format!(
        "<tbody id=\"pair-{}\" {data}>\n<tr>{cells}</tr>\n",
        pair.line
    );
    if !details.is_empty() {
        let _ = writeln!(
            out,
            "<tr class=\"detail\"><td colspan=\"{columns}\">{details}</td></tr>"
        );
    }
    out.push_str("</tbody>\n");
    out
}

/// The width the compared domains are formatted to: narrow enough that nearly every atom of
/// a precondition or an effect has a line of its own, so that one dropped atom is one line,
/// whatever the lengths of the lists around it.
const COMPARED_WIDTH: usize = 30;

/// The two domains as the page compares them: formatted by `pddlc fmt` when both parse (so
/// that layout and comments are not differences), else as written, with `\r\n` read as `\n`.
fn compared_texts(gold: &str, pred: &str) -> (String, String, &'static str) {
    let options = crate::fmt::PrintOptions {
        width: COMPARED_WIDTH,
        ..Default::default()
    };
    let formatted = |text: &str| {
        let domain = crate::parse::domain(text).value?;
        Some(crate::fmt::file_with(
            &crate::ast::PddlFile::Domain(domain),
            &options,
        ))
    };
    match (formatted(gold), formatted(pred)) {
        (Some(g), Some(p)) => (
            g,
            p,
            "formatted by pddlc fmt --width 30: layout and comments are not compared",
        ),
        _ => (
            gold.replace("\r\n", "\n"),
            pred.replace("\r\n", "\n"),
            "as written (one of them does not parse)",
        ),
    }
}

/// A pair's details: a summary line, its notes, why EXEC is 0, the behaviour and the domains
/// side by side. Empty when there is nothing to show (the same domains, no note).
fn pair_details(gold: &str, pred: &str, scored: &Scored, f: Option<&Functional>) -> String {
    let (g, p, how) = compared_texts(gold, pred);
    let Compared { html, differing } = diff::side_by_side(
        &g,
        &p,
        ("Gold", "Prediction"),
        &format!("The gold domain and the prediction, {how}"),
    );
    let mut notes = scored.notes();
    if repeats_first_error(scored) && !notes.is_empty() {
        // The errors are listed below, each with its line.
        notes.remove(0);
    }
    let behaviour = f.map(functional_details).unwrap_or_default();
    if html.is_empty() && notes.is_empty() && behaviour.is_empty() {
        return String::new();
    }
    let mut summary = match differing {
        0 => "the same domains".to_string(),
        n => format!(
            "{n} line{} differ{}",
            plural(n),
            if n == 1 { "s" } else { "" }
        ),
    };
    if let Some(f) = f {
        let _ = write!(summary, "; behaviour: {}", verdict_name(f.verdict));
    }
    let mut out = format!("<details><summary>{summary}</summary>\n");
    if !notes.is_empty() {
        out.push_str("<ul class=\"notes\">");
        for note in &notes {
            let _ = write!(out, "<li>{}</li>", escape(note));
        }
        out.push_str("</ul>\n");
    }
    let mut shown_errors = 0;
    for d in scored.exec_diagnostics().iter().take(5) {
        let at = d
            .labels
            .first()
            .map(|l| {
                let line = 1 + pred
                    .get(..l.span.start.min(pred.len()))
                    .map_or(0, |before| before.matches('\n').count());
                format!(" (line {line})")
            })
            .unwrap_or_default();
        if shown_errors == 0 {
            out.push_str("<ul class=\"errors\">");
        }
        shown_errors += 1;
        let _ = write!(
            out,
            "<li><code>{}</code> {}{at}</li>",
            d.code,
            escape(&d.message)
        );
    }
    if shown_errors > 0 {
        out.push_str("</ul>\n");
    }
    out.push_str(&behaviour);
    out.push_str(&html);
    out.push_str("</details>");
    out
}

/// Whether the first of the pair's notes says what its first EXEC error says.
fn repeats_first_error(scored: &Scored) -> bool {
    match &scored.detail {
        Detail::Clean(c) => match c.unreadable {
            Some(Side::Pred) => true,
            Some(Side::Gold) => false,
            None => !c.pred_errors.is_empty(),
        },
        Detail::Text2World(t) => t.exec_rejection.is_some(),
    }
}

/// The behaviour of a pair: its verdict and reason, the actions that are not equivalent, and
/// the first counterexamples (a problem and a one-step plan one domain accepts and the other
/// rejects).
fn functional_details(f: &Functional) -> String {
    let aligned: Vec<String> = [
        ("predicate", &f.alignment.predicates),
        ("action", &f.alignment.actions),
        ("type", &f.alignment.types),
        ("constant", &f.alignment.constants),
    ]
    .into_iter()
    .flat_map(|(what, map)| {
        map.iter().map(move |(gold, pred)| {
            format!(
                "<li>{what} <code>{}</code> is <code>{}</code></li>",
                escape(gold),
                escape(pred)
            )
        })
    })
    .collect();
    let plain = f.verdict == Verdict::Equivalent
        && f.reason.is_none()
        && f.notes.is_empty()
        && aligned.is_empty();
    if plain {
        return String::new();
    }
    let mut out = format!(
        "<p>Behaviour: <strong>{}</strong>{}</p>\n",
        verdict_name(f.verdict),
        f.reason
            .as_deref()
            .map(|r| format!(" ({})", escape(r)))
            .unwrap_or_default()
    );
    if !aligned.is_empty() {
        let _ = writeln!(
            out,
            "<p>Aligned by behaviour, gold with prediction:</p>\n<ul class=\"aligned\">{}</ul>",
            aligned.concat()
        );
    }
    for note in &f.notes {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(note));
    }
    let differing: Vec<_> = f
        .actions
        .iter()
        .filter(|a| a.verdict != ActionVerdict::Equivalent)
        .collect();
    if !differing.is_empty() {
        out.push_str("<table class=\"actions\">\n<caption>Actions that are not equivalent</caption>\n<thead><tr><th scope=\"col\">Gold</th><th scope=\"col\">Prediction</th><th scope=\"col\">Verdict</th></tr></thead>\n<tbody>\n");
        for a in differing {
            let _ = writeln!(
                out,
                "<tr><td><code>{}</code></td><td><code>{}</code></td><td>{}{}</td></tr>",
                escape(a.gold.as_deref().unwrap_or("–")),
                escape(a.pred.as_deref().unwrap_or("–")),
                verdict_name(a.verdict),
                a.reason
                    .as_deref()
                    .map(|r| format!(": {}", escape(r)))
                    .unwrap_or_default()
            );
        }
        out.push_str("</tbody>\n</table>\n");
    }
    for example in f.counterexamples.iter().take(SHOWN_COUNTEREXAMPLES) {
        let _ = writeln!(
            out,
            "<div class=\"counterexample\"><p>Counterexample for <code>{}</code>: {}</p>\n<pre>{}</pre>\n<pre>{}</pre></div>",
            escape(&example.action),
            escape(&example.explanation),
            escape(&example.gold_texts.0),
            escape(&example.gold_texts.1),
        );
    }
    if f.counterexamples.len() > SHOWN_COUNTEREXAMPLES {
        let _ = writeln!(
            out,
            "<p>{} more counterexamples: <code>--counterexamples DIR</code> writes them all.</p>",
            f.counterexamples.len() - SHOWN_COUNTEREXAMPLES
        );
    }
    out
}

/// Sorts the pairs' `tbody`s by a column when its button is pressed (again: the other way),
/// refills the shown table and the folded one in that order, and says so in `aria-sort`; ties
/// keep the file's order.
const SORT_SCRIPT: &str = "<script>\n\
(function () {\n\
  var tables = document.querySelectorAll('table.pairs'), shown = SHOWN_PAIRS;\n\
  document.querySelectorAll('table.pairs thead button').forEach(function (button) {\n\
    button.addEventListener('click', function () {\n\
      var key = button.dataset.key, bodies = [];\n\
      var ascending = button.parentNode.getAttribute('aria-sort') !== 'ascending';\n\
      tables.forEach(function (table) {\n\
        table.querySelectorAll('th[aria-sort]').forEach(function (h) { h.removeAttribute('aria-sort'); });\n\
        table.querySelector('button[data-key=' + key + ']').parentNode\n\
          .setAttribute('aria-sort', ascending ? 'ascending' : 'descending');\n\
        bodies = bodies.concat(Array.prototype.slice.call(table.tBodies));\n\
      });\n\
      bodies.sort(function (a, b) {\n\
        var d = parseFloat(a.dataset[key]) - parseFloat(b.dataset[key]);\n\
        return (ascending ? d : -d) || (a.dataset.line - b.dataset.line);\n\
      });\n\
      bodies.forEach(function (body, i) { tables[i < shown ? 0 : tables.length - 1].appendChild(body); });\n\
    });\n\
  });\n\
})();\n\
</script>\n";
