//! `tenure-eval claims`: the paper's quantitative claims beside measured values.

use crate::cli::args::TableFormatArg;
use crate::cli::write_stdout;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use tenure_eval::report::claims::{claims, claims_table, measure_paper_bm25, ClaimSources};
use tenure_eval::report::tables::render;
use tenure_eval::Result;

/// `tenure-eval claims`.
#[derive(Debug, Args)]
pub struct ClaimsArgs {
    /// Reports of the `paper` suite (BM25 and cosine, static and session). None: run BM25 now.
    pub reports: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: TableFormatArg,
}

/// The claims table.
pub fn run(args: ClaimsArgs) -> Result<ExitCode> {
    let reports = if args.reports.is_empty() {
        measure_paper_bm25()?
    } else {
        crate::cli::load_reports(&args.reports, false)?
    };
    let table = claims_table(&claims(&ClaimSources::from_reports(&reports)));
    write_stdout(&render(&[table], args.format.into()))?;
    Ok(ExitCode::SUCCESS)
}
