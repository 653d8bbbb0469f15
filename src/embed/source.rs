//! Where a run's vectors come from: `--model NAME` (a store, no runtime needed),
//! `--model DIR` (an ONNX model folder: its store, plus whatever is missing embedded now, in
//! memory), or `--model ollama:NAME[@URL]` / `openai:NAME[@URL]` (a served model: its store,
//! plus whatever is missing embedded now and saved, so a rerun needs no server), or
//! `--model hashed[:DIM]` / `random[:DIM]` (built in: a hashed bag of words, and chance).

use super::builtin::BuiltinEmbedder;
use super::identity::check_service;
pub(crate) use super::kind::ModelKind;
use super::onnx::{is_model_dir, EmbedOptions, OnnxEmbedder};
use super::places::{check_store_name, Places};
use super::service::{ServiceEmbedder, ServiceOptions, ServiceSpec};
use super::store::{EmbeddingStore, ModelInfo, ServiceIdentity};
use super::vectors::{in_memory_origin, CachedSource, Embedder};
use super::{needed_texts, NeededText, Role, TextPolicy};
use crate::error::{Error, Result};
use crate::io::{parse_json, read_bytes};
use crate::suite::{Belief, Suite};
use std::path::{Path, PathBuf};

/// The model used when `--backend cosine` is given without `--model`.
pub(crate) const DEFAULT_MODEL: &str = "all-minilm-l6-v2";

/// A `--model` argument with its context.
#[derive(Debug, Clone)]
pub struct ModelSource {
    /// A store name (`all-minilm-l6-v2`) or a model folder.
    pub spec: String,
    /// `--store-dir`: the only folder of stores looked at when given; else `embeddings/`, then
    /// the built-in stores ([`Places`]).
    pub store_dir: Option<PathBuf>,
    /// `--store-name`: the store a model folder or served model fills (default: the model's
    /// own name; a served model's is prefixed with its API, so it never meets a built-in one).
    pub store_name: Option<String>,
    /// ONNX Runtime library (else `ORT_DYLIB_PATH`).
    pub ort_lib: Option<PathBuf>,
    /// Batching and threads.
    pub options: EmbedOptions,
    /// How a served model is called.
    pub service: ServiceOptions,
    /// Ollama's legacy `/api/embeddings` instead of `/api/embed`.
    pub ollama_legacy: bool,
}

/// Progress of embedding: `done` of `total` texts.
pub(crate) type EmbedProgress<'a> = &'a mut dyn FnMut(usize, usize);

impl ModelSource {
    /// Is the spec a model folder (rather than a store name)?
    pub(crate) fn is_model_dir(&self) -> bool {
        is_model_dir(Path::new(&self.spec))
    }

    /// The served model the spec names, if it names one.
    pub(crate) fn service_spec(&self) -> Option<Result<ServiceSpec>> {
        ServiceSpec::parse(&self.spec, self.ollama_legacy)
    }

    /// The built-in embedder the spec names (`hashed[:DIM]`, `random[:DIM]`), if it names one.
    pub(crate) fn builtin(&self) -> Option<Result<BuiltinEmbedder>> {
        BuiltinEmbedder::parse(&self.spec)
    }

    /// Can this spec embed (a model folder, a served model or a built-in embedder), rather than
    /// only look up?
    pub(crate) fn is_embedder(&self) -> bool {
        ModelKind::of(&self.spec) != ModelKind::Store
    }

    /// Where stores are looked for and written.
    pub(crate) fn places(&self) -> Places<'_> {
        Places::new(self.store_dir.as_deref())
    }

    /// The store an embedder whose own name is `own` fills: `--store-name`, else `own`.
    fn store_name_for(&self, own: &str) -> Result<String> {
        match &self.store_name {
            Some(name) => check_store_name(name).map(|()| name.clone()),
            None => Ok(own.to_string()),
        }
    }

    /// The store the spec names, no model opened: a built-in's own (`hashed:64` fills
    /// `hashed-bow-64`), else `--store-name` or the spec (`embed --export-texts --missing`).
    pub(crate) fn lookup_name(&self) -> Result<String> {
        match self.builtin() {
            Some(builtin) => self.store_name_for(&builtin?.info().name),
            None => self.store_name_for(&self.spec),
        }
    }

    /// Open the model and its store (empty if none), refusing a store made by another model
    /// or of another width.
    pub(crate) fn open_model(&self) -> Result<(Box<dyn Embedder>, EmbeddingStore)> {
        let embedder = self.open_embedder()?;
        let mut info = embedder.info().clone();
        info.name = self.store_name_for(&info.name)?;
        let store = match self.places().find(&info.name)? {
            Some(store) => {
                super::identity::check_same_model(&store, &info, &self.spec)?;
                store
            }
            None => {
                let origin = self.places().folder(&info.name).display().to_string();
                EmbeddingStore::empty(info, origin)
            }
        };
        Ok((embedder, store))
    }

    /// The model folder's embedder, with an empty store of its own (what `--refresh` starts
    /// from, whatever model made the stored vectors).
    pub(crate) fn open_fresh(&self) -> Result<(Box<dyn Embedder>, EmbeddingStore)> {
        let embedder = self.open_embedder()?;
        let mut info = embedder.info().clone();
        info.name = self.store_name_for(&info.name)?;
        let origin = self.places().folder(&info.name).display().to_string();
        Ok((embedder, EmbeddingStore::empty(info, origin)))
    }

    fn open_embedder(&self) -> Result<Box<dyn Embedder>> {
        if let Some(builtin) = self.builtin() {
            return Ok(Box::new(builtin?));
        }
        if let Some(spec) = self.service_spec() {
            return Ok(Box::new(ServiceEmbedder::connect(
                spec?,
                self.service.clone(),
            )?));
        }
        Ok(Box::new(OnnxEmbedder::open(
            Path::new(&self.spec),
            self.ort_lib.as_deref(),
            self.options,
        )?))
    }

    /// The vectors of every text `suite` needs under `policy`.
    pub(crate) fn vectors_for(
        &self,
        suite: &Suite,
        policy: TextPolicy,
        progress: EmbedProgress<'_>,
    ) -> Result<EmbeddingStore> {
        let needed = needed_texts(suite, policy);
        // A model folder or built-in embedder embeds in memory (built-ins are never stored).
        if self.is_model_dir() || self.builtin().is_some() {
            let (mut embedder, mut store) = self.open_model()?;
            let held = store.len();
            let embedded = fill(embedder.as_mut(), &mut store, policy, &needed, progress)?;
            store.origin = in_memory_origin(&store.origin, held, embedded);
            return Ok(store);
        }
        if let Some(spec) = self.service_spec() {
            // A complete store needs no server; otherwise embed what is missing and keep it.
            let spec = spec?;
            let name = self.store_name_for(&spec.store_name())?;
            if let Some(store) = self.places().find(&name)? {
                let identity = ServiceIdentity {
                    api: spec.api,
                    model: spec.model.clone(),
                    digest: None,
                };
                check_service(&store, Some(&identity), false, &self.spec)?;
                if missing(&store, policy, &needed).is_empty() {
                    return Ok(store);
                }
            }
            let (mut embedder, mut store) = self.open_model()?;
            fill(embedder.as_mut(), &mut store, policy, &needed, progress)?;
            store.save(&self.places().folder(&name))?;
            return Ok(store);
        }
        let store = self.open_store()?;
        let missing = missing(&store, policy, &needed);
        if missing.is_empty() {
            return Ok(store);
        }
        Err(super::needed::missing_error(
            &store, suite, policy, &needed, &missing,
        ))
    }

    /// A source that looks vectors up in the model's store and embeds what it lacks on
    /// demand: a model folder's store plus its embedder, or (a store name) the store alone.
    pub fn on_demand(&self) -> Result<std::sync::Arc<dyn super::VectorSource>> {
        if self.is_embedder() {
            let (embedder, store) = self.open_model()?;
            return Ok(std::sync::Arc::new(CachedSource::new(store, embedder)));
        }
        Ok(std::sync::Arc::new(self.open_store()?))
    }

    /// The store named by the spec.
    pub(crate) fn open_store(&self) -> Result<EmbeddingStore> {
        if self.store_name.is_some() {
            return Err(Error::Usage(format!(
                "--store-name names the store a model folder or served model fills; --model {} \
                 names a store already",
                self.spec
            )));
        }
        let places = self.places();
        places.find(&self.spec)?.ok_or_else(|| {
            let known = places.known();
            Error::Usage(format!(
                "--model {}: not a model folder (no model.onnx), not a served model \
                 (ollama:NAME, openai:NAME), and no store of that name; looked at {}; stores \
                 there: {}",
                self.spec,
                places.looked_at(&self.spec),
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ))
        })
    }
}

/// Embed the `needed` texts the store lacks; returns how many were embedded.
pub(crate) fn fill(
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
pub(crate) fn missing<'a>(
    store: &EmbeddingStore,
    policy: TextPolicy,
    needed: &'a [NeededText],
) -> Vec<&'a NeededText> {
    needed
        .iter()
        .filter(|t| store.get(t.role, policy.name(t.role), &t.text).is_none())
        .collect()
}

/// Import the belief vectors of an upstream `beliefs.seed.embedded.json` (each belief with an
/// `embedding` array) as the store of model `name`, keyed under `policy`'s belief text; a
/// vector other than one the store holds replaces it only with `replace` (`--refresh`).
pub(crate) fn import_upstream(
    path: &Path,
    name: &str,
    source: &str,
    policy: TextPolicy,
    into: Option<EmbeddingStore>,
    replace: bool,
) -> Result<(EmbeddingStore, usize)> {
    super::import::refuse_computed(into.as_ref(), name, "--import-upstream")?;
    let mut replaced = 0;
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
                ModelInfo::imported(name, source, vector.len()),
                format!("embeddings/{name}"),
            )
        });
        let text = policy.belief.of(&belief);
        let held = store.get(Role::Belief, policy.belief.name(), &text);
        let other = held.is_some_and(|held| held != vector.as_slice());
        replaced += usize::from(other);
        if !replace && other {
            let message = format!(
                "store {name} holds another vector for {text:?}; --refresh replaces the \
                 vectors it holds for the beliefs imported"
            );
            return Err(Error::input(path, at(".embedding"), message));
        }
        store
            .insert(Role::Belief, policy.belief.name(), &text, vector)
            .map_err(|e| Error::input(path, at(".embedding"), e.to_string()))?;
    }
    let store =
        store.ok_or_else(|| Error::input(path, "$", "no beliefs; expected a non-empty array"))?;
    Ok((store, replaced))
}
