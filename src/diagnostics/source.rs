//! Source texts as renderers see them, and byte offset to line/column conversion.

/// A named input: what a renderer needs to show a label in context.
#[derive(Clone, Debug)]
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
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { line_starts }
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
        let column = text[line_start..offset].chars().count() + 1;
        LineCol { line, column }
    }

    /// The line and display column of byte `offset`, as GCC counts columns: a tab advances to
    /// the next multiple of 8, any other character counts one. Emacs and Vim land on the same
    /// screen column for tab-indented files.
    pub fn display_line_col(&self, text: &str, offset: usize) -> LineCol {
        let at = self.line_col(text, offset);
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
}
