//! The journal's flags of `run`, `static` and `session` (docs/journal.md): continue a run that
//! stopped, rerun its errored cases, record it, replay a recording; and what the terminal says
//! when a pass stopped.

use crate::job::{JobOutcome, JournalPlan};
use crate::render::junit;
use crate::run::journal::Continue;
use crate::Result;
use clap::Args;

/// What a run does with its journal (docs/journal.md).
#[derive(Debug, Args)]
pub(crate) struct JournalArgs {
    /// Continue the last run of the same settings that did not finish (stopped, killed,
    /// Ctrl-C) from its journal: the cases it finished are not sent again, the rest run (its
    /// errored ones included); a remote store is seeded afresh first.
    #[arg(long, help_heading = "Journal", conflicts_with_all = ["rerun_errored", "replay"])]
    pub resume: bool,
    /// Run again only the cases the last run of the same settings errored on (it finished);
    /// the others are taken from its journal.
    #[arg(long, help_heading = "Journal", conflicts_with = "replay")]
    pub rerun_errored: bool,
    /// Run again the cases (or turns) a finished run failed or errored on, against the same
    /// system; the passed ones are taken from its journal (a flaky system's second look).
    #[arg(long, help_heading = "Journal", conflicts_with_all = ["replay", "rerun_errored", "resume"])]
    pub rerun_failed: bool,
    /// Keep the run's journals (every search and what came back) in DIR instead of
    /// REPORTS/.journal/SUITE/: a recording that --replay DIR re-scores.
    #[arg(
        long,
        value_name = "DIR",
        help_heading = "Journal",
        conflicts_with = "replay"
    )]
    pub record: Option<std::path::PathBuf>,
    /// Re-score the recording in DIR (journals of this suite) without a system or a network:
    /// its backends' reports, with this command's --metrics and gates.
    #[arg(long, value_name = "DIR", help_heading = "Journal")]
    pub replay: Option<std::path::PathBuf>,
}

impl JournalArgs {
    /// The journal plan these flags ask for.
    pub(crate) fn plan(&self) -> JournalPlan {
        JournalPlan {
            mode: if self.resume {
                Continue::Resume
            } else if self.rerun_errored {
                Continue::RerunErrored
            } else if self.rerun_failed {
                Continue::RerunFailed
            } else {
                Continue::Fresh
            },
            dir: self.record.clone(),
        }
    }
}

/// A replay's backends are the recording's: every flag that would choose, configure or drive a
/// backend (the backend flags' groups, remote calls, the memory system, a label, a repeat, an
/// explanation) would be silently ignored, so each is refused, named (issue 45).
pub(crate) fn refuse_backends_in_replay() -> Result<()> {
    use crate::cli::backends::{ids, BackendFlags};
    use crate::cli::remote::{HttpArgs, RemoteArgs};
    let mut refused: Vec<String> = ["backend", "label", "explain", "top", "repeat", "shard"]
        .map(String::from)
        .into();
    refused.extend(ids::<BackendFlags>());
    refused.extend(ids::<RemoteArgs>());
    refused.extend(ids::<HttpArgs>());
    match crate::cli::given::first_given(
        &refused,
        "--replay re-scores the recording's own backends with their recorded settings",
    ) {
        Some(flag) => Err(crate::Error::Usage(format!(
            "--replay re-scores the recording's own backends with their recorded settings; \
             {flag} does not apply"
        ))),
        None => Ok(()),
    }
}

/// Say on stderr, for each pass that continued a journal, what it took from it and what it
/// sent: a resumed run's report reads as a whole run's, so the split is said where it is made.
/// `--resume` with nothing to take (no journal yet: a first attempt of a retried CI step) says
/// so too, for the flag was given and did nothing.
pub(crate) fn report_resumed(outcome: &JobOutcome, mode: crate::run::journal::Continue) {
    use crate::run::journal::Continue;
    for pass in &outcome.passes {
        let total = pass.report.rows.len();
        let unit = match pass.row.kind {
            crate::backend::Workload::Static => "cases",
            crate::backend::Workload::Session => "turns",
        };
        let what = format!("{} {}", pass.row.backend, pass.row.kind.label());
        match (pass.journal.as_ref(), pass.reused) {
            (Some(journal), 1..) => say!(
                "resumed {what}: {} of {total} {unit} taken from {}, {} sent to the system",
                pass.reused,
                journal.display(),
                total.saturating_sub(pass.reused)
            ),
            (journal, 0) if mode == Continue::Resume => say!(
                "--resume: {what} had no finished {unit} to take{}: all {total} sent to the \
                 system",
                journal.map_or(String::new(), |j| format!(" in {}", j.display()))
            ),
            _ => {}
        }
    }
}

/// Say on stderr where a stopped pass stopped, what its report holds, and how to go on.
pub(crate) fn report_stopped(outcome: &JobOutcome) {
    if let Some((pass, stop)) = outcome.stopped() {
        say!(
            "error: {} {} {}; its report, of the cases before, went to failed/",
            pass.row.backend,
            pass.row.kind.label(),
            junit::stopped_text(stop)
        );
        if let Some(journal) = &pass.journal {
            say!(
                "  {} keeps every finished case: run the same command with --resume to continue",
                journal.display()
            );
        }
    }
}
