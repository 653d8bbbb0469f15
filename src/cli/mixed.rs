//! Reports of different suites given together. `tables` and `plot` would put a `bm25` row or
//! line of each suite side by side under one name, so they warn, naming the files of each
//! suite; `compare` pairs cases by id, and a case of one suite is not the case of another
//! (the paper's 60 ids exist in PMB under other rules), so it refuses. A report without a
//! manifest (a published one) names no suite and is left out of the check.

use crate::report::LoadedReport;
use crate::{Error, Result};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The files of each suite the reports' manifests name, when they name more than one.
fn suites<'a>(reports: impl IntoIterator<Item = &'a LoadedReport>) -> Option<String> {
    let mut by_suite: BTreeMap<&str, Vec<&PathBuf>> = BTreeMap::new();
    for r in reports {
        if let Some(suite) = r.suite() {
            by_suite.entry(suite).or_default().push(&r.path);
        }
    }
    (by_suite.len() > 1).then(|| {
        by_suite
            .iter()
            .map(|(suite, files)| {
                let files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
                format!("suite {suite}: {}", files.join(", "))
            })
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// Warn (on stderr) when the reports are of several suites, or of one read from different
/// files (a BEAM run of one tier beside one of two: a tenth audit found no word of it).
pub(crate) fn warn<'a>(reports: impl IntoIterator<Item = &'a LoadedReport> + Clone) {
    if let Some(which) = suites(reports.clone()) {
        say!(
            "warning: these reports are of different suites, so rows or lines of the same \
             backend stand side by side under one name: {which}"
        );
        return;
    }
    if let Some((first, other)) = differing_inputs(reports) {
        say!(
            "warning: {} and {} read different files (their manifests' inputs differ by \
             sha256): their rows stand side by side over other cases or other gold",
            first.path.display(),
            other.path.display()
        );
    }
}

/// The first report whose recorded inputs differ by sha256 from the first's, with that first
/// one. Built-in suites and reports without inputs are left out
/// (`LoadedReport::recorded_inputs`).
fn differing_inputs<'a>(
    reports: impl IntoIterator<Item = &'a LoadedReport>,
) -> Option<(&'a LoadedReport, &'a LoadedReport)> {
    let recorded: Vec<(&LoadedReport, Vec<String>)> = (reports.into_iter())
        .filter_map(|r| Some((r, r.recorded_inputs()?)))
        .collect();
    let (other, _) = recorded.iter().find(|(_, shas)| *shas != recorded[0].1)?;
    Some((recorded[0].0, *other))
}

/// Refuse reports of several suites, or of one suite read from different files: a case's gold
/// may differ between two copies of a benchmark (an audit compared a run on a copy whose gold
/// was altered with one on the released file: "972 fail→pass" with exit 0).
pub(crate) fn refuse(reports: &[LoadedReport]) -> Result<()> {
    if let Some(which) = suites(reports) {
        return Err(Error::Usage(format!(
            "compare pairs cases by id, and these reports are of different suites: {which}"
        )));
    }
    same_inputs(reports, "compare pairs cases by id")
}

/// Refuse runs of one suite read from different files (their manifests' inputs differ by
/// sha256): `why` says what would put them side by side.
pub(crate) fn same_inputs(reports: &[LoadedReport], why: &str) -> Result<()> {
    if let Some((first, other)) = differing_inputs(reports) {
        return Err(Error::input(
            &other.path,
            "$.manifest.inputs",
            format!(
                "{why}, and these runs read different files (their manifests' inputs differ by \
                 sha256): {} and this; a case's gold may differ between them",
                first.path.display(),
            ),
        ));
    }
    Ok(())
}
