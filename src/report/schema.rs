//! The report files, typed: one schema for the writer ([`super::json`]) and the reader
//! ([`super::read`]). Field order is upstream's key order (spec §H), so serde writes the
//! same bytes upstream's `JSON.stringify` did. Fields a third-party report may lack default
//! when read; fields only one layout has are skipped when absent.

use crate::run::CaseError;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// The PrecisionMemBench layout: `{provider, retrieval, cases, ingestion}` plus our manifest.
/// The paper layout is a bare array of entries (its manifest is a sidecar file).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PmbReport<E> {
    /// Provider name (`tenure`, `vector`, `mem0`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// The summary block; kept as JSON when read, so a hand-edited block can be compared
    /// with the rows field by field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieval: Option<Value>,
    /// Case or turn entries.
    pub cases: Vec<E>,
    /// Index build measurements, when the run seeded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ingestion: Option<IngestionBlock>,
    /// What produced the report (tenure-eval's addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest: Option<Value>,
}

/// `ingestion`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IngestionBlock {
    /// Seed beliefs.
    #[serde(default)]
    pub belief_count: usize,
    /// Build time (ms, 2 decimals). Measured.
    #[serde(default)]
    pub total_ms: Option<f64>,
    /// Per belief (ms, 2 decimals). Measured.
    #[serde(default)]
    pub mean_per_belief_ms: Option<f64>,
    /// Per-belief timings (upstream writes `[]`).
    #[serde(default)]
    pub per_belief: Vec<Value>,
}

/// One `searchScores` entry: `{id, score}` for vector scales; BM25 adds Atlas's `clauses`
/// and tenure-eval's `attribution`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ScoreEntry {
    /// Belief id.
    pub id: String,
    /// Score, rounded as the backend's scale is written.
    pub score: f64,
    /// The same score unrounded: the float32 the backend ranked by, as its shortest decimal
    /// (tenure-eval's addition; what the TREC export writes).
    #[serde(
        default,
        rename = "exactScore",
        skip_serializing_if = "Option::is_none"
    )]
    pub exact_score: Option<f64>,
    /// Atlas's clause view (2 decimals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clauses: Option<Vec<TermEntry>>,
    /// Every matched term's unrounded float32 contribution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribution: Option<Vec<TermEntry>>,
    /// A context scorer's signals and tier (tenure-eval's addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signals: Option<crate::backend::Signals>,
}

/// One term of a score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct TermEntry {
    /// Field path (`aliases.shingle`).
    pub path: String,
    /// Indexed term.
    pub term: String,
    /// Its share of the score.
    pub score: f64,
}

/// One static case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CaseEntry {
    /// Case id.
    pub case_id: String,
    /// Category (PrecisionMemBench layout).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Description.
    #[serde(default)]
    pub description: String,
    /// The prepared query (Tenure's reports; not external providers').
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expanded_query: Option<String>,
    /// Pinned tier.
    #[serde(default)]
    pub pinned_beliefs: Vec<String>,
    /// Relevant tier.
    #[serde(default)]
    pub relevant_beliefs: Vec<String>,
    /// Open questions.
    #[serde(default)]
    pub retrieved_questions: Vec<String>,
    /// Search hits with scores (Tenure's reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_scores: Option<Vec<ScoreEntry>>,
    /// Precision (null when nothing relevant was retrieved).
    #[serde(default)]
    pub retrieval_precision: Option<f64>,
    /// Recall (null without gold).
    #[serde(default)]
    pub retrieval_recall: Option<f64>,
    /// Pinned coverage.
    #[serde(default)]
    pub pinned_coverage: Option<f64>,
    /// Question precision (present, possibly null, except in external providers' reports).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub question_precision: Option<Option<f64>>,
    /// Question recall (as `questionPrecision`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub question_recall: Option<Option<f64>>,
    /// Passed.
    pub passed: bool,
    /// Failures in check order.
    #[serde(default)]
    pub failures: Vec<String>,
    /// The backend failed on this case (tenure-eval's addition; absent when it did not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<CaseError>,
    /// Context build time (PrecisionMemBench layout). Measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieval_latency_ms: Option<f64>,
    /// What an external system returned beyond the context (careful HTTP client only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<Value>,
    /// Rank-aware metrics by ir_measures name (tenure-eval's addition, see `report::rank_block`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank_metrics: Option<RankBlock>,
}

/// One session turn of an external provider, in the key order of PrecisionMemBench's
/// external session harness (SS:342-356); read back as a [`TurnEntry`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ExternalTurnEntry {
    /// Session case id.
    pub case_id: String,
    /// Always the session category.
    pub category: String,
    /// Turn index.
    pub turn_index: i64,
    /// Turn label.
    pub label: String,
    /// Relevant tier.
    pub retrieved_belief_ids: Vec<String>,
    /// Pinned tier.
    pub pinned_belief_ids: Vec<String>,
    /// Noise that surfaced.
    pub noise_belief_ids: Vec<String>,
    /// 1 − precision, 0 when precision is null; null for a turn the backend failed on.
    pub drift_score: Option<f64>,
    /// Passed.
    pub passed: bool,
    /// Failures in check order.
    pub failures: Vec<String>,
    /// The system failed on this turn (careful mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<CaseError>,
    /// Context build time. Measured.
    pub retrieval_latency_ms: f64,
    /// Precision.
    pub retrieval_precision: Option<f64>,
    /// Recall.
    pub retrieval_recall: Option<f64>,
    /// What the system returned beyond the context (careful mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<Value>,
}

/// One session turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TurnEntry {
    /// Session case id.
    pub case_id: String,
    /// Category (PrecisionMemBench layout).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Turn index.
    pub turn_index: i64,
    /// Turn label.
    #[serde(default)]
    pub label: String,
    /// The prepared query (Tenure's reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expanded_query: Option<String>,
    /// Relevant tier.
    #[serde(default)]
    pub retrieved_belief_ids: Vec<String>,
    /// Pinned tier.
    #[serde(default)]
    pub pinned_belief_ids: Vec<String>,
    /// Noise that surfaced.
    #[serde(default)]
    pub noise_belief_ids: Vec<String>,
    /// Drift as the report's harness defines it.
    #[serde(default)]
    pub drift_score: Option<f64>,
    /// PrecisionMemBench's drift, 1 − precision (tenure-eval's addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision_drift_score: Option<f64>,
    /// Passed.
    pub passed: bool,
    /// Failures in check order.
    #[serde(default)]
    pub failures: Vec<String>,
    /// The backend failed on this turn (tenure-eval's addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<CaseError>,
    /// Search hits with scores (Tenure's reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_scores: Option<Vec<ScoreEntry>>,
    /// Precision (PrecisionMemBench layout: present, possibly null).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub retrieval_precision: Option<Option<f64>>,
    /// Recall (PrecisionMemBench layout: present, possibly null).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub retrieval_recall: Option<Option<f64>>,
    /// Context build time (PrecisionMemBench layout). Measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieval_latency_ms: Option<f64>,
    /// Rank-aware metrics by ir_measures name (tenure-eval's addition, see `report::rank_block`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank_metrics: Option<RankBlock>,
}

/// A key that is present, null or not: `Some(None)` for null, `None` (by default) when absent.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<f64>>, D::Error> {
    Option::<f64>::deserialize(d).map(Some)
}

/// A `rankMetrics` block: measure name → value (null without gold), in the report's order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RankBlock(pub Vec<(String, Option<f64>)>);

impl RankBlock {
    /// The value of `measure`, if the block has it.
    pub(crate) fn get(&self, measure: &str) -> Option<Option<f64>> {
        self.0.iter().find(|(m, _)| m == measure).map(|(_, v)| *v)
    }

    /// Does the block have `measure`?
    pub(crate) fn contains_key(&self, measure: &str) -> bool {
        self.get(measure).is_some()
    }

    /// The measures, in order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(m, _)| m)
    }

    /// No measure at all?
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for RankBlock {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for RankBlock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RankBlock, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = RankBlock;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object of measure names to numbers or null")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<RankBlock, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = a.next_entry::<String, Option<f64>>()? {
                    out.push((k, v));
                }
                Ok(RankBlock(out))
            }
        }
        d.deserialize_map(Visit)
    }
}
