//! Reports of external providers, in the shape PrecisionMemBench's external harnesses write
//! (provider-http spec §5.6, §6.5): no prepared query, no search scores, no question metrics,
//! the session drift as 1 − precision; `ingestion` from the `/add` timings. The careful client
//! adds a `diagnostics` block per entry and `error` on a failed one.

use crate::context::Context;
use crate::js::round2;
use crate::report::schema::{CaseEntry, ExternalTurnEntry, IngestionBlock};
use crate::run::{CaseResult, Ingestion, TurnResult, SESSION_CATEGORY};
use serde_json::{json, Value};

fn diagnostics(ctx: &Context, exact: bool) -> Option<Value> {
    if exact {
        return None;
    }
    ctx.diagnostics
        .as_ref()
        .and_then(|d| serde_json::to_value(d).ok())
}

/// A static entry (SE:355-368).
pub(in crate::report) fn case_entry(r: &CaseResult, exact: bool) -> CaseEntry {
    let m = &r.metrics;
    CaseEntry {
        case_id: r.case_id.clone(),
        category: r.category.clone(),
        description: r.description.clone(),
        expanded_query: None,
        pinned_beliefs: r.context.pinned.clone(),
        relevant_beliefs: r.context.relevant.clone(),
        retrieved_questions: r.context.questions.clone(),
        search_scores: None,
        retrieval_precision: m.retrieval_precision,
        retrieval_recall: m.retrieval_recall,
        pinned_coverage: m.pinned_coverage,
        question_precision: None,
        question_recall: None,
        passed: r.passed(),
        failures: r.failures.clone(),
        error: r.error.clone(),
        retrieval_latency_ms: Some(r.latency_ms),
        diagnostics: diagnostics(&r.context, exact),
        rank_metrics: None,
    }
}

/// A session entry (SS:342-356).
pub(in crate::report) fn turn_entry(t: &TurnResult, exact: bool) -> ExternalTurnEntry {
    ExternalTurnEntry {
        case_id: t.case_id.clone(),
        category: SESSION_CATEGORY.to_string(),
        turn_index: t.turn_index,
        label: t.label.name().to_string(),
        retrieved_belief_ids: t.context.relevant.clone(),
        pinned_belief_ids: t.context.pinned.clone(),
        noise_belief_ids: t.noise.clone(),
        // Null for a turn the backend failed on (careful mode): a drift of nothing.
        drift_score: t.error.is_none().then_some(t.metrics.precision_drift_score),
        passed: t.passed(),
        failures: t.failures.clone(),
        error: t.error.clone(),
        retrieval_latency_ms: t.latency_ms,
        retrieval_precision: t.metrics.retrieval_precision,
        retrieval_recall: t.metrics.retrieval_recall,
        diagnostics: diagnostics(&t.context, exact),
    }
}

/// `ingestion`: per-belief `/add` times, their sum and mean (SE:174-195). Static reports
/// always carry it (zeros when the store was not reseeded), session reports only when the
/// run seeded (D18).
pub(in crate::report) fn ingestion(
    ingestion: &Ingestion,
    sessions: bool,
) -> Option<IngestionBlock> {
    let seeding = ingestion.seeding.as_ref().filter(|s| s.reseeded);
    if sessions && seeding.is_none() {
        return None;
    }
    let per_belief = seeding.map(|s| s.per_belief.as_slice()).unwrap_or(&[]);
    let total: f64 = per_belief.iter().map(|(_, ms)| ms).sum();
    Some(IngestionBlock {
        belief_count: per_belief.len(),
        total_ms: Some(round2(total)),
        mean_per_belief_ms: Some(if per_belief.is_empty() {
            0.0
        } else {
            round2(total / per_belief.len() as f64)
        }),
        per_belief: per_belief
            .iter()
            .map(|(id, ms)| json!({"beliefId": id, "latencyMs": ms}))
            .collect(),
    })
}

/// Search-only latency over the entries that searched (D17: upstream's percentiles include
/// the cases that never called the system). Measured.
pub(in crate::report) fn search_latency<'a>(contexts: impl Iterator<Item = &'a Context>) -> Value {
    let mut ms: Vec<f64> = contexts.filter_map(|c| c.search_ms).collect();
    ms.sort_by(f64::total_cmp);
    let pick = |q: f64| -> Value {
        if ms.is_empty() {
            return Value::Null;
        }
        let i = ((q * ms.len() as f64).ceil() as usize).clamp(1, ms.len()) - 1;
        json!(round2(ms[i]))
    };
    json!({"searches": ms.len(), "p50Ms": pick(0.5), "p95Ms": pick(0.95)})
}
