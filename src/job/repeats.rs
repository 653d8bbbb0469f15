//! A pass repeated (`--repeat N`): the repeats' outcomes made one, the last repeat's report
//! with the spread of every measure over all of them and the flaky cases added to its manifest
//! (`report::repeats`), and every repeat's errors counted.

use super::PassOutcome;
use crate::analysis::repeats::summarise;
use crate::error::Result;
use crate::report::{repeats, LoadedReport};

/// One outcome of `runs`, the outcomes of one pass's repeats in run order (one: as it is).
pub(crate) fn combine(mut runs: Vec<PassOutcome>) -> Result<PassOutcome> {
    let last = runs.pop().expect("a pass runs at least once");
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
    let last_was_good = last.is_good();
    let mut last = fold_errors(last, &runs);
    // An earlier repeat the system failed on (errors, or a compat pass judged unhealthy) fails
    // the run, and a failed run's report goes to failed/: the last repeat's good-named report
    // stayed where a good run's goes, its spread holding the failed repeat (an eighteenth
    // audit).
    if last_was_good && !last.is_good() {
        last.reports = to_failed(&last.reports)?;
    }
    let path = last.reports[0].clone();
    repeats::annotate(&path, &block, last.unhealthy.as_deref())?;
    last.report = LoadedReport::load(&path)?;
    Ok(last)
}

/// `files` (a report, and its sidecar manifest) moved into their folder's `failed/`.
fn to_failed(files: &[std::path::PathBuf]) -> Result<Vec<std::path::PathBuf>> {
    let mut moved = Vec::new();
    for file in files {
        let to = super::errors::failed_path(file);
        std::fs::create_dir_all(to.parent().unwrap_or(file))
            .and_then(|()| std::fs::rename(file, &to))
            .map_err(|source| crate::error::Error::Output {
                path: file.clone(),
                source,
            })?;
        moved.push(to);
    }
    Ok(moved)
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
