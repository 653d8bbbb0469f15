//! A job: what a `run`, `static`, `session` or `models` command asks for, as a plan object
//! ([`RunPlan`], built from flags by the CLI), and carrying it out ([`execute`]): prepare each
//! backend, run each kind, write each report atomically, evaluate the gates on the reports in
//! memory. The top of the library: it drives `run` and writes through `report`.

pub mod embed;
pub mod errors;
mod execute;
pub mod explain;
pub mod files;
mod health;
pub(crate) mod journal;
pub(crate) mod merge;
mod outcome;
mod repeats;
pub mod show;

pub use execute::{
    execute, pass, pass_journaled, JobOutcome, PassOptions, PassOutcome, INTERRUPTED,
};
pub(crate) use journal::JournalPlan;

use crate::analysis::gates::Gates;
use crate::backend::BackendConfig;
use crate::backend::Workload;
use crate::error::{Error, Result};
use crate::report::LoadedReport;
use crate::suite::Suite;
use std::path::PathBuf;

/// Everything a run needs, checked before any work.
#[derive(Debug)]
pub struct RunPlan {
    /// The suite.
    pub suite: Suite,
    /// PrecisionMemBench's own copy of the suite, loaded when a backend stands in for its
    /// harness ([`BackendConfig::runs_harness_copy`]) and the suite has one: those backends
    /// run it, the others `suite`.
    pub harness: Option<Suite>,
    /// Backends in order (cosine once per model).
    pub backends: Vec<BackendConfig>,
    /// Static, session, or both, in that order.
    pub kinds: Vec<Workload>,
    /// Report folder of this suite (`reports/<suite>`).
    pub out_dir: PathBuf,
    /// CI gates.
    pub gates: Gates,
    /// Baseline reports of the gates.
    pub baselines: Vec<LoadedReport>,
    /// Notes for the user about how the plan was read (printed unless quiet).
    pub notes: Vec<String>,
    /// What makes the plan's numbers other than a reader would expect (printed even when
    /// quiet): alias-BM25 on items that carry no names.
    pub warnings: Vec<String>,
    /// Static cases in flight at once (1: one after another, as upstream).
    pub concurrency: usize,
    /// Rank-aware measures written in each report's `rankMetrics` block.
    pub measures: Vec<crate::eval::rank::Measure>,
    /// A pass stops after this many errored cases or turns (`--max-errors`).
    pub max_errors: usize,
    /// The run's label, when the user gave one (`--label`; see `report::label`).
    pub label: Option<String>,
    /// Where journals go and what is done with the ones there.
    pub journal: JournalPlan,
    /// Recordings to re-score instead of running `backends` (`--replay`).
    pub replay: Vec<crate::run::journal::Recorded>,
    /// Runs of each pass, each on a fresh store (`--repeat`).
    pub repeat: usize,
    /// The config file the flags came from (`tenure-eval.toml`), for the manifests.
    pub config: Option<crate::report::ConfigFile>,
    /// The shard this run is (`--shard K/N`): its cases only, merged later (`merge`).
    pub shard: Option<crate::shard::Shard>,
}

/// What a run or a server of alias-BM25 says over `suite`'s items when they have no aliases.
pub(crate) fn names_only_warning(suite: &Suite) -> String {
    format!(
        "alias-BM25 (--backend bm25) matches a query word only against a whole name or alias, \
         and {}'s items have none: it can retrieve almost nothing. Plain BM25 over the items' \
         words is --backend bm25-text",
        suite.label()
    )
}

/// The context scorers' clock over a suite whose beliefs are all of one time (no `created_at`,
/// or one for all: a TREC collection's documents are all of time 0): every seed
/// belief is as new as the newest, so a static pass of `recent` ranks in corpus order (refused,
/// when the plan has no session pass: nothing is measured) and composite's recency, primacy
/// and currency are constant (said: it ranks as its similarity does). Both came out as
/// figures about recency in silence (a sixteenth audit, on a TREC collection).
fn clockless(
    suite: &Suite,
    backends: &[BackendConfig],
    kinds: &[Workload],
) -> Result<Option<String>> {
    let first = suite.corpus.first().map(|b| b.created_at);
    if !kinds.contains(&Workload::Static)
        || suite.corpus.iter().any(|b| Some(b.created_at) != first)
        || !backends.iter().any(BackendConfig::reads_clock)
    {
        return Ok(None);
    }
    let recent = backends
        .iter()
        .any(|b| matches!(b, BackendConfig::Recent(_)));
    if recent && !kinds.contains(&Workload::Session) {
        return Err(Error::Usage(format!(
            "--backend recent ranks by the beliefs' created_at, and {}'s items are all of one \
             time (none, or the same): every belief is as new as the newest, and its ranking \
             would be corpus order",
            suite.label()
        )));
    }
    Ok(Some(format!(
        "the context scorers' clock reads created_at, and {}'s items are all of one time \
         (none, or the same): in static cases every belief is as new as the newest, so recency, \
         primacy and currency add nothing (composite ranks as its similarity does{})",
        suite.label(),
        if recent {
            "; recent, in corpus order"
        } else {
            ""
        }
    )))
}

impl RunPlan {
    /// A plan for `kinds` of `suite` through `backends`, reports under `out/<suite>`. A suite
    /// without session cases runs the static half of `run` (with a note) and cannot run
    /// `session` alone; gates that need a baseline need one.
    pub fn new(
        suite: Suite,
        backends: Vec<BackendConfig>,
        kinds: &[Workload],
        out: &std::path::Path,
    ) -> Result<RunPlan> {
        let mut notes = Vec::new();
        let kinds: Vec<Workload> =
            if suite.sessions.is_empty() && kinds.contains(&Workload::Session) {
                if kinds.len() == 1 {
                    return Err(Error::Usage(format!(
                        "suite {} has no session cases (give --sessions FILE)",
                        suite.label()
                    )));
                }
                notes.push(format!(
                    "suite {} has no session cases; running the static cases only",
                    suite.label()
                ));
                vec![Workload::Static]
            } else {
                kinds.to_vec()
            };
        // Likewise a suite (or a selection) with no static case: `static` alone would write a
        // report of 0 cases and pass every gate.
        let kinds: Vec<Workload> = if suite.cases.is_empty() && kinds.contains(&Workload::Static) {
            if kinds.len() == 1 {
                return Err(Error::Usage(format!(
                    "suite {} has no static cases{}",
                    suite.label(),
                    if suite.selection.is_some() {
                        " in the selection (--case, --category)"
                    } else {
                        ""
                    }
                )));
            }
            notes.push(format!(
                "suite {} has no static cases; running the session cases only",
                suite.label()
            ));
            vec![Workload::Session]
        } else {
            kinds
        };
        let harness = if backends.iter().any(BackendConfig::runs_harness_copy) {
            suite.harness_copy()?
        } else {
            None
        };
        if let Some(h) = &harness {
            let mut note = format!(
                "suite {}: the http backend runs PrecisionMemBench's own copy ({}), the files its \
                 harness sends",
                h.name,
                h.copy.unwrap_or("?")
            );
            if !backends.iter().all(BackendConfig::runs_harness_copy) {
                note.push_str(&format!(
                    "; the other backends run {}",
                    suite.copy.unwrap_or("the suite as given")
                ));
            }
            notes.push(note);
        }
        // A suite with measures of its own (LoCoMo: R@1..R@50, nDCG@10, RR) reports them unless
        // the command says otherwise.
        let measures = crate::eval::rank::parse_measures(
            suite
                .default_measures
                .unwrap_or(crate::eval::rank::DEFAULT_MEASURES),
        )
        .map_err(Error::Usage)?;
        let mut warnings =
            if !suite.has_aliases() && backends.iter().any(BackendConfig::matches_names_only) {
                vec![names_only_warning(&suite)]
            } else {
                Vec::new()
            };
        if let Some(w) = clockless(&suite, &backends, &kinds)? {
            warnings.push(w);
        }
        // A custom suite's load warnings (no belief of `test-user` while cases search as it, an
        // assertion upstream ignores, ...) were said by `validate` only; a run says them too,
        // as the guide promises (an audit found a corpus of another user's scoring 0 in
        // silence). Built-in suites' and benchmarks' are documented, and said by `validate`.
        if suite.copy.is_none() && suite.released.is_none() {
            warnings.extend(suite.warnings.iter().cloned());
        }
        Ok(RunPlan {
            warnings,
            out_dir: out.join(suite.label()),
            harness,
            suite,
            backends,
            kinds,
            gates: Gates::default(),
            baselines: Vec::new(),
            notes,
            concurrency: 1,
            max_errors: errors::DEFAULT_MAX_ERRORS,
            label: None,
            measures,
            journal: JournalPlan::default(),
            replay: Vec::new(),
            repeat: 1,
            config: None,
            shard: None,
        })
    }

    /// The suite `backend` runs: PrecisionMemBench's copy for a stand-in for its harness.
    pub(crate) fn suite_for(&self, backend: &BackendConfig) -> &Suite {
        match &self.harness {
            Some(h) if backend.runs_harness_copy() => h,
            _ => &self.suite,
        }
    }

    /// Named `label` (`--label`): one backend only, since the label names its files.
    pub(crate) fn with_label(mut self, label: Option<String>) -> Result<RunPlan> {
        if let Some(label) = &label {
            crate::report::label::check(label)?;
            if self.backends.len() > 1 {
                return Err(Error::Usage(format!(
                    "--label {label:?} names one run, and {} backends are chosen (a model \
                     counts once each): run them one at a time, each with its own --label",
                    self.backends.len()
                )));
            }
        }
        self.label = label;
        Ok(self)
    }

    /// With CI gates, judged against `baselines`.
    pub(crate) fn with_gates(
        mut self,
        gates: Gates,
        baselines: Vec<LoadedReport>,
    ) -> Result<RunPlan> {
        if gates.need_baseline() && baselines.is_empty() && !gates.first_run {
            return Err(Error::Usage(
                "--fail-on new-failures and --max-precision-drop need --baseline FILE".into(),
            ));
        }
        if gates.min_active_passes.is_some() && !self.kinds.contains(&Workload::Static) {
            return Err(Error::Usage(
                "--min-active-passes judges static reports, and this command runs none (use \
                 `run` or `static`)"
                    .into(),
            ));
        }
        // A baseline of a kind this command writes no report of would judge nothing: found
        // now, before any work, not after the run.
        let kinds: Vec<&str> = self.kinds.iter().map(|k| k.label()).collect();
        if let Some(b) = baselines.iter().find(|b| !self.kinds.contains(&b.kind)) {
            return Err(Error::Usage(format!(
                "--baseline {} is a {} report, and this command writes {} reports only",
                b.path.display(),
                b.kind.label(),
                kinds.join(" and ")
            )));
        }
        // The gates pair cases by id, as `compare` does: a baseline of another suite judged a
        // run in silence where `compare` refuses the pair (a thirteenth audit).
        let whole = crate::suite::select::whole_label;
        let ours = self.suite.label();
        if let Some((b, theirs)) = baselines.iter().find_map(|b| {
            b.suite()
                .filter(|s| whole(s) != whole(&ours))
                .map(|s| (b, s))
        }) {
            return Err(Error::input(
                &b.path,
                "$.manifest.suite",
                format!(
                    "the baseline is a run of suite {theirs}, and this run is of {ours}: the \
                     gates pair cases by id; give a baseline of {ours}"
                ),
            ));
        }
        self.gates = gates;
        self.baselines = baselines;
        Ok(self)
    }

    /// Re-score the recordings in `dir` instead of running backends (`--replay DIR`): they are
    /// read against the suite and its harness copy (a recording of either), for this plan's
    /// kinds.
    pub(crate) fn with_replay(mut self, dir: &std::path::Path) -> Result<RunPlan> {
        self.harness = self.suite.harness_copy()?;
        let suites: Vec<&Suite> = std::iter::once(&self.suite).chain(&self.harness).collect();
        self.replay = journal::recording(dir, &suites, &self.kinds)?;
        Ok(self)
    }
}
