//! What `run` and `merge` do once their plan is made: carry it out, print its table, have the
//! library write its files (JUnit, summary, history, page: [`write_outputs`]), say what it
//! wrote and what went wrong, and give the exit code. Shared by the two commands, so neither
//! calls the other; the `--history` flags live here for the same reason.

use crate::cli::args::{GateArgs, OutputArgs};
use crate::cli::format::OutputFormat;
use crate::cli::journal::{report_resumed, report_stopped};
use crate::cli::progress::Progress;
use crate::cli::study_rows::models_text;
use crate::cli::{json_text, write_stdout_then_go_on};
use crate::job::files::{write_not_run, write_outputs, Outputs, Wrote};
use crate::job::{execute, show, JobOutcome, RunPlan};
use crate::render::html::Options;
use crate::report::LoadedReport;
use crate::study::models::shard::Layout;
use crate::study::models::Ran;
use crate::suite::Suite;
use crate::Result;
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The `--baseline` reports, loaded before any work.
pub(crate) fn baselines(gates: &GateArgs) -> Result<Vec<LoadedReport>> {
    let missing_ok = gates.baseline_missing == Some(crate::cli::args::BaselineMissingArg::Ok);
    if !gates.baseline.is_empty() && !gates.gates().need_baseline() {
        return Err(crate::Error::Usage(
            "--baseline is what --fail-on new-failures and --max-precision-drop compare with; \
             neither is given: add the gate, or drop --baseline"
                .into(),
        ));
    }
    let mut out = Vec::new();
    for path in &gates.baseline {
        if missing_ok && !path.exists() {
            say!(
                "note: --baseline {} does not exist (--baseline-missing ok): the gates that \
                 compare with a baseline skip the reports it would have judged",
                path.display()
            );
            continue;
        }
        // A baseline's cases are what "new failures" are counted against: a stopped run's
        // lacks some, and an errored case would count as failed before (a new failure of the
        // system there would pass the gate). A shard's report is a baseline of its shard.
        let baseline = LoadedReport::load(path)?;
        baseline.ran_to_end()?;
        out.push(baseline);
    }
    Ok(out)
}

/// Carry out `plan`, the same for `run` and `merge`: the reports, the table (the run's, or
/// the `models` table `models` lays out: a merge of `models` shards), the gate files, the
/// history, the page (`html`), and the exit code.
pub(crate) fn finish(
    mut plan: RunPlan,
    output: &OutputArgs,
    gates: &GateArgs,
    html: Option<&std::path::Path>,
    history: &RunHistoryArgs,
    models: Option<&Layout>,
) -> Result<ExitCode> {
    plan.config = crate::cli::given::config().and_then(|c| {
        Some(crate::report::ConfigFile {
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
    // `--summary-md "$GITHUB_STEP_SUMMARY"` outside GitHub Actions passes "": the same command
    // then runs anywhere, without a summary.
    let summary = gates
        .summary_md
        .as_deref()
        .filter(|p| !p.as_os_str().is_empty());
    let outputs = Outputs {
        junit: gates.junit.clone(),
        summary: summary.map(Path::to_path_buf),
        history: history.history.clone(),
        commit: history.commit.clone(),
        page: html.map(Path::to_path_buf),
    };
    outputs.check_paths(&plan)?;
    let mut progress = Progress::new(quiet, &plan.suite.label());
    let outcome = match execute(&mut plan, &mut progress) {
        Ok(outcome) => outcome,
        // Nothing ran to the end of a pass (a system that never answered): CI still gets its
        // JUnit, summary and page, saying what happened, and the exit code says the rest.
        Err(e) if e.exit_code() == crate::error::exit::RUNTIME => {
            progress.finish();
            write_not_run(&e, &outputs)?;
            return Err(e);
        }
        Err(e) => return Err(e),
    };
    progress.finish();
    let outcome = match models {
        Some(layout) => print_models(outcome, layout, output)?,
        None => {
            print_outcome(&plan.suite, &outcome, output)?;
            outcome
        }
    };
    if summary.is_none() && gates.summary_md.is_some() {
        say!("note: --summary-md is empty (is $GITHUB_STEP_SUMMARY unset?); no summary written");
    }
    write_outputs(&plan, &outcome, &outputs, &mut |wrote| {
        if quiet {
            return;
        }
        match wrote {
            Wrote::History {
                path,
                appended,
                left,
                again,
            } => {
                say!("history: {appended} run(s) appended to {}", path.display());
                if again > 0 {
                    say!(
                        "history: {again} run(s) not appended again: the history holds them \
                         (taken whole from a finished journal, or the same run appended before)"
                    );
                }
                if left > 0 {
                    say!(
                        "history: {left} run(s) not appended: stopped, with cases the backend \
                         failed on, or answers that make no good run (in failed/)"
                    );
                }
            }
            Wrote::Page {
                path,
                reports,
                bytes,
            } => say_page(&path, reports, bytes),
        }
    })?;
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
    report_resumed(&outcome, plan.journal.mode);
    report_errored(&outcome);
    report_stopped(&outcome);
    Ok(ExitCode::from(outcome.exit_code()))
}

/// The job's table (or JSON rows) on stdout, and the reports it wrote on stderr.
fn print_outcome(suite: &Suite, outcome: &JobOutcome, out: &OutputArgs) -> Result<()> {
    let text = match out.format {
        OutputFormat::Json => json_text(&show::outcome_json(outcome)),
        _ => show::outcome_table(suite, outcome),
    };
    write_stdout_then_go_on(&text)?;
    say_wrote(outcome, out.quiet);
    Ok(())
}

/// The reports written, on stderr (unless quiet).
fn say_wrote(outcome: &JobOutcome, quiet: bool) {
    if !quiet {
        for p in outcome.passes.iter().flat_map(|p| &p.reports) {
            say!("wrote {}", p.display());
        }
    }
}

/// A merged `models` run's table (or its rows as JSON), each row tested against its chance
/// row over every case, as `models` run whole prints it; its passes put in the table's order.
fn print_models(outcome: JobOutcome, layout: &Layout, out: &OutputArgs) -> Result<JobOutcome> {
    let compared = Ran::merged(outcome, layout)?.compare()?;
    let format = match out.format {
        OutputFormat::Json => OutputFormat::Json,
        _ => OutputFormat::Markdown,
    };
    write_stdout_then_go_on(&models_text(&compared, &layout.title, None, format))?;
    say_wrote(&compared.outcome, out.quiet);
    Ok(compared.outcome)
}

/// Say on stderr (always: it decides the exit code) how many entries the backend failed on,
/// each cause once: count, first case, message.
pub(crate) fn report_errored(outcome: &JobOutcome) {
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

/// `run`'s history flags.
#[derive(Debug, Args)]
pub(crate) struct RunHistoryArgs {
    /// Append each pass's summary (label, suite, date, every measure, each case's pass/fail)
    /// to DIR/history.jsonl; `tenure-eval history DIR` shows the runs over time.
    #[arg(long, value_name = "DIR", help_heading = "History")]
    pub history: Option<PathBuf>,
    /// The memory system's commit (or any version), recorded with each run in the history.
    #[arg(
        long,
        value_name = "REV",
        requires = "history",
        help_heading = "History"
    )]
    pub commit: Option<String>,
}

/// Write the page of `reports` to `out`, saying so unless `quiet` (`html`'s page; a run's is
/// written by the library, [`write_outputs`]).
pub(crate) fn write_page(
    out: &Path,
    reports: &[LoadedReport],
    suite: &Suite,
    options: &Options,
    quiet: bool,
) -> Result<()> {
    let bytes = crate::render::html::write(out, reports, suite, options)?;
    if !quiet {
        say_page(out, reports.len(), bytes);
    }
    Ok(())
}

fn say_page(out: &Path, reports: usize, bytes: usize) {
    say!(
        "wrote {} ({reports} report(s), {:.1} kB)",
        out.display(),
        bytes as f64 / 1000.0
    );
}
