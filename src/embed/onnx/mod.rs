//! Sentence embeddings from an ONNX model folder, through ONNX Runtime (`ort`, loaded at run
//! time) and a Hugging Face `tokenizer.json` (`tokenizers`), on every core: one
//! single-threaded session per worker, workers taking batches of texts of similar length in
//! turn (`batches`), each call padded, masked and pooled in `call`. A text's vector is the same
//! bits whatever the worker count or the batch it shares (docs/embeddings.md, "Speed").
//!
//! A model folder holds `model.onnx` and `tokenizer.json`, and optionally `embedder.json`
//! (a [`ModelInfo`] without the hashes: name, source, pooling `mean|cls`, normalize,
//! query_prefix, document_prefix, max_tokens, dimensions). The graph takes `input_ids` and
//! `attention_mask` (and `token_type_ids` if it declares it), int64 `batch × sequence`, and
//! returns token vectors `batch × sequence × dim` (pooled here) or pooled `batch × dim`.

mod batches;
mod call;
pub mod peak;

use super::store::{ModelInfo, Pooling};
use super::Role;
use crate::error::{Error, Result};
use crate::io::{parse_json, read_bytes, sha256_hex};
use ort::environment::Environment;
use ort::session::Session;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;
use tokenizers::{Tokenizer, TruncationParams};

/// Options of an embedding run.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct EmbedOptions {
    /// Texts per model call at most (a model's `max_batch` may lower it).
    pub batch_size: usize,
    /// Workers, each with its own single-threaded session; 0: one per core.
    pub threads: usize,
    /// Padded tokens per model call at most (a longer text goes alone).
    pub batch_tokens: usize,
}

impl Default for EmbedOptions {
    fn default() -> Self {
        EmbedOptions {
            batch_size: 64,
            threads: 0,
            batch_tokens: 8192,
        }
    }
}

impl EmbedOptions {
    /// The workers an embedder runs: `threads`, or one per core for 0.
    pub(crate) fn workers(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }
}

/// `embedder.json`: everything optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct EmbedderConfig {
    name: Option<String>,
    source: Option<String>,
    pooling: Option<Pooling>,
    normalize: Option<bool>,
    query_prefix: Option<String>,
    document_prefix: Option<String>,
    max_tokens: Option<usize>,
    dimensions: Option<usize>,
    /// Largest batch the model may see. Dynamically quantised graphs compute activation scales
    /// over the whole input tensor, so their vectors depend on what is batched together; 1
    /// makes each vector a function of its text alone.
    max_batch: Option<usize>,
}

/// Is `path` a model folder (it holds `model.onnx`)?
pub(crate) fn is_model_dir(path: &Path) -> bool {
    path.join("model.onnx").is_file()
}

/// The loaded runtime and its environment (kept alive for the process: sessions need it).
static RUNTIME: OnceLock<std::result::Result<(PathBuf, Environment), String>> = OnceLock::new();

/// Load the ONNX Runtime shared library once per process: `ort_lib`, else `ORT_DYLIB_PATH`,
/// else `libonnxruntime.so` beside the executable. Missing or unloadable: exit 3.
pub(crate) fn load_runtime(ort_lib: Option<&Path>) -> Result<(PathBuf, Environment)> {
    let outcome = RUNTIME.get_or_init(|| {
        let candidate = ort_lib
            .map(Path::to_path_buf)
            .or_else(|| {
                std::env::var_os("ORT_DYLIB_PATH")
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            })
            .or_else(|| {
                let exe = std::env::current_exe().ok()?;
                let beside = exe.parent()?.join(format!(
                    "{}onnxruntime{}",
                    std::env::consts::DLL_PREFIX,
                    std::env::consts::DLL_SUFFIX
                ));
                beside.is_file().then_some(beside)
            });
        let Some(path) = candidate else {
            return Err(
                "the ONNX Runtime library was not found: pass --ort-lib PATH or set \
                        ORT_DYLIB_PATH to libonnxruntime.so (scripts/setup-models.sh installs \
                        onnxruntime==1.31.1 and prints the path)"
                    .to_string(),
            );
        };
        if !path.is_file() {
            return Err(format!(
                "the ONNX Runtime library {} does not exist (from --ort-lib or ORT_DYLIB_PATH)",
                path.display()
            ));
        }
        let builder = ort::init_from(&path)
            .map_err(|e| format!("cannot load ONNX Runtime from {}: {e}", path.display()))?;
        let environment = builder
            .with_name("tenure-eval")
            .build()
            .map_err(|e| format!("cannot start ONNX Runtime from {}: {e}", path.display()))?;
        Ok((path, environment))
    });
    outcome
        .clone()
        .map_err(|message| Error::backend("cosine", message))
}

/// An ONNX sentence-embedding model.
pub struct OnnxEmbedder {
    info: ModelInfo,
    tokenizer: Tokenizer,
    /// One per worker, each single-threaded: intra-op threads would split sums differently by
    /// their count.
    sessions: Vec<Session>,
    wants_token_types: bool,
    output: String,
    options: EmbedOptions,
    /// The id padding positions get (the tokenizer file's, else 0).
    pad_id: u32,
}

fn open_session(environment: &ort::environment::Environment, model: &Path) -> ort::Result<Session> {
    Session::builder(environment)?
        .with_intra_threads(1)?
        .with_inter_threads(1)?
        .commit_from_file(model)
}

impl OnnxEmbedder {
    /// Open the model folder `folder` (the runtime must be loadable).
    pub fn open(folder: &Path, ort_lib: Option<&Path>, options: EmbedOptions) -> Result<Self> {
        let model_path = folder.join("model.onnx");
        let tokenizer_path = folder.join("tokenizer.json");
        for (path, what) in [
            (&model_path, "the ONNX graph"),
            (&tokenizer_path, "the tokenizer"),
        ] {
            if !path.is_file() {
                return Err(Error::input(
                    path,
                    "file",
                    format!(
                        "missing {what}; a model folder holds model.onnx and tokenizer.json \
                         (and optionally embedder.json)"
                    ),
                ));
            }
        }
        let config_path = folder.join("embedder.json");
        let config: EmbedderConfig = if config_path.is_file() {
            parse_json(&config_path, &read_bytes(&config_path)?)?
        } else {
            EmbedderConfig::default()
        };
        let (_, environment) = load_runtime(ort_lib)?;

        // Batches here are small (32 texts at most): tokenizing them on rayon's pool costs more
        // in thread wake-ups than it saves, and the model already has its threads.
        tokenizers::utils::parallelism::set_parallelism(false);
        let tokenizer_bytes = read_bytes(&tokenizer_path)?;
        let mut tokenizer = Tokenizer::from_bytes(&tokenizer_bytes).map_err(|e| {
            Error::input(
                &tokenizer_path,
                "file",
                format!("not a tokenizers JSON file: {e}"),
            )
        })?;
        // Texts are tokenized unpadded, all at once; each call pads its own batch (`call`).
        let pad_id = tokenizer.get_padding().map_or(0, |p| p.pad_id);
        tokenizer.with_padding(None);
        if let Some(max) = config.max_tokens {
            let truncation = TruncationParams {
                max_length: max,
                ..tokenizer.get_truncation().cloned().unwrap_or_default()
            };
            tokenizer
                .with_truncation(Some(truncation))
                .map_err(|e| Error::input(&config_path, "$.max_tokens", e.to_string()))?;
        }

        let model_bytes = read_bytes(&model_path)?;
        let options = EmbedOptions {
            batch_size: options
                .batch_size
                .clamp(1, config.max_batch.unwrap_or(usize::MAX).max(1)),
            threads: options.workers(),
            batch_tokens: options.batch_tokens.max(1),
        };
        let sessions = (0..options.threads)
            .map(|_| open_session(&environment, &model_path))
            .collect::<ort::Result<Vec<Session>>>()
            .map_err(|e| {
                Error::backend(
                    "cosine",
                    format!("cannot open {}: {e}", model_path.display()),
                )
            })?;
        let session = &sessions[0];
        let wants_token_types = session
            .inputs()
            .iter()
            .any(|i| i.name() == "token_type_ids");
        for needed in ["input_ids", "attention_mask"] {
            if !session.inputs().iter().any(|i| i.name() == needed) {
                return Err(Error::input(
                    &model_path,
                    "graph inputs",
                    format!(
                        "the graph has no input {needed:?}; expected input_ids and attention_mask"
                    ),
                ));
            }
        }
        let output = session
            .outputs()
            .iter()
            .find(|o| o.name() == "last_hidden_state")
            .or_else(|| session.outputs().first())
            .map(|o| o.name().to_string())
            .ok_or_else(|| Error::input(&model_path, "graph outputs", "the graph has no output"))?;

        let name = config.name.unwrap_or_else(|| {
            folder
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "model".to_string())
        });
        crate::io::check_file_name(&config_path, "$.name", &name)?;
        let mut embedder = OnnxEmbedder {
            info: ModelInfo {
                name,
                source: config
                    .source
                    .unwrap_or_else(|| format!("ONNX model folder {}", folder.display())),
                sha256: Some(sha256_hex(&model_bytes)),
                tokenizer_sha256: Some(sha256_hex(&tokenizer_bytes)),
                dimensions: config.dimensions.unwrap_or(0),
                pooling: config.pooling.unwrap_or(Pooling::Mean),
                normalize: config.normalize.unwrap_or(true),
                query_prefix: config.query_prefix.unwrap_or_default(),
                document_prefix: config.document_prefix.unwrap_or_default(),
                max_tokens: config
                    .max_tokens
                    .or_else(|| tokenizer.get_truncation().map(|t| t.max_length)),
                service: None,
            },
            tokenizer,
            sessions,
            wants_token_types,
            output,
            options,
            pad_id,
        };
        // One probe text tells the real width; a configured width must agree with it.
        let probe = super::Embedder::embed(
            &mut embedder,
            &["dimension probe"],
            Role::Query,
            &mut |_| {},
        )?;
        let width = probe[0].len();
        if embedder.info.dimensions != 0 && embedder.info.dimensions != width {
            return Err(Error::input(
                &config_path,
                "$.dimensions",
                format!(
                    "embedder.json says {} dimensions but the model returns {width}",
                    embedder.info.dimensions
                ),
            ));
        }
        embedder.info.dimensions = width;
        Ok(embedder)
    }
}

impl super::Embedder for OnnxEmbedder {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    /// Every text tokenized, planned into batches of similar length, and the batches run by
    /// the workers in turn; `on_batch` hears each finished batch's size on this thread.
    fn embed(
        &mut self,
        texts: &[&str],
        role: Role,
        on_batch: &mut dyn FnMut(usize),
    ) -> Result<Vec<Vec<f32>>> {
        let name = self.info.name.clone();
        let fail = |e: &dyn std::fmt::Display| Error::backend("cosine", format!("{name}: {e}"));
        let prefix = match role {
            Role::Query => &self.info.query_prefix,
            Role::Belief => &self.info.document_prefix,
        };
        let inputs: Vec<String> = texts.iter().map(|t| format!("{prefix}{t}")).collect();
        // `_fast`: the model needs ids and masks, not character offsets.
        let encodings = self
            .tokenizer
            .encode_batch_fast(inputs, true)
            .map_err(|e| fail(&e))?;
        let lengths: Vec<usize> = encodings.iter().map(|e| e.len()).collect();
        let plan = batches::plan(&lengths, self.options.batch_size, self.options.batch_tokens);
        let call = call::Call {
            encodings: &encodings,
            pad_id: self.pad_id,
            token_types: self.wants_token_types,
            output: &self.output,
            pooling: self.info.pooling,
            normalize: self.info.normalize,
        };
        let mut out: Vec<Option<Vec<f32>>> = vec![None; texts.len()];
        let mut first_error = None;
        let (next, failed) = (AtomicUsize::new(0), AtomicBool::new(false));
        std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::channel();
            for session in self.sessions.iter_mut().take(plan.len()) {
                let (tx, next, failed, plan, call) = (tx.clone(), &next, &failed, &plan, &call);
                scope.spawn(move || {
                    while !failed.load(Ordering::Relaxed) {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(batch) = plan.get(k) else { break };
                        let result = call.run(session, batch);
                        failed.fetch_or(result.is_err(), Ordering::Relaxed);
                        if tx.send((k, result)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            for (k, result) in rx {
                match result {
                    Ok(vectors) => {
                        for (&row, vector) in plan[k].rows.iter().zip(vectors) {
                            out[row] = Some(vector);
                        }
                        on_batch(plan[k].rows.len());
                    }
                    Err(e) => {
                        first_error.get_or_insert(e);
                    }
                }
            }
        });
        if let Some(e) = first_error {
            return Err(fail(&e));
        }
        out.into_iter()
            .map(|v| v.ok_or_else(|| fail(&"a batch returned no vector")))
            .collect()
    }
}
