//! Rendering: what reports and analyses look like to a reader. The one [`table::Table`] with
//! its markdown / CSV / LaTeX / JSON formats, the run table a `run` prints, the README and
//! paper tables regenerated from reports, the comparison and claims tables, figures (SVG, and
//! PNG or PDF rendered from it: [`figure_file`]), the
//! TREC export, the JUnit XML and step summary CI reads, and the self-contained HTML page
//! that explores reports ([`html`]).
//!
//! Render reads `report` (loaded reports) and `analysis` (their results); nothing below it
//! imports it.

pub(crate) mod compare;
pub(crate) mod figure_file;
#[cfg(feature = "figures")]
pub(crate) mod figure_render;
pub(crate) mod history;
pub(crate) mod html;
pub(crate) mod junit;
// figure_render's, and in every test build so that its test runs without `figures` too.
#[cfg(any(feature = "figures", test))]
mod pdf_resources;
pub(crate) mod plot;
pub(crate) mod rank_table;
pub(crate) mod repeats;
pub mod run_table;
pub mod significance;
pub mod table;
pub mod tables;
pub mod tex;
pub mod trec;

pub use figure_file::{write_figure, FigureFormat};
pub use table::{number_cell, render, typed_cell, typed_row, Table, TableFormat};
