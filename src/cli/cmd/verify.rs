//! `tenure-eval verify`: a report is what its rows and inputs say it is.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use tenure_eval::Result;

/// `tenure-eval verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Report files.
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
    /// Check the reports' aggregates and rows only, not the input files their manifests name
    /// (for published reports, which have no manifest).
    #[arg(long)]
    pub no_inputs: bool,
}

/// Verify each report.
pub fn run(args: VerifyArgs) -> Result<ExitCode> {
    let mut failed = false;
    for path in &args.reports {
        let problems = tenure_eval::analysis::verify::verify(path, !args.no_inputs)?;
        if problems.is_empty() {
            crate::cli::write_stdout(&format!("{}: verified\n", path.display()))?;
        }
        for problem in &problems {
            crate::cli::write_stdout(&format!("mismatch: {problem}\n"))?;
        }
        failed |= !problems.is_empty();
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
