//! `tenure-eval validate`: load and check a suite without running it.

use crate::cli::args::{load, SuiteArgs};
use std::process::ExitCode;
use tenure_eval::Result;

/// Load and check a suite.
pub fn run(args: SuiteArgs) -> Result<ExitCode> {
    let suite = load(&args)?;
    for warning in &suite.warnings {
        say!("warning: {warning}");
    }
    let turns: usize = suite.sessions.iter().map(|s| s.turns.len()).sum();
    crate::cli::write_stdout(&format!(
        "{}: ok ({} profile) — {} beliefs, {} static cases, {} session cases ({} turns), {} warnings\n",
        suite.name,
        suite.profile,
        suite.corpus.len(),
        suite.cases.len(),
        suite.sessions.len(),
        turns,
        suite.warnings.len()
    ))?;
    Ok(ExitCode::SUCCESS)
}
