//! The embedding-model comparison (`tenure-eval models`): each model under cosine beside a
//! lexical reference row and their fusions, compared the way the field compares retrieval models
//! (MTEB ranks by nDCG@10) on rank measures, and each row tested against a chance row (a random
//! vector per text) by the paired randomisation test `compare` uses, Holm-adjusted over the
//! table's pairs. The command line chooses the rows; this plans the chance rows, runs every row
//! through the job's plan, and makes the table's rows and their test.

mod chance;
pub(crate) mod shard;

use crate::analysis::compare::significance::{runs_table, RunsTable, TestSettings};
use crate::backend::cosine::CosineConfig;
use crate::backend::{BackendConfig, Workload};
use crate::eval::rank::Measure;
use crate::job::{execute, JobOutcome, RunPlan};
use crate::render::run_table::ModelRow;
use crate::run::Observer;
use crate::shard::Shard;
use crate::suite::Suite;
use crate::Result;
use std::path::PathBuf;

pub(crate) use chance::note as chance_note;

/// What `models` compares.
pub(crate) struct ModelsPlan {
    /// The suite, its static cases and sessions both run.
    pub suite: Suite,
    /// The rows, in table order: the reference, then each model and its fusions.
    pub backends: Vec<BackendConfig>,
    /// The chance rows' model settings (its `model` becomes `random`) and the cosine floors
    /// swept; `None`: no chance rows and no test.
    pub chance: Option<(CosineConfig, Vec<f32>)>,
    /// The rank measures; the test reads the first.
    pub measures: Vec<Measure>,
    /// Run only this shard of the cases.
    pub shard: Option<Shard>,
    /// Where the reports go.
    pub out: PathBuf,
    /// The test against chance's settings.
    pub settings: TestSettings,
}

/// The comparison as run: a row per backend (chance rows last), the runs table the test read,
/// and the job's outcome (its reports, its errors).
pub(crate) struct Compared {
    /// The table's rows, each with its measures and its test against chance.
    pub rows: Vec<ModelRow>,
    /// Every row's static run, paired and tested.
    pub table: RunsTable,
    /// The job: its passes (static then session per row) and reports.
    pub outcome: JobOutcome,
}

/// The rows run, not yet tested: the job's outcome, and what the test needs.
pub(crate) struct Ran {
    /// The job: its passes (static then session per row) and reports.
    pub outcome: JobOutcome,
    chance_of: Vec<Option<usize>>,
    measures: Vec<Measure>,
    per_row: usize,
    settings: TestSettings,
}

/// Run every row of `plan` and its chance rows.
///
/// Chance is run with no floor and at each floor swept: a floor drops chance's hits as it drops
/// a model's, so a floored cosine row is tested against chance floored alike, and every other
/// row against chance without one.
pub(crate) fn run(plan: ModelsPlan, observer: &mut dyn Observer) -> Result<Ran> {
    let mut backends = plan.backends;
    let mut chance_of: Vec<Option<usize>> = vec![None; backends.len()];
    if let Some((mut chance, floors)) = plan.chance {
        chance.model = "random".into();
        let swept: Vec<Option<f32>> = std::iter::once(None)
            .chain(floors.iter().map(|f| Some(*f)))
            .collect();
        let floor_of = |b: &BackendConfig| match b {
            BackendConfig::Cosine(c) => c.floor,
            _ => None,
        };
        let first = backends.len();
        for floor in &swept {
            let mut c = chance.clone();
            c.floor = *floor;
            backends.push(BackendConfig::cosine(c));
        }
        for (i, b) in backends[..first].iter().enumerate() {
            chance_of[i] = swept
                .iter()
                .position(|f| *f == floor_of(b))
                .map(|k| first + k);
        }
        chance_of.extend(std::iter::repeat_n(None, swept.len()));
    }
    let kinds = [Workload::Static, Workload::Session];
    let mut job = RunPlan::new(plan.suite, backends, &kinds, &plan.out)?;
    job.measures = plan.measures;
    job.shard = plan.shard;
    let outcome = execute(&mut job, observer)?;
    Ok(Ran {
        outcome,
        chance_of,
        measures: job.measures,
        per_row: job.kinds.len(),
        settings: plan.settings,
    })
}

impl Ran {
    /// The table's rows, each with its measures and its test against its chance row.
    pub(crate) fn compare(self) -> Result<Compared> {
        let chunks = self.outcome.passes.chunks(self.per_row);
        let mut rows: Vec<ModelRow> = chunks.clone().map(row_of).collect();
        let statics: Vec<_> = chunks.map(|p| p[0].report.clone()).collect();
        let table = runs_table(&statics, &self.measures, None, self.settings)?;
        chance::annotate(&mut rows, &table, self.measures.len(), &self.chance_of);
        Ok(Compared {
            rows,
            table,
            outcome: self.outcome,
        })
    }
}

/// A row's static and session passes as the table's row (measures and test filled later).
fn row_of(passes: &[crate::job::PassOutcome]) -> ModelRow {
    let info = &passes[0].backend;
    let session = passes.get(1).map(|p| &p.row);
    ModelRow {
        // A row without a model (the lexical reference) carries its settings in its name, as
        // `run` labels it (`bm25-min8`): an audit found `--min-score 8` shown as plain `bm25`.
        backend: match (&info.model, &info.file_prefix, &info.tag) {
            (None, None, Some(tag)) => format!("{}-{tag}", info.id),
            _ => info.id.clone(),
        },
        // A fusion names its model in its label: rrf(bm25+cosine/all-minilm-l6-v2).
        model: info
            .model
            .clone()
            .or_else(|| info.file_prefix.clone())
            .map(|m| match &info.tag {
                // A sweep's rows differ by their settings: all-minilm-l6-v2-floor0.4.
                Some(tag) => format!("{m}-{tag}"),
                None => m,
            }),
        text_policy: info.text_policy.clone(),
        static_summary: passes[0].row.summary.clone(),
        mean_drift: session.and_then(|s| s.mean_drift),
        session_summary: session.map(|s| s.summary.clone()),
        measures: Vec::new(),
        vs_chance: None,
        shard: passes[0].report.shard().map(|s| s.to_string()),
    }
}
