//! Retrieval backends behind one trait. A backend indexes beliefs and answers searches; the
//! context builder (pinned facts, questions, caps) is shared, as it is upstream.
//!
//! A new backend is a new folder here plus one variant of [`BackendConfig`]: the backend says
//! who it is ([`BackendInfo`]: provider name, label, which upstream reader it stands in for, its
//! score scale), and everything downstream (context, reports, tables, claims, figures) reads
//! that record instead of guessing from names.

pub mod bm25;
mod config;
pub mod cosine;
mod error;
mod explain;

pub use config::{BackendConfig, BackendFactory};
pub use error::{BackendError, ErrorKind};
pub use explain::{Contribution, Explanation, TermMatch};

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
        belief.user_id == self.user_id
            && belief.is_active()
            && belief.kind != BeliefType::OpenQuestion
            && belief.subtype.as_deref() != Some("expertise")
            && (self.scope.is_empty() || belief.in_scope(self.scope))
            && !self.exclude_ids.contains(&belief.id)
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

/// One search result.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Belief id.
    pub id: String,
    /// Score on the backend's [`ScoreScale`]; `None` for backends that only rank.
    pub score: Option<f32>,
    /// Why it scored what it did; `None` for backends without an explanation.
    pub explanation: Option<Explanation>,
}

/// Which upstream reader a backend stands in for: PrecisionMemBench's vector adapter builds the
/// context differently from Tenure's text reader (spec §E).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reader {
    /// Tenure's `BeliefsReader` (Atlas Search): every profile's text backends.
    Text,
    /// A vector reader: at the paper tag it shares the text reader's context rules; at HEAD it
    /// is PrecisionMemBench's adapter.
    Vector,
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
}

impl ScoreScale {
    /// How figure legends describe the scale.
    pub fn describe(self) -> &'static str {
        match self {
            ScoreScale::LuceneBm25 => "Lucene BM25 score",
            ScoreScale::VectorSimilarity => "Atlas vector score, (1 + cos) / 2",
            ScoreScale::RankFusion => "rank-fusion score",
            ScoreScale::None => "rank only",
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
}
