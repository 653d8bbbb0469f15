//! What a thirteenth audit (output formats, `--explain`, gates) found, each kept closed here:
//! `history --fail-on-regression` in CSV or LaTeX failing with nothing said of why, `--explain`
//! taking session flags that change nothing in a static case's account. (Gate values that could
//! never fail: `gates.rs`.)

use crate::common::{refused, tenure_eval_ok, tenure_eval_with};
use std::path::Path;

/// CSV and LaTeX hold the history's tables only; the verdicts go to stderr, so a CI job that
/// `--fail-on-regression` fails says which series regressed and by which cases.
#[test]
fn a_regression_failed_in_csv_or_latex_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let (out, history) = (dir.path().join("r"), dir.path().join("h"));
    for extra in [&[][..], &["--min-score", "12"]] {
        let args = [
            &["run", "--suite", "pmb", "--label", "sys", "--quiet"][..],
            extra,
            &["--out"],
        ]
        .concat();
        tenure_eval_ok(&args, &[&out, Path::new("--history"), &history]);
    }
    for format in ["csv", "latex", "json"] {
        let o = tenure_eval_with(
            &["history", "--fail-on-regression", "--format", format],
            &[&history],
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{format}: {stderr}");
        assert!(
            stderr.contains("sys · pmb static: REGRESSION from run 1 to run 2"),
            "{format}: {stderr}"
        );
        assert!(stderr.contains("newly failing: "), "{format}: {stderr}");
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(
            !stdout.contains("REGRESSION from"),
            "{format}: the data stay data"
        );
    }
}

/// `--explain` accounts for one static case: the session flags (revisitation reads earlier
/// turns) gave the same account, exit 0, where `static` alone refuses them.
#[test]
fn explain_refuses_session_flags() {
    for flag in ["--revisit-rate", "--revisit-cap", "--revisit-threshold"] {
        refused(
            &[
                "static",
                "--suite",
                "pmb",
                "--explain",
                "happy-writing-scope",
                "--backend",
                "composite",
                "--model",
                "hashed:64",
                flag,
                "0.5",
            ],
            &format!(
                "--explain prints one case's account and writes no report; {flag} does not apply"
            ),
        );
    }
}
