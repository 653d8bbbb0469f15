//! The command line: arguments (clap), one file per command, progress and output helpers.
//! Each command turns its flags into library calls and returns an exit code;
//! [`main`](crate::cli::main) maps errors to exit codes. It lives in the library crate (as
//! cargo-nextest's does) so that what only the command line uses stays crate-private;
//! `src/main.rs` installs the allocator and the signal handler and calls
//! [`main`](crate::cli::main). Nothing else here is public.

/// A line on stderr that can never panic: a closed or full stderr loses the message, which is
/// all that can happen to it (`eprintln!` would abort the run instead).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

pub(crate) mod args;
pub(crate) mod backends;
mod cmd;
pub(crate) mod config;
mod explain;
mod finish;
pub(crate) mod format;
pub(crate) mod given;
pub(crate) mod journal;
mod mixed;
pub(crate) mod progress;
pub(crate) mod remote;
mod study_rows;
pub(crate) mod suite;

use crate::backend::Workload;
use crate::{Error, Result};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Measure how precisely LLM memory systems retrieve what a user told them.
#[derive(Debug, Parser)]
#[command(name = "tenure-eval", version, about, propagate_version = true)]
pub(crate) struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// The config file whose `[COMMAND]` and `[defaults]` tables set flags (a flag on the
    /// command line wins) [default: the nearest tenure-eval.toml from the current folder up;
    /// `none`: no file].
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<String>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Static and session cases for each backend: the whole job, one combined table.
    Run(cmd::run::RunArgs),
    /// Run the static retrieval cases and write reports.
    Static(cmd::run::RunArgs),
    /// Run the multi-turn session cases (with live store mutations) and write reports.
    Session(cmd::run::RunArgs),
    /// Load and check a suite without running it.
    Validate(args::SuiteArgs),
    /// Recompute a report's aggregates from its rows and check its input hashes (exit 1 on a mismatch).
    Verify(cmd::verify::VerifyArgs),
    /// The paper's quantitative claims next to measured values (runs the paper suite if no report is given).
    Claims(cmd::claims::ClaimsArgs),
    /// Compare two reports of the same cases: flips, McNemar, bootstrap interval, score changes.
    Compare(cmd::compare::CompareArgs),
    /// Export a report as a TREC run file and qrels (gold from the suite) for trec_eval / ranx.
    Trec(cmd::trec::TrecArgs),
    /// Draw the paper's figures as SVG, PNG or PDF: Figure 2 (drift per session turn, one line per
    /// backend) from session reports, or Figure 1 (one query's BM25 score per belief beside its
    /// cosine score) with --case.
    Plot(cmd::plot::PlotArgs),
    /// Regenerate PrecisionMemBench's tables from report files (figures recomputed from rows).
    Tables(cmd::tables::TablesArgs),
    /// One self-contained HTML page to explore reports: overview, cases side by side,
    /// sessions, differences (offline, one file).
    Html(cmd::html::HtmlArgs),
    /// Fill an embedding store: embed every text a suite needs with an ONNX model (or import
    /// upstream vectors).
    Embed(cmd::embed::EmbedArgs),
    /// Embedding model invariance: each --model under cosine, plus BM25 as the reference row.
    Models(cmd::models::ModelsArgs),
    /// Serve a built-in backend over PrecisionMemBench's HTTP provider contract, for its
    /// harness or anyone's.
    Serve(cmd::serve::ServeArgs),
    /// Probe a memory system behind the HTTP provider contract (reset, add, search round
    /// trip, user isolation, scopes, update, an error path) and say what each finding does to
    /// the scores. Exit 1 when a check fails, 3 when the system cannot be reached.
    Doctor(cmd::doctor::DoctorArgs),
    /// The scale study: the suite planted in synthetic stores of growing size; build time,
    /// search latency, peak memory, and whether the suite's precision holds.
    Scale(cmd::scale::ScaleArgs),
    /// The alias-flywheel essay, measured: one simulated user over many sessions on alias-BM25
    /// (coverage, precision, aliases per belief), the vector side with --vector, and the
    /// essay's claims C1-C7.
    Flywheel(cmd::flywheel::FlywheelArgs),
    /// The TemporalClassifier: classify statements by valid time, or measure it against
    /// gold labels (docs/temporal.md).
    Temporal(cmd::temporal::TemporalArgs),
    /// LoCoMo's results from reports of runs on it: rank measures and LoCoMo's own recall
    /// accuracy per category, and a figure (docs/locomo.md).
    Locomo(cmd::locomo::LocomoArgs),
    /// BEAM's results from reports of runs on it: rank measures per tier and ability, and the
    /// share of knowledge updates ranked above the fact they supersede (docs/beam.md).
    Beam(cmd::beam::BeamArgs),
    /// The alias flywheel on a benchmark's own questions: aliases learned from one half of each
    /// user's questions, the other half retrieved with and without them, against a random
    /// control (docs/alias-learning.md).
    AliasLearning(cmd::alias_learning::AliasLearningArgs),
    /// LongMemEval's retrieval metrics (recall_any, recall_all, ndcg_any) from reports of runs
    /// on it, per question type (docs/longmemeval.md).
    Longmemeval(cmd::longmemeval::LongMemEvalArgs),
    /// The flags a command takes from the config file (tenure-eval.toml), and where each comes from.
    Config(cmd::config::ConfigArgs),
    /// The user cache of embedding stores, found from any folder: list, prune.
    Cache(cmd::cache::CacheArgs),
    /// A run history (run --history DIR): each label's runs over time, regressions flagged.
    History(cmd::history::HistoryArgs),
    /// The reports of a run made in shards (run --shard K/N), from every shard's --out folder.
    Merge(cmd::merge::MergeArgs),
}

/// The command line's one exit path: parse (flags, then the config file), dispatch, and map
/// errors to exit codes: 0 ok, 1 a CI gate failed (or `verify` found a mismatch), 2 usage or
/// input error, 3 runtime failure (or a case the backend failed on).
pub fn main() -> ExitCode {
    let parsed = match given::parse() {
        Ok(parsed) => parsed,
        Err(given::Refused::Clap(e)) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                crate::error::exit::USAGE
            } else {
                crate::error::exit::OK
            });
        }
        Err(given::Refused::Config(e)) => {
            say!("error: {e}");
            return ExitCode::from(e.exit_code());
        }
    };
    match dispatch(parsed) {
        Ok(code) => code,
        // The reader went away (`| head`): nothing is wrong, and nothing more to say.
        Err(Error::Output { source, .. }) if source.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            say!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Run the command.
pub(crate) fn dispatch(cli: Cli) -> Result<ExitCode> {
    let progress = match &cli.command {
        Command::Run(a) | Command::Static(a) | Command::Session(a) => Some(a.progress),
        Command::Merge(a) => Some(a.progress),
        Command::Embed(a) => Some(a.progress),
        Command::Models(a) => Some(a.progress),
        Command::Serve(a) => Some(a.progress),
        Command::Flywheel(a) => Some(a.progress),
        _ => None,
    };
    if let Some(p) = progress {
        progress::set_mode(p.progress);
    }
    match cli.command {
        Command::Static(a) => cmd::run::run(a, &[Workload::Static]),
        Command::Session(a) => cmd::run::run(a, &[Workload::Session]),
        Command::Run(a) => cmd::run::run(a, &[Workload::Static, Workload::Session]),
        Command::Validate(a) => cmd::validate::run(a),
        Command::Tables(a) => cmd::tables::run(a),
        Command::Verify(a) => cmd::verify::run(a),
        Command::Compare(a) => cmd::compare::run(a),
        Command::Claims(a) => cmd::claims::run(a),
        Command::Trec(a) => cmd::trec::run(a),
        Command::Plot(a) => cmd::plot::run(a),
        Command::Embed(a) => cmd::embed::run(a),
        Command::Html(a) => cmd::html::run(a),
        Command::Models(a) => cmd::models::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Doctor(a) => cmd::doctor::run(a),
        Command::Scale(a) => cmd::scale::run(a),
        Command::Flywheel(a) => cmd::flywheel::run(a),
        Command::Temporal(a) => cmd::temporal::run(a),
        Command::Locomo(a) => cmd::locomo::run(a),
        Command::Longmemeval(a) => cmd::longmemeval::run(a),
        Command::Beam(a) => cmd::beam::run(a),
        Command::AliasLearning(a) => cmd::alias_learning::run(a),
        Command::Config(a) => cmd::config::run(a),
        Command::Cache(a) => cmd::cache::run(a),
        Command::History(a) => cmd::history::run(a),
        Command::Merge(a) => cmd::merge::run(a),
    }
}

/// Print to stdout. A closed pipe (`| head`) ends the command quietly with exit 0, as ripgrep
/// does; any other failure (a full disk) is an output error, exit 3 (see `main`).
pub(crate) fn write_stdout(text: &str) -> Result<()> {
    write_stdout_bytes(text.as_bytes())
}

/// Bytes to stdout (a figure with `--out -`).
pub(crate) fn write_stdout_bytes(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|source| Error::Output {
            path: PathBuf::from("<stdout>"),
            source,
        })
}

/// Print to stdout where more work follows (`run` writes gate files and decides its exit code
/// after its table): a closed pipe only drops the table; other failures are errors.
pub(crate) fn write_stdout_then_go_on(text: &str) -> Result<()> {
    match write_stdout(text) {
        Err(Error::Output { source, .. }) if source.kind() == std::io::ErrorKind::BrokenPipe => {
            Ok(())
        }
        other => other,
    }
}

/// A file given twice stands as two runs (two rows of `tables`, a pair of `compare` or the two
/// halves of `plot --case`, equal by construction): said, even with --quiet, so that it is
/// never taken for two runs that agree (audits found it silent, `plot --case` the eleventh).
pub(crate) fn warn_twice(paths: &[PathBuf]) {
    let mut seen = std::collections::HashSet::new();
    for path in paths {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if !seen.insert(key) {
            say!(
                "warning: {} is given twice: it stands as two runs, equal by construction",
                path.display()
            );
        }
    }
}

/// Read report files for a command that takes many (`tables`, `claims`, `plot`), skipping the
/// sidecar manifests a glob picks up, with a note unless `quiet`.
pub(crate) fn load_reports(
    paths: &[PathBuf],
    quiet: bool,
) -> Result<Vec<crate::report::LoadedReport>> {
    warn_twice(paths);
    let (reports, skipped) = crate::report::LoadedReport::load_all(paths)?;
    warn_copies(&reports);
    for caution in reports.iter().flat_map(cautions) {
        say!("warning: {caution}");
    }
    if !quiet {
        for path in skipped {
            say!(
                "note: {} is a report's manifest, not a report; skipped",
                path.display()
            );
        }
    }
    Ok(reports)
}

/// What makes a report's figures other than one clean run's, said by every reader even with
/// --quiet (a nineteenth audit: `tables --quiet` hid the first, `compare` said none, and only
/// `html` the last two): a summary block its rows contradict, a row that contradicts itself
/// (`verify`'s row checks), a second look (`--rerun-failed`), a repeated run.
fn cautions(report: &crate::report::LoadedReport) -> Vec<String> {
    let mut out: Vec<String> = (report.disagreements().into_iter())
        .map(|w| format!("{w}; figures here come from the rows"))
        .collect();
    out.extend(
        (crate::analysis::verify::row_problems(report).into_iter())
            .map(|p| format!("{p}; the row is shown as written (`tenure-eval verify`)")),
    );
    let path = report.path.display();
    let manifest = report.manifest.as_ref();
    if let Some(rerun) = manifest.and_then(|m| m.rerun_failed) {
        out.push(format!(
            "{path} is a second look (--rerun-failed): {} cases sent again, {} taken from the \
             run before; its passes keep the second tries, not one clean run's",
            rerun.sent, rerun.taken
        ));
    }
    if let Some(repeats) = manifest
        .and_then(|m| m.repeats.as_ref())
        .filter(|r| r.n > 1)
    {
        out.push(format!(
            "{path} is a repeated run ({} repeats): its rows and figures are the last repeat's; \
             its manifest's repeats block holds each measure's spread ({} flaky case(s))",
            repeats.n,
            repeats.flaky.len()
        ));
    }
    out
}

/// A report and a copy of it under another path (the same bytes; a paper-layout report's
/// sidecar manifest is not compared, since `cp` of the report alone is the usual copy) stand
/// as two runs equal by construction: said, as a file given twice is.
pub(crate) fn warn_copies<'a>(reports: impl IntoIterator<Item = &'a crate::report::LoadedReport>) {
    let mut first: std::collections::HashMap<String, &std::path::Path> =
        std::collections::HashMap::new();
    for report in reports {
        let Ok(bytes) = std::fs::read(&report.path) else {
            continue;
        };
        let key = crate::io::sha256_hex(&bytes);
        match first.get(&key) {
            Some(original) if !crate::io::same_file(original, &report.path) => say!(
                "warning: {} holds the same bytes as {} (a copy?): side by side they are \
                 equal by construction",
                report.path.display(),
                original.display()
            ),
            Some(_) => {}
            None => {
                first.insert(key, &report.path);
            }
        }
    }
}

/// Pretty JSON of `value` as text (what `--format json` prints).
pub(crate) fn json_text(value: &impl serde::Serialize) -> String {
    let value = serde_json::to_value(value).unwrap_or_default();
    String::from_utf8_lossy(&crate::report::json::to_bytes(&value)).into_owned()
}

/// TREC runs made elsewhere (`--trec-run`), read against `suite` and scored on `measures`;
/// each says how many of the suite's queries it holds no line for.
pub(crate) fn load_trec_runs(
    paths: &[PathBuf],
    suite: &crate::suite::Suite,
    measures: &[crate::eval::rank::Measure],
) -> Result<Vec<crate::report::LoadedReport>> {
    use crate::report::read::trec_run::TrecRun;
    let mut runs = Vec::with_capacity(paths.len());
    for path in paths {
        let run = TrecRun::load(path, suite, measures)?;
        if !run.absent.is_empty() {
            say!(
                "note: {}: {} of the suite's {} queries have no line (the first: {}); each \
                 scores as an empty ranking, 0 on every measure, as with trec_eval -c",
                path.display(),
                run.absent.len(),
                run.report.rows.len(),
                run.absent[0]
            );
        }
        runs.push(run.report);
    }
    Ok(runs)
}
