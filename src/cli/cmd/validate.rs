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
    if let Some(copy) = suite.copy {
        let mut text = format!("{}: loaded {copy}'s copy", suite.name);
        if let Some(harness) = suite.harness_copy()? {
            text.push_str(&format!(
                " (what bm25, cosine and fusion run); the http backend and serve run {}'s copy, \
                 the files PrecisionMemBench's harness sends (see docs/providers.md)",
                harness.copy.unwrap_or("?")
            ));
        }
        crate::cli::write_stdout(&format!("{text}\n"))?;
    }
    Ok(ExitCode::SUCCESS)
}
