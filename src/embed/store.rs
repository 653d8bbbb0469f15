//! The embedding store: one folder per model, `embeddings/<model>/`, holding
//!
//! * `manifest.json`: the model's identity (name, source, sha256 of `model.onnx` and
//!   `tokenizer.json`, dimensions, pooling, normalisation, prefixes) and one entry per vector
//!   (`key`, `role`, `policy`, `text`), in row order;
//! * `vectors.npy`: a float32 `count × dimensions` array, row i for entry i, which
//!   `numpy.load` reads as is.
//!
//! Vectors are stored as the model returned them; search normalises. A key is
//! [`super::key`] of (model name, role, policy, text). Entries are kept sorted by
//! (role, policy, text), so the same vectors always give the same files.

use super::{check_vector, key, Role};
use crate::error::{Error, Result};
use crate::io::{parse_json, read_bytes};
use ndarray::Array2;
use ndarray_npy::{ReadNpyExt, WriteNpyExt};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Store format tag in every manifest.
pub(crate) const FORMAT: &str = "tenure-eval-embeddings/1";

/// How token vectors become one text vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pooling {
    /// Mean over the attended tokens.
    Mean,
    /// The first token's vector.
    Cls,
}

/// What made a store's vectors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelInfo {
    /// Model name; also the store's folder name and part of every key.
    pub name: String,
    /// Where the model comes from.
    pub source: String,
    /// sha256 of `model.onnx`; null when the vectors were imported from elsewhere.
    pub sha256: Option<String>,
    /// sha256 of `tokenizer.json`; null when imported.
    pub tokenizer_sha256: Option<String>,
    /// Vector length.
    pub dimensions: usize,
    /// Pooling.
    pub pooling: Pooling,
    /// L2-normalised by the model.
    pub normalize: bool,
    /// Prepended to every query text before embedding.
    #[serde(default)]
    pub query_prefix: String,
    /// Prepended to every belief text before embedding.
    #[serde(default)]
    pub document_prefix: String,
    /// Token limit (longer inputs are truncated); null when unknown.
    pub max_tokens: Option<usize>,
    /// The service that computed the vectors, for models served over HTTP.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<ServiceIdentity>,
}

impl ModelInfo {
    /// The identity of vectors computed elsewhere and imported: a name, where they came from,
    /// their width; nothing that could be checked.
    pub fn imported(name: &str, source: &str, dimensions: usize) -> ModelInfo {
        ModelInfo {
            name: name.to_string(),
            source: source.to_string(),
            sha256: None,
            tokenizer_sha256: None,
            dimensions,
            pooling: Pooling::Mean,
            normalize: false,
            query_prefix: String::new(),
            document_prefix: String::new(),
            max_tokens: None,
            service: None,
        }
    }
}

/// Which served model made a store's vectors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServiceIdentity {
    /// `ollama`, `ollama-legacy` or `openai`.
    pub api: super::service::Api,
    /// The model as the service names it.
    pub model: String,
    /// What the service says identifies the model's weights (Ollama's digest), when it says.
    pub digest: Option<String>,
}

/// One stored vector's description.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// [`super::key`] of (model, role, policy, text).
    pub key: String,
    /// Belief or query.
    pub role: Role,
    /// Text policy name (`names`, `names-content`, `expanded`, `raw`).
    pub policy: String,
    /// The exact text embedded (without the model's prefix).
    pub text: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Manifest {
    format: String,
    model: ModelInfo,
    count: usize,
    vectors: String,
    entries: Vec<Entry>,
}

/// Vectors of one model, looked up by key.
#[derive(Debug, Clone)]
pub struct EmbeddingStore {
    /// The model.
    pub model: ModelInfo,
    /// Where the store was read from (a folder, or `builtin:<name>`).
    pub origin: String,
    entries: Vec<Entry>,
    vectors: Vec<Vec<f32>>,
    by_key: HashMap<String, usize>,
}

/// A store compiled into the binary, so cosine runs work from anywhere with no runtime.
struct BuiltinStore {
    name: &'static str,
    manifest: &'static [u8],
    vectors: &'static [u8],
}

macro_rules! builtin_store {
    ($name:literal) => {
        BuiltinStore {
            name: $name,
            manifest: include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/embeddings/",
                $name,
                "/manifest.json"
            )),
            vectors: include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/embeddings/",
                $name,
                "/vectors.npy"
            )),
        }
    };
}

const BUILTIN_STORES: &[BuiltinStore] = &[
    builtin_store!("all-minilm-l6-v2"),
    builtin_store!("all-minilm-l6-v2-int8"),
    builtin_store!("nomic-embed-text"),
];

/// Names of the stores compiled in.
pub(crate) fn builtin_names() -> Vec<&'static str> {
    BUILTIN_STORES.iter().map(|s| s.name).collect()
}

impl EmbeddingStore {
    /// An empty store for `model`.
    pub fn empty(model: ModelInfo, origin: String) -> EmbeddingStore {
        EmbeddingStore {
            model,
            origin,
            entries: Vec::new(),
            vectors: Vec::new(),
            by_key: HashMap::new(),
        }
    }

    /// The store named `name`: `<dir>/<name>/` when it exists there, else the built-in copy.
    pub fn open(dir: &Path, name: &str) -> Result<Option<EmbeddingStore>> {
        let folder = dir.join(name);
        if folder.join("manifest.json").is_file() {
            return EmbeddingStore::load(&folder).map(Some);
        }
        EmbeddingStore::builtin(name)
    }

    /// The built-in store `name`, if there is one.
    pub(crate) fn builtin(name: &str) -> Result<Option<EmbeddingStore>> {
        match BUILTIN_STORES.iter().find(|s| s.name == name) {
            Some(b) => {
                let path = PathBuf::from(format!("embeddings/{}", b.name));
                EmbeddingStore::parse(&path, b.manifest, b.vectors, format!("builtin:{}", b.name))
                    .map(Some)
            }
            None => Ok(None),
        }
    }

    /// Read the store in `folder`.
    pub fn load(folder: &Path) -> Result<EmbeddingStore> {
        let manifest = read_bytes(&folder.join("manifest.json"))?;
        let vectors = read_bytes(&folder.join("vectors.npy"))?;
        EmbeddingStore::parse(folder, &manifest, &vectors, folder.display().to_string())
    }

    fn parse(folder: &Path, manifest: &[u8], npy: &[u8], origin: String) -> Result<Self> {
        let manifest_path = folder.join("manifest.json");
        let npy_path = folder.join("vectors.npy");
        let m: Manifest = parse_json(&manifest_path, manifest)?;
        crate::io::check_file_name(&manifest_path, "$.model.name", &m.model.name)?;
        let bad = |at: String, message: String| Error::input(&manifest_path, at, message);
        if m.format != FORMAT {
            return Err(bad(
                "$.format".into(),
                format!("format {:?}, expected {FORMAT:?}", m.format),
            ));
        }
        if m.vectors != "vectors.npy" {
            return Err(bad(
                "$.vectors".into(),
                format!("{:?}, expected \"vectors.npy\"", m.vectors),
            ));
        }
        if m.count != m.entries.len() {
            return Err(bad(
                "$.count".into(),
                format!("count {} but {} entries", m.count, m.entries.len()),
            ));
        }
        crate::io::npy_shape(&npy_path, npy)?;
        let array = Array2::<f32>::read_npy(npy).map_err(|e| {
            Error::input(
                &npy_path,
                "file",
                format!("not a float32 2-D .npy array: {e}"),
            )
        })?;
        let dims = m.model.dimensions;
        if array.dim() != (m.count, dims) {
            return Err(Error::input(
                &npy_path,
                "shape",
                format!(
                    "shape {:?}, expected ({}, {dims}) from manifest count and model.dimensions",
                    array.dim(),
                    m.count
                ),
            ));
        }
        let mut store = EmbeddingStore::empty(m.model, origin);
        for (i, (entry, row)) in m.entries.into_iter().zip(array.rows()).enumerate() {
            let expected = key(&store.model.name, entry.role, &entry.policy, &entry.text);
            if entry.key != expected {
                return Err(bad(
                    format!("$.entries[{i}].key"),
                    format!(
                        "key {} does not match model {:?}, role, policy and text (expected {expected})",
                        entry.key, store.model.name
                    ),
                ));
            }
            let vector = row.to_vec();
            check_vector(&vector).map_err(|why| {
                Error::input(
                    &npy_path,
                    format!("row {i} ($.entries[{i}] of manifest.json)"),
                    format!("{why}; expected a finite, non-zero vector"),
                )
            })?;
            if store.by_key.insert(entry.key.clone(), i).is_some() {
                return Err(bad(
                    format!("$.entries[{i}].key"),
                    "duplicate key".to_string(),
                ));
            }
            store.entries.push(entry);
            store.vectors.push(vector);
        }
        Ok(store)
    }

    /// Number of vectors.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No vectors.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries, in row order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The vector of `text` under `role` and `policy`, if stored.
    pub fn get(&self, role: Role, policy: &str, text: &str) -> Option<&[f32]> {
        let k = key(&self.model.name, role, policy, text);
        self.by_key.get(&k).map(|&i| self.vectors[i].as_slice())
    }

    /// Add (or overwrite) a vector. Its length must be the model's dimensions and it must be
    /// finite and non-zero.
    pub fn insert(&mut self, role: Role, policy: &str, text: &str, vector: Vec<f32>) -> Result<()> {
        let model = &self.model.name;
        if vector.len() != self.model.dimensions {
            return Err(Error::backend(
                "cosine",
                format!(
                    "model {model} returned a {}-dimensional vector; the store holds {} dimensions",
                    vector.len(),
                    self.model.dimensions
                ),
            ));
        }
        check_vector(&vector).map_err(|why| {
            Error::backend(
                "cosine",
                format!("model {model} embedded {text:?} as {why}"),
            )
        })?;
        let k = key(model, role, policy, text);
        match self.by_key.get(&k) {
            Some(&i) => self.vectors[i] = vector,
            None => {
                self.by_key.insert(k.clone(), self.entries.len());
                self.entries.push(Entry {
                    key: k,
                    role,
                    policy: policy.to_string(),
                    text: text.to_string(),
                });
                self.vectors.push(vector);
            }
        }
        Ok(())
    }

    /// sha256 over every (key, vector) in key order: the same vectors give the same
    /// fingerprint, wherever the store was read from. Recorded in report manifests.
    pub(crate) fn fingerprint(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by(|&a, &b| self.entries[a].key.cmp(&self.entries[b].key));
        let mut hasher = Sha256::new();
        for i in order {
            hasher.update(self.entries[i].key.as_bytes());
            for x in &self.vectors[i] {
                hasher.update(x.to_le_bytes());
            }
        }
        format!("{:x}", hasher.finalize())
    }

    /// Write the store to `folder` (manifest and vectors, each atomically), entries sorted.
    pub(crate) fn save(&self, folder: &Path) -> Result<()> {
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (&self.entries[a], &self.entries[b]);
            (x.role, &x.policy, &x.text).cmp(&(y.role, &y.policy, &y.text))
        });
        let dims = self.model.dimensions;
        let mut flat = Vec::with_capacity(order.len() * dims);
        for &i in &order {
            flat.extend_from_slice(&self.vectors[i]);
        }
        let array = Array2::from_shape_vec((order.len(), dims), flat)
            .map_err(|e| Error::backend("cosine", e))?;
        let mut npy = Vec::new();
        array
            .write_npy(&mut npy)
            .map_err(|e| Error::backend("cosine", e))?;
        let manifest = Manifest {
            format: FORMAT.to_string(),
            model: self.model.clone(),
            count: order.len(),
            vectors: "vectors.npy".to_string(),
            entries: order.iter().map(|&i| self.entries[i].clone()).collect(),
        };
        let mut json =
            serde_json::to_vec_pretty(&manifest).map_err(|e| Error::backend("cosine", e))?;
        json.push(b'\n');
        crate::io::write_atomic(&folder.join("vectors.npy"), &npy)?;
        crate::io::write_atomic(&folder.join("manifest.json"), &json)?;
        Ok(())
    }
}
