//! Running a suite: build the backend, build each case's (or turn's) context, evaluate it.
//! Failed cases are results, not errors; so are cases the backend failed on (recorded with
//! their error, after bounded retries of transient failures). Only input failures and a
//! backend that cannot be built stop a run.

mod case_result;
pub mod journal;
mod mutations;
mod recorder;
mod session_result;
mod sessions;
mod static_cases;

pub use journal::Checkpoint;
pub use sessions::{
    run_sessions, run_sessions_journaled, SessionRun, TurnResult, SESSION_CATEGORY,
};
pub use static_cases::{
    run_static, run_static_each, run_static_journaled, run_static_with, CaseResult, StaticRun,
};

use crate::backend::{
    Backend, BackendError, BackendFactory, ErrorKind, RetryPolicy, Seeding, Workload,
};
use crate::error::Result;
use crate::suite::Belief;
use serde::Serialize;
use std::time::Instant;

/// Index build measurements (`ingestion`).
#[derive(Debug, Clone)]
pub struct Ingestion {
    /// Seed beliefs indexed.
    pub belief_count: usize,
    /// Index build time in ms. Measured.
    pub total_ms: f64,
    /// How a remote store was seeded (remote backends only).
    pub seeding: Option<Seeding>,
}

/// Why a case or turn has no result: the backend's error after the attempts made.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct CaseError {
    /// Transient (retried until the attempts ran out), permanent or unsupported.
    pub kind: ErrorKind,
    /// The backend's message.
    pub message: String,
    /// Attempts made.
    pub attempts: u32,
}

/// What happens during a run, for progress bars and logs (nextest-style events: the runner
/// reports, the observer decides what a person sees).
pub trait Observer {
    /// A backend is being prepared for `suite` (its vectors found or embedded).
    fn preparing(&mut self, _suite: &str) {}
    /// `done` of `total` texts embedded while preparing.
    fn embedding(&mut self, _done: usize, _total: usize) {}
    /// A pass (one backend, static or session) begins; `title` names it.
    fn pass_started(&mut self, _title: &str) {}
    /// The pass ended.
    fn pass_finished(&mut self) {}
    /// The backend index is being built.
    fn indexing(&mut self, _beliefs: usize) {}
    /// A remote store is being seeded: `done` of `total` beliefs sent.
    fn seeding(&mut self, _done: usize, _total: usize) {}
    /// Item (case or turn) `done` of `total` finished; `label` names it.
    fn finished(&mut self, _done: usize, _total: usize, _label: &str) {}
    /// A transient failure on `label`; attempt `attempt` follows.
    fn retrying(&mut self, _label: &str, _attempt: u32, _error: &BackendError) {}
    /// The backend failed on `label`; the run goes on.
    fn errored(&mut self, _label: &str, _error: &CaseError) {}
}

/// Set by the first Ctrl-C: runners start no new case or turn, and return what they finished
/// (the journal says where they stopped).
static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Ask every runner to stop after the cases in flight (a signal handler's first Ctrl-C).
pub fn request_stop() {
    STOP.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Has a stop been asked for?
pub fn stop_requested() -> bool {
    STOP.load(std::sync::atomic::Ordering::Relaxed)
}

/// Runners between their first and last case (what a first Ctrl-C can stop cleanly; outside
/// them, a signal ends the process at once).
static RUNNING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Is a runner running cases?
pub fn cases_running() -> bool {
    RUNNING.load(std::sync::atomic::Ordering::SeqCst) > 0
}

/// Held by a runner while it runs cases.
pub(crate) struct Running;

impl Running {
    pub(crate) fn start() -> Running {
        RUNNING.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// An observer that ignores everything.
pub struct Silent;
impl Observer for Silent {}

pub(crate) fn elapsed_ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

pub(crate) fn now_rfc3339() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// Build a backend over `corpus` for `workload`, timing it as upstream times ingestion.
pub(crate) fn ingest(
    factory: &dyn BackendFactory,
    corpus: &[Belief],
    workload: Workload,
    observer: &mut dyn Observer,
) -> Result<(Box<dyn Backend>, Ingestion)> {
    observer.indexing(corpus.len());
    let start = Instant::now();
    let backend = factory.build_for(corpus, workload, &mut |done, total| {
        observer.seeding(done, total)
    })?;
    let seeding = backend.seeding().cloned();
    Ok((
        backend,
        Ingestion {
            belief_count: corpus.len(),
            total_ms: elapsed_ms(start),
            seeding,
        },
    ))
}

/// Why a run on a store that could not be seeded stops before its first case: one error,
/// naming the belief, instead of the same error on every case.
pub(crate) fn seeding_stop(backend: &dyn Backend) -> Option<journal::Stopped> {
    let failed = seeding_failed(backend)?;
    Some(journal::Stopped {
        at: String::new(),
        reason: format!(
            "{} (`tenure-eval doctor` with the same --url checks the system)",
            failed.message
        ),
    })
}

/// The error every case of a run on a store that could not be seeded gets.
pub(crate) fn seeding_failed(backend: &dyn Backend) -> Option<CaseError> {
    let failed = backend.seeding()?.failed.as_ref()?;
    Some(CaseError {
        kind: ErrorKind::Permanent,
        message: format!("seeding failed: {failed}"),
        attempts: 1,
    })
}

/// Call `f` until it succeeds, fails for good, or has failed transiently as often as
/// `policy` allows, waiting its backoff between attempts. `retries` counts the extra attempts.
pub(crate) fn attempt<T>(
    label: &str,
    policy: RetryPolicy,
    retries: &mut u32,
    observer: &mut dyn Observer,
    mut f: impl FnMut() -> std::result::Result<T, BackendError>,
) -> std::result::Result<T, CaseError> {
    let mut attempts = 0;
    loop {
        attempts += 1;
        match f() {
            Ok(value) => return Ok(value),
            Err(e) if e.kind == ErrorKind::Transient && attempts < policy.attempts => {
                observer.retrying(label, attempts + 1, &e);
                *retries += 1;
                std::thread::sleep(policy.delay(attempts));
            }
            Err(e) => {
                let error = CaseError {
                    kind: e.kind,
                    message: e.message,
                    attempts,
                };
                observer.errored(label, &error);
                return Err(error);
            }
        }
    }
}
