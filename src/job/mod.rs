//! A job: what a `run`, `static`, `session` or `models` command asks for, as a plan object
//! ([`RunPlan`], built from flags by the CLI), and carrying it out ([`execute`]): prepare each
//! backend, run each kind, write each report atomically, evaluate the gates on the reports in
//! memory. The top of the library: it drives `run` and writes through `report`.

mod execute;
pub mod scale;
pub mod scale_export;

pub use execute::{execute, pass, JobOutcome, PassOutcome};

use crate::analysis::gates::Gates;
use crate::backend::BackendConfig;
use crate::error::{Error, Result};
use crate::report::LoadedReport;
use crate::report::RunKind;
use crate::suite::Suite;
use std::path::PathBuf;

/// Everything a run needs, checked before any work.
#[derive(Debug)]
pub struct RunPlan {
    /// The suite.
    pub suite: Suite,
    /// Backends in order (cosine once per model).
    pub backends: Vec<BackendConfig>,
    /// Static, session, or both, in that order.
    pub kinds: Vec<RunKind>,
    /// Report folder of this suite (`reports/<suite>`).
    pub out_dir: PathBuf,
    /// CI gates.
    pub gates: Gates,
    /// Baseline reports of the gates.
    pub baselines: Vec<LoadedReport>,
    /// Notes for the user about how the plan was read (printed unless quiet).
    pub notes: Vec<String>,
    /// Static cases in flight at once (1: one after another, as upstream).
    pub concurrency: usize,
    /// Rank-aware measures written in each report's `rankMetrics` block.
    pub measures: Vec<crate::eval::rank::Measure>,
}

impl RunPlan {
    /// A plan for `kinds` of `suite` through `backends`, reports under `out/<suite>`. A suite
    /// without session cases runs the static half of `run` (with a note) and cannot run
    /// `session` alone; gates that need a baseline need one.
    pub fn new(
        suite: Suite,
        backends: Vec<BackendConfig>,
        kinds: &[RunKind],
        out: &std::path::Path,
    ) -> Result<RunPlan> {
        let mut notes = Vec::new();
        let kinds: Vec<RunKind> = if suite.sessions.is_empty() && kinds.contains(&RunKind::Session)
        {
            if kinds.len() == 1 {
                return Err(Error::Usage(format!(
                    "suite {} has no session cases (give --sessions FILE)",
                    suite.name
                )));
            }
            notes.push(format!(
                "suite {} has no session cases; running the static cases only",
                suite.name
            ));
            vec![RunKind::Static]
        } else {
            kinds.to_vec()
        };
        Ok(RunPlan {
            out_dir: out.join(&suite.name),
            suite,
            backends,
            kinds,
            gates: Gates::default(),
            baselines: Vec::new(),
            notes,
            concurrency: 1,
            measures: crate::eval::rank::parse_measures(crate::eval::rank::DEFAULT_MEASURES)
                .map_err(Error::Usage)?,
        })
    }

    /// With CI gates, judged against `baselines`.
    pub fn with_gates(mut self, gates: Gates, baselines: Vec<LoadedReport>) -> Result<RunPlan> {
        if gates.need_baseline() && baselines.is_empty() {
            return Err(Error::Usage(
                "--fail-on new-failures and --max-precision-drop need --baseline FILE".into(),
            ));
        }
        if gates.min_active_passes.is_some() && !self.kinds.contains(&RunKind::Static) {
            return Err(Error::Usage(
                "--min-active-passes judges static reports, and this command runs none (use \
                 `run` or `static`)"
                    .into(),
            ));
        }
        self.gates = gates;
        self.baselines = baselines;
        Ok(self)
    }
}
