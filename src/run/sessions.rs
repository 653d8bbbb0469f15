//! Session cases (spec §I): one store shared by every session case in file order; each turn
//! retrieves first, then applies its mutations, which the next turn sees.

use super::{elapsed_ms, ingest, now_rfc3339, Ingestion, Observer};
use crate::backend::{Backend, BackendKind};
use crate::context::{self, Budget, Context, ContextRequest};
use crate::error::{Error, Result};
use crate::eval::assertions::check_turn;
use crate::eval::metrics::{turn_metrics, TurnMetrics};
use crate::eval::summary::{summarise, Outcome, Summary};
use crate::js::round2;
use crate::store::BeliefStore;
use crate::suite::{BeliefUpdate, Suite, TurnLabel, DEFAULT_USER};
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
    /// Failures in check order; empty means passed.
    pub failures: Vec<String>,
    /// Context build time in ms (2 decimals). Measured.
    pub latency_ms: f64,
}

impl TurnResult {
    /// No failures.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// A finished session run.
#[derive(Debug, Clone)]
pub struct SessionRun {
    /// Backend used.
    pub backend: BackendKind,
    /// Backend settings for the manifest.
    pub backend_settings: serde_json::Value,
    /// Every turn, in run order.
    pub turns: Vec<TurnResult>,
    /// Session cases run.
    pub case_count: usize,
    /// Seed index build.
    pub ingestion: Ingestion,
    /// RFC 3339 start time. Measured.
    pub started_at: String,
}

impl SessionRun {
    /// The summary block over every turn (`caseCount` = session cases, plus `turnCount`).
    pub fn summary(&self) -> Summary {
        let outcomes: Vec<Outcome<'_>> = self
            .turns
            .iter()
            .map(|t| Outcome {
                category: SESSION_CATEGORY,
                passed: t.passed(),
                precision: t.metrics.retrieval_precision,
                recall: t.metrics.retrieval_recall,
                latency_ms: t.latency_ms,
            })
            .collect();
        summarise(&outcomes, self.case_count, Some(self.turns.len()))
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

/// Run every session case of `suite` in file order against one shared store and index.
pub fn run_sessions(
    suite: &Suite,
    kind: BackendKind,
    observer: &mut dyn Observer,
) -> Result<SessionRun> {
    let started_at = now_rfc3339();
    let (backend, ingestion) = ingest(&kind, &suite.corpus, observer)?;
    run_sessions_on(suite, kind, backend, ingestion, started_at, observer)
}

/// [`run_sessions`] on a backend already built over `suite.corpus` (for backends configured
/// beyond their defaults, such as BM25 with replaced versions expunged).
pub fn run_sessions_on(
    suite: &Suite,
    kind: BackendKind,
    mut backend: Box<dyn Backend>,
    ingestion: Ingestion,
    started_at: String,
    observer: &mut dyn Observer,
) -> Result<SessionRun> {
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
            let start = Instant::now();
            let ctx = context::build(&store, backend.as_ref(), suite.profile, &request)?;
            let latency_ms = round2(elapsed_ms(start));
            let (failures, noise) = check_turn(turn.turn_index, &turn.expect, &ctx);
            let metrics = turn_metrics(&turn.expect, &ctx, &noise);
            let label = format!("{} turn {}", case.case_id, turn.turn_index);
            turns.push(TurnResult {
                case_id: case.case_id.clone(),
                turn_index: turn.turn_index,
                label: turn.label,
                context: ctx,
                noise,
                metrics,
                failures,
                latency_ms,
            });
            observer.finished(turns.len(), total, &label);

            // Mutations are visible from the next turn on.
            if let Some(created) = &turn.create_belief_at_turn {
                store.insert(created.clone());
                backend.insert(created)?;
            }
            if let Some(update) = &turn.update_belief_at_turn {
                apply_update(&mut store, backend.as_mut(), update)?;
            }
        }
    }
    Ok(SessionRun {
        backend: kind,
        backend_settings: backend.settings(),
        turns,
        case_count: suite.sessions.len(),
        ingestion,
        started_at,
    })
}

/// Upstream issues the `$set` and the `$addToSet` as two MongoDB updates; each one that writes
/// re-indexes the document, leaving a replaced version behind.
fn apply_update(
    store: &mut BeliefStore,
    backend: &mut dyn Backend,
    update: &BeliefUpdate,
) -> Result<()> {
    if store.get(&update.belief_id).is_none() {
        return Err(Error::backend(
            backend.id(),
            format!("update of unknown belief {:?}", update.belief_id),
        ));
    }
    if let Some(version) = store.set_fields(update) {
        backend.replace(version)?;
    }
    if let Some(version) = store.add_aliases(update) {
        backend.replace(version)?;
    }
    Ok(())
}
