//! Source texts as renderers see them, and byte offset to line/column conversion.

/// A named input: what a renderer needs to show a label in context.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: text.into(),
        }
    }
}

/// A 1-based line and column. Columns count Unicode scalar values, so a tab or an accented
/// letter is one column, whatever its width in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

/// Start offsets of the lines of a text, for turning byte offsets into lines and columns.
///
/// It also knows which lines are ASCII without tabs, where a column is the byte distance from
/// the line's start: asking for many offsets on one long line (a damaged or generated input
/// written on a single line) then costs nothing per offset instead of a walk over the line.
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    /// Per line: [`NOT_ASCII`] and [`HAS_TAB`] bits.
    kinds: Vec<u8>,
}

/// The line holds a byte of a multi-byte character: columns count characters.
const NOT_ASCII: u8 = 1;
/// The line holds a tab: display columns jump to tab stops.
const HAS_TAB: u8 = 2;

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        let mut kinds = Vec::new();
        let mut kind = 0u8;
        for (i, &byte) in text.as_bytes().iter().enumerate() {
            match byte {
                b'\n' => {
                    kinds.push(kind);
                    kind = 0;
                    line_starts.push(i + 1);
                }
                b'\t' => kind |= HAS_TAB,
                0x80.. => kind |= NOT_ASCII,
                _ => {}
            }
        }
        kinds.push(kind);
        LineIndex { line_starts, kinds }
    }

    /// The 1-based line of byte `offset` (past the end: the last line). Unlike [`LineIndex::line_col`]
    /// it does not count the characters before the offset, so asking it for many offsets on one
    /// long line stays cheap.
    pub fn line(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= offset)
    }

    /// The line and column of byte `offset` in `text` (the text this index was built from).
    /// Offsets past the end, or inside a multi-byte character, are clamped to a valid position.
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&start| start <= offset);
        let line_start = self.line_starts[line.saturating_sub(1)];
        let column = if self.kinds[line.saturating_sub(1)] & NOT_ASCII == 0 {
            offset - line_start + 1
        } else {
            text[line_start..offset].chars().count() + 1
        };
        LineCol { line, column }
    }

    /// The line and display column of byte `offset`, as GCC counts columns: a tab advances to
    /// the next multiple of 8, any other character counts one. Emacs and Vim land on the same
    /// screen column for tab-indented files.
    pub fn display_line_col(&self, text: &str, offset: usize) -> LineCol {
        let at = self.line_col(text, offset);
        if self.kinds[at.line - 1] & HAS_TAB == 0 {
            return at;
        }
        let line_start = self.line_starts[at.line - 1];
        let mut column = 0;
        for c in text[line_start..].chars().take(at.column - 1) {
            column = if c == '\t' {
                (column / 8 + 1) * 8
            } else {
                column + 1
            };
        }
        LineCol {
            line: at.line,
            column: column + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_are_one_based_and_count_characters() {
        let text = "ab\r\n\u{e9}x\n\nz";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 0), LineCol { line: 1, column: 1 });
        assert_eq!(index.line_col(text, 1), LineCol { line: 1, column: 2 });
        // `x` follows the two-byte `é`: byte 6, column 2.
        assert_eq!(index.line_col(text, 6), LineCol { line: 2, column: 2 });
        assert_eq!(index.line_col(text, 8), LineCol { line: 3, column: 1 });
        assert_eq!(index.line_col(text, 9), LineCol { line: 4, column: 1 });
        assert_eq!(index.line(6), 2);
        assert_eq!(index.line(100), 4);
        // Past the end and inside a character are clamped.
        assert_eq!(index.line_col(text, 100), LineCol { line: 4, column: 2 });
        assert_eq!(index.line_col(text, 5), LineCol { line: 2, column: 1 });
    }

    #[test]
    fn display_columns_expand_tabs_to_stops_of_eight() {
        let text = "\t(a\n ab\t\tx\n";
        let index = LineIndex::new(text);
        // `(` after one tab: display column 9, character column 2.
        assert_eq!(
            index.display_line_col(text, 1),
            LineCol { line: 1, column: 9 }
        );
        assert_eq!(index.line_col(text, 1), LineCol { line: 1, column: 2 });
        // ` ab` then two tabs: stops at 8 and 16, so `x` is at display column 17.
        assert_eq!(
            index.display_line_col(text, 9),
            LineCol {
                line: 2,
                column: 17
            }
        );
    }

    /// Lines and columns the slow way: walking every character from the start of the text.
    fn walked(text: &str, offset: usize, tab_stops: bool) -> LineCol {
        let (mut line, mut column) = (1, 1);
        for (at, c) in text.char_indices() {
            if at >= offset {
                break;
            }
            match c {
                '\n' => (line, column) = (line + 1, 1),
                '\t' if tab_stops => column = ((column - 1) / 8 + 1) * 8 + 1,
                _ => column += 1,
            }
        }
        LineCol { line, column }
    }

    #[test]
    fn every_kind_of_line_agrees_with_walking_the_characters() {
        let text =
            "plain ascii\n\ttab then text\n\u{e9}t\u{e9} and \u{1d51e}\n\t\u{e9}\tboth\n\nend";
        let index = LineIndex::new(text);
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            assert_eq!(
                index.line_col(text, offset),
                walked(text, offset, false),
                "{offset}"
            );
            assert_eq!(
                index.display_line_col(text, offset),
                walked(text, offset, true),
                "{offset}"
            );
        }
    }
}
