//! `--repeat N` (issue 33): a memory system that answers one case differently from run to run
//! gets that case, and only it, flagged as flaky, in the table, the JSON report, `compare`, the
//! page and the step summary; every measure's spread is the one its repeats' values give. The
//! system is `provider.py` with `--flaky`, whose one case answers nothing every second time.

use crate::common::cli;
use crate::common::needs::{needs, Need};
use crate::common::provider::{static_toy, Provider};
use serde_json::Value;

#[test]
fn five_repeats_flag_exactly_the_case_that_answers_at_random() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // "GHA secrets config" is the query of alias-gha-resolves alone.
    let provider = Provider::start(0, &dir.path().join("p.log"), &["--flaky", "GHA secrets"]);
    let out = dir.path().join("out");
    let page = dir.path().join("page.html");
    let summary = dir.path().join("summary.md");
    let extra = [
        "--repeat",
        "5",
        "--html",
        page.to_str().unwrap(),
        "--summary-md",
        summary.to_str().unwrap(),
    ];
    let o = static_toy(&provider.url, &out, &extra).output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    // The table.
    assert!(
        stdout.contains("toy static: 5 repeats, each on a fresh store"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "flaky (1, pass/fail differs across repeats):\n    alias-gha-resolves: passed 3 of 5\n"
        ),
        "{stdout}"
    );

    // The JSON report: the block, its spread recomputed from its own values.
    let path = out.join("pmb/retrieval-report-toy.json");
    let report: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let repeats = &report["manifest"]["repeats"];
    assert_eq!(repeats["n"], 5);
    assert_eq!(
        repeats["flaky"],
        serde_json::json!([{"case": "alias-gha-resolves", "passed": 3, "of": 5}])
    );
    let passed = repeats["measures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["measure"] == "totalPassed")
        .unwrap();
    let values: Vec<f64> = passed["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    // Every repeat passes the same 15 cases, and alias-gha-resolves in repeats 1, 3 and 5.
    assert_eq!(values, [16.0, 15.0, 16.0, 15.0, 16.0]);
    let mean = values.iter().sum::<f64>() / 5.0;
    let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 4.0).sqrt();
    assert!((passed["mean"].as_f64().unwrap() - mean).abs() < 1e-12);
    assert!((passed["sd"].as_f64().unwrap() - sd).abs() < 1e-12);
    // t(0.975, 4) = 2.776445105 (R: qt(0.975, 4)).
    let half = 2.776445105197799 * sd / 5f64.sqrt();
    assert!((passed["ci95"][1].as_f64().unwrap() - (mean + half)).abs() < 1e-9);
    // The report's cases are the last repeat's (the flaky case passed there).
    let case = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["caseId"] == "alias-gha-resolves")
        .unwrap();
    assert_eq!(case["passed"], true);

    // compare: the repeats of NEW, and the flip of a flaky case marked as such.
    let base = crate::common::repo("tests/golden/pmb-baseline/retrieval-report-tenure.json");
    let o = cli(&["compare", base.to_str().unwrap(), path.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("NEW: 5 repeats"), "{text}");
    assert!(text.contains("alias-gha-resolves: passed 3 of 5"), "{text}");

    // The step summary: the repeats and the flaky case, which JUnit fails (the summary's table
    // is the last repeat's, where it passed, and it listed neither).
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(
        md.contains("### Repeats\n\nThe table's figures are the last repeat's.")
            && md.contains("retrieval-report-toy.json: 5 repeats, each on a fresh store")
            && md.contains("alias-gha-resolves: passed 3 of 5"),
        "{md}"
    );

    // The page.
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"flaky\":[{\"case\":\"alias-gha-resolves\",\"passed\":3,\"of\":5}]"));
    if let Some(b) = crate::common::browser::browser_or_skip() {
        b.goto(&crate::common::browser::Browser::file_url(&page, ""));
        let flaky =
            b.wait("const l = document.querySelector('ul.flaky'); return l && l.textContent;");
        assert_eq!(flaky.as_str().unwrap(), "alias-gha-resolves passed 3 of 5");
    }
}
