//! `tenure-eval validate`: load and check a suite without running it.

use crate::cli::args::{load, SuiteArgs};
use crate::Result;
use std::process::ExitCode;

/// Load and check a suite.
pub(crate) fn run(args: SuiteArgs) -> Result<ExitCode> {
    let suite = load(&args)?;
    for warning in &suite.warnings {
        say!("warning: {warning}");
    }
    // The anomalies are what `validate` is asked for: stdout, one per line.
    let mut notes = crate::cli::args::input_notes(&suite).join("\n");
    if !notes.is_empty() {
        notes.push('\n');
    }
    let turns: usize = suite.sessions.iter().map(|s| s.turns.len()).sum();
    crate::cli::write_stdout(&format!(
        "{}: ok ({} profile) — {} beliefs, {} static cases, {} session cases ({} turns), {} warnings\n",
        suite.label(),
        suite.profile,
        suite.corpus.len(),
        suite.cases.len(),
        suite.sessions.len(),
        turns,
        suite.warnings.len()
    ))?;
    crate::cli::write_stdout(&notes)?;
    if let Some(copy) = suite.copy {
        let mut text = format!("{}: loaded {copy}'s copy", suite.label());
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
