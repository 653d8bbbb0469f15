//! Command-line arguments (clap) and their conversion into library types. Nothing of clap
//! crosses into the library.

pub mod progress;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use tenure_eval::backend::cosine::{HnswParams, IndexKind};
use tenure_eval::embed::onnx::EmbedOptions;
use tenure_eval::embed::source::{ModelSource, DEFAULT_MODEL};
use tenure_eval::embed::{BeliefText, QueryText, TextPolicy};
use tenure_eval::suite::SuiteSource;
use tenure_eval::{Error, Profile};

/// Measure how precisely LLM memory systems retrieve what a user told them.
#[derive(Debug, Parser)]
#[command(name = "tenure-eval", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Static and session cases for each backend: the whole job, one combined table.
    Run(RunArgs),
    /// Run the static retrieval cases and write reports.
    Static(RunArgs),
    /// Run the multi-turn session cases (with live store mutations) and write reports.
    Session(RunArgs),
    /// Load and check a suite without running it.
    Validate(SuiteArgs),
    /// Recompute a report's aggregates from its rows and check its input hashes (exit 1 on a mismatch).
    Verify(VerifyArgs),
    /// The paper's quantitative claims next to measured values (runs the paper suite if no report is given).
    Claims(ClaimsArgs),
    /// Compare two reports of the same cases: flips, McNemar, bootstrap interval, score changes.
    Compare(CompareArgs),
    /// Export a report as a TREC run file and qrels (gold from the suite) for trec_eval / ranx.
    Trec(TrecArgs),
    /// Draw the paper's figures as SVG: Figure 2 (drift per session turn, one line per
    /// backend) from session reports, or Figure 1 (one query's BM25 score per belief beside its
    /// cosine score) with --case.
    Plot(PlotArgs),
    /// Regenerate PrecisionMemBench's tables from report files (figures recomputed from rows).
    Tables(TablesArgs),
    /// Fill an embedding store: embed every text a suite needs with an ONNX model (or import
    /// upstream vectors).
    Embed(EmbedArgs),
    /// Embedding model invariance: each --model under cosine, plus BM25 as the reference row.
    Models(ModelsArgs),
}

/// Which suite to load.
#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// Built-in suite: `paper` (paper tag, 60 cases) or `pmb` (PrecisionMemBench, 77 cases).
    #[arg(long, conflicts_with_all = ["corpus", "cases"])]
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
    pub fn source(&self) -> Result<SuiteSource, Error> {
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

/// Embedding models and vector search (the cosine backend).
#[derive(Debug, Args)]
pub struct CosineArgs {
    /// Embedding model: a store name (all-minilm-l6-v2, all-minilm-l6-v2-int8, nomic-embed-text)
    /// or an ONNX model folder (model.onnx + tokenizer.json). Repeat for several. Default:
    /// all-minilm-l6-v2.
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
}

impl CosineArgs {
    /// The text policy: the profile's, with the overrides applied.
    pub fn policy(&self, profile: Profile) -> TextPolicy {
        let mut policy = TextPolicy::of(profile);
        if let Some(b) = self.belief_text {
            policy.belief = match b {
                BeliefTextArg::Names => BeliefText::Names,
                BeliefTextArg::NamesContent => BeliefText::NamesContent,
            };
        }
        if let Some(q) = self.query_text {
            policy.query = match q {
                QueryTextArg::Expanded => QueryText::Expanded,
                QueryTextArg::Raw => QueryText::Raw,
            };
        }
        policy
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

    /// One source per `--model` (the default model when none is given).
    pub fn sources(&self) -> Vec<ModelSource> {
        let specs = if self.model.is_empty() {
            vec![DEFAULT_MODEL.to_string()]
        } else {
            self.model.clone()
        };
        specs
            .into_iter()
            .map(|spec| ModelSource {
                spec,
                store_dir: self.store_dir.clone(),
                ort_lib: self.ort_lib.clone(),
                options: EmbedOptions {
                    batch_size: self.batch_size.max(1),
                    threads: self.threads.max(1),
                },
            })
            .collect()
    }
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

/// `tenure-eval run|static|session`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Suite selection.
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Retrieval backends, comma-separated (default: bm25, or cosine when --model is given).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub backend: Vec<BackendArg>,
    /// Cosine backend settings.
    #[command(flatten)]
    pub cosine: CosineArgs,
    /// Output.
    #[command(flatten)]
    pub output: OutputArgs,
    /// CI gates.
    #[command(flatten)]
    pub gates: GateArgs,
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
    #[arg(long)]
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
    pub fn gates(&self) -> tenure_eval::report::gates::Gates {
        use tenure_eval::report::gates::{FailOn, Gates};
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

impl RunArgs {
    /// Chosen backends, in order, without repeats.
    pub fn backend_args(&self) -> Vec<BackendArg> {
        let mut chosen: Vec<BackendArg> = Vec::new();
        if self.backend.is_empty() {
            chosen.push(if self.cosine.model.is_empty() {
                BackendArg::Bm25
            } else {
                BackendArg::Cosine
            });
        }
        for b in &self.backend {
            if !chosen.contains(b) {
                chosen.push(*b);
            }
        }
        chosen
    }
}

/// `tenure-eval embed`.
#[derive(Debug, Args)]
pub struct EmbedArgs {
    /// Suites to embed for: built-in names (default: paper and pmb, each under its own policy).
    #[arg(long)]
    pub suite: Vec<String>,
    /// Custom suite instead.
    #[command(flatten)]
    pub custom: CustomSuiteArgs,
    /// Model and policy.
    #[command(flatten)]
    pub cosine: CosineArgs,
    /// Import the `embedding` arrays of an upstream beliefs.seed.embedded.json instead of running
    /// a model (store named by --model, keyed under the suite's belief text).
    #[arg(long)]
    pub import_upstream: Option<PathBuf>,
    /// Recompute every vector the suites need instead of only the missing ones (and drop
    /// vectors they no longer need).
    #[arg(long)]
    pub refresh: bool,
    /// With --import-upstream: where the vectors came from.
    #[arg(
        long,
        default_value = "imported from an upstream beliefs.seed.embedded.json"
    )]
    pub source: String,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
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

/// `tenure-eval models`.
#[derive(Debug, Args)]
pub struct ModelsArgs {
    /// Suite selection.
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Models (and search settings).
    #[command(flatten)]
    pub cosine: CosineArgs,
    /// Report folder.
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: CompareFormatArg,
    /// No progress bar and no messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,
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

/// `tenure-eval tables`.
#[derive(Debug, Args)]
pub struct TablesArgs {
    /// Report files (static and session, any provider).
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: TableFormatArg,
    /// Which tables: PrecisionMemBench's README tables, the paper's, or both.
    #[arg(long, value_enum, default_value = "pmb")]
    pub style: TableStyleArg,
    /// No warnings on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `tenure-eval verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Report files.
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
}

/// `tenure-eval compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The baseline report.
    pub base: PathBuf,
    /// The new report.
    pub new: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: CompareFormatArg,
    /// Seed of the paired bootstrap.
    #[arg(long, default_value_t = 20_260_511)]
    pub seed: u64,
}

/// `--format` of `compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareFormatArg {
    /// Markdown.
    Markdown,
    /// JSON.
    Json,
}

/// `tenure-eval claims`.
#[derive(Debug, Args)]
pub struct ClaimsArgs {
    /// Reports of the `paper` suite (BM25 and cosine, static and session). None: run BM25 now.
    pub reports: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: TableFormatArg,
}

/// `tenure-eval trec`.
#[derive(Debug, Args)]
pub struct TrecArgs {
    /// The report to export.
    pub report: PathBuf,
    /// The suite whose cases hold the gold sets.
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Folder for `<report>.run` and `<report>.qrels` (default: beside the report).
    #[arg(long)]
    pub out: Option<PathBuf>,
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

/// `tenure-eval plot`.
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// Figure 2: session reports, one line each. Figure 1 (--case): a BM25 static report, then a
    /// cosine static report.
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
    /// Figure 1 for this static case: each belief's score in the first report above its score
    /// in the second.
    #[arg(long)]
    pub case: Option<String>,
    /// The SVG file to write.
    #[arg(long)]
    pub out: PathBuf,
}
