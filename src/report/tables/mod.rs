//! Tables from report files: PrecisionMemBench's README tables and the paper's tables,
//! regenerated from any set of reports (ours or the published ones), with every figure recomputed from the per-case rows.
//! Where a report's own summary block disagrees with its rows, the rows win and the
//! disagreement is returned as a warning.

mod paper;
mod pmb;
mod render;

pub use crate::report::read::{same_json, LoadedReport, ReportKind, Row};
pub use paper::paper_tables;
pub use pmb::pmb_tables;
pub use render::{number_cell, render, typed_cell, typed_row, TableFormat};

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
