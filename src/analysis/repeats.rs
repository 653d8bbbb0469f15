//! A run repeated (`--repeat N`, each repeat on a fresh store): each measure's spread over the
//! repeats' reports, and the cases whose pass/fail differed between them. What a
//! non-deterministic memory system (an LLM extracting memories) needs instead of one sample.

use crate::eval::stats::{mean, spread};
use crate::report::repeats::{Flaky, Measured, Repeats};
use crate::report::LoadedReport;

/// The repeats block of `runs` (the same pass's reports, in run order).
pub(crate) fn summarise(runs: &[LoadedReport]) -> Repeats {
    let summaries: Vec<_> = runs.iter().map(LoadedReport::summary).collect();
    let mut measures = Vec::new();
    // Every measure here has a range: a share in [0, 1], a count of passes in [0, cases].
    let cases = summaries.iter().map(|s| s.total_cases).max().unwrap_or(0) as f64;
    let mut add = |measure: &str, values: Vec<Option<f64>>| {
        let high = if measure == "totalPassed" { cases } else { 1.0 };
        // A measure undefined in some repeat (no case with a precision) has no spread.
        if let Some(values) = values.into_iter().collect::<Option<Vec<f64>>>() {
            if let Some(mut spread) = spread(&values) {
                // The t interval of two or three repeats reached a pass rate of 1.54 and a
                // precision of -0.31 (an eighteenth audit): clipped to the measure's range.
                spread.ci95 = [spread.ci95[0].max(0.0), spread.ci95[1].min(high)];
                measures.push(Measured {
                    measure: measure.to_string(),
                    spread,
                });
            }
        }
    };
    add(
        "passRate",
        summaries.iter().map(|s| Some(s.pass_rate)).collect(),
    );
    add(
        "totalPassed",
        summaries
            .iter()
            .map(|s| Some(s.total_passed as f64))
            .collect(),
    );
    add(
        "meanPrecision",
        summaries.iter().map(|s| s.mean_precision).collect(),
    );
    add(
        "meanRecall",
        summaries.iter().map(|s| s.mean_recall).collect(),
    );
    for name in rank_measures(runs) {
        let values = runs
            .iter()
            .map(|r| {
                mean(
                    r.rows
                        .iter()
                        .filter_map(|row| row.rank_metrics.get(&name).flatten()),
                )
            })
            .collect();
        add(&name, values);
    }
    Repeats {
        n: runs.len(),
        measures,
        flaky: flaky(runs),
    }
}

/// The rank measures of the reports, in the first report's order.
fn rank_measures(runs: &[LoadedReport]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for row in runs.iter().flat_map(|r| &r.rows) {
        for m in row.rank_metrics.keys() {
            if !names.contains(m) {
                names.push(m.clone());
            }
        }
    }
    names
}

/// Cases passing in some repeats and failing in others, in the last report's order.
fn flaky(runs: &[LoadedReport]) -> Vec<Flaky> {
    let Some(last) = runs.last() else {
        return Vec::new();
    };
    last.rows
        .iter()
        .filter_map(|row| {
            let key = row.key();
            let passed = runs
                .iter()
                .filter(|r| r.rows.iter().any(|x| x.key() == key && x.passed))
                .count();
            (passed > 0 && passed < runs.len()).then_some(Flaky {
                case: key,
                passed,
                of: runs.len(),
            })
        })
        .collect()
}
