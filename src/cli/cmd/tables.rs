//! `tenure-eval tables`: PrecisionMemBench's and the paper's tables from report files.

use crate::cli::args::{SuiteArgs, TableStyleArg};
use crate::cli::format::{only, OutputFormat, TABLES};
use crate::cli::{load_reports, write_stdout};
use crate::report::LoadedReport;
use crate::{Error, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval tables`.
#[derive(Debug, Args)]
pub(crate) struct TablesArgs {
    /// Report files (static and session, any provider).
    pub reports: Vec<PathBuf>,
    /// A TREC run made elsewhere (`qid Q0 docno rank score run_name`; repeatable), scored on
    /// --suite's gold: a row of the rank-measure table (it has no pass/fail for the others).
    #[arg(long, value_name = "FILE")]
    pub trec_run: Vec<PathBuf>,
    /// The suite whose gold scores each --trec-run (only with --trec-run).
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Output format.
    #[arg(long, default_value = "markdown", value_parser = only(TABLES))]
    pub format: OutputFormat,
    /// Which tables: PrecisionMemBench's README tables, the paper's, or both.
    #[arg(long, value_enum, default_value = "pmb")]
    pub style: TableStyleArg,
    /// No warnings on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Only this table: its LaTeX label without `tab:` (the title's words joined by `-`, as
    /// `--format latex` labels it) or its 1-based place; one table per file for a paper.
    #[arg(long, value_name = "NAME")]
    pub table: Option<String>,
}

/// Tables from report files.
pub(crate) fn run(args: TablesArgs) -> Result<ExitCode> {
    args.suite.check_flags()?;
    use crate::render::render;
    use crate::render::tables::{paper_tables, pmb_tables};
    if args.reports.is_empty() && args.trec_run.is_empty() {
        return Err(Error::Usage(
            "tables needs report files, or TREC runs with --trec-run".into(),
        ));
    }
    let reports = load_reports(&args.reports, args.quiet)?;
    for report in &reports {
        report.finished()?;
    }
    let runs = trec_runs(&args, &reports)?;
    // The TREC runs are of the suite named: a report of another suite beside them is said too.
    crate::cli::mixed::warn(reports.iter().chain(&runs));
    let mut tables = match args.style {
        TableStyleArg::Pmb => pmb_tables(&reports),
        TableStyleArg::Paper => paper_tables(&reports),
        TableStyleArg::All => [pmb_tables(&reports), paper_tables(&reports)].concat(),
    };
    // tenure-eval's reports carry rank metrics; upstream's tables have no place for them. On a
    // suite judged by qrels (LoCoMo, BEAM, a test collection) they are its measures: first.
    let mut all = reports;
    all.extend(runs);
    let rank = crate::render::tables::rank_table(&all);
    if all.iter().all(LoadedReport::judged_by_qrels) {
        tables.splice(0..0, rank);
    } else {
        tables.extend(rank);
    }
    if let Some(name) = &args.table {
        tables = vec![pick(tables, name)?];
    }
    write_stdout(&render(&tables, args.format.table()))?;
    Ok(ExitCode::SUCCESS)
}

/// The `--trec-run` files, scored on the measures of the reports' rank blocks (else
/// ir_measures' defaults of `compare`); `--suite` without one is refused, having nothing to do.
fn trec_runs(args: &TablesArgs, reports: &[LoadedReport]) -> Result<Vec<LoadedReport>> {
    let s = &args.suite;
    let refused = match (s.named(), args.trec_run.is_empty()) {
        (false, true) => return Ok(Vec::new()),
        (true, false) => None,
        (false, false) => Some("--trec-run: name the suite whose gold scores it with --suite"),
        (true, true) => {
            Some("--suite applies with --trec-run: the reports' tables are read from their rows")
        }
    };
    if let Some(message) = refused {
        return Err(Error::Usage(message.into()));
    }
    let names = crate::render::tables::block_measures(reports);
    let list = if names.is_empty() {
        crate::eval::rank::DEFAULT_MEASURES.to_string()
    } else {
        names.join(",")
    };
    let measures = crate::eval::rank::parse_measures(&list)
        .map_err(|e| Error::Usage(format!("the reports' rank measures: {e}")))?;
    crate::cli::load_trec_runs(&args.trec_run, &crate::cli::args::load(s)?, &measures)
}

/// The table `name` names: its label, or its 1-based place. Unknown: a usage error listing them.
fn pick(tables: Vec<crate::render::Table>, name: &str) -> Result<crate::render::Table> {
    use crate::render::tex::label;
    let labels: Vec<String> = tables.iter().map(|t| label(&t.title)).collect();
    let at = name
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=tables.len()).contains(n))
        .map(|n| n - 1)
        .or_else(|| {
            labels
                .iter()
                .position(|l| l == name.trim_start_matches("tab:"))
        });
    match at {
        Some(i) => Ok(tables.into_iter().nth(i).expect("an index in range")),
        None => Err(crate::Error::Usage(format!(
            "--table {name}: no such table; these reports give {}",
            labels
                .iter()
                .enumerate()
                .map(|(i, l)| format!("{} ({l})", i + 1))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}
