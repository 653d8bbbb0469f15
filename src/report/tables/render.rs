//! Table output formats: one function per format over the same [`Table`].

use super::Table;
use tabled::builder::Builder;
use tabled::settings::Style;

/// Output format of `tables`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    /// GitHub markdown (the README's format).
    Markdown,
    /// RFC 4180 CSV, one block per table.
    Csv,
    /// LaTeX `tabular` environments.
    Latex,
    /// JSON array of `{title, header, rows}`.
    Json,
}

/// Render `tables` in `format`.
pub fn render(tables: &[Table], format: TableFormat) -> String {
    match format {
        TableFormat::Markdown => tables.iter().map(markdown).collect::<Vec<_>>().join("\n"),
        TableFormat::Csv => tables.iter().map(csv).collect::<Vec<_>>().join("\n"),
        TableFormat::Latex => tables.iter().map(latex).collect::<Vec<_>>().join("\n"),
        TableFormat::Json => serde_json::to_string_pretty(tables).unwrap_or_default() + "\n",
    }
}

fn markdown(t: &Table) -> String {
    let mut builder = Builder::default();
    builder.push_record(t.header.clone());
    for row in &t.rows {
        builder.push_record(row.clone());
    }
    format!(
        "### {}\n\n{}\n",
        t.title,
        builder.build().with(Style::markdown())
    )
}

fn csv(t: &Table) -> String {
    // Flexible: the `# title` line has one field, the table rows more. With that, writing to
    // memory cannot fail.
    let mut writer = csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::new());
    let _ = writer.write_record([format!("# {}", t.title)]);
    let _ = writer.write_record(&t.header);
    for row in &t.rows {
        let _ = writer.write_record(row);
    }
    String::from_utf8(writer.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// LaTeX special characters, escaped (no crate does just this; it is five lines).
fn tex(s: &str) -> String {
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
            '—' => out.push_str("---"),
            '−' => out.push_str("$-$"),
            _ => out.push(c),
        }
    }
    out
}

fn latex(t: &Table) -> String {
    let columns = format!("l{}", "r".repeat(t.header.len().saturating_sub(1)));
    let line =
        |cells: &[String]| cells.iter().map(|c| tex(c)).collect::<Vec<_>>().join(" & ") + " \\\\\n";
    let mut out = format!(
        "% {}\n\\begin{{tabular}}{{{columns}}}\n\\hline\n",
        tex(&t.title)
    );
    out.push_str(&line(&t.header));
    out.push_str("\\hline\n");
    for row in &t.rows {
        out.push_str(&line(row));
    }
    out.push_str("\\hline\n\\end{tabular}\n");
    out
}
