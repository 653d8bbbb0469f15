//! A run's journal: every finished case (or session turn) written down as it completes, so
//! that a run that stops (Ctrl-C, a kill, `--max-errors`, a lost store) keeps what it
//! measured, `--resume` and `--rerun-errored` continue it without sending a finished case
//! again, and `--replay` re-scores it without the system.
//!
//! What is kept is what the backend answered, not what the harness made of it: each search
//! call's text and hits (ids, scores, explanations), or the case's error, and the measured
//! latencies. A replayed case rebuilds its context from those answers through the same
//! context builder, assertions and metrics as a live one, so a replay with other measures or
//! gates, or with a later tenure-eval, is scored by today's code (docs/journal.md).
//!
//! The format is JSON lines, version [`FORMAT`]; each line one object with one key:
//! `header` (what ran: the suite and its inputs' sha256, the kind, the label), `built` (who
//! the backend was and how its store was seeded; again after each resume), `case` (one
//! finished case or turn: an [`Entry`]), `stopped` (why the run stopped, and where) and `end`
//! (the run finished). A line reaches the operating system as its case finishes: a kill of
//! tenure-eval loses at most the cases in flight, and a torn last line is ignored on reading.

mod checkpoint;
mod file;
mod recorded;
pub(crate) mod stats;
mod tape;

use crate::shard::Shard;
pub use checkpoint::{Checkpoint, JournalPath, Reuse};
pub use file::{interrupted, JournalWriter};
pub use recorded::Recorded;
pub(crate) use tape::{Playback, ReplayBackend, Taping};

use super::{CaseError, Ingestion};
use crate::backend::{BackendInfo, Hit, Seeding};
use serde::{Deserialize, Serialize};

/// The journal format's version: a reader refuses any other.
pub(crate) const FORMAT: u32 = 1;

/// Settings of a remote system that say how to reach and drive it, not what it answers: a
/// resumed run may change them (the system restarted on another port, a longer timeout).
/// `store` says where a model's vectors were read from or that they were computed in memory;
/// what they are is `storeSha256`, compared with the rest (a store written between two passes
/// once refused a resume of the same vectors).
pub(crate) const DRIVING: &[&str] = &[
    "url",
    "store",
    "timeoutSecs",
    "retries",
    "seedDelayMs",
    "waitAfterSeed",
];

/// What ran: written once, first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Header {
    /// [`FORMAT`].
    pub format: u32,
    /// The tenure-eval version that wrote it.
    pub tool_version: String,
    /// `static` or `session`.
    pub kind: String,
    /// The suite's name.
    pub suite: String,
    /// `paper` or `head`.
    pub profile: String,
    /// Each input file's role and sha256 (paths may differ between machines; bytes may not).
    pub inputs: Vec<(String, String)>,
    /// Cases (or turns) the run has.
    pub total: usize,
    /// The run's label when one was given (`--label`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The shard this run is (`--shard K/N`); `None` for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// When the run began (RFC 3339): a replay's and a merge's reports are dated by it (the
    /// earliest shard's), not by when they were made. Not compared between runs. `None` in a
    /// journal of an earlier tenure-eval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
}

/// Header keys that say when, not what: a continued run's header is compared without them.
pub(crate) const WHEN: &[&str] = &["startedAt"];

/// Who answered, written after the backend was built (again after each resume).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Built {
    /// What the backend says it is.
    pub backend: BackendInfo,
    /// Its settings, as the manifest writes them.
    pub settings: serde_json::Value,
    /// Beliefs indexed or seeded.
    pub belief_count: usize,
    /// Index build or seeding time, ms. Measured.
    pub total_ms: f64,
    /// How a remote store was seeded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeding: Option<Seeding>,
    /// This run is a `--rerun-failed`: every case written after this line is a second try,
    /// which a later `--resume` of it, if it stops, still counts ([`Recorded::second_tries`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub second_look: bool,
}

impl Built {
    /// The ingestion this line records.
    pub(crate) fn ingestion(&self) -> Ingestion {
        Ingestion {
            belief_count: self.belief_count,
            total_ms: self.total_ms,
            seeding: self.seeding.clone(),
        }
    }
}

/// One search call of a case: the text searched and what came back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Call {
    /// The search text the context builder sent.
    pub text: String,
    /// The hits, in the backend's order.
    pub hits: Vec<Hit>,
}

/// One finished case or turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Entry {
    /// Its position: the case's in the cases file, or the turn's over every session.
    pub i: usize,
    /// Case id, or `CASE turn N`.
    pub id: String,
    /// The search calls, in order (none when the case errored before searching).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<Call>,
    /// The backend failed on the case's search: no context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<CaseError>,
    /// A session turn's mutation failed after its search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutation_error: Option<CaseError>,
    /// The case's context build time, ms. Measured.
    pub latency_ms: f64,
    /// The backend's search time, ms. Measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_ms: Option<f64>,
    /// Extra attempts after transient failures. Measured.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub retries: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Entry {
    /// Errored, in its search or its mutation: `--resume` and `--rerun-errored` run it again.
    pub(crate) fn errored(&self) -> bool {
        self.error.is_some() || self.mutation_error.is_some()
    }
}

/// A `--rerun-failed` run's second look, as its manifest records it (`rerunFailed`): a case it
/// passed may be a pass on a second try, which a clean run's manifest could not be told from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Rerun {
    /// Cases (or session turns) the journal had as passed, taken from it.
    pub taken: usize,
    /// Cases (or turns) the journal had as failed or errored, sent to the system again.
    pub sent: usize,
}

/// Why a run stopped before its end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stopped {
    /// The last case or turn it got to (`""` before the first).
    pub at: String,
    /// Why: `interrupted`, or the error that stopped it.
    pub reason: String,
}

impl Stopped {
    /// Stopped at case `at` by `error` (a backend's own message, without our prefix).
    pub(crate) fn at(at: &str, error: &crate::error::Error) -> Stopped {
        let reason = match error {
            crate::error::Error::Backend { message, .. } => message.clone(),
            other => other.to_string(),
        };
        Stopped {
            at: at.to_string(),
            reason,
        }
    }
}

/// The run reached its last case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct End {
    /// A remote backend's counters. Measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend_stats: Option<serde_json::Value>,
    /// The run's last `--rerun-failed` (carried through later continuations and merges: the
    /// rows keep its second tries, so the report must keep saying so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerun_failed: Option<Rerun>,
}

/// One line of a journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum Line {
    /// What ran.
    Header(Header),
    /// Who answered.
    Built(Built),
    /// A finished case or turn.
    Case(Entry),
    /// Why it stopped.
    Stopped(Stopped),
    /// It finished.
    End(End),
}

/// What a run does with a journal it finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Continue {
    /// Start over: a new journal replaces the old.
    Fresh,
    /// Go on with a run that did not finish: every case without a good result runs.
    Resume,
    /// Run again the cases a finished run errored on.
    RerunErrored,
    /// Run again the cases a finished run failed (an assertion, not an error), and those it
    /// errored on; the passed ones are taken from the journal.
    RerunFailed,
    /// Send nothing: every case from the recording.
    Replay,
}

impl Continue {
    /// The flag that asks for it.
    pub(crate) fn flag(self) -> &'static str {
        match self {
            Continue::Fresh => "(a fresh run)",
            Continue::Resume => "--resume",
            Continue::RerunErrored => "--rerun-errored",
            Continue::RerunFailed => "--rerun-failed",
            Continue::Replay => "--replay",
        }
    }

    /// Is `entry` taken from the journal instead of run?
    pub(crate) fn reuses(self, entry: &Entry) -> bool {
        match self {
            Continue::Fresh => false,
            // A failed case is taken from the journal too, to be judged again and rerun
            // (`Reuse::reruns_failed`): only the runner knows whether it passed.
            Continue::Resume | Continue::RerunErrored | Continue::RerunFailed => !entry.errored(),
            Continue::Replay => true,
        }
    }
}

#[cfg(test)]
mod tests;
