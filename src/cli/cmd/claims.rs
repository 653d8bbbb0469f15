//! `tenure-eval claims`: the paper's quantitative claims beside measured values.

use crate::cli::format::{only, OutputFormat, TABLES};
use crate::cli::write_stdout;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use tenure_eval::render::render;
use tenure_eval::study::paper::table::claims_table;
use tenure_eval::study::paper::{check_paper_reports, claims, measure_paper, ClaimSources};
use tenure_eval::Result;

/// `tenure-eval claims`.
#[derive(Debug, Args)]
pub struct ClaimsArgs {
    /// Reports of the `paper` suite (BM25 and cosine, static and session). None: run the
    /// paper suite now, BM25 and cosine with the committed all-MiniLM-L6-v2 vectors.
    pub reports: Vec<PathBuf>,
    /// Output format.
    #[arg(long, default_value = "markdown", value_parser = only(TABLES))]
    pub format: OutputFormat,
}

/// The claims table.
pub fn run(args: ClaimsArgs) -> Result<ExitCode> {
    let reports = if args.reports.is_empty() {
        let (reports, skipped) = measure_paper()?;
        if let Some(why) = skipped {
            say!("note: {why}");
        }
        reports
    } else {
        let reports = crate::cli::load_reports(&args.reports, false)?;
        check_paper_reports(&reports)?;
        reports
    };
    let table = claims_table(&claims(&ClaimSources::from_reports(&reports)));
    write_stdout(&render(&[table], args.format.table()))?;
    Ok(ExitCode::SUCCESS)
}
