//! Slot names (semantics §3): `[0]` the output, `[A1]`–`[C3]` the grid row by row,
//! `[I1]`–`[I36]` the inventory (slots 10–45).

const GRID: [&str; 9] = ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"];

/// A slot's name, brackets included (`[I1]` for 10). Indexes past the inventory are named as
/// Plancraft's parser would read them (`[I37]` for 46).
pub fn slot_name(slot: usize) -> String {
    match slot {
        0 => "[0]".to_string(),
        1..=9 => format!("[{}]", GRID[slot - 1]),
        _ => format!("[I{}]", slot - 9),
    }
}

/// A slot's index from its name, as Plancraft's `convert_to_slot_index` reads it: `[0]` and
/// the grid names exactly, otherwise 4–5 characters, `I` second, not `0` third, the number
/// between plus 9 (so `[I37]` reads 46, which the range checks reject later). `None` where
/// it raises.
pub fn slot_index(text: &str) -> Option<usize> {
    let text = text.trim();
    if text == "[0]" {
        return Some(0);
    }
    if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']'))
        && let Some(i) = GRID.iter().position(|g| *g == inner)
    {
        return Some(i + 1);
    }
    let chars: Vec<char> = text.chars().collect();
    if !(4..=5).contains(&chars.len()) || chars[1] != 'I' || chars[2] == '0' {
        return None;
    }
    let digits: String = chars[2..chars.len() - 1].iter().collect();
    digits.parse::<usize>().ok().map(|n| n + 9)
}
