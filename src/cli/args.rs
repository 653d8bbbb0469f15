//! Arguments shared by several commands, and the one place clap's values become library
//! types. Nothing of clap crosses into the library.

use crate::cli::format::{only, OutputFormat};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use tenure_eval::analysis::gates::{FailOn, Gates};
use tenure_eval::suite::locomo::{LocomoSource, Unit};
use tenure_eval::suite::longmemeval::LongMemEvalSource;
use tenure_eval::suite::trec::CollectionSource;
use tenure_eval::suite::{CustomFiles, Suite, SuiteSource};
use tenure_eval::{Error, Profile, Result};

/// Which suite to load.
#[derive(Debug, Args)]
#[command(next_help_heading = "Suite")]
pub struct SuiteArgs {
    /// Built-in suite: `paper` (paper tag, 60 cases), `pmb` (PrecisionMemBench, 77 cases) or
    /// `bitemporal` (the dissertation's chapter 8, 42 cases and 3 sessions; docs/temporal.md);
    /// or a benchmark's released file named with --data: `locomo` (docs/locomo.md),
    /// `longmemeval` (docs/longmemeval.md); or a test collection (docs/qrels.md): `trec`
    /// (--corpus DOCS.jsonl --topics FILE --qrels FILE) or `beir` (--data DIR [--split]).
    #[arg(long, conflicts_with_all = ["cases", "sessions", "profile"])]
    pub suite: Option<String>,
    /// Or a custom suite.
    #[command(flatten)]
    pub custom: CustomSuiteArgs,
    /// Or a benchmark's file.
    #[command(flatten)]
    pub data: DataSuiteArgs,
}

/// A benchmark's released file as a suite (`--suite locomo --data locomo10.json`).
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Suite")]
pub struct DataSuiteArgs {
    /// The benchmark's file, downloaded by you: LoCoMo's `data/locomo10.json` (CC BY-NC 4.0;
    /// from the snap-research/LoCoMo repository), or one of LongMemEval's (longmemeval_s.json,
    /// _m, _oracle; docs/longmemeval.md).
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
    /// What one memory item is: a dialog turn, or a whole session (LoCoMo's paper evaluates
    /// both).
    #[arg(long, value_enum, default_value = "turns", requires = "data")]
    pub unit: UnitArg,
    /// `--suite beir`: the split whose qrels judge (`qrels/SPLIT.tsv`).
    #[arg(long, default_value = "test", requires = "data")]
    pub split: String,
    /// `--suite trec`: the topics (BEIR's queries.jsonl, or `QID<TAB>TEXT` lines).
    #[arg(long, value_name = "FILE", requires = "qrels")]
    pub topics: Option<PathBuf>,
    /// `--suite trec`: the qrels (TREC's `QID ITER DOCNO REL`, or BEIR's TSV).
    #[arg(long, value_name = "FILE", requires = "topics")]
    pub qrels: Option<PathBuf>,
}

/// `--unit` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum UnitArg {
    /// One dialog turn per item (`conv-26/D1:3`).
    Turns,
    /// One session per item (`conv-26/S1`).
    Sessions,
}

/// The benchmarks read from a released file (`--suite NAME --data FILE`).
const DATA_SUITES: [&str; 3] = ["locomo", "longmemeval", "beir"];

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
        let named = self.suite.as_deref();
        let unit = match self.data.unit {
            UnitArg::Turns => Unit::Turns,
            UnitArg::Sessions => Unit::Sessions,
        };
        match (named, &self.data.data) {
            (Some("locomo"), Some(data)) => {
                return Ok(SuiteSource::Locomo(LocomoSource {
                    data: data.clone(),
                    unit,
                }))
            }
            (Some("longmemeval"), Some(data)) => {
                return Ok(SuiteSource::LongMemEval(LongMemEvalSource {
                    data: data.clone(),
                    unit,
                }))
            }
            (Some("beir"), Some(dir)) => {
                return Ok(SuiteSource::Collection(CollectionSource::Beir {
                    dir: dir.clone(),
                    split: self.data.split.clone(),
                }))
            }
            (Some(name), None) if DATA_SUITES.contains(&name) => {
                return Err(Error::Usage(format!(
                    "--suite {name} reads the benchmark's released file: give it with --data \
                     FILE (LoCoMo: data/locomo10.json of the snap-research/LoCoMo repository, \
                     docs/locomo.md; LongMemEval: longmemeval_s.json, _m or _oracle, \
                     docs/longmemeval.md)"
                )))
            }
            (name, Some(_)) => {
                return Err(Error::Usage(format!(
                    "--data names a benchmark's file, for --suite {}; {}",
                    DATA_SUITES.join(" or "),
                    match name {
                        Some(n) => format!("--suite {n} reads no such file"),
                        None => "no --suite was given".into(),
                    }
                )))
            }
            _ => {}
        }
        match (named, &custom.corpus, &self.data.topics, &self.data.qrels) {
            (Some("trec"), Some(corpus), Some(topics), Some(qrels)) => {
                return Ok(SuiteSource::Collection(CollectionSource::Trec {
                    corpus: corpus.clone(),
                    topics: topics.clone(),
                    qrels: qrels.clone(),
                }))
            }
            (Some("trec"), ..) => {
                return Err(Error::Usage(
                    "--suite trec reads a test collection's files: --corpus DOCS.jsonl --topics \
                     FILE --qrels FILE (docs/qrels.md)"
                        .into(),
                ))
            }
            (_, _, Some(_), _) | (_, _, _, Some(_)) => {
                return Err(Error::Usage(
                    "--topics and --qrels are a test collection's, for --suite trec".into(),
                ))
            }
            (Some(name), Some(_), ..) => {
                return Err(Error::Usage(format!(
                    "--corpus is a custom suite's (with --cases) or --suite trec's; --suite \
                     {name} reads none"
                )))
            }
            _ => {}
        }
        match (&self.suite, &custom.corpus, &custom.cases) {
            (_, Some(corpus), Some(cases)) => Ok(SuiteSource::Custom(CustomFiles {
                corpus: corpus.clone(),
                cases: cases.clone(),
                sessions: custom.sessions.clone(),
                profile: match custom.profile {
                    Some(ProfileArg::Paper) => Profile::Paper,
                    _ => Profile::Head,
                },
            })),
            (Some(name), None, None) => Ok(SuiteSource::Builtin(name.clone())),
            (None, None, None) => Ok(SuiteSource::Builtin("pmb".to_string())),
            _ => Err(Error::Usage(
                "a custom suite needs both --corpus and --cases".into(),
            )),
        }
    }
}

/// Load the suite these flags name.
pub fn load(args: &SuiteArgs) -> Result<Suite> {
    Suite::load(&args.source()?)
}

/// What a run says once about its input before it starts (unless quiet): each input anomaly
/// and what became of it, and the questions excluded with their reasons; `validate` lists the
/// same, and the manifest records them.
pub fn input_notes(suite: &Suite) -> Vec<String> {
    let mut notes = Vec::new();
    if !suite.anomalies.is_empty() {
        notes.push(format!(
            "{}: {} input anomalies (recorded in each report's manifest):",
            suite.name,
            suite.anomalies.len()
        ));
        notes.extend(
            (suite.anomalies.iter()).map(|a| format!("  {}: {:?} {}", a.case, a.raw, a.outcome)),
        );
    }
    if !suite.excluded.is_empty() {
        notes.push(format!(
            "{}: {} questions not scored (recorded in each report's manifest):",
            suite.name,
            suite.excluded.len()
        ));
        notes.extend((suite.excluded.iter()).map(|e| format!("  {}: {}", e.case, e.reason)));
    }
    notes
}

/// Where and how results go.
#[derive(Debug, Args)]
#[command(next_help_heading = "Output")]
pub struct OutputArgs {
    /// Report folder (a sub-folder per suite is created).
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// What to print on stdout: the summary table, or the summary block as JSON.
    #[arg(long, default_value = "table", value_parser = only(&[OutputFormat::Table, OutputFormat::Json]))]
    pub format: OutputFormat,
    /// No progress bar and no messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Rank-aware measures for each report's `rankMetrics` block, ir_measures names
    /// (P@k, R@k, nDCG, nDCG@k, RR, RR@k, AP, AP@k); `none` writes no block.
    #[arg(long, default_value = tenure_eval::eval::rank::DEFAULT_MEASURES, value_parser = measures)]
    pub metrics: Measures,
}

/// A parsed `--metrics` list.
#[derive(Debug, Clone, PartialEq)]
pub struct Measures(pub Vec<tenure_eval::eval::rank::Measure>);

/// `--metrics` value: a list of ir_measures names, or `none`.
pub fn measures(s: &str) -> std::result::Result<Measures, String> {
    if s.trim() == "none" {
        return Ok(Measures(Vec::new()));
    }
    tenure_eval::eval::rank::parse_measures(s).map(Measures)
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
#[command(next_help_heading = "CI gates")]
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
    /// Write a markdown step summary (e.g. $GITHUB_STEP_SUMMARY; an empty value, as that
    /// variable outside GitHub Actions, writes none).
    #[arg(long, value_parser = any_path)]
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
#[derive(Debug, Clone, Default, Args)]
pub struct CustomSuiteArgs {
    /// Custom suite: belief corpus (beliefs.seed.json format); or `--suite trec`'s documents
    /// (JSON lines, `{"_id", "title", "text"}`).
    #[arg(long)]
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

/// `--format` of `plot`, `--plot-format` of `scale` and `flywheel`: a figure's file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FigureFormatArg {
    /// SVG, as drawn.
    Svg,
    /// PNG, at twice the SVG's size.
    Png,
    /// PDF, text kept as text, font embedded.
    Pdf,
}

/// The format a figure file is written in: the flag's value, else the file's extension, else
/// SVG; a disagreement is a usage error (`FigureFormat::resolve`).
pub fn figure_format(
    given: Option<FigureFormatArg>,
    file: &std::path::Path,
    flag: &str,
) -> Result<tenure_eval::render::FigureFormat> {
    use tenure_eval::render::FigureFormat;
    let given = given.map(|g| match g {
        FigureFormatArg::Svg => FigureFormat::Svg,
        FigureFormatArg::Png => FigureFormat::Png,
        FigureFormatArg::Pdf => FigureFormat::Pdf,
    });
    FigureFormat::resolve(given, file, flag)
}

/// A finite number ≥ 0 (`NaN` would make every comparison false, so a gate could never fail).
pub(crate) fn non_negative(text: &str) -> std::result::Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("{text:?} is not a finite number ≥ 0")),
    }
}

/// A path as given, the empty one included (clap's own parser refuses it).
fn any_path(s: &str) -> std::result::Result<PathBuf, String> {
    Ok(PathBuf::from(s))
}
