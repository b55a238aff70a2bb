//! Byte offsets ↔ LSP positions: lines, and columns in UTF-16 code units as the protocol
//! requires (a `é` in a comment is one unit, an emoji two, whatever their length in bytes).

use lsp_types::{Position, Range};
use pddlc::ast::Span;

/// Start offsets of the lines of one text, for conversions in both directions.
pub struct Utf16Index<'t> {
    text: &'t str,
    line_starts: Vec<usize>,
}

impl<'t> Utf16Index<'t> {
    pub fn new(text: &'t str) -> Utf16Index<'t> {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Utf16Index { text, line_starts }
    }

    /// The position of byte `offset`. Offsets past the end are clamped to the end, and offsets
    /// inside a multi-byte character to its start.
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let start = self.line_starts[line];
        let character: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, character as u32)
    }

    pub fn range(&self, span: Span) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The byte offset of `position`. A line past the end is the end of the text; a character
    /// past the end of its line is the line's end (before its `\n` or `\r\n`); a character
    /// that falls inside a surrogate pair is the start of that character.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.line_starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .line_starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let line = &self.text[start..end];
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units + c.len_utf16() > position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        start + line.len()
    }

    pub fn span(&self, range: Range) -> Span {
        let (start, end) = (self.offset(range.start), self.offset(range.end));
        Span::new(start.min(end), end.max(start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        // `é` is 2 bytes and 1 unit; `😀` is 4 bytes and 2 units.
        let text = "; é😀\n(p)\r\nx";
        let index = Utf16Index::new(text);
        assert_eq!(index.position(0), Position::new(0, 0));
        assert_eq!(index.position(2), Position::new(0, 2));
        assert_eq!(index.position(4), Position::new(0, 3));
        assert_eq!(index.position(8), Position::new(0, 5));
        assert_eq!(index.position(9), Position::new(1, 0));
        assert_eq!(index.position(11), Position::new(1, 2));
        assert_eq!(index.position(14), Position::new(2, 0));
        // Inside `😀`, and past the end.
        assert_eq!(index.position(6), Position::new(0, 3));
        assert_eq!(index.position(99), Position::new(2, 1));
    }

    #[test]
    fn offsets_round_trip_and_clamp() {
        let text = "; é😀\n(p)\r\nx";
        let index = Utf16Index::new(text);
        for offset in [0, 2, 4, 8, 9, 11, 14, 15] {
            assert_eq!(index.offset(index.position(offset)), offset, "{offset}");
        }
        // Inside the surrogate pair: the emoji's start. Past a line's end: before `\r\n`.
        assert_eq!(index.offset(Position::new(0, 4)), 4);
        assert_eq!(index.offset(Position::new(1, 40)), 12);
        assert_eq!(index.offset(Position::new(0, 40)), 8);
        assert_eq!(index.offset(Position::new(9, 0)), text.len());
    }
}
