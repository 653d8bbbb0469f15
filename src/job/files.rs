//! The files a finished job writes beside its reports and journals, each when asked for
//! ([`Outputs`]): JUnit XML (one test case per case or turn, and one per gate), the markdown step
//! summary (the run table, the gates, what went wrong), the run history (`--history`) and the
//! page (`--html`). Written atomically, after every pass, by [`write_outputs`], which `run` and
//! `merge` call as a library user does: the files are the command line's. A job that fails
//! before its first report writes JUnit, the summary and the page too, saying why
//! ([`write_not_run`]).

use super::{JobOutcome, RunPlan};
use crate::analysis::compare::significance::TestSettings;
use crate::analysis::gates::FailOn;
use crate::analysis::history;
use crate::error::{Error, Result};
use crate::io::write_atomic;
use crate::render::{html, junit, run_table};
use crate::report::LoadedReport;
use std::path::{Path, PathBuf};

/// What a finished job writes beside its reports and journals (`run --junit --summary-md
/// --history --commit --html`); nothing by default.
#[derive(Debug, Clone, Default)]
pub struct Outputs {
    /// JUnit XML.
    pub junit: Option<PathBuf>,
    /// The markdown step summary.
    pub summary: Option<PathBuf>,
    /// The history folder: each pass that ran to its end with every case measured is appended
    /// to its `history.jsonl`.
    pub history: Option<PathBuf>,
    /// The memory system's commit, recorded with each pass in the history (refused without
    /// one).
    pub commit: Option<String>,
    /// The page of the run's reports (with the history, when kept).
    pub page: Option<PathBuf>,
}

impl Outputs {
    /// Refuse, before any work, a file `outputs` would write over another it writes, over one
    /// the run reads (the suite's files, a baseline), or where the run writes its reports (a
    /// `.json` in the suite's report folder): found by an audit, `--junit` named the same as
    /// `--html` lost the JUnit, `--junit` over a report replaced it, and `--html` over the
    /// cases file replaced that, each with exit 0.
    pub fn check_paths(&self, plan: &RunPlan) -> Result<()> {
        let named = [
            ("--junit", &self.junit),
            ("--summary-md", &self.summary),
            ("--html", &self.page),
        ];
        let named: Vec<(&str, &PathBuf)> = named
            .iter()
            .filter_map(|(flag, p)| p.as_ref().map(|p| (*flag, p)))
            .collect();
        for (i, (flag, path)) in named.iter().enumerate() {
            if let Some((other, _)) = named[..i]
                .iter()
                .find(|(_, p)| crate::io::same_file(p, path))
            {
                return Err(Error::Usage(format!(
                    "{flag} {}: the file {other} writes too; give each its own",
                    path.display()
                )));
            }
            if among_reports(plan, path) {
                return Err(Error::Usage(format!(
                    "{flag} {}: in {}, where this run writes its reports; write elsewhere",
                    path.display(),
                    plan.out_dir.display()
                )));
            }
            let inputs = (plan.suite.inputs.iter())
                .map(|f| {
                    (
                        f.role,
                        f.read_from
                            .clone()
                            .unwrap_or_else(|| PathBuf::from(&f.path)),
                    )
                })
                .chain(plan.baselines.iter().map(|b| ("baseline", b.path.clone())));
            for (role, input) in inputs {
                if crate::io::same_file(&input, path) {
                    return Err(Error::Usage(format!(
                        "{flag} {}: the run's {role} file, which it reads; write elsewhere",
                        path.display()
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Whether `path` would be written where this run writes its reports and journals: a `.json`
/// or `.jsonl` file in the suite's report folder or its `failed/`.
fn among_reports(plan: &RunPlan, path: &Path) -> bool {
    let folder = |d: &Path| std::fs::canonicalize(d).unwrap_or_else(|_| d.to_path_buf());
    let parent = path.parent().filter(|d| !d.as_os_str().is_empty());
    let parent = folder(parent.unwrap_or(Path::new(".")));
    let json = path
        .extension()
        .is_some_and(|e| e == "json" || e == "jsonl");
    json && (parent == folder(&plan.out_dir) || parent == folder(&plan.out_dir.join("failed")))
}

/// A file [`write_outputs`] wrote besides JUnit and the summary, told as it is written (so that
/// a history appended is said even when the page after it fails).
#[derive(Debug)]
pub enum Wrote {
    /// Passes appended to a history.
    History {
        /// The history file (`DIR/history.jsonl`).
        path: PathBuf,
        /// How many passes were appended (those that ran to their end, every case measured).
        appended: usize,
        /// How many were not: stopped, with cases the backend failed on, or unhealthy.
        left: usize,
        /// How many were in the history already: taken whole from a finished journal
        /// (measured when it finished), or the same run appended before.
        again: usize,
    },
    /// A page written.
    Page {
        /// The page's file.
        path: PathBuf,
        /// How many reports it shows.
        reports: usize,
        /// Its size in bytes.
        bytes: usize,
    },
}

/// Write every file `outputs` asks for, from `plan`'s finished `outcome`: JUnit and the
/// summary (new failures marked against the plan's baselines when a gate fails on them), the
/// history, then the page, which shows the history just appended; `wrote` hears of the last
/// two as each is written. A commit without a history to record it in is a usage error.
pub fn write_outputs(
    plan: &RunPlan,
    outcome: &JobOutcome,
    outputs: &Outputs,
    wrote: &mut dyn FnMut(Wrote),
) -> Result<()> {
    if outputs.commit.is_some() && outputs.history.is_none() {
        return Err(Error::Usage(
            "a commit is recorded in the history: name the history folder too".into(),
        ));
    }
    let against_baseline = plan.gates.fail_on == Some(FailOn::NewFailures);
    write_gate_files(
        outcome,
        outputs.junit.as_deref(),
        outputs.summary.as_deref(),
        against_baseline.then_some(&plan.baselines[..]),
    )?;
    let mut kept = Vec::new();
    if let Some(dir) = &outputs.history {
        // A history is a series of measurements: a pass that stopped, whose backend failed on
        // cases (their rows are no measurement, yet would read as failures) or whose answers
        // make no good run (compat mode), is left out.
        // A pass taken whole from a finished journal was measured when that run finished: a
        // resume of it appended a copy, which hid a regression flagged before (a twelfth audit).
        let (again, passes): (Vec<_>, Vec<_>) =
            (outcome.passes.iter()).partition(|p| p.taken_whole);
        let (whole, left): (Vec<_>, Vec<_>) = passes.into_iter().partition(|p| p.is_good());
        let entries: Vec<history::Entry> = (whole.iter())
            .map(|p| history::Entry::of(&p.report, outputs.commit.as_deref()))
            .collect();
        let (path, held, history) = history::append(dir, &entries)?;
        wrote(Wrote::History {
            path,
            appended: entries.len() - held,
            left: left.len(),
            again: again.len() + held,
        });
        kept = history;
    }
    if let Some(path) = &outputs.page {
        let files: Vec<PathBuf> = (outcome.passes.iter())
            .flat_map(|p| p.reports.clone())
            .collect();
        let (reports, _) = LoadedReport::load_all(&files)?;
        let mut options = page_options();
        options.history = kept;
        let bytes = html::write(path, &reports, &plan.suite, &options)?;
        wrote(Wrote::Page {
            path: path.clone(),
            reports: reports.len(),
            bytes,
        });
    }
    Ok(())
}

/// What a job that failed before any report (a system that never answered: `execute`'s error
/// with exit code 3) writes for CI: JUnit with the run in error, the step summary and the page
/// saying what happened, each when `outputs` asks for it; no history (nothing ran to its end).
pub fn write_not_run(error: &Error, outputs: &Outputs) -> Result<()> {
    // The files a finished job would have written are then never missing from CI's artifacts.
    let text = error.to_string();
    if let Some(path) = &outputs.junit {
        write_atomic(path, junit::junit_not_run(&text)?.as_bytes())?;
    }
    if let Some(path) = &outputs.summary {
        write_atomic(path, junit::summary_not_run(&text).as_bytes())?;
    }
    if let Some(path) = &outputs.page {
        write_atomic(path, html::not_run(&text).as_bytes())?;
    }
    Ok(())
}

/// The page's settings for a run (`compare`'s defaults: α 0.05, 100,000 resamples, its seed).
fn page_options() -> html::Options {
    html::Options {
        title: None,
        settings: TestSettings {
            alpha: 0.05,
            resamples: 100_000,
            seed: 20_260_511,
        },
        measures: None,
        history: Vec::new(),
    }
}

/// Write JUnit to `junit` and the step summary to `summary`, each when given; `baselines`
/// marks new failures in JUnit when the gate fails on them.
pub(crate) fn write_gate_files(
    outcome: &JobOutcome,
    junit: Option<&Path>,
    summary: Option<&Path>,
    baselines: Option<&[LoadedReport]>,
) -> Result<()> {
    let reports: Vec<&LoadedReport> = outcome.passes.iter().map(|p| &p.report).collect();
    if let Some(path) = junit {
        write_atomic(
            path,
            junit::junit(&reports, &outcome.checks, baselines)?.as_bytes(),
        )?;
    }
    if let Some(path) = summary {
        let rows: Vec<_> = outcome.passes.iter().map(|p| p.row.clone()).collect();
        let text = junit::summary_markdown(
            &run_table::run_table(&rows),
            &reports,
            &outcome.checks,
            &outcome.summary_notes(),
            baselines,
        );
        write_atomic(path, text.as_bytes())?;
    }
    Ok(())
}
