//! The rank-metric table of `tables`.

use crate::backend::Workload;
use crate::eval::stats::mean;
use crate::render::table::{number_cell, Table};
use crate::report::LoadedReport;

/// `tables`' rank-metric table: one row per report that carries `rankMetrics` blocks (run,
/// kind, queries with gold, each measure's mean), measures in the order first met; `None` when
/// no report has a block.
pub(crate) fn rank_table(reports: &[LoadedReport]) -> Option<Table> {
    let names = block_measures(reports);
    if names.is_empty() {
        return None;
    }
    // Named as `compare` and the page name them: a report and a TREC run (or two reports) of one
    // name get their file names, else they read as one run twice.
    let shown = crate::report::label::shown_names(reports);
    let rows = reports
        .iter()
        .zip(shown)
        .filter(|(r, _)| r.rows.iter().any(|row| !row.rank_metrics.is_empty()))
        .map(|(r, name)| {
            let kind = match r.kind {
                Workload::Static => "static",
                Workload::Session => "turns",
            };
            let judged = r
                .rows
                .iter()
                .filter(|row| row.rank_metrics.0.iter().any(|(_, v)| v.is_some()))
                .count();
            let mut cells = vec![name, kind.to_string(), judged.to_string()];
            for m in &names {
                let v: Vec<f64> = r
                    .rows
                    .iter()
                    .filter_map(|row| row.rank_metrics.get(m).flatten())
                    .collect();
                cells.push(number_cell(mean(v), 4));
            }
            cells
        })
        .collect();
    let mut header = vec!["Run".to_string(), "Kind".into(), "Queries with gold".into()];
    header.extend(names);
    Some(Table {
        title: "Rank metrics (means over queries with gold; ir_measures names)".into(),
        header,
        rows,
    })
}

/// The measures of `reports`' `rankMetrics` blocks, in the order first met.
pub(crate) fn block_measures(reports: &[LoadedReport]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for row in reports.iter().flat_map(|r| &r.rows) {
        for m in row.rank_metrics.keys() {
            if !names.contains(m) {
                names.push(m.clone());
            }
        }
    }
    names
}
