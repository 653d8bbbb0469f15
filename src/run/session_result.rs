//! A session turn's result, and a finished session run with its summary and drift.

use super::journal::Stopped;
use super::{CaseError, Ingestion};
use crate::backend::BackendInfo;
use crate::context::Context;
use crate::eval::metrics::TurnMetrics;
use crate::eval::summary::{summarise, Outcome, Summary};
use crate::suite::TurnLabel;

/// The category every session turn is reported under.
pub const SESSION_CATEGORY: &str = "Session-level noise isolation";

/// Result of one turn.
#[derive(Debug, Clone)]
pub struct TurnResult {
    /// Session case id.
    pub case_id: String,
    /// Turn index.
    pub turn_index: i64,
    /// Turn label.
    pub label: TurnLabel,
    /// The built context.
    pub context: Context,
    /// Noise beliefs that surfaced.
    pub noise: Vec<String>,
    /// Metrics.
    pub metrics: TurnMetrics,
    /// Failures in check order; empty means passed (unless errored).
    pub failures: Vec<String>,
    /// The backend failed on this turn's search (no context, null metrics), or on the
    /// mutation after it (the turn's own result stands; later turns see a store without it).
    pub error: Option<CaseError>,
    /// Context build time in ms (2 decimals). Measured.
    pub latency_ms: f64,
}

impl TurnResult {
    /// No failures and no error.
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.error.is_none()
    }
}

/// A finished session run.
#[derive(Debug, Clone)]
pub struct SessionRun {
    /// Who the backend is.
    pub backend: BackendInfo,
    /// Backend settings for the manifest.
    pub backend_settings: serde_json::Value,
    /// Every turn, in run order.
    pub turns: Vec<TurnResult>,
    /// Session cases run.
    pub case_count: usize,
    /// Seed index build.
    pub ingestion: Ingestion,
    /// The backend's counters at the end of the run (remote backends). Measured.
    pub backend_stats: Option<serde_json::Value>,
    /// Extra attempts after transient failures. Measured.
    pub retries: u32,
    /// Turns taken from a journal (`--resume`, `--replay`) instead of being sent. Not in reports.
    pub reused: usize,
    /// RFC 3339 start time. Measured.
    pub started_at: String,
    /// The run stopped before its last turn: where and why (`turns` hold those before).
    pub stopped: Option<Stopped>,
    /// A `--rerun-failed` run's turns taken and sent again, for its manifest.
    pub rerun: Option<super::journal::Rerun>,
}

impl SessionRun {
    /// The turns a report lists: all of them, except for a backend reproducing an upstream
    /// client exactly, whose failed turns upstream lost.
    pub(crate) fn reported(&self) -> Vec<&TurnResult> {
        self.turns
            .iter()
            .filter(|t| !(self.backend.upstream_exact && t.error.is_some()))
            .collect()
    }

    /// The summary block over the reported turns (`caseCount` = session cases, plus
    /// `turnCount`).
    pub fn summary(&self) -> Summary {
        let outcomes: Vec<Outcome> = self
            .reported()
            .into_iter()
            .map(|t| Outcome {
                category: SESSION_CATEGORY.to_string(),
                passed: t.passed(),
                precision: t.metrics.retrieval_precision,
                recall: t.metrics.retrieval_recall,
                latency_ms: t.latency_ms,
                errored: t.error.is_some(),
            })
            .collect();
        summarise(&outcomes, self.case_count, Some(outcomes.len()))
    }

    /// Mean drift over the turns measured (paper `driftScore`, PrecisionMemBench 1 −
    /// precision); `None` when there is none: a shard without sessions, or a run whose every
    /// turn the backend failed on (its drift read 0.00, the best a system can do).
    pub fn mean_drift_scores(&self) -> Option<(f64, f64)> {
        let measured: Vec<_> = self.turns.iter().filter(|t| t.error.is_none()).collect();
        let n = measured.len() as f64;
        // Folds from +0.0: `Sum` of nothing is -0.0.
        let drift = (measured.iter().map(|t| t.metrics.drift_score)).fold(0.0, |a, b| a + b);
        let precision_drift =
            (measured.iter().map(|t| t.metrics.precision_drift_score)).fold(0.0, |a, b| a + b);
        (!measured.is_empty()).then(|| (drift / n, precision_drift / n))
    }

    /// Turns the backend failed on.
    pub fn errored(&self) -> usize {
        self.turns.iter().filter(|t| t.error.is_some()).count()
    }

    /// Session cases whose every turn passed.
    pub fn cases_passed(&self) -> usize {
        let mut ids: Vec<&str> = self.turns.iter().map(|t| t.case_id.as_str()).collect();
        ids.dedup();
        ids.iter()
            .filter(|id| {
                self.turns
                    .iter()
                    .filter(|t| t.case_id == **id)
                    .all(TurnResult::passed)
            })
            .count()
    }
}
