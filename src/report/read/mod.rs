//! The read half of the report format: one pass over a file (`parse.rs`) into the rows every
//! table and analysis reads (`row.rs`) and a [`LoadedReport`] (`loaded.rs`: ours and
//! upstream's), the manifest as read back, typed (`recorded.rs`), which backend made a report
//! (`origin.rs`), a report's full entries for the html page and Figure 1 (`entries.rs`), its summary block
//! checked against its rows (`disagree.rs`), and a TREC run made elsewhere (`trec_run.rs`).
//! Every report file is read through here.

mod disagree;
pub(crate) mod entries;
mod loaded;
pub(crate) mod origin;
pub(crate) mod parse;
pub(crate) mod recorded;
pub mod row;
pub mod trec_run;
mod whole;

pub use loaded::{same_json, LoadedReport};
pub use row::Row;
