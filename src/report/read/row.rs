//! One case or turn of a report, as the tables, comparisons and gates read it, and how it is
//! read off the schema's entries.

use crate::eval::summary::UNCATEGORISED;
use crate::report::schema::{CaseEntry, ScoreEntry, TurnEntry};
use crate::run::SESSION_CATEGORY;

/// What the tables need of one case or turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Case id.
    pub case_id: String,
    /// Turn index (sessions).
    pub turn_index: Option<i64>,
    /// Category (`Uncategorised` when absent; the session category for turns).
    pub category: String,
    /// Passed?
    pub passed: bool,
    /// Retrieval precision.
    pub precision: Option<f64>,
    /// Retrieval recall.
    pub recall: Option<f64>,
    /// Latency in ms, when reported.
    pub latency_ms: Option<f64>,
    /// Drift score as the report defines it (sessions): the paper's noise share in Tenure's
    /// and tenure-eval's reports, 1 − precision in PrecisionMemBench's of other providers.
    pub drift: Option<f64>,
    /// The paper's drift, noise / (relevant + pinned), recomputed from the turn's lists: one
    /// definition for every report (sessions).
    pub noise_drift: Option<f64>,
    /// PrecisionMemBench's drift (1 − precision), when the report carries it beside
    /// `driftScore` (tenure-eval's own session reports do).
    pub precision_drift: Option<f64>,
    /// Failure messages.
    pub failures: Vec<String>,
    /// `searchScores` as (belief id, score), when the report has them.
    pub scores: Vec<(String, f64)>,
    /// Each of `scores`' unrounded score: its `exactScore`, or the score where there is none.
    pub exact_scores: Vec<f64>,
    /// The backend failed on it (an `error` field): neither passed nor an assertion failure.
    pub errored: bool,
    /// The relevant tier in rank order.
    pub ranking: Vec<String>,
    /// The report's `rankMetrics` block, by measure name (empty when it has none).
    pub rank_metrics: crate::report::schema::RankBlock,
}

impl Row {
    /// Case id, plus the turn for session turns: the identity used to pair runs.
    pub(crate) fn key(&self) -> String {
        match self.turn_index {
            Some(t) => format!("{} turn {t}", self.case_id),
            None => self.case_id.clone(),
        }
    }
}

/// (scores, exact scores) of `searchScores`.
fn scores(entries: Option<Vec<ScoreEntry>>) -> (Vec<(String, f64)>, Vec<f64>) {
    entries
        .unwrap_or_default()
        .into_iter()
        .map(|s| ((s.id, s.score), s.exact_score.unwrap_or(s.score)))
        .unzip()
}

pub(in crate::report) fn case_row(e: CaseEntry) -> Row {
    let (scores, exact_scores) = scores(e.search_scores);
    Row {
        case_id: e.case_id,
        turn_index: None,
        category: e.category.unwrap_or_else(|| UNCATEGORISED.to_string()),
        passed: e.passed,
        precision: e.retrieval_precision,
        recall: e.retrieval_recall,
        latency_ms: e.retrieval_latency_ms,
        drift: None,
        noise_drift: None,
        precision_drift: None,
        scores,
        exact_scores,
        errored: e.error.is_some(),
        failures: e.failures,
        ranking: e.relevant_beliefs,
        rank_metrics: e.rank_metrics.unwrap_or_default(),
    }
}

pub(in crate::report) fn turn_row(e: TurnEntry) -> Row {
    let (scores, exact_scores) = scores(e.search_scores);
    Row {
        case_id: e.case_id,
        turn_index: Some(e.turn_index),
        category: e.category.unwrap_or_else(|| SESSION_CATEGORY.to_string()),
        passed: e.passed,
        precision: e.retrieval_precision.flatten(),
        recall: e.retrieval_recall.flatten(),
        latency_ms: e.retrieval_latency_ms,
        // A turn the backend failed on has no lists: no drift to recompute.
        noise_drift: e.error.is_none().then(|| {
            crate::eval::metrics::noise_share(
                e.noise_belief_ids.len(),
                e.retrieved_belief_ids.len(),
                e.pinned_belief_ids.len(),
            )
        }),
        drift: e.drift_score,
        precision_drift: e.precision_drift_score,
        scores,
        exact_scores,
        errored: e.error.is_some(),
        failures: e.failures,
        ranking: e.retrieved_belief_ids,
        rank_metrics: e.rank_metrics.unwrap_or_default(),
    }
}
