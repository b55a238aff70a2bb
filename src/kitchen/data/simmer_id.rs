//! Simmer's object ids, `lettuce_1`: a class name, `_`, an instance number. Simmer reads them
//! in three ways, each in one place of its code, and the executor and the compiler must read
//! them as it does; this type is the one place pddlc parses them.

/// An object id as Simmer writes it (`lettuce_1`, `sink_2`, `rosemary_oil_1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimmerId<'a> {
    id: &'a str,
    /// The id split at its last `_`, when there is one.
    split: Option<(&'a str, &'a str)>,
}

impl<'a> SimmerId<'a> {
    pub fn parse(id: &'a str) -> SimmerId<'a> {
        SimmerId {
            id,
            split: id.rsplit_once('_'),
        }
    }

    /// The class of the id: the part before the last `_` when the rest is a number
    /// (`rosemary_oil_1` is a `rosemary_oil`), else the whole id. COMBINE names its product's
    /// class so, and the compiler names a spare's.
    pub fn class(&self) -> &'a str {
        match self.split {
            Some((head, tail)) if !tail.is_empty() && tail.chars().all(|c| c.is_ascii_digit()) => {
                head
            }
            _ => self.id,
        }
    }

    /// The part before the last `_`, whatever follows it (`lettuce_chunks` of
    /// `lettuce_chunks_1`, `board` of `board_x`): Simmer's base for a derivative of an object
    /// that does not exist.
    pub fn stem(&self) -> &'a str {
        self.split.map_or(self.id, |(head, _)| head)
    }

    /// The id without its trailing `_` and digits (`fridge` of `fridge_1`): Simmer's reading
    /// of a location as a storage place (`rstrip("_0123456789")`).
    pub fn place(&self) -> &'a str {
        self.id
            .trim_end_matches(|c: char| c == '_' || c.is_ascii_digit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_an_id_the_three_ways_simmer_does() {
        let id = SimmerId::parse("rosemary_oil_12");
        assert_eq!(
            (id.class(), id.stem(), id.place()),
            ("rosemary_oil", "rosemary_oil", "rosemary_oil")
        );
        let odd = SimmerId::parse("board_x");
        assert_eq!(
            (odd.class(), odd.stem(), odd.place()),
            ("board_x", "board", "board_x")
        );
        let bare = SimmerId::parse("sink2");
        assert_eq!(
            (bare.class(), bare.stem(), bare.place()),
            ("sink2", "sink2", "sink")
        );
    }
}
