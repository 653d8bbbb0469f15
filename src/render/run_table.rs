//! The human summary printed after a run (markdown, so it pastes into READMEs and CI logs).
//!
//! A suite judged by qrels (LoCoMo, LongMemEval, BEAM, BEIR, TREC, ...) leads with its own rank
//! measures (`rank_table`); PrecisionMemBench's suites keep its layout.

pub(crate) use super::rank_table::{rank_summary_table, RankMeans};
use super::table::Table;
use crate::backend::Workload;
use crate::eval::summary::Summary;
use crate::run::Ingestion;

fn fmt_opt(x: Option<f64>) -> String {
    super::table::number_cell(x, 2)
}

/// Category table plus a totals row and one line of measurements.
pub(crate) fn summary_table(
    title: &str,
    summary: &Summary,
    ingestion: Option<&Ingestion>,
) -> String {
    let mut rows: Vec<Vec<String>> = Vec::new();
    for c in &summary.categories {
        rows.push(vec![
            c.category.clone(),
            c.case_count.to_string(),
            c.passed.to_string(),
            c.failed.to_string(),
            fmt_opt(c.mean_precision),
            fmt_opt(c.mean_recall),
        ]);
    }
    rows.push(vec![
        "**all**".to_string(),
        summary.total_cases.to_string(),
        summary.total_passed.to_string(),
        (summary.total_cases - summary.total_passed).to_string(),
        fmt_opt(summary.mean_precision),
        fmt_opt(summary.mean_recall),
    ]);
    let header = [
        "Category",
        "Cases",
        "Passed",
        "Failed",
        "Precision",
        "Recall",
    ];
    let table = Table::new(title, &header, rows).markdown_grid();
    let p = &summary.pass_types;
    let mut footer = format!(
        "passed {}/{} · active retrieval {} · structural {} · trivially empty {} · latency p50 {:.2} ms, p95 {:.2} ms",
        summary.total_passed,
        summary.total_cases,
        p.active_retrieval,
        p.structural,
        p.trivially_empty,
        summary.p50_latency_ms,
        summary.p95_latency_ms,
    );
    if let Some(i) = ingestion {
        footer.push_str(&format!(
            " · index build {:.2} ms ({} beliefs)",
            i.total_ms, i.belief_count
        ));
    }
    format!("### {title}\n\n{table}\n\n{footer}\n")
}

/// One row of the combined `run` table.
#[derive(Debug, Clone)]
pub struct RunRow {
    /// Suite name.
    pub suite: String,
    /// Backend id.
    pub backend: String,
    /// Static cases or session turns.
    pub kind: Workload,
    /// The summary block.
    pub summary: Summary,
    /// Mean paper drift (sessions only).
    pub mean_drift: Option<f64>,
    /// Mean PrecisionMemBench drift, 1 − precision (sessions only).
    pub mean_precision_drift: Option<f64>,
    /// The rank measures, for a suite judged by qrels (empty otherwise).
    pub rank: RankMeans,
}

/// The combined table of a `run`: one row per suite, backend and kind; led by the rank
/// measures when the suite is judged by qrels.
pub(crate) fn run_table(rows: &[RunRow]) -> String {
    if let Some(ranked) = rows.iter().find(|r| !r.rank.measures.is_empty()) {
        let measures = &ranked.rank.measures;
        let mut header: Vec<&str> = vec!["Suite", "Backend", "Cases", "Passed"];
        header.extend(measures.iter().map(String::as_str));
        header.extend(["Context P", "Context R", "p50 ms", "p95 ms"]);
        let cells = rows
            .iter()
            .map(|r| {
                let s = &r.summary;
                let mut row = vec![
                    r.suite.clone(),
                    r.backend.clone(),
                    format!("{} {}", s.total_cases, r.kind.label()),
                    format!("{}/{}", s.total_passed, s.total_cases),
                ];
                row.extend(measures.iter().map(|m| {
                    let at = r.rank.measures.iter().position(|x| x == m);
                    super::table::number_cell(at.and_then(|k| r.rank.all[k]), 3)
                }));
                row.extend([
                    fmt_opt(s.mean_precision),
                    fmt_opt(s.mean_recall),
                    format!("{:.2}", s.p50_latency_ms),
                    format!("{:.2}", s.p95_latency_ms),
                ]);
                row
            })
            .collect();
        return Table::new("", &header, cells).markdown_grid() + "\n";
    }
    let header = [
        "Suite",
        "Backend",
        "Cases",
        "Passed",
        "Active",
        "Precision",
        "Recall",
        "Drift (noise)",
        "Drift (1−P)",
        "p50 ms",
        "p95 ms",
    ];
    let mut cells: Vec<Vec<String>> = Vec::new();
    for r in rows {
        let s = &r.summary;
        cells.push(vec![
            r.suite.clone(),
            r.backend.clone(),
            format!(
                "{} {}",
                s.total_cases,
                if r.kind == Workload::Session {
                    "turns"
                } else {
                    "static"
                }
            ),
            format!("{}/{}", s.total_passed, s.total_cases),
            s.active_retrieval_passes.to_string(),
            fmt_opt(s.mean_precision),
            fmt_opt(s.mean_recall),
            fmt_opt(r.mean_drift),
            fmt_opt(r.mean_precision_drift),
            format!("{:.2}", s.p50_latency_ms),
            format!("{:.2}", s.p95_latency_ms),
        ]);
    }
    Table::new("", &header, cells).markdown_grid() + "\n"
}

/// One row of the embedding model invariance table (`tenure-eval models`).
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ModelRow {
    /// `bm25` or `cosine`.
    pub backend: String,
    /// Model name (none for BM25: `–` in the table, `null` in JSON).
    pub model: Option<String>,
    /// Text policy (`names+expanded`, ...; none for BM25).
    pub text_policy: Option<String>,
    /// Static cases.
    pub static_summary: Summary,
    /// Session turns, when the suite has them.
    pub session_summary: Option<Summary>,
    /// Mean paper drift over the session turns.
    pub mean_drift: Option<f64>,
    /// The static pass's rank measures (ir_measures name, mean over cases with gold).
    pub measures: Vec<(String, Option<f64>)>,
    /// This row against the chance row, when there is one.
    pub vs_chance: Option<ChanceTest>,
    /// The shard whose cases the row holds (`1/2`), for a JSON reader as the title says it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

/// A row's static rank measure against the chance row's.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ChanceTest {
    /// The measure tested (the first of `--metrics`).
    pub measure: String,
    /// Cases with a value in both (a measure undefined on a case without gold leaves it out).
    pub cases: usize,
    /// Mean of this row − chance over the cases with a value in both.
    pub mean_difference: f64,
    /// Paired randomisation test's p, Holm-adjusted over the table's pairs.
    pub p_adjusted: f64,
    /// Above chance at the table's level.
    pub distinguishable: bool,
    /// Below chance at the table's level (a backend that finds nothing, as alias-BM25 on raw
    /// conversations).
    pub below: bool,
}

/// PrecisionMemBench's "embedding model invariance" table, BM25 as the reference row.
pub(crate) fn models_table(rows: &[ModelRow]) -> String {
    models_grid(rows, "").markdown_grid() + "\n"
}

/// [`models_table`] as a [`Table`] titled `title`, for CSV and LaTeX.
pub(crate) fn models_grid(rows: &[ModelRow], title: &str) -> Table {
    let mut header: Vec<String> = vec!["Backend".into(), "Model".into(), "Text policy".into()];
    let measures: Vec<String> = rows
        .first()
        .map(|r| r.measures.iter().map(|(m, _)| m.clone()).collect())
        .unwrap_or_default();
    header.extend(measures.iter().cloned());
    // CSV and LaTeX carry no note under the table: the column names the measure tested (the
    // first), which only the markdown note said (a fifteenth audit).
    header.push(match measures.first() {
        Some(m) => format!("vs chance ({m})"),
        None => "vs chance".into(),
    });
    header.extend(
        [
            "Precision",
            "Recall",
            "Static passes",
            "Active passes",
            "Session passes",
            "Drift (noise)",
            "Mean ms",
            "p95 ms",
        ]
        .map(String::from),
    );
    let mut cells: Vec<Vec<String>> = Vec::new();
    for r in rows {
        let s = &r.static_summary;
        let mut row = vec![
            r.backend.clone(),
            r.model.clone().unwrap_or_else(|| "–".into()),
            r.text_policy.clone().unwrap_or_else(|| "–".into()),
        ];
        row.extend(r.measures.iter().map(|(_, v)| fmt_opt(*v)));
        row.push(r.vs_chance.as_ref().map_or_else(
            || "–".into(),
            |t| {
                let p = if t.p_adjusted < 0.001 {
                    "p < 0.001".to_string()
                } else {
                    format!("p = {:.3}", t.p_adjusted)
                };
                if t.distinguishable {
                    format!("above ({p})")
                } else if t.below {
                    format!("below ({p})")
                } else {
                    format!("≈ chance ({p})")
                }
            },
        ));
        row.extend([
            fmt_opt(s.mean_precision),
            fmt_opt(s.mean_recall),
            format!("{}/{}", s.total_passed, s.total_cases),
            s.active_retrieval_passes.to_string(),
            r.session_summary.as_ref().map_or_else(
                || "–".into(),
                |t| format!("{}/{}", t.total_passed, t.total_cases),
            ),
            fmt_opt(r.mean_drift),
            format!("{:.2}", s.mean_latency_ms),
            format!("{:.2}", s.p95_latency_ms),
        ]);
        cells.push(row);
    }
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    Table::new(title, &header, cells)
}

/// The cases (or turns) a report failed, first `limit` of them with their first failure (or
/// error), and how many more: what a terminal shows under the run table, so that failing ids
/// are seen without opening the report.
pub(crate) fn failing_cases(report: &crate::report::LoadedReport, limit: usize) -> String {
    let failed: Vec<&crate::report::Row> = report.rows.iter().filter(|r| !r.passed).collect();
    if failed.is_empty() {
        return String::new();
    }
    let mut text = format!(
        "failing in {} ({} of {}):\n",
        report.path.display(),
        failed.len(),
        report.rows.len()
    );
    for row in failed.iter().take(limit) {
        // Session failures already begin with "turn N:".
        let id = match row.turn_index {
            Some(turn) if !row.failures.first().is_some_and(|f| f.starts_with("turn ")) => {
                format!("{} turn {turn}", row.case_id)
            }
            _ => row.case_id.clone(),
        };
        let why = match row.failures.first() {
            Some(first) => first.clone(),
            None if row.errored => "backend error (see the report)".into(),
            None => "failed".into(),
        };
        let more = match row.failures.len() {
            0 | 1 => String::new(),
            n => format!(" (+{} more)", n - 1),
        };
        text.push_str(&format!("  {id}: {why}{more}\n"));
    }
    if failed.len() > limit {
        text.push_str(&format!("  … and {} more\n", failed.len() - limit));
    }
    text
}
