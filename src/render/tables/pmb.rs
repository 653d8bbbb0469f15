//! PrecisionMemBench's README tables: retrieval precision, pass types, sessions, and embedding
//! model invariance. Row order and number formats follow the published README.

use super::{LoadedReport, Table};
use crate::backend::ScoreScale;
use crate::backend::Workload;
use crate::eval::summary::Summary;
use std::cmp::Ordering;

/// Embedding models of PrecisionMemBench's published vector reports, by file name (from its
/// README; the report files do not name the model).
const PUBLISHED_MODELS: [(&str, &str); 3] = [
    (
        "nomic-retrieval-report-vector.json",
        "nomic-embed-text (768)",
    ),
    ("retrieval-report-vector.json", "mxbai-embed-large (1024)"),
    ("qwen3-retrieval-report-vector.json", "qwen3-8b (4096)"),
];

fn fixed(x: Option<f64>, decimals: usize) -> String {
    x.map_or_else(|| "---".to_string(), |v| format!("{v:.decimals$}"))
}

/// Python's `repr(round(x, 2))`, which the invariance table prints (`1.0`, `0.09`).
fn py_round2(x: Option<f64>) -> String {
    x.map_or_else(
        || "---".to_string(),
        |v| format!("{:?}", (v * 100.0).round() / 100.0),
    )
}

fn desc(a: Option<f64>, b: Option<f64>) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// A model variant of a vector baseline (`<model>-retrieval-report-vector.json`): it belongs in
/// the invariance table, not a second time in the provider tables.
fn is_model_variant(r: &LoadedReport) -> bool {
    let name = r.file_name();
    name.ends_with("-retrieval-report-vector.json") && !name.starts_with("session-")
}

fn model_label(r: &LoadedReport) -> Option<String> {
    // The published reports name their model by file name only; a report with a manifest
    // names its own (an audit found a hashed model's `--label vector` report listed as
    // mxbai-embed-large (1024)).
    let name = r.file_name();
    let published = PUBLISHED_MODELS.iter().find(|(file, _)| *file == name);
    if let (Some((_, label)), None) = (published, &r.manifest) {
        return Some(label.to_string());
    }
    // A label the user gave names the run; the model beside it says what embedded.
    let given = r.manifest.as_ref().is_some_and(|m| m.run_label_given);
    let shown = match (&r.backend.model, given) {
        (Some(model), true) if *model != r.provider => format!("{} ({model})", r.provider),
        _ => r.provider.clone(),
    };
    (r.backend.score_scale == ScoreScale::VectorSimilarity || is_model_variant(r)).then_some(shown)
}

/// Every PrecisionMemBench table the given reports support.
pub fn pmb_tables(reports: &[LoadedReport]) -> Vec<Table> {
    let statics: Vec<(&LoadedReport, Summary)> = reports
        .iter()
        .filter(|r| r.kind == Workload::Static)
        .map(|r| (r, r.summary()))
        .collect();
    let sessions: Vec<(&LoadedReport, Summary)> = reports
        .iter()
        .filter(|r| r.kind == Workload::Session)
        .map(|r| (r, r.summary()))
        .collect();
    let mut tables = Vec::new();
    // Two runs of one name in one table (a BEAM run of one tier and of two, both bm25-text)
    // were two rows of one name, in another order in each table (a tenth audit): shown by their
    // files then. The model variants (the published vector reports) have their own table.
    let shown: Vec<&LoadedReport> = (statics.iter().filter(|(r, _)| !is_model_variant(r)))
        .chain(&sessions)
        .map(|(r, _)| *r)
        .collect();
    let names = crate::report::label::shown_names_of(&shown);
    let name = |r: &LoadedReport| -> String {
        (shown.iter().position(|o| std::ptr::eq(*o, r)))
            .map_or_else(|| r.provider.clone(), |i| names[i].clone())
    };

    let mut providers: Vec<&(&LoadedReport, Summary)> = statics
        .iter()
        .filter(|(r, _)| !is_model_variant(r))
        .collect();
    if !providers.is_empty() {
        providers.sort_by(|a, b| {
            desc(a.1.mean_precision, b.1.mean_precision).then_with(|| name(a.0).cmp(&name(b.0)))
        });
        tables.push(Table {
            title: "Retrieval Precision".into(),
            header: [
                "Provider",
                "Active passes",
                "Total passes",
                "Mean precision",
                "Mean recall",
                "Retrieval p50 (ms)",
                "Ingestion total (s)",
            ]
            .map(String::from)
            .to_vec(),
            rows: providers
                .iter()
                .map(|(r, s)| {
                    vec![
                        name(r),
                        format!("{0}/{0}", s.pass_types.active_retrieval),
                        format!("{}/{}", s.total_passed, s.total_cases),
                        fixed(s.mean_precision, 2),
                        fixed(s.mean_recall, 2),
                        if r.has_latency() {
                            fixed(Some(s.p50_latency_ms), 2)
                        } else {
                            "---".into()
                        },
                        // The README rounds seconds to one decimal, then prints two.
                        r.ingestion_ms.map_or_else(
                            || "---".into(),
                            |ms| format!("{:.2}", (ms / 100.0).round() / 10.0),
                        ),
                    ]
                })
                .collect(),
        });
        providers.sort_by(|a, b| {
            b.1.pass_types
                .active_retrieval
                .cmp(&a.1.pass_types.active_retrieval)
                .then_with(|| name(a.0).cmp(&name(b.0)))
        });
        tables.push(Table {
            title: "Pass type breakdown".into(),
            header: [
                "Provider",
                "Active retrieval",
                "Structural",
                "Trivially empty",
            ]
            .map(String::from)
            .to_vec(),
            rows: providers
                .iter()
                .map(|(r, s)| {
                    let p = s.pass_types;
                    vec![
                        name(r),
                        p.active_retrieval.to_string(),
                        p.structural.to_string(),
                        p.trivially_empty.to_string(),
                    ]
                })
                .collect(),
        });
    }

    let mut models: Vec<(String, &(&LoadedReport, Summary))> = statics
        .iter()
        .filter_map(|entry| model_label(entry.0).map(|m| (m, entry)))
        .collect();
    if !models.is_empty() {
        models.sort_by(|a, b| {
            a.1 .1
                .mean_latency_ms
                .total_cmp(&b.1 .1.mean_latency_ms)
                .then_with(|| a.0.cmp(&b.0))
        });
        tables.push(Table {
            title: "Embedding model invariance".into(),
            header: [
                "Model",
                "Precision",
                "Recall",
                "Passes",
                "Mean (ms)",
                "p95 (ms)",
            ]
            .map(String::from)
            .to_vec(),
            rows: models
                .iter()
                .map(|(label, (_, s))| {
                    vec![
                        label.clone(),
                        py_round2(s.mean_precision),
                        py_round2(s.mean_recall),
                        format!("{}/{}", s.total_passed, s.total_cases),
                        fixed(Some(s.mean_latency_ms), 2),
                        fixed(Some(s.p95_latency_ms), 2),
                    ]
                })
                .collect(),
        });
    }
    if !sessions.is_empty() {
        let mut rows: Vec<&(&LoadedReport, Summary)> = sessions.iter().collect();
        rows.sort_by(|a, b| {
            b.1.total_passed
                .cmp(&a.1.total_passed)
                .then_with(|| desc(a.1.mean_precision, b.1.mean_precision))
                .then_with(|| name(a.0).cmp(&name(b.0)))
        });
        tables.push(Table {
            // Upstream's table, header and all; its drift is 1 − precision, said in the title.
            title: "Session eval — noise isolation under multi-turn drift (mean drift = 1 − precision, PrecisionMemBench's definition)".into(),
            header: [
                "Provider",
                "Turns passed",
                "Pass rate",
                "Mean drift",
                "Noise isolation",
                "Mean precision",
                "Session p50 (ms)",
            ]
            .map(String::from)
            .to_vec(),
            rows: rows
                .iter()
                .map(|(r, s)| {
                    vec![
                        name(r),
                        format!("{}/{}", s.total_passed, s.total_cases),
                        fixed(Some(s.pass_rate), 2),
                        fixed(r.mean_precision_drift(), 4),
                        // Noise isolation is the turn pass rate.
                        fixed(Some(s.pass_rate), 2),
                        fixed(s.mean_precision, 4),
                        if r.has_latency() {
                            fixed(Some(s.p50_latency_ms), 2)
                        } else {
                            "---".into()
                        },
                    ]
                })
                .collect(),
        });
    }

    tables
}
