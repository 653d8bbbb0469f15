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
pub const PACKAGES: &str = "booktabs,adjustbox,tabularx";

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
            // OT1 has no straight double quote: a typographic one.
            '"' => out.push_str("''"),
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
        '§' => "\\S{}",
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

/// Cells longer than this make their column a paragraph column (`tabularx`'s `X`).
const LONG: usize = 40;

/// A booktabs table of `header` and `rows` in `\small`, fitted to the line width, with
/// `title` as a comment above; cells are escaped here. A column with a cell longer than 40
/// characters wraps (a ragged-right `X` column of a `tabularx` as wide as the line); a table
/// without one is a `tabular` shrunk to the line width when wider (adjustbox's `max width`,
/// which never enlarges a narrow table). The first column is left-aligned, the others right.
pub fn tabular(title: &str, header: &[String], rows: &[Vec<String>]) -> String {
    let long: Vec<bool> = (0..header.len())
        .map(|k| {
            std::iter::once(header)
                .chain(rows.iter().map(Vec::as_slice))
                .any(|r| r.get(k).is_some_and(|c| c.chars().count() > LONG))
        })
        .collect();
    let wraps = long.iter().any(|l| *l);
    let columns: String = long
        .iter()
        .enumerate()
        .map(|(k, l)| match (l, k) {
            (true, _) => ">{\\raggedright\\arraybackslash}X",
            (false, 0) => "l",
            (false, _) => "r",
        })
        .collect();
    let line = |cells: &[String]| {
        cells
            .iter()
            .enumerate()
            .map(|(k, c)| match long.get(k) {
                Some(true) => breakable(c),
                _ => escape(c),
            })
            .collect::<Vec<_>>()
            .join(" & ")
            + " \\\\\n"
    };
    let (open, close) = if wraps {
        (
            format!("\\noindent\n\\begin{{tabularx}}{{\\linewidth}}{{{columns}}}\n"),
            "\\end{tabularx}\n".to_string(),
        )
    } else {
        (
            format!(
                "\\noindent\n\\begin{{adjustbox}}{{max width=\\linewidth}}\n\\begin{{tabular}}{{{columns}}}\n"
            ),
            "\\end{tabular}\n\\end{adjustbox}\n".to_string(),
        )
    };
    let mut out = format!(
        "% {}\n% needs \\usepackage{{{PACKAGES}}}\n{{\\small\n{open}\\toprule\n",
        escape(title).replace('\n', " ")
    );
    out.push_str(&line(header));
    out.push_str("\\midrule\n");
    for row in rows {
        out.push_str(&line(row));
    }
    out.push_str(&format!("\\bottomrule\n{close}}}\n"));
    out
}

/// [`escape`], with a line break allowed after each `-` and `_`: a paragraph column cannot
/// otherwise break a long case id (`session-drift-noise-10-turns-implicit-redis`).
fn breakable(s: &str) -> String {
    s.split('-')
        .map(|part| escape(part).replace("\\_", "\\_\\allowbreak{}"))
        .collect::<Vec<_>>()
        .join("-\\allowbreak{}")
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
