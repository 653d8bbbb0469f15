//! Carrying out a [`RunPlan`].

pub use super::outcome::{JobOutcome, PassOutcome, INTERRUPTED};

use super::errors::{file_path, ErrorTally};
use super::health::{Answers, Health};
use super::journal;
use super::repeats;
use super::RunPlan;
use crate::analysis::gates;
use crate::backend::Workload;
use crate::backend::{BackendFactory, BackendInfo, Reader};
use crate::error::Result;
use crate::eval::qrels::Qrels;
use crate::eval::rank::Measure;
use crate::eval::summary::Summary;
use crate::render::run_table::RunRow;
use crate::report::write::stream::StaticStream;
use crate::report::LoadedReport;
use crate::report::{json, label, write_in_memory, Manifest, Shape};
use crate::run::journal::{Checkpoint, Stopped};
use crate::run::{run_sessions_journaled, run_static_journaled, Observer};
use crate::suite::Suite;
use std::path::{Path, PathBuf};

/// Prepare every backend (embedding what is missing, or failing before any work), run every
/// kind through each (or every recording of a replay), write the reports, evaluate the gates.
/// A pass that stops ends the job: the passes after it do not run.
pub fn execute(plan: &mut RunPlan, observer: &mut dyn Observer) -> Result<JobOutcome> {
    for backend in &mut plan.backends {
        observer.preparing(&plan.suite.label());
        let suite = match &plan.harness {
            Some(h) if backend.runs_harness_copy() => h,
            _ => &plan.suite,
        };
        backend.prepare(suite, &mut |done, total| observer.embedding(done, total))?;
    }
    let folder = plan.journal.folder(&plan.out_dir);
    let mut passes: Vec<PassOutcome> = Vec::new();
    for recorded in std::mem::take(&mut plan.replay) {
        let (backend, kind, label) = journal::replayed(&recorded);
        let options = PassOptions {
            concurrency: 1,
            measures: &plan.measures,
            max_errors: usize::MAX,
            label: label.as_deref(),
            config: plan.config.as_ref(),
        };
        let suites: Vec<&Suite> = std::iter::once(&plan.suite).chain(&plan.harness).collect();
        let suite = journal::suite_of(&recorded, &suites).unwrap_or(&plan.suite);
        let mut checkpoint = Checkpoint::replay(recorded);
        passes.push(pass_journaled(
            suite,
            &backend,
            kind,
            &plan.out_dir,
            &options,
            &mut checkpoint,
            observer,
        )?);
    }
    let options = PassOptions {
        concurrency: plan.concurrency,
        measures: &plan.measures,
        max_errors: plan.max_errors,
        label: plan.label.as_deref(),
        config: plan.config.as_ref(),
    };
    'plan: for backend in &plan.backends {
        for &kind in &plan.kinds {
            let suite = plan.suite_for(backend);
            let mut runs: Vec<PassOutcome> = Vec::new();
            // Each repeat a pass of its own on a fresh store, into the same files: the last
            // repeat's report and journal stay, with every repeat's spread added.
            for _ in 0..plan.repeat.max(1) {
                let mut checkpoint = journal::checkpoint(
                    plan.journal.mode,
                    &folder,
                    suite,
                    kind,
                    options.label,
                    plan.shard,
                );
                let outcome = pass_journaled(
                    suite,
                    backend,
                    kind,
                    &plan.out_dir,
                    &options,
                    &mut checkpoint,
                    observer,
                )?;
                let stopped = outcome.stopped.is_some();
                runs.push(outcome);
                if stopped {
                    break;
                }
            }
            let outcome = repeats::combine(runs)?;
            let stopped = outcome.stopped.is_some();
            passes.push(outcome);
            if stopped {
                break 'plan;
            }
        }
    }
    let reports: Vec<&LoadedReport> = passes.iter().map(|p| &p.report).collect();
    let checks = gates::evaluate(&reports, &plan.baselines, &plan.gates)?;
    Ok(JobOutcome { passes, checks })
}

/// How a pass runs.
#[derive(Debug, Clone, Copy)]
pub struct PassOptions<'a> {
    /// Static cases in flight at once.
    pub concurrency: usize,
    /// Rank-aware measures of the report's `rankMetrics` block.
    pub measures: &'a [Measure],
    /// Stop the pass after this many errored cases or turns (`--max-errors`).
    pub max_errors: usize,
    /// The run's label when the user gave one (`--label`; see `report::label`).
    pub label: Option<&'a str>,
    /// The config file the flags came from, for the manifest.
    pub config: Option<&'a crate::report::ConfigFile>,
}

/// One (backend, kind) pass without a journal: see [`pass_journaled`].
pub fn pass(
    suite: &Suite,
    factory: &dyn BackendFactory,
    kind: Workload,
    dir: &Path,
    options: &PassOptions<'_>,
    observer: &mut dyn Observer,
) -> Result<PassOutcome> {
    let mut none = Checkpoint::none();
    pass_journaled(suite, factory, kind, dir, options, &mut none, observer)
}

/// One (backend, kind) pass: run (static cases `concurrency` at a time, each written to the
/// journal of `checkpoint` as it finishes), write the report (beside the good one when cases
/// errored: `failed_path`), summarise. A lost store, more errors than `max_errors`, or Ctrl-C
/// stop the pass: its report then holds the cases before the stop, goes beside the good one,
/// and says where and why it stopped (`stopped`).
pub fn pass_journaled(
    suite: &Suite,
    factory: &dyn BackendFactory,
    kind: Workload,
    dir: &Path,
    options: &PassOptions<'_>,
    checkpoint: &mut Checkpoint,
    observer: &mut dyn Observer,
) -> Result<PassOutcome> {
    let mut tally = ErrorTally::new(options.max_errors);
    observer.pass_started(&format!("{} {}", suite.label(), kind.label()));
    let qrels = Qrels::of(suite);
    let mut context = PassContext {
        suite,
        dir,
        options,
        qrels: &qrels,
        tally: &mut tally,
        checkpoint,
    };
    let written = match kind {
        Workload::Static => static_pass(&mut context, factory, observer)?,
        Workload::Session => session_pass(&mut context, factory, observer)?,
    };
    let journal = checkpoint_path(context.checkpoint);
    let continues_finished = context.checkpoint.continues_finished();
    let Written {
        reports,
        loaded,
        summary,
        drift,
        backend,
        errored,
        stats,
        stopped,
        health,
        reused,
    } = written;
    let mut warnings: Vec<String> = stats
        .as_ref()
        .and_then(|s| s["warnings"].as_array().cloned())
        .unwrap_or_default()
        .iter()
        .map(|w| format!("{} ({}x)", w["warning"].as_str().unwrap_or("?"), w["count"]))
        .collect();
    warnings.extend(health.warnings);
    let has_precision = summary.mean_precision.is_some();
    let row = RunRow {
        suite: suite.label(),
        backend: label::run_label(&backend, options.label),
        kind,
        summary,
        mean_drift: drift.map(|d| d.0),
        // 1 − precision is undefined where no turn has a precision (nothing retrieved that a
        // precision counts): "–", not the best value 0.00. The reports keep upstream's field.
        mean_precision_drift: drift.map(|d| d.1).filter(|_| has_precision),
        rank: if suite.judged_by_qrels() {
            crate::render::run_table::RankMeans::of(&loaded)
        } else {
            Default::default()
        },
    };
    Ok(PassOutcome {
        backend,
        row,
        reports,
        errored,
        errors: tally.causes,
        warnings,
        stopped,
        journal,
        unhealthy: health.unhealthy,
        taken_whole: continues_finished && reused == loaded.rows.len(),
        reused,
        report: loaded,
    })
}

fn checkpoint_path(checkpoint: &Checkpoint) -> Option<PathBuf> {
    checkpoint.path().map(Path::to_path_buf)
}

/// What both kinds of pass read and keep.
struct PassContext<'a> {
    suite: &'a Suite,
    dir: &'a Path,
    options: &'a PassOptions<'a>,
    qrels: &'a Qrels,
    tally: &'a mut ErrorTally,
    checkpoint: &'a mut Checkpoint,
}

/// What a pass of either kind wrote and measured.
struct Written {
    /// Files written.
    reports: Vec<PathBuf>,
    /// The report as written, read back from memory.
    loaded: LoadedReport,
    /// Its summary block.
    summary: Summary,
    /// Mean drift (the paper's, PrecisionMemBench's), for sessions.
    drift: Option<(f64, f64)>,
    /// Who the backend was.
    backend: BackendInfo,
    /// Cases or turns the backend failed on.
    errored: usize,
    /// A remote backend's counters.
    stats: Option<serde_json::Value>,
    /// Where and why the pass stopped before its end.
    stopped: Option<Stopped>,
    /// What the answers and the client's counters say of the system.
    health: Health,
    /// Cases or turns taken from a journal instead of being sent.
    reused: usize,
}

/// The static cases: streamed to the report as they come (`report::stream`), but for an
/// external system's, which are kept and written at the end.
fn static_pass(
    pass: &mut PassContext<'_>,
    factory: &dyn BackendFactory,
    observer: &mut dyn Observer,
) -> Result<Written> {
    let (suite, options) = (pass.suite, pass.options);
    let shape = Shape::of(suite.profile);
    let mut stream = StaticStream::new(pass.dir, shape, pass.qrels, options.measures)?
        .labelled(options.label)
        .configured(options.config)
        .sharded(pass.checkpoint.shard());
    let mut external = Vec::new();
    let mut answers = Answers::default();
    let tally = &mut *pass.tally;
    let mut run = run_static_journaled(
        suite,
        factory,
        observer,
        options.concurrency,
        pass.checkpoint,
        &mut |b, r| {
            answers.see(&r.context);
            // The case that stops the run is in its report too.
            let seen = match &r.error {
                Some(e) => tally.see(&b.id, &r.case_id, e),
                None => Ok(()),
            };
            if b.reader == Reader::External {
                external.push(r);
            } else {
                stream.push(b, &r)?;
            }
            seen
        },
    )?;
    observer.pass_finished();
    let health = Health::of(&run.backend, &run.backend_stats, &answers);
    let failed = pass.tally.total() > 0 || run.stopped.is_some() || health.unhealthy.is_some();
    let path = file_path(
        pass.dir,
        Workload::Static,
        suite,
        &run.backend,
        failed,
        options.label,
    );
    let (reports, loaded, summary, errored) = if run.backend.reader == Reader::External {
        run.results = external;
        let manifest = Manifest::for_static(suite, &run)
            .labelled(options.label)
            .configured(options.config)
            .sharded(pass.checkpoint.shard())
            .unhealthy(health.unhealthy.clone());
        let report = json::static_report(&run, &manifest, shape);
        let (reports, loaded) = write_in_memory(&path, report, pass.qrels, options.measures)?;
        (reports, loaded, run.summary(), run.errored())
    } else {
        let errored = stream.errored();
        stream.unhealthy = health.unhealthy.clone();
        let (reports, loaded, summary) = stream.finish(&path, &run, suite)?;
        (reports, loaded, summary, errored)
    };
    Ok(Written {
        reports,
        loaded,
        summary,
        drift: None,
        backend: run.backend,
        errored,
        stats: run.backend_stats,
        stopped: run.stopped,
        health,
        reused: run.reused,
    })
}

/// The session cases: one store, retrieve then mutate; the report built in memory.
fn session_pass(
    pass: &mut PassContext<'_>,
    factory: &dyn BackendFactory,
    observer: &mut dyn Observer,
) -> Result<Written> {
    let (suite, options) = (pass.suite, pass.options);
    let tally = &mut *pass.tally;
    let run = run_sessions_journaled(
        suite,
        factory,
        observer,
        pass.checkpoint,
        &mut |b, t| match &t.error {
            Some(e) => tally.see(&b.id, &format!("{} turn {}", t.case_id, t.turn_index), e),
            None => Ok(()),
        },
    )?;
    observer.pass_finished();
    let mut answers = Answers::default();
    run.turns.iter().for_each(|t| answers.see(&t.context));
    let health = Health::of(&run.backend, &run.backend_stats, &answers);
    let manifest = Manifest::for_sessions(suite, &run)
        .labelled(options.label)
        .configured(options.config)
        .sharded(pass.checkpoint.shard())
        .unhealthy(health.unhealthy.clone());
    let report = json::session_report(&run, &manifest, Shape::of(suite.profile));
    let failed = pass.tally.total() > 0 || run.stopped.is_some() || health.unhealthy.is_some();
    let path = file_path(
        pass.dir,
        Workload::Session,
        suite,
        &run.backend,
        failed,
        options.label,
    );
    let (reports, loaded) = write_in_memory(&path, report, pass.qrels, options.measures)?;
    Ok(Written {
        reports,
        loaded,
        summary: run.summary(),
        drift: run.mean_drift_scores(),
        errored: run.errored(),
        backend: run.backend,
        stats: run.backend_stats,
        stopped: run.stopped,
        health,
        reused: run.reused,
    })
}
