//! The errors of a pass, tallied by cause as the cases come in: the run stops when they pile
//! up (`--max-errors`) or when the store was lost ([`ErrorKind::Lost`]), and the end of a run
//! names each cause once (count, first case, message) instead of one line per case.
//!
//! A pass with errors is a failed run: its report is written beside the good one, under
//! `failed_path`, so it never replaces the last good report; so is a stopped run's, with the
//! cases before the stop (and its journal can continue it).

use crate::backend::ErrorKind;
use crate::backend::{BackendInfo, Workload};
use crate::error::{Error, Result};
use crate::report::file_name;
use crate::run::CaseError;
use crate::suite::Suite;
use std::path::{Path, PathBuf};

/// The default of `--max-errors`: enough to see a few flaky calls through, few enough that a
/// system that fails on everything is stopped long before the end.
pub(crate) const DEFAULT_MAX_ERRORS: usize = 10;

/// One cause: the same message on several cases.
#[derive(Debug, Clone, PartialEq)]
pub struct Cause {
    /// The backend's message.
    pub message: String,
    /// Cases or turns with it.
    pub count: usize,
    /// The first of them.
    pub first: String,
}

/// Errors seen so far, by cause in order of first appearance.
#[derive(Debug, Clone)]
pub(crate) struct ErrorTally {
    max: usize,
    /// Each cause once.
    pub causes: Vec<Cause>,
}

impl ErrorTally {
    /// A tally that stops the run after `max` errors (`usize::MAX`: never).
    pub(crate) fn new(max: usize) -> ErrorTally {
        ErrorTally {
            max,
            causes: Vec::new(),
        }
    }

    /// Cases or turns that errored.
    pub(crate) fn total(&self) -> usize {
        self.causes.iter().map(|c| c.count).sum()
    }

    /// Count `error` of case `label`; an error when the run must stop here.
    pub(crate) fn see(&mut self, backend: &str, label: &str, error: &CaseError) -> Result<()> {
        match self.causes.iter_mut().find(|c| c.message == error.message) {
            Some(cause) => cause.count += 1,
            None => self.causes.push(Cause {
                message: error.message.clone(),
                count: 1,
                first: label.to_string(),
            }),
        }
        if error.kind == ErrorKind::Lost {
            return Err(Error::backend(
                backend,
                format!(
                    "store lost at {label}: {} (continue once the system keeps its data: \
                     --resume seeds it afresh)",
                    error.message
                ),
            ));
        }
        if self.total() > self.max {
            return Err(Error::backend(
                backend,
                format!(
                    "stopped after {} errors (--max-errors {}): {}",
                    self.total(),
                    self.max,
                    self.summary().join("; ")
                ),
            ));
        }
        Ok(())
    }

    /// One line per cause: `N× (first: CASE): MESSAGE`.
    pub(crate) fn summary(&self) -> Vec<String> {
        self.causes
            .iter()
            .map(|c| format!("{}× (first: {}): {}", c.count, c.first, c.message))
            .collect()
    }
}

/// Where a failed pass's report goes: `failed/NAME.json` in the good one's folder, where the
/// `reports/SUITE/*.json` globs of the docs, `tables` and `html` do not take it.
pub(crate) fn failed_path(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default();
    path.parent()
        .unwrap_or(Path::new(""))
        .join(FAILED_FOLDER)
        .join(name)
}

/// The folder of failed reports, in a suite's report folder.
pub(crate) const FAILED_FOLDER: &str = "failed";

/// A pass's report file: its usual name (the run's label in it, `report::label`), or beside it
/// when cases errored (a failed run never replaces a good report); a good run removes the
/// failed report an earlier run left.
pub(crate) fn file_path(
    dir: &Path,
    kind: Workload,
    suite: &Suite,
    backend: &BackendInfo,
    failed: bool,
    given: Option<&str>,
) -> PathBuf {
    let path = dir.join(file_name(kind, suite.profile, backend, given));
    if failed {
        failed_path(&path)
    } else {
        let _ = std::fs::remove_file(failed_path(&path));
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(kind: ErrorKind, message: &str) -> CaseError {
        CaseError {
            kind,
            message: message.into(),
            attempts: 1,
        }
    }

    #[test]
    fn causes_are_counted_once_each_and_the_run_stops_past_the_maximum() {
        let mut tally = ErrorTally::new(3);
        let refused = error(ErrorKind::Transient, "POST /search: refused");
        tally.see("http", "a", &refused).unwrap();
        tally
            .see("http", "b", &error(ErrorKind::Permanent, "HTTP 422"))
            .unwrap();
        tally.see("http", "c", &refused).unwrap();
        assert_eq!(
            tally.summary(),
            [
                "2× (first: a): POST /search: refused",
                "1× (first: b): HTTP 422"
            ]
        );
        let stop = tally.see("http", "d", &refused).unwrap_err().to_string();
        assert!(
            stop.contains("stopped after 4 errors (--max-errors 3)"),
            "{stop}"
        );
        assert!(stop.contains("3× (first: a)"), "{stop}");
    }

    #[test]
    fn a_lost_store_stops_at_once_naming_the_case() {
        let mut tally = ErrorTally::new(usize::MAX);
        let e = tally
            .see(
                "http",
                "case-31",
                &error(ErrorKind::Lost, "the store lost it"),
            )
            .unwrap_err();
        assert_eq!(e.exit_code(), 3);
        assert!(e.to_string().contains("store lost at case-31"), "{e}");
    }

    #[test]
    fn a_failed_report_is_named_beside_the_good_one() {
        assert_eq!(
            failed_path(Path::new("reports/pmb/retrieval-report-mem0.json")),
            Path::new("reports/pmb/failed/retrieval-report-mem0.json")
        );
    }
}
