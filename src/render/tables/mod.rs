//! Tables from report files: PrecisionMemBench's README tables and the paper's tables,
//! regenerated from any set of reports (ours or the published ones), with every figure recomputed from the per-case rows.
//! Where a report's own summary block disagrees with its rows, the rows win and the
//! disagreement is returned as a warning.

mod paper;
mod pmb;
mod rank_table;

use super::table::Table;
use crate::report::LoadedReport;

pub use paper::paper_tables;
pub use pmb::pmb_tables;
pub(crate) use rank_table::{block_measures, rank_table};
