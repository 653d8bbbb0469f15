//! `tenure-eval trec`: a report as a TREC run file, with qrels from the suite.

use crate::cli::args::{load, SuiteArgs};
use crate::render::trec::{qrels_file, run_file};
use crate::report::write_atomic;
use crate::report::LoadedReport;
use crate::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval trec`.
#[derive(Debug, Args)]
pub(crate) struct TrecArgs {
    /// The report to export.
    pub report: PathBuf,
    /// The suite whose cases hold the gold sets.
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Folder for `<report>.run` and `<report>.qrels` (default: beside the report).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Export a report.
pub(crate) fn run(args: TrecArgs) -> Result<ExitCode> {
    // A file where the folder should be failed as a write (exit 3) after the work.
    if let Some(out) = args.out.as_deref().filter(|o| o.exists() && !o.is_dir()) {
        return Err(crate::Error::Usage(format!(
            "--out {}: a file; expected the folder for the run and its qrels",
            out.display()
        )));
    }
    let suite = load(&args.suite)?;
    let report = LoadedReport::load(&args.report)?;
    // A shard's, a selection's or a stopped run's report, or one of a run on other files,
    // would be exported as the suite's whole run.
    report.whole_run_on(&suite)?;
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| args.report.parent().map(PathBuf::from).unwrap_or_default());
    let stem = args
        .report
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "report".into());
    let run_path = dir.join(format!("{stem}.run"));
    let qrels_path = dir.join(format!("{stem}.qrels"));
    // Both files are made before either is written: no run file without its qrels.
    let run = run_file(&report, &report.provider)?;
    // A system that answered nothing is a measured result (ir_measures scores such a run 0 on
    // every query; PrecisionMemBench publishes one), so the empty run is written, and said:
    // an empty file reads as a mistake, and `--trec-run` refuses one.
    if run.is_empty() {
        say!(
            "warning: {} ranks nothing for any of its {} queries: the run file is empty \
             (0 on every measure; `--trec-run` refuses an empty run)",
            args.report.display(),
            report.rows.len()
        );
    }
    let qrels = qrels_file(&report, &suite)?;
    // No run file without its qrels: a run written before its qrels failed stayed alone (an
    // eleventh audit), so a folder in either's place is refused first, and a run written
    // before the qrels failed is taken back.
    if let Some(taken) = [&run_path, &qrels_path].into_iter().find(|p| p.is_dir()) {
        return Err(crate::Error::Usage(format!(
            "{}: a folder is there; the export writes a file of that name",
            taken.display()
        )));
    }
    write_atomic(&run_path, run.as_bytes())?;
    if let Err(e) = write_atomic(&qrels_path, qrels.as_bytes()) {
        let _ = std::fs::remove_file(&run_path);
        return Err(e);
    }
    say!(
        "wrote {}\nwrote {}",
        run_path.display(),
        qrels_path.display()
    );
    Ok(ExitCode::SUCCESS)
}
