//! Rank-aware metrics in reports (over the judgments of [`crate::eval::qrels`]): the `rankMetrics`
//! block added to each case (and to the summary), and the per-case values `compare` and
//! `tables` read back (the block when a report has it, else recomputed from the report's
//! relevant tier and the suite).
//!
//! The block is an addition: upstream fields are unchanged. Per case,
//! `"rankMetrics": {"P@5": 0.4, "nDCG@10": 0.91, …}` (null for a case without gold, see
//! [`crate::eval::rank`]); in the summary, `"rankMetrics": {"queries": n, "means": {…}}`, the
//! means over the n cases that have gold.

use super::schema::RankBlock;
use crate::error::{Error, Result};
use crate::eval::qrels::{case_scores, Qrels};
use crate::eval::rank::Measure;
use crate::eval::stats::mean;
use serde_json::{Map, Value};

fn block(measures: &[Measure], values: &[Option<f64>]) -> Value {
    let mut map = Map::new();
    for (m, v) in measures.iter().zip(values) {
        map.insert(m.to_string(), v.map_or(Value::Null, Value::from));
    }
    Value::Object(map)
}

/// The entries of a report value (a bare array, or `cases`).
fn entries_mut(report: &mut Value) -> Option<&mut Vec<Value>> {
    match report {
        Value::Array(entries) => Some(entries),
        Value::Object(map) => map.get_mut("cases").and_then(Value::as_array_mut),
        _ => None,
    }
}

/// The relevant tier of an entry, in rank order (`relevantBeliefs` of static entries,
/// `retrievedBeliefIds` of session turns).
pub fn entry_ranking(entry: &Value) -> Vec<String> {
    entry
        .get("relevantBeliefs")
        .or_else(|| entry.get("retrievedBeliefIds"))
        .and_then(Value::as_array)
        .map(|ids| {
            ids.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// The rank metrics of a run's entries as they come, and their means: what [`annotate`] keeps
/// over a report in memory and a streamed report keeps case by case.
#[derive(Debug)]
pub(crate) struct RankTally<'m> {
    measures: &'m [Measure],
    columns: Vec<Vec<f64>>,
    queries: usize,
}

impl<'m> RankTally<'m> {
    /// A tally of `measures`, nothing judged yet.
    pub(crate) fn new(measures: &'m [Measure]) -> RankTally<'m> {
        RankTally {
            measures,
            columns: vec![Vec::new(); measures.len()],
            queries: 0,
        }
    }

    /// The entry's value of each measure, judged by `qrels`, and counted; `None` for an entry
    /// whose case the suite does not hold, or when there are no measures.
    pub(crate) fn judge(
        &mut self,
        qrels: &Qrels,
        case_id: &str,
        turn: Option<i64>,
        ranking: &[String],
    ) -> Option<RankBlock> {
        if self.measures.is_empty() {
            return None;
        }
        let j = qrels.get(case_id, turn)?;
        let values = case_scores(self.measures, ranking, j);
        if !j.relevant.is_empty() {
            self.queries += 1;
        }
        for (column, v) in self.columns.iter_mut().zip(&values) {
            column.extend(v);
        }
        Some(RankBlock(
            self.measures
                .iter()
                .map(|m| m.to_string())
                .zip(values)
                .collect(),
        ))
    }

    /// The summary's block: `{queries, means}`; `None` without measures.
    pub(crate) fn summary(&self) -> Option<Value> {
        if self.measures.is_empty() {
            return None;
        }
        let means: Vec<Option<f64>> = self
            .columns
            .iter()
            .map(|c| mean(c.iter().copied()))
            .collect();
        Some(serde_json::json!({"queries": self.queries, "means": block(self.measures, &means)}))
    }
}

/// Add the `rankMetrics` block to every entry of `report` (and its mean to the summary, when
/// the report has one), judged by `qrels`. Entries whose case the suite does not hold are left
/// without one; no measures, no block.
pub fn annotate(report: &mut Value, qrels: &Qrels, measures: &[Measure]) {
    let mut tally = RankTally::new(measures);
    if let Some(entries) = entries_mut(report) {
        for entry in entries.iter_mut() {
            // An entry the backend failed on has no ranking to judge (see `StaticStream::push`).
            if entry.get("error").is_some() {
                continue;
            }
            let case_id = entry.get("caseId").and_then(Value::as_str).unwrap_or("");
            let turn = entry.get("turnIndex").and_then(Value::as_i64);
            let Some(values) = tally.judge(qrels, case_id, turn, &entry_ranking(entry)) else {
                continue;
            };
            if let Value::Object(map) = entry {
                map.insert(
                    "rankMetrics".into(),
                    serde_json::to_value(&values).unwrap_or_default(),
                );
            }
        }
    }
    if let (Some(Value::Object(summary)), Some(block)) =
        (report.get_mut("retrieval"), tally.summary())
    {
        summary.insert("rankMetrics".into(), block);
    }
}

/// Each row's value of each measure (rows × measures): from the report's `rankMetrics` block
/// where it holds the measure, else recomputed from the row's relevant tier with `qrels`;
/// an input error when neither is possible.
pub(crate) fn row_values(
    report: &super::LoadedReport,
    measures: &[Measure],
    qrels: Option<&Qrels>,
) -> Result<Vec<Vec<Option<f64>>>> {
    report
        .rows
        .iter()
        .map(|row| {
            let mut computed: Option<Vec<Option<f64>>> = None;
            measures
                .iter()
                .enumerate()
                .map(|(k, m)| {
                    if let Some(v) = row.rank_metrics.get(&m.to_string()) {
                        return Ok(v);
                    }
                    let Some(qrels) = qrels else {
                        return Err(Error::input(
                            &report.path,
                            "$",
                            format!(
                                "case {:?} has no {m} in a rankMetrics block; expected a report \
                                 written with --metrics {m}, or a suite to compute it from",
                                row.case_id
                            ),
                        ));
                    };
                    if computed.is_none() {
                        let j = qrels.require(&report.path, &row.case_id, row.turn_index)?;
                        computed = Some(case_scores(measures, &row.ranking, j));
                    }
                    Ok(computed.as_ref().and_then(|c| c[k]))
                })
                .collect()
        })
        .collect()
}
