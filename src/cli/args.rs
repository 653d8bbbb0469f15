//! Arguments shared by several commands, and the one place clap's values become library
//! types. Nothing of clap crosses into the library.

use crate::analysis::gates::{FailOn, Gates};
use crate::cli::format::{only, OutputFormat};
use crate::suite::Suite;
use crate::Result;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

pub(crate) use crate::cli::suite::{
    input_notes, CustomSuiteArgs, DataSuiteArgs, SuiteArg, SuiteArgs, UnitArg,
};

/// Where and how results go.
#[derive(Debug, Args)]
#[command(next_help_heading = "Output")]
pub(crate) struct OutputArgs {
    /// Report folder (a sub-folder per suite is created).
    #[arg(long, default_value = "reports", value_parser = report_folder)]
    pub out: PathBuf,
    /// What to print on stdout: the summary table, or the summary block as JSON.
    #[arg(long, default_value = "table", value_parser = only(&[OutputFormat::Table, OutputFormat::Json]))]
    pub format: OutputFormat,
    /// No progress bar and no messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Rank-aware measures for each report's `rankMetrics` block, ir_measures names
    /// (P@k, R@k, nDCG, nDCG@k, RR, RR@k, AP, AP@k); `none` writes no block.
    #[arg(long, default_value = crate::eval::rank::DEFAULT_MEASURES, value_parser = measures)]
    pub metrics: Measures,
}

/// The first value of `list` given before it: a flag whose values each run once (a model, a
/// floor, a fusion, a size, a measure) ran a value given twice twice, one report written over
/// the other.
pub(crate) fn repeated<T: PartialEq>(list: &[T]) -> Option<&T> {
    (1..list.len())
        .find(|&i| list[..i].contains(&list[i]))
        .map(|i| &list[i])
}

/// `--ort-lib` value: a file that exists. A missing library named on the command line is the
/// user's to fix (exit 2); it was found only when the runtime loaded, as a backend failure
/// (exit 3, a ninth audit).
pub(crate) fn ort_library(text: &str) -> std::result::Result<std::path::PathBuf, String> {
    let path = std::path::PathBuf::from(text);
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "{text}: no such file (expected the ONNX Runtime library, libonnxruntime.so; \
             scripts/setup-models.sh prints its path)"
        ))
    }
}

/// A parsed `--metrics` list.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Measures(pub Vec<crate::eval::rank::Measure>);

/// `--metrics` value: a list of ir_measures names, or `none`.
pub(crate) fn measures(s: &str) -> std::result::Result<Measures, String> {
    if s.trim() == "none" {
        return Ok(Measures(Vec::new()));
    }
    crate::eval::rank::parse_measures(s).map(Measures)
}

/// `--fail-on` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FailOnArg {
    /// A case or turn that passes in the baseline fails now.
    NewFailures,
    /// Any failing case or turn.
    AnyFailure,
}

/// `--baseline-missing` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum BaselineMissingArg {
    /// A missing baseline file is an input error, exit 2.
    Error,
    /// A missing baseline file is skipped with a note (a first CI run).
    Ok,
}

/// CI gates: exit 1 when one fails (reports are still written).
#[derive(Debug, Args)]
#[command(next_help_heading = "CI gates")]
pub(crate) struct GateArgs {
    /// Baseline report(s) to compare with (matched by kind: static or session).
    #[arg(long)]
    pub baseline: Vec<PathBuf>,
    /// A --baseline file that does not exist: an input error (the default), or `ok` for a first
    /// CI run, whose gates that compare with a baseline are then skipped, saying so.
    #[arg(long, value_enum, value_name = "error|ok", requires = "baseline")]
    pub baseline_missing: Option<BaselineMissingArg>,
    /// Fail on new failures (needs --baseline) or on any failure.
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOnArg>,
    /// Minimum active-retrieval passes of each static report (at least 1: 0 never fails).
    #[arg(long, value_parser = at_least_one)]
    pub min_active_passes: Option<usize>,
    /// Largest allowed drop of mean precision below the baseline (needs --baseline; below 1:
    /// a precision drops by 1 at most, so 1 never fails).
    #[arg(long, value_parser = precision_drop)]
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
    pub(crate) fn gates(&self) -> Gates {
        Gates {
            fail_on: self.fail_on.map(|f| match f {
                FailOnArg::NewFailures => FailOn::NewFailures,
                FailOnArg::AnyFailure => FailOn::AnyFailure,
            }),
            min_active_passes: self.min_active_passes,
            max_precision_drop: self.max_precision_drop,
            first_run: self.baseline_missing == Some(BaselineMissingArg::Ok),
        }
    }
}

/// `--style` of `tables`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TableStyleArg {
    /// PrecisionMemBench's README tables.
    Pmb,
    /// The paper's tables (case distribution, headline comparison, noise isolation).
    Paper,
    /// Both.
    All,
}

/// `--format` of `plot`, `--plot-format` of `scale` and `flywheel`: a figure's file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FigureFormatArg {
    /// SVG, as drawn.
    Svg,
    /// PNG, at twice the SVG's size.
    Png,
    /// PDF, text kept as text, font embedded.
    Pdf,
}

/// The format a figure file is written in: the flag's value, else the file's extension, else
/// SVG; a disagreement is a usage error (`FigureFormat::resolve`).
pub(crate) fn figure_format(
    given: Option<FigureFormatArg>,
    file: &std::path::Path,
    flag: &str,
) -> Result<crate::render::FigureFormat> {
    use crate::render::FigureFormat;
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

/// A count a gate requires: 0 could never fail (a thirteenth audit found it passed in silence).
pub(crate) fn at_least_one(text: &str) -> std::result::Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        Ok(_) => Err("0 could never fail: give at least 1, or leave the gate out".into()),
        Err(e) => Err(format!("{text:?} is not a count ({e})")),
    }
}

/// A drop of mean precision a gate allows, in [0, 1): precision is in [0, 1], so a drop of 1 or
/// more could never fail.
pub(crate) fn precision_drop(text: &str) -> std::result::Result<f64, String> {
    match non_negative(text) {
        Ok(x) if x < 1.0 => Ok(x),
        Ok(_) => Err(format!(
            "{text} could never fail: a mean precision drops by 1 at most; give a drop below 1"
        )),
        Err(e) => Err(e),
    }
}

/// A folder reports are written to (`--out`): a name ending `.json` or `.jsonl` that is no
/// folder yet is refused, since `--out r.json` made a folder of that name with the reports
/// inside it, where the user looked for one file.
pub(crate) fn report_folder(text: &str) -> std::result::Result<PathBuf, String> {
    let path = PathBuf::from(text);
    let file_like = path
        .extension()
        .is_some_and(|e| e == "json" || e == "jsonl");
    if file_like && !path.is_dir() {
        return Err(format!(
            "{text:?} names a file; --out is the folder the reports go to (one per suite and \
             pass inside it)"
        ));
    }
    Ok(path)
}

/// A score threshold the backend holds as an f32 (`--min-score`, `--fusion-floor`): finite and
/// ≥ 0 once narrowed, since 1e300 became f32 infinity (every hit dropped, the run named `inf`).
pub(crate) fn non_negative_f32(text: &str) -> std::result::Result<f64, String> {
    match non_negative(text) {
        Ok(x) if (x as f32).is_finite() => Ok(x),
        Ok(_) => Err(format!(
            "{text:?} is beyond a 32-bit score (at most {:e})",
            f32::MAX
        )),
        Err(e) => Err(e),
    }
}

/// A cosine similarity, in [-1, 1] (`--cosine-floor`, `--edge-threshold`): NaN would drop
/// every hit as a floor above 1 would, each with exit 0.
pub(crate) fn cosine(text: &str) -> std::result::Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (-1.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("{text:?} is not a cosine similarity in [-1, 1]")),
    }
}

/// [`cosine`] as the f32 the search compares with.
pub(crate) fn cosine_f32(text: &str) -> std::result::Result<f32, String> {
    cosine(text).map(|x| x as f32)
}

/// A share in [0, 1] as an f32 (`flywheel --floors`, on Atlas's score (1 + cos) / 2).
pub(crate) fn unit_f32(text: &str) -> std::result::Result<f32, String> {
    match text.parse::<f32>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("{text:?} is not a number in [0, 1]")),
    }
}

/// A significance level: a number strictly between 0 and 1 (`--alpha`).
pub(crate) fn level(text: &str) -> std::result::Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x < 1.0 => Ok(x),
        _ => Err(format!("{text:?} is not a level between 0 and 1")),
    }
}

/// A path as given, the empty one included (clap's own parser refuses it).
fn any_path(s: &str) -> std::result::Result<PathBuf, String> {
    Ok(PathBuf::from(s))
}

/// Load the suite these flags name; a benchmark not read from its released files is said
/// (and recorded in every manifest, `releasedInput`).
pub(crate) fn load(args: &SuiteArgs) -> Result<Suite> {
    let suite = Suite::load(&args.source()?)?;
    if suite.released == Some(false) {
        say_not_released(&suite.label());
    }
    Ok(suite)
}

/// BEAM's `tiers` (every tier found when empty) from its `chats/` folder `data`, through
/// [`load`]: for the commands that take BEAM's folder alone (`beam`, `temporal --beam`).
pub(crate) fn load_beam(data: &std::path::Path, tiers: Vec<String>) -> Result<Suite> {
    load(&SuiteArgs {
        suite: Some(SuiteArg::Beam),
        custom: Default::default(),
        data: DataSuiteArgs {
            data: Some(data.to_path_buf()),
            tier: tiers,
            ..DataSuiteArgs::default()
        },
    })
}

/// Said by every command reading a benchmark from files that are not its release.
pub(crate) fn say_not_released(label: &str) {
    say!(
        "warning: {label}: the input is not the benchmark's released files (sha256 differ, or \
         released files are absent; `validate` says which): figures from it are not comparable \
         with published ones"
    );
}
