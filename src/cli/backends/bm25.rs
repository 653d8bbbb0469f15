//! The alias-BM25 backend's flags.

use crate::cli::args::non_negative;
use clap::Args;

/// The alias-BM25 backend's settings.
#[derive(Debug, Args)]
#[command(next_help_heading = "BM25 (--backend bm25)")]
pub struct Bm25Args {
    /// BM25: hits scoring below this are dropped (Tenure's eval uses 3; recorded in the
    /// manifest when changed). A tiny corpus may need less: its terms' IDF is low.
    #[arg(long, value_parser = non_negative)]
    pub min_score: Option<f64>,
}
