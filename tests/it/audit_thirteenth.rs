//! What a thirteenth audit (output formats, `--explain`, gates) found, each kept closed here:
//! `history --fail-on-regression` in CSV or LaTeX failing with nothing said of why, `--explain`
//! taking session flags that change nothing in a static case's account, `--explain` searching
//! otherwise than the run (pinned facts kept; a blank query searched). (Gate values that could
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

/// `--explain` makes the run's search: on pmb (HEAD) the case's pinned facts are left out of it,
/// so every case's explained hits are the report's search hits, in order, with its scores (it
/// listed pinned facts as hits: 67 of 77 cases under rrf had them, 193 scores differed).
#[test]
fn explain_makes_the_runs_search_case_by_case() {
    let dir = tempfile::tempdir().unwrap();
    let backend = ["--suite", "pmb", "--backend", "rrf", "--model", "hashed:64"];
    tenure_eval_ok(
        &[&["static"][..], &backend, &["--quiet", "--out"]].concat(),
        &[dir.path()],
    );
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(
            dir.path()
                .join("pmb/hashed-bow-64-retrieval-report-rrf.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let mut compared = 0;
    for case in report["cases"].as_array().unwrap() {
        let id = case["caseId"].as_str().unwrap();
        let explained = tenure_eval_ok(
            &[&["static"][..], &backend, &["--explain", id, "--top", "50"]].concat(),
            &[],
        );
        // "- `ID` SCORE: ..." per hit.
        let hits: Vec<(String, String)> = String::from_utf8_lossy(&explained.stdout)
            .lines()
            .filter_map(|l| l.strip_prefix("- `"))
            .map(|l| {
                let (id, rest) = l.split_once("` ").unwrap();
                (
                    id.to_string(),
                    rest.split(':').next().unwrap().trim().to_string(),
                )
            })
            .collect();
        // The report's searchScores: the search's hits, then HEAD's relation expansions.
        let ran: Vec<(String, String)> = case["searchScores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["id"].as_str().unwrap().to_string(),
                    format!("{:.3}", s["exactScore"].as_f64().unwrap()),
                )
            })
            .collect();
        let n = hits.len().min(ran.len());
        assert_eq!(hits[..n], ran[..n], "{id}");
        for pinned in case["pinnedBeliefs"].as_array().unwrap() {
            assert!(
                !hits.iter().any(|(h, _)| h == pinned.as_str().unwrap()),
                "{id}: pinned {pinned}"
            );
        }
        compared += n;
    }
    assert!(compared > 200, "{compared} hits compared");
}

/// A markdown table escapes `|` in a cell: a label `mine|v2` shifted every column after it in
/// the run table (and the step summary). Every row has the header's columns.
#[test]
fn a_pipe_in_a_label_stays_in_its_markdown_cell() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.md");
    let out = tenure_eval_ok(
        &[
            "run",
            "--suite",
            "pmb",
            "--label",
            "mine|v2",
            "--quiet",
            "--summary-md",
        ],
        &[&summary, Path::new("--out"), &dir.path().join("r")],
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned()
        + &std::fs::read_to_string(&summary).unwrap();
    // Columns: the `|` not escaped by a backslash.
    let columns = |line: &str| {
        line.match_indices('|')
            .filter(|(i, _)| *i == 0 || &line[i - 1..*i] != "\\")
            .count()
    };
    let runs: Vec<&str> = text.lines().filter(|l| l.starts_with("| pmb")).collect();
    assert!(
        runs.len() >= 4,
        "the run table's rows and the summary's: {text}"
    );
    // The run table's 11 columns: 12 bars in every row.
    assert!(runs.iter().all(|r| columns(r) == 12), "{text}");
    assert!(runs.iter().all(|r| r.contains("mine\\|v2")), "{text}");
}
