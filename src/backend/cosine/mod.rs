//! Cosine similarity over dense embeddings: the vector baselines of the paper and of
//! PrecisionMemBench (spec §E), in-process.
//!
//! Atlas `$vectorSearch` semantics, reproduced:
//! * pre-filter: user, not superseded, not resolved;
//! * the `4 × limit` nearest candidates (Atlas asks for `numCandidates: 150` from its ANN index;
//!   exact search ranks every pre-filtered vector, HNSW asks its graph for the same count);
//! * post-filter: not an open question, not `expertise`, in scope, not an excluded id;
//! * then `limit`. There is **no score threshold**: the context builder's minScore is ignored.
//! * The score is Atlas's `vectorSearchScore` for cosine, `(1 + cos) / 2`, reported to 3
//!   decimals.
//!
//! Ties (equal float32 scores) are broken by natural order, the belief's position in the
//! collection, so reports are byte-stable.

pub mod exact;
pub mod hnsw;

pub use hnsw::HnswParams;

use super::{Backend, Hit, Reader, SearchRequest};
use crate::embed::{normalised, EmbeddingStore, QueryText, Role, TextPolicy};
use crate::error::{Error, Result};
use crate::suite::Belief;
use serde_json::json;
use std::sync::Arc;

/// Candidates fetched before the post-filter, as a multiple of the limit (upstream: 4).
pub const CANDIDATE_FACTOR: usize = 4;

/// Which nearest-neighbour search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum IndexKind {
    /// Every vector scored (ndarray).
    Exact,
    /// An HNSW graph (hnsw_rs).
    Hnsw(HnswParams),
}

impl IndexKind {
    /// `exact` or `hnsw`.
    pub fn name(&self) -> &'static str {
        match self {
            IndexKind::Exact => "exact",
            IndexKind::Hnsw(_) => "hnsw",
        }
    }
}

/// Everything a cosine backend is made from.
#[derive(Debug, Clone)]
pub struct CosineSetup {
    /// Vectors of every text the run embeds (see [`crate::embed::needed_texts`]).
    pub store: Arc<EmbeddingStore>,
    /// Which texts are embedded.
    pub policy: TextPolicy,
    /// Search structure.
    pub index: IndexKind,
}

/// One indexed belief version.
#[derive(Debug, Clone)]
struct Version {
    belief: Belief,
    /// Position in the collection: replacements keep the position of what they replace.
    slot: usize,
    live: bool,
}

/// The cosine backend.
pub struct CosineBackend {
    setup: CosineSetup,
    versions: Vec<Version>,
    /// Unit vectors, row i for version i (exact search reads this).
    vectors: exact::Matrix,
    graph: Option<hnsw::Graph>,
    /// Distinct beliefs so far: the next new belief's slot.
    beliefs: usize,
}

impl CosineBackend {
    /// Index `corpus`.
    pub fn build(corpus: &[Belief], setup: CosineSetup) -> Result<CosineBackend> {
        let dims = setup.store.model.dimensions;
        let mut backend = CosineBackend {
            graph: match setup.index {
                IndexKind::Hnsw(params) => Some(hnsw::Graph::new(params, corpus.len())),
                IndexKind::Exact => None,
            },
            setup,
            versions: Vec::with_capacity(corpus.len()),
            vectors: exact::Matrix::new(dims),
            beliefs: 0,
        };
        for belief in corpus {
            backend.add_version(belief.clone(), None)?;
        }
        Ok(backend)
    }

    fn unit_vector(&self, role: Role, policy: &str, text: &str) -> Result<Vec<f32>> {
        let store = &self.setup.store;
        let raw = store.get(role, policy, text).ok_or_else(|| {
            Error::backend(
                "cosine",
                format!(
                    "store {} has no {} vector for {text:?} (policy {policy}); run `tenure-eval \
                     embed` with the model, or pass --model DIR",
                    store.model.name,
                    role.name()
                ),
            )
        })?;
        normalised(raw).ok_or_else(|| {
            Error::backend("cosine", format!("zero or non-finite vector for {text:?}"))
        })
    }

    fn add_version(&mut self, belief: Belief, replaces: Option<usize>) -> Result<()> {
        let text = self.setup.policy.belief.of(&belief);
        let vector = self.unit_vector(Role::Belief, self.setup.policy.belief.name(), &text)?;
        let slot = match replaces {
            Some(old) => {
                self.versions[old].live = false;
                self.versions[old].slot
            }
            None => {
                self.beliefs += 1;
                self.beliefs - 1
            }
        };
        let id = self.versions.len();
        if let Some(graph) = &mut self.graph {
            graph.insert(&vector, id);
        }
        self.vectors.push(&vector);
        self.versions.push(Version {
            belief,
            slot,
            live: true,
        });
        Ok(())
    }

    /// Live versions passing Atlas's pre-filter.
    fn pre_filter(&self, id: usize, user_id: &str) -> bool {
        let v = &self.versions[id];
        v.live && v.belief.user_id == user_id && v.belief.is_active()
    }
}

impl Backend for CosineBackend {
    fn id(&self) -> &'static str {
        "cosine"
    }

    fn reader(&self) -> Reader {
        Reader::Vector
    }

    fn settings(&self) -> serde_json::Value {
        let model = &self.setup.store.model;
        let mut settings = json!({
            "model": model.name,
            "store": self.setup.store.origin,
            "storeSha256": self.setup.store.fingerprint(),
            "storeVectors": self.setup.store.len(),
            "modelSha256": model.sha256,
            "tokenizerSha256": model.tokenizer_sha256,
            "dimensions": model.dimensions,
            "pooling": model.pooling,
            "normalize": model.normalize,
            "beliefText": self.setup.policy.belief.name(),
            "queryText": self.setup.policy.query.name(),
            "index": self.setup.index.name(),
            "candidates": format!("{CANDIDATE_FACTOR} x limit"),
            "score": "(1 + cosine) / 2, 3 decimals",
            "ties": "natural order",
        });
        if let IndexKind::Hnsw(p) = self.setup.index {
            settings["hnsw"] = json!({
                "maxConnections": p.max_connections,
                "efConstruction": p.ef_construction,
                "efSearch": p.ef_search,
                "maxLayers": p.max_layers,
            });
        }
        settings
    }

    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>> {
        let text = match self.setup.policy.query {
            QueryText::Expanded => request.text,
            QueryText::Raw => request.message,
        };
        if text.is_empty() || request.limit == 0 {
            return Ok(Vec::new());
        }
        let query = self.unit_vector(Role::Query, self.setup.policy.query.name(), text)?;
        let user = request.filter.user_id;
        let k = request.limit.saturating_mul(CANDIDATE_FACTOR);
        let admitted = |id: usize| self.pre_filter(id, user);
        let mut candidates: Vec<(f32, usize)> = match &self.graph {
            Some(graph) => graph
                .nearest(&query, k, &admitted)
                .into_iter()
                .map(|id| (self.vectors.dot(id, &query), id))
                .collect(),
            None => self.vectors.scores(&query, &admitted),
        };
        // Rank by score, then natural order (a replacement keeps its predecessor's slot).
        candidates = exact::top_k(candidates, k, |id| self.versions[id].slot);
        Ok(candidates
            .into_iter()
            .filter(|&(_, id)| request.filter.admits(&self.versions[id].belief))
            .take(request.limit)
            .map(|(cos, id)| Hit {
                id: self.versions[id].belief.id.clone(),
                score: (1.0 + cos) / 2.0,
                contributions: Vec::new(),
            })
            .collect())
    }

    fn insert(&mut self, belief: &Belief) -> Result<()> {
        self.add_version(belief.clone(), None)
    }

    fn replace(&mut self, belief: &Belief) -> Result<()> {
        let old = self
            .versions
            .iter()
            .position(|v| v.live && v.belief.id == belief.id)
            .ok_or_else(|| {
                Error::backend(
                    "cosine",
                    format!("replace of unknown belief {:?}", belief.id),
                )
            })?;
        self.add_version(belief.clone(), Some(old))
    }
}
