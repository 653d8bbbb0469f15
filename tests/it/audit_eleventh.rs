//! What an eleventh audit (the analysis commands over reports: compare, plot, html, trec)
//! found, each kept closed here: a case twice in a report counted twice, shares outside [0, 1]
//! averaged as results, a static report left out of the drift figure, turns drawn by their
//! place in the file, test settings taken where nothing is tested, a run file left without its
//! qrels, runs with no case in common compared, and a benchmark's report named an unknown
//! suite.

use crate::common::{json_at, refused, tenure_eval, tenure_eval_ok};
use serde_json::Value;
use std::path::{Path, PathBuf};

const SAMPLE: &str = "tests/data/longmemeval-sample.json";

/// pmb's bm25 run into `out`: its static and session reports.
fn pmb(out: &Path) -> (PathBuf, PathBuf) {
    tenure_eval_ok(
        &[
            "run",
            "--suite",
            "pmb",
            "--backend",
            "bm25",
            "--quiet",
            "--out",
        ],
        &[out],
    );
    let dir = out.join("pmb");
    (
        dir.join("retrieval-report-tenure.json"),
        dir.join("session-retrieval-report-tenure.json"),
    )
}

/// `report` with `edit` applied to its JSON, written as `name` beside it.
fn edited(report: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let mut v = json_at(report);
    edit(&mut v);
    let path = report.with_file_name(name);
    std::fs::write(&path, v.to_string()).unwrap();
    path
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_case_twice_or_a_share_beyond_one_is_no_report() {
    let dir = tempfile::tempdir().unwrap();
    let (base, _) = pmb(dir.path());
    let twice = edited(&base, "twice.json", |v| {
        let first = v["cases"][0].clone();
        v["cases"].as_array_mut().unwrap().push(first);
    });
    let cases = json_at(&base)["cases"].as_array().unwrap().clone();
    let (at, id) = (
        cases.len(),
        cases[0]["caseId"].as_str().unwrap().to_string(),
    );
    refused(
        &["compare", s(&twice), s(&base)],
        &format!("twice.json: $.cases[{at}]: {id:?} is in the report twice (first at $.cases[0])"),
    );
    let beyond = edited(&base, "beyond.json", |v| {
        v["cases"][3]["retrievalPrecision"] = (-40.0).into();
    });
    refused(
        &["compare", s(&beyond), s(&base)],
        "beyond.json: $.cases[3]: precision -40: expected a share in [0, 1]",
    );
    // Runs with no case in common: nothing compared (McNemar's p was 1, exit 0).
    let renamed = edited(&base, "renamed.json", |v| {
        for case in v["cases"].as_array_mut().unwrap() {
            let id = format!("other-{}", case["caseId"].as_str().unwrap());
            case["caseId"] = id.into();
        }
    });
    refused(
        &["compare", s(&base), s(&renamed)],
        "no case in common with",
    );
}

#[test]
fn the_drift_figure_draws_session_reports_by_case_and_turn() {
    let dir = tempfile::tempdir().unwrap();
    let (base, session) = pmb(dir.path());
    refused(
        &["plot", s(&session), s(&base), "--out", s(&dir.path().join("mixed.svg"))],
        "retrieval-report-tenure.json: a static report; the drift figure draws session reports' turns",
    );
    assert!(!dir.path().join("mixed.svg").exists());
    // Beside it, the same run with its rows in another order: the same line as the run's own
    // copy (it was drawn by place in the file, the opposite curve).
    let reversed = edited(&session, "session-reversed.json", |v| {
        v["cases"].as_array_mut().unwrap().reverse();
    });
    let copy = edited(&session, "session-copy.json", |_| {});
    let svg = |second: &Path, name: &str| {
        let out = dir.path().join(name);
        tenure_eval_ok(&["plot", s(&session), s(second), "--out", s(&out)], &[]);
        std::fs::read(out).unwrap()
    };
    assert!(svg(&reversed, "a.svg") == svg(&copy, "b.svg"));
}

#[test]
fn html_refuses_test_settings_where_nothing_is_tested_and_names_a_benchmarks_suite() {
    let dir = tempfile::tempdir().unwrap();
    let (base, session) = pmb(dir.path());
    let page = dir.path().join("p.html");
    for flag in ["--seed", "--alpha", "--resamples"] {
        let value = if flag == "--alpha" { "0.01" } else { "5000" };
        refused(
            &[
                "html",
                s(&base),
                s(&session),
                "--out",
                s(&page),
                flag,
                value,
            ],
            &format!(
                "{flag}: the page tests pairs of runs of one kind, and these reports hold none"
            ),
        );
    }
    assert!(!page.exists());
    tenure_eval_ok(&["html", s(&base), "--quiet", "--out", s(&page)], &[]);
    // A benchmark's report without --suite: named, with what to give.
    let args = ["run", "--suite", "longmemeval", "--data", SAMPLE];
    let args = [&args[..], &["--backend", "bm25-text", "--quiet", "--out"]].concat();
    tenure_eval_ok(&args, &[dir.path()]);
    let report = dir
        .path()
        .join("longmemeval/retrieval-report-bm25-text.json");
    refused(
        &["html", s(&report), "--out", s(&page)],
        "$.manifest.suite: \"longmemeval\": a suite read from a benchmark's files, not built in; give --suite and --data as its run did",
    );
}

#[test]
fn trec_writes_both_files_or_neither() {
    let dir = tempfile::tempdir().unwrap();
    let (base, _) = pmb(dir.path());
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    refused(
        &["trec", s(&base), "--suite", "pmb", "--out", s(&file)],
        "a-file: a file; expected the folder for the run and its qrels",
    );
    let out = dir.path().join("t");
    std::fs::create_dir_all(out.join("retrieval-report-tenure.qrels")).unwrap();
    let said = tenure_eval(&["trec", s(&base), "--suite", "pmb", "--out", s(&out)]);
    assert_eq!(
        said.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&said.stderr)
    );
    assert!(
        !out.join("retrieval-report-tenure.run").exists(),
        "no run without its qrels"
    );
}

#[test]
fn claims_name_the_report_a_claim_lacks() {
    // With only the static BM25 report given, the session claims said "no BM25 report given".
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "run",
        "--suite",
        "paper",
        "--backend",
        "bm25",
        "--quiet",
        "--out",
    ];
    tenure_eval_ok(&args, &[dir.path()]);
    let report = dir.path().join("paper/retrieval-report.json");
    let out = tenure_eval_ok(&["claims", s(&report)], &[]);
    let table = String::from_utf8_lossy(&out.stdout).into_owned();
    // A claim's row: its last cell, the reason.
    let reason = |name: &str| {
        let row = (table.lines())
            .find(|l| l.split('|').nth(1).is_some_and(|c| c.trim() == name))
            .unwrap();
        row.split('|').rev().nth(1).unwrap().trim().to_string()
    };
    assert_eq!(
        reason("BM25 static cases passed"),
        "the same count as the paper"
    );
    assert_eq!(
        reason("BM25 session turns passed"),
        "no BM25 session report of the paper suite given"
    );
    assert_eq!(
        reason("BM25 total"),
        "the BM25 total needs a static and a session report of the paper suite"
    );
}

#[test]
fn plot_case_says_a_report_given_twice() {
    let dir = tempfile::tempdir().unwrap();
    let (base, _) = pmb(dir.path());
    let case = json_at(&base)["cases"][0]["caseId"]
        .as_str()
        .unwrap()
        .to_string();
    let out = dir.path().join("f.svg");
    let said = tenure_eval(&[
        "plot",
        "--case",
        &case,
        s(&base),
        s(&base),
        "--out",
        s(&out),
    ]);
    let stderr = String::from_utf8_lossy(&said.stderr);
    assert!(
        stderr.contains("retrieval-report-tenure.json is given twice: it stands as two runs, equal by construction"),
        "{stderr}"
    );
}
