//! `compare` over any number of runs of the same cases, in the style of ranx's comparison
//! table: one row per run (lettered a, b, c, …), one column per measure with the run's mean,
//! and a superscript listing the runs it beats significantly.
//!
//! For each measure, every pair of runs is tested on the cases both have a value for (cases in
//! every run; a case without gold has no rank-measure value) with Fisher's paired randomisation
//! test (`paired_randomisation`); the pairs' p-values are adjusted together by Holm's method
//! (one family per measure), and run A's cell names run B when A's mean is higher and the
//! adjusted p is below α. The best mean of each column is bold (every tied best).

use crate::error::Result;
use crate::eval::qrels::Qrels;
use crate::eval::rank::Measure;
use crate::eval::stats::{holm, mean, paired_randomisation, Randomisation};
use crate::report::rank_block::row_values;
use crate::report::LoadedReport;
use serde::Serialize;

/// The column of the suite's own retrieval precision (cases where it is defined).
pub(crate) const PRECISION: &str = "precision";
/// The column of pass/fail.
pub(crate) const PASSED: &str = "passed";

/// How to test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TestSettings {
    /// Significance level, after Holm's adjustment.
    pub alpha: f64,
    /// Sign patterns drawn when a test is too large to enumerate.
    pub resamples: usize,
    /// Seed of those draws.
    pub seed: u64,
}

impl TestSettings {
    /// A usage error when a sampled test could never reach `alpha` in a family of `tests`
    /// (Holm's adjustment multiplies the least p, 1 / (resamples + 1), by the family's size):
    /// with `--resamples 0` every p read 1.0 and the table said "no difference" of runs a full
    /// test separates at p ≈ 1e-5 (an audit), and at 20 three runs lost every mark (a review).
    pub(crate) fn check(&self, tests: usize) -> crate::error::Result<()> {
        let tests = tests.max(1) as f64;
        if (self.resamples as f64 + 1.0) * self.alpha <= tests {
            return Err(crate::error::Error::Usage(format!(
                "--resamples {} at --alpha {}: a sampled randomisation test of so few patterns \
                 can never reach significance in a family of {tests} tests (its least adjusted \
                 p is {tests}/(N+1)); give at least {}",
                self.resamples,
                self.alpha,
                (tests / self.alpha).floor() as usize
            )));
        }
        Ok(())
    }
}

/// One run.
#[derive(Debug, Clone, Serialize)]
pub struct Run {
    /// a, b, c, …
    pub letter: String,
    /// The run's name in tables.
    pub name: String,
    /// Its file.
    pub file: String,
}

/// One test between two runs on one measure.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PairTest {
    /// First run's letter.
    pub a: String,
    /// Second run's letter.
    pub b: String,
    /// Cases with a value in both.
    pub cases: usize,
    /// Mean of a − b over those cases.
    pub mean_difference: f64,
    /// The test.
    pub test: Randomisation,
    /// Holm-adjusted p over this measure's pairs.
    pub p_adjusted: f64,
    /// The two runs' positions.
    #[serde(skip)]
    runs: (usize, usize),
}

/// One measure's column.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Column {
    /// ir_measures name.
    pub measure: String,
    /// Each run's mean over its cases with a value (null when none has one).
    pub means: Vec<Option<f64>>,
    /// Each run's letters of the runs it beats.
    pub beats: Vec<Vec<String>>,
    /// Every pair's test.
    pub pairs: Vec<PairTest>,
}

/// The comparison of many runs.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunsTable {
    /// The runs, lettered.
    pub runs: Vec<Run>,
    /// Cases present in every run.
    pub common_cases: usize,
    /// Cases missing from at least one run (left out).
    pub not_in_every_run: usize,
    /// Passed cases of each run among the common ones (null for a TREC run made elsewhere,
    /// which has no pass/fail).
    pub passed: Vec<Option<usize>>,
    /// One column per measure.
    pub columns: Vec<Column>,
    /// α.
    pub alpha: f64,
    /// Sign patterns drawn by a test too large to enumerate.
    pub resamples: usize,
    /// Seed of sampled tests.
    pub seed: u64,
}

fn letter(i: usize) -> String {
    let mut s = String::new();
    let mut n = i;
    loop {
        s.insert(0, (b'a' + (n % 26) as u8) as char);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    s
}

/// Compare `reports` on `measures` (values from their blocks, else computed with `qrels`).
pub fn runs_table(
    reports: &[LoadedReport],
    measures: &[Measure],
    qrels: Option<&Qrels>,
    settings: TestSettings,
) -> Result<RunsTable> {
    let values: Vec<Vec<Vec<Option<f64>>>> = reports
        .iter()
        .map(|r| row_values(r, measures, qrels))
        .collect::<Result<_>>()?;
    // Cases of the first run present in all, in its order; each run's row index for them.
    let positions: Vec<_> = reports.iter().map(LoadedReport::positions).collect();
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for (i, row) in reports[0].rows.iter().enumerate() {
        let key = row.key();
        let found: Option<Vec<usize>> = positions[1..]
            .iter()
            .map(|at| at.get(&key).copied())
            .collect();
        if let Some(rest) = found {
            rows.push([vec![i], rest].concat());
        }
    }
    let all_keys: std::collections::BTreeSet<&String> =
        positions.iter().flat_map(|at| at.keys()).collect();
    let passed = (0..reports.len())
        .map(|run| {
            let report = &reports[run];
            report.pass_fail.then(|| {
                let passed = |idx: &&Vec<usize>| report.rows[idx[run]].passed;
                rows.iter().filter(passed).count()
            })
        })
        .collect();
    // The rank measures, then the suite's own precision and pass/fail (as 1/0: on it the
    // randomisation test is the exact McNemar test), when every run has them.
    let mut names: Vec<String> = measures.iter().map(ToString::to_string).collect();
    if reports.iter().all(|r| r.pass_fail) {
        names.extend([PRECISION.to_string(), PASSED.to_string()]);
    }
    let mut columns = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let value = |run: usize, case: &Vec<usize>| -> Option<f64> {
            let row = &reports[run].rows[case[run]];
            match k.checked_sub(measures.len()) {
                None => values[run][case[run]][k],
                Some(0) => row.precision,
                Some(_) => Some(if row.passed { 1.0 } else { 0.0 }),
            }
        };
        let means = (0..reports.len())
            .map(|run| {
                let v: Vec<f64> = rows.iter().filter_map(|c| value(run, c)).collect();
                mean(v)
            })
            .collect::<Vec<_>>();
        let mut pairs = Vec::new();
        for a in 0..reports.len() {
            for b in a + 1..reports.len() {
                let diffs: Vec<f64> = rows
                    .iter()
                    .filter_map(|c| Some(value(a, c)? - value(b, c)?))
                    .collect();
                let test = paired_randomisation(&diffs, settings.resamples, settings.seed);
                pairs.push(PairTest {
                    a: letter(a),
                    b: letter(b),
                    cases: diffs.len(),
                    mean_difference: mean(diffs.iter().copied()).unwrap_or(0.0),
                    test,
                    p_adjusted: test.p,
                    runs: (a, b),
                });
            }
        }
        let adjusted = holm(&pairs.iter().map(|p| p.test.p).collect::<Vec<_>>());
        let mut beats = vec![Vec::new(); reports.len()];
        for (pair, p) in pairs.iter_mut().zip(adjusted) {
            pair.p_adjusted = p;
            if p < settings.alpha && pair.mean_difference != 0.0 {
                let (a, b) = pair.runs;
                let (winner, loser) = if pair.mean_difference > 0.0 {
                    (a, b)
                } else {
                    (b, a)
                };
                beats[winner].push(letter(loser));
            }
        }
        for b in &mut beats {
            b.sort();
        }
        columns.push(Column {
            measure: name.clone(),
            means,
            beats,
            pairs,
        });
    }
    Ok(RunsTable {
        runs: reports
            .iter()
            .zip(crate::report::label::shown_names(reports))
            .enumerate()
            .map(|(i, (r, name))| Run {
                letter: letter(i),
                name,
                file: r.path.display().to_string(),
            })
            .collect(),
        common_cases: rows.len(),
        not_in_every_run: all_keys.len() - rows.len(),
        passed,
        columns,
        alpha: settings.alpha,
        resamples: settings.resamples,
        seed: settings.seed,
    })
}
