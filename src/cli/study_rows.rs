//! A study's rows on stdout, shared by `scale` (its own rows) and `merge` (the rows of
//! `scale --shard K/N` folders): neither command calls the other.

use crate::cli::format::OutputFormat;
use crate::cli::{json_text, write_stdout};
use crate::render::{render, Table};
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
