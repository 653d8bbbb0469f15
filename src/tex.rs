//! LaTeX for the tables tenure-eval writes (`tables`, `claims`, `compare --format latex`):
//! text escaped so that pdflatex compiles it with its default fonts, and a tabular fitted to
//! the page. Written by hand: no crate escapes for pdflatex's OT1/T1 fonts, and it is a table
//! of characters.
//!
//! pdflatex's text fonts have no `<`, `>` or `|` (OT1 prints "¡" for `<`: "p ¡ 0.05") and
//! stop at a character its UTF-8 input does not define (`≥`, `×`, `→`); every such
//! character is mapped to its LaTeX command. A character outside the table is written as
//! `[U+XXXX]`, so a document always compiles and the character is still named.

/// The packages the output needs, for the comment that heads each table.
pub const PACKAGES: &str = "booktabs,adjustbox";

/// `s` with LaTeX's special characters escaped and every non-ASCII character mapped.
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
            '"' => out.push_str("\\textquotedbl{}"),
            c if c.is_ascii() => out.push(c),
            c => out.push_str(&non_ascii(c)),
        }
    }
    out
}

/// The LaTeX for a non-ASCII character.
fn non_ascii(c: char) -> String {
    let mapped = match c {
        '—' => "---",
        '–' => "--",
        '−' => "$-$",
        '≥' => "$\\geq$",
        '≤' => "$\\leq$",
        '≠' => "$\\neq$",
        '≈' => "$\\approx$",
        '×' => "$\\times$",
        '·' => "$\\cdot$",
        '±' => "$\\pm$",
        '→' => "$\\rightarrow$",
        '←' => "$\\leftarrow$",
        '↔' => "$\\leftrightarrow$",
        '∞' => "$\\infty$",
        '…' => "\\ldots{}",
        '“' => "``",
        '”' => "''",
        '‘' => "`",
        '’' => "'",
        '«' => "<<",
        '»' => ">>",
        '•' => "$\\bullet$",
        '✓' => "yes",
        '✗' => "no",
        'α' => "$\\alpha$",
        'β' => "$\\beta$",
        'Δ' => "$\\Delta$",
        'δ' => "$\\delta$",
        'μ' | 'µ' => "$\\mu$",
        'σ' => "$\\sigma$",
        'τ' => "$\\tau$",
        'χ' => "$\\chi$",
        '²' => "$^2$",
        '\u{a0}' => "~",
        'é' => "\\'e",
        'è' => "\\`e",
        'ë' => "\\\"e",
        'á' => "\\'a",
        'à' => "\\`a",
        'ä' => "\\\"a",
        'ö' => "\\\"o",
        'ü' => "\\\"u",
        'ñ' => "\\~n",
        'ç' => "\\c{c}",
        _ => return format!("[U+{:04X}]", c as u32),
    };
    mapped.to_string()
}

/// A booktabs tabular of `header` and `rows` (first column left, the rest right), in
/// `\small`, shrunk to the line width when wider (adjustbox's `max width`, which never
/// enlarges a narrow table), with `title` as a comment above. Cells are escaped here.
pub fn tabular(title: &str, header: &[String], rows: &[Vec<String>]) -> String {
    let columns = format!("l{}", "r".repeat(header.len().saturating_sub(1)));
    let line = |cells: &[String]| {
        cells
            .iter()
            .map(|c| escape(c))
            .collect::<Vec<_>>()
            .join(" & ")
            + " \\\\\n"
    };
    let mut out = format!(
        "% {}\n% needs \\usepackage{{{PACKAGES}}}\n{{\\small\n\\begin{{adjustbox}}{{max width=\\linewidth}}\n\\begin{{tabular}}{{{columns}}}\n\\toprule\n",
        escape(title).replace('\n', " ")
    );
    out.push_str(&line(header));
    out.push_str("\\midrule\n");
    for row in rows {
        out.push_str(&line(row));
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n\\end{adjustbox}}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn what_pdflatex_cannot_print_is_mapped() {
        assert_eq!(escape("p < 0.05"), "p \\textless{} 0.05");
        assert_eq!(escape("≥ 3 × 2"), "$\\geq$ 3 $\\times$ 2");
        assert_eq!(escape("a_b 50%"), "a\\_b 50\\%");
        assert_eq!(escape("漢"), "[U+6F22]");
        assert!(escape("—–−·→…").is_ascii());
    }
}
