//! Cosine similarity over dense embeddings: the vector baselines of the paper and of
//! PrecisionMemBench (spec §E), in-process.
//!
//! Atlas `$vectorSearch` semantics, reproduced:
//! * pre-filter: user, not superseded, not resolved;
//! * the `4 × limit` nearest candidates (Atlas asks for `numCandidates: 150` from its ANN index;
//!   exact search ranks every pre-filtered vector, HNSW asks its graph for the same count);
//! * post-filter: not an open question, not `expertise`, in scope, not an excluded id;
//! * then `limit`. There is **no score threshold** (the context builder's minScore is ignored)
//!   unless `--cosine-floor F` sets one, our extension: hits with a cosine below F are dropped.
//! * The score is Atlas's `vectorSearchScore` for cosine, `(1 + cos) / 2`, reported to 3
//!   decimals.
//!
//! Ties (equal float32 scores) are broken by natural order, the belief's position in the
//! collection, so reports are byte-stable.

mod config;
pub mod exact;
pub mod hnsw;
pub mod pca;
pub mod quantized;

pub use config::{CosineConfig, IndexKind};
pub use hnsw::HnswParams;

use super::{Backend, BackendError, BackendInfo, Hit, Reader, ScoreScale, SearchRequest};
use crate::embed::{normalised, QueryText, Role, TextPolicy};
use crate::error::Result;
use crate::suite::Belief;
use config::Prepared;
use serde_json::json;

/// Candidates fetched before the post-filter, as a multiple of the limit (upstream: 4).
pub(crate) const CANDIDATE_FACTOR: usize = 4;

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
    setup: Prepared,
    index: IndexKind,
    info: BackendInfo,
    versions: Vec<Version>,
    /// Unit vectors, row i for version i (exact search reads this).
    vectors: exact::Matrix,
    /// The same rows as int8 codes: exact search scans these and scores in float32 only the
    /// rows that can still reach the top k (the same answer, see `quantized`).
    codes: quantized::Int8Rows,
    graph: Option<hnsw::Graph>,
    /// Distinct beliefs so far: the next new belief's slot.
    beliefs: usize,
    /// `--cosine-floor`: hits with a lower cosine are dropped.
    floor: Option<f32>,
}

impl CosineBackend {
    /// Index `corpus` with a prepared `config` (see [`CosineConfig::prepare`]).
    pub fn build(corpus: &[Belief], config: &CosineConfig) -> Result<CosineBackend> {
        let setup = config.prepared()?.clone();
        let model = setup.vectors.model();
        let dims = model.dimensions;
        // The profile's own policy keeps the upstream file name; another adds its label.
        let file_prefix = if setup.policy == TextPolicy::of(setup.profile) {
            model.name.clone()
        } else {
            format!("{}.{}", model.name, setup.policy.label())
        };
        let mut backend = CosineBackend {
            floor: config.floor,
            // Built below, once the corpus's vectors are in.
            graph: None,
            info: BackendInfo {
                id: "cosine".into(),
                // PrecisionMemBench's name for its embedding baseline.
                provider: "vector".into(),
                label: format!("cosine/{}", model.name),
                model: Some(model.name.clone()),
                text_policy: Some(setup.policy.label()),
                file_prefix: Some(file_prefix),
                paper_primary: false,
                reader: Reader::Vector,
                score_scale: ScoreScale::VectorSimilarity,
                tag: super::label::tag(&config.label_settings(), []),
                upstream_exact: false,
            },
            index: config.index,
            setup,
            versions: Vec::with_capacity(corpus.len()),
            vectors: exact::Matrix::new(dims),
            codes: quantized::Int8Rows::new(dims),
            beliefs: 0,
        };
        for belief in corpus {
            backend
                .add_version(belief.clone(), None)
                .map_err(|e| crate::Error::backend("cosine", e))?;
        }
        if let IndexKind::Hnsw(params) = config.index {
            // One thread: concurrent inserts make the graph, and so the reports, depend on
            // timing. (The scale study builds on every core and measures recall instead.)
            let graph = hnsw::Graph::build(params, &backend.vectors, 1)
                .map_err(|e| crate::Error::backend("cosine", e))?;
            backend.graph = Some(graph);
        }
        Ok(backend)
    }

    fn unit_vector(&self, role: Role, policy: &str, text: &str) -> Result<Vec<f32>, BackendError> {
        let raw = self
            .setup
            .vectors
            .vector(role, policy, text)
            .map_err(BackendError::permanent)?;
        normalised(&raw).ok_or_else(|| {
            BackendError::permanent(format!("zero or non-finite vector for {text:?}"))
        })
    }

    fn add_version(&mut self, belief: Belief, replaces: Option<usize>) -> Result<(), BackendError> {
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
            graph.insert(&vector, id).map_err(BackendError::permanent)?;
        }
        self.vectors.push(&vector);
        self.codes.push(&vector);
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
    fn info(&self) -> &BackendInfo {
        &self.info
    }

    fn settings(&self) -> serde_json::Value {
        let model = self.setup.vectors.model();
        let store = self.setup.vectors.summary();
        let mut settings = json!({
            "model": model.name,
            "store": store.origin,
            "storeSha256": store.fingerprint,
            "storeVectors": store.vectors,
            "modelSha256": model.sha256,
            "tokenizerSha256": model.tokenizer_sha256,
            "dimensions": model.dimensions,
            "pooling": model.pooling,
            "normalize": model.normalize,
            "beliefText": self.setup.policy.belief.name(),
            "queryText": self.setup.policy.query.name(),
            "index": self.index.name(),
            "candidates": format!("{CANDIDATE_FACTOR} x limit"),
            "score": "(1 + cosine) / 2, 3 decimals",
            "ties": "natural order",
        });
        if let Some(floor) = self.floor {
            settings["cosineFloor"] = json!(floor);
        }
        if let IndexKind::Hnsw(p) = self.index {
            settings["hnsw"] = json!({
                "maxConnections": p.max_connections,
                "efConstruction": p.ef_construction,
                "efSearch": p.ef_search,
            });
            // Only when set: reports of the default graph keep their settings.
            if p.dims > 0 {
                settings["hnsw"]["dims"] = json!(p.dims);
            }
            if p.rerank > 0 {
                settings["hnsw"]["rerank"] = json!(p.rerank);
            }
        }
        settings
    }

    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>, BackendError> {
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
        // Rank by score, then natural order (a replacement keeps its predecessor's slot).
        let slot = |id: usize| self.versions[id].slot;
        let candidates: Vec<(f32, usize)> = match &self.graph {
            Some(graph) => exact::top_k(
                graph
                    .nearest(&query, k, &admitted)
                    .into_iter()
                    .map(|id| (self.vectors.dot(id, &query), id))
                    .collect(),
                k,
                slot,
            ),
            None => {
                self.codes
                    .top_k(&self.vectors, &query, k, &admitted, slot)
                    .0
            }
        };
        Ok(candidates
            .into_iter()
            .filter(|&(_, id)| request.filter.admits(&self.versions[id].belief))
            .take(request.limit)
            .filter(|&(cos, _)| self.floor.is_none_or(|f| cos >= f))
            .map(|(cos, id)| Hit {
                id: self.versions[id].belief.id.clone(),
                score: Some((1.0 + cos) / 2.0),
                explanation: None,
            })
            .collect())
    }

    fn insert(&mut self, belief: &Belief) -> Result<(), BackendError> {
        self.add_version(belief.clone(), None)
    }

    fn replace(&mut self, belief: &Belief) -> Result<(), BackendError> {
        let old = self
            .versions
            .iter()
            .position(|v| v.live && v.belief.id == belief.id)
            .ok_or_else(|| {
                BackendError::permanent(format!("replace of unknown belief {:?}", belief.id))
            })?;
        self.add_version(belief.clone(), Some(old))
    }
}
