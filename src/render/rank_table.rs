//! The per-category table of a run on a suite judged by qrels (LoCoMo, LongMemEval, BEAM, BEIR,
//! TREC, ...): its own rank measures first; PrecisionMemBench's set precision and recall, which
//! read the whole context (50 results on LoCoMo), after them under their own name.

use super::table::Table;
use crate::eval::summary::Summary;
use crate::report::LoadedReport;
use crate::run::Ingestion;

fn fmt_opt(x: Option<f64>) -> String {
    super::table::number_cell(x, 2)
}

/// The rank measures of one run, overall and per category: means over the cases with gold, from
/// each case's `rankMetrics` block, in the block's order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RankMeans {
    /// Measure names (`nDCG@10`).
    pub measures: Vec<String>,
    /// Over every case.
    pub all: Vec<Option<f64>>,
    /// Per category, in the order categories first appear.
    pub categories: Vec<(String, Vec<Option<f64>>)>,
}

impl RankMeans {
    /// The means of `report`'s rows; empty when no row has a block.
    pub(crate) fn of(report: &LoadedReport) -> RankMeans {
        let Some(first) = report.rows.iter().find(|r| !r.rank_metrics.is_empty()) else {
            return RankMeans::default();
        };
        let measures: Vec<String> = first.rank_metrics.keys().cloned().collect();
        let mean = |rows: &mut dyn Iterator<Item = &crate::report::Row>| -> Vec<Option<f64>> {
            let rows: Vec<_> = rows.collect();
            (measures.iter())
                .map(|m| {
                    let xs: Vec<f64> = (rows.iter())
                        .filter_map(|r| r.rank_metrics.get(m).flatten())
                        .collect();
                    crate::eval::stats::mean(xs)
                })
                .collect()
        };
        let mut names: Vec<&str> = Vec::new();
        for r in &report.rows {
            if !names.contains(&r.category.as_str()) {
                names.push(&r.category);
            }
        }
        let categories = (names.iter())
            .map(|c| {
                let values = mean(&mut report.rows.iter().filter(|r| r.category == *c));
                (c.to_string(), values)
            })
            .collect();
        RankMeans {
            all: mean(&mut report.rows.iter()),
            measures,
            categories,
        }
    }
}

/// The per-category table of a run on a suite judged by qrels: cases, passes, the rank
/// measures, then the context's set precision and recall.
pub(crate) fn rank_summary_table(
    title: &str,
    summary: &Summary,
    rank: &RankMeans,
    ingestion: Option<&Ingestion>,
) -> String {
    let mut header: Vec<&str> = vec!["Category", "Cases", "Passed"];
    header.extend(rank.measures.iter().map(String::as_str));
    header.extend(["Context P", "Context R"]);
    let mut rows: Vec<Vec<String>> = Vec::new();
    let cells = |values: &[Option<f64>]| -> Vec<String> {
        values
            .iter()
            .map(|v| super::table::number_cell(*v, 3))
            .collect()
    };
    for c in &summary.categories {
        let values = (rank.categories.iter())
            .find(|(name, _)| *name == c.category)
            .map_or_else(|| vec![None; rank.measures.len()], |(_, v)| v.clone());
        let mut row = vec![
            c.category.clone(),
            c.case_count.to_string(),
            c.passed.to_string(),
        ];
        row.extend(cells(&values));
        row.extend([fmt_opt(c.mean_precision), fmt_opt(c.mean_recall)]);
        rows.push(row);
    }
    let mut row = vec![
        "**all**".to_string(),
        summary.total_cases.to_string(),
        summary.total_passed.to_string(),
    ];
    row.extend(cells(&rank.all));
    row.extend([
        fmt_opt(summary.mean_precision),
        fmt_opt(summary.mean_recall),
    ]);
    rows.push(row);
    let table = Table::new(title, &header, rows).markdown_grid();
    let mut footer = format!(
        "passed {}/{} (all gold in the pass depth) · rank measures as ir_measures defines them · \
         Context P/R: PrecisionMemBench's set precision and recall over the whole context · \
         latency p50 {:.2} ms, p95 {:.2} ms",
        summary.total_passed, summary.total_cases, summary.p50_latency_ms, summary.p95_latency_ms,
    );
    if let Some(i) = ingestion {
        footer.push_str(&format!(
            " · index build {:.2} ms ({} beliefs)",
            i.total_ms, i.belief_count
        ));
    }
    format!("### {title}\n\n{table}\n\n{footer}\n")
}
