//! TREC export: a run file and a qrels file per report, for trec_eval and ranx users.
//!
//! - run: `qid Q0 docno rank score run_name`, the relevant tier each case returned, in order,
//!   with its search score (0 for relation expansions, rank-based when the report has none);
//! - qrels: `qid 0 docno 1` for each gold belief (`shouldOnlyInclude`, else `mustInclude` less
//!   the seed's pinned beliefs for static cases), the same gold the metrics use.
//!
//! Query ids are case ids, with `:turnIndex` appended for session turns.

use super::tables::LoadedReport;
use crate::eval::assertions::dedup;
use crate::suite::{Suite, DEFAULT_USER};
use serde_json::Value;

/// Query id of a case or turn.
fn qid(case: &str, turn: Option<i64>) -> String {
    match turn {
        Some(t) => format!("{case}:{t}"),
        None => case.to_string(),
    }
}

/// The run file of `report` (its raw JSON `value`), named `run_name`.
pub fn run_file(report: &LoadedReport, value: &Value, run_name: &str) -> String {
    let entries = value
        .get("cases")
        .unwrap_or(value)
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut out = String::new();
    for (row, entry) in report.rows.iter().zip(&entries) {
        let retrieved = entry
            .get("relevantBeliefs")
            .or_else(|| entry.get("retrievedBeliefIds"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let n = retrieved.len();
        for (rank, id) in retrieved.iter().filter_map(Value::as_str).enumerate() {
            let score = row
                .scores
                .iter()
                .find(|(b, _)| b == id)
                .map_or((n - rank) as f64, |s| s.1);
            out.push_str(&format!(
                "{} Q0 {id} {} {score} {run_name}\n",
                qid(&row.case_id, row.turn_index),
                rank + 1
            ));
        }
    }
    out
}

/// The qrels of `report`'s cases, with gold taken from `suite`.
pub fn qrels_file(report: &LoadedReport, suite: &Suite) -> String {
    let pinned_in_seed: Vec<String> = suite
        .corpus
        .iter()
        .filter(|b| b.user_id == DEFAULT_USER && b.pinned)
        .map(|b| b.id.clone())
        .collect();
    let mut out = String::new();
    for row in &report.rows {
        let gold: Vec<String> = match row.turn_index {
            None => suite
                .cases
                .iter()
                .find(|c| c.case_id == row.case_id)
                .and_then(|c| c.expect.relevant_beliefs.as_ref())
                .map(|rb| match &rb.should_only_include {
                    Some(only) => dedup(only).into_iter().cloned().collect(),
                    None => dedup(&rb.must_include)
                        .into_iter()
                        .filter(|id| !pinned_in_seed.contains(id))
                        .cloned()
                        .collect(),
                })
                .unwrap_or_default(),
            Some(t) => suite
                .sessions
                .iter()
                .filter(|c| c.case_id == row.case_id)
                .flat_map(|c| c.turns.iter())
                .find(|turn| turn.turn_index == t)
                .and_then(|turn| turn.expect.relevant_beliefs.as_ref())
                .map(|rb| match &rb.should_only_include {
                    Some(only) => dedup(only).into_iter().cloned().collect(),
                    None => dedup(&rb.must_include).into_iter().cloned().collect(),
                })
                .unwrap_or_default(),
        };
        for id in gold {
            out.push_str(&format!("{} 0 {id} 1\n", qid(&row.case_id, row.turn_index)));
        }
    }
    out
}
