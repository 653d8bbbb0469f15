//! One report as the page shows it: its overview row and every entry with its tiers, hits and
//! outcome, from the rows the tables read ([`LoadedReport`]) and the full entries
//! ([`crate::report::read::entries`]).

use super::model::{EntryView, HitView, ReportView};
use crate::backend::Workload;
use crate::eval::stats::mean;
use crate::eval::summary::{pass_type, Outcome, PassType};
use crate::report::read::entries::Entries;
use crate::report::schema::{RankBlock, ScoreEntry};
use crate::report::{LoadedReport, Row};
use std::collections::BTreeMap;

/// The outcome of a row, as the case filter names it: a pass by its kind (spec §G's
/// taxonomy, `pass_type`), a failure, or the backend's error.
pub(crate) fn outcome(row: &Row) -> &'static str {
    if row.errored {
        return "errored";
    }
    if !row.passed {
        return "failed";
    }
    let o = Outcome {
        category: row.category.clone(),
        passed: true,
        precision: row.precision,
        recall: row.recall,
        latency_ms: 0.0,
        errored: false,
    };
    match pass_type(&o) {
        PassType::ActiveRetrieval => "active",
        PassType::Structural => "structural",
        PassType::TriviallyEmpty => "empty",
    }
}

/// The hits of `searchScores`, each with its matched terms largest first: the unrounded
/// attribution where the report has it, else Atlas's clause view.
fn hits(scores: Option<Vec<ScoreEntry>>) -> Vec<HitView> {
    scores
        .unwrap_or_default()
        .into_iter()
        .map(|s| {
            let mut terms: Vec<(String, String, f64)> = s
                .attribution
                .or(s.clauses)
                .unwrap_or_default()
                .into_iter()
                .map(|t| (t.path, t.term, t.score))
                .collect();
            terms.sort_by(|a, b| b.2.total_cmp(&a.2));
            HitView {
                id: s.id,
                score: s.score,
                terms,
            }
        })
        .collect()
}

/// Mean of each rank measure over the rows that have a value, measures in first-met order.
fn rank_means(rows: &[Row]) -> Vec<(String, Option<f64>)> {
    let mut names: Vec<&String> = Vec::new();
    for row in rows {
        for m in row.rank_metrics.keys() {
            if !names.contains(&m) {
                names.push(m);
            }
        }
    }
    names
        .into_iter()
        .map(|m| {
            let values = rows.iter().filter_map(|r| r.rank_metrics.get(m).flatten());
            (m.clone(), mean(values))
        })
        .collect()
}

/// The view of `report`, shown as `name` (`report::label::shown_names`), whose full entries
/// are `entries` (the same file, the same order).
pub(crate) fn report_view(report: &LoadedReport, name: String, entries: Entries) -> ReportView {
    let mut view = ReportView {
        file: report.file_name(),
        name,
        backend: report.backend.id.clone(),
        provider: report.backend.provider.clone(),
        model: report.backend.model.clone(),
        scale: report.backend.score_scale.describe().to_string(),
        kind: kind_name(report.kind),
        summary: report.summary(),
        drift: report.mean_drift(),
        precision_drift: report.measured_precision_drift(),
        rank: rank_means(&report.rows),
        ingestion_ms: report.ingestion_ms,
        stopped: report
            .manifest
            .as_ref()
            .and_then(|m| m.stopped.as_ref())
            .map(crate::render::junit::stopped_text),
        unhealthy: report.manifest.as_ref().and_then(|m| m.unhealthy.clone()),
        part: report
            .manifest
            .as_ref()
            .and_then(|m| match (&m.shard, &m.selection) {
                (Some(shard), _) => Some(format!("shard {shard} of a run")),
                (None, Some(_)) => Some("a selection of the suite's cases".into()),
                (None, None) => None,
            }),
        rerun: report
            .manifest
            .as_ref()
            .and_then(|m| m.rerun_failed)
            .map(|r| {
                format!(
                    "{} taken from its journal as passed, {} sent to the system again (a pass \
                     among those is a second try)",
                    r.taken, r.sent
                )
            }),
        repeats: report.manifest.as_ref().and_then(|m| m.repeats.clone()),
        entries: BTreeMap::new(),
        turns: BTreeMap::new(),
    };
    match entries {
        Entries::Static(list) => {
            for (e, row) in list.into_iter().zip(&report.rows) {
                let entry = EntryView {
                    outcome: outcome(row),
                    turn: None,
                    label: String::new(),
                    expanded_query: e.expanded_query,
                    pinned: e.pinned_beliefs,
                    relevant: e.relevant_beliefs,
                    questions: e.retrieved_questions,
                    noise: Vec::new(),
                    hits: hits(e.search_scores),
                    precision: e.retrieval_precision,
                    recall: e.retrieval_recall,
                    latency_ms: e.retrieval_latency_ms,
                    drift: None,
                    precision_drift: None,
                    failures: e.failures,
                    error: e.error,
                    diagnostics: e.diagnostics,
                    rank: e.rank_metrics.unwrap_or_default(),
                };
                view.entries.entry(e.case_id).or_insert(entry);
            }
        }
        Entries::Session(list) => {
            for (e, row) in list.into_iter().zip(&report.rows) {
                let entry = EntryView {
                    outcome: outcome(row),
                    turn: Some(e.turn_index),
                    label: e.label,
                    expanded_query: e.expanded_query,
                    pinned: e.pinned_belief_ids,
                    relevant: e.retrieved_belief_ids,
                    questions: Vec::new(),
                    noise: e.noise_belief_ids,
                    hits: hits(e.search_scores),
                    precision: row.precision,
                    recall: row.recall,
                    latency_ms: e.retrieval_latency_ms,
                    drift: row.noise_drift,
                    precision_drift: row.precision_drift.or(row.drift),
                    failures: e.failures,
                    error: e.error,
                    diagnostics: None,
                    rank: e.rank_metrics.unwrap_or(RankBlock::default()),
                };
                view.turns.entry(e.case_id).or_default().push(entry);
            }
        }
    }
    view
}

/// `static` or `session`.
pub(crate) fn kind_name(kind: Workload) -> &'static str {
    match kind {
        Workload::Static => "static",
        Workload::Session => "session",
    }
}
