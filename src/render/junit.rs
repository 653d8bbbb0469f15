//! What CI reads of a run: JUnit XML (one test suite per report, one test case per case or
//! turn, and the gates) and the markdown step summary.

use crate::analysis::gates::{against, pick_baseline, Against, GateCheck};
use crate::error::{Error, Result};
use crate::report::LoadedReport;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

/// JUnit XML: one test suite per report with one test case per case or turn, and a `gates`
/// suite with one test case per gate.
pub(crate) fn junit(
    reports: &[&LoadedReport],
    checks: &[GateCheck],
    new_failures_against: Option<&[LoadedReport]>,
) -> Result<String> {
    let mut junit = Report::new("tenure-eval");
    for report in reports {
        let mut suite = TestSuite::new(format!("{} ({})", report.file_name(), report.provider));
        // Under `--fail-on new-failures`, a case failing in its baseline too is not this
        // change's failure: skipped, saying so, as the gate counts it.
        let baseline = new_failures_against.and_then(|b| pick_baseline(report, b));
        let judged = |row: &crate::report::Row| {
            new_failures_against.map(|_| crate::analysis::gates::against(row, baseline))
        };
        // A repeated run's rows are its last repeat's; a case that failed in another is flaky.
        let repeats = report.manifest.as_ref().and_then(|m| m.repeats.as_ref());
        let flaky = |key: &str| {
            repeats.and_then(|r| r.flaky.iter().find(|f| f.case == key && f.passed < f.of))
        };
        for row in &report.rows {
            let status = if let (true, Some(f)) = (row.passed, flaky(&row.key())) {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_message(format!("flaky: passed in {} of {} repeats", f.passed, f.of));
                status
            } else if row.passed {
                TestCaseStatus::success()
            } else if judged(row) == Some(Against::Known) {
                let mut status = TestCaseStatus::skipped();
                status.set_message("fails in baseline");
                status
            } else if row.errored {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
                status.set_message("the backend failed on this case (its error is in the report)");
                status
            } else if judged(row) == Some(Against::NotCompared) {
                let mut status = TestCaseStatus::skipped();
                status.set_message("not in the baseline: not compared, as the gate does not");
                status
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
        if let Some(stop) = report.manifest.as_ref().and_then(|m| m.stopped.as_ref()) {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
            status.set_message(stopped_text(stop));
            status.set_type("stopped");
            suite.add_test_case(TestCase::new("run stopped", status));
        }
        // A compat-mode run whose system failed its calls has no errored case to show it.
        if let Some(why) = report.manifest.as_ref().and_then(|m| m.unhealthy.as_ref()) {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
            status.set_message(why.clone());
            status.set_type("unhealthy");
            suite.add_test_case(TestCase::new("run failed", status));
        }
        junit.add_test_suite(suite);
    }
    if !checks.is_empty() {
        let mut suite = TestSuite::new("gates");
        for check in checks {
            let status = if check.skipped {
                let mut status = TestCaseStatus::skipped();
                status.set_message(check.detail.clone());
                status
            } else if check.passed {
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

/// JUnit XML of a run that never started: one test case, `run`, in error with `error`.
pub(crate) fn junit_not_run(error: &str) -> Result<String> {
    let mut junit = Report::new("tenure-eval");
    let mut suite = TestSuite::new("tenure-eval");
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
    status.set_message(error);
    status.set_type("not run");
    suite.add_test_case(TestCase::new("run", status));
    junit.add_test_suite(suite);
    junit
        .to_string()
        .map_err(|e| Error::Usage(format!("cannot serialise JUnit: {e}")))
}

/// The markdown step summary of a run that never started.
pub(crate) fn summary_not_run(error: &str) -> String {
    format!(
        "### tenure-eval: the run did not start\n\n**error:** {}\n\nNo case was scored and no \
         report was written.\n",
        error.replace('\n', " ")
    )
}

/// A markdown step summary: the run table, the gates, and the failing cases.
pub(crate) fn summary_markdown(
    run_table: &str,
    reports: &[&LoadedReport],
    checks: &[GateCheck],
    warnings: &[String],
    new_failures_against: Option<&[LoadedReport]>,
) -> String {
    let mut out = format!("## tenure-eval\n\n{run_table}\n");
    if !warnings.is_empty() {
        out.push_str("### ⚠️ Warnings\n\n");
        for w in warnings {
            out.push_str(&format!("- {w}\n"));
        }
        out.push('\n');
    }
    for report in reports {
        if let Some(why) = report.manifest.as_ref().and_then(|m| m.unhealthy.as_ref()) {
            out.push_str(&format!(
                "### ❌ Run failed

`{}`: {why}. Its failed calls are scored as empty answers, \
                 as upstream scores them.

",
                report.file_name()
            ));
        }
        if let Some(stop) = report.manifest.as_ref().and_then(|m| m.stopped.as_ref()) {
            out.push_str(&format!(
                "### ❌ Run stopped\n\n`{}`: {}. The report holds the cases before the stop; \
                 the run's journal continues it with `--resume`.\n\n",
                report.file_name(),
                stopped_text(stop)
            ));
        }
    }
    // A repeated run: its spread and its flaky cases, as the terminal shows them. The table's
    // figures are the last repeat's, and JUnit fails a flaky case that passed there; the summary
    // listed neither (an audit).
    for report in reports {
        if let Some(repeats) = report.manifest.as_ref().and_then(|m| m.repeats.as_ref()) {
            out.push_str(&format!(
                "### Repeats\n\nThe table's figures are the last repeat's.\n\n```\n{}```\n\n",
                crate::render::repeats::repeats_text(&report.file_name(), repeats, SHOWN)
            ));
        }
    }
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
    // Under `--fail-on new-failures`, as JUnit: what this change broke first, every one of them
    // up to SHOWN; the cases failing in the baseline too only as a count.
    let mut new = Vec::new();
    let (mut known, mut not_compared) = (0, 0);
    for r in reports {
        let baseline = new_failures_against.and_then(|b| pick_baseline(r, b));
        for row in r.rows.iter().filter(|row| !row.passed) {
            let judged = new_failures_against.map(|_| against(row, baseline));
            if judged == Some(Against::Known) {
                known += 1;
            } else if judged == Some(Against::NotCompared) && !row.errored {
                not_compared += 1;
            } else {
                new.push(format!(
                    "- `{}` {}: {}",
                    r.file_name(),
                    row.key(),
                    row.failures.join("; ")
                ));
            }
        }
    }
    if !new.is_empty() {
        let title = if new_failures_against.is_some() {
            "New failures"
        } else {
            "Failing cases"
        };
        out.push_str(&format!("### {title} ({})\n\n", new.len()));
        out.push_str(&new[..new.len().min(SHOWN)].join("\n"));
        out.push('\n');
        if new.len() > SHOWN {
            out.push_str(&format!(
                "\n… and {} more (every one is in JUnit)\n",
                new.len() - SHOWN
            ));
        }
    }
    if known > 0 {
        out.push_str(&format!(
            "\n{known} known failures (failing in the baseline too) are not listed.\n"
        ));
    }
    if not_compared > 0 {
        out.push_str(&format!(
            "\n{not_compared} failing cases without a baseline to compare with (no baseline, or \
             one that lacks them) are not listed: the gate does not judge them.\n"
        ));
    }
    out
}

/// Failing cases the step summary lists before saying how many more.
const SHOWN: usize = 100;

/// `stopped after CASE: REASON` (or before the first case).
pub(crate) fn stopped_text(stop: &crate::run::journal::Stopped) -> String {
    if stop.at.is_empty() {
        format!("stopped before the first case: {}", stop.reason)
    } else {
        format!("stopped after {}: {}", stop.at, stop.reason)
    }
}
