//! `tenure-eval html`: one self-contained HTML page to explore reports (see
//! `crate::render::html`), and the `--html FILE` of `run`, `static` and `session`.

use crate::analysis::compare::significance::TestSettings;
use crate::backend::Workload;
use crate::cli::args::SuiteArgs;
use crate::cli::load_reports;
use crate::render::html::{self, Options};
use crate::suite::{Suite, SuiteSource};
use crate::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval html`.
#[derive(Debug, Args)]
pub(crate) struct HtmlArgs {
    /// Report files, or folders of them (every .json file under a folder).
    #[arg(required = true, value_name = "REPORT_OR_FOLDER")]
    pub reports: Vec<PathBuf>,
    /// The suite of the reports (default: the one their manifests name, else pmb). Reports
    /// of different suites are refused unless the suite is named.
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// The page to write (one self-contained file).
    #[arg(long, value_name = "FILE.html")]
    pub out: PathBuf,
    /// The page's title.
    #[arg(long)]
    pub title: Option<String>,
    /// Seed of the comparisons' bootstrap and sampled randomisation tests (as `compare`).
    #[arg(long, default_value_t = 20_260_511)]
    pub seed: u64,
    /// Significance level of the runs table, after Holm's adjustment (as `compare`).
    #[arg(long, default_value_t = 0.05, value_parser = crate::cli::args::level)]
    pub alpha: f64,
    /// Sign patterns drawn by a randomisation test too large to enumerate (as `compare`).
    #[arg(long, default_value_t = 100_000)]
    pub resamples: usize,
    /// Also show the run history in DIR (`--history` of `run`): each label's runs and the
    /// verdict on its last change.
    #[arg(long, value_name = "DIR")]
    pub history: Option<PathBuf>,
    /// No messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Write the page.
pub(crate) fn run(args: HtmlArgs) -> Result<ExitCode> {
    args.suite.check_flags()?;
    let tests = TestSettings {
        alpha: args.alpha,
        resamples: args.resamples,
        seed: args.seed,
    };
    let files = html::report_files(&args.reports)?;
    // The page never replaces what it reads: `--out r.json` wrote HTML over the report, and
    // `--out hist/history.jsonl` over the run history, with exit 0 (a nineteenth audit), as
    // `run --html` refuses already.
    let history = (args.history.iter()).map(|dir| dir.join(crate::analysis::history::FILE));
    if let Some(input) =
        (files.iter().cloned().chain(history)).find(|f| crate::io::same_file(f, &args.out))
    {
        return Err(crate::Error::Usage(format!(
            "--out {}: that is {}, which the page reads; write the page elsewhere",
            args.out.display(),
            input.display()
        )));
    }
    let reports = load_reports(&files, args.quiet)?;
    // The page tests every pair of one kind's reports, Holm-adjusted together, as `compare`.
    let family = |kind| reports.iter().filter(|r| r.kind == kind).count();
    let pairs =
        [Workload::Static, Workload::Session].map(|k| family(k) * family(k).saturating_sub(1) / 2);
    // No kind with two runs: nothing is tested, and the tests' settings changed nothing (an
    // eleventh audit: the page was the same bytes with and without them).
    if pairs.iter().all(|&p| p == 0) {
        let why = || "the page tests pairs of runs of one kind, and these reports hold none".into();
        if let Some(flag) = (["seed", "alpha", "resamples"].iter())
            .find(|id| crate::cli::given::given_else_noted(id, why))
        {
            return Err(crate::Error::Usage(format!(
                "--{flag}: the page tests pairs of runs of one kind, and these reports hold \
                 none (one report, or one of each kind)"
            )));
        }
    }
    tests.check(pairs.into_iter().max().unwrap_or(1))?;
    // The page sets the runs side by side, case by case, against one suite's gold: runs on other
    // files than each other's, or than the suite named, have other gold (an audit found both
    // shown with exit 0, as `compare` and `locomo` refuse them).
    crate::cli::mixed::same_inputs(&reports, "html sets runs side by side, case by case")?;
    let named = args.suite.named();
    let suite = if named {
        let suite = crate::cli::args::load(&args.suite)?;
        for report in &reports {
            report.on_files_of(&suite)?;
        }
        suite
    } else {
        // A selection's report names its selection (`pmb-selected`): its suite is the whole's.
        let name = html::suite_name(&reports)?.unwrap_or_else(|| "pmb".into());
        let name = crate::suite::select::whole_label(&name);
        // The scale study's report (`pmb-scale`) shows its cases against the suite planted.
        let scale = format!("-{}", crate::suite::SCALE);
        let name = name.strip_suffix(&scale).unwrap_or(name).to_string();
        // A benchmark's run (beam, locomo-sessions) was told "unknown suite", naming no report
        // and no flag (an eleventh audit).
        Suite::load(&SuiteSource::Builtin(name.clone())).map_err(|e| match e {
            crate::Error::Usage(_) => crate::Error::input(
                &reports[0].path,
                "$.manifest.suite",
                format!(
                    "{name:?}: a suite read from a benchmark's files, not built in; give \
                     --suite and --data as its run did"
                ),
            ),
            other => other,
        })?
    };
    let options = Options {
        title: args.title.clone(),
        settings: tests,
        measures: None,
        history: match &args.history {
            Some(dir) => crate::analysis::history::read(dir)?,
            None => Vec::new(),
        },
    };
    crate::cli::finish::write_page(&args.out, &reports, &suite, &options, args.quiet)?;
    Ok(ExitCode::SUCCESS)
}
