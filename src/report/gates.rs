//! CI gates over written reports, optionally against a baseline report, plus their JUnit and
//! markdown renderings. Gates judge the reports exactly as written (the same JSON values, read
//! back from memory).

use super::tables::{LoadedReport, ReportKind, Row};
use crate::error::{Error, Result};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

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
}

impl Gates {
    /// Whether any gate needs a baseline report.
    pub fn need_baseline(&self) -> bool {
        self.fail_on == Some(FailOn::NewFailures) || self.max_precision_drop.is_some()
    }

    /// Whether any gate was asked for.
    pub fn any(&self) -> bool {
        self.fail_on.is_some()
            || self.min_active_passes.is_some()
            || self.max_precision_drop.is_some()
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
}

/// The baseline among `baselines` for `report`: same kind (static or session), same provider
/// when several qualify.
pub fn pick_baseline<'a>(
    report: &LoadedReport,
    baselines: &'a [LoadedReport],
) -> Option<&'a LoadedReport> {
    let same_kind: Vec<&LoadedReport> =
        baselines.iter().filter(|b| b.kind == report.kind).collect();
    same_kind
        .iter()
        .find(|b| b.provider == report.provider)
        .or(same_kind.first())
        .copied()
}

/// Check `gates` on every report, each against its baseline (see [`pick_baseline`]).
pub fn evaluate(
    reports: &[&LoadedReport],
    baselines: &[LoadedReport],
    gates: &Gates,
) -> Result<Vec<GateCheck>> {
    let mut checks = Vec::new();
    for report in reports {
        checks.extend(check(report, pick_baseline(report, baselines), gates)?);
    }
    Ok(checks)
}

/// Check `gates` on `report`.
pub fn check(
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
        })
    };
    let needs = |gate: &str| {
        Error::Usage(format!(
            "{gate} needs a --baseline report of the same kind as {name}"
        ))
    };
    match gates.fail_on {
        Some(FailOn::AnyFailure) => {
            let failing: Vec<String> = report
                .rows
                .iter()
                .filter(|r| !r.passed)
                .map(|r| r.key())
                .collect();
            add(
                "fail-on any-failure",
                failing.is_empty(),
                if failing.is_empty() {
                    "no failing case".into()
                } else {
                    format!("failing: {}", failing.join(", "))
                },
            );
        }
        Some(FailOn::NewFailures) => {
            let baseline = baseline.ok_or_else(|| needs("--fail-on new-failures"))?;
            let new: Vec<String> = report
                .rows
                .iter()
                .filter(|r| {
                    !r.passed && baseline.rows.iter().any(|b| b.key() == r.key() && b.passed)
                })
                .map(|r| r.key())
                .collect();
            add(
                "fail-on new-failures",
                new.is_empty(),
                if new.is_empty() {
                    "no case that passed in the baseline fails".into()
                } else {
                    format!("newly failing: {}", new.join(", "))
                },
            );
        }
        None => {}
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
                    missing.join(", ")
                )
            },
        );
    }
    if let (Some(min), ReportKind::Static) = (gates.min_active_passes, report.kind) {
        let active = report.summary().active_retrieval_passes;
        add(
            "min-active-passes",
            active >= min,
            format!("{active} active-retrieval passes (minimum {min})"),
        );
    }
    if let Some(max_drop) = gates.max_precision_drop {
        let baseline = baseline.ok_or_else(|| needs("--max-precision-drop"))?;
        let (now, before) = (
            report.summary().mean_precision.unwrap_or(0.0),
            baseline.summary().mean_precision.unwrap_or(0.0),
        );
        let drop = before - now;
        add("max-precision-drop", drop <= max_drop + 1e-12, format!("mean precision {now:.4} vs baseline {before:.4}: drop {drop:.4} (maximum {max_drop})"));
    }
    Ok(checks)
}

/// JUnit XML: one test suite per report with one test case per case or turn, and a `gates`
/// suite with one test case per gate.
pub fn junit(reports: &[&LoadedReport], checks: &[GateCheck]) -> Result<String> {
    let mut junit = Report::new("tenure-eval");
    for report in reports {
        let mut suite = TestSuite::new(format!("{} ({})", report.file_name(), report.provider));
        for row in &report.rows {
            let status = if row.passed {
                TestCaseStatus::success()
            } else {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_message(row.failures.join("; "));
                status
            };
            let mut case = TestCase::new(row.key(), status);
            case.set_classname(row.category.clone());
            if let Some(ms) = row.latency_ms {
                case.set_time(std::time::Duration::from_secs_f64(ms / 1000.0));
            }
            suite.add_test_case(case);
        }
        junit.add_test_suite(suite);
    }
    if !checks.is_empty() {
        let mut suite = TestSuite::new("gates");
        for check in checks {
            let status = if check.passed {
                TestCaseStatus::success()
            } else {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_message(check.detail.clone());
                status
            };
            let mut case = TestCase::new(format!("{}: {}", check.report, check.gate), status);
            case.set_system_out(check.detail.clone());
            suite.add_test_case(case);
        }
        junit.add_test_suite(suite);
    }
    junit
        .to_string()
        .map_err(|e| Error::Usage(format!("cannot serialise JUnit: {e}")))
}

/// A markdown step summary: the run table, the gates, and the failing cases.
pub fn summary_markdown(
    run_table: &str,
    reports: &[&LoadedReport],
    checks: &[GateCheck],
) -> String {
    let mut out = format!("## tenure-eval\n\n{run_table}\n");
    if !checks.is_empty() {
        out.push_str("### Gates\n\n");
        for c in checks {
            out.push_str(&format!(
                "- {} **{}** on `{}`: {}\n",
                if c.passed { "✅" } else { "❌" },
                c.gate,
                c.report,
                c.detail
            ));
        }
        out.push('\n');
    }
    let failing: Vec<String> = reports
        .iter()
        .flat_map(|r| {
            r.rows.iter().filter(|row| !row.passed).map(move |row| {
                format!(
                    "- `{}` {}: {}",
                    r.file_name(),
                    row.key(),
                    row.failures.join("; ")
                )
            })
        })
        .collect();
    if !failing.is_empty() {
        out.push_str("### Failing cases\n\n");
        out.push_str(&failing.join("\n"));
        out.push('\n');
    }
    out
}
