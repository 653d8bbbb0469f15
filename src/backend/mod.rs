//! Retrieval backends behind one trait. A backend indexes beliefs and answers searches; the
//! context builder (pinned facts, questions, caps) is shared, as it is upstream.
//!
//! A new backend is a new folder here plus one variant of [`BackendConfig`]: the backend says
//! who it is ([`BackendInfo`]: provider name, label, which upstream reader it stands in for, its
//! score scale), and everything downstream (context, reports, tables, claims, figures) reads
//! that record instead of guessing from names.

pub mod bm25;
pub mod composite;
mod config;
pub mod cosine;
mod error;
mod explain;
mod filterable;
pub mod fusion;
pub mod http;
pub mod label;
pub mod recent;
mod signals;
pub mod spreading;
pub mod text;

pub use config::{BackendConfig, BackendFactory, SeedProgress};
pub use error::{BackendError, ErrorKind};
pub use explain::{Contribution, Explanation, TermMatch};
pub(crate) use filterable::{Filterable, Interner};
pub(crate) use signals::{Signals, Thresholds, Tier};

use crate::suite::{Belief, BeliefType};
use serde::{Deserialize, Serialize};

/// Hard filters of every search (spec §C.2): user, active, not a question, not expertise,
/// scope (when given) and the excluded ids (HEAD passes the pinned facts).
#[derive(Debug, Clone, Copy)]
pub struct SearchFilter<'a> {
    /// Only this user's beliefs.
    pub user_id: &'a str,
    /// Scope list; empty means no scope filter.
    pub scope: &'a [String],
    /// Ids that may not be returned.
    pub exclude_ids: &'a [String],
}

impl SearchFilter<'_> {
    /// Does `belief` pass every filter?
    pub fn admits(&self, belief: &Belief) -> bool {
        self.admits_parts(
            &belief.id,
            &belief.user_id,
            belief.is_active(),
            belief.kind,
            belief.subtype.as_deref() == Some("expertise"),
            &belief.scope,
        )
    }

    /// The same test on what an index keeps of a belief.
    pub(crate) fn admits_kept(&self, belief: &Filterable) -> bool {
        self.admits_parts(
            &belief.id,
            &belief.user_id,
            belief.active,
            belief.kind,
            belief.expertise,
            &belief.scope,
        )
    }

    /// The one filter rule, on a belief's parts.
    fn admits_parts<S: AsRef<str>>(
        &self,
        id: &str,
        user_id: &str,
        active: bool,
        kind: BeliefType,
        expertise: bool,
        scope: &[S],
    ) -> bool {
        user_id == self.user_id
            && active
            && kind != BeliefType::OpenQuestion
            && !expertise
            && (self.scope.is_empty()
                || scope
                    .iter()
                    .any(|s| self.scope.iter().any(|x| x == s.as_ref())))
            && !self.exclude_ids.iter().any(|x| x == id)
    }
}

/// One search.
#[derive(Debug, Clone, Copy)]
pub struct SearchRequest<'a> {
    /// The prepared query text (`expandedQuery`); never empty.
    pub text: &'a str,
    /// The raw user message (PrecisionMemBench's vector adapter embeds this instead).
    pub message: &'a str,
    /// Filters.
    pub filter: SearchFilter<'a>,
    /// At most this many results.
    pub limit: usize,
}

impl<'a> SearchRequest<'a> {
    /// `text` (also the message) over every belief of `user_id`: no scope filter, nothing
    /// excluded; at most `limit` results.
    pub fn of_user(user_id: &'a str, text: &'a str, limit: usize) -> SearchRequest<'a> {
        SearchRequest {
            text,
            message: text,
            filter: SearchFilter {
                user_id,
                scope: &[],
                exclude_ids: &[],
            },
            limit,
        }
    }
}

/// One search result (serialized as a run's journal keeps it, `run::journal`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    /// Belief id.
    pub id: String,
    /// Score on the backend's [`ScoreScale`]; `None` for backends that only rank.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f32>,
    /// Why it scored what it did; `None` for backends without an explanation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Explanation>,
}

/// Which upstream reader a backend stands in for (its own answer, in [`BackendInfo::reader`]).
pub use crate::profile::Reader;

/// Static cases or session turns: what a backend is built for (session cases share one store
/// across turns and send more metadata with each belief, provider-http spec §6.1), what a run
/// runs, and what a report file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// `retrieval.cases.json`.
    Static,
    /// `session-retrieval.cases.json`.
    Session,
}

impl Workload {
    /// `static` or `session`.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Workload::Static => "static",
            Workload::Session => "session",
        }
    }
}

/// How often, and how patiently, a transient failure is tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included (1: never retried).
    pub attempts: u32,
    /// Wait before the second attempt, in ms; doubled for each further one (at most 30 s).
    pub backoff_ms: u64,
}

impl Default for RetryPolicy {
    /// Three attempts at once: in-process backends fail transiently only in tests.
    fn default() -> RetryPolicy {
        RetryPolicy {
            attempts: 3,
            backoff_ms: 0,
        }
    }
}

impl RetryPolicy {
    /// The wait after failed attempt `attempt` (1-based).
    pub(crate) fn delay(&self, attempt: u32) -> std::time::Duration {
        let ms = self
            .backoff_ms
            .saturating_mul(1 << (attempt.saturating_sub(1)).min(16));
        std::time::Duration::from_millis(ms.min(30_000))
    }
}

/// How a remote backend loaded its store, for the report's `ingestion` block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Seeding {
    /// The store was reset and seeded by this run (false with `--no-reseed`).
    pub reseeded: bool,
    /// Each seed belief's `/add` time in ms (2 decimals), in seed order. Measured.
    pub per_belief: Vec<(String, f64)>,
    /// Wall-clock seeding time in ms, delays and `/wait` included. Measured.
    pub wall_ms: f64,
    /// Why seeding failed: every case then fails with it (upstream runs none).
    pub failed: Option<String>,
}

/// What a backend's scores mean, and so how reports write them and figures label them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ScoreScale {
    /// Lucene BM25 (unbounded, boosts included): 2 decimals plus the clause view.
    LuceneBm25,
    /// A vector similarity in [0, 1] (Atlas `vectorSearchScore`): 3 decimals.
    VectorSimilarity,
    /// A rank-fusion score (small, rank-derived).
    RankFusion,
    /// No score: the backend only ranks.
    None,
    /// A context scorer's score (product of signals plus boosts, context-scorer spec §1):
    /// 3 decimals plus each hit's `signals`.
    ContextScore,
}

impl ScoreScale {
    /// How figure legends describe the scale.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            ScoreScale::LuceneBm25 => "Lucene BM25 score",
            ScoreScale::VectorSimilarity => "Atlas vector score, (1 + cos) / 2",
            ScoreScale::RankFusion => "rank-fusion score",
            ScoreScale::None => "rank only",
            ScoreScale::ContextScore => "context score: product of signals plus boosts",
        }
    }
}

/// Who a backend is, said by the backend itself and stored in every report manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BackendInfo {
    /// Short id of the implementation (`bm25`, `cosine`).
    pub id: String,
    /// Provider name in PrecisionMemBench-shaped reports (`tenure`, `vector`, `mem0`).
    pub provider: String,
    /// Names the run in terminal tables (`bm25`, `cosine/all-minilm-l6-v2`).
    pub label: String,
    /// The embedding model, for backends that have one: tables name such runs by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The text policy of a text-embedding backend (`names+expanded`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_policy: Option<String>,
    /// Prefix of report file names (`all-minilm-l6-v2` in
    /// `all-minilm-l6-v2-retrieval-report-vector.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_prefix: Option<String>,
    /// The paper's own system: its paper-layout reports carry no provider suffix
    /// (`retrieval-report.json`), as the paper tag wrote them.
    #[serde(default)]
    pub paper_primary: bool,
    /// The upstream reader it stands in for.
    pub reader: Reader,
    /// What its scores mean.
    pub score_scale: ScoreScale,
    /// The settings part of the run's label: the tokens of its result-changing settings that
    /// differ from their defaults (`k30-floor0,0.7`; see [`label`]); `None` at defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// Reproduces an upstream client exactly: reports hold upstream's fields only, and an
    /// entry upstream would have lost (a failed search) is left out rather than recorded.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub upstream_exact: bool,
}

/// One write of a batch ([`Backend::apply`]).
#[derive(Debug, Clone, Copy)]
pub enum Write<'a> {
    /// A belief that did not exist ([`Backend::insert`]).
    Insert(&'a Belief),
    /// A new version of a live belief ([`Backend::replace`]).
    Replace(&'a Belief),
}

impl<'a> Write<'a> {
    /// The belief written.
    pub fn belief(&self) -> &'a Belief {
        match *self {
            Write::Insert(b) | Write::Replace(b) => b,
        }
    }
}

/// A retrieval backend.
pub trait Backend: Send + Sync {
    /// Who this backend is.
    fn info(&self) -> &BackendInfo;
    /// Settings recorded in report manifests.
    fn settings(&self) -> serde_json::Value;
    /// Filtered, thresholded, ordered and limited results.
    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>, BackendError>;
    /// Add a belief that did not exist (session `createBeliefAtTurn`).
    fn insert(&mut self, belief: &Belief) -> Result<(), BackendError>;
    /// Replace the current version of `belief.id` (session `updateBeliefAtTurn`). Backends
    /// that cannot update say [`ErrorKind::Unsupported`]; sessions then re-add the belief, as
    /// PrecisionMemBench does with such providers.
    fn replace(&mut self, belief: &Belief) -> Result<(), BackendError> {
        let _ = belief;
        Err(BackendError::unsupported("replace"))
    }
    /// Writes in order, as [`insert`](Self::insert) and [`replace`](Self::replace) would do them
    /// one by one; a backend with a fixed cost per write (bm25's commit) does them at once.
    fn apply(&mut self, writes: &[Write<'_>]) -> Result<(), BackendError> {
        for write in writes {
            match *write {
                Write::Insert(belief) => self.insert(belief)?,
                Write::Replace(belief) => self.replace(belief)?,
            }
        }
        Ok(())
    }
    /// How the runner retries this backend's transient failures.
    fn retry_policy(&self) -> RetryPolicy {
        RetryPolicy::default()
    }
    /// How a remote store was seeded; `None` for an index built in process.
    fn seeding(&self) -> Option<&Seeding> {
        None
    }
    /// Sessions: the run is at turn `turn` (0-based, counted over the whole run, since the
    /// session cases share one store), before the turn's search and its mutations. Backends
    /// with a turn clock (the context scorers) keep it; others ignore it.
    fn at_turn(&mut self, turn: usize) {
        let _ = turn;
    }
    /// Sessions: whether a search changes what later searches answer (the composite scorer
    /// remembers each turn's query for its revisitation signal). The runner then searches a
    /// turn it does not send live (taken from a journal, or another shard's) for that memory
    /// alone, so a resumed, replayed or sharded run answers as an uninterrupted one (a twelfth
    /// audit: a resumed composite run read precision 0.488 for 0.348).
    fn remembers_searches(&self) -> bool {
        false
    }
    /// Counters for the report manifest (requests, retries, errors); measured, not settings.
    fn stats(&self) -> Option<serde_json::Value> {
        None
    }
}
