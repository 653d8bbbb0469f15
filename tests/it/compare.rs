//! `compare` on real reports: the published cosine baseline against the published BM25 report,
//! and a report against itself.

use crate::common::{repo, tenure_eval_ok};
use std::process::Command;

fn compare_json(base: &str, new: &str, seed: &str) -> serde_json::Value {
    let out = tenure_eval_ok(
        &["compare", "--format", "json", "--seed", seed],
        &[&repo(base), &repo(new)],
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn cosine_baseline_to_bm25() {
    let c = compare_json(
        "tests/golden/pmb-baseline/retrieval-report-vector.json",
        "tests/golden/pmb-baseline/retrieval-report-tenure.json",
        "7",
    );
    assert_eq!(c["paired"], 77);
    // vector passes 11/77 and tenure 77/77: 66 discordant pairs, all fail→pass.
    assert_eq!(c["passToFail"].as_array().unwrap().len(), 0);
    assert_eq!(c["failToPass"].as_array().unwrap().len(), 66);
    // Exact McNemar: 2 · 0.5^66.
    assert!((c["mcnemarP"].as_f64().unwrap() - 2.0 * 0.5f64.powi(66)).abs() < 1e-30);
    // Precision: tenure is 1.0 on all 43 cases where both have one; vector's mean there is 0.1364
    // (its 0.0876 overall mean includes cases where tenure's precision is null).
    assert_eq!(
        (c["wins"].as_u64(), c["ties"].as_u64(), c["losses"].as_u64()),
        (Some(43), Some(0), Some(0))
    );
    let d = &c["precisionDifference"];
    assert!((d["mean"].as_f64().unwrap() - 0.8636).abs() < 5e-5, "{d}");
    assert!(
        d["low"].as_f64().unwrap() < d["mean"].as_f64().unwrap()
            && d["mean"].as_f64().unwrap() < d["high"].as_f64().unwrap()
    );
    assert!(d["high"].as_f64().unwrap() <= 1.0);
    // Seeded: the same seed gives the same interval, another seed another one.
    let again = compare_json(
        "tests/golden/pmb-baseline/retrieval-report-vector.json",
        "tests/golden/pmb-baseline/retrieval-report-tenure.json",
        "7",
    );
    assert_eq!(again["precisionDifference"], c["precisionDifference"]);
    let other = compare_json(
        "tests/golden/pmb-baseline/retrieval-report-vector.json",
        "tests/golden/pmb-baseline/retrieval-report-tenure.json",
        "8",
    );
    assert_ne!(
        other["precisionDifference"]["low"],
        c["precisionDifference"]["low"]
    );
    // Per category: Alias resolution goes from vector's passes to 23/23.
    let alias = c["categories"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["category"] == "Alias resolution")
        .unwrap();
    assert_eq!(
        (alias["cases"].as_u64(), alias["newPassed"].as_u64()),
        (Some(23), Some(23))
    );
    assert_eq!(c["largestScoreChanges"].as_array().unwrap().len(), 10);
}

#[test]
fn a_report_compared_with_itself_changes_nothing() {
    let c = compare_json(
        "tests/golden/pmb-baseline/retrieval-report-tenure.json",
        "tests/golden/pmb-baseline/retrieval-report-tenure.json",
        "1",
    );
    assert_eq!(
        c["failToPass"].as_array().unwrap().len() + c["passToFail"].as_array().unwrap().len(),
        0
    );
    assert_eq!(c["mcnemarP"], 1.0);
    assert_eq!(
        (c["wins"].as_u64(), c["ties"].as_u64(), c["losses"].as_u64()),
        (Some(0), Some(43), Some(0))
    );
    assert_eq!(
        (
            c["precisionDifference"]["low"].as_f64(),
            c["precisionDifference"]["high"].as_f64()
        ),
        (Some(0.0), Some(0.0))
    );
    assert!(c["largestScoreChanges"].as_array().unwrap().is_empty());
}

#[test]
fn static_against_session_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_tenure-eval"))
        .arg("compare")
        .arg(repo(
            "tests/golden/pmb-baseline/retrieval-report-tenure.json",
        ))
        .arg(repo(
            "tests/golden/pmb-baseline/session-retrieval-report-tenure.json",
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
