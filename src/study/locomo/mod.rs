//! LoCoMo's results, from the reports of runs on it (`tenure-eval locomo REPORT... --data
//! FILE`, docs/locomo.md): per run and per category, the rank measures the reports carry
//! (ir_measures' definitions) and LoCoMo's own recall accuracy at the same depths
//! (`recall::recall_accuracy`, its evaluation code's definition), how many cases pass; the
//! runs' paired significance is `compare`'s. Does the paper's thesis (lexical retrieval over
//! structured memory beats cosine similarity) hold on real conversations? These tables are
//! where docs/results.md reads it.

pub(crate) mod figure;
pub(crate) mod job;
pub(crate) mod recall;

use crate::error::{Error, Result};
use crate::eval::rank::{parse_measures, Measure};
use crate::render::table::{number_cell, Table};
use crate::report::rank_block::row_values;
use crate::report::LoadedReport;
use crate::suite::locomo::{category_name, Question, MEASURES};
use crate::suite::Label;
use serde::Serialize;
use std::collections::HashMap;

/// The depths of LoCoMo's recall accuracy: the cut-offs of the rank measures' recall.
pub(crate) const DEPTHS: [usize; 5] = [1, 5, 10, 25, 50];

/// One run's figures over one group of questions.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Cell {
    /// The category, `all (1-4)` or `all`.
    pub group: String,
    /// Cases scored (questions with gold).
    pub cases: usize,
    /// Cases passed (all gold in the top 10).
    pub passed: usize,
    /// Means of the rank measures, in [`MEASURES`] order, over the cases; `None` where no
    /// case has the measure (a mean of nothing printed `-0.000`, the float sum's empty value).
    pub rank: Vec<Option<f64>>,
    /// Questions LoCoMo's recall counts: all of the file's (the cases; questions without
    /// evidence, which it counts as recalled; and questions whose evidence no item of the
    /// database stands for, missed).
    pub questions: usize,
    /// LoCoMo's recall accuracy at each of `DEPTHS`, mean over `questions`.
    pub recall_accuracy: Vec<f64>,
}

/// One run's figures.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RunResult {
    /// Its name (the report's run label).
    pub name: String,
    /// The names of each cell's `rank` values, in order (ir_measures' names), and the depths
    /// of its `recallAccuracy`: the JSON's arrays named in it (a fourteenth audit's leftover).
    pub rank_measures: Vec<String>,
    /// See `rank_measures`.
    pub recall_depths: Vec<usize>,
    /// The suite's label: `locomo` (turns), `locomo-sessions`, `locomo-observations`,
    /// `locomo-summaries`, each perhaps `-corrected`.
    pub suite: String,
    /// The groups: each category in LoCoMo's order, then all but adversarial, then all.
    pub cells: Vec<Cell>,
    /// Each conversation (a user: `conv-26`, ...) over every category, in file order: a
    /// memory's figure can hang on one long conversation.
    pub conversations: Vec<Cell>,
}

/// The groups rows are shown in: LoCoMo's categories 1-5, then the two totals.
fn groups() -> Vec<&'static str> {
    let mut g: Vec<&'static str> = (1..=5).filter_map(category_name).collect();
    g.extend(["all (1-4)", "all"]);
    g
}

fn in_group(group: &str, category: &str) -> bool {
    match group {
        "all" => true,
        "all (1-4)" => category != "adversarial",
        g => g == category,
    }
}

/// One case of a report: (category, rank values, recall accuracies, passed, conversation).
type Scored<'a> = (&'a str, &'a [Option<f64>], Vec<f64>, bool, &'a str);

/// The conversation of a question id (`conv-26/q3` -> `conv-26`).
fn conversation(case_id: &str) -> &str {
    case_id.split_once('/').map_or(case_id, |(c, _)| c)
}

/// A group's cell: its scored cases, and the recall of the questions that are not cases.
fn cell(group: &str, rows: &[&Scored], extra: &[f64], measures: usize) -> Cell {
    let mean = |xs: Vec<f64>| crate::eval::stats::mean(xs);
    let questions = rows.len() + extra.len();
    Cell {
        group: group.to_string(),
        cases: rows.len(),
        passed: rows.iter().filter(|s| s.3).count(),
        rank: (0..measures)
            .map(|m| mean(rows.iter().filter_map(|s| s.1[m]).collect()))
            .collect(),
        questions,
        recall_accuracy: (0..DEPTHS.len())
            .map(|d| {
                let sum: f64 = rows.iter().map(|s| s.2[d]).sum::<f64>() + extra.iter().sum::<f64>();
                sum / questions.max(1) as f64
            })
            .collect(),
    }
}

/// The figures of each report against `questions` (the file's questions as written, or as
/// the corrections' overlay writes them for reports of the corrected view); `covers` gives
/// the dialog ids each observation stands for (`locomo::observation_covers`), which LoCoMo's
/// code flattens into the retrieved context.
pub(crate) fn measure(
    reports: &[LoadedReport],
    questions: &[Question],
    covers: &HashMap<String, Vec<String>>,
) -> Result<Vec<RunResult>> {
    let measures: Vec<Measure> = parse_measures(MEASURES).map_err(Error::Usage)?;
    let by_id: HashMap<&str, &Question> =
        questions.iter().map(|q| (q.case_id.as_str(), q)).collect();
    let mut out = Vec::new();
    for report in reports {
        let suite = report.suite().unwrap_or("");
        let label = Label::parse(suite);
        if label.name != "locomo" {
            return Err(Error::input(
                &report.path,
                "$.manifest.suite",
                format!("{suite:?}: expected a report of a run on --suite locomo"),
            ));
        }
        let values = row_values(report, &measures, None)?;
        let mut scored: Vec<Scored> = Vec::new();
        for (row, v) in report.rows.iter().zip(&values) {
            let q = by_id.get(row.case_id.as_str()).ok_or_else(|| {
                Error::input(
                    &report.path,
                    "$.cases",
                    format!("case {:?} is not a question of the data file", row.case_id),
                )
            })?;
            let acc = DEPTHS
                .iter()
                .map(|&k| {
                    let top = &row.ranking[..k.min(row.ranking.len())];
                    let context = recall::context(label.unit, top, covers);
                    recall::recall_accuracy(&q.evidence, &context)
                })
                .collect();
            scored.push((q.category, v, acc, row.passed, conversation(&q.case_id)));
        }
        let present: std::collections::HashSet<&str> =
            report.rows.iter().map(|r| r.case_id.as_str()).collect();
        // Questions that are not cases still count in LoCoMo's recall: one without evidence
        // as recalled (1), one whose evidence no item of this database stands for (an
        // observation run's) as missed (0), whatever is retrieved.
        let absent: Vec<(&Question, f64)> = questions
            .iter()
            .filter(|q| !present.contains(q.case_id.as_str()))
            .map(|q| (q, if q.evidence.is_empty() { 1.0 } else { 0.0 }))
            .collect();
        let cells = groups()
            .into_iter()
            .map(|group| {
                let rows: Vec<_> = scored.iter().filter(|s| in_group(group, s.0)).collect();
                let extra: Vec<f64> = (absent.iter())
                    .filter(|(q, _)| in_group(group, q.category))
                    .map(|(_, r)| *r)
                    .collect();
                cell(group, &rows, &extra, measures.len())
            })
            .collect();
        let mut ids: Vec<&str> = Vec::new();
        for q in questions {
            let c = conversation(&q.case_id);
            if !ids.contains(&c) {
                ids.push(c);
            }
        }
        let conversations = ids
            .into_iter()
            .map(|c| {
                let rows: Vec<_> = scored.iter().filter(|s| s.4 == c).collect();
                let extra: Vec<f64> = (absent.iter())
                    .filter(|(q, _)| conversation(&q.case_id) == c)
                    .map(|(_, r)| *r)
                    .collect();
                cell(c, &rows, &extra, measures.len())
            })
            .collect();
        out.push(RunResult {
            name: report.provider.clone(),
            rank_measures: MEASURES.split(',').map(str::to_string).collect(),
            recall_depths: DEPTHS.to_vec(),
            suite: suite.to_string(),
            cells,
            conversations,
        });
    }
    Ok(out)
}

/// The tables: one per measure family (ir_measures' rank measures; LoCoMo's recall accuracy),
/// a row per run and group.
pub(crate) fn tables(results: &[RunResult]) -> Vec<Table> {
    let measures: Vec<&str> = MEASURES.split(',').collect();
    let mut header = vec!["run", "unit", "group", "cases", "passed"];
    header.extend(&measures);
    let unit = |r: &RunResult| Label::parse(&r.suite).unit.name();
    // A cell's run, unit, group, cases, passed and rank measures.
    let rank_row = |r: &RunResult, c: &Cell| -> Vec<String> {
        let mut row = vec![
            r.name.clone(),
            unit(r).to_string(),
            c.group.clone(),
            c.cases.to_string(),
            c.passed.to_string(),
        ];
        row.extend(c.rank.iter().map(|v| number_cell(*v, 3)));
        row
    };
    let mut rank_rows = Vec::new();
    let mut recall_rows = Vec::new();
    for r in results {
        for c in &r.cells {
            rank_rows.push(rank_row(r, c));
            let mut row = vec![
                r.name.clone(),
                unit(r).to_string(),
                c.group.clone(),
                c.questions.to_string(),
            ];
            row.extend(c.recall_accuracy.iter().map(|v| number_cell(Some(*v), 3)));
            recall_rows.push(row);
        }
    }
    // Per conversation: the rank measures and LoCoMo's recall accuracy at the reader's depth.
    let mut conversation_header = vec!["run", "unit", "conversation", "cases", "passed"];
    conversation_header.extend(&measures);
    conversation_header.push("acc@10");
    let at10 = DEPTHS.iter().position(|&k| k == 10).expect("10 is a depth");
    let mut conversation_rows = Vec::new();
    for r in results {
        for c in &r.conversations {
            let mut row = rank_row(r, c);
            row.push(number_cell(Some(c.recall_accuracy[at10]), 3));
            conversation_rows.push(row);
        }
    }
    let depths: Vec<String> = DEPTHS.iter().map(|k| format!("acc@{k}")).collect();
    let mut recall_header = vec!["run", "unit", "group", "questions"];
    recall_header.extend(depths.iter().map(String::as_str));
    // Runs of one view only (job.rs refuses the two together): a corrected view's figures are
    // against the audit's gold, which only the JSON said (a fifteenth audit).
    let corrected = (results.iter())
        .any(|r| Label::parse(&r.suite).view == Some(crate::suite::locomo::CORRECTED));
    let view = if corrected {
        " · the corrected view (locomo-audit's gold)"
    } else {
        ""
    };
    vec![
        Table::new(
            &format!(
                "LoCoMo by category: rank measures (ir_measures), cases passed (all gold in the \
                 top 10){view}"
            ),
            &header,
            rank_rows,
        ),
        Table::new(
            &format!(
                "LoCoMo by category: LoCoMo's recall accuracy (task_eval/evaluation.py; a \
                 question without evidence counts 1){view}"
            ),
            &recall_header,
            recall_rows,
        ),
        Table::new(
            &format!(
                "LoCoMo by conversation: rank measures (ir_measures), cases passed, and LoCoMo's \
                 recall accuracy at 10{view}"
            ),
            &conversation_header,
            conversation_rows,
        ),
    ]
}
