//! Running a suite: build the backend, build each case's (or turn's) context, evaluate it.
//! Failed cases are results, not errors; only input and backend failures stop a run.

mod sessions;
mod static_cases;

pub use sessions::{run_sessions, run_sessions_on, SessionRun, TurnResult, SESSION_CATEGORY};
pub use static_cases::{run_static, CaseResult, StaticRun};

use crate::backend::{Backend, BackendKind};
use crate::error::Result;
use crate::suite::Belief;
use std::time::Instant;

/// Index build measurements (`ingestion`).
#[derive(Debug, Clone, Copy)]
pub struct Ingestion {
    /// Seed beliefs indexed.
    pub belief_count: usize,
    /// Index build time in ms. Measured.
    pub total_ms: f64,
}

/// Progress of a run, for a progress bar.
pub trait Observer {
    /// The backend index is being built.
    fn indexing(&mut self, _beliefs: usize) {}
    /// Item (case or turn) `done` of `total` finished; `label` names it.
    fn finished(&mut self, _done: usize, _total: usize, _label: &str) {}
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

/// Build `kind` over `corpus`, timing it as upstream times ingestion.
pub(crate) fn ingest(
    kind: &BackendKind,
    corpus: &[Belief],
    observer: &mut dyn Observer,
) -> Result<(Box<dyn Backend>, Ingestion)> {
    observer.indexing(corpus.len());
    let start = Instant::now();
    let backend = kind.build(corpus)?;
    Ok((
        backend,
        Ingestion {
            belief_count: corpus.len(),
            total_ms: elapsed_ms(start),
        },
    ))
}
