//! The one LaTeX escaper: any text the project puts in a LaTeX table (titles, headers, cells,
//! run names, captions) goes through [`escape`], so that it compiles under a plain `pdflatex`
//! with the default fonts (OT1, no extra package), in text mode.
//!
//! Written by hand: the crates that escape LaTeX stop at the ten special characters, and what
//! breaks a `pdflatex` run here is the non-ASCII the tables themselves print ("—", "−", "≥",
//! "×", …) and `<` `>`, which OT1 prints as "¡" "¿". [`table_float`] sets a table as a
//! captioned, labelled float fitted to the text width, in one- or two-column documents.

/// `s` as LaTeX text: the special characters escaped, every non-ASCII character the project
/// emits written as LaTeX, Latin-1 letters kept (LaTeX reads UTF-8 input), and any other
/// character spelled `[U+XXXX]` rather than left to fail the run.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    // Markdown's code spans (`x`) become typewriter text, straight double quotes open and
    // close as TeX quotes: nothing of Markdown reaches TeX.
    let mut code = false;
    let mut quote_open = false;
    for c in s.chars() {
        match c {
            '`' => {
                out.push_str(if code { "}" } else { "\\texttt{" });
                code = !code;
            }
            '"' => {
                out.push_str(if quote_open { "''" } else { "``" });
                quote_open = !quote_open;
            }
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
    if code {
        out.push('}');
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
pub(crate) const PACKAGES: &str = "booktabs,tabularx,caption,adjustbox";

/// Cells longer than this make their column a paragraph column (`tabularx`'s `X`).
const LONG: usize = 20;

/// Text lines per float: a float cannot break across pages, so a longer table is set as several
/// floats, the later ones captioned "(continued)" under the same number. 36 lines and the
/// caption and header fit a page of a 10 pt `article`, in one column or two.
const LINES_PER_FLOAT: usize = 36;

/// Characters a line of the text width holds in the table's font, shared by its paragraph
/// columns (a one-column `article`, the narrower of the two layouts' text widths).
const CHARS_PER_LINE: usize = 70;

/// `rows` cut into floats of at most [`LINES_PER_FLOAT`] lines, a row's lines estimated from
/// its longest paragraph cell (each paragraph column gets an equal share of a line).
fn chunks<'a>(rows: &'a [Vec<String>], long: &[bool], first_x: usize) -> Vec<&'a [Vec<String>]> {
    if rows.is_empty() {
        return vec![&[]];
    }
    let is_x = |k: usize| long.get(k).copied().unwrap_or(false) || k == first_x;
    let paragraphs = (0..long.len()).filter(|k| is_x(*k)).count().max(1);
    // The narrow columns keep their natural width; the paragraph columns share what is left.
    let fixed: usize = (0..long.len())
        .filter(|k| !is_x(*k))
        .map(|k| {
            rows.iter()
                .map(|r| r.get(k).map_or(0, |c| c.chars().count()))
                .max()
                .unwrap_or(0)
                + 2
        })
        .sum();
    let per_line = (CHARS_PER_LINE.saturating_sub(fixed) / paragraphs).max(6);
    let lines = |row: &Vec<String>| -> usize {
        row.iter()
            .enumerate()
            .filter(|(k, _)| is_x(*k))
            .map(|(_, c)| c.chars().count().div_ceil(per_line))
            .max()
            .unwrap_or(1)
            .max(1)
    };
    let mut out = Vec::new();
    let (mut start, mut used) = (0, 0);
    for (i, row) in rows.iter().enumerate() {
        let n = lines(row);
        if used + n > LINES_PER_FLOAT && i > start {
            out.push(&rows[start..i]);
            (start, used) = (i, 0);
        }
        used += n;
    }
    out.push(&rows[start..]);
    out
}

/// Columns from which a table is set in `\footnotesize` (8 pt in a 10 pt document) rather than
/// `\small` (9 pt): the smallest size a paper's table should use.
const MANY_COLUMNS: usize = 7;

/// One group of columns as floats (see [`table_float`]); the first group's first float carries
/// the caption and label, every later float `\ContinuedFloat`.
fn float_group(
    title: &str,
    label: &str,
    header: &[String],
    rows: &[Vec<String>],
    first: bool,
) -> String {
    let long: Vec<bool> = (0..header.len())
        .map(|k| {
            rows.iter()
                .any(|r| r.get(k).is_some_and(|c| c.chars().count() > LONG))
        })
        .collect();
    // At least one X column, so that tabularx has a column to fit the width with.
    let first_x = long.iter().position(|l| *l).unwrap_or(0);
    let columns: String = (0..header.len())
        .map(|k| {
            if long[k] || k == first_x {
                ">{\\raggedright\\arraybackslash}X"
            } else if k == 0 {
                "l"
            } else {
                "r"
            }
        })
        .collect();
    // Many columns: 8 pt, and 4 pt between columns instead of 6.
    let size = if header.len() >= MANY_COLUMNS {
        "\\footnotesize\\setlength{\\tabcolsep}{4pt}"
    } else {
        "\\small"
    };
    let cell = |k: usize, c: &str| {
        if long[k] || k == first_x {
            breakable(c)
        } else {
            escape(c)
        }
    };
    let head: Vec<String> = header
        .iter()
        .enumerate()
        .map(|(k, h)| {
            let words: Vec<String> = header_words(h).iter().map(|w| escape(w)).collect();
            if long[k] || k == first_x || words.len() < 2 {
                escape(h)
            } else {
                let align = if k == 0 { "l" } else { "r" };
                format!(
                    "\\begin{{tabular}}[b]{{@{{}}{align}@{{}}}}{}\\end{{tabular}}",
                    words.join("\\\\")
                )
            }
        })
        .collect();
    let caption = escape(title.trim()).replace('\n', " ");
    let caption = if caption.is_empty() {
        "Table".to_string()
    } else {
        caption
    };
    let chunks = chunks(rows, &long, first_x);
    let mut out = if first {
        format!("% {caption}\n% needs \\usepackage{{{PACKAGES}}}\n")
    } else {
        String::new()
    };
    for (i, chunk) in chunks.iter().enumerate() {
        out.push_str("\\begin{table*}\n\\centering\n");
        out.push_str(size);
        out.push('\n');
        if i == 0 && first {
            out.push_str(&format!("\\caption{{{caption}}}\\label{{tab:{label}}}\n"));
        } else {
            out.push_str(&format!(
                "\\ContinuedFloat\n\\caption{{{caption} (continued)}}\n"
            ));
        }
        out.push_str(&format!(
            "\\begin{{tabularx}}{{\\textwidth}}{{{columns}}}\n\\toprule\n{} \\\\\n\\midrule\n",
            head.join(" & ")
        ));
        for row in chunk.iter() {
            let cells: Vec<String> = row.iter().enumerate().map(|(k, c)| cell(k, c)).collect();
            out.push_str(&cells.join(" & "));
            out.push_str(" \\\\\n");
        }
        out.push_str("\\bottomrule\n\\end{tabularx}\n\\end{table*}\n");
    }
    out
}

/// A table as LaTeX floats ready for a paper: `table*` (the full text width in a one- or
/// two-column document), booktabs rules, `\caption` (the title) and `\label{tab:LABEL}`, in
/// `\small` or `\footnotesize`. Columns with a cell longer than 20 characters are ragged
/// paragraph columns of a `tabularx` as wide as the text; headers stack their words so that
/// numeric columns stay narrow. Rows beyond a page continue in further floats under the same
/// number (`\ContinuedFloat`), and so do columns beyond the text width (each group of columns
/// after the first repeats the row's key: the first column, and the next ones while rows are
/// not yet told apart, up to three: a run and its category). Every cell goes through [`escape`].
pub(crate) fn table_float(
    title: &str,
    label: &str,
    header: &[String],
    rows: &[Vec<String>],
) -> String {
    let groups = column_groups(header, rows);
    let mut out = String::new();
    for (g, columns) in groups.iter().enumerate() {
        let pick = |r: &[String]| -> Vec<String> {
            columns
                .iter()
                .map(|&k| r.get(k).cloned().unwrap_or_default())
                .collect()
        };
        let header: Vec<String> = pick(header);
        let rows: Vec<Vec<String>> = rows.iter().map(|r| pick(r)).collect();
        out.push_str(&float_group(title, label, &header, &rows, g == 0));
    }
    out
}

/// Characters of the text width at 8 pt (a one-column `article`, the narrower layout).
const WIDTH_CHARS: usize = 78;

/// The leading columns that tell the rows apart: the shortest prefix of one to three columns
/// under which no two rows are the same (three when none is).
fn key_columns(header: &[String], rows: &[Vec<String>]) -> usize {
    let max = header.len().saturating_sub(1).clamp(1, 3);
    (1..=max)
        .find(|&k| {
            let mut seen = std::collections::HashSet::new();
            rows.iter().all(|r| seen.insert(&r[..k.min(r.len())]))
        })
        .unwrap_or(max)
}

/// The columns of each float: all of them when they fit the text width, else the row's key
/// ([`key_columns`]) and as many more as fit, then the key again with the next ones, and so on.
/// A column's width is its longest cell (a paragraph column counts 12) or its header's longest
/// word, plus the gap.
fn column_groups(header: &[String], rows: &[Vec<String>]) -> Vec<Vec<usize>> {
    let width = |k: usize| -> usize {
        let cells = rows
            .iter()
            .map(|r| r.get(k).map_or(0, |c| c.chars().count()));
        let cell = cells.max().unwrap_or(0);
        let cell = if cell > LONG { 12 } else { cell };
        let head = header_words(&header[k])
            .iter()
            .map(|w| w.chars().count())
            .max()
            .unwrap_or(0);
        cell.max(head) + 2
    };
    let total: usize = (0..header.len()).map(width).sum();
    if total <= WIDTH_CHARS || header.len() < 3 {
        return vec![(0..header.len()).collect()];
    }
    let key: Vec<usize> = (0..key_columns(header, rows)).collect();
    let key_width: usize = key.iter().map(|&k| width(k)).sum();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut current = key.clone();
    let mut used = key_width;
    for k in key.len()..header.len() {
        let w = width(k);
        if used + w > WIDTH_CHARS && current.len() > key.len() {
            groups.push(std::mem::replace(&mut current, key.clone()));
            used = key_width;
        }
        current.push(k);
        used += w;
    }
    groups.push(current);
    groups
}

/// A header's words for stacking: split at spaces and where a capitalised word starts after a
/// lower-case letter (`meanPrecision` stacks as `mean` over `Precision`); a measure's name
/// such as `nDCG@10`, where no lower-case letter follows the capital, stays whole.
fn header_words(h: &str) -> Vec<String> {
    let mut words = Vec::new();
    for word in h.split_whitespace() {
        let chars: Vec<char> = word.chars().collect();
        let mut current = String::new();
        for (i, &c) in chars.iter().enumerate() {
            let starts_word = i > 0
                && c.is_uppercase()
                && chars[i - 1].is_lowercase()
                && chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if starts_word {
                words.push(std::mem::take(&mut current));
            }
            current.push(c);
        }
        words.push(current);
    }
    words
}

/// A label from a title: lower-case words joined by `-` (`the-papers-claims-measured`).
pub(crate) fn label(title: &str) -> String {
    let words: Vec<String> = title
        .to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(8)
        .map(str::to_string)
        .collect();
    if words.is_empty() {
        "table".into()
    } else {
        words.join("-")
    }
}

/// [`escape`], with a line break allowed after each `-`, `_`, `/` and `.`: a paragraph column
/// cannot otherwise break a long case id (`session-drift-noise-10-turns-implicit-redis`) or a
/// run label (`composite+bitemporal/all-minilm-l6-v2`).
pub(crate) fn breakable(s: &str) -> String {
    escape(s)
        .replace("\\_", "\\_\\allowbreak{}")
        .replace('-', "-\\allowbreak{}")
        .replace('/', "/\\allowbreak{}")
        .replace("-\\allowbreak{}-\\allowbreak{}-\\allowbreak{}", "---")
        .replace("-\\allowbreak{}-\\allowbreak{}", "--")
}

#[cfg(test)]
mod tests;
