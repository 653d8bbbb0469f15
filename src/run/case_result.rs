//! One static case's result, and the context of a case the backend failed on.

use super::CaseError;
use crate::context::Context;
use crate::eval::metrics::CaseMetrics;
use crate::eval::summary::{Outcome, UNCATEGORISED};
use crate::profile::Profile;
use crate::query;

/// Result of one static case.
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// Case id.
    pub case_id: String,
    /// Case description.
    pub description: String,
    /// Category, when the case has one.
    pub category: Option<String>,
    /// The built context.
    pub context: Context,
    /// Metrics.
    pub metrics: CaseMetrics,
    /// Failures in check order; empty means passed (unless errored).
    pub failures: Vec<String>,
    /// The backend failed on this case: no context, null metrics, not passed.
    pub error: Option<CaseError>,
    /// Context build time in ms (2 decimals). Measured.
    pub latency_ms: f64,
}

impl CaseResult {
    /// No failures and no error.
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.error.is_none()
    }

    /// What the summary needs of it.
    pub(crate) fn outcome(&self) -> Outcome {
        Outcome {
            category: self
                .category
                .as_deref()
                .unwrap_or(UNCATEGORISED)
                .to_string(),
            passed: self.passed(),
            precision: self.metrics.retrieval_precision,
            recall: self.metrics.retrieval_recall,
            latency_ms: self.latency_ms,
            errored: self.error.is_some(),
        }
    }
}

/// The context of an entry the backend failed on: the prepared query, nothing retrieved.
pub fn empty_context(message: &str, profile: Profile) -> Context {
    Context {
        expanded_query: query::prepare(message, profile).query,
        persona_prelude: String::new(),
        pinned: Vec::new(),
        relevant: Vec::new(),
        questions: Vec::new(),
        search_scores: Vec::new(),
        diagnostics: None,
        search_ms: None,
    }
}
