//! Analyses over loaded reports: what changed between runs and whether it is more than noise
//! (`compare`, with its many-run significance table), CI gates, `verify` (a report is what its
//! rows and inputs say), and the paper's claims measured.
//!
//! Analyses read `report` (and `claims` runs the paper suite through `run`); they return
//! values, which `render` formats.

pub mod compare;
pub mod gates;
pub(crate) mod history;
pub(crate) mod repeats;
pub mod verify;
