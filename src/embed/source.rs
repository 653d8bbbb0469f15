//! Where a run's vectors come from: `--model NAME` (a store, no runtime needed) or
//! `--model DIR` (an ONNX model folder: its store, plus whatever is missing embedded now).

use super::onnx::{is_model_dir, EmbedOptions, OnnxEmbedder};
use super::store::{builtin_names, EmbeddingStore, ModelInfo, Pooling};
use super::vectors::{CachedSource, Embedder};
use super::{needed_texts, NeededText, Role, TextPolicy};
use crate::error::{Error, Result};
use crate::io::{parse_json, read_bytes};
use crate::suite::{Belief, Suite};
use std::path::{Path, PathBuf};

/// The model used when `--backend cosine` is given without `--model`.
pub const DEFAULT_MODEL: &str = "all-minilm-l6-v2";

/// A `--model` argument with its context.
#[derive(Debug, Clone)]
pub struct ModelSource {
    /// A store name (`all-minilm-l6-v2`) or a model folder.
    pub spec: String,
    /// Folder of stores (`embeddings`); built-in stores are the fallback.
    pub store_dir: PathBuf,
    /// ONNX Runtime library (else `ORT_DYLIB_PATH`).
    pub ort_lib: Option<PathBuf>,
    /// Batching and threads.
    pub options: EmbedOptions,
}

/// Progress of embedding: `done` of `total` texts.
pub type EmbedProgress<'a> = &'a mut dyn FnMut(usize, usize);

impl ModelSource {
    /// Is the spec a model folder (rather than a store name)?
    pub fn is_model_dir(&self) -> bool {
        is_model_dir(Path::new(&self.spec))
    }

    /// Open the model folder and its store (empty if none), refusing a store made by another
    /// model or of another width.
    pub fn open_model(&self) -> Result<(OnnxEmbedder, EmbeddingStore)> {
        let embedder = self.open_embedder()?;
        let info = embedder.info().clone();
        let store = match EmbeddingStore::open(&self.store_dir, &info.name)? {
            Some(store) => {
                check_same_model(&store, &info, embedder.folder())?;
                store
            }
            None => EmbeddingStore::empty(
                info.clone(),
                self.store_dir.join(&info.name).display().to_string(),
            ),
        };
        Ok((embedder, store))
    }

    /// The model folder's embedder, with an empty store of its own (what `--refresh` starts
    /// from, whatever model made the stored vectors).
    pub fn open_fresh(&self) -> Result<(OnnxEmbedder, EmbeddingStore)> {
        let embedder = self.open_embedder()?;
        let info = embedder.info().clone();
        let origin = self.store_dir.join(&info.name).display().to_string();
        Ok((embedder, EmbeddingStore::empty(info, origin)))
    }

    fn open_embedder(&self) -> Result<OnnxEmbedder> {
        OnnxEmbedder::open(Path::new(&self.spec), self.ort_lib.as_deref(), self.options)
    }

    /// The vectors of every text `suite` needs under `policy`.
    pub fn vectors_for(
        &self,
        suite: &Suite,
        policy: TextPolicy,
        progress: EmbedProgress<'_>,
    ) -> Result<EmbeddingStore> {
        let needed = needed_texts(suite, policy);
        if self.is_model_dir() {
            let (mut embedder, mut store) = self.open_model()?;
            fill(&mut embedder, &mut store, policy, &needed, progress)?;
            return Ok(store);
        }
        let store = self.open_store()?;
        let missing = missing(&store, policy, &needed);
        if missing.is_empty() {
            return Ok(store);
        }
        Err(missing_error(&store, suite, policy, &needed, &missing))
    }

    /// A source that looks vectors up in the model's store and embeds what it lacks on
    /// demand: a model folder's store plus its embedder, or (a store name) the store alone.
    pub fn on_demand(&self) -> Result<std::sync::Arc<dyn super::VectorSource>> {
        if self.is_model_dir() {
            let (embedder, store) = self.open_model()?;
            return Ok(std::sync::Arc::new(CachedSource::new(
                store,
                Box::new(embedder),
            )));
        }
        Ok(std::sync::Arc::new(self.open_store()?))
    }

    /// The store named by the spec.
    pub fn open_store(&self) -> Result<EmbeddingStore> {
        EmbeddingStore::open(&self.store_dir, &self.spec)?.ok_or_else(|| {
            let mut known: Vec<String> = builtin_names().iter().map(|s| s.to_string()).collect();
            if let Ok(dir) = std::fs::read_dir(&self.store_dir) {
                for e in dir.flatten() {
                    if e.path().join("manifest.json").is_file() {
                        known.push(e.file_name().to_string_lossy().into_owned());
                    }
                }
            }
            known.sort();
            known.dedup();
            Error::Usage(format!(
                "--model {}: not a model folder (no model.onnx) and no store {} or built-in \
                 store of that name; stores: {}",
                self.spec,
                self.store_dir.join(&self.spec).display(),
                known.join(", ")
            ))
        })
    }
}

/// Embed the `needed` texts the store lacks; returns how many were embedded.
pub fn fill(
    embedder: &mut dyn Embedder,
    store: &mut EmbeddingStore,
    policy: TextPolicy,
    needed: &[NeededText],
    progress: EmbedProgress<'_>,
) -> Result<usize> {
    let missing = missing(store, policy, needed);
    let total = missing.len();
    let mut done = 0;
    for role in [Role::Belief, Role::Query] {
        let texts: Vec<&str> = missing
            .iter()
            .filter(|t| t.role == role)
            .map(|t| t.text.as_str())
            .collect();
        if texts.is_empty() {
            continue;
        }
        let vectors = embedder.embed(&texts, role, &mut |n| {
            done += n;
            progress(done, total);
        })?;
        for (text, vector) in texts.iter().zip(vectors) {
            store.insert(role, policy.name(role), text, vector)?;
        }
    }
    Ok(total)
}

/// The `needed` texts `store` has no vector for.
fn missing<'a>(
    store: &EmbeddingStore,
    policy: TextPolicy,
    needed: &'a [NeededText],
) -> Vec<&'a NeededText> {
    needed
        .iter()
        .filter(|t| store.get(t.role, policy.name(t.role), &t.text).is_none())
        .collect()
}

fn check_same_model(store: &EmbeddingStore, info: &ModelInfo, folder: &Path) -> Result<()> {
    let manifest = PathBuf::from(&store.origin).join("manifest.json");
    if store.model.dimensions != info.dimensions {
        return Err(Error::input(
            &manifest,
            "$.model.dimensions",
            format!(
                "the store holds {}-dimensional vectors but {} returns {}; use another --store-dir \
                 or name the model differently in its embedder.json",
                store.model.dimensions,
                folder.display(),
                info.dimensions
            ),
        ));
    }
    for (field, stored, actual) in [
        ("sha256", &store.model.sha256, &info.sha256),
        (
            "tokenizer_sha256",
            &store.model.tokenizer_sha256,
            &info.tokenizer_sha256,
        ),
    ] {
        // An imported store (null hashes) cannot be checked; any export of the model may extend it.
        if let (Some(stored), Some(actual)) = (stored, actual) {
            if stored != actual {
                return Err(Error::input(
                    &manifest,
                    format!("$.model.{field}"),
                    format!(
                        "store {} was made by a different model ({field} {stored}); {} has {actual}. \
                         Its vectors would not be comparable: use another --store-dir, or name \
                         this model differently in its embedder.json",
                        store.model.name,
                        folder.display()
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn missing_error(
    store: &EmbeddingStore,
    suite: &Suite,
    policy: TextPolicy,
    needed: &[NeededText],
    missing: &[&NeededText],
) -> Error {
    let count = |role| missing.iter().filter(|t| t.role == role).count();
    let example = missing
        .iter()
        .take(3)
        .map(|t| format!("{} {:?}", t.role.name(), t.text))
        .collect::<Vec<_>>()
        .join("; ");
    Error::Input {
        file: PathBuf::from(format!("{} (store {})", store.origin, store.model.name)),
        location: format!("policy {}", policy.label()),
        message: format!(
            "{} of the {} texts that suite {} needs have no vector ({} beliefs, {} queries), e.g. \
             {example}. To compute them, point --model at an ONNX export of {} (a folder with \
             model.onnx and tokenizer.json, {} dimensions, and an embedder.json whose name is {:?}), \
             or fill the store once with `tenure-eval embed --model DIR --suite {}`",
            missing.len(),
            needed.len(),
            suite.name,
            count(Role::Belief),
            count(Role::Query),
            store.model.name,
            store.model.dimensions,
            store.model.name,
            suite.name
        ),
    }
}

/// Import the belief vectors of an upstream `beliefs.seed.embedded.json` (each belief with an
/// `embedding` array) as the store of model `name`, keyed under `policy`'s belief text.
pub fn import_upstream(
    path: &Path,
    name: &str,
    source: &str,
    policy: TextPolicy,
    into: Option<EmbeddingStore>,
) -> Result<EmbeddingStore> {
    let records: Vec<serde_json::Value> = parse_json(path, &read_bytes(path)?)?;
    let mut store = into;
    for (i, record) in records.iter().enumerate() {
        let at = |field: &str| format!("$[{i}]{field}");
        let vector: Vec<f32> = record
            .get("embedding")
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .ok_or_else(|| Error::input(path, at(".embedding"), "expected an array of numbers"))?;
        let belief: Belief = serde_json::from_value(record.clone())
            .map_err(|e| Error::input(path, at(""), format!("not a belief: {e}")))?;
        let store = store.get_or_insert_with(|| {
            EmbeddingStore::empty(
                ModelInfo {
                    name: name.to_string(),
                    source: source.to_string(),
                    sha256: None,
                    tokenizer_sha256: None,
                    dimensions: vector.len(),
                    pooling: Pooling::Mean,
                    normalize: false,
                    query_prefix: String::new(),
                    document_prefix: String::new(),
                    max_tokens: None,
                },
                format!("embeddings/{name}"),
            )
        });
        let text = policy.belief.of(&belief);
        store
            .insert(Role::Belief, policy.belief.name(), &text, vector)
            .map_err(|e| Error::input(path, at(".embedding"), e.to_string()))?;
    }
    store.ok_or_else(|| Error::input(path, "$", "no beliefs; expected a non-empty array"))
}
