//! Upstream-shaped JSON reports (spec §H), keys in upstream order.
//!
//! Three additions, all documented in the README: a `manifest` (a sidecar file for the paper
//! shape, which is a bare array), `precisionDriftScore` on session turns (PrecisionMemBench's
//! 1 − precision, beside the paper's `driftScore`), and an `attribution` list on every BM25 search score — each
//! matching term's unrounded float32 contribution, summing to the score. The upstream `clauses`
//! field keeps Atlas's own view, where collapsed clauses vanish from static reports (§C.5).

use super::{Manifest, Shape};
use crate::backend::{BackendInfo, ScoreScale};
use crate::context::ScoredBelief;
use crate::eval::summary::Summary;
use crate::js::{round2, round3};
use crate::run::{CaseResult, Ingestion, SessionRun, StaticRun, TurnResult, SESSION_CATEGORY};
use serde_json::{json, Map, Value};

/// A float32 as its shortest decimal form (what a reader of the report expects to see).
pub fn f32_value(x: f32) -> Value {
    format!("{x}")
        .parse::<f64>()
        .map(Value::from)
        .unwrap_or(Value::Null)
}

fn opt(x: Option<f64>) -> Value {
    x.map(Value::from).unwrap_or(Value::Null)
}

/// How a backend's `searchScores` are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreStyle {
    /// BM25: 2 decimals, Atlas `clauses` (session reports list collapsed clauses too) and the
    /// `attribution` of every term.
    Lucene {
        /// List collapsed clauses (the session report parser reads them, spec §C.5).
        all_clauses: bool,
    },
    /// Vector search: `{id, score}` with the score to 3 decimals, as the vector harnesses wrote.
    Vector,
}

impl ScoreStyle {
    fn of(backend: &BackendInfo, all_clauses: bool) -> ScoreStyle {
        match backend.score_scale {
            ScoreScale::LuceneBm25 => ScoreStyle::Lucene { all_clauses },
            ScoreScale::VectorSimilarity | ScoreScale::RankFusion | ScoreScale::None => {
                ScoreStyle::Vector
            }
        }
    }
}

/// `searchScores` entries.
pub fn search_scores(scores: &[ScoredBelief], style: ScoreStyle) -> Value {
    let all_clauses = match style {
        ScoreStyle::Vector => {
            return Value::Array(
                scores
                    .iter()
                    .map(|s| json!({"id": s.id, "score": round3(f64::from(s.score))}))
                    .collect(),
            )
        }
        ScoreStyle::Lucene { all_clauses } => all_clauses,
    };
    Value::Array(
        scores
            .iter()
            .map(|s| {
                let contributions = s.contributions();
                let clauses: Vec<Value> = contributions
                    .iter()
                    .filter(|c| all_clauses || !c.collapsed)
                    .map(|c| json!({"path": c.path, "term": c.term, "score": round2(f64::from(c.score))}))
                    .collect();
                let attribution: Vec<Value> = contributions
                    .iter()
                    .map(|c| json!({"path": c.path, "term": c.term, "score": f32_value(c.score)}))
                    .collect();
                json!({"id": s.id, "score": round2(f64::from(s.score)), "clauses": clauses, "attribution": attribution})
            })
            .collect(),
    )
}

fn case_entry(r: &CaseResult, shape: Shape, style: ScoreStyle) -> Value {
    let mut e = Map::new();
    e.insert("caseId".into(), json!(r.case_id));
    if let (Shape::Pmb, Some(category)) = (shape, &r.category) {
        e.insert("category".into(), json!(category));
    }
    e.insert("description".into(), json!(r.description));
    e.insert("expandedQuery".into(), json!(r.context.expanded_query));
    e.insert("pinnedBeliefs".into(), json!(r.context.pinned));
    e.insert("relevantBeliefs".into(), json!(r.context.relevant));
    e.insert("retrievedQuestions".into(), json!(r.context.questions));
    e.insert(
        "searchScores".into(),
        search_scores(&r.context.search_scores, style),
    );
    let m = &r.metrics;
    e.insert("retrievalPrecision".into(), opt(m.retrieval_precision));
    e.insert("retrievalRecall".into(), opt(m.retrieval_recall));
    e.insert("pinnedCoverage".into(), opt(m.pinned_coverage));
    e.insert("questionPrecision".into(), opt(m.question_precision));
    e.insert("questionRecall".into(), opt(m.question_recall));
    e.insert("passed".into(), json!(r.passed()));
    e.insert("failures".into(), json!(r.failures));
    if let Some(error) = &r.error {
        e.insert("error".into(), json!(error));
    }
    if shape == Shape::Pmb {
        e.insert("retrievalLatencyMs".into(), json!(r.latency_ms));
    }
    Value::Object(e)
}

/// The static report as upstream wrote it for `shape`, with the manifest (inline for the PMB
/// shape). Returns the report and, for the paper shape, the sidecar manifest.
pub fn static_report(run: &StaticRun, manifest: &Manifest, shape: Shape) -> (Value, Option<Value>) {
    let cases: Vec<Value> = run
        .results
        .iter()
        .map(|r| case_entry(r, shape, ScoreStyle::of(&run.backend, false)))
        .collect();
    wrap(
        shape,
        &run.backend.provider,
        &run.summary(),
        cases,
        &run.ingestion,
        manifest,
    )
}

/// The session report as upstream wrote it for `shape` (spec §H); same conventions.
pub fn session_report(
    run: &SessionRun,
    manifest: &Manifest,
    shape: Shape,
) -> (Value, Option<Value>) {
    let turns: Vec<Value> = run
        .turns
        .iter()
        .map(|t| turn_entry(t, shape, ScoreStyle::of(&run.backend, true)))
        .collect();
    wrap(
        shape,
        &run.backend.provider,
        &run.summary(),
        turns,
        &run.ingestion,
        manifest,
    )
}

fn turn_entry(t: &TurnResult, shape: Shape, style: ScoreStyle) -> Value {
    let mut e = Map::new();
    e.insert("caseId".into(), json!(t.case_id));
    if shape == Shape::Pmb {
        e.insert("category".into(), json!(SESSION_CATEGORY));
    }
    e.insert("turnIndex".into(), json!(t.turn_index));
    e.insert("label".into(), json!(t.label));
    e.insert("expandedQuery".into(), json!(t.context.expanded_query));
    e.insert("retrievedBeliefIds".into(), json!(t.context.relevant));
    e.insert("pinnedBeliefIds".into(), json!(t.context.pinned));
    e.insert("noiseBeliefIds".into(), json!(t.noise));
    e.insert("driftScore".into(), json!(t.metrics.drift_score));
    e.insert(
        "precisionDriftScore".into(),
        json!(t.metrics.precision_drift_score),
    );
    e.insert("passed".into(), json!(t.passed()));
    e.insert("failures".into(), json!(t.failures));
    if let Some(error) = &t.error {
        e.insert("error".into(), json!(error));
    }
    e.insert(
        "searchScores".into(),
        search_scores(&t.context.search_scores, style),
    );
    if shape == Shape::Pmb {
        e.insert(
            "retrievalPrecision".into(),
            opt(t.metrics.retrieval_precision),
        );
        e.insert("retrievalRecall".into(), opt(t.metrics.retrieval_recall));
        e.insert("retrievalLatencyMs".into(), json!(t.latency_ms));
    }
    Value::Object(e)
}

fn wrap(
    shape: Shape,
    provider: &str,
    summary: &Summary,
    entries: Vec<Value>,
    ingestion: &Ingestion,
    manifest: &Manifest,
) -> (Value, Option<Value>) {
    let manifest = serde_json::to_value(manifest).unwrap_or(Value::Null);
    match shape {
        Shape::Paper => (Value::Array(entries), Some(manifest)),
        Shape::Pmb => {
            let report = json!({
                "provider": provider,
                "retrieval": summary,
                "cases": entries,
                "ingestion": {
                    "beliefCount": ingestion.belief_count,
                    "totalMs": round2(ingestion.total_ms),
                    "meanPerBeliefMs": round2(ingestion.total_ms / ingestion.belief_count.max(1) as f64),
                    "perBelief": [],
                },
                "manifest": manifest,
            });
            (report, None)
        }
    }
}

/// Pretty JSON with a final newline, as `JSON.stringify(x, null, 2)` lays it out.
pub fn to_bytes(value: &Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}
