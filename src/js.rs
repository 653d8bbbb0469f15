//! The few JavaScript semantics the upstream harness leaks into its results.
//!
//! The original suite runs on Node.js: string lengths are UTF-16 code units, `trim` uses the
//! ECMAScript white-space set and `Math.round` rounds halves toward +∞. Reproducing reports
//! exactly means copying these, so they live in one place.

/// ECMAScript `WhiteSpace` + `LineTerminator` (what `\s` and `String.prototype.trim` use).
pub(crate) fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// `String.prototype.trim`.
pub(crate) fn trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// `String.prototype.length`: UTF-16 code units.
pub(crate) fn len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// `s.slice(0, n)` in UTF-16 units, cut back to a char boundary so a surrogate pair is never split.
pub(crate) fn slice_prefix(s: &str, n: usize) -> &str {
    let mut units = 0;
    for (i, c) in s.char_indices() {
        units += c.len_utf16();
        if units > n {
            return &s[..i];
        }
    }
    s
}

/// `Math.round(x)`: nearest integer, halves toward +∞ (`Math.round(-2.5) == -2`).
pub(crate) fn math_round(x: f64) -> f64 {
    let floor = x.floor();
    // x - floor is exact for every finite double, so the half test is exact too.
    if x - floor >= 0.5 {
        floor + 1.0
    } else {
        floor
    }
}

/// `Math.round(x * 100) / 100`, the upstream score rounding.
pub fn round2(x: f64) -> f64 {
    math_round(x * 100.0) / 100.0
}

/// `Math.round(x * 1000) / 1000`, the vector harnesses' score rounding.
pub(crate) fn round3(x: f64) -> f64 {
    math_round(x * 1000.0) / 1000.0
}

/// `Math.round(x * 10000) / 10000`, the upstream rounding of means and rates.
pub fn round4(x: f64) -> f64 {
    math_round(x * 10000.0) / 10000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_round_ties_go_up() {
        assert_eq!(math_round(2.5), 3.0);
        assert_eq!(math_round(-2.5), -2.0);
        assert_eq!(math_round(-2.6), -3.0);
        assert_eq!(math_round(0.49999999999999994), 0.0);
        assert_eq!(round2(1.005), 1.0); // 1.005 * 100 = 100.49999999999999 in doubles, as in JS
        assert_eq!(round2(7.675), 7.68);
    }

    #[test]
    fn utf16_lengths_and_slices() {
        assert_eq!(len("k8s?"), 4);
        assert_eq!(len("😀"), 2);
        assert_eq!(slice_prefix("a😀b", 2), "a");
        assert_eq!(slice_prefix("a😀b", 3), "a😀");
        assert_eq!(trim("\u{FEFF} x \u{3000}"), "x");
    }
}
