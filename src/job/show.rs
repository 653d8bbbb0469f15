//! A finished job as the text `run` and `merge` print on stdout: its table (one pass: that
//! pass's summary, with its drift; more: a row per pass), then each pass's repeats and first
//! failing cases; or the passes as JSON rows. What goes to stderr (files written, gates,
//! warnings) is the caller's to say.

use super::JobOutcome;
use crate::render::repeats::repeats_text;
use crate::render::run_table as table;
use crate::suite::Suite;
use serde_json::json;

/// Failing cases (and flaky repeats) shown per pass under the table.
const FAILING_SHOWN: usize = 5;

/// The table, and under it the repeats and the first failing cases of each pass.
pub fn outcome_table(suite: &Suite, outcome: &JobOutcome) -> String {
    let passes = &outcome.passes;
    let mut text = if let [pass] = passes.as_slice() {
        let row = &pass.row;
        // A shard's numbers are its cases' only: said where they are read.
        let shard = (pass.report.shard())
            .map_or(String::new(), |s| format!(" · shard {s}, its cases only"));
        let title = format!(
            "{} · {} · {} ({} profile){shard}",
            suite.label(),
            row.kind.label(),
            row.backend,
            suite.profile
        );
        let mut text = if row.rank.measures.is_empty() {
            table::summary_table(&title, &row.summary, None)
        } else {
            table::rank_summary_table(&title, &row.summary, &row.rank, None)
        };
        if let (Some(d), Some(p)) = (row.mean_drift, row.mean_precision_drift) {
            text.push_str(&format!("mean drift {d:.2} (paper: noise / surfaced) · {p:.2} (PrecisionMemBench: 1 − precision)\n"));
        }
        text
    } else {
        let mut text = table::run_table(&passes.iter().map(|p| p.row.clone()).collect::<Vec<_>>());
        if let Some(s) = passes.first().and_then(|p| p.report.shard()) {
            text.push_str(&format!(
                "shard {s}: each row holds that shard's cases only (`tenure-eval merge` \
                 makes the whole run)\n"
            ));
        }
        text
    };
    let repeated: String = passes
        .iter()
        .filter_map(|p| {
            let repeats = p.report.manifest.as_ref()?.repeats.as_ref()?;
            let name = format!("{} {}", p.row.backend, p.row.kind.label());
            Some(repeats_text(&name, repeats, FAILING_SHOWN))
        })
        .collect();
    if !repeated.is_empty() {
        text.push_str(&format!("\n{repeated}"));
    }
    let failing: String = passes
        .iter()
        .map(|p| table::failing_cases(&p.report, FAILING_SHOWN))
        .collect();
    if !failing.is_empty() {
        text.push_str(&format!("\n{failing}"));
    }
    text
}

/// Each pass as a JSON row: suite, backend, kind, reports, its retrieval summary, drift and
/// repeats.
pub fn outcome_json(outcome: &JobOutcome) -> serde_json::Value {
    let rows: Vec<_> = outcome
        .passes
        .iter()
        .map(|p| {
            json!({
                "suite": p.row.suite,
                "backend": p.row.backend,
                "kind": p.row.kind.label(),
                "reports": p.reports.iter().map(|r| r.display().to_string()).collect::<Vec<_>>(),
                "retrieval": p.row.summary,
                "meanDriftScore": p.row.mean_drift,
                "meanPrecisionDriftScore": p.row.mean_precision_drift,
                "repeats": p.report.manifest.as_ref().and_then(|m| m.repeats.as_ref()),
            })
        })
        .collect();
    serde_json::Value::Array(rows)
}
