//! SIM: indel-normalised edit similarity (python-Levenshtein's `ratio`) over code points.
//!
//! python-Levenshtein 0.25.1 delegates `ratio` to rapidfuzz's `Indel.normalized_similarity`,
//! which computes `1.0 - InDel / (len1 + len2)` in that float order (not
//! `(len1 + len2 - InDel) / (len1 + len2)`, which rounds differently). InDel, the edit distance
//! with insertions and deletions only, is `len1 + len2 - 2 * LCS`.
//!
//! The LCS length comes from the bit-parallel algorithm of Allison–Dix and Hyyrö, one machine
//! word per 64 code points of the shorter string, after what cannot change the result is taken
//! away: the common prefix and suffix (a prediction is mostly its gold with a few edits), and
//! the pattern's code points that the text never uses. Runs of one code point stop costing once
//! they no longer change the state, and the scan stops once every pattern position is matched,
//! so hostile inputs (megabytes of `(`, or one long name) cost time linear in their length.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

/// python-Levenshtein's `ratio(a, b)`: `1.0 - InDel(a, b) / (len(a) + len(b))` over Unicode code
/// points, and `1.0` for two empty strings.
pub fn ratio(a: &str, b: &str) -> f64 {
    if a.is_ascii() && b.is_ascii() {
        return ratio_of(a.as_bytes(), b.as_bytes());
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    ratio_of(&a, &b)
}

fn ratio_of<T: Symbol>(a: &[T], b: &[T]) -> f64 {
    let total = a.len() + b.len();
    if total == 0 {
        return 1.0;
    }
    let indel = total - 2 * lcs_len(a, b);
    1.0 - indel as f64 / total as f64
}

/// Text2World's SIM before rounding: both texts lose their comments (`_purge_comments`) and
/// every Unicode whitespace character (`re.sub(r'\s+', '', …)`), then [`ratio`].
pub fn text2world_sim(gold: &str, pred: &str) -> f64 {
    squeezed_ratio(&Squeezed::new(gold), &Squeezed::new(pred))
}

/// A text as Text2World's SIM compares it: without comments and whitespace ([`squeeze`]);
/// bytes when the text is ASCII, else code points.
#[derive(Clone, Debug)]
pub enum Squeezed {
    Ascii(Vec<u8>),
    Unicode(Vec<char>),
}

impl Squeezed {
    pub fn new(text: &str) -> Squeezed {
        if text.is_ascii() {
            Squeezed::Ascii(squeeze_ascii(text))
        } else {
            Squeezed::Unicode(squeeze(text.chars(), text.len()))
        }
    }

    fn chars(&self) -> Vec<char> {
        match self {
            Squeezed::Ascii(bytes) => bytes.iter().map(|&b| char::from(b)).collect(),
            Squeezed::Unicode(chars) => chars.clone(),
        }
    }
}

/// [`ratio`] of two squeezed texts: [`text2world_sim`] with the texts squeezed beforehand.
pub fn squeezed_ratio(gold: &Squeezed, pred: &Squeezed) -> f64 {
    match (gold, pred) {
        (Squeezed::Ascii(gold), Squeezed::Ascii(pred)) => ratio_of(gold, pred),
        (Squeezed::Unicode(gold), Squeezed::Unicode(pred)) => ratio_of(gold, pred),
        _ => ratio_of(&gold.chars(), &pred.chars()),
    }
}

/// The `_purge_comments` loop of Text2World's `utils/pddl.py`: while `;(.*)\n` matches, cut
/// from the `;` up to (not including) the `\n`. `.` matches anything but `\n` (so a `\r` too),
/// so this truncates every `\n`-terminated line at its first `;`; a comment on a last line
/// without `\n` stays. (The blank-line collapsing that follows only changes whitespace, which
/// SIM removes anyway.)
pub fn purge_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(newline) = rest.find('\n') {
        let line = &rest[..newline];
        out.push_str(line.find(';').map_or(line, |semicolon| &line[..semicolon]));
        out.push('\n');
        rest = &rest[newline + 1..];
    }
    out.push_str(rest);
    out
}

/// The code points SIM compares: [`purge_comments`], then without those Python's `re` matches
/// with `\s` (the characters for which `str.isspace()` holds), in one pass over the text.
fn squeeze<T: Symbol>(text: impl Iterator<Item = T>, capacity: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(capacity);
    // Where the current line's comment starts in `out`: it goes if a `\n` ends the line.
    let mut comment: Option<usize> = None;
    for symbol in text {
        match class(symbol.code()) {
            Class::Kept => out.push(symbol),
            Class::Space => {}
            Class::Newline => {
                if let Some(start) = comment.take() {
                    out.truncate(start);
                }
            }
            Class::Semicolon => {
                if comment.is_none() {
                    comment = Some(out.len());
                }
                out.push(symbol);
            }
        }
    }
    out
}

/// [`squeeze`] for ASCII text. A `\n`-terminated line loses what follows its first `;`, so the
/// text is cut at each `;` and resumes at the next `\n` (both found with `str::find`, which
/// looks at a word of bytes at a time), and the parts kept lose their whitespace with one
/// table look-up and no branch per byte.
fn squeeze_ascii(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text;
    while let Some(semicolon) = rest.find(';') {
        push_non_space(&rest.as_bytes()[..semicolon], &mut out);
        let comment = &rest[semicolon..];
        match comment.find('\n') {
            Some(newline) => rest = &comment[newline..],
            // A comment on a last line without `\n` stays.
            None => {
                rest = comment;
                break;
            }
        }
    }
    push_non_space(rest.as_bytes(), &mut out);
    out
}

/// Appends the bytes of ASCII `text` that are not Python whitespace to `out`: each byte is
/// written at the end, which moves past it only if it is kept.
fn push_non_space(text: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + text.len(), 0);
    let mut len = start;
    for &b in text {
        if let Some(slot) = out.get_mut(len) {
            *slot = b;
        }
        len += usize::from(ASCII_KEPT[usize::from(b)]);
    }
    out.truncate(len);
}

/// Whether [`squeeze`] keeps an ASCII code point outside comments: not whitespace to Python's
/// `str.isspace()` (`\n` included). A table of all 256 byte values, so that a byte indexes it
/// without a bounds check; the text is ASCII.
const ASCII_KEPT: [bool; 256] = {
    let mut kept = [true; 256];
    let mut code = 0;
    while code < 128 {
        kept[code] = matches!(ASCII_CLASSES[code], Class::Kept | Class::Semicolon);
        code += 1;
    }
    kept
};

/// What [`squeeze`] does with a code point.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Kept,
    /// Python's `str.isspace()`, but `\n`.
    Space,
    Newline,
    Semicolon,
}

/// The class of every ASCII code point.
const ASCII_CLASSES: [Class; 128] = {
    let mut classes = [Class::Kept; 128];
    let spaces: [u8; 9] = [b' ', b'\t', 0x0b, 0x0c, b'\r', 0x1c, 0x1d, 0x1e, 0x1f];
    let mut i = 0;
    while i < spaces.len() {
        classes[spaces[i] as usize] = Class::Space;
        i += 1;
    }
    classes[b'\n' as usize] = Class::Newline;
    classes[b';' as usize] = Class::Semicolon;
    classes
};

#[inline]
fn class(code: u32) -> Class {
    match ASCII_CLASSES.get(code as usize) {
        Some(&class) => class,
        None if char::from_u32(code).is_some_and(crate::text2world::python::isspace) => {
            Class::Space
        }
        None => Class::Kept,
    }
}

/// What the LCS compares: bytes of ASCII text, or code points.
pub trait Symbol: Copy + Eq + std::hash::Hash {
    fn code(self) -> u32;
}

impl Symbol for u8 {
    fn code(self) -> u32 {
        u32::from(self)
    }
}

impl Symbol for char {
    fn code(self) -> u32 {
        u32::from(self)
    }
}

/// The length of a longest common subsequence of `a` and `b`.
pub fn lcs_len<T: Symbol>(a: &[T], b: &[T]) -> usize {
    // A common prefix or suffix is part of some longest common subsequence.
    let prefix = common_prefix(a, b);
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix = common_suffix(a, b);
    let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
    let (pattern, text) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    // Most predictions differ from their gold by a few edits: then Myers' algorithm, whose cost
    // grows with the square of the distance, is far cheaper than the bit-parallel one, whose
    // cost is the product of the lengths. It is given an eighth of that product in steps (one of
    // its steps costs about two machine words of the other).
    let (m, n) = (pattern.len(), text.len());
    let words = m.div_ceil(64);
    let bit_parallel_cost = n * words;
    if let Some(indel) = myers_indel(pattern, text, bit_parallel_cost / 8) {
        return prefix + suffix + (m + n - indel) / 2;
    }
    // Then the bit-parallel LCS on a band of diagonals around the alignment, widened until it
    // holds a longest common subsequence, while the band is narrower than the pattern. Myers'
    // algorithm has shown the distance to exceed about the square root of its budget.
    let mut slack = (bit_parallel_cost / 2).isqrt().max(32);
    let mut masks = None;
    while (n - m + 2 * slack) / 64 + 2 < words * 3 / 4 {
        let masks = masks.get_or_insert_with(|| Masks::new(pattern));
        let lcs = banded_lcs(masks, m, text, slack);
        let indel = m + n - 2 * lcs;
        if indel <= n - m + 2 * slack {
            return prefix + suffix + lcs;
        }
        // The band's common subsequence bounds the distance: a band of the slack that bound
        // asks for surely holds an optimal alignment. Doubling is tried when it is narrower.
        slack = (2 * slack).min((indel - (n - m)).div_ceil(2));
    }
    prefix + suffix + bit_parallel_lcs(pattern, text)
}

/// The InDel distance of `a` and `b` by Myers' greedy algorithm ("An O(ND) difference
/// algorithm", 1986): for each distance `d`, the furthest point reached on every diagonal `k`
/// (`x - y`) with `d` insertions and deletions, each followed along its run of equal
/// symbols. `None` when that would take more than `budget` steps (a diagonal visited or a
/// symbol compared counts as one).
fn myers_indel<T: Symbol>(a: &[T], b: &[T], budget: usize) -> Option<usize> {
    let (n, m) = (a.len(), b.len());
    // Visiting the diagonals of distances up to `d` costs about d²/2 steps, and the distance
    // is at least the difference of the lengths.
    let most = (2 * budget).isqrt() + 1;
    if n.abs_diff(m) > most {
        return None;
    }
    let most = most.min(n + m);
    // `furthest[most + 1 + k]`: the largest x reached on diagonal k (x - y), for the distance
    // of the current pass and, every other diagonal, the one before.
    let middle = most + 1;
    let mut furthest = vec![0usize; 2 * most + 3];
    let mut steps = 0usize;
    for d in 0..=most {
        let (first, last) = (middle - d, middle + d);
        let mut at = first;
        while at <= last {
            // Down from diagonal k + 1, or right from diagonal k - 1, whichever reaches further.
            let mut x = if at == first || (at != last && furthest[at - 1] < furthest[at + 1]) {
                furthest[at + 1]
            } else {
                furthest[at - 1] + 1
            };
            // y = x - k, never negative.
            let mut y = x + middle - at;
            let start = x;
            while x < n && y < m && a[x] == b[y] {
                x += 1;
                y += 1;
            }
            steps += x - start;
            furthest[at] = x;
            if x >= n && y >= m {
                return Some(d);
            }
            at += 2;
        }
        steps += d + 1;
        if steps > budget {
            return None;
        }
    }
    None
}

/// The length of the common prefix, compared a block at a time.
fn common_prefix<T: Symbol>(a: &[T], b: &[T]) -> usize {
    const BLOCK: usize = 32;
    let (mut a_blocks, mut b_blocks) = (a.chunks_exact(BLOCK), b.chunks_exact(BLOCK));
    let mut same = 0;
    while let (Some(x), Some(y)) = (a_blocks.next(), b_blocks.next()) {
        if x != y {
            break;
        }
        same += BLOCK;
    }
    same + a[same..]
        .iter()
        .zip(&b[same..])
        .take_while(|(x, y)| x == y)
        .count()
}

/// The length of the common suffix, compared a block at a time.
fn common_suffix<T: Symbol>(a: &[T], b: &[T]) -> usize {
    const BLOCK: usize = 32;
    let (mut a_blocks, mut b_blocks) = (a.rchunks_exact(BLOCK), b.rchunks_exact(BLOCK));
    let mut same = 0;
    while let (Some(x), Some(y)) = (a_blocks.next(), b_blocks.next()) {
        if x != y {
            break;
        }
        same += BLOCK;
    }
    let (a, b) = (&a[..a.len() - same], &b[..b.len() - same]);
    same + a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

/// No row: a code point the pattern does not hold.
const NO_ROW: u32 = u32::MAX;

/// The rows of the match masks: one per distinct code point of the pattern, found through a
/// table for ASCII and a map for the rest.
struct Alphabet {
    ascii: [u32; 128],
    other: HashMap<u32, u32>,
    rows: u32,
}

impl Alphabet {
    fn new() -> Alphabet {
        Alphabet {
            ascii: [NO_ROW; 128],
            other: HashMap::new(),
            rows: 0,
        }
    }

    #[inline]
    fn row(&self, code: u32) -> u32 {
        match self.ascii.get(code as usize) {
            Some(&row) => row,
            None => self.other.get(&code).copied().unwrap_or(NO_ROW),
        }
    }

    /// The row of `code`, made when it has none.
    fn insert(&mut self, code: u32) -> u32 {
        let slot = match self.ascii.get_mut(code as usize) {
            Some(slot) => slot,
            None => self.other.entry(code).or_insert(NO_ROW),
        };
        if *slot == NO_ROW {
            *slot = self.rows;
            self.rows += 1;
        }
        *slot
    }
}

/// `pattern` without the code points `text` never uses, which no common subsequence holds.
fn used_in<T: Symbol>(pattern: &[T], text: &[T]) -> Vec<T> {
    let mut ascii = [false; 128];
    let mut other = HashSet::new();
    for &c in text {
        match ascii.get_mut(c.code() as usize) {
            Some(seen) => *seen = true,
            None => {
                other.insert(c.code());
            }
        }
    }
    pattern
        .iter()
        .copied()
        .filter(|c| {
            ascii
                .get(c.code() as usize)
                .copied()
                .unwrap_or_else(|| other.contains(&c.code()))
        })
        .collect()
}

/// The match masks of a pattern: for each distinct code point (a row of the alphabet), the
/// bits of its positions, `words` machine words a row.
struct Masks {
    words: usize,
    alphabet: Alphabet,
    masks: Vec<u64>,
}

impl Masks {
    fn new<T: Symbol>(pattern: &[T]) -> Masks {
        let words = pattern.len().div_ceil(64);
        // The rows first, so that the masks are allocated once.
        let mut alphabet = Alphabet::new();
        for &c in pattern {
            alphabet.insert(c.code());
        }
        let mut masks = vec![0u64; alphabet.rows as usize * words];
        for (i, &c) in pattern.iter().enumerate() {
            let row = alphabet.row(c.code()) as usize;
            if let Some(word) = masks.get_mut(row * words + i / 64) {
                *word |= 1u64 << (i % 64);
            }
        }
        Masks {
            words,
            alphabet,
            masks,
        }
    }
}

/// The bits of the last word of `V` that stand for pattern positions.
fn span_of_last_word(len: usize) -> u64 {
    match len % 64 {
        0 => u64::MAX,
        tail => (1u64 << tail) - 1,
    }
}

/// The number of pattern positions `V` leaves unmatched.
fn unmatched(v: &[u64], last_mask: u64) -> usize {
    let (last, rest) = v.split_last().map_or((0, v), |(l, r)| (*l, r));
    rest.iter().map(|w| w.count_ones() as usize).sum::<usize>()
        + (last & last_mask).count_ones() as usize
}

/// The LCS of `pattern` and `text` (`text` no shorter) among the common subsequences whose
/// matched pairs `(i, j)` (pattern position, text position) lie in the band
/// `j - (n - m) - slack <= i <= j + slack`, widened to whole words of `V`: at most the LCS, and
/// equal to it when some longest common subsequence lies in the band, which is so when the
/// InDel distance is at most `(n - m) + 2 * slack` (an alignment that skips `P` pattern
/// positions stays between those diagonals with `slack = P`).
///
/// `masks` are the pattern's ([`Masks::new`]) and `m` its length. It is [`bit_parallel_lcs`]
/// with each text position's matches limited to the words that hold its band: the bit-parallel
/// step computes the LCS over the matches its masks allow, whatever they are. The words below
/// the band then never change, and those above it are all ones, which a carry crosses
/// unchanged, so only the band's words are computed. The band is not cut to its exact edges
/// inside its first and last words: a wider region of allowed matches still gives a common
/// subsequence, and still holds the band.
fn banded_lcs<T: Symbol>(masks: &Masks, m: usize, text: &[T], slack: usize) -> usize {
    let n = text.len();
    if m == 0 {
        return 0;
    }
    let words = masks.words;
    let mut v = vec![u64::MAX; words];
    let skew = n - m;
    for (j, &c) in text.iter().enumerate() {
        let row = masks.alphabet.row(c.code());
        if row == NO_ROW {
            continue;
        }
        let low = j.saturating_sub(skew + slack);
        let high = (j + slack).min(m - 1);
        if low > high {
            continue;
        }
        let (first, last) = (low / 64, high / 64);
        let start = row as usize * words;
        columns(
            &mut v[first..=last],
            &masks.masks[start + first..=start + last],
        );
    }
    m - unmatched(&v, span_of_last_word(m))
}

/// The column step on the words `v` with their `masks` (as many or more).
fn columns(v: &mut [u64], masks: &[u64]) {
    let mut carry = 0;
    for (word, &mask) in v.iter_mut().zip(masks) {
        carry = add_column(word, mask, carry);
    }
}

/// One word of the column step `V ← (V + (V & M)) | (V & !M)`; the carry out.
#[inline]
fn add_column(word: &mut u64, mask: u64, carry: u64) -> u64 {
    let old = *word;
    let matched = old & mask;
    // One add with carry in and out; `old - matched` is `old & !mask`.
    let sum = u128::from(old) + u128::from(matched) + u128::from(carry);
    *word = sum as u64 | (old - matched);
    (sum >> 64) as u64
}

/// The LCS length of `pattern` and `text`, bit-parallel (Hyyrö 2004).
///
/// Bit `i` of `V` is 1 while pattern position `i` is not yet matched. For each character `c` of
/// the text, with `M` the positions of `c` in the pattern, `V ← (V + (V & M)) | (V & !M)`, the
/// addition carrying across words. The LCS length is the number of zero bits of `V`.
///
/// When `V & M` is 0, `V` stays as it is: so the rest of a run of `c` can be skipped. Once
/// every pattern position is matched nothing changes any more, so the scan stops.
fn bit_parallel_lcs<T: Symbol>(pattern: &[T], text: &[T]) -> usize {
    if pattern.is_empty() {
        return 0;
    }
    // A text much longer than the pattern is where dropping the pattern's unusable positions
    // pays (and lets the scan stop early); elsewhere it would cost more than it saves.
    let filtered;
    let pattern = if text.len() > 4 * pattern.len() {
        filtered = used_in(pattern, text);
        filtered.as_slice()
    } else {
        pattern
    };
    if pattern.is_empty() {
        return 0;
    }
    let Masks {
        words,
        alphabet,
        masks,
    } = Masks::new(pattern);
    // Bits past the pattern's end start at 0: they only ever receive carries, which move up.
    let last_mask = span_of_last_word(pattern.len());
    if words == 1 {
        let mut v = last_mask;
        for &c in text {
            let row = alphabet.row(c.code());
            if row == NO_ROW {
                continue;
            }
            let mask = masks[row as usize];
            let matched = v & mask;
            if matched == 0 {
                continue;
            }
            v = v.wrapping_add(matched) | (v & !mask);
            if v & last_mask == 0 {
                return pattern.len();
            }
        }
        return pattern.len() - (v & last_mask).count_ones() as usize;
    }
    let mut v = vec![u64::MAX; words];
    v[words - 1] = last_mask;
    let mut previous = NO_ROW;
    let mut any_matched = true;
    let mut steps = 0u32;
    // Text positions are taken two at a time, so that each word of `V` is loaded and stored
    // once for both; a position waits in `pending` for the next one.
    let mut pending: Option<&[u64]> = None;
    for &c in text {
        let row = alphabet.row(c.code());
        // A code point outside the pattern changes nothing; one that just left `V` as it was
        // leaves it so again.
        if row == NO_ROW || (row == previous && !any_matched) {
            continue;
        }
        previous = row;
        let masks = &masks[row as usize * words..(row as usize + 1) * words];
        match pending.take() {
            None => {
                pending = Some(masks);
                // Whether this position changes `V` is known only once it is applied.
                any_matched = true;
            }
            Some(first) => {
                any_matched = two_columns(&mut v, first, masks);
                steps += 1;
                if steps.is_multiple_of(128) && all_matched(&v, last_mask) {
                    return pattern.len();
                }
            }
        }
    }
    if let Some(last) = pending {
        columns(&mut v, last);
    }
    pattern.len() - unmatched(&v, last_mask)
}

/// Two column steps, with the match masks `first` and `second` of two text positions, on the
/// words `v` in one pass: the second step's word `i` needs only the first step's words up to
/// `i`, so each word is loaded and stored once for both. Whether the second step matched.
fn two_columns(v: &mut [u64], first: &[u64], second: &[u64]) -> bool {
    let (mut carry, mut second_carry, mut matched_bits) = (0, 0, 0);
    for ((word, &mask), &second_mask) in v.iter_mut().zip(first).zip(second) {
        carry = add_column(word, mask, carry);
        matched_bits |= *word & second_mask;
        second_carry = add_column(word, second_mask, second_carry);
    }
    matched_bits != 0
}

fn all_matched(v: &[u64], last_mask: u64) -> bool {
    unmatched(v, last_mask) == 0
}

#[cfg(test)]
mod tests {
    use super::{
        Masks, banded_lcs, lcs_len, myers_indel, purge_comments, ratio, squeeze, squeeze_ascii,
        text2world_sim,
    };

    /// The textbook quadratic LCS table.
    fn lcs_table(a: &[char], b: &[char]) -> usize {
        let mut previous = vec![0usize; b.len() + 1];
        for &x in a {
            let mut current = vec![0usize; b.len() + 1];
            for (j, &y) in b.iter().enumerate() {
                current[j + 1] = if x == y {
                    previous[j] + 1
                } else {
                    previous[j + 1].max(current[j])
                };
            }
            previous = current;
        }
        previous[b.len()]
    }

    /// A small deterministic generator (xorshift64*), so the test needs no dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn ratio_examples() {
        assert_eq!(ratio("ab", "ba"), 0.5);
        assert!((ratio("kitten", "sitting") - 0.6154).abs() < 1e-4);
        assert_eq!(ratio("", ""), 1.0);
        assert_eq!(ratio("abc", ""), 0.0);
        assert_eq!(ratio("same", "same"), 1.0);
        // Code points, not bytes: one substitution is two indels out of four code points.
        assert_eq!(ratio("é", "e"), 0.0);
        assert_eq!(ratio("aé", "ae"), 0.5);
    }

    #[test]
    fn ratio_float_order_is_rapidfuzz() {
        // InDel 1 over 3 code points: 1 - 1/3, which differs from 2/3 in the last bit.
        assert_eq!(ratio("ab", "a"), 1.0 - 1.0 / 3.0);
        assert_ne!(ratio("ab", "a"), 2.0 / 3.0);
    }

    #[test]
    fn lcs_matches_the_quadratic_table() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let alphabets: [&[char]; 3] = [
            &['a', 'b'],
            &['(', ')', 'a', 'n', 'd', '?', 'x', ' '],
            &['a', 'é', '中', '\u{3000}', 'z', '😀'],
        ];
        for round in 0..600 {
            let alphabet = alphabets[round % alphabets.len()];
            // Lengths cross the 64- and 128-bit word boundaries.
            let max = if round % 5 == 0 { 300 } else { 70 };
            let len_a = rng.below(max) as usize;
            let len_b = rng.below(max) as usize;
            let a: Vec<char> = (0..len_a)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect();
            let b: Vec<char> = (0..len_b)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect();
            assert_eq!(lcs_len(&a, &b), lcs_table(&a, &b), "a={a:?} b={b:?}");
            assert_eq!(lcs_len(&b, &a), lcs_table(&a, &b));
        }
    }

    #[test]
    fn myers_distance_is_the_indel_distance_of_the_quadratic_table() {
        let mut rng = Rng(0x5851_f42d_4c95_7f2d);
        let alphabets: [&[char]; 2] = [&['a', 'b'], &['(', ')', 'a', 'n', 'd', '?', 'x', ' ']];
        for round in 0..800 {
            let alphabet = alphabets[round % 2];
            let len_a = rng.below(if round % 7 == 0 { 200 } else { 30 }) as usize;
            let a: Vec<char> = (0..len_a)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect();
            // Half the time `b` is `a` with a few edits, as predictions are.
            let b: Vec<char> = if round % 2 == 0 {
                let mut b = a.clone();
                for _ in 0..rng.below(6) {
                    let at = rng.below(b.len() as u64 + 1) as usize;
                    if rng.below(2) == 0 && at < b.len() {
                        b.remove(at);
                    } else {
                        b.insert(at, alphabet[rng.below(alphabet.len() as u64) as usize]);
                    }
                }
                b
            } else {
                let len_b = rng.below(40) as usize;
                (0..len_b)
                    .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                    .collect()
            };
            let indel = a.len() + b.len() - 2 * lcs_table(&a, &b);
            assert_eq!(
                myers_indel(&a, &b, usize::MAX / 4),
                Some(indel),
                "{a:?} {b:?}"
            );
            assert_eq!(myers_indel(&b, &a, usize::MAX / 4), Some(indel));
            // With a small budget it gives up rather than answer wrongly.
            if let Some(found) = myers_indel(&a, &b, 10) {
                assert_eq!(found, indel);
            }
            assert_eq!(lcs_len(&a, &b), lcs_table(&a, &b));
        }
    }

    #[test]
    fn the_banded_lcs_is_the_lcs_when_the_band_holds_the_alignment() {
        let mut rng = Rng(0x2718_2818_2845_9045);
        let alphabet = ['(', ')', 'a', 'n', 'd', '?', 'x', ' ', 'é'];
        for round in 0..600 {
            let len = 1 + rng.below(if round % 5 == 0 { 400 } else { 150 }) as usize;
            let a: Vec<char> = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect();
            let mut b = a.clone();
            for _ in 0..rng.below(1 + len as u64 / 3) {
                let at = rng.below(b.len() as u64 + 1) as usize;
                if rng.below(2) == 0 && at < b.len() {
                    b.remove(at);
                } else {
                    b.insert(at, alphabet[rng.below(alphabet.len() as u64) as usize]);
                }
            }
            let (pattern, text) = if a.len() <= b.len() {
                (&a, &b)
            } else {
                (&b, &a)
            };
            let lcs = lcs_table(pattern, text);
            let indel = pattern.len() + text.len() - 2 * lcs;
            for slack in [0, 1, 5, 31, 64, 65, 200] {
                let banded = banded_lcs(&Masks::new(pattern), pattern.len(), text, slack);
                assert!(banded <= lcs, "{pattern:?} {text:?} {slack}");
                if indel <= text.len() - pattern.len() + 2 * slack {
                    assert_eq!(banded, lcs, "{pattern:?} {text:?} {slack}");
                }
            }
            assert_eq!(lcs_len(&a, &b), lcs);
        }
    }

    #[test]
    fn lcs_matches_the_quadratic_table_on_runs_and_shared_ends() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let alphabet = ['(', ')', 'a', 'b', 'é', '?'];
        let pick = |rng: &mut Rng, runs: usize| -> Vec<char> {
            let mut out = Vec::new();
            for _ in 0..runs {
                let c = alphabet[rng.below(alphabet.len() as u64) as usize];
                let longest = if rng.below(4) == 0 { 400 } else { 6 };
                let len = 1 + rng.below(longest) as usize;
                out.extend(std::iter::repeat_n(c, len));
            }
            out
        };
        for round in 0..300 {
            let shared_start = pick(&mut rng, round % 4);
            let shared_end = pick(&mut rng, round % 3);
            let a: Vec<char> = [
                shared_start.clone(),
                pick(&mut rng, 1 + round % 30),
                shared_end.clone(),
            ]
            .concat();
            let b: Vec<char> = [shared_start, pick(&mut rng, 1 + round % 7), shared_end].concat();
            assert_eq!(lcs_len(&a, &b), lcs_table(&a, &b), "a={a:?} b={b:?}");
            assert_eq!(lcs_len(&b, &a), lcs_table(&a, &b));
        }
    }

    #[test]
    fn a_text_that_matches_every_pattern_position_stops_early_with_the_right_length() {
        // The pattern is matched in full long before the text ends (the early stop), and in the
        // second case never (the `x` of the pattern is not in the text).
        let pattern: Vec<char> = "(define (d))".chars().collect();
        let text: Vec<char> = "(define (d)) ".repeat(2000).chars().rev().collect();
        assert_eq!(lcs_len(&pattern, &text), lcs_table(&pattern, &text));
        let pattern: Vec<char> = "(dex)".chars().collect();
        assert_eq!(lcs_len(&pattern, &text), lcs_table(&pattern, &text));
        // The same over several machine words.
        let pattern: Vec<char> = "(define (d)) ".repeat(15).chars().collect();
        assert_eq!(lcs_len(&pattern, &text), pattern.len());
        let pattern: Vec<char> = "(define (d)) x".repeat(15).chars().collect();
        assert_eq!(lcs_len(&pattern, &text), lcs_table(&pattern, &text));
    }

    #[test]
    fn hostile_texts_score_exactly() {
        let domain = "(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x) \
                      :precondition (p ?x) :effect (not (p ?x))))";
        let squeezed: Vec<char> = domain.chars().filter(|c| !c.is_whitespace()).collect();
        let count = |c: char| squeezed.iter().filter(|&&x| x == c).count();
        let size = 5 * 1024 * 1024;
        let total = (squeezed.len() + size) as f64;
        for (c, text) in [
            ('(', "(".repeat(size)),
            (')', ")".repeat(size)),
            ('a', "a".repeat(size)),
        ] {
            let lcs = count(c);
            let expected = 1.0 - (total - 2.0 * lcs as f64) / total;
            assert_eq!(text2world_sim(domain, &text), expected, "{c}");
            assert_eq!(text2world_sim(&text, domain), expected, "{c}");
        }
        // One long name of many letters: the LCS is the longest subsequence of the domain's
        // letters and digits, all of which the name holds many times over.
        let name: String = (0..size)
            .map(|i| (b'a' + (i * 7 % 26) as u8) as char)
            .collect();
        let letters = squeezed.iter().filter(|c| c.is_ascii_lowercase()).count();
        let expected = 1.0 - (total - 2.0 * letters as f64) / total;
        assert_eq!(text2world_sim(domain, &name), expected);
    }

    #[test]
    fn squeeze_is_the_comment_purge_then_whitespace_removal() {
        let mut rng = Rng(0x0123_4567_89ab_cdef);
        let alphabet = [
            'a', ';', '\n', '\r', ' ', '\u{1c}', '\u{b}', '(', '\u{a0}', 'é',
        ];
        for round in 0..2000 {
            // Every other text is ASCII.
            let alphabet = &alphabet[..alphabet.len() - 2 * (round % 2)];
            let len = rng.below(40) as usize;
            let text: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect();
            let expected: Vec<char> = purge_comments(&text)
                .chars()
                .filter(|&c| !crate::text2world::python::isspace(c))
                .collect();
            assert_eq!(squeeze(text.chars(), text.len()), expected, "{text:?}");
            if text.is_ascii() {
                let expected: Vec<u8> = expected.iter().map(|&c| c as u8).collect();
                assert_eq!(squeeze_ascii(&text), expected, "{text:?}");
            }
        }
    }

    #[test]
    fn comments_are_purged_per_newline_terminated_line() {
        assert_eq!(purge_comments("a ; x\nb"), "a \nb");
        assert_eq!(purge_comments("a ; x\r\nb"), "a \nb");
        assert_eq!(purge_comments("a\n; last"), "a\n; last");
        assert_eq!(purge_comments("a ;; b ; c\n;\n"), "a \n\n");
        // With CR-only line ends, everything after the first `;` up to the `\n` goes.
        assert_eq!(purge_comments("a ; x\rb\rc\n"), "a \n");
    }

    #[test]
    fn sim_ignores_whitespace_and_comments() {
        assert_eq!(text2world_sim("(a b)\n; c\n", "(a\u{3000}b)\u{1c}"), 1.0);
        assert_eq!(text2world_sim("(a b)", "(a b) ; c"), 1.0 - 2.0 / 10.0);
    }
}
