//! Flags of the built-in backends (BM25, cosine and its embedding models) and the one place
//! they, with the memory system's, become [`BackendConfig`]s.

use super::args::{non_negative, BackendArg};
use super::remote::{HttpArgs, RemoteArgs};
use super::scorers::ScorerArgs;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use tenure_eval::backend::bm25::Bm25Config;
use tenure_eval::backend::cosine::{CosineConfig, HnswParams, IndexKind};
use tenure_eval::backend::fusion::{FusionConfig, Method};
use tenure_eval::backend::BackendConfig;
use tenure_eval::embed::onnx::EmbedOptions;
use tenure_eval::embed::service::ServiceOptions;
use tenure_eval::embed::source::DEFAULT_MODEL;
use tenure_eval::embed::{BeliefText, QueryText};
use tenure_eval::{Error, Result};

/// `--index` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IndexArg {
    /// Score every vector (ndarray).
    Exact,
    /// HNSW graph (hnsw_rs); see --hnsw-*.
    Hnsw,
}

/// `--belief-text` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BeliefTextArg {
    /// canonical_name + aliases (paper).
    Names,
    /// canonical_name + aliases + content + why_it_matters (PrecisionMemBench).
    NamesContent,
}

/// `--query-text` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum QueryTextArg {
    /// The prepared query (expandedQuery), as the paper's harness.
    Expanded,
    /// The raw user message, as PrecisionMemBench's adapter.
    Raw,
}

/// The alias-BM25 backend's settings.
#[derive(Debug, Args)]
#[command(next_help_heading = "BM25 (--backend bm25)")]
pub struct Bm25Args {
    /// BM25: hits scoring below this are dropped (Tenure's eval uses 3; recorded in the
    /// manifest when changed). A tiny corpus may need less: its terms' IDF is low.
    #[arg(long, value_parser = non_negative)]
    pub min_score: Option<f64>,
}

/// Embedding models and vector search (the cosine backend).
#[derive(Debug, Args)]
#[command(next_help_heading = "Cosine (--backend cosine): models, stores, search")]
pub struct CosineArgs {
    /// Embedding model: a store name (all-minilm-l6-v2, all-minilm-l6-v2-int8, nomic-embed-text),
    /// an ONNX model folder (model.onnx + tokenizer.json), or a served model,
    /// `ollama:NAME[@URL]` (default http://localhost:11434) or `openai:NAME[@URL]`. Repeat for
    /// several. Default: all-minilm-l6-v2.
    #[arg(long)]
    pub model: Vec<String>,
    /// Nearest-neighbour search.
    #[arg(long, value_enum, default_value = "exact")]
    pub index: IndexArg,
    /// HNSW: neighbours per node and layer (M).
    #[arg(long, default_value_t = 16)]
    pub hnsw_m: usize,
    /// HNSW: candidate list while building.
    #[arg(long, default_value_t = 200)]
    pub hnsw_ef_construction: usize,
    /// HNSW: candidate list while searching (at least the number of candidates asked).
    #[arg(long, default_value_t = 200)]
    pub hnsw_ef_search: usize,
    /// Belief text to embed (default: the suite profile's, spec §E).
    #[arg(long, value_enum)]
    pub belief_text: Option<BeliefTextArg>,
    /// Query text to embed (default: the suite profile's).
    #[arg(long, value_enum)]
    pub query_text: Option<QueryTextArg>,
    /// ONNX Runtime shared library (else ORT_DYLIB_PATH); only for model folders.
    #[arg(long)]
    pub ort_lib: Option<PathBuf>,
    /// Folder of embedding stores, the only one looked at when given [default: embeddings/,
    /// then the stores built into the binary].
    #[arg(long)]
    pub store_dir: Option<PathBuf>,
    /// The store a model folder or served model fills [default: the model's name; a served
    /// model's prefixed with its API: ollama:all-minilm:l6-v2 → ollama-all-minilm-l6-v2].
    #[arg(long)]
    pub store_name: Option<String>,
    /// ONNX Runtime intra-op threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Texts per model call.
    #[arg(long, default_value_t = 32)]
    pub batch_size: usize,
    /// Served models: Ollama's API, `embed` (/api/embed) or `legacy` (/api/embeddings, one text
    /// per call, not normalised: what the paper and PrecisionMemBench used).
    #[arg(long, value_enum, default_value = "embed")]
    pub ollama_api: OllamaApiArg,
    /// Served models: the environment variable holding the API key (OpenAI: OPENAI_API_KEY).
    #[arg(long)]
    pub api_key_env: Option<String>,
    /// Served models: prepended to every query text (none by default, as upstream).
    #[arg(long, default_value = "")]
    pub query_prefix: String,
    /// Served models: prepended to every belief text (none by default, as upstream).
    #[arg(long, default_value = "")]
    pub document_prefix: String,
}

/// Fusion backends' settings (`--backend rrf|combsum|fallback`).
#[derive(Debug, Args)]
#[command(next_help_heading = "Fusion (--backend rrf|combsum|fallback)")]
pub struct FusionArgs {
    /// The backends a fusion fuses, in order.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "bm25,cosine")]
    pub fuse: Vec<BackendArg>,
    /// RRF's constant k.
    #[arg(long, default_value_t = 60.0, value_parser = non_negative)]
    pub rrf_k: f64,
    /// CombSUM's weight per fused backend (1 each by default).
    #[arg(long, value_delimiter = ',', value_parser = non_negative)]
    pub combsum_weights: Vec<f64>,
    /// How deep the fused backends search: one number for all, or one per `--fuse` backend
    /// (`100,3`: BM25's top 100 and cosine's top 3 are fused).
    #[arg(long, value_delimiter = ',', default_value = "100")]
    pub fusion_depth: Vec<usize>,
    /// Per `--fuse` backend, the lowest score fused (`0,0.6`: a cosine similarity floor of 0.6);
    /// none by default.
    #[arg(long, value_delimiter = ',', value_parser = non_negative)]
    pub fusion_floor: Vec<f64>,
}

impl FusionArgs {
    /// The fusion method `b` names, with these settings (`None`: not a fusion).
    pub fn method(&self, b: BackendArg) -> Option<Method> {
        match b {
            BackendArg::Rrf => Some(Method::Rrf { k: self.rrf_k }),
            BackendArg::Combsum => Some(Method::CombSum {
                weights: self.combsum_weights.clone(),
            }),
            BackendArg::Fallback => Some(Method::Fallback),
            _ => None,
        }
    }

    /// BM25 fused with `other` by `method`.
    pub fn with_bm25(&self, method: Method, other: BackendConfig) -> BackendConfig {
        self.config(method, vec![BackendConfig::bm25(), other])
    }

    /// `children` fused by `method` with these depths and floors.
    pub fn config(&self, method: Method, children: Vec<BackendConfig>) -> BackendConfig {
        let depths: Vec<usize> = self.fusion_depth.iter().map(|d| (*d).max(1)).collect();
        BackendConfig::Fusion(Box::new(FusionConfig {
            method,
            children,
            depth: depths.iter().copied().max().unwrap_or(100),
            child_depths: if depths.len() > 1 { depths } else { Vec::new() },
            floors: self.fusion_floor.iter().map(|f| *f as f32).collect(),
        }))
    }
}

/// `--ollama-api` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OllamaApiArg {
    /// `POST /api/embed`: batched, L2-normalised.
    Embed,
    /// `POST /api/embeddings`: one text per call, not normalised.
    Legacy,
}

impl CosineArgs {
    /// One cosine configuration per `--model` (the default model when none is given).
    pub fn configs(&self, remote: &RemoteArgs) -> Vec<CosineConfig> {
        let specs = if self.model.is_empty() {
            vec![DEFAULT_MODEL.to_string()]
        } else {
            self.model.clone()
        };
        specs
            .into_iter()
            .map(|model| {
                let mut config = CosineConfig::new(model);
                config.index = self.index();
                config.belief_text = self.belief_text.map(|b| match b {
                    BeliefTextArg::Names => BeliefText::Names,
                    BeliefTextArg::NamesContent => BeliefText::NamesContent,
                });
                config.query_text = self.query_text.map(|q| match q {
                    QueryTextArg::Expanded => QueryText::Expanded,
                    QueryTextArg::Raw => QueryText::Raw,
                });
                config.store_dir = self.store_dir.clone();
                config.store_name = self.store_name.clone();
                config.ort_lib = self.ort_lib.clone();
                config.embed = EmbedOptions {
                    batch_size: self.batch_size.max(1),
                    threads: self.threads.max(1),
                };
                config.service = ServiceOptions {
                    batch_size: self.batch_size.max(1),
                    concurrency: remote.concurrency.max(1),
                    timeout_secs: remote.timeout.unwrap_or(120).max(1),
                    retries: remote.retries,
                    query_prefix: self.query_prefix.clone(),
                    document_prefix: self.document_prefix.clone(),
                    api_key_env: self.api_key_env.clone(),
                };
                config.ollama_legacy = self.ollama_api == OllamaApiArg::Legacy;
                config
            })
            .collect()
    }

    /// The search structure.
    pub fn index(&self) -> IndexKind {
        match self.index {
            IndexArg::Exact => IndexKind::Exact,
            IndexArg::Hnsw => IndexKind::Hnsw(HnswParams {
                max_connections: self.hnsw_m,
                ef_construction: self.hnsw_ef_construction,
                ef_search: self.hnsw_ef_search,
                ..HnswParams::default()
            }),
        }
    }
}

/// The backends `chosen`, in order: BM25, cosine once per model, the memory system.
pub fn backend_configs(
    chosen: &[BackendArg],
    bm25: &Bm25Args,
    cosine: &CosineArgs,
    fusion: &FusionArgs,
    remote: &RemoteArgs,
    http: &HttpArgs,
    scorer: &ScorerArgs,
) -> Result<Vec<BackendConfig>> {
    let mut configs = Vec::new();
    for b in chosen {
        if let Some(method) = fusion.method(*b) {
            if fusion.fuse.len() < 2
                || fusion.fuse.iter().any(|f| {
                    matches!(
                        f,
                        BackendArg::Rrf | BackendArg::Combsum | BackendArg::Fallback
                    )
                })
            {
                return Err(Error::Usage(
                    "--fuse names two or more of bm25, cosine, http (not another fusion)".into(),
                ));
            }
            // One configuration per fused backend: the first cosine model, if several.
            let mut children = Vec::new();
            for f in &fusion.fuse {
                let mut one = backend_configs(&[*f], bm25, cosine, fusion, remote, http, scorer)?;
                children.push(one.remove(0));
            }
            for (what, n, one_for_all) in [
                ("--fusion-depth", fusion.fusion_depth.len(), 1),
                ("--fusion-floor", fusion.fusion_floor.len(), 0),
            ] {
                if n > one_for_all && n != children.len() {
                    return Err(Error::Usage(format!(
                        "{what} gives {n} values for {} fused backends; expected one per \
                         --fuse backend",
                        children.len()
                    )));
                }
            }
            configs.push(fusion.config(method, children));
            continue;
        }
        match b {
            BackendArg::Rrf | BackendArg::Combsum | BackendArg::Fallback => {}
            BackendArg::Bm25 => configs.push(match bm25.min_score {
                Some(min) => BackendConfig::Bm25(Bm25Config {
                    min_score: min as f32,
                    ..Bm25Config::default()
                }),
                None => BackendConfig::bm25(),
            }),
            BackendArg::Cosine => configs.extend(
                cosine
                    .configs(remote)
                    .into_iter()
                    .map(BackendConfig::cosine),
            ),
            BackendArg::Http => configs.push(BackendConfig::Http(Box::new(http.config(remote)?))),
            BackendArg::Composite => configs.extend(scorer.composite(cosine, remote)?),
            BackendArg::Spreading => configs.extend(scorer.spreading(cosine, remote)?),
            BackendArg::Recent => configs.push(scorer.recent()),
        }
    }
    Ok(configs)
}
