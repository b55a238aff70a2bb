//! Self-contained HTML pages of results (docs/reports.md): one file, no network, no external
//! script or font; inline CSS and SVG (and, on the score page only, a few lines of inline script
//! that sort its table), with the platform's accessibility basics (a heading per
//! part, tables with captions and header cells, a text alternative for every chart, colours
//! from the Okabe–Ito palette, readable by colour-blind readers, never colour alone). Each
//! command's page is built from the library's own results; the front ends write the string.

mod diff;
mod forest;
mod gantt;
mod kitchen;
mod plancraft;
mod score;
mod solve;
mod validate;

pub use kitchen::{AnnotatedPlan, kitchen_eval_page};
pub use plancraft::plancraft_eval_page;
pub use score::{PairResult, ScorePair, score_page};
pub use solve::solve_page;
pub use validate::{PlanPage, validate_page};

/// The Okabe–Ito colours the pages use: applied, failed, not run.
pub(crate) const BLUE: &str = "#0072B2";
pub(crate) const VERMILLION: &str = "#D55E00";
pub(crate) const GREY: &str = "#BBBBBB";
/// Okabe–Ito orange and reddish purple: latent and irreversible failures on the kitchen
/// page, some-but-not-all and wrongly-impossible on the Plancraft page.
pub(crate) const ORANGE: &str = "#E69F00";
pub(crate) const PURPLE: &str = "#CC79A7";

/// `text` with `&`, `<`, `>`, `"` and `'` escaped, for element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A whole page: the document, its title, the style sheet and `body`.
pub(crate) fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"pddlc {version}\">\n<title>{title}</title>\n\
         <style>{STYLE}</style>\n</head>\n<body>\n<main>\n{body}</main>\n</body>\n</html>\n",
        version = env!("CARGO_PKG_VERSION"),
        title = escape(title),
    )
}

const STYLE: &str = "\
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1a1a1a;margin:0;background:#fff}\
main{max-width:72rem;margin:0 auto;padding:1.5rem}\
h1{font-size:1.5rem;margin:.2rem 0 1rem}h2{font-size:1.2rem;margin:1.8rem 0 .6rem}\
h3{font-size:1.05rem;margin:1.2rem 0 .4rem}\
table{border-collapse:collapse;width:100%;margin:.4rem 0 1rem}table.statistics{width:auto;min-width:24rem}\
caption{text-align:left;font-weight:600;padding:.3rem 0}\
th,td{border:1px solid #d0d0d0;padding:.3rem .5rem;text-align:left;vertical-align:top}\
th{background:#f3f3f3}td.num,th.num{text-align:right}.timeline td:nth-child(2){white-space:nowrap}\
code,.atoms{font-family:ui-monospace,'SFMono-Regular',Menlo,Consolas,monospace;font-size:.9em}\
.verdict{display:inline-block;padding:.1rem .5rem;border-radius:.3rem;color:#fff;font-weight:600}\
.valid{background:#0072B2}.invalid{background:#D55E00}.unknown{background:#666}\
tr.failed td{background:#fbe3d3}tr.skipped td{color:#777}\
.added::before{content:'+ ';font-weight:700;color:#0072B2}\
.deleted::before{content:'\\2212  ';font-weight:700;color:#D55E00}\
ul.atoms{margin:0;padding-left:0;list-style:none}\
figure{margin:.5rem 0 1rem}figcaption{font-size:.9em;color:#444}\
.swatch{display:inline-block;width:.9em;height:.9em;vertical-align:middle;margin-left:.6em}\
table.grid td{white-space:nowrap;font-size:.9em}pre.result{white-space:pre-wrap;font-size:.85em;background:#f6f6f6;padding:.4rem;max-width:60rem}p.plan{margin:.4rem 0 0}td.none{color:#777}\
.histograms{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem}\
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;text-decoration:underline dotted}\
th[aria-sort=ascending] button::after{content:' \\2191'}th[aria-sort=descending] button::after{content:' \\2193'}\
table.pairs tbody{border-top:2px solid #bbb}td.low{color:#8a3300;font-weight:600}\
tr.detail>td{background:#fafafa}td.behaviour-different{color:#8a3300;font-weight:600}\
figure.diff{margin:.4rem 0}.sides{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}\
.sides pre{margin:0;overflow-x:auto;font-size:.8em;line-height:1.35;background:#fcfcfc;border:1px solid #e4e4e4;padding:.2rem 0}\
.sides span{display:block}.sides pre::before{content:attr(aria-label);display:block;font-weight:700;padding-left:.4rem;font-family:system-ui,sans-serif}\
.sides .del{background:#fbe3d3}.sides .ins{background:#dbeaf6}.sides .gap{color:#777}\
.sides .pad{background:repeating-linear-gradient(45deg,#f0f0f0 0 4px,#fcfcfc 4px 8px)}\
mark{background:#ffd27a;color:inherit}\
div.wide{overflow-x:auto}table.compact{font-size:.88em}table.compact th,table.compact td{padding:.25rem .35rem}table.intervals td{white-space:nowrap}table.examples{table-layout:fixed}table.examples thead th:first-child{width:11rem}ul.absent{margin:-.6rem 0 1rem;font-size:.9em;color:#444}\
.counterexample pre{background:#f6f6f6;padding:.4rem;overflow-x:auto;font-size:.85em}\
";

/// A list of atoms, each marked with `class` (`added`, `deleted`, or none).
pub(crate) fn atom_list(atoms: &[String], class: &str) -> String {
    if atoms.is_empty() {
        return String::new();
    }
    let items: String = atoms
        .iter()
        .map(|a| format!("<li class=\"{class}\">{}</li>", escape(a)))
        .collect();
    format!("<ul class=\"atoms\">{items}</ul>")
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup() {
        assert_eq!(
            super::escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
