//! One configuration type for every built-in backend, and the one place that matches on the
//! kind. A configuration is data (serde, tagged by `kind`); `prepare` resolves what it needs
//! from the suite (a cosine model's vectors), `build` indexes a corpus.

use super::bm25::{Bm25Backend, Bm25Config};
use super::composite::{CompositeBackend, CompositeConfig};
use super::cosine::{CosineBackend, CosineConfig};
use super::fusion::{FusionBackend, FusionConfig};
use super::http::{HttpBackend, HttpConfig};
use super::recent::{RecentBackend, RecentConfig};
use super::spreading::{SpreadingBackend, SpreadingConfig};
use super::text::{TextBm25Backend, TextBm25Config};
use super::{Backend, Workload};
use crate::embed::source::EmbedProgress;
use crate::error::Result;
use crate::suite::{Belief, Suite};
use serde::{Deserialize, Serialize};

/// Hears (beliefs seeded, total) while a backend is built.
pub type SeedProgress<'a> = &'a mut dyn FnMut(usize, usize);

/// Something that builds a backend over a corpus: every [`BackendConfig`], and any backend a
/// library user writes (see `examples/custom_backend.rs`).
pub trait BackendFactory {
    /// Index `corpus` (the seed beliefs, in natural order).
    fn build(&self, corpus: &[Belief]) -> Result<Box<dyn Backend>>;
    /// Index `corpus` for `workload`, telling `progress` (beliefs done, total) as it goes
    /// where that takes a while; backends that index the same way for both workloads, and
    /// quickly, need not say anything (a remote store is seeded one call per belief, with more
    /// metadata for sessions).
    fn build_for(
        &self,
        corpus: &[Belief],
        workload: Workload,
        progress: SeedProgress<'_>,
    ) -> Result<Box<dyn Backend>> {
        let _ = (workload, progress);
        self.build(corpus)
    }
}

/// A built-in backend and its settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum BackendConfig {
    /// Alias-weighted BM25 over tantivy.
    Bm25(Bm25Config),
    /// Cosine similarity over the embeddings of one model (boxed: it is the large one).
    Cosine(Box<CosineConfig>),
    /// A memory system behind PrecisionMemBench's HTTP provider contract.
    Http(Box<HttpConfig>),
    /// Several backends, their lists fused (RRF, CombSUM, fallback).
    Fusion(Box<FusionConfig>),
    /// The dissertation's composite context scorer (context-scorer spec §1-2, §5).
    Composite(Box<CompositeConfig>),
    /// Spreading activation over a similarity graph (context-scorer spec §4).
    Spreading(Box<SpreadingConfig>),
    /// Oldest-first truncation: the newest beliefs that fit (context-scorer spec §2).
    Recent(RecentConfig),
    /// Plain BM25 over a belief's words (no aliases, no fuzzy terms).
    Bm25Text(TextBm25Config),
}

impl BackendConfig {
    /// Whether it is alias-BM25, or fuses it: a backend that matches a query word only
    /// against a whole name or alias (spec §C.1).
    pub(crate) fn matches_names_only(&self) -> bool {
        match self {
            BackendConfig::Bm25(_) => true,
            BackendConfig::Fusion(f) => f.children.iter().any(BackendConfig::matches_names_only),
            _ => false,
        }
    }

    /// Whether it ranks by the context scorers' clock, which reads `created_at` (recency,
    /// primacy, currency: `composite::segments`), or fuses such a backend.
    pub(crate) fn reads_clock(&self) -> bool {
        match self {
            BackendConfig::Composite(_) | BackendConfig::Recent(_) => true,
            BackendConfig::Fusion(f) => f.children.iter().any(BackendConfig::reads_clock),
            _ => false,
        }
    }

    /// BM25 as Atlas runs it.
    pub fn bm25() -> BackendConfig {
        BackendConfig::Bm25(Bm25Config::default())
    }

    /// Cosine with `config`.
    pub fn cosine(config: CosineConfig) -> BackendConfig {
        BackendConfig::Cosine(Box::new(config))
    }

    /// Does this backend stand in for PrecisionMemBench's harness (an external system, sent what
    /// that harness sends)? Such a run reads PrecisionMemBench's own copy of a built-in suite
    /// ([`Suite::harness_copy`]); every in-process backend reads Tenure's, which the goldens
    /// were made from.
    pub(crate) fn runs_harness_copy(&self) -> bool {
        matches!(self, BackendConfig::Http(_))
    }

    /// Resolve what the backend needs from `suite` before any work (a cosine model's vectors,
    /// embedded now or checked present); `progress` hears embedding progress.
    pub(crate) fn prepare(&mut self, suite: &Suite, progress: EmbedProgress<'_>) -> Result<()> {
        match self {
            BackendConfig::Bm25(_)
            | BackendConfig::Http(_)
            | BackendConfig::Recent(_)
            | BackendConfig::Bm25Text(_) => Ok(()),
            BackendConfig::Cosine(c) => c.prepare(suite, progress),
            BackendConfig::Composite(c) => c.vectors.prepare(suite, progress),
            BackendConfig::Spreading(c) => c.vectors.prepare(suite, progress),
            BackendConfig::Fusion(f) => f
                .children
                .iter_mut()
                .try_for_each(|c| c.prepare(suite, &mut *progress)),
        }
    }
}

impl BackendFactory for BackendConfig {
    fn build(&self, corpus: &[Belief]) -> Result<Box<dyn Backend>> {
        self.build_for(corpus, Workload::Static, &mut |_, _| {})
    }

    fn build_for(
        &self,
        corpus: &[Belief],
        workload: Workload,
        progress: SeedProgress<'_>,
    ) -> Result<Box<dyn Backend>> {
        Ok(match self {
            BackendConfig::Bm25(c) => Box::new(Bm25Backend::with_config(corpus, *c)?),
            BackendConfig::Cosine(c) => Box::new(CosineBackend::build(corpus, c)?),
            BackendConfig::Http(c) => {
                Box::new(HttpBackend::connect(corpus, c, workload, progress)?)
            }
            BackendConfig::Fusion(f) => Box::new(FusionBackend::build(corpus, f)?),
            BackendConfig::Composite(c) => Box::new(CompositeBackend::build(corpus, c, workload)?),
            BackendConfig::Spreading(c) => Box::new(SpreadingBackend::build(corpus, c, workload)?),
            BackendConfig::Recent(c) => Box::new(RecentBackend::build(corpus, *c, workload)),
            BackendConfig::Bm25Text(c) => Box::new(TextBm25Backend::build(corpus, *c)),
        })
    }
}
