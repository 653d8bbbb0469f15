//! What `tenure-eval locomo` measures from its inputs: the reports' views checked against each
//! other and against the corrections given (a corrected view's gold is not the released one's),
//! the questions read with those corrections, the observations' turns when a run retrieved
//! observations, and each run measured ([`super::measure`]).

use super::{measure, RunResult};
use crate::error::{Error, Result};
use crate::report::LoadedReport;
use crate::suite::locomo::{observation_covers, questions, CORRECTED, RELEASED_SHA256};
use crate::suite::{Label, Unit};
use std::path::{Path, PathBuf};

/// Measure `reports`, runs on LoCoMo's `data` (with `corrections`, for runs of the corrected
/// view): reports of the two views together, or a view without its corrections (or
/// corrections for the released view), are usage errors. `not_released` is called, before
/// anything is measured, when `data` is not LoCoMo's released file (its figures are then not
/// comparable with published ones: the caller says so).
pub(crate) fn measure_reports(
    reports: &[LoadedReport],
    data: &Path,
    corrections: &[PathBuf],
    not_released: &mut dyn FnMut(),
) -> Result<Vec<RunResult>> {
    let views: Vec<Label> = reports
        .iter()
        .map(|r| Label::parse(r.suite().unwrap_or("")))
        .collect();
    let corrected = views.iter().any(|l| l.view == Some(CORRECTED));
    let released_view = views.iter().any(|l| l.view.is_none());
    if corrected && released_view {
        return Err(Error::Usage(
            "reports of the released and the corrected view given together: their gold \
             differs; give each view's reports to its own call"
                .into(),
        ));
    }
    if corrected == corrections.is_empty() {
        return Err(Error::Usage(if corrected {
            "the reports are of the corrected view (run --corrections): give the same \
             --corrections here"
                .into()
        } else {
            "--corrections: the reports are of the released view (no run --corrections)".into()
        }));
    }
    let questions = questions(data, corrections)?;
    // Each report a whole, finished run on these very files (LoadedReport::whole_run_of).
    // The data file's sha256 (read once) also says whether it is the release.
    let mut read = Vec::new();
    let overlay = crate::suite::locomo::correction_files(corrections)?;
    for path in std::iter::once(data).chain(overlay.iter().map(PathBuf::as_path)) {
        read.push(crate::io::sha256_hex(&crate::io::read_bytes(path)?));
    }
    let released = read[0] == RELEASED_SHA256;
    let read: Vec<&str> = read.iter().map(String::as_str).collect();
    // Each unit's questions as its suite keeps them (a unit leaves out the questions no item
    // of it stands for): every report holds each of its unit's once, and nothing else.
    let mut kept: Vec<(Unit, Vec<String>)> = Vec::new();
    for (report, view) in reports.iter().zip(&views) {
        report.whole_run_of(Some(&read), true, &data.display().to_string())?;
        if view.name != "locomo" {
            continue; // `measure` refuses it, naming the suite it is of.
        }
        if !kept.iter().any(|(u, _)| *u == view.unit) {
            let suite = crate::suite::locomo::load(&crate::suite::locomo::LocomoSource {
                data: data.to_path_buf(),
                unit: view.unit,
                corrections: corrections.to_vec(),
            })?;
            kept.push((
                view.unit,
                suite.cases.into_iter().map(|c| c.case_id).collect(),
            ));
        }
        let ids = &kept
            .iter()
            .find(|(u, _)| *u == view.unit)
            .expect("kept above")
            .1;
        report.covers(ids, report.suite().unwrap_or("locomo"))?;
    }
    if !released {
        not_released();
    }
    let covers = if views.iter().any(|l| l.unit == Unit::Observations) {
        observation_covers(data)?
    } else {
        Default::default()
    };
    measure(reports, &questions, &covers)
}
