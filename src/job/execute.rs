//! Carrying out a [`RunPlan`].

use super::RunPlan;
use crate::analysis::gates::{self, GateCheck};
use crate::backend::{BackendFactory, BackendInfo, Reader};
use crate::error::Result;
use crate::eval::qrels::Qrels;
use crate::eval::rank::Measure;
use crate::render::run_table::RunRow;
use crate::report::rank;
use crate::report::stream::StaticStream;
use crate::report::LoadedReport;
use crate::report::{file_name, json, write_report, Manifest, RunKind, Shape};
use crate::run::{run_sessions, run_static_each, Observer};
use crate::suite::Suite;
use std::path::{Path, PathBuf};

/// What one (backend, kind) pass produced.
#[derive(Debug)]
pub struct PassOutcome {
    /// Who the backend was.
    pub backend: BackendInfo,
    /// The row of the run table.
    pub row: RunRow,
    /// Files written (the report, and the paper layout's sidecar manifest).
    pub reports: Vec<PathBuf>,
    /// The report as written, read back from memory (what gates judge).
    pub report: LoadedReport,
    /// Cases or turns the backend failed on.
    pub errored: usize,
    /// What a remote backend did that a careful client would not accept (compat mode), with
    /// counts: for stderr.
    pub warnings: Vec<String>,
}

/// What a whole plan produced.
#[derive(Debug)]
pub struct JobOutcome {
    /// One per backend and kind, in plan order.
    pub passes: Vec<PassOutcome>,
    /// Gate results (empty without gates).
    pub checks: Vec<GateCheck>,
}

impl JobOutcome {
    /// Cases and turns the backends failed on, over every pass.
    pub fn errored(&self) -> usize {
        self.passes.iter().map(|p| p.errored).sum()
    }

    /// Did every gate hold?
    pub fn gates_passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }

    /// The process exit code this outcome calls for: 3 if the backend failed on any case or
    /// turn (whatever the gates say), else 1 if a gate failed, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.errored() > 0 {
            3
        } else if !self.gates_passed() {
            1
        } else {
            0
        }
    }
}

/// Prepare every backend (embedding what is missing, or failing before any work), run every
/// kind through each, write the reports, evaluate the gates.
pub fn execute(plan: &mut RunPlan, observer: &mut dyn Observer) -> Result<JobOutcome> {
    for backend in &mut plan.backends {
        observer.preparing(&plan.suite.name);
        backend.prepare(&plan.suite, &mut |done, total| {
            observer.embedding(done, total)
        })?;
    }
    let mut passes = Vec::new();
    for backend in &plan.backends {
        for &kind in &plan.kinds {
            passes.push(pass(
                &plan.suite,
                backend,
                kind,
                &plan.out_dir,
                plan.concurrency,
                &plan.measures,
                observer,
            )?);
        }
    }
    let reports: Vec<&LoadedReport> = passes.iter().map(|p| &p.report).collect();
    let checks = gates::evaluate(&reports, &plan.baselines, &plan.gates)?;
    Ok(JobOutcome { passes, checks })
}

/// One (backend, kind) pass: run (static cases `concurrency` at a time), write the report,
/// summarise.
pub fn pass(
    suite: &Suite,
    factory: &dyn BackendFactory,
    kind: RunKind,
    dir: &Path,
    concurrency: usize,
    measures: &[Measure],
    observer: &mut dyn Observer,
) -> Result<PassOutcome> {
    let shape = Shape::of(suite.profile);
    observer.pass_started(&format!("{} {}", suite.name, kind.label()));
    let qrels = Qrels::of(suite);
    // What each kind leaves: (files, report as loaded, summary, drift, backend, errored, stats).
    let (reports, loaded, summary, drift, backend, errored, stats) = match kind {
        RunKind::Static => {
            // Streamed (report::stream), but for an external system's, which is kept.
            let mut stream = StaticStream::new(dir, shape, &qrels, measures)?;
            let mut external = Vec::new();
            let mut run = run_static_each(suite, factory, observer, concurrency, &mut |b, r| {
                if b.reader == Reader::External {
                    external.push(r);
                    Ok(())
                } else {
                    stream.push(b, &r)
                }
            })?;
            observer.pass_finished();
            let path = dir.join(file_name(kind, suite.profile, &run.backend));
            let (reports, loaded, summary, errored) = if run.backend.reader == Reader::External {
                run.results = external;
                let report = json::static_report(&run, &Manifest::for_static(suite, &run), shape);
                let (reports, loaded) = write_in_memory(&path, report, &qrels, measures)?;
                (reports, loaded, run.summary(), run.errored())
            } else {
                let errored = stream.errored();
                let (reports, loaded, summary) = stream.finish(&path, &run, suite)?;
                (reports, loaded, summary, errored)
            };
            let stats = run.backend_stats;
            (reports, loaded, summary, None, run.backend, errored, stats)
        }
        RunKind::Session => {
            let run = run_sessions(suite, factory, observer)?;
            observer.pass_finished();
            let report = json::session_report(&run, &Manifest::for_sessions(suite, &run), shape);
            let drift = Some(run.mean_drift_scores());
            let path = dir.join(file_name(kind, suite.profile, &run.backend));
            let (reports, loaded) = write_in_memory(&path, report, &qrels, measures)?;
            let (summary, errored) = (run.summary(), run.errored());
            (
                reports,
                loaded,
                summary,
                drift,
                run.backend,
                errored,
                run.backend_stats,
            )
        }
    };
    let warnings = stats
        .as_ref()
        .and_then(|s| s["warnings"].as_array().cloned())
        .unwrap_or_default()
        .iter()
        .map(|w| format!("{} ({}x)", w["warning"].as_str().unwrap_or("?"), w["count"]))
        .collect();
    let row = RunRow {
        suite: suite.name.clone(),
        backend: backend.label.clone(),
        kind,
        summary,
        mean_drift: drift.map(|d| d.0),
        mean_precision_drift: drift.map(|d| d.1),
    };
    Ok(PassOutcome {
        backend,
        row,
        reports,
        report: loaded,
        errored,
        warnings,
    })
}

/// A report built in memory (sessions; an external system's static cases): rank metrics added,
/// written, and read back from memory.
fn write_in_memory(
    path: &Path,
    mut report: (serde_json::Value, Option<serde_json::Value>),
    qrels: &Qrels,
    measures: &[Measure],
) -> Result<(Vec<PathBuf>, LoadedReport)> {
    rank::annotate(&mut report.0, qrels, measures);
    let reports = write_report(path, &report)?;
    let loaded = LoadedReport::from_parts(path, &report.0, report.1)?;
    Ok((reports, loaded))
}
