//! Python's built-in behaviour that tarski and Text2World's scorer depend on: whitespace,
//! `strip`, slicing by code point, `round` and the `repr` of a float.

/// Python's `str.strip()` with no argument: strips the characters for which `str.isspace()` is
/// true.
pub fn strip(text: &str) -> &str {
    text.trim_matches(isspace)
}

/// `str.isspace()`: Unicode White_Space plus the ASCII separators U+001C..U+001F that Python
/// counts as whitespace (bidirectional class B or S).
pub fn isspace(c: char) -> bool {
    matches!(c, '\u{1c}'..='\u{1f}') || c.is_whitespace()
}

/// Python's `s[1:-1]`, by code point.
pub fn slice_inner(s: &str) -> &str {
    let mut chars = s.char_indices();
    let start = match chars.next() {
        Some((_, c)) => c.len_utf8(),
        None => return "",
    };
    let end = match s.char_indices().next_back() {
        Some((i, _)) => i,
        None => return "",
    };
    s.get(start..end).unwrap_or("")
}

/// Python's `round(x, 1)` on a float: the decimal with one fractional digit nearest to the
/// exact binary value of `x` (ties, which only exact binary values can be, to even), read back
/// as the nearest float.
pub fn round1(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let bits = x.to_bits();
    let negative = bits >> 63 == 1;
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    // |x| = mantissa * 2^exponent exactly.
    let (mantissa, exponent) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    };
    if exponent >= 0 {
        return x; // An integer already.
    }
    // tenths = |x| * 10 = scaled / 2^shift; round it to an integer, ties to even.
    let scaled = u128::from(mantissa) * 10;
    let shift = (-exponent) as u32;
    let tenths: u128 = if shift >= 120 {
        0 // scaled < 2^57, far below one half of 2^shift.
    } else {
        let quotient = scaled >> shift;
        let remainder = scaled & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        if remainder > half || (remainder == half && quotient % 2 == 1) {
            quotient + 1
        } else {
            quotient
        }
    };
    // The nearest float to `tenths / 10`, as Python reads the decimal back: both operands are
    // exact below 2^53, and IEEE division rounds the exact quotient to the nearest float.
    if tenths < 1 << 53 {
        let rounded = tenths as f64 / 10.0;
        return if negative { -rounded } else { rounded };
    }
    let text = format!(
        "{}{}.{}",
        if negative { "-" } else { "" },
        tenths / 10,
        tenths % 10
    );
    text.parse().unwrap_or(x)
}

/// Python's `repr(float)`: the shortest digits that read back to `x`, in fixed notation when
/// the decimal exponent is in `-4..16` (always with a fractional part), else as `d.ddde+XX`.
pub fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    // Rust's `{:e}` writes the shortest round-trip digits: `-1.2345e-7`.
    let scientific = format!("{x:e}");
    let (mantissa, exponent) = scientific
        .split_once('e')
        .unwrap_or((scientific.as_str(), "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    if (-4..16).contains(&exponent) {
        let point = exponent + 1;
        let body = if point <= 0 {
            format!("0.{}{}", "0".repeat((-point) as usize), digits)
        } else if point as usize >= digits.len() {
            format!("{}{}.0", digits, "0".repeat(point as usize - digits.len()))
        } else {
            let (int, frac) = digits.split_at(point as usize);
            format!("{int}.{frac}")
        };
        format!("{sign}{body}")
    } else {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        let mantissa = if rest.is_empty() {
            first.to_string()
        } else {
            format!("{first}.{rest}")
        };
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        format!("{sign}{mantissa}e{exp_sign}{:02}", exponent.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::{float_repr, round1, slice_inner, strip};

    #[test]
    fn round_is_pythons() {
        assert_eq!(round1(0.25), 0.2);
        assert_eq!(round1(0.35), 0.3); // 0.35 is below the tie in binary.
        assert_eq!(round1(0.45), 0.5); // 0.45 is above it.
        assert_eq!(round1(66.66666666666667), 66.7);
        assert_eq!(round1(2.5), 2.5);
        assert_eq!(round1(-0.25), -0.2);
        assert_eq!(round1(1e-300), 0.0);
        assert_eq!(round1(123456.75), 123456.8);
        assert_eq!(round1(0.8610169491525423 * 100.0), 86.1);
        assert_eq!(round1(-0.04), -0.0);
        assert!(round1(-0.04).is_sign_negative());
        assert_eq!(round1(1e300), 1e300);
    }

    #[test]
    fn round_reads_its_decimal_back_as_python_does() {
        // The decimal `round` arrives at, written out and parsed, for ratios as the metrics
        // produce them and for large values.
        let decimal = |x: f64| -> f64 {
            let tenths = (x.abs() * 10.0).round_ties_even() as u64;
            let sign = if x < 0.0 { "-" } else { "" };
            format!("{sign}{}.{}", tenths / 10, tenths % 10)
                .parse()
                .unwrap_or(f64::NAN)
        };
        for numerator in 0..=1000u32 {
            for denominator in [1u32, 3, 7, 9, 11, 59, 97, 1000] {
                let x = f64::from(numerator) / f64::from(denominator) * 100.0;
                let exact_tie = (x * 10.0).fract() == 0.5;
                if !exact_tie {
                    assert_eq!(round1(x), decimal(x), "{x}");
                    assert_eq!(round1(-x), decimal(-x), "{x}");
                }
            }
        }
        assert_eq!(round1(1e15 + 0.25), 1e15 + 0.2);
    }

    #[test]
    fn float_repr_is_pythons() {
        assert_eq!(float_repr(10.0), "10.0");
        assert_eq!(float_repr(1.5), "1.5");
        assert_eq!(float_repr(-0.25), "-0.25");
        assert_eq!(float_repr(0.0001), "0.0001");
        assert_eq!(float_repr(0.00001), "1e-05");
        assert_eq!(float_repr(1e16), "1e+16");
        assert_eq!(float_repr(123456789012345680.0), "1.2345678901234568e+17");
        assert_eq!(float_repr(0.1 + 0.2), "0.30000000000000004");
    }

    #[test]
    fn strip_and_slice_are_pythons() {
        assert_eq!(strip("\u{1c}\u{a0} a b\u{3000}"), "a b");
        assert_eq!(strip("\u{200b}a"), "\u{200b}a");
        assert_eq!(slice_inner("(é)"), "é");
        assert_eq!(slice_inner("é"), "");
        assert_eq!(slice_inner(""), "");
    }
}
