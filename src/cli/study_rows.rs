//! A study's rows on stdout, shared by `scale` and `models` (their own rows) and `merge` (the
//! rows of their `--shard K/N` folders): neither command calls the other.

use crate::cli::format::OutputFormat;
use crate::cli::{json_text, write_stdout};
use crate::render::run_table::{models_grid, models_table};
use crate::render::{render, Table};
use crate::shard::Shard;
use crate::study::models::{chance_note, Compared};
use crate::study::scale::shard::{self, Rows};
use crate::study::scale::{table, vectors};
use crate::{Error, Result};
use std::process::ExitCode;

/// A study's rows on stdout, as a table in `format` (made by `table`) or as JSON.
pub(crate) fn print_rows<R: serde::Serialize>(
    rows: &[R],
    table: fn(&[R]) -> Table,
    format: OutputFormat,
) -> Result<ExitCode> {
    let text = match format {
        OutputFormat::Json => json_text(&rows),
        other => render(&[table(rows)], other.table()),
    };
    write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The scale study's table from every shard's rows, in the format the shards ran with.
pub(crate) fn merge_scale(dirs: &[std::path::PathBuf]) -> Result<ExitCode> {
    use clap::ValueEnum;
    let (settings, rows) = shard::merge(dirs)?;
    let format = OutputFormat::from_str(&settings.format, true)
        .map_err(|_| Error::Usage(format!("merge: unknown format {:?}", settings.format)))?;
    match rows {
        Rows::Bm25(rows) => print_rows(&rows, table, format),
        Rows::Vectors(rows) => print_rows(&rows, vectors::table, format),
    }
}

/// The `models` table of `compared`, titled `title`, in `format`: markdown with its note on
/// chance, CSV or LaTeX (each row's verdict against chance a column of its own), or every row
/// unrounded as JSON (`merge` prints `table` as markdown).
pub(crate) fn models_text(
    compared: &Compared,
    title: &str,
    shard: Option<Shard>,
    format: OutputFormat,
) -> String {
    let rows = &compared.rows;
    // A shard's table is of its cases only, and so is its test against chance: said in the
    // title and below the table, as `run` says it (a ninth audit: "suite pmb", 29/29 and
    // "every row above chance" were one shard's, with nothing to say so).
    let title = match shard {
        Some(s) => format!("{title} · shard {s}, its cases only"),
        None => title.to_string(),
    };
    let shard_note = shard.map_or(String::new(), |s| {
        format!(
            "\nshard {s}: each row and its test against chance hold that shard's cases only \
             (`tenure-eval merge` makes the whole run's table and reports)\n"
        )
    });
    match format {
        OutputFormat::Json => json_text(rows),
        OutputFormat::Markdown | OutputFormat::Table => format!(
            "### {title}\n\n{}{}{shard_note}",
            models_table(rows),
            chance_note(rows, &compared.table)
        ),
        other => render(&[models_grid(rows, &title)], other.table()),
    }
}
