//! Upstream-shaped JSON reports (spec §H), written through the typed schema
//! ([`crate::report::schema`]), keys in upstream order.
//!
//! Four additions, all documented in the README: a `manifest` (a sidecar file for the paper
//! shape, which is a bare array), `precisionDriftScore` on session turns (PrecisionMemBench's
//! 1 − precision, beside the paper's `driftScore`), an `attribution` list on every BM25 search
//! score — each matching term's unrounded float32 contribution, summing to the score — and an
//! `error` on a case or turn the backend failed on (with `errored` in the summary), present
//! only then. The upstream `clauses` field keeps Atlas's own view, where collapsed clauses
//! vanish from static reports (§C.5).

use crate::backend::{BackendInfo, Reader, ScoreScale};
use crate::context::ScoredBelief;
use crate::eval::summary::Summary;
use crate::js::{round2, round3};
use crate::report::schema::{
    CaseEntry, ExternalTurnEntry, IngestionBlock, PmbReport, ScoreEntry, TermEntry, TurnEntry,
};
use crate::report::write::external;
use crate::report::{Manifest, ReportFile, Shape};
use crate::run::{CaseResult, Ingestion, SessionRun, StaticRun, TurnResult, SESSION_CATEGORY};
use serde::Serialize;
use serde_json::Value;

/// A float32 as the f64 of its shortest decimal form (what a reader of the report expects to
/// see: `4.8`, not `4.800000190734863`).
pub(crate) fn f32_decimal(x: f32) -> f64 {
    format!("{x}").parse::<f64>().unwrap_or(f64::NAN)
}

/// How a backend's `searchScores` are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScoreStyle {
    /// BM25: 2 decimals, Atlas `clauses` (session reports list collapsed clauses too) and the
    /// `attribution` of every term.
    Lucene {
        /// List collapsed clauses (the session report parser reads them, spec §C.5).
        all_clauses: bool,
    },
    /// Vector search: `{id, score}` with the score to 3 decimals, as the vector harnesses wrote.
    Vector,
    /// A context scorer: 3 decimals, plus each hit's `signals`.
    Signals,
}

impl ScoreStyle {
    pub(in crate::report) fn of(backend: &BackendInfo, all_clauses: bool) -> ScoreStyle {
        match backend.score_scale {
            ScoreScale::LuceneBm25 => ScoreStyle::Lucene { all_clauses },
            ScoreScale::VectorSimilarity | ScoreScale::RankFusion | ScoreScale::None => {
                ScoreStyle::Vector
            }
            ScoreScale::ContextScore => ScoreStyle::Signals,
        }
    }
}

/// `searchScores` entries.
pub(crate) fn search_scores(scores: &[ScoredBelief], style: ScoreStyle) -> Vec<ScoreEntry> {
    scores
        .iter()
        .map(|s| match style {
            ScoreStyle::Vector | ScoreStyle::Signals => ScoreEntry {
                id: s.id.clone(),
                score: round3(f64::from(s.score)),
                exact_score: Some(f32_decimal(s.score)),
                clauses: None,
                attribution: None,
                signals: s
                    .explanation
                    .as_ref()
                    .and_then(|e| e.signals.as_deref().cloned())
                    .filter(|_| style == ScoreStyle::Signals),
            },
            ScoreStyle::Lucene { all_clauses } => {
                let contributions = s.contributions();
                let term = |c: &crate::backend::Contribution, score: f64| TermEntry {
                    path: c.path.clone(),
                    term: c.term.clone(),
                    score,
                };
                ScoreEntry {
                    id: s.id.clone(),
                    score: round2(f64::from(s.score)),
                    exact_score: Some(f32_decimal(s.score)),
                    clauses: Some(
                        contributions
                            .iter()
                            .filter(|c| all_clauses || !c.collapsed)
                            .map(|c| term(c, round2(f64::from(c.score))))
                            .collect(),
                    ),
                    attribution: Some(
                        contributions
                            .iter()
                            .map(|c| term(c, f32_decimal(c.score)))
                            .collect(),
                    ),
                    signals: None,
                }
            }
        })
        .collect()
}

pub(in crate::report) fn case_entry(r: &CaseResult, shape: Shape, style: ScoreStyle) -> CaseEntry {
    let pmb = shape == Shape::Pmb;
    let m = &r.metrics;
    CaseEntry {
        case_id: r.case_id.clone(),
        category: r.category.clone().filter(|_| pmb),
        description: r.description.clone(),
        expanded_query: Some(r.context.expanded_query.clone()),
        pinned_beliefs: r.context.pinned.clone(),
        relevant_beliefs: r.context.relevant.clone(),
        retrieved_questions: r.context.questions.clone(),
        search_scores: Some(search_scores(&r.context.search_scores, style)),
        retrieval_precision: m.retrieval_precision,
        retrieval_recall: m.retrieval_recall,
        pinned_coverage: m.pinned_coverage,
        question_precision: Some(m.question_precision),
        question_recall: Some(m.question_recall),
        passed: r.passed(),
        failures: r.failures.clone(),
        error: r.error.clone(),
        retrieval_latency_ms: pmb.then_some(r.latency_ms),
        diagnostics: None,
        rank_metrics: None,
    }
}

fn turn_entry(t: &TurnResult, shape: Shape, style: ScoreStyle) -> TurnEntry {
    let pmb = shape == Shape::Pmb;
    TurnEntry {
        case_id: t.case_id.clone(),
        category: pmb.then(|| SESSION_CATEGORY.to_string()),
        turn_index: t.turn_index,
        label: t.label.name().to_string(),
        expanded_query: Some(t.context.expanded_query.clone()),
        retrieved_belief_ids: t.context.relevant.clone(),
        pinned_belief_ids: t.context.pinned.clone(),
        noise_belief_ids: t.noise.clone(),
        // A turn the backend failed on has no lists: its drift is of nothing (it read 0.0).
        drift_score: t.error.is_none().then_some(t.metrics.drift_score),
        precision_drift_score: t.error.is_none().then_some(t.metrics.precision_drift_score),
        passed: t.passed(),
        failures: t.failures.clone(),
        error: t.error.clone(),
        search_scores: Some(search_scores(&t.context.search_scores, style)),
        retrieval_precision: pmb.then_some(t.metrics.retrieval_precision),
        retrieval_recall: pmb.then_some(t.metrics.retrieval_recall),
        retrieval_latency_ms: pmb.then_some(t.latency_ms),
        rank_metrics: None,
    }
}

/// What the one report builder needs of a run, static or session: its entries as our
/// reports write them and as an external system's do.
pub(crate) trait ReportedRun {
    /// An entry of ours.
    type Ours: Serialize;
    /// An external system's entry.
    type External: Serialize;
    /// Sessions (their score style and ingestion block differ).
    const SESSIONS: bool;
    /// Who the backend was.
    fn backend(&self) -> &BackendInfo;
    /// The summary block.
    fn summary(&self) -> Summary;
    /// The store's ingestion.
    fn ingestion(&self) -> &Ingestion;
    /// Our entries, in report order.
    fn ours(&self, shape: Shape, style: ScoreStyle) -> Vec<Self::Ours>;
    /// An external system's entries, in report order.
    fn external(&self, exact: bool) -> Vec<Self::External>;
}

impl ReportedRun for StaticRun {
    type Ours = CaseEntry;
    type External = CaseEntry;
    const SESSIONS: bool = false;
    fn backend(&self) -> &BackendInfo {
        &self.backend
    }
    fn summary(&self) -> Summary {
        StaticRun::summary(self)
    }
    fn ingestion(&self) -> &Ingestion {
        &self.ingestion
    }
    fn ours(&self, shape: Shape, style: ScoreStyle) -> Vec<CaseEntry> {
        self.reported()
            .iter()
            .map(|r| case_entry(r, shape, style))
            .collect()
    }
    fn external(&self, exact: bool) -> Vec<CaseEntry> {
        self.reported()
            .iter()
            .map(|r| external::case_entry(r, exact))
            .collect()
    }
}

impl ReportedRun for SessionRun {
    type Ours = TurnEntry;
    type External = ExternalTurnEntry;
    const SESSIONS: bool = true;
    fn backend(&self) -> &BackendInfo {
        &self.backend
    }
    fn summary(&self) -> Summary {
        SessionRun::summary(self)
    }
    fn ingestion(&self) -> &Ingestion {
        &self.ingestion
    }
    fn ours(&self, shape: Shape, style: ScoreStyle) -> Vec<TurnEntry> {
        self.reported()
            .iter()
            .map(|t| turn_entry(t, shape, style))
            .collect()
    }
    fn external(&self, exact: bool) -> Vec<ExternalTurnEntry> {
        self.reported()
            .iter()
            .map(|t| external::turn_entry(t, exact))
            .collect()
    }
}

/// The report of `run` as upstream wrote it for `shape` (spec §H), with the manifest (inline
/// for the PMB shape, a sidecar for the paper shape): the one builder of static and session
/// reports. An external system's report is always PrecisionMemBench-shaped, its entries and
/// ingestion block its harness's.
pub(crate) fn report<R: ReportedRun>(run: &R, manifest: &Manifest, shape: Shape) -> ReportFile {
    let backend = run.backend();
    if backend.reader == Reader::External {
        let entries = run.external(backend.upstream_exact);
        let ingestion = external::ingestion(run.ingestion(), R::SESSIONS);
        return wrap(
            Shape::Pmb,
            backend,
            &run.summary(),
            entries,
            ingestion,
            manifest,
        );
    }
    let entries = run.ours(shape, ScoreStyle::of(backend, R::SESSIONS));
    let ingestion = tenure_ingestion(run.ingestion());
    wrap(shape, backend, &run.summary(), entries, ingestion, manifest)
}

/// The static report (see `report`).
pub fn static_report(run: &StaticRun, manifest: &Manifest, shape: Shape) -> ReportFile {
    report(run, manifest, shape)
}

/// The session report (see `report`).
pub fn session_report(run: &SessionRun, manifest: &Manifest, shape: Shape) -> ReportFile {
    report(run, manifest, shape)
}

/// `ingestion` of an in-process index: its build time.
pub(in crate::report) fn tenure_ingestion(ingestion: &Ingestion) -> Option<IngestionBlock> {
    Some(IngestionBlock {
        belief_count: ingestion.belief_count,
        total_ms: Some(round2(ingestion.total_ms)),
        mean_per_belief_ms: Some(round2(
            ingestion.total_ms / ingestion.belief_count.max(1) as f64,
        )),
        per_belief: Vec::new(),
    })
}

fn to_value(x: &impl Serialize) -> Value {
    serde_json::to_value(x).unwrap_or(Value::Null)
}

pub(in crate::report) fn wrap<E: Serialize>(
    shape: Shape,
    backend: &BackendInfo,
    summary: &Summary,
    entries: Vec<E>,
    ingestion: Option<IngestionBlock>,
    manifest: &Manifest,
) -> ReportFile {
    let manifest = to_value(manifest);
    match shape {
        Shape::Paper => ReportFile {
            body: to_value(&entries),
            sidecar: Some(manifest),
        },
        Shape::Pmb => {
            let report = PmbReport {
                provider: Some(backend.provider.clone()),
                retrieval: Some(to_value(summary)),
                cases: entries,
                ingestion,
                manifest: Some(manifest),
            };
            ReportFile {
                body: to_value(&report),
                sidecar: None,
            }
        }
    }
}

/// Pretty JSON with a final newline, as `JSON.stringify(x, null, 2)` lays it out.
pub(crate) fn to_bytes(value: &Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}
