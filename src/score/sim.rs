//! SIM: indel-normalised edit similarity (python-Levenshtein's `ratio`) over code points.
//!
//! python-Levenshtein 0.25.1 delegates `ratio` to rapidfuzz's `Indel.normalized_similarity`,
//! which computes `1.0 - InDel / (len1 + len2)` in that float order (not
//! `(len1 + len2 - InDel) / (len1 + len2)`, which rounds differently). InDel, the edit distance
//! with insertions and deletions only, is `len1 + len2 - 2 * LCS`; the LCS length comes from the
//! bit-parallel algorithm of Allison–Dix and Hyyrö, one machine word per 64 code points of the
//! shorter string, so even long domains take microseconds.

use std::collections::HashMap;

/// python-Levenshtein's `ratio(a, b)`: `1.0 - InDel(a, b) / (len(a) + len(b))` over Unicode code
/// points, and `1.0` for two empty strings.
pub fn ratio(a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    ratio_chars(&a, &b)
}

fn ratio_chars(a: &[char], b: &[char]) -> f64 {
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
    let gold = squeeze(&purge_comments(gold));
    let pred = squeeze(&purge_comments(pred));
    ratio_chars(&gold, &pred)
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

/// The code points of `text` without those Python's `re` matches with `\s` (the characters for
/// which `str.isspace()` holds).
fn squeeze(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| !crate::text2world::python::isspace(c))
        .collect()
}

/// The length of a longest common subsequence of `a` and `b`.
///
/// Bit-parallel (Hyyrö 2004): the shorter string is the pattern; bit `i` of `V` is 1 while
/// pattern position `i` is not yet matched. For each character `c` of the text, with `M` the
/// positions of `c` in the pattern, `V ← (V + (V & M)) | (V & !M)`, the addition carrying across
/// words. The LCS length is the number of zero bits in the pattern's span of `V`.
pub fn lcs_len(a: &[char], b: &[char]) -> usize {
    let (pattern, text) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if pattern.is_empty() {
        return 0;
    }
    let words = pattern.len().div_ceil(64);
    // One mask row per distinct character of the pattern; ASCII characters find their row
    // through a table, the others through a map.
    let mut ascii: [u32; 128] = [u32::MAX; 128];
    let mut other: HashMap<char, u32> = HashMap::new();
    let mut masks: Vec<u64> = Vec::new();
    for (i, &c) in pattern.iter().enumerate() {
        let slot = if (c as u32) < 128 {
            &mut ascii[c as usize]
        } else {
            other.entry(c).or_insert(u32::MAX)
        };
        if *slot == u32::MAX {
            *slot = (masks.len() / words) as u32;
            masks.resize(masks.len() + words, 0);
        }
        let row = *slot as usize * words;
        masks[row + i / 64] |= 1u64 << (i % 64);
    }
    let mut v = vec![u64::MAX; words];
    for &c in text {
        let row = if (c as u32) < 128 {
            ascii[c as usize]
        } else {
            other.get(&c).copied().unwrap_or(u32::MAX)
        };
        if row == u32::MAX {
            continue;
        }
        let m = &masks[row as usize * words..(row as usize + 1) * words];
        let mut carry = 0u64;
        for (word, &mask) in v.iter_mut().zip(m) {
            let x = *word & mask;
            let (sum, c1) = word.overflowing_add(x);
            let (sum, c2) = sum.overflowing_add(carry);
            carry = u64::from(c1 || c2);
            *word = sum | (*word & !mask);
        }
    }
    let ones: usize = v
        .iter()
        .enumerate()
        .map(|(w, &word)| {
            let bits = (pattern.len() - w * 64).min(64);
            let span = if bits == 64 {
                word
            } else {
                word & ((1u64 << bits) - 1)
            };
            span.count_ones() as usize
        })
        .sum();
    pattern.len() - ones
}

#[cfg(test)]
mod tests {
    use super::{lcs_len, purge_comments, ratio, text2world_sim};

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
