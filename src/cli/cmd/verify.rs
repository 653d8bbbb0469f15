//! `tenure-eval verify`: a report is what its rows and inputs say it is.

use crate::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval verify`.
#[derive(Debug, Args)]
pub(crate) struct VerifyArgs {
    /// Report files.
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
    /// Check the reports' aggregates and rows only, not the input files their manifests name
    /// (for published reports, which have no manifest).
    #[arg(long)]
    pub no_inputs: bool,
    /// Read the manifests' input files in this folder (their recorded paths are relative to
    /// it): the run's --data folder for BEAM and the Temporal Memory Dataset, the folder the run
    /// was made in otherwise.
    #[arg(long, value_name = "DIR", conflicts_with = "no_inputs")]
    pub inputs_from: Option<PathBuf>,
}

/// Verify each report.
pub(crate) fn run(args: VerifyArgs) -> Result<ExitCode> {
    if let Some(dir) = args.inputs_from.as_deref().filter(|d| !d.is_dir()) {
        return Err(crate::Error::Usage(format!(
            "--inputs-from {}: no such folder (the folder the recorded input paths are relative \
             to)",
            dir.display()
        )));
    }
    let mut failed = false;
    for path in &args.reports {
        if is_sidecar(path)? {
            say!(
                "note: {} is a report's manifest, not a report; skipped",
                path.display()
            );
            continue;
        }
        let problems =
            crate::analysis::verify::verify(path, !args.no_inputs, args.inputs_from.as_deref())?;
        if problems.is_empty() {
            let scope = if args.no_inputs {
                " (aggregates only; inputs not checked: --no-inputs)"
            } else {
                ""
            };
            crate::cli::write_stdout(&format!("{}: verified{scope}\n", path.display()))?;
        }
        for problem in &problems {
            crate::cli::write_stdout(&format!("mismatch: {problem}\n"))?;
        }
        failed |= !problems.is_empty();
    }
    Ok(if failed {
        ExitCode::from(crate::error::exit::FAILED_CHECK)
    } else {
        ExitCode::SUCCESS
    })
}

/// A paper-layout sidecar (`*.manifest.json`, a tenure-eval manifest with no cases), which a
/// glob such as `reports/paper/*.json` picks up: skipped, as `tables` skips it.
fn is_sidecar(path: &std::path::Path) -> Result<bool> {
    if !path.to_string_lossy().ends_with(".manifest.json") {
        return Ok(false);
    }
    let (_, skipped) =
        crate::report::LoadedReport::load_all(std::slice::from_ref(&path.to_path_buf()))?;
    Ok(!skipped.is_empty())
}
