//! The summary block (`buildRetrievalSummary`, spec §G): latency percentiles, means over
//! non-null values, pass taxonomy and the category table.

use crate::js::{round2, round4};
use serde::Serialize;

/// Categories whose passing cases count as structural when they retrieved nothing relevant.
pub(crate) const STRUCTURAL_CATEGORIES: [&str; 7] = [
    "Scope disambiguation",
    "Supersession chain exclusion",
    "Type routing and open questions",
    "Budget eviction and capacity",
    "Cross-user isolation",
    "Ranking stability",
    "Persona prelude content",
];

/// Category of cases that have none (the paper suite).
pub(crate) const UNCATEGORISED: &str = "Uncategorised";

/// What the summary needs of one case or turn (small and owned, so that a streamed run can keep
/// one per case instead of the case's result).
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    /// Category.
    pub category: String,
    /// Passed?
    pub passed: bool,
    /// Retrieval precision.
    pub precision: Option<f64>,
    /// Retrieval recall.
    pub recall: Option<f64>,
    /// Latency in ms, already rounded to 2 decimals.
    pub latency_ms: f64,
    /// The backend failed on it: neither a pass nor an assertion failure.
    pub errored: bool,
}

/// How a passing case passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PassType {
    /// Retrieved something relevant (precision > 0).
    ActiveRetrieval,
    /// Asserted a structural property (scope, supersession, routing, ...).
    Structural,
    /// The expected relevant tier was empty by design.
    TriviallyEmpty,
}

/// Pass type of a passing outcome.
pub(crate) fn pass_type(o: &Outcome) -> PassType {
    if o.precision.is_some_and(|p| p > 0.0) {
        PassType::ActiveRetrieval
    } else if STRUCTURAL_CATEGORIES.contains(&o.category.as_str()) {
        PassType::Structural
    } else {
        PassType::TriviallyEmpty
    }
}

/// `passTypes`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PassTypes {
    /// Passing with precision > 0.
    pub active_retrieval: usize,
    /// Passing structural cases.
    pub structural: usize,
    /// The rest of the passing cases.
    pub trivially_empty: usize,
}

/// One row of `categories`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CategorySummary {
    /// Category name.
    pub category: String,
    /// Cases in it.
    pub case_count: usize,
    /// Passing cases.
    pub passed: usize,
    /// Failing cases.
    pub failed: usize,
    /// Mean precision over non-null values (4 decimals).
    pub mean_precision: Option<f64>,
    /// Mean recall over non-null values (4 decimals).
    pub mean_recall: Option<f64>,
}

/// The `retrieval` summary block, keys in upstream order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Mean latency (2 decimals). Measured.
    pub mean_latency_ms: f64,
    /// Median latency (nearest rank). Measured.
    pub p50_latency_ms: f64,
    /// 95th percentile latency (nearest rank). Measured.
    pub p95_latency_ms: f64,
    /// Cases (session cases for sessions).
    pub case_count: usize,
    /// Mean precision over non-null values.
    pub mean_precision: Option<f64>,
    /// Mean recall over non-null values.
    pub mean_recall: Option<f64>,
    /// Passing entries.
    pub total_passed: usize,
    /// Entries.
    pub total_cases: usize,
    /// Passed / entries (4 decimals).
    pub pass_rate: f64,
    /// Same as `passTypes.activeRetrieval`.
    pub active_retrieval_passes: usize,
    /// Pass taxonomy.
    pub pass_types: PassTypes,
    /// Per-category rows, largest first (stable).
    pub categories: Vec<CategorySummary>,
    /// Turns (sessions only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_count: Option<usize>,
    /// Entries the backend failed on (not passed, no assertion failures; their metrics are
    /// null). Written only when there are some, so reports of clean runs keep upstream's keys.
    #[serde(skip_serializing_if = "is_zero")]
    pub errored: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn mean4(values: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let values: Vec<f64> = values.flatten().collect();
    (!values.is_empty()).then(|| round4(values.iter().sum::<f64>() / values.len() as f64))
}

/// Nearest-rank percentile: `sorted[ceil(q·n) − 1]`.
pub(crate) fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Summarise outcomes. `case_count` is the number of cases (for sessions, session cases).
pub(crate) fn summarise(
    outcomes: &[Outcome],
    case_count: usize,
    turn_count: Option<usize>,
) -> Summary {
    let mut latencies: Vec<f64> = outcomes.iter().map(|o| o.latency_ms).collect();
    latencies.sort_by(f64::total_cmp);
    let mean_latency = if latencies.is_empty() {
        0.0
    } else {
        latencies.iter().sum::<f64>() / latencies.len() as f64
    };

    let mut pass_types = PassTypes::default();
    for o in outcomes.iter().filter(|o| o.passed) {
        match pass_type(o) {
            PassType::ActiveRetrieval => pass_types.active_retrieval += 1,
            PassType::Structural => pass_types.structural += 1,
            PassType::TriviallyEmpty => pass_types.trivially_empty += 1,
        }
    }

    let mut names: Vec<&str> = Vec::new();
    for o in outcomes {
        if !names.contains(&o.category.as_str()) {
            names.push(&o.category);
        }
    }
    let mut categories: Vec<CategorySummary> = names
        .into_iter()
        .map(|name| {
            let members: Vec<&Outcome> = outcomes.iter().filter(|o| o.category == name).collect();
            let passed = members.iter().filter(|o| o.passed).count();
            CategorySummary {
                category: name.to_string(),
                case_count: members.len(),
                passed,
                failed: members.len() - passed,
                mean_precision: mean4(members.iter().map(|o| o.precision)),
                mean_recall: mean4(members.iter().map(|o| o.recall)),
            }
        })
        .collect();
    categories.sort_by_key(|c| std::cmp::Reverse(c.case_count)); // stable: ties keep first appearance

    let total_passed = outcomes.iter().filter(|o| o.passed).count();
    Summary {
        mean_latency_ms: round2(mean_latency),
        p50_latency_ms: percentile(&latencies, 0.5),
        p95_latency_ms: percentile(&latencies, 0.95),
        case_count,
        mean_precision: mean4(outcomes.iter().map(|o| o.precision)),
        mean_recall: mean4(outcomes.iter().map(|o| o.recall)),
        total_passed,
        total_cases: outcomes.len(),
        pass_rate: if outcomes.is_empty() {
            0.0
        } else {
            round4(total_passed as f64 / outcomes.len() as f64)
        },
        active_retrieval_passes: pass_types.active_retrieval,
        pass_types,
        categories,
        turn_count,
        errored: outcomes.iter().filter(|o| o.errored).count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<f64> = (1..=77).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.5), 39.0);
        assert_eq!(percentile(&v, 0.95), 74.0);
        assert_eq!(percentile(&[5.0], 0.95), 5.0);
    }
}
