//! Session cases (spec §I): one store shared by every session case in file order; each turn
//! retrieves first, then applies its mutations, which the next turn sees.

use super::journal::{Built, Checkpoint, Entry, Line, Playback, Stopped, Taping};
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
    /// The run stopped before its last turn: where and why (`turns` hold those before).
    pub stopped: Option<Stopped>,
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
    let mut none = Checkpoint::none();
    let run = run_sessions_journaled(suite, factory, observer, &mut none, &mut |_, _| Ok(()))?;
    match run.stopped {
        Some(stop) => Err(Error::backend(&run.backend.id, stop.reason)),
        None => Ok(run),
    }
}

/// [`run_sessions`] keeping a journal (`checkpoint`), each turn handed to `each` as it
/// finishes (an error from it stops the run). A continued run replays the mutations of the
/// turns its journal holds, in order, against the freshly seeded store (their searches are
/// not sent again), so the first turn it runs sees the store it would have seen; a stopped
/// run returns with `stopped` set and the turns before it.
pub fn run_sessions_journaled(
    suite: &Suite,
    factory: &dyn BackendFactory,
    observer: &mut dyn Observer,
    checkpoint: &mut Checkpoint,
    each: &mut dyn FnMut(&BackendInfo, &TurnResult) -> Result<()>,
) -> Result<SessionRun> {
    let started_at = now_rfc3339();
    let (mut backend, mut ingestion) = ingest(factory, &suite.corpus, Workload::Session, observer)?;
    checkpoint.begin(&Built {
        backend: backend.info().clone(),
        settings: backend.settings(),
        belief_count: ingestion.belief_count,
        total_ms: ingestion.total_ms,
        seeding: ingestion.seeding.clone(),
    })?;
    let labels = suite.sessions.iter().flat_map(|c| {
        c.turns
            .iter()
            .map(move |t| turn_label(&c.case_id, t.turn_index))
    });
    if checkpoint.replaying() {
        if let Some((n, first)) = checkpoint.missing(labels) {
            return Err(Error::Usage(format!(
                "--replay: the recording lacks {n} of the suite's session turns (first: {first})"
            )));
        }
        if let Some(recorded) = checkpoint.recorded_ingestion() {
            ingestion = recorded;
        }
    }
    let (reuse, mut journal) = checkpoint.parts();
    let fidelity = Fidelity::new(suite.profile, backend.info().reader);
    let info = backend.info().clone();
    let mut retries = 0;
    let mut store = BeliefStore::new(&suite.corpus);
    let total: usize = suite.sessions.iter().map(|c| c.turns.len()).sum();
    let mut turns = Vec::with_capacity(total);
    let mut stopped = None;
    'run: for case in &suite.sessions {
        for turn in &case.turns {
            let label = turn_label(&case.case_id, turn.turn_index);
            if super::stop_requested() {
                stopped = Some(stopped_after(&turns, "interrupted"));
                break 'run;
            }
            let i = turns.len();
            backend.at_turn(i);
            let recorded = reuse.entry(i);
            let (built, mut entry) = match recorded {
                Some(entry) => (replayed(entry, &store, backend.as_ref(), suite, turn), None),
                None => {
                    let (built, entry) =
                        search(i, &label, &store, backend.as_ref(), suite, turn, observer);
                    retries += entry.retries;
                    (built, Some(entry))
                }
            };
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
            match (recorded, mutated) {
                // The store could not be brought back to this turn's state: what follows would
                // be measured against another store.
                (Some(r), Err(e)) if r.mutation_error.is_none() => {
                    stopped = Some(Stopped {
                        at: label.clone(),
                        reason: format!(
                            "replaying the journal's mutations of {label}: {}",
                            e.message
                        ),
                    });
                    break 'run;
                }
                (Some(r), _) => error = error.or_else(|| r.mutation_error.clone()),
                (None, Err(e)) => {
                    if let Some(entry) = &mut entry {
                        entry.mutation_error = Some(e.clone());
                    }
                    error = error.or(Some(e));
                }
                (None, Ok(())) => {}
            }
            let latency_ms = recorded.map_or_else(
                || entry.as_ref().map_or(0.0, |e| e.latency_ms),
                |r| r.latency_ms,
            );
            let mut context = context;
            if let Some(r) = recorded {
                context.search_ms = r.search_ms;
            }
            let result = TurnResult {
                case_id: case.case_id.clone(),
                turn_index: turn.turn_index,
                label: turn.label,
                context,
                noise,
                metrics,
                failures,
                error,
                latency_ms,
            };
            if let (Some(entry), Some(journal)) = (entry, journal.as_deref_mut()) {
                journal.write(&Line::Case(entry))?;
            }
            let handed = each(&info, &result);
            turns.push(result);
            observer.finished(turns.len(), total, &label);
            if let Err(e) = handed {
                stopped = Some(Stopped {
                    at: label,
                    reason: match e {
                        Error::Backend { message, .. } => message,
                        other => other.to_string(),
                    },
                });
                break 'run;
            }
        }
    }
    let backend_stats = backend.stats();
    match &stopped {
        Some(s) => checkpoint.stop(&s.at, &s.reason),
        None => checkpoint.finish(backend_stats.clone())?,
    }
    Ok(SessionRun {
        backend: info,
        backend_settings: backend.settings(),
        backend_stats,
        retries,
        turns,
        case_count: suite.sessions.len(),
        ingestion,
        started_at,
        stopped,
    })
}

/// How a turn is named in progress, errors and the journal.
fn turn_label(case_id: &str, turn_index: i64) -> String {
    format!("{case_id} turn {turn_index}")
}

/// A stop after the last finished turn.
fn stopped_after(turns: &[TurnResult], reason: &str) -> Stopped {
    Stopped {
        at: turns
            .last()
            .map_or(String::new(), |t| turn_label(&t.case_id, t.turn_index)),
        reason: reason.to_string(),
    }
}

/// A turn's search, live: the context (or the error) and its journal entry.
fn search(
    i: usize,
    label: &str,
    store: &BeliefStore,
    backend: &dyn Backend,
    suite: &Suite,
    turn: &crate::suite::Turn,
    observer: &mut dyn Observer,
) -> (std::result::Result<Context, CaseError>, Entry) {
    let request = ContextRequest {
        user_id: DEFAULT_USER,
        scope: &turn.scope,
        message: &turn.user_message,
        budget: Budget::default(),
    };
    let start = Instant::now();
    let mut retries = 0;
    let taping = Taping::new(backend);
    let built = match seeding_failed(backend) {
        Some(e) => Err(e),
        None => attempt(
            label,
            backend.retry_policy(),
            &mut retries,
            observer,
            || context::build(store, &taping, suite.profile, &request),
        ),
    };
    let entry = Entry {
        i,
        id: label.to_string(),
        calls: if built.is_ok() {
            taping.calls()
        } else {
            Vec::new()
        },
        error: built.as_ref().err().cloned(),
        mutation_error: None,
        latency_ms: round2(elapsed_ms(start)),
        search_ms: built.as_ref().ok().and_then(|c| c.search_ms),
        retries,
    };
    (built, entry)
}

/// A turn's search from its journal entry: the context rebuilt from the recorded answers
/// against the store as the journal's mutations left it, or the recorded error.
fn replayed(
    entry: &Entry,
    store: &BeliefStore,
    backend: &dyn Backend,
    suite: &Suite,
    turn: &crate::suite::Turn,
) -> std::result::Result<Context, CaseError> {
    if let Some(error) = &entry.error {
        return Err(error.clone());
    }
    let request = ContextRequest {
        user_id: DEFAULT_USER,
        scope: &turn.scope,
        message: &turn.user_message,
        budget: Budget::default(),
    };
    let playback = Playback::new(backend.info(), &entry.calls);
    context::build(store, &playback, suite.profile, &request).map_err(|e| CaseError {
        kind: e.kind,
        message: e.message,
        attempts: 1,
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
