//! `tenure-eval tables`: PrecisionMemBench's and the paper's tables from report files.

use crate::cli::args::TableStyleArg;
use crate::cli::format::{only, OutputFormat, TABLES};
use crate::cli::{load_reports, write_stdout};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use tenure_eval::report::LoadedReport;
use tenure_eval::Result;

/// `tenure-eval tables`.
#[derive(Debug, Args)]
pub struct TablesArgs {
    /// Report files (static and session, any provider).
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
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
pub fn run(args: TablesArgs) -> Result<ExitCode> {
    use tenure_eval::render::render;
    use tenure_eval::render::tables::{paper_tables, pmb_tables};
    let reports = load_reports(&args.reports, args.quiet)?;
    for report in &reports {
        report.whole_run()?;
    }
    crate::cli::mixed::warn(&reports);
    if !args.quiet {
        for warning in reports.iter().flat_map(LoadedReport::disagreements) {
            say!("warning: {warning}; the table uses the rows");
        }
    }
    let mut tables = match args.style {
        TableStyleArg::Pmb => pmb_tables(&reports),
        TableStyleArg::Paper => paper_tables(&reports),
        TableStyleArg::All => [pmb_tables(&reports), paper_tables(&reports)].concat(),
    };
    // tenure-eval's reports carry rank metrics; upstream's tables have no place for them. On a
    // suite judged by qrels (LoCoMo, BEAM, a test collection) they are its measures: first.
    let rank = tenure_eval::render::tables::rank_table(&reports);
    if reports.iter().all(LoadedReport::judged_by_qrels) {
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

/// The table `name` names: its label, or its 1-based place. Unknown: a usage error listing them.
fn pick(tables: Vec<tenure_eval::render::Table>, name: &str) -> Result<tenure_eval::render::Table> {
    use tenure_eval::render::tex::label;
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
        None => Err(tenure_eval::Error::Usage(format!(
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
