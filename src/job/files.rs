//! The files a finished job writes for CI beside its reports: JUnit XML (one test case per case
//! or turn, and one per gate) and the markdown step summary (the run table, the gates, what
//! went wrong). Written atomically, after every pass: a library user gets the same files as
//! the command line. A job that fails before its first report writes them too, saying why.

use super::JobOutcome;
use crate::error::{Error, Result};
use crate::io::write_atomic;
use crate::render::{junit, run_table};
use crate::report::LoadedReport;
use std::path::Path;

/// Write JUnit to `junit` and the step summary to `summary`, each when given; `baselines`
/// marks new failures in JUnit when the gate fails on them.
pub fn write_gate_files(
    outcome: &JobOutcome,
    junit: Option<&Path>,
    summary: Option<&Path>,
    baselines: Option<&[LoadedReport]>,
) -> Result<()> {
    let reports: Vec<&LoadedReport> = outcome.passes.iter().map(|p| &p.report).collect();
    if let Some(path) = junit {
        write_atomic(
            path,
            junit::junit(&reports, &outcome.checks, baselines)?.as_bytes(),
        )?;
    }
    if let Some(path) = summary {
        let rows: Vec<_> = outcome.passes.iter().map(|p| p.row.clone()).collect();
        let text = junit::summary_markdown(
            &run_table::run_table(&rows),
            &reports,
            &outcome.checks,
            &outcome.summary_notes(),
            baselines,
        );
        write_atomic(path, text.as_bytes())?;
    }
    Ok(())
}

/// What a job that failed before any report (a system that never answered) writes for CI: JUnit
/// with the run in error, the step summary and the page saying what happened, each when given.
/// The files a finished job would have written are then never missing from CI's artifacts.
pub(crate) fn write_not_run_files(
    error: &Error,
    junit: Option<&Path>,
    summary: Option<&Path>,
    page: Option<&Path>,
) -> Result<()> {
    let text = error.to_string();
    if let Some(path) = junit {
        write_atomic(path, junit::junit_not_run(&text)?.as_bytes())?;
    }
    if let Some(path) = summary {
        write_atomic(path, junit::summary_not_run(&text).as_bytes())?;
    }
    if let Some(path) = page {
        write_atomic(path, crate::render::html::not_run(&text).as_bytes())?;
    }
    Ok(())
}
