//! The paper's tables from report files: case distribution by category (its Table 2), the
//! headline comparison per backend, and session noise isolation on the noise-critical turns
//! (its Table 3).
//!
//! The paper tag's case file has no categories. Each of its 60 case ids also exists in the HEAD
//! (`pmb`) case file, whose category is used for rows that carry none.

use super::{LoadedReport, ReportKind, Table};
use crate::eval::summary::UNCATEGORISED;
use crate::suite::{Suite, SuiteSource};
use std::collections::HashMap;

/// The noise-critical turns: (column, session case, turn).
const NOISE_TURNS: [(&str, &str, i64); 3] = [
    (
        "Turn 9 (implicit return)",
        "session-drift-noise-10-turns-implicit-redis",
        9,
    ),
    (
        "Turn 10 (re-entry)",
        "session-drift-noise-10-turns-implicit-redis",
        10,
    ),
    (
        "Cross-session turn 0",
        "cross-session-formative-turn-surfaces-via-belief-join",
        0,
    ),
];

fn head_categories() -> HashMap<String, String> {
    Suite::load(&SuiteSource::Builtin("pmb".into()))
        .map(|s| {
            s.cases
                .into_iter()
                .filter_map(|c| Some((c.case_id, c.category?)))
                .collect()
        })
        .unwrap_or_default()
}

fn ratio(passed: usize, total: usize) -> String {
    format!("{passed}/{total}")
}

/// The paper's tables for the given reports (static and session, one pair per backend).
pub fn paper_tables(reports: &[LoadedReport]) -> Vec<Table> {
    let mut tables = Vec::new();
    let statics: Vec<&LoadedReport> = reports
        .iter()
        .filter(|r| r.kind == ReportKind::Static)
        .collect();
    let sessions: Vec<&LoadedReport> = reports
        .iter()
        .filter(|r| r.kind == ReportKind::Session)
        .collect();

    if let Some(first) = statics.first() {
        let head = head_categories();
        let mut counts: Vec<(String, usize)> = Vec::new();
        for row in &first.rows {
            let category = match row.category.as_str() {
                UNCATEGORISED => head
                    .get(&row.case_id)
                    .cloned()
                    .unwrap_or_else(|| UNCATEGORISED.to_string()),
                other => other.to_string(),
            };
            match counts.iter_mut().find(|(c, _)| *c == category) {
                Some(entry) => entry.1 += 1,
                None => counts.push((category, 1)),
            }
        }
        counts.sort_by_key(|c| std::cmp::Reverse(c.1));
        let mut rows: Vec<Vec<String>> = counts
            .iter()
            .map(|(c, n)| vec![c.clone(), n.to_string(), String::new()])
            .collect();
        let turns = sessions.first().map_or(0, |s| s.rows.len());
        if turns > 0 {
            rows.push(vec![
                crate::run::SESSION_CATEGORY.to_string(),
                String::new(),
                turns.to_string(),
            ]);
        }
        rows.push(vec![
            "Total".into(),
            first.rows.len().to_string(),
            turns.to_string(),
        ]);
        tables.push(Table {
            title: format!(
                "Case distribution by category ({} static cases, {turns} session turns)",
                first.rows.len()
            ),
            header: ["Category", "Static cases", "Session turns"]
                .map(String::from)
                .to_vec(),
            rows,
        });
    }

    let mut providers: Vec<&str> = Vec::new();
    for r in reports {
        if !providers.contains(&r.provider.as_str()) {
            providers.push(&r.provider);
        }
    }
    let find = |provider: &str, kind: ReportKind| {
        reports
            .iter()
            .find(|r| r.provider == provider && r.kind == kind)
    };
    let passes = |r: Option<&LoadedReport>| {
        r.map(|r| (r.rows.iter().filter(|x| x.passed).count(), r.rows.len()))
    };
    tables.push(Table {
        title: "Headline comparison".into(),
        header: [
            "Backend",
            "Static passes",
            "Session passes",
            "Total",
            "Mean precision",
        ]
        .map(String::from)
        .to_vec(),
        rows: providers
            .iter()
            .map(|p| {
                let (s, t) = (
                    passes(find(p, ReportKind::Static)),
                    passes(find(p, ReportKind::Session)),
                );
                let total = s
                    .zip(t)
                    .map(|(a, b)| ratio(a.0 + b.0, a.1 + b.1))
                    .unwrap_or_else(|| "—".into());
                let precision =
                    find(p, ReportKind::Static).and_then(|r| r.summary().mean_precision);
                vec![
                    p.to_string(),
                    s.map_or_else(|| "—".into(), |x| ratio(x.0, x.1)),
                    t.map_or_else(|| "—".into(), |x| ratio(x.0, x.1)),
                    total,
                    precision.map_or_else(|| "—".into(), |v| format!("{v:.2}")),
                ]
            })
            .collect(),
    });

    if !sessions.is_empty() {
        let mut header = vec!["Backend".to_string()];
        header.extend(NOISE_TURNS.iter().map(|(c, _, _)| c.to_string()));
        header.push("Mean (all turns)".into());
        tables.push(Table {
            // One definition for every report: the paper's noise share, recomputed from each
            // turn's lists (PrecisionMemBench's reports of other providers use `driftScore`
            // for 1 − precision).
            title: "Session noise isolation: drift = noise / (relevant + pinned) on the noise-critical turns".into(),
            header,
            rows: sessions
                .iter()
                .map(|r| {
                    let mut row = vec![r.provider.clone()];
                    for (_, case, turn) in NOISE_TURNS {
                        let drift = r.rows.iter().find(|x| x.case_id == case && x.turn_index == Some(turn)).and_then(|x| x.noise_drift);
                        row.push(drift.map_or_else(|| "—".into(), |d| format!("{d:.2}")));
                    }
                    row.push(r.mean_drift().map_or_else(|| "—".into(), |d| format!("{d:.2}")));
                    row
                })
                .collect(),
        });
    }
    tables
}
