//! The sensitivity sweep's rows (the baseline with one parameter moved) and where each of C1
//! and C2 holds across them, said from the rows' own verdicts.

use super::{c1_c2, coverage_at, coverage_ends, min_precision, Verdict};
use crate::study::flywheel::metrics::SessionMetrics;
use serde::Serialize;

/// One point of the sensitivity sweep: the baseline with one parameter moved.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SensitivityRow {
    /// Which parameter moved.
    pub parameter: String,
    /// Its value.
    pub value: f64,
    /// Lowest session precision (variant all).
    pub min_precision: Option<f64>,
    /// Coverage of sessions 1-5 ([`coverage_at`]).
    pub coverage_first: Option<f64>,
    /// Coverage of sessions 6-10 ([`coverage_at`]).
    pub coverage_10: Option<f64>,
    /// Coverage of the last five sessions ([`coverage_at`]).
    pub coverage_last: Option<f64>,
    /// Distinct aliases held by two beliefs after the last session.
    pub collisions: usize,
    /// One-word aliases that are a word of another belief's alias, after the last session.
    pub word_overlaps: usize,
    /// C1 under this value.
    pub c1: Verdict,
    /// C2 under this value.
    pub c2: Verdict,
}

impl SensitivityRow {
    /// The row of `sessions` run with `parameter` at `value`.
    pub(crate) fn of(parameter: &str, value: f64, sessions: &[SessionMetrics]) -> SensitivityRow {
        let (c1, c2) = c1_c2(sessions);
        SensitivityRow {
            parameter: parameter.to_string(),
            value,
            min_precision: min_precision(sessions),
            coverage_first: coverage_ends(sessions).0,
            coverage_10: coverage_at(sessions, 10),
            coverage_last: coverage_ends(sessions).1,
            collisions: sessions.last().map_or(0, |m| m.collisions),
            word_overlaps: sessions.last().map_or(0, |m| m.word_overlaps),
            c1,
            c2,
        }
    }
}

/// For each parameter of the sweep and each of C1, C2: where it holds, said from the sweep's
/// own cells. Each verdict that occurs is listed with the values it occurs at, in sweep order
/// (`partly at 0, 0.05; fails at 0.2`); a single verdict reads `fails at every value`.
pub(crate) fn breaking_points(rows: &[SensitivityRow]) -> Vec<(String, String, String)> {
    let mut params: Vec<&str> = rows.iter().map(|r| r.parameter.as_str()).collect();
    params.dedup();
    params
        .into_iter()
        .map(|p| {
            let of: Vec<&SensitivityRow> = rows.iter().filter(|r| r.parameter == p).collect();
            let c1: Vec<(f64, Verdict)> = of.iter().map(|r| (r.value, r.c1)).collect();
            let c2: Vec<(f64, Verdict)> = of.iter().map(|r| (r.value, r.c2)).collect();
            (p.to_string(), where_it_holds(&c1), where_it_holds(&c2))
        })
        .collect()
}

/// `partly at 0, 0.05; fails at 0.2`, or `fails at every value`.
pub(crate) fn where_it_holds(cells: &[(f64, Verdict)]) -> String {
    let mut verdicts: Vec<Verdict> = Vec::new();
    for (_, v) in cells {
        if !verdicts.contains(v) {
            verdicts.push(*v);
        }
    }
    if verdicts.len() == 1 {
        return format!("{} at every value", verdicts[0].name());
    }
    verdicts
        .iter()
        .map(|v| {
            let at: Vec<String> = cells
                .iter()
                .filter(|(_, x)| x == v)
                .map(|(value, _)| value.to_string())
                .collect();
            format!("{} at {}", v.name(), at.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}
