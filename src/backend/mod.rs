//! Retrieval backends behind one trait. A backend indexes beliefs and answers searches; the
//! context builder (pinned facts, questions, caps) is shared, as it is upstream.
//!
//! A new backend is a new folder here plus one arm in [`BackendKind`].

pub mod bm25;
pub mod cosine;

use crate::error::Result;
use crate::suite::{Belief, BeliefType};
use serde::Serialize;

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
    /// Results scoring below this are dropped (Lucene scale; 3 in the eval).
    pub min_score: f32,
    /// At most this many results.
    pub limit: usize,
}

/// Which query clause produced a contribution; the path names Atlas reports use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum FieldPath {
    /// C1: fuzzy over canonical names, boost 14.
    #[serde(rename = "canonical_name")]
    CanonicalName,
    /// C2: canonical-name bigrams, boost 14.
    #[serde(rename = "canonical_name.phrase")]
    CanonicalNamePhrase,
    /// C3: fuzzy over aliases, boost 5.
    #[serde(rename = "aliases")]
    Aliases,
    /// C4: alias bigrams, boost 14.
    #[serde(rename = "aliases.shingle")]
    AliasesShingle,
}

impl FieldPath {
    /// The path as reports spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            FieldPath::CanonicalName => "canonical_name",
            FieldPath::CanonicalNamePhrase => "canonical_name.phrase",
            FieldPath::Aliases => "aliases",
            FieldPath::AliasesShingle => "aliases.shingle",
        }
    }
}

/// One term's share of a hit's score, as computed by the scorer.
#[derive(Debug, Clone, PartialEq)]
pub struct Contribution {
    /// Clause and field.
    pub path: FieldPath,
    /// The indexed term that matched.
    pub term: String,
    /// Its score (float32, boosts included).
    pub score: f32,
    /// Atlas collapses this clause to a bare TermQuery, which the static report parser
    /// cannot read (spec §C.5): it is left out of upstream-compatible static `clauses`.
    pub collapsed: bool,
}

/// One search result.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Belief id.
    pub id: String,
    /// Score on the backend's scale (Lucene BM25 for bm25).
    pub score: f32,
    /// Score attribution; empty for backends without one.
    pub contributions: Vec<Contribution>,
}

/// Which upstream reader a backend stands in for: PrecisionMemBench's vector adapter builds the
/// context differently from Tenure's text reader (spec §E).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// Tenure's `BeliefsReader` (Atlas Search): every profile's text backends.
    Text,
    /// A vector reader: at the paper tag it shares the text reader's context rules; at HEAD it
    /// is PrecisionMemBench's adapter.
    Vector,
}

/// A retrieval backend.
pub trait Backend {
    /// Short id (`bm25`, `cosine`).
    fn id(&self) -> &'static str;
    /// The upstream reader this backend reproduces.
    fn reader(&self) -> Reader {
        Reader::Text
    }
    /// Settings recorded in report manifests.
    fn settings(&self) -> serde_json::Value;
    /// Filtered, thresholded, ordered and limited results.
    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>>;
    /// Add a belief that did not exist (session `createBeliefAtTurn`).
    fn insert(&mut self, belief: &Belief) -> Result<()>;
    /// Replace the current version of `belief.id` (session `updateBeliefAtTurn`).
    fn replace(&mut self, belief: &Belief) -> Result<()>;
}

/// The backends this build knows, with what each is built from.
#[derive(Debug, Clone)]
pub enum BackendKind {
    /// Alias-weighted BM25 over tantivy.
    Bm25,
    /// Cosine similarity over the embeddings of one model.
    Cosine(cosine::CosineSetup),
}

impl BackendKind {
    /// Command-line and manifest name.
    pub fn name(&self) -> &'static str {
        match self {
            BackendKind::Bm25 => "bm25",
            BackendKind::Cosine(_) => "cosine",
        }
    }

    /// Provider name in PrecisionMemBench-shaped reports (`vector` is PrecisionMemBench's name
    /// for its embedding baseline).
    pub fn provider(&self) -> &'static str {
        match self {
            BackendKind::Bm25 => "tenure",
            BackendKind::Cosine(_) => "vector",
        }
    }

    /// Names a run in tables and file names: `bm25`, `cosine/all-minilm-l6-v2`.
    pub fn label(&self) -> String {
        match self {
            BackendKind::Bm25 => "bm25".to_string(),
            BackendKind::Cosine(setup) => format!("cosine/{}", setup.store.model.name),
        }
    }

    /// Index `corpus` with this backend.
    pub fn build(&self, corpus: &[Belief]) -> Result<Box<dyn Backend>> {
        match self {
            BackendKind::Bm25 => Ok(Box::new(bm25::Bm25Backend::build(corpus)?)),
            BackendKind::Cosine(setup) => Ok(Box::new(cosine::CosineBackend::build(
                corpus,
                setup.clone(),
            )?)),
        }
    }
}
