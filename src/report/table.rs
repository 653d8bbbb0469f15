//! The human summary printed after a run (markdown, so it pastes into READMEs and CI logs).

use crate::eval::summary::Summary;
use crate::run::Ingestion;
use tabled::builder::Builder;
use tabled::settings::Style;

fn fmt_opt(x: Option<f64>) -> String {
    x.map_or_else(|| "–".to_string(), |v| format!("{v:.2}"))
}

/// Category table plus a totals row and one line of measurements.
pub fn summary_table(title: &str, summary: &Summary, ingestion: Option<&Ingestion>) -> String {
    let mut builder = Builder::default();
    builder.push_record([
        "Category",
        "Cases",
        "Passed",
        "Failed",
        "Precision",
        "Recall",
    ]);
    for c in &summary.categories {
        builder.push_record([
            c.category.clone(),
            c.case_count.to_string(),
            c.passed.to_string(),
            c.failed.to_string(),
            fmt_opt(c.mean_precision),
            fmt_opt(c.mean_recall),
        ]);
    }
    builder.push_record([
        "**all**".to_string(),
        summary.total_cases.to_string(),
        summary.total_passed.to_string(),
        (summary.total_cases - summary.total_passed).to_string(),
        fmt_opt(summary.mean_precision),
        fmt_opt(summary.mean_recall),
    ]);
    let table = builder.build().with(Style::markdown()).to_string();
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
