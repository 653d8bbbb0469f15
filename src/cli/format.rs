//! `--format`: one enum of every output format a command writes, each command taking only the
//! ones it can ([`only`]: clap lists those in `--help` and refuses the rest with its usage
//! error, exit 2). Figures have their own formats (`FigureFormatArg`: SVG, PNG, PDF).

use crate::render::TableFormat;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::ValueEnum;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutputFormat {
    /// The run's summary table (markdown), as a terminal shows it.
    Table,
    /// GitHub markdown.
    Markdown,
    /// RFC 4180 CSV.
    Csv,
    /// LaTeX (booktabs).
    Latex,
    /// JSON.
    Json,
    /// Tab-separated values, one record a line.
    Tsv,
    /// Plain text, one line per finding.
    Text,
}

use OutputFormat::*;

/// The formats of a command that writes markdown or JSON.
pub(crate) const MARKDOWN_JSON: &[OutputFormat] = &[Markdown, Json];
/// The formats of a command that writes tables (`render::Table`).
pub(crate) const TABLES: &[OutputFormat] = &[Markdown, Csv, Latex, Json];

/// A `--format` parser taking only `allowed`.
pub(crate) fn only(
    allowed: &'static [OutputFormat],
) -> impl TypedValueParser<Value = OutputFormat> {
    let values = allowed
        .iter()
        .map(|f| f.to_possible_value().expect("no variant is skipped"));
    PossibleValuesParser::new(values)
        .map(|name| OutputFormat::from_str(&name, false).expect("a possible value names a variant"))
}

impl OutputFormat {
    /// The table rendering of this format. Only the formats of [`TABLES`] are offered where
    /// tables are written; the others read as their nearest (markdown, or CSV for TSV).
    pub(crate) fn table(self) -> TableFormat {
        match self {
            Markdown | Table | Text => TableFormat::Markdown,
            Csv | Tsv => TableFormat::Csv,
            Latex => TableFormat::Latex,
            Json => TableFormat::Json,
        }
    }
}
