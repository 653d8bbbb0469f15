//! The dissertation's alternative strategy, the SpreadingActivationScorer (context-scorer spec
//! §4): each belief's base score is its relevance (cosine with the query, clipped or rescaled
//! as the composite's); a graph joins beliefs whose embeddings reach the edge threshold; one
//! round of spreading adds `fraction` × the mean base score of a belief's neighbours. Scores
//! fall in the composite's tiers and the context receives the same ones (Verbatim and
//! Compressed, best first, cut at the budget).
//!
//! Neighbours are the belief's user's live, active beliefs (another user's never spread into
//! it); the graph is built as beliefs are added (every pair once, O(n²): fine for the suites,
//! not meant for a million beliefs).

use super::composite::segments::{Segments, Vectors};
use super::composite::{
    ranked_hits, scorer_info, signals, tier_list, vector_settings, RelevanceMap, Scored,
};
use super::cosine::CosineConfig;
use super::label::Setting;
use super::{
    Backend, BackendError, BackendInfo, Hit, SearchRequest, Signals, Thresholds, Workload,
};
use crate::error::Result;
use crate::suite::Belief;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The spreading backend's settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpreadingConfig {
    /// The embedding model and text policy (as the cosine backend's).
    pub vectors: CosineConfig,
    /// Relevance from cosine.
    #[serde(default)]
    pub relevance: RelevanceMap,
    /// Tier thresholds.
    #[serde(default)]
    pub thresholds: Thresholds,
    /// Beliefs whose cosine reaches this are neighbours (**\[open\]**; default 0.6).
    #[serde(default = "default_edge")]
    pub edge_threshold: f64,
    /// Share of the neighbours' mean activation added (**\[open\]**; default 0.5).
    #[serde(default = "default_fraction")]
    pub fraction: f64,
}

fn default_edge() -> f64 {
    0.6
}

fn default_fraction() -> f64 {
    0.5
}

impl SpreadingConfig {
    /// `vectors` with the default settings.
    pub fn new(vectors: CosineConfig) -> SpreadingConfig {
        SpreadingConfig {
            vectors,
            relevance: RelevanceMap::default(),
            thresholds: Thresholds::default(),
            edge_threshold: default_edge(),
            fraction: default_fraction(),
        }
    }
}

impl SpreadingConfig {
    /// Its result-changing settings, in tag order (`backend::label`): `rescale`, `tiers`,
    /// `edge`, `frac`, then the embedding calls'.
    pub(crate) fn label_settings(&self) -> Vec<Setting> {
        let d = Thresholds::default();
        let mut settings = vec![
            Setting::choice(self.relevance.name(), "clip"),
            Setting::list("tiers", &tier_list(&self.thresholds)[..], &tier_list(&d)),
            Setting::new("edge", self.edge_threshold, default_edge()),
            Setting::new("frac", self.fraction, default_fraction()),
        ];
        settings.extend(self.vectors.embedding_label_settings());
        settings
    }
}

/// The spreading-activation backend.
pub struct SpreadingBackend {
    segments: Segments,
    /// Neighbours of each version (by cosine, any user; filtered at search).
    edges: Vec<Vec<usize>>,
    config: SpreadingConfig,
    info: BackendInfo,
}

impl SpreadingBackend {
    /// Index `corpus` for `workload` with a prepared `config`.
    pub fn build(
        corpus: &[Belief],
        config: &SpreadingConfig,
        workload: Workload,
    ) -> Result<SpreadingBackend> {
        let (source, policy, default_policy) = config.vectors.vector_setup()?;
        let vectors = Vectors::new(source, policy, default_policy);
        let mut info = scorer_info("spreading", Some(&vectors), None);
        info.tag = super::label::tag(&config.label_settings(), []);
        let mut backend = SpreadingBackend {
            segments: Segments::new(workload, Some(vectors), Vec::new()),
            edges: Vec::new(),
            config: config.clone(),
            info,
        };
        for belief in corpus {
            backend
                .add(belief, false)
                .map_err(|e| crate::Error::backend("spreading", e))?;
        }
        Ok(backend)
    }

    fn add(&mut self, belief: &Belief, replace: bool) -> Result<(), BackendError> {
        self.segments.add(belief, replace)?;
        let new = self.segments.versions.len() - 1;
        let vectors = self
            .segments
            .vectors
            .as_ref()
            .expect("spreading has vectors");
        let mut mine = Vec::new();
        for (old, theirs) in self.edges.iter_mut().enumerate() {
            if vectors.between(old, new) >= self.config.edge_threshold {
                theirs.push(new);
                mine.push(old);
            }
        }
        self.edges.push(mine);
        Ok(())
    }
}

impl Backend for SpreadingBackend {
    fn info(&self) -> &BackendInfo {
        &self.info
    }

    fn settings(&self) -> serde_json::Value {
        let vectors = self
            .segments
            .vectors
            .as_ref()
            .expect("spreading has vectors");
        json!({
            "vectors": vector_settings(vectors),
            "relevance": self.config.relevance,
            "thresholds": self.config.thresholds,
            "edgeThreshold": self.config.edge_threshold,
            "fraction": self.config.fraction,
            "rounds": 1,
            "neighbours": "the user's live, active beliefs",
            "context": "Verbatim and Compressed beliefs, best first, cut at the budget",
            "score": "relevance + spread",
            "ties": "natural order",
        })
    }

    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>, BackendError> {
        if request.text.is_empty() || request.limit == 0 {
            return Ok(Vec::new());
        }
        let segs = &self.segments;
        let vectors = segs.vectors.as_ref().expect("spreading has vectors");
        let q = vectors.query(request.text, request.message)?;
        let user = request.filter.user_id;
        let base = |row: usize| signals::relevance(vectors.cosine(row, &q), self.config.relevance);
        let neighbour = |row: usize| {
            let v = &segs.versions[row];
            v.live && v.belief.user_id == user && v.belief.is_active()
        };
        let scored: Vec<Scored> = segs
            .admitted(&request.filter)
            .map(|row| {
                let around: Vec<f64> = self.edges[row]
                    .iter()
                    .filter(|&&n| neighbour(n))
                    .map(|&n| base(n))
                    .collect();
                let mean = if around.is_empty() {
                    0.0
                } else {
                    around.iter().sum::<f64>() / around.len() as f64
                };
                let mut s = Signals {
                    relevance: Some(base(row)),
                    spread: Some(self.config.fraction * mean),
                    ..Signals::default()
                };
                s.multiply();
                s.add_boosts(false);
                s.tier = Some(self.config.thresholds.tier(s.score));
                (s.score as f32, segs.versions[row].slot, row, s)
            })
            .filter(|(_, _, _, s)| s.tier.is_some_and(super::Tier::in_context))
            .collect();
        Ok(ranked_hits(segs, scored, request.limit, "spreading"))
    }

    fn insert(&mut self, belief: &Belief) -> Result<(), BackendError> {
        self.add(belief, false)
    }

    fn replace(&mut self, belief: &Belief) -> Result<(), BackendError> {
        self.add(belief, true)
    }
}
