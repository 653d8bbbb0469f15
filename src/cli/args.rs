//! Arguments shared by several commands, and the one place clap's values become library
//! types. Nothing of clap crosses into the library.

pub use super::remote::{HttpArgs, RemoteArgs};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use tenure_eval::backend::bm25::Bm25Config;
use tenure_eval::backend::cosine::{CosineConfig, HnswParams, IndexKind};
use tenure_eval::backend::BackendConfig;
use tenure_eval::embed::onnx::EmbedOptions;
use tenure_eval::embed::service::ServiceOptions;
use tenure_eval::embed::source::DEFAULT_MODEL;
use tenure_eval::embed::{BeliefText, QueryText};
use tenure_eval::report::gates::{FailOn, Gates};
use tenure_eval::suite::{Suite, SuiteSource};
use tenure_eval::{Error, Profile, Result};

/// Which suite to load.
#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// Built-in suite: `paper` (paper tag, 60 cases) or `pmb` (PrecisionMemBench, 77 cases).
    #[arg(long, conflicts_with_all = ["corpus", "cases", "sessions", "profile"])]
    pub suite: Option<String>,
    /// Or a custom suite.
    #[command(flatten)]
    pub custom: CustomSuiteArgs,
}

/// `--profile` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ProfileArg {
    /// Paper-tag behaviour.
    Paper,
    /// HEAD behaviour (PrecisionMemBench).
    Head,
}

impl SuiteArgs {
    /// The suite source these flags name (default: the built-in `pmb`).
    pub fn source(&self) -> Result<SuiteSource> {
        let custom = &self.custom;
        match (&self.suite, &custom.corpus, &custom.cases) {
            (_, Some(corpus), Some(cases)) => Ok(SuiteSource::Custom {
                corpus: corpus.clone(),
                cases: cases.clone(),
                sessions: custom.sessions.clone(),
                profile: match custom.profile {
                    Some(ProfileArg::Paper) => Profile::Paper,
                    _ => Profile::Head,
                },
            }),
            (Some(name), None, None) => Ok(SuiteSource::Builtin(name.clone())),
            (None, None, None) => Ok(SuiteSource::Builtin("pmb".to_string())),
            _ => Err(Error::Usage(
                "a custom suite needs both --corpus and --cases".into(),
            )),
        }
    }
}

/// `--backend` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BackendArg {
    /// Alias-weighted BM25 (tantivy, Lucene scoring).
    Bm25,
    /// Cosine similarity over dense embeddings (see --model).
    Cosine,
    /// A memory system behind PrecisionMemBench's HTTP contract (see --url, --provider).
    Http,
}

impl BackendArg {
    /// The backend's id.
    pub fn name(self) -> &'static str {
        match self {
            BackendArg::Bm25 => "bm25",
            BackendArg::Cosine => "cosine",
            BackendArg::Http => "http",
        }
    }
}

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
pub struct Bm25Args {
    /// BM25: hits scoring below this are dropped (Tenure's eval uses 3; recorded in the
    /// manifest when changed). A tiny corpus may need less: its terms' IDF is low.
    #[arg(long, value_parser = non_negative)]
    pub min_score: Option<f64>,
}

/// Embedding models and vector search (the cosine backend).
#[derive(Debug, Args)]
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
    /// Folder of embedding stores; built-in stores are used for names not found there.
    #[arg(long, default_value = "embeddings")]
    pub store_dir: PathBuf,
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
    remote: &RemoteArgs,
    http: &HttpArgs,
) -> Result<Vec<BackendConfig>> {
    let mut configs = Vec::new();
    for b in chosen {
        match b {
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
        }
    }
    Ok(configs)
}

/// Load the suite these flags name.
pub fn load(args: &SuiteArgs) -> Result<Suite> {
    Suite::load(&args.source()?)
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Markdown summary table.
    Table,
    /// Summary block as JSON.
    Json,
}

/// Where and how results go.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Report folder (a sub-folder per suite is created).
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// What to print on stdout.
    #[arg(long, value_enum, default_value = "table")]
    pub format: FormatArg,
    /// No progress bar and no messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--fail-on` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOnArg {
    /// A case or turn that passes in the baseline fails now.
    NewFailures,
    /// Any failing case or turn.
    AnyFailure,
}

/// CI gates: exit 1 when one fails (reports are still written).
#[derive(Debug, Args)]
pub struct GateArgs {
    /// Baseline report(s) to compare with (matched by kind: static or session).
    #[arg(long)]
    pub baseline: Vec<PathBuf>,
    /// Fail on new failures (needs --baseline) or on any failure.
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOnArg>,
    /// Minimum active-retrieval passes of each static report.
    #[arg(long)]
    pub min_active_passes: Option<usize>,
    /// Largest allowed drop of mean precision below the baseline (needs --baseline).
    #[arg(long, value_parser = non_negative)]
    pub max_precision_drop: Option<f64>,
    /// Write a JUnit XML file: one test case per case or turn, plus one per gate.
    #[arg(long)]
    pub junit: Option<PathBuf>,
    /// Write a markdown step summary (e.g. $GITHUB_STEP_SUMMARY).
    #[arg(long)]
    pub summary_md: Option<PathBuf>,
}

impl GateArgs {
    /// The library's gate settings.
    pub fn gates(&self) -> Gates {
        Gates {
            fail_on: self.fail_on.map(|f| match f {
                FailOnArg::NewFailures => FailOn::NewFailures,
                FailOnArg::AnyFailure => FailOn::AnyFailure,
            }),
            min_active_passes: self.min_active_passes,
            max_precision_drop: self.max_precision_drop,
        }
    }
}

/// A custom suite.
#[derive(Debug, Args)]
pub struct CustomSuiteArgs {
    /// Custom suite: belief corpus (beliefs.seed.json format).
    #[arg(long, requires = "cases")]
    pub corpus: Option<PathBuf>,
    /// Custom suite: static cases (retrieval.cases.json format).
    #[arg(long, requires = "corpus")]
    pub cases: Option<PathBuf>,
    /// Custom suite: session cases (session-retrieval.cases.json format).
    #[arg(long, requires = "corpus")]
    pub sessions: Option<PathBuf>,
    /// Custom suite: which upstream pipeline to reproduce.
    #[arg(long, value_enum, requires = "corpus")]
    pub profile: Option<ProfileArg>,
}

/// `--format` of `tables`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormatArg {
    /// GitHub markdown.
    Markdown,
    /// CSV.
    Csv,
    /// LaTeX tabular.
    Latex,
    /// JSON.
    Json,
}

/// `--format` of `compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareFormatArg {
    /// Markdown.
    Markdown,
    /// JSON.
    Json,
}

/// `--style` of `tables`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableStyleArg {
    /// PrecisionMemBench's README tables.
    Pmb,
    /// The paper's tables (case distribution, headline comparison, noise isolation).
    Paper,
    /// Both.
    All,
}

impl From<TableFormatArg> for tenure_eval::report::tables::TableFormat {
    fn from(format: TableFormatArg) -> Self {
        use tenure_eval::report::tables::TableFormat;
        match format {
            TableFormatArg::Markdown => TableFormat::Markdown,
            TableFormatArg::Csv => TableFormat::Csv,
            TableFormatArg::Latex => TableFormat::Latex,
            TableFormatArg::Json => TableFormat::Json,
        }
    }
}

/// A finite number ≥ 0 (`NaN` would make every comparison false, so a gate could never fail).
fn non_negative(text: &str) -> std::result::Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("{text:?} is not a finite number ≥ 0")),
    }
}
