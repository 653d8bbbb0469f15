//! A run history on the page (`html --history DIR`): each series' table and the verdict on its
//! last change, as `tenure-eval history` prints them (`render::history`).

use serde::Serialize;

/// One series of a run history: its runs' dates, commits and measures, and the verdict on its
/// last change.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HistoryView {
    /// `label · suite kind (N runs)`.
    pub title: String,
    /// Column names: run, date, commit, then the measures.
    pub header: Vec<String>,
    /// One row per run.
    pub rows: Vec<Vec<String>>,
    /// The last change's McNemar verdict.
    pub verdict: String,
    /// Was it a regression?
    pub regression: bool,
}

/// The series of `history`, with verdicts at level `alpha`.
pub(crate) fn history_views(
    history: &[crate::analysis::history::Entry],
    alpha: f64,
) -> Vec<HistoryView> {
    use crate::analysis::history::{last_change, series};
    let series = series(history);
    let measures: Vec<String> = history
        .first()
        .map(|e| e.metrics.iter().map(|(m, _)| m.clone()).collect())
        .unwrap_or_default();
    let (tables, verdicts) = crate::render::history::tables(&series, &measures, alpha);
    tables
        .into_iter()
        .zip(verdicts)
        .zip(&series)
        .map(|((t, verdict), s)| HistoryView {
            title: t.title,
            header: t.header,
            rows: t.rows,
            verdict,
            regression: last_change(s, alpha).is_some_and(|c| c.regression),
        })
        .collect()
}
