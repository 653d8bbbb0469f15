//! Rank-aware metrics in reports: the judgments a suite gives each query, the `rankMetrics`
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
use crate::eval::metrics::{static_gold, turn_gold};
use crate::eval::rank::{scores, Measure};
use crate::eval::stats::mean;
use crate::suite::{Suite, DEFAULT_USER};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::Path;

/// What a suite says of one query's beliefs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Judgments {
    /// Gold: relevant (qrels relevance 1), in the case's order.
    pub relevant: Vec<String>,
    /// `mustExclude` beliefs not in the gold: judged non-relevant (relevance 0).
    pub non_relevant: Vec<String>,
}

/// The judgments of every query of a suite: static cases by case id, turns by case id and
/// turn index.
#[derive(Debug, Clone, Default)]
pub struct Qrels {
    queries: HashMap<(String, Option<i64>), Judgments>,
    suite: String,
}

fn judgments(relevant: Vec<&String>, excluded: &[String]) -> Judgments {
    let relevant: Vec<String> = relevant.into_iter().cloned().collect();
    let mut non_relevant: Vec<String> = Vec::new();
    for id in excluded {
        if !relevant.contains(id) && !non_relevant.contains(id) {
            non_relevant.push(id.clone());
        }
    }
    Judgments {
        relevant,
        non_relevant,
    }
}

impl Qrels {
    /// The judgments `suite` gives (the same gold as the suite's own recall).
    pub fn of(suite: &Suite) -> Qrels {
        let pinned: Vec<String> = suite
            .corpus
            .iter()
            .filter(|b| b.user_id == DEFAULT_USER && b.pinned)
            .map(|b| b.id.clone())
            .collect();
        let mut queries = HashMap::new();
        for case in &suite.cases {
            let excluded = case
                .expect
                .relevant_beliefs
                .as_ref()
                .map_or(&[][..], |rb| &rb.must_exclude);
            let j = judgments(static_gold(&case.expect, &pinned), excluded);
            queries.insert((case.case_id.clone(), None), j);
        }
        for session in &suite.sessions {
            for turn in &session.turns {
                let excluded = turn
                    .expect
                    .relevant_beliefs
                    .as_ref()
                    .map_or(&[][..], |rb| &rb.must_exclude);
                let j = judgments(turn_gold(&turn.expect), excluded);
                queries.insert((session.case_id.clone(), Some(turn.turn_index)), j);
            }
        }
        Qrels {
            queries,
            suite: suite.name.clone(),
        }
    }

    /// The judgments of a case (`turn`: `None` for a static case).
    pub fn get(&self, case_id: &str, turn: Option<i64>) -> Option<&Judgments> {
        self.queries.get(&(case_id.to_string(), turn))
    }

    /// As [`Qrels::get`], or an input error naming `file` and the case when the suite has no
    /// such case (a report of another suite).
    pub fn require(&self, file: &Path, case_id: &str, turn: Option<i64>) -> Result<&Judgments> {
        self.get(case_id, turn).ok_or_else(|| {
            let what = match turn {
                Some(t) => format!("case {case_id:?} turn {t}"),
                None => format!("case {case_id:?}"),
            };
            Error::input(
                file,
                "$",
                format!(
                    "{what} is not in the suite {:?}; expected a report of that suite \
                     (name its suite with --suite)",
                    self.suite
                ),
            )
        })
    }
}

/// Each measure of `ranking` given `j`.
pub fn case_scores(measures: &[Measure], ranking: &[String], j: &Judgments) -> Vec<Option<f64>> {
    let ranking: Vec<&str> = ranking.iter().map(String::as_str).collect();
    let gold: Vec<&str> = j.relevant.iter().map(String::as_str).collect();
    scores(measures, &ranking, &gold)
}

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
pub struct RankTally<'m> {
    measures: &'m [Measure],
    columns: Vec<Vec<f64>>,
    queries: usize,
}

impl<'m> RankTally<'m> {
    /// A tally of `measures`, nothing judged yet.
    pub fn new(measures: &'m [Measure]) -> RankTally<'m> {
        RankTally {
            measures,
            columns: vec![Vec::new(); measures.len()],
            queries: 0,
        }
    }

    /// The entry's value of each measure, judged by `qrels`, and counted; `None` for an entry
    /// whose case the suite does not hold, or when there are no measures.
    pub fn judge(
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
    pub fn summary(&self) -> Option<Value> {
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
pub fn row_values(
    report: &super::tables::LoadedReport,
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

/// `tables`' rank-metric table: one row per report that carries `rankMetrics` blocks (run,
/// kind, queries with gold, each measure's mean), measures in the order first met; `None` when
/// no report has a block.
pub fn rank_table(reports: &[super::tables::LoadedReport]) -> Option<super::tables::Table> {
    let mut names: Vec<String> = Vec::new();
    for r in reports {
        for row in &r.rows {
            for m in row.rank_metrics.keys() {
                if !names.contains(m) {
                    names.push(m.clone());
                }
            }
        }
    }
    if names.is_empty() {
        return None;
    }
    let rows = reports
        .iter()
        .filter(|r| r.rows.iter().any(|row| !row.rank_metrics.is_empty()))
        .map(|r| {
            let kind = match r.kind {
                super::tables::ReportKind::Static => "static",
                super::tables::ReportKind::Session => "turns",
            };
            let judged = r
                .rows
                .iter()
                .filter(|row| row.rank_metrics.0.iter().any(|(_, v)| v.is_some()))
                .count();
            let mut cells = vec![r.provider.clone(), kind.to_string(), judged.to_string()];
            for m in &names {
                let v: Vec<f64> = r
                    .rows
                    .iter()
                    .filter_map(|row| row.rank_metrics.get(m).flatten())
                    .collect();
                cells.push(super::tables::number_cell(mean(v), 4));
            }
            cells
        })
        .collect();
    let mut header = vec!["Run".to_string(), "Kind".into(), "Queries with gold".into()];
    header.extend(names);
    Some(super::tables::Table {
        title: "Rank metrics (means over queries with gold; ir_measures names)".into(),
        header,
        rows,
    })
}
