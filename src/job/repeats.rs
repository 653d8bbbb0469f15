//! A pass repeated (`--repeat N`): the repeats' outcomes made one, the last repeat's report
//! with the spread of every measure over all of them and the flaky cases added to its manifest
//! (`report::repeats`), and every repeat's errors counted.

use super::PassOutcome;
use crate::analysis::repeats::summarise;
use crate::error::Result;
use crate::report::{repeats, LoadedReport};

/// One outcome of `runs`, the outcomes of one pass's repeats in run order (one: as it is).
pub(crate) fn combine(mut runs: Vec<PassOutcome>) -> Result<PassOutcome> {
    let mut last = runs.pop().expect("a pass runs at least once");
    // A repeat that failed wrote its report to failed/; the good-named one an earlier repeat
    // wrote is one repeat of N, with no spread, and a reader took it as the run's (an audit
    // found `tables` would). It goes: the run's report is the failed one.
    let earlier = runs.iter().flat_map(|r| &r.reports);
    for file in earlier.filter(|f| !last.reports.contains(f)) {
        match std::fs::remove_file(file) {
            // Two repeats wrote the same good-named file: gone with the first.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(crate::error::Error::Output {
                    path: file.clone(),
                    source,
                })
            }
            Ok(()) => {}
        }
    }
    if runs.is_empty() || last.stopped.is_some() {
        return Ok(fold_errors(last, &runs));
    }
    let reports: Vec<LoadedReport> = runs
        .iter()
        .map(|r| r.report.clone())
        .chain(std::iter::once(last.report.clone()))
        .collect();
    let block = summarise(&reports);
    let path = last.reports[0].clone();
    repeats::annotate(&path, &block)?;
    last.report = LoadedReport::load(&path)?;
    Ok(fold_errors(last, &runs))
}

/// `last` with the errors of the repeats before it: a repeat the system failed on fails the
/// run, whichever repeat it was.
fn fold_errors(mut last: PassOutcome, earlier: &[PassOutcome]) -> PassOutcome {
    for run in earlier {
        last.errored += run.errored;
        for cause in &run.errors {
            match last.errors.iter_mut().find(|c| c.message == cause.message) {
                Some(c) => c.count += cause.count,
                None => last.errors.push(cause.clone()),
            }
        }
        if last.unhealthy.is_none() {
            last.unhealthy = run.unhealthy.clone();
        }
    }
    last
}
