//! Session cases (spec §I): one store shared by every session case in file order; each turn
//! retrieves first, then applies its mutations, which the next turn sees.

use super::static_cases::empty_context;
use super::{
    attempt, elapsed_ms, ingest, now_rfc3339, seeding_failed, CaseError, Ingestion, Observer,
};
use crate::backend::{
    Backend, BackendError, BackendFactory, BackendInfo, ErrorKind, Reader, Workload,
};
use crate::context::{self, Budget, Context, ContextRequest};
use crate::error::{Error, Result};
use crate::eval::assertions::check_turn;
use crate::eval::metrics::{turn_metrics, TurnMetrics};
use crate::eval::summary::{summarise, Outcome, Summary};
use crate::js::round2;
use crate::profile::Fidelity;
use crate::store::BeliefStore;
use crate::suite::{Belief, Suite, TurnLabel, DEFAULT_USER};
use std::time::Instant;

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
    /// RFC 3339 start time. Measured.
    pub started_at: String,
}

impl SessionRun {
    /// The turns a report lists: all of them, except for a backend reproducing an upstream
    /// client exactly, whose failed turns upstream lost.
    pub fn reported(&self) -> Vec<&TurnResult> {
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

    /// Mean drift over every turn: (paper `driftScore`, PrecisionMemBench 1 − precision).
    pub fn mean_drift_scores(&self) -> (f64, f64) {
        let n = self.turns.len().max(1) as f64;
        let drift = self
            .turns
            .iter()
            .map(|t| t.metrics.drift_score)
            .sum::<f64>();
        let precision_drift = self
            .turns
            .iter()
            .map(|t| t.metrics.precision_drift_score)
            .sum::<f64>();
        (drift / n, precision_drift / n)
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

/// Run every session case of `suite` in file order against one shared store and one index
/// built by `factory`.
pub fn run_sessions(
    suite: &Suite,
    factory: &dyn BackendFactory,
    observer: &mut dyn Observer,
) -> Result<SessionRun> {
    let started_at = now_rfc3339();
    let (mut backend, ingestion) = ingest(factory, &suite.corpus, Workload::Session, observer)?;
    let fidelity = Fidelity::new(suite.profile, backend.info().reader);
    let mut retries = 0;
    let mut store = BeliefStore::new(&suite.corpus);
    let total: usize = suite.sessions.iter().map(|c| c.turns.len()).sum();
    let mut turns = Vec::with_capacity(total);
    for case in &suite.sessions {
        for turn in &case.turns {
            let request = ContextRequest {
                user_id: DEFAULT_USER,
                scope: &turn.scope,
                message: &turn.user_message,
                budget: Budget::default(),
            };
            let label = format!("{} turn {}", case.case_id, turn.turn_index);
            backend.at_turn(turns.len());
            let start = Instant::now();
            let policy = backend.retry_policy();
            let built = match seeding_failed(backend.as_ref()) {
                Some(e) => Err(e),
                None => attempt(&label, policy, &mut retries, observer, || {
                    context::build(&store, backend.as_ref(), suite.profile, &request)
                }),
            };
            let latency_ms = round2(elapsed_ms(start));
            let (context, failures, noise, metrics, mut error) = match built {
                Ok(ctx) => {
                    let (failures, noise) =
                        check_turn(turn.turn_index, &turn.expect, &ctx, fidelity.harness());
                    let metrics = turn_metrics(&turn.expect, &ctx, &noise);
                    (ctx, failures, noise, metrics, None)
                }
                Err(e) => (
                    empty_context(&turn.user_message, suite.profile),
                    Vec::new(),
                    Vec::new(),
                    TurnMetrics::default(),
                    Some(e),
                ),
            };

            // Mutations are visible from the next turn on.
            let mutated = mutate(
                &mut store,
                backend.as_mut(),
                turn,
                &label,
                observer,
                &mut retries,
            )?;
            if let (Err(e), None) = (mutated, &error) {
                error = Some(e);
            }
            turns.push(TurnResult {
                case_id: case.case_id.clone(),
                turn_index: turn.turn_index,
                label: turn.label,
                context,
                noise,
                metrics,
                failures,
                error,
                latency_ms,
            });
            observer.finished(turns.len(), total, &label);
        }
    }
    Ok(SessionRun {
        backend: backend.info().clone(),
        backend_settings: backend.settings(),
        backend_stats: backend.stats(),
        retries,
        turns,
        case_count: suite.sessions.len(),
        ingestion,
        started_at,
    })
}

/// Apply a turn's create and update to the store and the backend. A backend failure is the
/// turn's error (the run goes on); an update of a belief the suite never created is bad input.
fn mutate(
    store: &mut BeliefStore,
    backend: &mut dyn Backend,
    turn: &crate::suite::Turn,
    label: &str,
    observer: &mut dyn Observer,
    retries: &mut u32,
) -> Result<std::result::Result<(), CaseError>> {
    let policy = backend.retry_policy();
    let mut outcome = Ok(());
    if let Some(created) = &turn.create_belief_at_turn {
        store.insert(created.clone());
        outcome = outcome.and(attempt(label, policy, retries, observer, || {
            backend.insert(created)
        }));
    }
    if let Some(update) = &turn.update_belief_at_turn {
        if store.get(&update.belief_id).is_none() {
            return Err(Error::backend(
                &backend.info().id,
                format!("update of unknown belief {:?}", update.belief_id),
            ));
        }
        if backend.info().reader == Reader::External {
            // PrecisionMemBench's session adapter uses only `addAliases`: merged locally
            // (trimmed, lower-cased, no repeats) and sent whether or not anything was added
            // (provider-http spec §6.2).
            store.add_aliases(update);
            if let Some(version) = store.get(&update.belief_id).cloned() {
                outcome = outcome.and(attempt(label, policy, retries, observer, || {
                    replace(backend, &version)
                }));
            }
            return Ok(outcome);
        }
        // Upstream issues the `$set` and the `$addToSet` as two MongoDB updates; each one that
        // writes re-indexes the document, leaving a replaced version behind.
        let versions = [
            store.set_fields(update).cloned(),
            store.add_aliases(update).cloned(),
        ];
        for version in versions.into_iter().flatten() {
            outcome = outcome.and(attempt(label, policy, retries, observer, || {
                replace(backend, &version)
            }));
        }
    }
    Ok(outcome)
}

/// Replace, or re-add where the backend has no updates (what PrecisionMemBench does with such
/// providers, spec provider-http §6.2: a second copy under the same id).
fn replace(backend: &mut dyn Backend, version: &Belief) -> std::result::Result<(), BackendError> {
    match backend.replace(version) {
        Err(e) if e.kind == ErrorKind::Unsupported => backend.insert(version),
        other => other,
    }
}
