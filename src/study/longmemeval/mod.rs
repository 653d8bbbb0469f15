//! LongMemEval's retrieval metrics from the reports of runs on it (`tenure-eval longmemeval
//! REPORT... --data FILE`, docs/longmemeval.md): per run, per question type and overall, its
//! recall_any, recall_all and ndcg_any at k 1, 3, 5, 10, 30, 50 ([`metrics`], its code's
//! definitions), at the level the run retrieved (sessions or turns) and, for turns, at session
//! level too, as its retrieval code records both.

pub(crate) mod metrics;

use crate::error::{Error, Result};
use crate::render::table::{number_cell, Table};
use crate::report::LoadedReport;
use crate::suite::Suite;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The depths of its metrics (run_retrieval.py records these).
pub(crate) const DEPTHS: [usize; 6] = [1, 3, 5, 10, 30, 50];

/// One run's means over one group of questions at one level.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Cell {
    /// `session` or `turn`.
    pub level: &'static str,
    /// A question type, or `all`.
    pub group: String,
    /// Questions.
    pub questions: usize,
    /// recall_any@k for each of `DEPTHS`.
    pub recall_any: Vec<f64>,
    /// recall_all@k.
    pub recall_all: Vec<f64>,
    /// ndcg_any@k.
    pub ndcg_any: Vec<f64>,
}

/// One run's figures.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RunResult {
    /// The report's run name.
    pub name: String,
    /// The groups at each level.
    pub cells: Vec<Cell>,
}

/// The figures of each report, the suite (`suite`, loaded from the run's file and unit) giving
/// each question's haystack and gold.
pub(crate) fn measure(reports: &[LoadedReport], suite: &Suite) -> Result<Vec<RunResult>> {
    let turns = suite.unit == Some(crate::suite::Unit::Turns);
    let mut haystacks: HashMap<&str, Vec<&str>> = HashMap::new();
    for b in &suite.corpus {
        haystacks
            .entry(b.user_id.as_str())
            .or_default()
            .push(b.id.as_str());
    }
    let cases: HashMap<&str, (&str, HashSet<&str>, &str)> = suite
        .cases
        .iter()
        .map(|c| {
            let gold = c
                .expect
                .relevant_beliefs
                .as_ref()
                .map_or_else(HashSet::new, |rb| {
                    rb.must_include.iter().map(String::as_str).collect()
                });
            (
                c.case_id.as_str(),
                (c.user(), gold, c.category.as_deref().unwrap_or("")),
            )
        })
        .collect();
    let mut out = Vec::new();
    for report in reports {
        // A shard's or a selection's report is named as such, not as another suite's.
        report.whole_run()?;
        if report.suite() != Some(suite.label().as_str()) {
            return Err(Error::input(
                &report.path,
                "$.manifest.suite",
                format!(
                    "{:?}: expected a report of a run on {}",
                    report.suite(),
                    suite.label()
                ),
            ));
        }
        report.whole_run_on(suite)?;
        // Per level, per group: the per-question [any, all, ndcg] at each depth.
        let mut sums: BTreeMap<(&'static str, String), Vec<[Vec<f64>; 3]>> = BTreeMap::new();
        for row in &report.rows {
            let (user, gold, group) = cases.get(row.case_id.as_str()).ok_or_else(|| {
                Error::input(
                    &report.path,
                    "$.cases",
                    format!("case {:?} is not a question of the data file", row.case_id),
                )
            })?;
            let haystack = &haystacks[user];
            let ranking: Vec<&str> = row.ranking.iter().map(String::as_str).collect();
            let mut levels: Vec<(&'static str, Vec<[f64; 3]>)> = Vec::new();
            let haystack_gold = haystack.iter().filter(|h| gold.contains(*h)).count();
            let own: Vec<[f64; 3]> = DEPTHS
                .iter()
                .map(|&k| metrics::evaluate(&ranking, gold, haystack_gold, k))
                .collect();
            if turns {
                levels.push(("turn", own));
                let sessions = DEPTHS
                    .iter()
                    .map(|&k| metrics::turn_to_session(&ranking, gold, haystack, k))
                    .collect();
                levels.push(("session", sessions));
            } else {
                levels.push(("session", own));
            }
            for (level, values) in levels {
                for g in [group.to_string(), "all".to_string()] {
                    let per: [Vec<f64>; 3] =
                        std::array::from_fn(|m| values.iter().map(|v| v[m]).collect());
                    sums.entry((level, g)).or_default().push(per);
                }
            }
        }
        let cells = sums
            .into_iter()
            .map(|((level, group), rows)| {
                let mean = |m: usize, d: usize| {
                    rows.iter().map(|r| r[m][d]).sum::<f64>() / rows.len() as f64
                };
                let column = |m: usize| (0..DEPTHS.len()).map(|d| mean(m, d)).collect();
                Cell {
                    level,
                    group,
                    questions: rows.len(),
                    recall_any: column(0),
                    recall_all: column(1),
                    ndcg_any: column(2),
                }
            })
            .collect();
        out.push(RunResult {
            name: report.provider.clone(),
            cells,
        });
    }
    Ok(out)
}

/// One table: a row per run, level and group; the columns print_retrieval_metrics.py prints
/// (recall_all and ndcg_any at 5, 10 and 50) and recall_any at 5 and 10.
pub(crate) fn table(results: &[RunResult]) -> Table {
    let at = |k: usize| {
        DEPTHS
            .iter()
            .position(|d| *d == k)
            .expect("a printed depth")
    };
    let header = [
        "run",
        "level",
        "group",
        "questions",
        "recall_any@5",
        "recall_all@5",
        "ndcg_any@5",
        "recall_any@10",
        "recall_all@10",
        "ndcg_any@10",
        "recall_all@50",
        "ndcg_any@50",
    ];
    let mut rows = Vec::new();
    for r in results {
        for c in &r.cells {
            let cell = |v: &[f64], k: usize| number_cell(Some(v[at(k)]), 4);
            rows.push(vec![
                r.name.clone(),
                c.level.to_string(),
                c.group.clone(),
                c.questions.to_string(),
                cell(&c.recall_any, 5),
                cell(&c.recall_all, 5),
                cell(&c.ndcg_any, 5),
                cell(&c.recall_any, 10),
                cell(&c.recall_all, 10),
                cell(&c.ndcg_any, 10),
                cell(&c.recall_all, 50),
                cell(&c.ndcg_any, 50),
            ]);
        }
    }
    Table::new(
        "LongMemEval retrieval metrics (src/retrieval/eval_utils.py's definitions; abstention questions left out)",
        &header,
        rows,
    )
}
