//! The alias-BM25 backend's flags.

use crate::cli::args::{non_negative, non_negative_f32};
use clap::Args;

/// The alias-BM25 backend's settings.
#[derive(Debug, Args)]
#[command(next_help_heading = "BM25 (--backend bm25)")]
pub(crate) struct Bm25Args {
    /// BM25: hits scoring below this are dropped (Tenure's eval uses 3; recorded in the
    /// manifest when changed). A tiny corpus may need less: its terms' IDF is low.
    #[arg(long, value_parser = non_negative_f32)]
    pub min_score: Option<f64>,
}

/// Plain BM25's settings.
#[derive(Debug, Args)]
#[command(next_help_heading = "BM25 over words (--backend bm25-text)")]
pub(crate) struct Bm25TextArgs {
    /// bm25-text: a recency prior, each score × exp(-W × (1 − t)), t the belief's normalised
    /// position among its user's beliefs (0 the first said, 1 the last); 0 is plain BM25
    /// [default: 0].
    #[arg(long, value_name = "W", value_parser = non_negative)]
    pub recency: Option<f64>,
    /// bm25-text with --recency: the prior orders only the first K results by BM25 (which K
    /// are retrieved stays plain BM25's); the rest take its lowest value [default: every
    /// result].
    #[arg(long, value_name = "K", requires = "recency")]
    pub recency_window: Option<usize>,
}
