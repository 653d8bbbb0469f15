//! Session cases (spec §I): one store shared by every session case in file order; each turn
//! retrieves first, then applies its mutations, which the next turn sees.

use super::journal::{Built, Checkpoint, Entry, Line, Playback, Stopped, Taping};
use super::mutations::mutate;
pub use super::session_result::{SessionRun, TurnResult, SESSION_CATEGORY};
use super::static_cases::empty_context;
use super::{attempt, elapsed_ms, ingest, now_rfc3339, seeding_failed, CaseError, Observer};
use crate::backend::{Backend, BackendFactory, BackendInfo, Workload};
use crate::context::{self, Budget, Context, ContextRequest};
use crate::error::{Error, Result};
use crate::eval::assertions::check_turn;
use crate::eval::metrics::{turn_metrics, TurnMetrics};
use crate::js::round2;
use crate::profile::Fidelity;
use crate::store::BeliefStore;
use crate::suite::{Suite, DEFAULT_USER};
use std::time::Instant;

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
    let started_at = checkpoint.started_at().unwrap_or_else(now_rfc3339);
    let (mut backend, mut ingestion) = ingest(factory, &suite.corpus, Workload::Session, observer)?;
    let labels = suite.sessions.iter().flat_map(|c| {
        c.turns
            .iter()
            .map(move |t| turn_label(&c.case_id, t.turn_index))
    });
    let built = Built {
        backend: backend.info().clone(),
        settings: backend.settings(),
        belief_count: ingestion.belief_count,
        total_ms: ingestion.total_ms,
        seeding: ingestion.seeding.clone(),
        // `Checkpoint::begin` marks a second look's.
        second_look: false,
    };
    checkpoint.begin(&built, labels.clone())?;
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
    // A shard runs its own session cases; the others' turns only mutate the store, so that
    // each of its turns sees the store the whole run would have shown it.
    let shard = checkpoint.shard();
    let ours = |id: &str| shard.is_none_or(|s| s.runs(id));
    let (reuse, mut journal) = checkpoint.parts();
    // Answers are copied for the journal only when one is written.
    let keep = journal.is_some();
    let fidelity = Fidelity::new(suite.profile, backend.info().reader);
    let info = backend.info().clone();
    let mut retries = 0;
    let (mut reused, mut sent) = (0, 0);
    let mut store = BeliefStore::new(&suite.corpus);
    let total: usize = suite
        .sessions
        .iter()
        .filter(|c| ours(&c.case_id))
        .map(|c| c.turns.len())
        .sum();
    let mut turns = Vec::with_capacity(total);
    // The turn's place over every session of the suite (what the journal keys it by).
    let mut i = 0;
    let mut stopped = super::seeding_stop(backend.as_ref());
    let running = super::Running::start();
    'run: for case in suite.sessions.iter().filter(|_| stopped.is_none()) {
        for turn in &case.turns {
            let label = turn_label(&case.case_id, turn.turn_index);
            if super::stop_requested() {
                stopped = Some(stopped_after(&turns, "interrupted"));
                break 'run;
            }
            backend.at_turn(i);
            i += 1;
            if !ours(&case.case_id) {
                remember(backend.as_ref(), &store, suite, turn);
                if let Err(e) = mutate(
                    &mut store,
                    backend.as_mut(),
                    turn,
                    &label,
                    observer,
                    &mut retries,
                )? {
                    stopped = Some(Stopped {
                        at: label.clone(),
                        reason: format!("the mutations of {label}, another shard's: {}", e.message),
                    });
                    break 'run;
                }
                continue;
            }
            let i = i - 1;
            let recorded = reuse.entry(i);
            // `--rerun-failed`: a turn the journal has as failed is searched again.
            let taken = reuse.take(
                i,
                |e| replayed(e, &store, backend.as_ref(), suite, turn),
                |built| {
                    built.as_ref().is_ok_and(|ctx| {
                        check_turn(turn.turn_index, &turn.expect, ctx, fidelity.harness())
                            .0
                            .is_empty()
                    })
                },
            );
            reused += usize::from(taken.is_some());
            sent += usize::from(taken.is_none());
            let (built, mut entry) = match taken {
                Some(built) => {
                    remember(backend.as_ref(), &store, suite, turn);
                    (built, None)
                }
                None => {
                    let (built, entry) = search(
                        i,
                        &label,
                        &store,
                        Taping::new(backend.as_ref(), keep),
                        suite,
                        turn,
                        observer,
                    );
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
                stopped = Some(Stopped::at(&label, &e));
                break 'run;
            }
        }
    }
    drop(running);
    let backend_stats = checkpoint.carried(backend.stats());
    let rerun = checkpoint.rerun(reused, sent);
    match &stopped {
        Some(s) => checkpoint.stop(&s.at, &s.reason),
        None => checkpoint.finish(backend_stats.clone(), rerun)?,
    }
    Ok(SessionRun {
        backend: info,
        backend_settings: backend.settings(),
        backend_stats,
        retries,
        reused,
        turns,
        case_count: suite.sessions.iter().filter(|c| ours(&c.case_id)).count(),
        ingestion,
        started_at,
        stopped,
        rerun,
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

/// What a turn asks: as the default user, its scope and message, the default budget.
fn turn_request(turn: &crate::suite::Turn) -> ContextRequest<'_> {
    ContextRequest {
        user_id: DEFAULT_USER,
        scope: &turn.scope,
        message: &turn.user_message,
        budget: Budget::default(),
    }
}

/// A turn not searched live, searched for the memory of a backend that keeps one
/// ([`Backend::remembers_searches`]); its answer is not used.
fn remember(backend: &dyn Backend, store: &BeliefStore, suite: &Suite, turn: &crate::suite::Turn) {
    if backend.remembers_searches() {
        let _ = context::build(store, backend, suite.profile, &turn_request(turn));
    }
}

/// A turn's search, live: the context (or the error) and its journal entry.
fn search(
    i: usize,
    label: &str,
    store: &BeliefStore,
    taping: Taping<'_>,
    suite: &Suite,
    turn: &crate::suite::Turn,
    observer: &mut dyn Observer,
) -> (std::result::Result<Context, CaseError>, Entry) {
    let backend: &dyn Backend = &taping;
    let request = turn_request(turn);
    let start = Instant::now();
    let mut retries = 0;
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
    let request = turn_request(turn);
    let playback = Playback::new(backend.info(), &entry.calls);
    context::build(store, &playback, suite.profile, &request).map_err(|e| CaseError {
        kind: e.kind,
        message: e.message,
        attempts: 1,
    })
}
