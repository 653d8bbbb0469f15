//! `tenure-eval run|static|session`: a plan from flags, carried out by the library; the table,
//! the gate files and the exit code here.

use crate::cli::args::{load, GateArgs, OutputArgs, SuiteArgs};
use crate::cli::backends::{BackendArg, BackendFlags};
use crate::cli::format::OutputFormat;
use crate::cli::journal::{refuse_backends_in_replay, report_stopped, JournalArgs};
use crate::cli::progress::Progress;
use crate::cli::remote::{HttpArgs, RemoteArgs};
use crate::cli::{json_text, write_stdout_then_go_on};
use clap::Args;
use serde_json::json;
use std::process::ExitCode;
use tenure_eval::analysis::gates::FailOn;
use tenure_eval::backend::Workload;
use tenure_eval::job::{execute, JobOutcome, RunPlan};
use tenure_eval::render::run_table as table;
use tenure_eval::report::LoadedReport;
use tenure_eval::run::journal::Shard;
use tenure_eval::suite::Suite;
use tenure_eval::Result;

/// `tenure-eval run|static|session`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Suite selection.
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Retrieval backends, comma-separated (default: bm25, or cosine when --model is given).
    #[arg(long, value_enum, value_delimiter = ',', help_heading = "Backends")]
    pub backend: Vec<BackendArg>,
    /// The built-in backends' settings.
    #[command(flatten)]
    pub backends: BackendFlags,
    /// Instead of running: why this static case's search tier holds what it holds, through the
    /// one --backend given (default bm25): BM25's best candidates with their terms (those below
    /// the floor too), cosine's similarities, a context scorer's signals and tier, a fusion's
    /// ranks.
    #[arg(long, value_name = "CASE", help_heading = "Explain one case")]
    pub explain: Option<String>,
    /// With --explain: how many candidates to show.
    #[arg(
        long,
        default_value_t = 10,
        requires = "explain",
        help_heading = "Explain one case"
    )]
    pub top: usize,
    /// Remote calls: concurrency, timeout, retries.
    #[command(flatten)]
    pub remote: RemoteArgs,
    /// A memory system over HTTP.
    #[command(flatten)]
    pub http: HttpArgs,
    /// Stop a pass after this many errored cases or turns; a pass with errors, or stopped,
    /// writes its report beside the good one, in failed/.
    #[arg(long, value_name = "N", default_value_t = tenure_eval::job::errors::DEFAULT_MAX_ERRORS)]
    pub max_errors: usize,
    /// Output.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Name the run (one backend): its report files (`retrieval-report-NAME.json`), table and
    /// `compare` rows, figure legends, gates and JUnit [default: the backend's name and each
    /// result-changing setting not at its default, e.g. `rrf(bm25+cosine/all-minilm-l6-v2)-k30`].
    #[arg(long, value_name = "NAME", help_heading = "Output")]
    pub label: Option<String>,
    /// CI gates.
    #[command(flatten)]
    pub gates: GateArgs,
    /// Also write one self-contained HTML page of the reports this run wrote (see `html`).
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<std::path::PathBuf>,
    /// Journals: resume, rerun, record, replay.
    #[command(flatten)]
    pub journal: JournalArgs,
    /// Run each pass N times, each on a fresh store, and report every measure's mean, spread
    /// and 95% confidence interval, and the cases whose pass/fail differs (flaky): for a
    /// memory system that answers differently from run to run. The report's cases are the
    /// last repeat's.
    #[arg(long, value_name = "N", default_value_t = 1, help_heading = "Repeat",
          value_parser = clap::value_parser!(u32).range(1..),
          conflicts_with_all = ["resume", "rerun_errored", "replay"])]
    pub repeat: u32,
    /// Run history.
    #[command(flatten)]
    pub history: crate::cli::cmd::history::RunHistoryArgs,
    /// Run shard K of N: the cases whose id hashes to it (sessions whole), into this --out;
    /// `tenure-eval merge` makes the whole run's reports from every shard's folder.
    #[arg(long, value_name = "K/N", help_heading = "Shard",
          conflicts_with_all = ["replay", "repeat"])]
    pub shard: Option<String>,
}

impl RunArgs {
    /// Chosen backends, in order, without repeats. With none named: the memory system, else
    /// cosine when a model is named, else the lexical backend the suite's items can be matched
    /// by: alias-BM25 where they carry names and aliases, plain BM25 (`bm25-text`) where they
    /// are text (LoCoMo, BEAM, a test collection).
    pub fn backend_args(&self, suite: &Suite) -> Vec<BackendArg> {
        let mut chosen: Vec<BackendArg> = Vec::new();
        if self.backend.is_empty() {
            chosen.push(if self.http.url.is_some() || self.http.provider.is_some() {
                BackendArg::Http
            } else if !self.backends.cosine.model.is_empty() {
                BackendArg::Cosine
            } else if suite.has_aliases() {
                BackendArg::Bm25
            } else {
                BackendArg::Bm25Text
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

/// Run `kinds` of the suite through each backend (or, with `--replay`, re-score a recording).
pub fn run(args: RunArgs, kinds: &[Workload]) -> Result<ExitCode> {
    let suite = load(&args.suite)?;
    if !args.output.quiet {
        for note in crate::cli::args::input_notes(&suite) {
            say!("{note}");
        }
    }
    if let Some(case) = &args.explain {
        let explain = super::explain::ExplainArgs {
            backend: &args.backend,
            backends: &args.backends,
            remote: &args.remote,
            http: &args.http,
            top: args.top,
        };
        return super::explain::run(explain, &suite, case);
    }
    // Gate inputs are checked before any work.
    let baselines = baselines(&args.gates)?;
    let replay = args.journal.replay.clone();
    let backends = if replay.is_some() {
        refuse_backends_in_replay()?;
        Vec::new()
    } else {
        let chosen = args.backend_args(&suite);
        args.backends.check(&chosen, Some(&args.http))?;
        args.backends
            .configs(&chosen, &args.remote, Some(&args.http))?
    };
    let mut plan = RunPlan::new(suite, backends, kinds, &args.output.out)?
        .with_gates(args.gates.gates(), baselines)?
        .with_label(args.label.clone())?;
    plan.concurrency = args.remote.concurrency.max(1);
    plan.max_errors = args.max_errors;
    plan.journal = args.journal.plan();
    plan.repeat = args.repeat as usize;
    plan.shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    if let Some(dir) = &replay {
        plan.harness = plan.suite.harness_copy()?;
        let suites: Vec<&Suite> = std::iter::once(&plan.suite).chain(&plan.harness).collect();
        plan.replay = tenure_eval::job::journal::recording(dir, &suites, &plan.kinds)?;
    }
    finish(
        plan,
        &args.output,
        &args.gates,
        args.html.as_deref(),
        &args.history,
    )
}

/// The `--baseline` reports, loaded before any work.
pub fn baselines(gates: &GateArgs) -> Result<Vec<LoadedReport>> {
    gates
        .baseline
        .iter()
        .map(|p| LoadedReport::load(p))
        .collect()
}

/// Carry out `plan`, the same for `run` and `merge`: the reports, the table, the gate files,
/// the history, the page (`html`), and the exit code.
pub fn finish(
    mut plan: RunPlan,
    output: &OutputArgs,
    gates: &GateArgs,
    html: Option<&std::path::Path>,
    history: &crate::cli::cmd::history::RunHistoryArgs,
) -> Result<ExitCode> {
    plan.config = crate::cli::given::config().and_then(|c| {
        Some(tenure_eval::report::ConfigFile {
            path: c.path.as_ref()?.display().to_string(),
            sha256: c.sha256.clone()?,
        })
    });
    // --metrics, when given, wins over the suite's own measures (RunPlan::new).
    if crate::cli::given::set("metrics") {
        plan.measures = output.metrics.0.clone();
    }
    let quiet = output.quiet;
    if !quiet {
        for note in &plan.notes {
            say!("note: {note}");
        }
    }
    // Said even with --quiet: the run's numbers are not what its flags lead a reader to expect.
    for warning in &plan.warnings {
        say!("warning: {warning}");
    }
    let mut progress = Progress::new(quiet, &plan.suite.label());
    let outcome = execute(&mut plan, &mut progress)?;
    progress.finish();
    print_outcome(&plan.suite, &outcome, output)?;
    // `--summary-md "$GITHUB_STEP_SUMMARY"` outside GitHub Actions passes "": the same command
    // then runs anywhere, without a summary.
    let summary = gates
        .summary_md
        .as_deref()
        .filter(|p| !p.as_os_str().is_empty());
    if summary.is_none() && gates.summary_md.is_some() {
        say!("note: --summary-md is empty (is $GITHUB_STEP_SUMMARY unset?); no summary written");
    }
    let against_baseline = gates.gates().fail_on == Some(FailOn::NewFailures);
    tenure_eval::job::files::write_gate_files(
        &outcome,
        gates.junit.as_deref(),
        summary,
        against_baseline.then_some(&plan.baselines[..]),
    )?;
    let history = history.record(&outcome, quiet)?;
    if let Some(path) = html {
        let files: Vec<_> = outcome
            .passes
            .iter()
            .flat_map(|p| p.reports.clone())
            .collect();
        let reports = crate::cli::load_reports(&files, true)?;
        let mut options = crate::cli::cmd::html::default_options();
        options.history = history;
        crate::cli::cmd::html::write(path, &reports, &plan.suite, &options, quiet)?;
    }
    for c in &outcome.checks {
        if !quiet || !c.passed {
            say!(
                "gate {} {} on {}: {}",
                c.gate,
                if c.passed { "passed" } else { "FAILED" },
                c.report,
                c.detail
            );
        }
    }
    // What a system did wrong is said even with --quiet, as errors are.
    for w in outcome.warnings() {
        say!("warning: {w}");
    }
    for pass in &outcome.passes {
        if let Some(why) = &pass.unhealthy {
            say!(
                "error: {} {}: {why}",
                pass.row.backend,
                pass.row.kind.label()
            );
        }
    }
    report_errored(&outcome);
    report_stopped(&outcome);
    Ok(ExitCode::from(outcome.exit_code()))
}

/// Failing cases listed under the table, per report.
const FAILING_SHOWN: usize = 5;

fn print_outcome(suite: &Suite, outcome: &JobOutcome, out: &OutputArgs) -> Result<()> {
    let passes = &outcome.passes;
    let text = match out.format {
        OutputFormat::Table if passes.len() == 1 => {
            let row = &passes[0].row;
            // A shard's numbers are its cases' only: said where they are read.
            let shard = (passes[0].report.shard())
                .map_or(String::new(), |s| format!(" · shard {s}, its cases only"));
            let title = format!(
                "{} · {} · {} ({} profile){shard}",
                suite.label(),
                row.kind.label(),
                row.backend,
                suite.profile
            );
            let mut text = if row.rank.measures.is_empty() {
                table::summary_table(&title, &row.summary, None)
            } else {
                table::rank_summary_table(&title, &row.summary, &row.rank, None)
            };
            if let (Some(d), Some(p)) = (row.mean_drift, row.mean_precision_drift) {
                text.push_str(&format!("mean drift {d:.2} (paper: noise / surfaced) · {p:.2} (PrecisionMemBench: 1 − precision)\n"));
            }
            text
        }
        OutputFormat::Json => {
            let rows: Vec<_> = passes
                .iter()
                .map(|p| {
                    json!({
                        "suite": p.row.suite,
                        "backend": p.row.backend,
                        "kind": p.row.kind.label(),
                        "reports": p.reports.iter().map(|r| r.display().to_string()).collect::<Vec<_>>(),
                        "retrieval": p.row.summary,
                        "meanDriftScore": p.row.mean_drift,
                        "meanPrecisionDriftScore": p.row.mean_precision_drift,
                        "repeats": p.report.manifest.as_ref().and_then(|m| m.repeats.as_ref()),
                    })
                })
                .collect();
            json_text(&rows)
        }
        _ => {
            let mut text =
                table::run_table(&passes.iter().map(|p| p.row.clone()).collect::<Vec<_>>());
            if let Some(s) = passes.first().and_then(|p| p.report.shard()) {
                text.push_str(&format!(
                    "shard {s}: each row holds that shard's cases only (`tenure-eval merge` \
                     makes the whole run)\n"
                ));
            }
            text
        }
    };
    write_stdout_then_go_on(&text)?;
    if out.format == OutputFormat::Table {
        let repeated: String = passes
            .iter()
            .filter_map(|p| {
                let repeats = p.report.manifest.as_ref()?.repeats.as_ref()?;
                let name = format!("{} {}", p.row.backend, p.row.kind.label());
                Some(tenure_eval::render::repeats::repeats_text(
                    &name,
                    repeats,
                    FAILING_SHOWN,
                ))
            })
            .collect();
        if !repeated.is_empty() {
            write_stdout_then_go_on(&format!("\n{repeated}"))?;
        }
        let failing: String = passes
            .iter()
            .map(|p| table::failing_cases(&p.report, FAILING_SHOWN))
            .collect();
        if !failing.is_empty() {
            write_stdout_then_go_on(&format!("\n{failing}"))?;
        }
    }
    if !out.quiet {
        for p in passes.iter().flat_map(|p| &p.reports) {
            say!("wrote {}", p.display());
        }
    }
    Ok(())
}

/// Say on stderr (always: it decides the exit code) how many entries the backend failed on,
/// each cause once: count, first case, message.
pub fn report_errored(outcome: &JobOutcome) {
    let errored = outcome.errored();
    // A stopped run says its cause once, in `report_stopped`.
    if errored > 0 && outcome.stopped().is_none() {
        say!(
            "error: the backend failed on {errored} case(s) or turn(s); the report went beside \
             the last good one, in failed/ (--rerun-errored runs them again)"
        );
        for pass in outcome.passes.iter().filter(|p| p.errored > 0) {
            for cause in &pass.errors {
                say!(
                    "  {} {}: {}× (first: {}): {}",
                    pass.row.backend,
                    pass.row.kind.label(),
                    cause.count,
                    cause.first,
                    cause.message
                );
            }
        }
    }
}
