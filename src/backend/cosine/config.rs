//! What a cosine backend is built from: the model, the text policy, the search structure;
//! `prepare` resolves the model into the vectors a suite needs.

use super::hnsw::HnswParams;
use crate::backend::label::Setting;
use crate::embed::onnx::EmbedOptions;
use crate::embed::service::ServiceOptions;
use crate::embed::source::{EmbedProgress, ModelSource, DEFAULT_MODEL};
use crate::embed::{BeliefText, QueryText, TextPolicy, VectorSource};
use crate::error::{Error, Result};
use crate::profile::Profile;
use crate::suite::Suite;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

/// Which nearest-neighbour search.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum IndexKind {
    /// Every vector scored (ndarray).
    #[default]
    Exact,
    /// An HNSW graph (usearch).
    Hnsw(HnswParams),
}

impl IndexKind {
    /// `exact` or `hnsw`.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            IndexKind::Exact => "exact",
            IndexKind::Hnsw(_) => "hnsw",
        }
    }
}

/// A cosine backend's configuration.
#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CosineConfig {
    /// A store name (`all-minilm-l6-v2`) or an ONNX model folder.
    #[serde(default = "default_model")]
    pub model: String,
    /// Search structure.
    #[serde(default)]
    pub index: IndexKind,
    /// Belief text (default: the suite profile's, spec §E).
    #[serde(default)]
    pub belief_text: Option<BeliefText>,
    /// Query text (default: the suite profile's).
    #[serde(default)]
    pub query_text: Option<QueryText>,
    /// Folder of embedding stores, the only one looked at when given; else `embeddings/`, then
    /// the built-in stores (`embed::places`).
    #[serde(default)]
    pub store_dir: Option<PathBuf>,
    /// The store a model folder or served model fills (default: the model's own name; a
    /// served model's is prefixed with its API).
    #[serde(default)]
    pub store_name: Option<String>,
    /// ONNX Runtime library (else `ORT_DYLIB_PATH`); only for model folders.
    #[serde(default)]
    pub ort_lib: Option<PathBuf>,
    /// Batching and threads of the ONNX embedder.
    #[serde(default)]
    pub embed: EmbedOptions,
    /// How a served model (`ollama:NAME`, `openai:NAME`) is called.
    #[serde(default)]
    pub service: ServiceOptions,
    /// Ollama's legacy `/api/embeddings` (one text per call, not normalised: what the paper and
    /// PrecisionMemBench used) instead of `/api/embed`.
    #[serde(default)]
    pub ollama_legacy: bool,
    /// A cosine similarity floor: hits whose cosine is below it are dropped (none by default,
    /// as Atlas's `$vectorSearch`). MTEB-style comparisons and PrecisionMemBench's drift need
    /// one: pure top-k has no way to return nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor: Option<f32>,
    /// Set by [`CosineConfig::prepare`].
    #[serde(skip)]
    pub(super) prepared: Option<Prepared>,
}

/// A configuration resolved against a suite.
#[derive(Clone)]
pub(super) struct Prepared {
    pub(super) vectors: Arc<dyn VectorSource>,
    pub(super) policy: TextPolicy,
    pub(super) profile: Profile,
}

fn default_model() -> String {
    DEFAULT_MODEL.to_string()
}

impl std::fmt::Debug for CosineConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CosineConfig")
            .field("model", &self.model)
            .field("index", &self.index)
            .field("belief_text", &self.belief_text)
            .field("query_text", &self.query_text)
            .field("store_dir", &self.store_dir)
            .field("prepared", &self.prepared.is_some())
            .finish()
    }
}

impl CosineConfig {
    /// The default model, exact search, the profile's text policy.
    pub fn new(model: impl Into<String>) -> CosineConfig {
        CosineConfig {
            model: model.into(),
            index: IndexKind::Exact,
            belief_text: None,
            query_text: None,
            store_dir: None,
            store_name: None,
            ort_lib: None,
            embed: EmbedOptions::default(),
            service: ServiceOptions::default(),
            ollama_legacy: false,
            floor: None,
            prepared: None,
        }
    }

    /// Its result-changing settings, in tag order (`backend::label`): the search structure
    /// (`hnsw`, then its parameters `m`, `efc`, `efs`, `dims`, `rerank`), then the embedding calls'.
    pub(crate) fn label_settings(&self) -> Vec<Setting> {
        let mut settings = vec![Setting::choice(self.index.name(), "exact")];
        if let IndexKind::Hnsw(p) = self.index {
            let d = HnswParams::default();
            settings.extend([
                Setting::new("m", p.max_connections, d.max_connections),
                Setting::new("efc", p.ef_construction, d.ef_construction),
                Setting::new("efs", p.ef_search, d.ef_search),
                Setting::new("dims", p.dims, d.dims),
                Setting::new("rerank", p.rerank, d.rerank),
            ]);
        }
        settings.extend(self.embedding_label_settings());
        if let Some(floor) = self.floor {
            settings.push(Setting::new("floor", floor, ""));
        }
        settings
    }

    /// The settings of a served model's calls that change its vectors: Ollama's legacy API
    /// (not normalised) and the prompt prefixes (`qp`, `dp`: a hash of the text).
    pub(crate) fn embedding_label_settings(&self) -> Vec<Setting> {
        vec![
            Setting::switch("legacy", self.ollama_legacy),
            Setting::text("qp", &self.service.query_prefix, ""),
            Setting::text("dp", &self.service.document_prefix, ""),
        ]
    }

    /// The text policy under `profile`: the profile's, with the overrides applied.
    pub(crate) fn policy(&self, profile: Profile) -> TextPolicy {
        let mut policy = TextPolicy::of(profile);
        if let Some(b) = self.belief_text {
            policy.belief = b;
        }
        if let Some(q) = self.query_text {
            policy.query = q;
        }
        policy
    }

    /// Where the vectors come from.
    pub fn source(&self) -> ModelSource {
        ModelSource {
            spec: self.model.clone(),
            store_dir: self.store_dir.clone(),
            store_name: self.store_name.clone(),
            ort_lib: self.ort_lib.clone(),
            options: EmbedOptions {
                batch_size: self.embed.batch_size.max(1),
                ..self.embed
            },
            service: self.service.clone(),
            ollama_legacy: self.ollama_legacy,
        }
    }

    /// Resolve the model into the vectors of every text `suite` needs (embedding the missing
    /// ones now if the model is a folder; failing with their count if it is a store).
    pub(crate) fn prepare(&mut self, suite: &Suite, progress: EmbedProgress<'_>) -> Result<()> {
        let policy = self.policy(suite.profile);
        let store = self.source().vectors_for(suite, policy, progress)?;
        self.prepared = Some(Prepared {
            vectors: Arc::new(store),
            policy,
            profile: suite.profile,
        });
        Ok(())
    }

    /// Use `vectors` as they are (a store, or a source that embeds on demand) under
    /// `profile`'s policy.
    pub fn with_vectors(mut self, vectors: Arc<dyn VectorSource>, profile: Profile) -> Self {
        self.prepared = Some(Prepared {
            policy: self.policy(profile),
            vectors,
            profile,
        });
        self
    }

    /// The prepared vectors and text policy, for other backends that score by cosine (the
    /// context scorers).
    /// The policy is the profile's unless told otherwise (the third value says which).
    pub(crate) fn vector_setup(&self) -> Result<(Arc<dyn VectorSource>, TextPolicy, bool)> {
        let p = self.prepared()?;
        Ok((
            p.vectors.clone(),
            p.policy,
            p.policy == TextPolicy::of(p.profile),
        ))
    }

    pub(super) fn prepared(&self) -> Result<&Prepared> {
        self.prepared.as_ref().ok_or_else(|| {
            Error::Usage(format!(
                "cosine backend {}: prepare it against a suite (or give it vectors) before \
                 building",
                self.model
            ))
        })
    }
}
