//! The static cases of a suite, each against the seed corpus.

use super::{attempt, elapsed_ms, ingest, now_rfc3339, CaseError, Ingestion, Observer};
use crate::backend::{BackendFactory, BackendInfo};
use crate::context::{self, Budget, Context, ContextRequest};
use crate::error::Result;
use crate::eval::assertions::check_static;
use crate::eval::metrics::{static_metrics, CaseMetrics};
use crate::eval::summary::{summarise, Outcome, Summary, UNCATEGORISED};
use crate::js::round2;
use crate::profile::Profile;
use crate::query;
use crate::store::BeliefStore;
use crate::suite::{Suite, DEFAULT_USER};
use std::time::Instant;

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
}

/// The context of an entry the backend failed on: the prepared query, nothing retrieved.
pub(crate) fn empty_context(message: &str, profile: Profile) -> Context {
    Context {
        expanded_query: query::prepare(message, profile).query,
        persona_prelude: String::new(),
        pinned: Vec::new(),
        relevant: Vec::new(),
        questions: Vec::new(),
        search_scores: Vec::new(),
    }
}

/// A finished static run.
#[derive(Debug, Clone)]
pub struct StaticRun {
    /// Who the backend is.
    pub backend: BackendInfo,
    /// Backend settings for the manifest.
    pub backend_settings: serde_json::Value,
    /// Per-case results in file order.
    pub results: Vec<CaseResult>,
    /// Index build.
    pub ingestion: Ingestion,
    /// RFC 3339 start time. Measured.
    pub started_at: String,
}

impl StaticRun {
    /// The summary block over every case.
    pub fn summary(&self) -> Summary {
        let outcomes: Vec<Outcome<'_>> = self
            .results
            .iter()
            .map(|r| Outcome {
                category: r.category.as_deref().unwrap_or(UNCATEGORISED),
                passed: r.passed(),
                precision: r.metrics.retrieval_precision,
                recall: r.metrics.retrieval_recall,
                latency_ms: r.latency_ms,
                errored: r.error.is_some(),
            })
            .collect();
        summarise(&outcomes, self.results.len(), None)
    }

    /// Cases the backend failed on.
    pub fn errored(&self) -> usize {
        self.results.iter().filter(|r| r.error.is_some()).count()
    }
}

/// Ids of every `test-user` belief pinned in the seed (resolved ones and questions included).
fn pinned_in_seed(suite: &Suite) -> Vec<String> {
    suite
        .corpus
        .iter()
        .filter(|b| b.user_id == DEFAULT_USER && b.pinned)
        .map(|b| b.id.clone())
        .collect()
}

/// Run every static case of `suite` against a fresh index built by `factory`.
pub fn run_static(
    suite: &Suite,
    factory: &dyn BackendFactory,
    observer: &mut dyn Observer,
) -> Result<StaticRun> {
    let started_at = now_rfc3339();
    let (index, ingestion) = ingest(factory, &suite.corpus, observer)?;
    let store = BeliefStore::new(&suite.corpus);
    let pinned = pinned_in_seed(suite);
    let profile: Profile = suite.profile;

    let mut results = Vec::with_capacity(suite.cases.len());
    for case in &suite.cases {
        let request = ContextRequest {
            user_id: case.user(),
            scope: &case.scope,
            message: &case.query,
            budget: Budget::with(case.budget.as_ref()),
        };
        let start = Instant::now();
        let built = attempt(&case.case_id, observer, || {
            context::build(&store, index.as_ref(), profile, &request)
        });
        let latency_ms = round2(elapsed_ms(start));
        let (failures, metrics, context, error) = match built {
            Ok(ctx) => (
                check_static(&case.expect, &ctx, profile),
                static_metrics(&case.expect, &ctx, profile, &pinned),
                ctx,
                None,
            ),
            Err(e) => (
                Vec::new(),
                CaseMetrics::default(),
                empty_context(&case.query, profile),
                Some(e),
            ),
        };
        let result = CaseResult {
            case_id: case.case_id.clone(),
            description: case.description.clone(),
            category: case.category.clone(),
            failures,
            metrics,
            context,
            error,
            latency_ms,
        };
        observer.finished(results.len() + 1, suite.cases.len(), &result.case_id);
        results.push(result);
    }
    Ok(StaticRun {
        backend: index.info().clone(),
        backend_settings: index.settings(),
        results,
        ingestion,
        started_at,
    })
}
