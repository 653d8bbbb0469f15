//! The one LaTeX escaper: any text the project puts in a LaTeX table (titles, headers, cells,
//! run names, captions) goes through [`escape`], so that it compiles under a plain `pdflatex`
//! with the default fonts (OT1, no extra package), in text mode.
//!
//! Written by hand: the crates that escape LaTeX stop at the ten special characters, and what
//! breaks a `pdflatex` run here is the non-ASCII the tables themselves print ("—", "−", "≥",
//! "×", …) and `<` `>`, which OT1 prints as "¡" "¿".

/// `s` as LaTeX text: the special characters escaped, every non-ASCII character the project
/// emits written as LaTeX, Latin-1 letters kept (LaTeX reads UTF-8 input), and any other
/// character spelled `[U+XXXX]` rather than left to fail the run.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            '|' => out.push_str("\\textbar{}"),
            c if c.is_ascii() => out.push(c),
            c => out.push_str(&non_ascii(c)),
        }
    }
    out
}

/// A non-ASCII character as LaTeX text.
fn non_ascii(c: char) -> String {
    let tex = match c {
        '—' => "---",
        '–' => "--",
        '−' => "$-$",
        '≥' => "$\\geq$",
        '≤' => "$\\leq$",
        '±' => "$\\pm$",
        '×' => "$\\times$",
        '÷' => "$\\div$",
        '→' => "$\\rightarrow$",
        '←' => "$\\leftarrow$",
        '≈' => "$\\approx$",
        '≠' => "$\\neq$",
        '·' => "$\\cdot$",
        '…' => "\\ldots{}",
        'µ' | 'μ' => "$\\mu$",
        'α' => "$\\alpha$",
        '°' => "$^{\\circ}$",
        '§' => "\\S{}",
        '‘' => "`",
        '’' => "'",
        '“' => "``",
        '”' => "''",
        '\u{a0}' => "~",
        '✅' => "[pass]",
        '❌' => "[fail]",
        // Latin-1 letters: LaTeX's UTF-8 input composes them with OT1 accents.
        'À'..='ÿ' => return c.to_string(),
        _ => return format!("[U+{:04X}]", c as u32),
    };
    tex.to_string()
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn specials_and_the_projects_symbols_become_latex() {
        for (text, tex) in [
            ("a_b & 50% #1 $x {y}", "a\\_b \\& 50\\% \\#1 \\$x \\{y\\}"),
            (
                "~^\\",
                "\\textasciitilde{}\\textasciicircum{}\\textbackslash{}",
            ),
            (
                "p < 0.05, n > 3",
                "p \\textless{} 0.05, n \\textgreater{} 3",
            ),
            ("A — B", "A --- B"),
            ("0.43–0.50", "0.43--0.50"),
            ("−0.5", "$-$0.5"),
            ("≥ 3 ≤ 4", "$\\geq$ 3 $\\leq$ 4"),
            ("±0.1", "$\\pm$0.1"),
            ("1.67×", "1.67$\\times$"),
            ("a → b · c…", "a $\\rightarrow$ b $\\cdot$ c\\ldots{}"),
            ("12 µs", "12 $\\mu$s"),
            ("spec §C.3", "spec \\S{}C.3"),
            ("café", "café"),
            ("😀", "[U+1F600]"),
        ] {
            assert_eq!(escape(text), tex, "{text}");
        }
    }

    #[test]
    fn every_character_left_as_is_is_printable_ascii_or_a_latin_1_letter() {
        let all: String = (0u32..0x3000).filter_map(char::from_u32).collect();
        for c in escape(&all).chars() {
            assert!(
                c.is_ascii() || ('À'..='ÿ').contains(&c),
                "{c:?} left in LaTeX output"
            );
        }
    }
}
