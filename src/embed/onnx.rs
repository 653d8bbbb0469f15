//! Sentence embeddings from an ONNX model folder, through ONNX Runtime (`ort`, loaded at run
//! time) and a Hugging Face `tokenizer.json` (`tokenizers`).
//!
//! A model folder holds `model.onnx` and `tokenizer.json`, and optionally `embedder.json`
//! (a [`ModelInfo`] without the hashes: name, source, pooling `mean|cls`, normalize,
//! query_prefix, document_prefix, max_tokens, dimensions). The graph takes `input_ids` and
//! `attention_mask` (and `token_type_ids` if it declares it), int64 `batch × sequence`, and
//! returns token vectors `batch × sequence × dim` (pooled here) or pooled `batch × dim`.

use super::store::{ModelInfo, Pooling};
use super::Role;
use crate::error::{Error, Result};
use crate::io::{parse_json, read_bytes, sha256_hex};
use ndarray::{Array2, ArrayViewD, Axis};
use ort::environment::Environment;
use ort::session::Session;
use ort::value::TensorRef;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

/// Options of an embedding run.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct EmbedOptions {
    /// Texts per model call.
    pub batch_size: usize,
    /// ONNX Runtime intra-op threads.
    pub threads: usize,
}

impl Default for EmbedOptions {
    fn default() -> Self {
        EmbedOptions {
            batch_size: 32,
            threads: 1,
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
    folder: PathBuf,
    tokenizer: Tokenizer,
    session: Session,
    wants_token_types: bool,
    output: String,
    options: EmbedOptions,
}

fn open_session(
    environment: &ort::environment::Environment,
    model: &Path,
    threads: usize,
) -> ort::Result<Session> {
    Session::builder(environment)?
        .with_intra_threads(threads)?
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
        // Batches must be rectangular: pad to the longest input, whatever the file says.
        let mut padding = tokenizer
            .get_padding()
            .cloned()
            .unwrap_or_else(PaddingParams::default);
        padding.strategy = PaddingStrategy::BatchLongest;
        tokenizer.with_padding(Some(padding));
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
        let threads = options.threads.max(1);
        let options = EmbedOptions {
            batch_size: options
                .batch_size
                .clamp(1, config.max_batch.unwrap_or(usize::MAX).max(1)),
            threads,
        };
        let session = open_session(&environment, &model_path, threads).map_err(|e| {
            Error::backend(
                "cosine",
                format!("cannot open {}: {e}", model_path.display()),
            )
        })?;
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
            folder: folder.to_path_buf(),
            tokenizer,
            session,
            wants_token_types,
            output,
            options,
        };
        // One probe text tells the real width; a configured width must agree with it.
        let probe = embedder.embed_batch(&["dimension probe"], Role::Query)?;
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

    /// The folder the model was read from.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// Embed one batch (one model call).
    pub fn embed_batch(&mut self, texts: &[&str], role: Role) -> Result<Vec<Vec<f32>>> {
        let fail = |e: &dyn std::fmt::Display| {
            Error::backend("cosine", format!("{}: {e}", self.info.name))
        };
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
        let (rows, cols) = (encodings.len(), encodings.first().map_or(0, |e| e.len()));
        let matrix = |get: &dyn Fn(&tokenizers::Encoding) -> &[u32]| {
            let flat: Vec<i64> = encodings
                .iter()
                .flat_map(|e| get(e).iter().map(|&x| i64::from(x)))
                .collect();
            Array2::from_shape_vec((rows, cols), flat)
        };
        let ids = matrix(&|e| e.get_ids()).map_err(|e| fail(&e))?;
        let mask = matrix(&|e| e.get_attention_mask()).map_err(|e| fail(&e))?;
        let types = matrix(&|e| e.get_type_ids()).map_err(|e| fail(&e))?;

        let mut feed = ort::inputs![
            "input_ids" => TensorRef::from_array_view(&ids).map_err(|e| fail(&e))?,
            "attention_mask" => TensorRef::from_array_view(&mask).map_err(|e| fail(&e))?,
        ];
        if self.wants_token_types {
            feed.push((
                "token_type_ids".into(),
                TensorRef::from_array_view(&types)
                    .map_err(|e| fail(&e))?
                    .into(),
            ));
        }
        let (pooling, normalize) = (self.info.pooling, self.info.normalize);
        let outputs = self.session.run(feed).map_err(|e| fail(&e))?;
        let hidden = outputs[self.output.as_str()]
            .try_extract_array::<f32>()
            .map_err(|e| fail(&e))?;
        let pooled = pool(hidden, &mask, pooling).map_err(|e| fail(&e))?;
        Ok(pooled
            .into_iter()
            .map(|v| if normalize { l2(v) } else { v })
            .collect())
    }
}

/// Token vectors → one vector per text (mean over attended tokens, or the first token).
fn pool(
    hidden: ArrayViewD<'_, f32>,
    mask: &Array2<i64>,
    pooling: Pooling,
) -> std::result::Result<Vec<Vec<f32>>, String> {
    match hidden.ndim() {
        2 => Ok(hidden
            .outer_iter()
            .map(|row| row.iter().copied().collect())
            .collect()),
        3 => Ok(hidden
            .outer_iter()
            .zip(mask.outer_iter())
            .map(|(tokens, attended)| match pooling {
                Pooling::Cls => tokens.index_axis(Axis(0), 0).iter().copied().collect(),
                Pooling::Mean => {
                    let width = tokens.shape()[1];
                    let mut sum = vec![0f32; width];
                    let mut count = 0f32;
                    for (token, &m) in tokens.outer_iter().zip(attended.iter()) {
                        if m != 0 {
                            count += 1.0;
                            for (s, x) in sum.iter_mut().zip(token.iter()) {
                                *s += x;
                            }
                        }
                    }
                    let count = count.max(1e-9);
                    sum.into_iter().map(|s| s / count).collect()
                }
            })
            .collect()),
        n => Err(format!(
            "model output has rank {n}; expected batch × sequence × dim or batch × dim"
        )),
    }
}

fn l2(v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
    v.into_iter().map(|x| x / norm).collect()
}

impl super::Embedder for OnnxEmbedder {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    /// Batches of the configured size, one model call each.
    fn embed(
        &mut self,
        texts: &[&str],
        role: Role,
        on_batch: &mut dyn FnMut(usize),
    ) -> Result<Vec<Vec<f32>>> {
        let mut out = Vec::with_capacity(texts.len());
        for chunk in texts.chunks(self.options.batch_size.max(1)) {
            out.extend(self.embed_batch(chunk, role)?);
            on_batch(chunk.len());
        }
        Ok(out)
    }
}
