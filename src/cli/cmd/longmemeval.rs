//! `tenure-eval longmemeval`: LongMemEval's retrieval metrics from the reports of runs on it,
//! per question type, at session level and (for turn runs) turn level (docs/longmemeval.md).

use crate::cli::args::{load, DataSuiteArgs, SuiteArg, SuiteArgs, UnitArg};
use crate::cli::format::{only, OutputFormat, TABLES};
use crate::cli::{json_text, load_reports, write_stdout};
use crate::render::render;
use crate::study::longmemeval::{measure, table};
use crate::{Error, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval longmemeval`.
#[derive(Debug, Args)]
pub(crate) struct LongMemEvalArgs {
    /// Reports of runs on `--suite longmemeval` (turns or sessions, one unit per call).
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
    /// The LongMemEval file the runs read (each question's haystack and gold).
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// Output format: the table as markdown, CSV or LaTeX; JSON is every figure unrounded.
    #[arg(long, default_value = "markdown", value_parser = only(TABLES))]
    pub format: OutputFormat,
    /// No warnings on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The table.
pub(crate) fn run(args: LongMemEvalArgs) -> Result<ExitCode> {
    let reports = load_reports(&args.reports, args.quiet)?;
    // The unit the runs used, from their manifests: one per call.
    let suites: std::collections::BTreeSet<&str> =
        reports.iter().map(|r| r.suite().unwrap_or("")).collect();
    let unit = match suites.into_iter().collect::<Vec<_>>()[..] {
        ["longmemeval"] => UnitArg::Turns,
        ["longmemeval-sessions"] => UnitArg::Sessions,
        ref other => {
            return Err(Error::Usage(format!(
                "expected reports of runs on --suite longmemeval, all turns or all sessions; \
                 got suites {other:?}"
            )))
        }
    };
    let suite = load(&SuiteArgs {
        suite: Some(SuiteArg::Longmemeval),
        custom: Default::default(),
        data: DataSuiteArgs {
            data: Some(args.data.clone()),
            unit: Some(unit),
            ..DataSuiteArgs::default()
        },
    })?;
    let results = measure(&reports, &suite)?;
    let text = match args.format {
        OutputFormat::Json => json_text(&results),
        other => render(&[table(&results)], other.table()),
    };
    write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
