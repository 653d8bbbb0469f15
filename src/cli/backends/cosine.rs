//! Flags of embedding models and their stores (the cosine backend's, and the vector-scoring
//! context scorers'), and of the cosine backend's index.

use crate::backend::cosine::{CosineConfig, HnswParams, IndexKind};
use crate::cli::remote::RemoteArgs;
use crate::embed::onnx::EmbedOptions;
use crate::embed::service::ServiceOptions;
use crate::embed::source::{ModelKind, DEFAULT_MODEL};
use crate::embed::{BeliefText, QueryText};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// `--index` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum IndexArg {
    /// Score every vector (ndarray).
    Exact,
    /// HNSW graph (usearch); see --hnsw-*.
    Hnsw,
}

/// `--belief-text` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum BeliefTextArg {
    /// canonical_name + aliases (paper).
    Names,
    /// canonical_name + aliases + content + why_it_matters (PrecisionMemBench).
    NamesContent,
}

/// `--query-text` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum QueryTextArg {
    /// The prepared query (expandedQuery), as the paper's harness.
    Expanded,
    /// The raw user message, as PrecisionMemBench's adapter.
    Raw,
}

/// Embedding models and their stores: the cosine backend's, and the context scorers' that
/// score with vectors (composite, spreading).
#[derive(Debug, Args)]
#[command(next_help_heading = "Cosine (--backend cosine): models, stores, search")]
pub(crate) struct CosineArgs {
    /// Embedding model: a store name (all-minilm-l6-v2, all-minilm-l6-v2-int8, nomic-embed-text),
    /// an ONNX model folder (model.onnx + tokenizer.json), or a served model,
    /// `ollama:NAME[@URL]` (default http://localhost:11434) or `openai:NAME[@URL]`. Repeat for
    /// several. Default: all-minilm-l6-v2.
    #[arg(long)]
    pub model: Vec<String>,
    /// Belief text to embed (default: the suite profile's, spec §E).
    #[arg(long, value_enum)]
    pub belief_text: Option<BeliefTextArg>,
    /// Query text to embed (default: the suite profile's).
    #[arg(long, value_enum)]
    pub query_text: Option<QueryTextArg>,
    /// ONNX Runtime shared library (else ORT_DYLIB_PATH); only for model folders.
    #[arg(long, value_parser = crate::cli::args::ort_library)]
    pub ort_lib: Option<PathBuf>,
    /// Folder of embedding stores, the only one looked at when given [default: embeddings/,
    /// then the stores built into the binary].
    #[arg(long)]
    pub store_dir: Option<PathBuf>,
    /// The store a model folder or served model fills [default: the model's name; a served
    /// model's prefixed with its API: ollama:all-minilm:l6-v2 → ollama-all-minilm-l6-v2].
    #[arg(long)]
    pub store_name: Option<String>,
    /// Model folders: workers embedding at once, each with its own single-threaded ONNX
    /// session (vectors are the same bits whatever the count) [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: Option<u64>,
    /// Texts per model call at most (model folders; served models: texts per request).
    #[arg(long, default_value_t = 64, value_parser = crate::cli::remote::at_least_one)]
    pub batch_size: usize,
    /// Model folders: padded tokens per model call at most (texts are batched by length).
    #[arg(long, value_name = "N", default_value_t = 8192, value_parser = crate::cli::remote::at_least_one)]
    pub batch_tokens: usize,
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

/// The cosine backend's search structure.
#[derive(Debug, Args)]
#[command(next_help_heading = "Cosine (--backend cosine): models, stores, search")]
pub(crate) struct IndexArgs {
    /// Nearest-neighbour search.
    #[arg(long, value_enum, default_value = "exact")]
    pub index: IndexArg,
    /// Drop hits whose cosine similarity is below F (none by default, as Atlas). Several
    /// (`0.3,0.4,0.5`) sweep: one cosine run per floor and model.
    #[arg(long, value_delimiter = ',', value_name = "F", value_parser = crate::cli::args::cosine_f32)]
    pub cosine_floor: Vec<f32>,
}

/// The HNSW index's parameters (`--index hnsw`).
#[derive(Debug, Args)]
#[command(next_help_heading = "Cosine (--backend cosine): models, stores, search")]
pub(crate) struct HnswArgs {
    /// HNSW: neighbours per node and layer (M).
    #[arg(long, default_value_t = 16)]
    pub hnsw_m: usize,
    /// HNSW: candidate list while building.
    #[arg(long, default_value_t = 200)]
    pub hnsw_ef_construction: usize,
    /// HNSW: candidate list while searching (at least the number of candidates asked).
    #[arg(long, default_value_t = 200)]
    pub hnsw_ef_search: usize,
    /// HNSW: keep only this many principal directions of the vectors in the graph (0: all);
    /// the candidates are rescored with the full vectors.
    #[arg(long, default_value_t = 0)]
    pub hnsw_dims: usize,
    /// HNSW: ask the graph for at least this many candidates, rescored exactly (0: as many as
    /// the search needs).
    #[arg(long, default_value_t = 0)]
    pub hnsw_rerank: usize,
}

impl IndexArgs {
    /// `configs`, once per `--cosine-floor` (as they are without one).
    pub(crate) fn with_floors(&self, configs: Vec<CosineConfig>) -> Vec<CosineConfig> {
        if self.cosine_floor.is_empty() {
            return configs;
        }
        configs
            .into_iter()
            .flat_map(|c| {
                self.cosine_floor.iter().map(move |f| {
                    let mut config = c.clone();
                    config.floor = Some(*f);
                    config
                })
            })
            .collect()
    }

    /// The search structure, with `hnsw`'s parameters when it is HNSW.
    pub(crate) fn kind(&self, hnsw: &HnswArgs) -> IndexKind {
        match self.index {
            IndexArg::Exact => IndexKind::Exact,
            IndexArg::Hnsw => IndexKind::Hnsw(HnswParams {
                max_connections: hnsw.hnsw_m,
                ef_construction: hnsw.hnsw_ef_construction,
                ef_search: hnsw.hnsw_ef_search,
                dims: hnsw.hnsw_dims,
                rerank: hnsw.hnsw_rerank,
            }),
        }
    }
}

/// `--ollama-api` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OllamaApiArg {
    /// `POST /api/embed`: batched, L2-normalised.
    Embed,
    /// `POST /api/embeddings`: one text per call, not normalised.
    Legacy,
}

impl CosineArgs {
    /// The kinds of model `--model` names (the default model's when none is given).
    pub(crate) fn kinds(&self) -> Vec<ModelKind> {
        match self.model.is_empty() {
            true => vec![ModelKind::of(DEFAULT_MODEL)],
            false => self.model.iter().map(|m| ModelKind::of(m)).collect(),
        }
    }

    /// Whether one of `--model` is a served model (its calls are remote).
    pub(crate) fn serves(&self) -> bool {
        any_served(&self.kinds())
    }

    /// Refuse a flag of a kind of model that none of `--model` is (`--ort-lib` with store
    /// names only, `--api-key-env` without a served model): it would be taken and ignored.
    /// A model named twice is refused too: it ran twice and wrote one report over the other
    /// (`models` printed two rows of it and adjusted its tests for both).
    pub(crate) fn check_kinds(&self) -> crate::Result<()> {
        if let Some(model) = crate::cli::args::repeated(&self.model) {
            let at = crate::cli::given::from_config("model").map(|c| format!(" ({c})"));
            return Err(crate::Error::Usage(format!(
                "--model {model} is given twice{}: each model runs once",
                at.unwrap_or_default()
            )));
        }
        let kinds = self.kinds();
        let folder = kinds.contains(&ModelKind::Folder);
        let served = any_served(&kinds);
        let ollama = kinds.contains(&ModelKind::Served { ollama: true });
        let (dir, service, either) = (
            "a model folder (--model DIR)",
            "a served model (--model ollama:NAME or openai:NAME)",
            "a model folder or a served model",
        );
        let rules = [
            ("ort_lib", folder, dir),
            ("threads", folder, dir),
            ("batch_tokens", folder, dir),
            ("batch_size", folder || served, either),
            ("store_name", folder || served, either),
            (
                "ollama_api",
                ollama,
                "an Ollama model (--model ollama:NAME)",
            ),
            ("api_key_env", served, service),
            ("query_prefix", served, service),
            ("document_prefix", served, service),
        ];
        for (id, applies, what) in rules {
            let why = || {
                format!(
                    "--{} applies to {what}; the models chosen are {}",
                    id.replace('_', "-"),
                    self.shown_models()
                )
            };
            if !applies && crate::cli::given::given_else_noted(id, why) {
                return Err(crate::Error::Usage(format!(
                    "{}: drop the flag or choose such a model",
                    why()
                )));
            }
        }
        Ok(())
    }

    /// `--model`'s values, for messages.
    fn shown_models(&self) -> String {
        match self.model.is_empty() {
            true => format!("{DEFAULT_MODEL} (the default)"),
            false => self.model.join(", "),
        }
    }

    /// One cosine configuration per `--model` (the default model when none is given), searching
    /// with `index`.
    pub(crate) fn configs(&self, remote: &RemoteArgs, index: IndexKind) -> Vec<CosineConfig> {
        let specs = if self.model.is_empty() {
            vec![DEFAULT_MODEL.to_string()]
        } else {
            self.model.clone()
        };
        specs
            .into_iter()
            .map(|model| {
                let mut config = CosineConfig::new(model);
                config.index = index;
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
                    batch_size: self.batch_size,
                    threads: self.threads.map_or(0, |n| n as usize),
                    batch_tokens: self.batch_tokens,
                };
                config.service = ServiceOptions {
                    batch_size: self.batch_size,
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
}

/// Whether one of `kinds` is a served model.
fn any_served(kinds: &[ModelKind]) -> bool {
    kinds.iter().any(|k| matches!(k, ModelKind::Served { .. }))
}
