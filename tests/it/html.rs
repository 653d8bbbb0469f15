//! `tenure-eval html` and `run --html`: the page, opened in a real headless Chromium through
//! WebDriver, shows what the reports hold (tiers, ids, scores, flips, one chart point per
//! turn), opens views from URL fragments and makes no network request; bad input is exit 2
//! with nothing written.

use crate::common::browser::{browser_or_skip, Browser};
use crate::common::{builtin, repo, tenure_eval, tenure_eval_ok};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::Path;

pub(crate) const GOLDEN: &str = "tests/golden/pmb-baseline";

pub(crate) fn cases_of(path: &Path) -> Vec<Value> {
    let v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    v["cases"].as_array().unwrap().clone()
}

/// `html INPUTS --out OUT` must fail with exit 2, write nothing, and say each of `said`.
fn refused(inputs: &[&Path], out: &Path, said: &[&str]) {
    let mut args: Vec<&str> = vec!["html"];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    args.extend(["--out", out.to_str().unwrap()]);
    let run = tenure_eval(&args);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    for s in said {
        assert!(stderr.contains(s), "{s:?} not in {stderr}");
    }
    assert!(!out.exists());
}

#[test]
fn html_refuses_what_is_not_a_report_and_mixed_suites_with_exit_2_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("page.html");
    let junk = dir.path().join("notes.json");
    std::fs::write(&junk, br#"{"hello": "world"}"#).unwrap();
    let golden = repo(GOLDEN).join("retrieval-report-tenure.json");
    refused(&[&golden, &junk], &out, &["notes.json"]);

    // A paper-suite report beside a pmb one: refused, naming the second suite's file.
    let paper = dir.path().join("paper");
    let pmb = dir.path().join("pmb");
    for (suite, at) in [("paper", &paper), ("pmb", &pmb)] {
        tenure_eval_ok(
            &["static", "--suite", suite, "--quiet", "--out"],
            &[at.as_path()],
        );
    }
    refused(
        &[&paper, &pmb],
        &out,
        &["pmb/retrieval-report-tenure.json", "$.manifest.suite"],
    );
}

/// The page of a fresh BM25 run (static and session, written by `run --html`) beside
/// PrecisionMemBench's published mem0 reports.
struct Fixture {
    _dir: tempfile::TempDir,
    page: std::path::PathBuf,
    run_page: std::path::PathBuf,
    ours: std::path::PathBuf,
    ours_session: std::path::PathBuf,
    mem0: std::path::PathBuf,
    mem0_session: std::path::PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let run_page = dir.path().join("run.html");
    let reports = dir.path().join("reports");
    tenure_eval_ok(
        &[
            "run",
            "--suite",
            "pmb",
            "--backend",
            "bm25",
            "--quiet",
            "--html",
        ],
        &[run_page.as_path(), Path::new("--out"), reports.as_path()],
    );
    let mem0 = repo(GOLDEN).join("retrieval-report-mem0.json");
    let mem0_session = repo(GOLDEN).join("session-retrieval-report-mem0.json");
    let page = dir.path().join("page.html");
    tenure_eval_ok(
        &["html", "--quiet", "--resamples", "2000", "--out"],
        &[&page, &reports, &mem0, &mem0_session],
    );
    Fixture {
        page,
        run_page,
        ours: reports.join("pmb/retrieval-report-tenure.json"),
        ours_session: reports.join("pmb/session-retrieval-report-tenure.json"),
        mem0,
        mem0_session,
        _dir: dir,
    }
}

pub(crate) fn overview_files(b: &Browser) -> Vec<String> {
    let v = b.wait(
        "const r=[...document.querySelectorAll('#overview-table tbody tr')];\
         return r.length ? r.map(x=>x.dataset.file) : null;",
    );
    serde_json::from_value(v).unwrap()
}

pub(crate) fn matches(b: &Browser) -> u64 {
    b.js(
        "return +document.getElementById('case-count').dataset.matches",
        json!([]),
    )
    .as_u64()
    .unwrap()
}

#[test]
fn html_page_shows_the_reports_in_a_real_browser() {
    let Some(b) = browser_or_skip() else {
        return;
    };
    let f = fixture();
    let suite = builtin("pmb");

    // `run --html` wrote the page of the two reports it wrote.
    b.goto(&Browser::file_url(&f.run_page, ""));
    let files: BTreeSet<String> = overview_files(&b).into_iter().collect();
    let expected: BTreeSet<String> = [
        "retrieval-report-tenure.json",
        "session-retrieval-report-tenure.json",
    ]
    .map(String::from)
    .into();
    assert_eq!(files, expected);

    // The overview lists every given report, in order.
    b.goto(&Browser::file_url(&f.page, ""));
    let files = overview_files(&b);
    let names: Vec<String> = [&f.ours, &f.ours_session, &f.mem0, &f.mem0_session]
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files, names);

    // No request of any kind: the only performance entry is the page itself.
    let resources = b.js(
        "return performance.getEntriesByType('resource').map(e=>e.name)",
        json!([]),
    );
    assert_eq!(resources, json!([]));

    // The case filter narrows the list: by category, then by text; by outcome.
    b.goto(&Browser::file_url(&f.page, "cases"));
    b.wait("return document.getElementById('case-count')");
    assert_eq!(matches(&b), suite.cases.len() as u64);
    let category = "Alias resolution";
    b.js(
        "const s=document.getElementById('f-cat'); s.value=arguments[0]; \
         s.dispatchEvent(new Event('change'));",
        json!([category]),
    );
    let in_category: Vec<_> = suite
        .cases
        .iter()
        .filter(|c| c.category.as_deref() == Some(category))
        .collect();
    assert_eq!(matches(&b), in_category.len() as u64);
    b.js(
        "const s=document.getElementById('f-text'); s.value='k8s'; \
         s.dispatchEvent(new Event('input'));",
        json!([]),
    );
    let with_text = in_category
        .iter()
        .filter(|c| {
            [&c.case_id, &c.description, &c.query]
                .iter()
                .any(|t| t.to_lowercase().contains("k8s"))
        })
        .count();
    assert!(with_text > 0 && with_text < in_category.len());
    assert_eq!(matches(&b), with_text as u64);
    let failed: BTreeSet<String> = [&f.ours, &f.mem0]
        .iter()
        .flat_map(|p| cases_of(p))
        .filter(|c| c["passed"] == json!(false))
        .map(|c| c["caseId"].as_str().unwrap().to_string())
        .collect();
    b.goto("about:blank");
    b.goto(&Browser::file_url(&f.page, "cases"));
    b.wait("return document.getElementById('case-count')");
    b.js(
        "const s=document.getElementById('f-outcome'); s.value='failed'; \
         s.dispatchEvent(new Event('change'));",
        json!([]),
    );
    assert_eq!(matches(&b), failed.len() as u64);
    // Keyboard: j moves the selection down the list, / focuses the text filter.
    b.js(
        "for (const k of ['j','j']) document.body.dispatchEvent(new KeyboardEvent('keydown',{key:k,bubbles:true}));",
        json!([]),
    );
    let selected = b.js(
        "return document.querySelector('.vrow.sel').dataset.id",
        json!([]),
    );
    let rows = b.js(
        "return [...document.querySelectorAll('.vrow')].map(r=>r.dataset.id)",
        json!([]),
    );
    assert_eq!(selected, rows[2]);
    b.js(
        "document.body.dispatchEvent(new KeyboardEvent('keydown',{key:'/',bubbles:true}))",
        json!([]),
    );
    assert_eq!(
        b.js("return document.activeElement.id", json!([])),
        json!("f-text")
    );

    // Every case shows each system's tiers and hits with the reports' ids and scores.
    let reports = [(&f.ours, cases_of(&f.ours)), (&f.mem0, cases_of(&f.mem0))];
    for case in &suite.cases {
        let shown = b.js(
            "location.hash='case/'+encodeURIComponent(arguments[0]); route();\
             return [...document.querySelectorAll('.report-col')].map(c=>({file:c.dataset.file,\
               pinned:[...c.querySelectorAll('[data-tier=pinned] li')].map(l=>l.dataset.id),\
               relevant:[...c.querySelectorAll('[data-tier=relevant] li')].map(l=>l.dataset.id),\
               hits:[...c.querySelectorAll('tr.hit')].map(t=>[t.dataset.id,+t.dataset.score])}));",
            json!([case.case_id]),
        );
        let shown = shown.as_array().unwrap();
        let scores = |v: &Value| -> Vec<(String, f64)> {
            v.as_array()
                .into_iter()
                .flatten()
                .map(|h| (h[0].as_str().unwrap().to_string(), h[1].as_f64().unwrap()))
                .collect()
        };
        assert_eq!(shown.len(), 2, "{}", case.case_id);
        for ((path, entries), col) in reports.iter().zip(shown) {
            let e = entries
                .iter()
                .find(|e| e["caseId"] == json!(case.case_id))
                .unwrap();
            assert_eq!(
                col["file"],
                json!(path.file_name().unwrap().to_str().unwrap())
            );
            assert_eq!(col["pinned"], e["pinnedBeliefs"], "{}", case.case_id);
            assert_eq!(col["relevant"], e["relevantBeliefs"], "{}", case.case_id);
            let hits: Vec<Value> = e["searchScores"]
                .as_array()
                .map(|s| s.iter().map(|h| json!([h["id"], h["score"]])).collect())
                .unwrap_or_default();
            assert_eq!(
                scores(&col["hits"]),
                scores(&json!(hits)),
                "{}",
                case.case_id
            );
        }
    }

    // A session's chart has one point per turn, per report.
    let session = &suite.sessions[0];
    b.goto(&Browser::file_url(
        &f.page,
        &format!("session/{}", session.case_id),
    ));
    let points = b.wait(
        "const g=[...document.querySelectorAll('svg.drift-chart')[0]?.querySelectorAll('g.series')||[]];\
         return g.length ? g.map(s=>[s.dataset.file, s.querySelectorAll('circle.pt').length]) : null;",
    );
    for (i, path) in [&f.ours_session, &f.mem0_session].iter().enumerate() {
        let turns = cases_of(path)
            .iter()
            .filter(|t| t["caseId"] == json!(session.case_id))
            .count();
        assert!(turns > 1);
        assert_eq!(
            points[i],
            json!([path.file_name().unwrap().to_str().unwrap(), turns])
        );
    }

    // Two reports show their flips: the cases one passed and the other failed.
    b.goto(&Browser::file_url(&f.page, "differences"));
    let flips = b.wait(
        "const r=[...document.querySelectorAll('#flips-static tbody tr')];\
         return r.length ? r.map(x=>x.dataset.case) : null;",
    );
    let (ours, mem0) = (cases_of(&f.ours), cases_of(&f.mem0));
    let expected: BTreeSet<String> = ours
        .iter()
        .filter(|c| {
            let other = mem0.iter().find(|m| m["caseId"] == c["caseId"]).unwrap();
            other["passed"] != c["passed"]
        })
        .map(|c| c["caseId"].as_str().unwrap().to_string())
        .collect();
    let shown: BTreeSet<String> = serde_json::from_value(flips).unwrap();
    assert!(!expected.is_empty());
    assert_eq!(shown, expected);

    // A fragment URL opens that case; and the page works with the network cut off.
    b.cdp("Network.enable", json!({}));
    b.cdp(
        "Network.emulateNetworkConditions",
        json!({"offline": true, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}),
    );
    b.goto("about:blank");
    b.goto(&Browser::file_url(&f.page, "case/alias-gha-resolves"));
    let title = b.wait("return document.getElementById('case-title')?.textContent");
    assert_eq!(title, json!("alias-gha-resolves"));
}
