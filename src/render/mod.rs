//! Rendering: what reports and analyses look like to a reader. The one [`table::Table`] with
//! its markdown / CSV / LaTeX / JSON formats, the run table a `run` prints, the README and
//! paper tables regenerated from reports, the comparison and claims tables, figures (SVG, and
//! PNG or PDF rendered from it: [`figure_file`]), the
//! TREC export, the JUnit XML and step summary CI reads, and the self-contained HTML page
//! that explores reports ([`html`]).
//!
//! Render reads `report` (loaded reports) and `analysis` (their results); nothing below it
//! imports it.

pub mod compare;
pub mod figure_file;
#[cfg(feature = "figures")]
pub mod figure_render;
pub mod history;
pub mod html;
pub mod junit;
pub mod plot;
pub mod rank_table;
pub mod repeats;
pub mod run_table;
pub mod significance;
pub mod table;
pub mod tables;
pub mod tex;
pub mod trec;

pub use figure_file::{write_figure, FigureFormat};
pub use table::{number_cell, render, typed_cell, typed_row, Table, TableFormat};
