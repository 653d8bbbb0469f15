//! `tenure-eval html` at size: the published reports' page (under 3 MB), a 10,000-case
//! report's virtualised case list, and the docs' screenshots and open times (by hand).

use crate::common::browser::{browser_or_skip, Browser};
use crate::common::{repo, tenure_eval_ok};
use crate::html::{cases_of, matches, overview_files, GOLDEN};
use serde_json::{json, Value};

#[test]
fn html_of_the_published_reports_is_one_file_under_3_mb() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("published.html");
    tenure_eval_ok(
        &["html", "--quiet", "--resamples", "2100", "--out"],
        &[&page, &repo(GOLDEN)],
    );
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 3_000_000, "{size} bytes");
    let Some(b) = browser_or_skip() else {
        return;
    };
    b.goto(&Browser::file_url(&page, ""));
    // PrecisionMemBench's 26 reports (13 systems, static and session) and its two other
    // embedding models' vector reports.
    let files = std::fs::read_dir(repo(GOLDEN)).unwrap().count();
    assert_eq!(files, 28);
    assert_eq!(overview_files(&b).len(), files);
    // Every row reads differently: the mxbai and nomic vector reports, both provider `vector`,
    // are told apart by their file names.
    let runs = b.js(
        "return [...document.querySelectorAll('#overview-table tbody tr')]\
           .map(r => r.cells[0].textContent + ' / ' + r.cells[3].textContent)",
        json!([]),
    );
    let runs: Vec<String> = serde_json::from_value(runs).unwrap();
    let distinct: std::collections::BTreeSet<&String> = runs.iter().collect();
    assert_eq!(distinct.len(), runs.len(), "{runs:?}");
    assert!(runs.contains(&"vector · nomic-retrieval-report-vector.json / static".to_string()));
    assert!(runs.contains(&"vector · retrieval-report-vector.json / static".to_string()));
    assert!(runs.contains(&"vector / session".to_string()));
    let load = b.js(
        "const n=performance.getEntriesByType('navigation')[0]; return n.loadEventEnd",
        json!([]),
    );
    eprintln!("published.html: {size} bytes, loaded in {load} ms");
}

/// Screenshots and the open time, for docs/html.md: `TENURE_EVAL_SHOTS=DIR cargo test --test
/// it html::screenshots -- --ignored` over a page already written to `DIR/page.html`.
#[test]
#[ignore = "writes the docs' screenshots; run by hand"]
fn screenshots() {
    let dir = std::path::PathBuf::from(std::env::var("TENURE_EVAL_SHOTS").unwrap());
    let b = browser_or_skip().unwrap();
    let page = dir.join("page.html");
    let mut loads = Vec::new();
    for _ in 0..7 {
        b.goto("about:blank");
        b.goto(&Browser::file_url(&page, ""));
        overview_files(&b);
        let n = b.js(
            "const n=performance.getEntriesByType('navigation')[0]; return [n.domContentLoadedEventEnd, n.loadEventEnd]",
            json!([]),
        );
        loads.push((n[0].as_f64().unwrap(), n[1].as_f64().unwrap()));
    }
    loads.sort_by(|a, b| a.1.total_cmp(&b.1));
    eprintln!(
        "open times (domContentLoaded, load) ms, sorted: {loads:?}; median load {}",
        loads[3].1
    );
    let views = std::env::var("TENURE_EVAL_SHOT_VIEWS")
        .unwrap_or_else(|_| "overview,case/alias-gha-resolves,differences".into());
    for scheme in ["light", "dark"] {
        b.cdp(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-color-scheme", "value": scheme}]}),
        );
        for (width, height) in [(420, 900), (1400, 900)] {
            b.size(width, height);
            for view in views.split(',') {
                b.goto("about:blank");
                b.goto(&Browser::file_url(&page, view));
                b.wait("return document.querySelector('main').children.length");
                let name = format!("{}-{scheme}-{width}.png", view.replace('/', "_"));
                std::fs::write(dir.join(name), b.screenshot()).unwrap();
            }
        }
    }
}

/// A 10,010-case report (the published BM25 report's cases repeated, named `id~N` as
/// `scale --case-count` names them): the case list stays virtualised (a few dozen rows in the
/// page whatever the count) and reaches its last case.
#[test]
fn html_of_a_10_000_case_report_keeps_the_case_list_virtualised() {
    let Some(b) = browser_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let golden = repo(GOLDEN).join("retrieval-report-tenure.json");
    let mut report: Value = serde_json::from_slice(&std::fs::read(&golden).unwrap()).unwrap();
    let base = cases_of(&golden);
    let mut cases = Vec::new();
    for n in 1..=130 {
        for c in &base {
            let mut c = c.clone();
            c["caseId"] = json!(format!("{}~{n}", c["caseId"].as_str().unwrap()));
            cases.push(c);
        }
    }
    let last = cases.last().unwrap()["caseId"]
        .as_str()
        .unwrap()
        .to_string();
    let total = cases.len();
    report["cases"] = json!(cases);
    report.as_object_mut().unwrap().remove("retrieval");
    let big = dir.path().join("big.json");
    std::fs::write(&big, serde_json::to_vec(&report).unwrap()).unwrap();
    let page = dir.path().join("big.html");
    tenure_eval_ok(&["html", "--quiet", "--out"], &[&page, &big]);

    b.goto(&Browser::file_url(&page, "cases"));
    b.wait("return document.getElementById('case-count')");
    // The suite's 77 cases (no report has them) and the 10,010 repeats.
    assert_eq!(matches(&b), (total + base.len()) as u64);
    let rows = |b: &Browser| {
        b.js(
            "return document.querySelectorAll('.vrow').length",
            json!([]),
        )
    };
    assert!(rows(&b).as_u64().unwrap() < 80, "{}", rows(&b));
    let at_end = b.js(
        "const v=document.getElementById('case-list'); v.scrollTop=v.scrollHeight; \
         v.dispatchEvent(new Event('scroll')); \
         return [...document.querySelectorAll('.vrow')].map(r=>r.dataset.id).pop();",
        json!([]),
    );
    assert_eq!(at_end, json!(last));
    assert!(rows(&b).as_u64().unwrap() < 80);
}
