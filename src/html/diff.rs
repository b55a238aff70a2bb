//! Two texts side by side, only where they differ: the differing lines with two lines around
//! each run of them, the changed words of a line replaced by another marked, and a marker
//! before each line that only one side has (so that colour is never the only sign).

use super::escape;
use similar::{ChangeTag, DiffOp, TextDiff};
use std::fmt::Write as _;

/// The lines shown around each run of differing lines.
const CONTEXT: usize = 2;
/// The most rows one comparison shows; the rest are counted, not shown, so that a prediction
/// that differs everywhere does not fill the page.
const MAX_ROWS: usize = 120;
/// Texts longer than this many lines are not compared on the page (the diff's time grows with
/// the product of the lengths when they differ a lot).
const MAX_LINES: usize = 5_000;

/// What comparing two texts found: the table (empty when they are the same) and the number of
/// lines that differ on either side.
pub(crate) struct Compared {
    pub html: String,
    pub differing: usize,
}

/// The side-by-side table of `left` and `right` (named in the header by `names`), with
/// `caption`.
pub(crate) fn side_by_side(
    left: &str,
    right: &str,
    names: (&str, &str),
    caption: &str,
) -> Compared {
    if left == right {
        return Compared {
            html: String::new(),
            differing: 0,
        };
    }
    if left.lines().count() > MAX_LINES || right.lines().count() > MAX_LINES {
        return Compared {
            html: format!(
                "<p>The texts differ; they are longer than {MAX_LINES} lines, so the page does not compare them line by line.</p>\n"
            ),
            differing: 1,
        };
    }
    let diff = TextDiff::from_lines(left, right);
    let (old, new) = (diff.old_slices(), diff.new_slices());
    let mut rows = Rows::default();
    for group in diff.grouped_ops(CONTEXT) {
        rows.gap();
        for op in group {
            rows.op(op, old, new);
        }
    }
    let mut html = format!(
        "<figure class=\"diff\">\n<figcaption>{}</figcaption>\n<div class=\"sides\">{}{}</div>\n",
        escape(caption),
        side(names.0, &rows.left),
        side(names.1, &rows.right),
    );
    if rows.hidden > 0 {
        let _ = writeln!(html, "<p>… {} more lines not shown</p>", rows.hidden);
    }
    html.push_str("</figure>\n");
    Compared {
        html,
        differing: rows.differing,
    }
}

/// One side's lines as a `pre`: a run of lines of one kind (removed, added, or padding where
/// the other side has lines) is one `span`, so that the page holds few elements however many
/// lines differ; each line starts with its number and a `−`, `+` or space. The side's name is
/// its label, which the style sheet shows above it.
fn side(name: &str, lines: &[Line]) -> String {
    let mut out = format!("<pre aria-label=\"{}\">", escape(name));
    let mut open: Option<Kind> = None;
    for line in lines {
        if open != Some(line.kind) {
            if open.is_some_and(|k| k != Kind::Same) {
                out.push_str("</span>");
            }
            if let Some(class) = line.kind.class() {
                let _ = write!(out, "<span class=\"{class}\">");
            }
            open = Some(line.kind);
        }
        match (line.kind, line.number) {
            (Kind::Gap, _) => out.push_str("   ⋯\n"),
            (_, None) => out.push('\n'),
            (kind, Some(n)) => {
                let _ = writeln!(out, "{n:>4} {} {}", kind.marker(), line.text);
            }
        }
    }
    if open.is_some_and(|k| k != Kind::Same) {
        out.push_str("</span>");
    }
    out.push_str("</pre>");
    out
}

/// A line without its line ending.
fn trimmed(line: &str) -> &str {
    line.trim_end_matches(['\n', '\r'])
}

/// Two lines with the words that differ marked (a run of changed words is one mark): the
/// left's removed words, the right's added ones. Lines that share less than half their words
/// are left unmarked: the whole line is the change.
fn words(left: &str, right: &str) -> (String, String) {
    let diff = TextDiff::from_words(left, right);
    if diff.ratio() < 0.5 {
        return (escape(left), escape(right));
    }
    let (mut l, mut r) = (Marked::default(), Marked::default());
    for change in diff.iter_all_changes() {
        let text = escape(change.value());
        match change.tag() {
            ChangeTag::Equal => {
                l.push(&text, false);
                r.push(&text, false);
            }
            ChangeTag::Delete => l.push(&text, true),
            ChangeTag::Insert => r.push(&text, true),
        }
    }
    (l.finish(), r.finish())
}

/// A line being written with marks, consecutive marked pieces in one `mark`.
#[derive(Default)]
struct Marked {
    text: String,
    open: bool,
}

impl Marked {
    fn push(&mut self, piece: &str, marked: bool) {
        if marked != self.open {
            self.text
                .push_str(if marked { "<mark>" } else { "</mark>" });
            self.open = marked;
        }
        self.text.push_str(piece);
    }

    fn finish(mut self) -> String {
        if self.open {
            self.text.push_str("</mark>");
        }
        self.text
    }
}

/// What a line of one side is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Same,
    Removed,
    Added,
    /// Where the other side has a line this side has not.
    Padding,
    /// Lines left out between two runs of shown ones.
    Gap,
}

impl Kind {
    fn class(self) -> Option<&'static str> {
        match self {
            Kind::Same => None,
            Kind::Removed => Some("del"),
            Kind::Added => Some("ins"),
            Kind::Padding => Some("pad"),
            Kind::Gap => Some("gap"),
        }
    }

    fn marker(self) -> char {
        match self {
            Kind::Removed => '−',
            Kind::Added => '+',
            _ => ' ',
        }
    }
}

/// One line of one side: its kind, its 1-based number (none for padding and gaps) and its
/// escaped text.
struct Line {
    kind: Kind,
    number: Option<usize>,
    text: String,
}

/// The two sides being written, aligned line for line: at most [`MAX_ROWS`] rows, the rest
/// counted.
#[derive(Default)]
struct Rows {
    left: Vec<Line>,
    right: Vec<Line>,
    hidden: usize,
    differing: usize,
}

impl Rows {
    /// A row: each side's 0-based line index, its escaped text and whether it changed, or
    /// nothing (padding).
    fn push(&mut self, left: Option<(usize, &str, Kind)>, right: Option<(usize, &str, Kind)>) {
        if self.left.len() >= MAX_ROWS {
            self.hidden += 1;
            return;
        }
        for (side, line) in [(&mut self.left, left), (&mut self.right, right)] {
            side.push(match line {
                Some((index, text, kind)) => Line {
                    kind,
                    number: Some(index + 1),
                    text: text.to_string(),
                },
                None => Line {
                    kind: Kind::Padding,
                    number: None,
                    text: String::new(),
                },
            });
        }
    }

    /// The rows of one step of the diff between the lines `old` and `new`.
    fn op(&mut self, op: DiffOp, old: &[&str], new: &[&str]) {
        match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                for i in 0..len {
                    let text = escape(trimmed(old[old_index + i]));
                    self.push(
                        Some((old_index + i, &text, Kind::Same)),
                        Some((new_index + i, &text, Kind::Same)),
                    );
                }
            }
            DiffOp::Delete {
                old_index, old_len, ..
            } => {
                for (i, line) in old.iter().enumerate().skip(old_index).take(old_len) {
                    self.differing += 1;
                    self.push(Some((i, &escape(trimmed(line)), Kind::Removed)), None);
                }
            }
            DiffOp::Insert {
                new_index, new_len, ..
            } => {
                for (i, line) in new.iter().enumerate().skip(new_index).take(new_len) {
                    self.differing += 1;
                    self.push(None, Some((i, &escape(trimmed(line)), Kind::Added)));
                }
            }
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                self.differing += old_len.max(new_len);
                for i in 0..old_len.max(new_len) {
                    let l = (i < old_len).then(|| old_index + i);
                    let r = (i < new_len).then(|| new_index + i);
                    let (lt, rt) = match (l, r) {
                        (Some(l), Some(r)) => words(trimmed(old[l]), trimmed(new[r])),
                        (Some(l), None) => (escape(trimmed(old[l])), String::new()),
                        (None, Some(r)) => (String::new(), escape(trimmed(new[r]))),
                        (None, None) => (String::new(), String::new()),
                    };
                    self.push(
                        l.map(|l| (l, &*lt, Kind::Removed)),
                        r.map(|r| (r, &*rt, Kind::Added)),
                    );
                }
            }
        }
    }

    /// The mark between two runs of shown lines.
    fn gap(&mut self) {
        if !self.left.is_empty() && self.left.len() < MAX_ROWS {
            for side in [&mut self.left, &mut self.right] {
                side.push(Line {
                    kind: Kind::Gap,
                    number: None,
                    text: String::new(),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::side_by_side;

    #[test]
    fn same_texts_have_no_table() {
        let compared = side_by_side("(a)\n", "(a)\n", ("gold", "pred"), "c");
        assert!(compared.html.is_empty());
        assert_eq!(compared.differing, 0);
    }

    #[test]
    fn a_changed_line_marks_its_changed_words_and_keeps_context() {
        let left = "1\n2\n3\n(at ?x ?y)\n5\n6\n7\n8\n9\n10\n11\n12\n";
        let right = "1\n2\n3\n(at ?x ?z)\n5\n6\n7\n8\n9\n10\n11\n12\nthirteen\n";
        let compared = side_by_side(left, right, ("gold", "pred"), "c");
        assert_eq!(compared.differing, 2);
        let html = &compared.html;
        assert!(
            html.contains("<span class=\"del\">   4 − (at ?x <mark>?y)</mark>\n</span>"),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"ins\">   4 + (at ?x <mark>?z)</mark>\n</span>"),
            "{html}"
        );
        // Two lines around each run: 2, 3 and 5, 6 around line 4, 11 and 12 before the added
        // line 13; not 1 nor 7 to 10, which a gap stands for.
        assert!(
            html.contains("   2   2\n") && html.contains("   6   6\n"),
            "{html}"
        );
        assert!(html.contains("  11   11\n"), "{html}");
        assert!(
            !html.contains("   1   1\n") && !html.contains("   7   7\n"),
            "{html}"
        );
        assert!(html.contains("<span class=\"gap\">   ⋯\n</span>"), "{html}");
        // The added last line, on the right only, padded on the left.
        assert!(
            html.contains("<span class=\"ins\">  13 + thirteen\n</span>"),
            "{html}"
        );
        assert!(html.contains("<span class=\"pad\">\n</span>"), "{html}");
    }

    #[test]
    fn a_long_difference_is_cut_and_counted() {
        let left: String = (0..500).map(|i| format!("l{i}\n")).collect();
        let right: String = (0..500).map(|i| format!("r{i}\n")).collect();
        let compared = side_by_side(&left, &right, ("gold", "pred"), "c");
        assert_eq!(compared.differing, 500);
        assert!(
            compared.html.contains("380 more lines not shown"),
            "{}",
            compared.html
        );
        // One span a side for the whole run of changed lines.
        assert_eq!(compared.html.matches("<span class=\"del\">").count(), 1);
        assert_eq!(compared.html.matches(" − ").count(), super::MAX_ROWS);
    }

    #[test]
    fn markup_in_the_texts_is_escaped() {
        let compared = side_by_side("<b>\n", "<i>\n", ("gold", "pred"), "c");
        assert!(compared.html.contains("&lt;b&gt;") && !compared.html.contains("<b>"));
    }
}
