//! What a job produced: a pass's outcome and the whole plan's, and the exit code it calls for.

use super::errors::Cause;
use crate::analysis::gates::GateCheck;
use crate::backend::BackendInfo;
use crate::error::exit;
use crate::render::run_table::RunRow;
use crate::report::LoadedReport;
use crate::run::journal::Stopped;
use std::path::PathBuf;

/// Why a pass stopped when Ctrl-C stopped it.
pub const INTERRUPTED: &str = "interrupted";

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
    /// Their causes, each once (count, first case, message).
    pub errors: Vec<Cause>,
    /// What a remote backend did that a careful client would not accept (compat mode), with
    /// counts: for stderr.
    pub warnings: Vec<String>,
    /// The pass stopped before its end (its report, of the cases before, is a failed one).
    pub stopped: Option<Stopped>,
    /// Cases or turns taken from a journal (`--resume`, `--replay`) instead of being sent.
    pub reused: usize,
    /// Every case taken from a journal that had reached its end (a resume of a finished run):
    /// nothing measured anew, so no history appends it again.
    pub taken_whole: bool,
    /// Its journal, when it kept one.
    pub journal: Option<PathBuf>,
    /// Why the system's answers do not make a good run though no case errored (compat mode,
    /// where failed calls read as no results: `job::health`); its report is a failed one.
    pub unhealthy: Option<String>,
}

impl PassOutcome {
    /// A measurement of every case: it ran to its end, the backend failed on none, and its
    /// answers make a good run (compat mode's failed calls read as no results do not). What a
    /// history appends.
    pub fn is_good(&self) -> bool {
        self.stopped.is_none() && self.errored == 0 && self.unhealthy.is_none()
    }
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
    /// Every pass's warnings, each prefixed by its run's label and kind.
    pub(crate) fn warnings(&self) -> Vec<String> {
        self.passes
            .iter()
            .flat_map(|p| {
                p.warnings
                    .iter()
                    .map(move |w| format!("{} {}: {w}", p.row.backend, p.row.kind.label()))
            })
            .collect()
    }

    /// What a step summary says went wrong: each pass that is not a good run, then every
    /// warning.
    pub(crate) fn summary_notes(&self) -> Vec<String> {
        let unhealthy = self.passes.iter().filter_map(|p| {
            let why = p.unhealthy.as_ref()?;
            Some(format!(
                "{} {}: **not a good run**: {why}",
                p.row.backend,
                p.row.kind.label()
            ))
        });
        unhealthy.chain(self.warnings()).collect()
    }

    /// Cases and turns the backends failed on, over every pass.
    pub(crate) fn errored(&self) -> usize {
        self.passes.iter().map(|p| p.errored).sum()
    }

    /// Did every gate hold?
    pub(crate) fn gates_passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }

    /// The pass that stopped the job (the last one run), with why.
    pub(crate) fn stopped(&self) -> Option<(&PassOutcome, &Stopped)> {
        self.passes
            .iter()
            .find_map(|p| p.stopped.as_ref().map(|s| (p, s)))
    }

    /// The process exit code this outcome calls for: 130 if Ctrl-C stopped it, 3 if a pass
    /// stopped or the backend failed on any case or turn (whatever the gates say), else 1 if
    /// a gate failed, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.stopped().is_some_and(|(_, s)| s.reason == INTERRUPTED) {
            exit::INTERRUPTED as u8
        } else if self.stopped().is_some()
            || self.errored() > 0
            || self.passes.iter().any(|p| p.unhealthy.is_some())
        {
            exit::RUNTIME
        } else if !self.gates_passed() {
            exit::FAILED_CHECK
        } else {
            exit::OK
        }
    }
}
