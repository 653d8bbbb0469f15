//! The one table type of the crate and its output formats: one function per format over the
//! same [`Table`]. The run table, `tables`, `models`, `compare`'s per-category table, `claims`
//! and the significance table's markdown go through it; the significance table's LaTeX lays
//! out its own rows (bold and superscript cells, which a [`Table`] of plain text cannot carry)
//! through the same escaper.

use tabled::builder::Builder;
use tabled::settings::Style;

/// A table: title, header and rows of already formatted cells.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Table {
    /// Heading.
    pub title: String,
    /// Column names.
    pub header: Vec<String>,
    /// Cells, row by row.
    pub rows: Vec<Vec<String>>,
}

/// Output format of `tables`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    /// GitHub markdown (the README's format).
    Markdown,
    /// RFC 4180 CSV in long form, one file for any number of tables: `table,row,column,value`.
    Csv,
    /// Captioned, labelled booktabs floats fitted to the text width, every cell through the one
    /// escaper ([`crate::render::tex::table_float`]).
    Latex,
    /// JSON array of `{title, header, rows}`, cells typed (see [`typed_cell`]).
    Json,
}

/// Render `tables` in `format`.
pub fn render(tables: &[Table], format: TableFormat) -> String {
    match format {
        TableFormat::Markdown => tables.iter().map(markdown).collect::<Vec<_>>().join("\n"),
        TableFormat::Csv => csv(tables),
        TableFormat::Latex => latex(tables),
        TableFormat::Json => serde_json::to_string_pretty(&json(tables)).unwrap_or_default() + "\n",
    }
}

impl Table {
    /// A table of `header` and `rows` (formatted cells) under `title`.
    pub(crate) fn new(title: &str, header: &[&str], rows: Vec<Vec<String>>) -> Table {
        Table {
            title: title.to_string(),
            header: header.iter().map(|h| h.to_string()).collect(),
            rows,
        }
    }

    /// The header and rows as a GitHub markdown grid, without the title; every cell through
    /// [`markdown_cell`].
    pub(crate) fn markdown_grid(&self) -> String {
        let mut builder = Builder::default();
        builder.push_record(self.header.iter().map(|c| markdown_cell(c)));
        for row in &self.rows {
            builder.push_record(row.iter().map(|c| markdown_cell(c)));
        }
        builder.build().with(Style::markdown()).to_string()
    }
}

/// A cell's text as a markdown table holds it: `|` escaped, a line break as a space (a label
/// `mine|v2` shifted every column after it, and a category with a line break added a row: a
/// thirteenth audit). CSV, JSON and LaTeX keep the text as it is.
pub(crate) fn markdown_cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\r', '\n'], " ")
}

fn markdown(t: &Table) -> String {
    format!("### {}\n\n{}\n", markdown_cell(&t.title), t.markdown_grid())
}

/// Every table in one CSV: one line per cell, `table,row,column,value` (row 1 is the first
/// data row; the header names the columns). Tables of different shapes cannot share one
/// rectangular header, and one CSV per table cannot go to one stdout.
fn csv(tables: &[Table]) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let _ = writer.write_record(["table", "row", "column", "value"]);
    for t in tables {
        for (r, row) in t.rows.iter().enumerate() {
            for (column, cell) in t.header.iter().zip(row) {
                let _ = writer.write_record([&t.title, &(r + 1).to_string(), column, cell]);
            }
        }
    }
    String::from_utf8(writer.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// The tables as JSON: each row's first cell (its label) as text, the others typed.
fn json(tables: &[Table]) -> serde_json::Value {
    let tables: Vec<serde_json::Value> = tables
        .iter()
        .map(|t| {
            let rows: Vec<Vec<serde_json::Value>> = t.rows.iter().map(|r| typed_row(r)).collect();
            serde_json::json!({"title": t.title, "header": t.header, "rows": rows})
        })
        .collect();
    tables.into()
}

/// A figure as a cell: `decimals` places, or a dash (`–`) when there is none (what
/// [`typed_cell`] reads back as `null`).
pub fn number_cell(x: Option<f64>, decimals: usize) -> String {
    x.map_or_else(|| "–".to_string(), |v| format!("{v:.decimals$}"))
}

/// A row as JSON: its first cell (the label) as text, the others typed.
pub fn typed_row(row: &[String]) -> Vec<serde_json::Value> {
    row.iter()
        .enumerate()
        .map(|(i, c)| {
            if i == 0 {
                c.clone().into()
            } else {
                typed_cell(c)
            }
        })
        .collect()
}

/// A cell as a machine reads it: a dash (`—`, `–`, `---`) or nothing is `null`; `0.09` and
/// `43` are numbers; `43/77` is `{"count": 43, "total": 77}`; `0.43–0.50` is
/// `{"min": 0.43, "max": 0.5}`; anything else stays text.
pub fn typed_cell(cell: &str) -> serde_json::Value {
    use serde_json::{json, Value};
    let cell = cell.trim();
    if matches!(cell, "" | "—" | "–" | "---") {
        return Value::Null;
    }
    let number = |s: &str| -> Option<Value> {
        if !s
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+'))
        {
            return None;
        }
        s.parse::<u64>().map(Value::from).ok().or_else(|| {
            s.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .map(Value::from)
        })
    };
    if let Some(n) = number(cell) {
        return n;
    }
    if let Some((a, b)) = cell.split_once('/') {
        if let (Ok(a), Ok(b)) = (a.parse::<u64>(), b.parse::<u64>()) {
            return json!({"count": a, "total": b});
        }
    }
    if let Some((a, b)) = cell.split_once('–') {
        if let (Some(a), Some(b)) = (number(a), number(b)) {
            return json!({"min": a, "max": b});
        }
    }
    Value::String(cell.to_string())
}

/// Each table a captioned, labelled float ([`crate::render::tex::table_float`]); a label is
/// the title's words, numbered (`-2`, `-3`) when two tables of one output share a title.
fn latex(tables: &[Table]) -> String {
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for t in tables {
        let base = crate::render::tex::label(&t.title);
        let n = seen.iter().filter(|l| **l == base).count();
        seen.push(base.clone());
        let label = if n == 0 {
            base
        } else {
            format!("{base}-{}", n + 1)
        };
        out.push(crate::render::tex::table_float(
            &t.title, &label, &t.header, &t.rows,
        ));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::typed_cell;
    use serde_json::json;

    #[test]
    fn cells_are_typed_as_a_machine_reads_them() {
        for (cell, value) in [
            ("0.09", json!(0.09)),
            ("43", json!(43)),
            ("-0.5", json!(-0.5)),
            ("43/77", json!({"count": 43, "total": 77})),
            ("0.43–0.50", json!({"min": 0.43, "max": 0.5})),
            ("—", json!(null)),
            ("–", json!(null)),
            ("---", json!(null)),
            ("reproduced", json!("reproduced")),
            ("b-redis-code", json!("b-redis-code")),
            ("1.67×", json!("1.67×")),
        ] {
            assert_eq!(typed_cell(cell), value, "{cell}");
        }
    }
}
