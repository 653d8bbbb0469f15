//! Command-line arguments (clap) and their conversion into library types. Nothing of clap
//! crosses into the library.

pub mod progress;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use tenure_eval::backend::BackendKind;
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
    /// Draw the paper's Figure 2 (drift per session turn, one line per backend) as SVG.
    Plot(PlotArgs),
    /// Regenerate PrecisionMemBench's tables from report files (figures recomputed from rows).
    Tables(TablesArgs),
}

/// Which suite to load.
#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// Built-in suite: `paper` (paper tag, 60 cases) or `pmb` (PrecisionMemBench, 77 cases).
    #[arg(long, conflicts_with_all = ["corpus", "cases"])]
    pub suite: Option<String>,
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
        match (&self.suite, &self.corpus, &self.cases) {
            (_, Some(corpus), Some(cases)) => Ok(SuiteSource::Custom {
                corpus: corpus.clone(),
                cases: cases.clone(),
                sessions: self.sessions.clone(),
                profile: match self.profile {
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
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum BackendArg {
    /// Alias-weighted BM25 (tantivy, Lucene scoring).
    Bm25,
}

impl From<BackendArg> for BackendKind {
    fn from(b: BackendArg) -> BackendKind {
        match b {
            BackendArg::Bm25 => BackendKind::Bm25,
        }
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
    /// Retrieval backends, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "bm25")]
    pub backend: Vec<BackendArg>,
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
    pub fn backends(&self) -> Vec<BackendKind> {
        let mut kinds: Vec<BackendKind> = Vec::new();
        for b in &self.backend {
            let kind = BackendKind::from(*b);
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        kinds
    }
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
    /// Session reports, one line each.
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
    /// The SVG file to write.
    #[arg(long)]
    pub out: PathBuf,
}
