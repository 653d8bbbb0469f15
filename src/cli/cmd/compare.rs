//! `tenure-eval compare`: two or more reports of the same cases.

use crate::analysis::compare::significance::{runs_table, TestSettings};
use crate::cli::args::SuiteArgs;
use crate::cli::format::{only, OutputFormat};
use crate::cli::{json_text, load_reports, write_stdout};
use crate::eval::qrels::Qrels;
use crate::eval::rank::{parse_measures, Measure, DEFAULT_MEASURES};
use crate::report::LoadedReport;
use crate::{Error, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval compare`.
#[derive(Debug, Args)]
pub(crate) struct CompareArgs {
    /// Reports of the same cases: BASE NEW for the two-run comparison (flips, McNemar,
    /// bootstrap, then the runs table), or any number for the runs table alone.
    #[arg(value_name = "REPORT")]
    pub reports: Vec<PathBuf>,
    /// A TREC run made elsewhere (`qid Q0 docno rank score run_name`; repeatable), scored on
    /// --suite's gold and put in the runs table after the reports. It holds rankings only: the
    /// table then has no pass/fail or set-precision column, and no flips are counted.
    #[arg(long, value_name = "FILE")]
    pub trec_run: Vec<PathBuf>,
    /// Output format: markdown, JSON, or the runs table as LaTeX (booktabs, best value bold).
    #[arg(long, default_value = "markdown", value_parser = only(&[OutputFormat::Markdown, OutputFormat::Json, OutputFormat::Latex]))]
    pub format: OutputFormat,
    /// Seed of the paired bootstrap and of sampled randomisation tests.
    #[arg(long, default_value_t = 20_260_511)]
    pub seed: u64,
    /// Measures of the runs table, ir_measures names (default: those of the first report's
    /// rankMetrics block, else P@5,R@5,nDCG@10,RR,AP).
    #[arg(long)]
    pub metrics: Option<String>,
    /// Significance level of the runs table, after Holm's adjustment.
    #[arg(long, default_value_t = 0.05, value_parser = crate::cli::args::level)]
    pub alpha: f64,
    /// Sign patterns drawn by a randomisation test too large to enumerate (over 40 differing
    /// cases).
    #[arg(long, default_value_t = 100_000)]
    pub resamples: usize,
    /// The suite whose gold computes the measures. Named, every report's measures are computed
    /// from its gold (a report of other cases is refused); not named, each report's
    /// rankMetrics block is used, and pmb's gold for a measure a report does not carry.
    #[command(flatten)]
    pub suite: SuiteArgs,
}

/// The measures to show: `--metrics`, else the first report's block, else the default.
fn measures(args: &CompareArgs, reports: &[LoadedReport]) -> Result<Vec<Measure>> {
    let from_block: Option<String> = reports
        .first()
        .into_iter()
        .flat_map(|r| &r.rows)
        .find(|r| !r.rank_metrics.is_empty())
        .map(|r| r.rank_metrics.keys().cloned().collect::<Vec<_>>().join(","));
    let list = args
        .metrics
        .clone()
        .or(from_block)
        .unwrap_or_else(|| DEFAULT_MEASURES.to_string());
    parse_measures(&list).map_err(|e| Error::Usage(format!("--metrics: {e}")))
}

/// Compare reports.
pub(crate) fn run(args: CompareArgs) -> Result<ExitCode> {
    args.suite.check_flags()?;
    let tests = TestSettings {
        alpha: args.alpha,
        resamples: args.resamples,
        seed: args.seed,
    };
    // Holm's family: every pair of runs, for each measure.
    let runs = args.reports.len() + args.trec_run.len();
    tests.check(runs * runs.saturating_sub(1) / 2)?;
    if args.reports.len() + args.trec_run.len() < 2 {
        return Err(Error::Usage(
            "compare needs two or more runs: reports, or TREC runs with --trec-run".into(),
        ));
    }
    let mut reports = load_reports(&args.reports, true)?;
    // Flips and significance over a backend's errors would be a comparison of no measurement.
    for report in &reports {
        report.ran_to_end()?;
    }
    // A suite named is the gold every measure is computed from (so its files are read, said
    // when they are not a benchmark's release, and checked against the reports' cases);
    // otherwise gold is read only when a report lacks a measure in its block.
    let named = args.suite.named();
    let suite = if named {
        Some(crate::cli::args::load(&args.suite)?)
    } else if !args.trec_run.is_empty() {
        return Err(Error::Usage(
            "--trec-run: name the suite whose gold scores it with --suite".into(),
        ));
    } else {
        None
    };
    let measures = measures(&args, &reports)?;
    if let Some(suite) = &suite {
        // The suite named is the gold every measure is computed from: a report of a run on other
        // files would be re-scored against gold its run never read (an audit found it, exit 0).
        for report in &reports {
            report.on_files_of(suite)?;
        }
        reports.extend(crate::cli::load_trec_runs(
            &args.trec_run,
            suite,
            &measures,
        )?);
    }
    crate::cli::mixed::refuse(&reports)?;
    if reports.iter().any(|r| r.kind != reports[0].kind) {
        return Err(Error::Usage(
            "compare needs reports of the same kind (all static or all session)".into(),
        ));
    }
    // Reports of a suite judged by qrels (LoCoMo, BEAM, a test collection) are read by its rank
    // measures first: the pass/fail and set-precision comparison follows the runs table.
    let rank_led = reports.iter().all(LoadedReport::judged_by_qrels);
    if named {
        for report in &mut reports {
            for row in &mut report.rows {
                row.rank_metrics.0.clear();
            }
        }
    }
    let needs_gold = reports.iter().any(|r| {
        r.rows.iter().any(|row| {
            measures
                .iter()
                .any(|m| !row.rank_metrics.contains_key(&m.to_string()))
        })
    });
    let qrels = match (needs_gold, &suite) {
        (false, _) => None,
        (true, Some(suite)) => Some(Qrels::of(suite)),
        (true, None) => Some(Qrels::of(&crate::cli::args::load(&args.suite)?)),
    };
    // Runs with no case in common compared nothing, and said McNemar's p = 1 and a mean
    // difference of 0 over 0 cases, exit 0 (an eleventh audit).
    let first: std::collections::HashSet<String> =
        reports[0].rows.iter().map(|r| r.key()).collect();
    if let Some(other) =
        (reports.iter().skip(1)).find(|r| !r.rows.iter().any(|x| first.contains(&x.key())))
    {
        return Err(crate::Error::input(
            &other.path,
            if other.bare_array { "$" } else { "$.cases" },
            format!(
                "no case in common with {}: nothing to compare",
                reports[0].path.display()
            ),
        ));
    }
    let settings = tests;
    let table = runs_table(&reports, &measures, qrels.as_ref(), settings)?;
    let pair = (reports.len() == 2 && reports.iter().all(|r| r.pass_fail))
        .then(|| crate::analysis::compare::compare(&reports[0], &reports[1], args.seed));
    let text = match (args.format, &pair) {
        (OutputFormat::Latex, _) => table.latex(),
        (OutputFormat::Json, Some(c)) => {
            let mut v = serde_json::to_value(c).unwrap_or_default();
            v["runsTable"] = serde_json::to_value(&table).unwrap_or_default();
            json_text(&v)
        }
        (OutputFormat::Json, None) => json_text(&table),
        (_, Some(c)) if rank_led => format!("{}\n{}", table.markdown(), c.markdown()),
        (_, Some(c)) => format!("{}\n{}", c.markdown(), table.markdown()),
        (_, None) => table.markdown(),
    };
    write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
