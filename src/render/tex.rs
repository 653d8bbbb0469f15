//! The one LaTeX escaper: any text the project puts in a LaTeX table (titles, headers, cells,
//! run names, captions) goes through [`escape`], so that it compiles under a plain `pdflatex`
//! with the default fonts (OT1, no extra package), in text mode.
//!
//! Written by hand: the crates that escape LaTeX stop at the ten special characters, and what
//! breaks a `pdflatex` run here is the non-ASCII the tables themselves print ("—", "−", "≥",
//! "×", …) and `<` `>`, which OT1 prints as "¡" "¿". [`tabular`] lays a table out in booktabs,
//! fitted to the page (`\small`, tabularx for long cells, adjustbox otherwise).

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

/// The packages the output needs, for the comment that heads each table.
pub(crate) const PACKAGES: &str = "booktabs,adjustbox,tabularx";

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
