//! The static cases of a suite, each against the seed corpus.

pub use super::case_result::{empty_context, CaseResult};

use super::journal::{Built, Checkpoint, Entry, Line, Playback, Stopped, Taping};
use super::recorder::Recorder;
use super::{
    attempt, elapsed_ms, ingest, now_rfc3339, seeding_failed, CaseError, Ingestion, Observer,
};
use crate::backend::{Backend, BackendFactory, BackendInfo, Workload};
use crate::context::{self, Budget, ContextRequest};
use crate::error::Result;
use crate::eval::assertions::check_static;
use crate::eval::metrics::{static_metrics, CaseMetrics};
use crate::eval::summary::{summarise, Outcome, Summary};
use crate::js::round2;
use crate::profile::Fidelity;
use crate::store::BeliefStore;
use crate::suite::{StaticCase as Case, Suite, DEFAULT_USER};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

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
    /// The backend's counters at the end of the run (remote backends). Measured.
    pub backend_stats: Option<serde_json::Value>,
    /// Extra attempts after transient failures. Measured.
    pub retries: u32,
    /// Cases taken from a journal (`--resume`, `--replay`) instead of being sent; not reported.
    pub reused: usize,
    /// RFC 3339 start time. Measured.
    pub started_at: String,
    /// Cases sent at once (`--concurrency`), which the latencies were measured under.
    pub in_flight: usize,
    /// The run stopped before its last case: where and why (`results` hold the cases before).
    pub stopped: Option<Stopped>,
    /// A `--rerun-failed` run's cases taken and sent again, for its manifest.
    pub rerun: Option<super::journal::Rerun>,
}

impl StaticRun {
    /// The results a report lists: all of them, except for a backend reproducing an upstream
    /// client exactly, whose failed cases upstream lost (provider-http spec §2.4).
    pub fn reported(&self) -> Vec<&CaseResult> {
        self.results
            .iter()
            .filter(|r| !(self.backend.upstream_exact && r.error.is_some()))
            .collect()
    }

    /// The summary block over the reported cases (`caseCount` counts every case).
    pub fn summary(&self) -> Summary {
        let outcomes: Vec<Outcome> = self
            .reported()
            .into_iter()
            .map(CaseResult::outcome)
            .collect();
        summarise(&outcomes, self.results.len(), None)
    }

    /// Cases the backend failed on.
    pub(crate) fn errored(&self) -> usize {
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

/// Run every static case of `suite` against a fresh index built by `factory`, one at a time.
pub fn run_static(
    suite: &Suite,
    factory: &dyn BackendFactory,
    observer: &mut dyn Observer,
) -> Result<StaticRun> {
    run_static_with(suite, factory, observer, 1)
}

/// Run every static case of `suite` with up to `concurrency` cases in flight (cases are
/// independent reads of one index). Results, and so reports, are in file order whatever the
/// concurrency; the observer hears of each case as it finishes, from this thread.
pub fn run_static_with(
    suite: &Suite,
    factory: &dyn BackendFactory,
    observer: &mut dyn Observer,
    concurrency: usize,
) -> Result<StaticRun> {
    let mut results = Vec::with_capacity(suite.cases.len());
    let mut run = run_static_each(suite, factory, observer, concurrency, &mut |_, r| {
        results.push(r);
        Ok(())
    })?;
    run.results = results;
    Ok(run)
}

/// [`run_static_with`], handing each case's result (with who answered it) to `each` in file
/// order as soon as it and every case before it are done, instead of keeping them: what a
/// streamed report runs, so that memory does not grow with the number of cases. The returned
/// run has no `results`. An error from `each` stops the run.
pub fn run_static_each(
    suite: &Suite,
    factory: &dyn BackendFactory,
    observer: &mut dyn Observer,
    concurrency: usize,
    each: &mut dyn FnMut(&BackendInfo, CaseResult) -> Result<()>,
) -> Result<StaticRun> {
    let mut none = Checkpoint::none();
    let run = run_static_journaled(suite, factory, observer, concurrency, &mut none, each)?;
    match run.stopped {
        Some(stop) => Err(crate::error::Error::backend(&run.backend.id, stop.reason)),
        None => Ok(run),
    }
}

/// [`run_static_each`] keeping a journal (`checkpoint`): each case written down as it
/// finishes, the cases an earlier run finished taken from its journal instead of being sent
/// again, or every case from a recording. A run stopped (an error from `each`, or Ctrl-C,
/// [`super::stop_requested`]) returns with `stopped` set, the cases before it handed over.
pub fn run_static_journaled(
    suite: &Suite,
    factory: &dyn BackendFactory,
    observer: &mut dyn Observer,
    concurrency: usize,
    checkpoint: &mut Checkpoint,
    each: &mut dyn FnMut(&BackendInfo, CaseResult) -> Result<()>,
) -> Result<StaticRun> {
    let started_at = checkpoint.started_at().unwrap_or_else(now_rfc3339);
    let (index, mut ingestion) = ingest(factory, &suite.corpus, Workload::Static, observer)?;
    let built = Built {
        backend: index.info().clone(),
        settings: index.settings(),
        belief_count: ingestion.belief_count,
        total_ms: ingestion.total_ms,
        seeding: ingestion.seeding.clone(),
        // `Checkpoint::begin` marks a second look's.
        second_look: false,
    };
    checkpoint.begin(&built, suite.cases.iter().map(|c| c.case_id.clone()))?;
    if checkpoint.replaying() {
        if let Some((n, first)) = checkpoint.missing(suite.cases.iter().map(|c| c.case_id.clone()))
        {
            return Err(crate::error::Error::Usage(format!(
                "--replay: the recording lacks {n} of the suite's {} cases (first: {first})",
                suite.cases.len()
            )));
        }
        if let Some(recorded) = checkpoint.recorded_ingestion() {
            ingestion = recorded;
        }
    }
    // The cases this run runs, by their place in the suite: every one, or a shard's.
    let shard = checkpoint.shard();
    let order: Vec<usize> = (0..suite.cases.len())
        .filter(|&i| shard.is_none_or(|s| s.runs(&suite.cases[i].case_id)))
        .collect();
    let (reuse, mut journal) = checkpoint.parts();
    // Answers are copied for the journal only when one is written.
    let keep = journal.is_some();
    let store = BeliefStore::new(&suite.corpus);
    let pinned = pinned_in_seed(suite);
    let total = order.len();
    let next = AtomicUsize::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let info = index.info().clone();
    let (send, receive) = mpsc::channel::<(usize, CaseResult, Recorder, Option<Entry>)>();
    // Finished cases waiting for an earlier one (at most about `concurrency` of them).
    let mut waiting: std::collections::BTreeMap<usize, CaseResult> = Default::default();
    let mut handed = 0;
    let (mut retries, mut reused, mut sent) = (0, 0, 0);
    let mut stopped: Option<Stopped> = super::seeding_stop(index.as_ref());
    if stopped.is_some() {
        stop.store(true, Ordering::Relaxed);
    }
    let running = super::Running::start();
    let in_flight = concurrency.clamp(1, total.max(1));
    std::thread::scope(|scope| {
        for _ in 0..in_flight {
            let send = send.clone();
            let (next, stop, index, store, pinned, order) =
                (&next, &stop, index.as_ref(), &store, &pinned, &order);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) || super::stop_requested() {
                    break;
                }
                let at = next.fetch_add(1, Ordering::Relaxed);
                let Some(&i) = order.get(at) else {
                    break;
                };
                let case = &suite.cases[i];
                let mut recorder = Recorder::default();
                let replay = |e: &Entry| replay_case(suite, case, index, store, pinned, e);
                let (result, entry) = match reuse.take(i, replay, CaseResult::passed) {
                    Some(result) => (result, None),
                    None => {
                        let (result, entry) = run_case(
                            suite,
                            i,
                            case,
                            Taping::new(index, keep),
                            store,
                            pinned,
                            &mut recorder,
                        );
                        (result, Some(entry))
                    }
                };
                if send.send((at, result, recorder, entry)).is_err() {
                    break;
                }
            });
        }
        drop(send);
        for (done, (at, result, recorder, entry)) in receive.iter().enumerate() {
            retries += recorder.replay(observer);
            reused += usize::from(entry.is_none());
            sent += usize::from(entry.is_some());
            observer.finished(done + 1, total, &result.case_id);
            if let (Some(entry), Some(journal), None) = (entry, journal.as_deref_mut(), &stopped) {
                if let Err(e) = journal.write(&Line::Case(entry)) {
                    stopped = Some(Stopped::at(&result.case_id, &e));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            waiting.insert(at, result);
            while let Some(result) = waiting.remove(&handed) {
                handed += 1;
                if stopped.is_none() {
                    let at = result.case_id.clone();
                    if let Err(e) = each(&info, result) {
                        stopped = Some(Stopped::at(&at, &e));
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    });
    drop(running);
    if stopped.is_none() && handed < total {
        let at = handed
            .checked_sub(1)
            .map_or(String::new(), |h| suite.cases[order[h]].case_id.clone());
        stopped = Some(Stopped {
            at,
            reason: "interrupted".into(),
        });
    }
    let backend_stats = checkpoint.carried(index.stats());
    let rerun = checkpoint.rerun(reused, sent);
    match &stopped {
        Some(s) => checkpoint.stop(&s.at, &s.reason),
        None => checkpoint.finish(backend_stats.clone(), rerun)?,
    }
    Ok(StaticRun {
        backend: info,
        backend_settings: index.settings(),
        backend_stats,
        results: Vec::new(),
        ingestion,
        retries,
        reused,
        started_at,
        in_flight,
        stopped,
        rerun,
    })
}

/// A case from its journal entry: the context rebuilt from the recorded answers (or the
/// recorded error), checked and measured as a live case is; its latencies as recorded.
fn replay_case(
    suite: &Suite,
    case: &Case,
    index: &dyn Backend,
    store: &BeliefStore,
    pinned: &[String],
    entry: &Entry,
) -> CaseResult {
    let playback = Playback::new(index.info(), &entry.calls);
    let mut result = match &entry.error {
        Some(error) => errored_case(suite, case, error.clone()),
        None => {
            let mut recorder = Recorder::default();
            let (result, _) = run_case(
                suite,
                entry.i,
                case,
                Taping::new(&playback, false),
                store,
                pinned,
                &mut recorder,
            );
            result
        }
    };
    result.latency_ms = entry.latency_ms;
    result.context.search_ms = entry.search_ms;
    result
}

/// The result of a case the backend failed on.
fn errored_case(suite: &Suite, case: &Case, error: CaseError) -> CaseResult {
    CaseResult {
        case_id: case.case_id.clone(),
        description: case.description.clone(),
        category: case.category.clone(),
        failures: Vec::new(),
        metrics: CaseMetrics::default(),
        context: empty_context(&case.query, suite.profile),
        error: Some(error),
        latency_ms: 0.0,
    }
}

/// One case: build its context (retrying as the backend's policy says), check, measure; and
/// its journal entry (case `i`).
fn run_case(
    suite: &Suite,
    i: usize,
    case: &Case,
    taping: Taping<'_>,
    store: &BeliefStore,
    pinned: &[String],
    recorder: &mut Recorder,
) -> (CaseResult, Entry) {
    let index: &dyn Backend = &taping;
    let fidelity = Fidelity::new(suite.profile, index.info().reader);
    let request = ContextRequest {
        user_id: case.user(),
        scope: &case.scope,
        message: &case.query,
        budget: Budget::with(case.budget.as_ref()),
    };
    let start = Instant::now();
    let mut retries = 0;
    let built = match seeding_failed(index) {
        Some(e) => Err(e),
        None => attempt(
            &case.case_id,
            index.retry_policy(),
            &mut retries,
            recorder,
            || context::build(store, &taping, suite.profile, &request),
        ),
    };
    recorder.retries += retries;
    let latency_ms = round2(elapsed_ms(start));
    let mut entry = Entry {
        i,
        id: case.case_id.clone(),
        calls: taping.calls(),
        error: None,
        mutation_error: None,
        latency_ms,
        search_ms: None,
        retries,
    };
    let result = match built {
        Ok(ctx) => {
            entry.search_ms = ctx.search_ms;
            CaseResult {
                case_id: case.case_id.clone(),
                description: case.description.clone(),
                category: case.category.clone(),
                failures: check_static(&case.expect, &ctx, fidelity),
                metrics: static_metrics(&case.expect, &ctx, fidelity, pinned),
                context: ctx,
                error: None,
                latency_ms,
            }
        }
        Err(e) => {
            entry.calls.clear();
            entry.error = Some(e.clone());
            let mut result = errored_case(suite, case, e);
            result.latency_ms = latency_ms;
            result
        }
    };
    (result, entry)
}
