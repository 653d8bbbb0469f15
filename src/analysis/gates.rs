//! CI gates over written reports, optionally against a baseline report (their JUnit and
//! markdown renderings are `render::junit`). Gates judge the reports exactly as written (the same JSON values, read
//! back from memory).

use crate::backend::Workload;
use crate::error::Result;
use crate::report::{LoadedReport, Row};

/// Which failures fail the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOn {
    /// A case (or turn) that passes in the baseline fails now.
    NewFailures,
    /// Any failing case (or turn).
    AnyFailure,
}

/// The gates asked for.
#[derive(Debug, Clone, Default)]
pub struct Gates {
    /// Failure policy.
    pub fail_on: Option<FailOn>,
    /// Static reports must have at least this many active-retrieval passes.
    pub min_active_passes: Option<usize>,
    /// Mean precision may fall at most this much below the baseline's.
    pub max_precision_drop: Option<f64>,
    /// A first run may be one (`--baseline-missing ok`): when no baseline was found, the gates
    /// that compare with one skip every report instead of needing a baseline.
    pub first_run: bool,
}

impl Gates {
    /// Whether any gate needs a baseline report.
    pub(crate) fn need_baseline(&self) -> bool {
        self.fail_on == Some(FailOn::NewFailures) || self.max_precision_drop.is_some()
    }
}

/// The outcome of one gate on one report.
#[derive(Debug, Clone, PartialEq)]
pub struct GateCheck {
    /// Report file name.
    pub report: String,
    /// Gate name (`fail-on new-failures`, ...).
    pub gate: String,
    /// Did it hold?
    pub passed: bool,
    /// What was measured.
    pub detail: String,
    /// It judged nothing (no baseline to compare with): it holds, and JUnit says skipped.
    pub skipped: bool,
}

/// The baseline among `baselines` for `report`: of its kind (static or session) and of its run
/// label, or else of its file name (upstream's `retrieval-report-tenure.json` is the baseline
/// of a BM25 run, whose label is `bm25`); none otherwise, so that one system's baseline never
/// judges another's report.
pub(crate) fn pick_baseline<'a>(
    report: &LoadedReport,
    baselines: &'a [LoadedReport],
) -> Option<&'a LoadedReport> {
    let same = |b: &&LoadedReport| b.kind == report.kind;
    baselines
        .iter()
        .filter(same)
        .find(|b| b.provider == report.provider)
        .or_else(|| {
            baselines
                .iter()
                .filter(same)
                .find(|b| b.file_name() == report.file_name())
        })
}

/// Check `gates` on every report, each against its baseline (see `pick_baseline`). A report
/// with no baseline of its kind and label is not compared: the gates that need one are
/// skipped for it, with a note (a check that passes, saying so), so that a baseline of one
/// backend never judges another's report.
pub(crate) fn evaluate(
    reports: &[&LoadedReport],
    baselines: &[LoadedReport],
    gates: &Gates,
) -> Result<Vec<GateCheck>> {
    let mut checks = Vec::new();
    for report in reports {
        let baseline = pick_baseline(report, baselines);
        if baseline.is_none() && gates.need_baseline() {
            checks.push(GateCheck {
                report: report.file_name(),
                gate: "baseline".into(),
                passed: true,
                skipped: true,
                detail: format!(
                    "skipped: no --baseline is a {} report of {} or named {}; the gates that \
                     compare with one do not judge it",
                    report.kind.label(),
                    report.provider,
                    report.file_name()
                ),
            });
        }
        checks.extend(check(report, baseline, gates)?);
    }
    // A baseline that judges none of the run's reports disarms the gates it was given for: a
    // run relabelled by a setting (`-settle1`, `-compat`) passed `--fail-on new-failures` with
    // 57 new failures (an audit). It fails the gate, named.
    if gates.need_baseline() {
        for b in baselines {
            let judged = |r: &&&LoadedReport| {
                pick_baseline(r, baselines).is_some_and(|p| std::ptr::eq(p, b))
            };
            if !reports.iter().any(|r| judged(&r)) {
                let labels: Vec<String> = (reports.iter())
                    .filter(|r| r.kind == b.kind)
                    .map(|r| r.provider.clone())
                    .collect();
                checks.push(GateCheck {
                    report: b.file_name(),
                    gate: "baseline".into(),
                    passed: false,
                    skipped: false,
                    detail: format!(
                        "--baseline {} ({} report of {}) judges no report of this run (its {} \
                         reports: {}): a baseline is paired by the run's label; give the run \
                         --label {} or a baseline of this run's label",
                        b.path.display(),
                        b.kind.label(),
                        b.provider,
                        b.kind.label(),
                        if labels.is_empty() {
                            "none".into()
                        } else {
                            labels.join(", ")
                        },
                        b.provider
                    ),
                });
            }
        }
    }
    Ok(checks)
}

/// How `--fail-on new-failures` judges a failing row against `baseline` (none: the report has
/// no baseline of its kind and label). The gate, JUnit and the step summary all judge by it (a
/// thirteenth audit: JUnit and the summary counted a case the baseline lacks as new, the gate
/// did not, and a first run without a baseline listed every failure as new).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Against {
    /// It passed in the baseline: this change broke it.
    New,
    /// It fails in the baseline too.
    Known,
    /// The baseline lacks it, or there is no baseline: not compared.
    NotCompared,
}

/// [`Against`] for `row` with `baseline`.
pub(crate) fn against(row: &Row, baseline: Option<&LoadedReport>) -> Against {
    let key = row.key();
    match baseline.and_then(|b| b.rows.iter().find(|r| r.key() == key)) {
        Some(b) if b.passed => Against::New,
        Some(_) => Against::Known,
        None => Against::NotCompared,
    }
}

/// Check `gates` on `report`.
pub(crate) fn check(
    report: &LoadedReport,
    baseline: Option<&LoadedReport>,
    gates: &Gates,
) -> Result<Vec<GateCheck>> {
    let name = report.file_name();
    let mut checks = Vec::new();
    let mut add = |gate: &str, passed: bool, detail: String| {
        checks.push(GateCheck {
            report: name.clone(),
            gate: gate.to_string(),
            passed,
            detail,
            skipped: false,
        })
    };
    // A repeated run's rows are its last repeat's: a case that failed in another repeat fails
    // the gates too (a flaky case passing 2 of 3 passed them on an odd N, failed on an even).
    let flaky = report.manifest.as_ref().and_then(|m| m.repeats.as_ref());
    let fails = |r: &crate::report::Row| {
        !r.passed
            || flaky.is_some_and(|f| f.flaky.iter().any(|c| c.case == r.key() && c.passed < c.of))
    };
    match gates.fail_on {
        Some(FailOn::AnyFailure) => {
            let failing: Vec<String> = (report.rows.iter())
                .filter(|r| fails(r))
                .map(|r| r.key())
                .collect();
            // No case at all (a run stopped before its first) is no evidence of none failing.
            add(
                "fail-on any-failure",
                failing.is_empty() && !report.rows.is_empty(),
                match (failing.is_empty(), report.rows.is_empty()) {
                    (_, true) => "no case ran: nothing to judge".into(),
                    (true, false) => "no failing case".into(),
                    (false, false) => format!("failing: {}", ids(&failing)),
                },
            );
        }
        // Without a baseline of its label the report is not compared (`evaluate`'s note).
        Some(FailOn::NewFailures) if baseline.is_some() => {
            let baseline = baseline.expect("guarded");
            let new: Vec<String> = report
                .rows
                .iter()
                .filter(|r| fails(r) && against(r, Some(baseline)) == Against::New)
                .map(|r| r.key())
                .collect();
            add(
                "fail-on new-failures",
                new.is_empty(),
                if new.is_empty() {
                    "no case that passed in the baseline fails".into()
                } else {
                    format!("newly failing: {}", ids(&new))
                },
            );
        }
        Some(FailOn::NewFailures) | None => {}
    }
    // A baseline compared with a run that lacks some of its cases would pass on what is not
    // there: every case the baseline has must be in the run.
    if let (Some(baseline), true) = (baseline, gates.need_baseline()) {
        let missing: Vec<String> = baseline
            .rows
            .iter()
            .map(Row::key)
            .filter(|k| !report.rows.iter().any(|r| &r.key() == k))
            .collect();
        add(
            "baseline coverage",
            missing.is_empty(),
            if missing.is_empty() {
                format!("every case of {} is in the run", baseline.file_name())
            } else {
                format!(
                    "{} case(s) of {} are missing from the run: {}",
                    missing.len(),
                    baseline.file_name(),
                    ids(&missing)
                )
            },
        );
    }
    if let (Some(min), Workload::Static) = (gates.min_active_passes, report.kind) {
        let active = report.summary().active_retrieval_passes;
        add(
            "min-active-passes",
            active >= min,
            format!("{active} active-retrieval passes (minimum {min})"),
        );
    }
    // Over the cases the baseline measured a precision for, a case of the run without one (it
    // retrieved nothing relevant, or is gone) counting 0: each report's own mean is over its
    // own cases, and a paper run that lost 33 of 60 cases kept a mean of 1.0 over the other
    // three (a thirteenth audit).
    if let (Some(max_drop), Some(baseline)) = (gates.max_precision_drop, baseline) {
        let measured: Vec<(String, f64)> = (baseline.rows.iter())
            .filter_map(|b| b.precision.map(|p| (b.key(), p)))
            .collect();
        let now_of = |key: &str| {
            (report.rows.iter())
                .find(|r| r.key() == key)
                .and_then(|r| r.precision)
                .unwrap_or(0.0)
        };
        let n = measured.len().max(1) as f64;
        let before = measured.iter().map(|(_, p)| p).sum::<f64>() / n;
        let now = measured.iter().map(|(k, _)| now_of(k)).sum::<f64>() / n;
        let drop = before - now;
        add(
            "max-precision-drop",
            drop <= max_drop + 1e-12,
            format!(
                "mean precision {now:.4} vs baseline {before:.4}: drop {drop:.4} (maximum \
                 {max_drop}; over the {} cases the baseline has a precision for, a case \
                 without one now counting 0)",
                measured.len()
            ),
        );
    }
    Ok(checks)
}

/// Case ids shown in a gate's detail: a stderr line and a JUnit message stay readable.
const IDS_SHOWN: usize = 10;

/// `ids`, the first [`IDS_SHOWN`] of them and how many more (the report lists them all).
fn ids(ids: &[String]) -> String {
    match ids.len().saturating_sub(IDS_SHOWN) {
        0 => ids.join(", "),
        more => format!("{} and {more} more", ids[..IDS_SHOWN].join(", ")),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn long_id_lists_are_cut_with_a_count() {
        let few: Vec<String> = (1..=3).map(|i| format!("c{i}")).collect();
        assert_eq!(super::ids(&few), "c1, c2, c3");
        let many: Vec<String> = (1..=61).map(|i| format!("c{i}")).collect();
        assert_eq!(
            super::ids(&many),
            "c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 and 51 more"
        );
    }
}
