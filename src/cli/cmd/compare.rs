//! `tenure-eval compare`: two reports of the same cases.

use crate::cli::args::CompareFormatArg;
use crate::cli::{json_text, write_stdout};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use tenure_eval::report::tables::LoadedReport;
use tenure_eval::{Error, Result};

/// `tenure-eval compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The baseline report.
    pub base: PathBuf,
    /// The new report.
    pub new: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: CompareFormatArg,
    /// Seed of the paired bootstrap.
    #[arg(long, default_value_t = 20_260_511)]
    pub seed: u64,
}

/// Compare two reports.
pub fn run(args: CompareArgs) -> Result<ExitCode> {
    let base = LoadedReport::load(&args.base)?;
    let new = LoadedReport::load(&args.new)?;
    if base.kind != new.kind {
        return Err(Error::Usage(
            "compare needs two reports of the same kind (both static or both session)".into(),
        ));
    }
    let comparison = tenure_eval::report::compare::compare(&base, &new, args.seed);
    let text = match args.format {
        CompareFormatArg::Markdown => comparison.markdown(),
        CompareFormatArg::Json => json_text(&comparison),
    };
    write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
