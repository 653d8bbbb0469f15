//! Embedders and vector sources: what the cosine backend asks for a text's vector.
//!
//! An [`Embedder`] turns texts into vectors (the ONNX embedder today; a service client next).
//! A [`VectorSource`] answers "the vector of this text": an [`EmbeddingStore`] looks it up and
//! fails if it is missing (batch runs embed everything first, see [`super::needed_texts`]);
//! a [`CachedSource`] embeds a text nobody embedded in advance and keeps it.

use super::store::{EmbeddingStore, ModelInfo};
use super::Role;
use crate::error::{Error, Result};
use std::sync::{Mutex, RwLock};

/// Something that embeds texts.
pub trait Embedder: Send {
    /// The model's identity, as stores record it.
    fn info(&self) -> &ModelInfo;
    /// Embed `texts` (the model's prefixes applied for `role`); `on_batch` hears each batch's
    /// size as it finishes.
    fn embed(
        &mut self,
        texts: &[&str],
        role: Role,
        on_batch: &mut dyn FnMut(usize),
    ) -> Result<Vec<Vec<f32>>>;
}

/// What a cosine backend records about where its vectors came from.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceSummary {
    /// Store folder (or built-in name).
    pub origin: String,
    /// sha256 over every stored (key, vector).
    pub fingerprint: String,
    /// Vectors stored.
    pub vectors: usize,
}

/// The vector of a text, from wherever it comes.
pub trait VectorSource: Send + Sync {
    /// The model the vectors are of.
    fn model(&self) -> ModelInfo;
    /// The raw (not normalised) vector of `text` under `role` and `policy`.
    fn vector(&self, role: Role, policy: &str, text: &str) -> Result<Vec<f32>>;
    /// Origin, fingerprint and size, for manifests.
    fn summary(&self) -> SourceSummary;
}

fn store_summary(store: &EmbeddingStore) -> SourceSummary {
    SourceSummary {
        origin: store.origin.clone(),
        fingerprint: store.fingerprint(),
        vectors: store.len(),
    }
}

impl VectorSource for EmbeddingStore {
    fn model(&self) -> ModelInfo {
        self.model.clone()
    }

    fn vector(&self, role: Role, policy: &str, text: &str) -> Result<Vec<f32>> {
        self.get(role, policy, text)
            .map(<[f32]>::to_vec)
            .ok_or_else(|| {
                Error::backend(
                    "cosine",
                    format!(
                        "store {} has no {} vector for {text:?} (policy {policy}); run \
                         `tenure-eval embed` with the model, or pass --model DIR",
                        self.model.name,
                        role.name()
                    ),
                )
            })
    }

    fn summary(&self) -> SourceSummary {
        store_summary(self)
    }
}

/// What a manifest records as the origin of vectors partly or wholly computed in memory: the
/// store's folder, and what was read from it, since nothing is written there (an origin that
/// named a folder never written sent readers to look for a store).
pub(crate) fn in_memory_origin(folder: &str, held: usize, embedded: usize) -> String {
    match (held, embedded) {
        (_, 0) => folder.to_string(),
        (0, n) => format!("computed in memory ({n} vectors; no store at {folder}, none written)"),
        (h, n) => format!("{folder} ({h} vectors) plus {n} computed in memory"),
    }
}

/// The store folder an origin names when every vector came from it (what `verify` can check
/// against the recorded sha256); `None` for vectors [`in_memory_origin`] says were computed in
/// memory, wholly or in part.
pub(crate) fn stored_folder(origin: &str) -> Option<&str> {
    let computed =
        origin.starts_with("computed in memory") || origin.ends_with(" computed in memory");
    (!computed).then_some(origin)
}

/// A store that embeds what it lacks on demand and keeps it (for servers and interactive
/// use, where queries are not known in advance).
pub struct CachedSource {
    store: RwLock<EmbeddingStore>,
    embedder: Mutex<Box<dyn Embedder>>,
    /// Vectors the store held before any was embedded here (the rest were computed in memory).
    held: usize,
}

impl CachedSource {
    /// Serve from `store`, embedding misses with `embedder` (which must be the store's model).
    pub(crate) fn new(store: EmbeddingStore, embedder: Box<dyn Embedder>) -> CachedSource {
        CachedSource {
            held: store.len(),
            store: RwLock::new(store),
            embedder: Mutex::new(embedder),
        }
    }
}

impl VectorSource for CachedSource {
    fn model(&self) -> ModelInfo {
        self.store
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .model
            .clone()
    }

    fn vector(&self, role: Role, policy: &str, text: &str) -> Result<Vec<f32>> {
        {
            let store = self.store.read().unwrap_or_else(|e| e.into_inner());
            if let Some(v) = store.get(role, policy, text) {
                return Ok(v.to_vec());
            }
        }
        let vector = {
            let mut embedder = self.embedder.lock().unwrap_or_else(|e| e.into_inner());
            embedder
                .embed(&[text], role, &mut |_| {})?
                .pop()
                .ok_or_else(|| Error::backend("cosine", "the embedder returned no vector"))?
        };
        let mut store = self.store.write().unwrap_or_else(|e| e.into_inner());
        store.insert(role, policy, text, vector.clone())?;
        Ok(vector)
    }

    fn summary(&self) -> SourceSummary {
        let mut summary = store_summary(&self.store.read().unwrap_or_else(|e| e.into_inner()));
        let embedded = summary.vectors - self.held;
        summary.origin = in_memory_origin(&summary.origin, self.held, embedded);
        summary
    }
}
