//! `compare` on real reports: the published cosine baseline against the published BM25 report,
//! and a report against itself.

use crate::common::{repo, tenure_eval_ok};

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
    // Vector similarities beside BM25 scores are not changes: none are listed, and it says why.
    assert!(c["largestScoreChanges"].as_array().unwrap().is_empty());
    assert_eq!(
        c["scoresNotCompared"],
        "scores not compared: BASE is on the Atlas vector score, (1 + cos) / 2 scale, NEW on the Lucene BM25 score scale"
    );
}

/// Two reports on one scale (MiniLM fp32 and int8 vector scores): the ten largest changes,
/// largest first, and nothing said about scales. (A report without scores, as the published
/// qwen3 one, is on no scale: nothing to compare.)
#[test]
fn score_changes_on_one_scale_are_listed() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::tenure_eval_into(
        &[
            "static",
            "--suite",
            "pmb",
            "--backend",
            "cosine",
            "--model",
            "all-minilm-l6-v2",
            "--model",
            "all-minilm-l6-v2-int8",
        ],
        dir.path(),
    );
    let report = |name: &str| dir.path().join("pmb").join(name).display().to_string();
    let c = compare_json(
        &report("all-minilm-l6-v2-retrieval-report-vector.json"),
        &report("all-minilm-l6-v2-int8-retrieval-report-vector.json"),
        "1",
    );
    let changes = c["largestScoreChanges"].as_array().unwrap();
    assert_eq!(changes.len(), 10);
    let size = |x: &serde_json::Value| {
        (x["new"].as_f64().unwrap_or(0.0) - x["base"].as_f64().unwrap_or(0.0)).abs()
    };
    assert!(changes.windows(2).all(|w| size(&w[0]) >= size(&w[1])));
    assert!(c.get("scoresNotCompared").is_none());
}

/// Markdown lists at most 20 flips per direction, each with its first failure, and says how
/// many more; sessions get the mean drift under each definition both reports give.
#[test]
fn markdown_flips_are_bounded_and_sessions_show_drift() {
    let text = |base: &str, new: &str| {
        let out = crate::common::cli(&[])
            .args(["compare", base, new])
            .current_dir(crate::common::repo(""))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let md = text(
        "tests/golden/pmb-baseline/retrieval-report-tenure.json",
        "tests/golden/pmb-baseline/retrieval-report-vector.json",
    );
    assert!(md.contains("### Pass → fail (66)"), "{md}");
    assert!(
        md.contains("- … and 46 more (`--format json` lists every one)"),
        "{md}"
    );
    let listed = md.lines().filter(|l| l.starts_with("- `")).count();
    assert_eq!(listed, 20);

    // Both definitions, each labelled: the published vector report's `driftScore` is
    // 1 − precision, and its noise share is recomputed from its turns' lists.
    let md = text(
        "tests/golden/pmb-baseline/session-retrieval-report-vector.json",
        "tests/golden/pmb-baseline/session-retrieval-report-tenure.json",
    );
    assert!(
        md.contains("- mean drift, 1 − precision (PrecisionMemBench): 0.9142 → 0.0000\n"),
        "{md}"
    );
    assert!(
        md.contains("- mean drift, noise / (relevant + pinned) (the paper): 0.0648 → 0.0000\n"),
        "{md}"
    );
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
    let out = crate::common::cli(&[])
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

/// PrecisionMemBench publishes its mxbai and nomic vector reports both as provider `vector`:
/// the runs table tells them apart by file name, and by path when the file is given twice.
#[test]
fn runs_that_read_the_same_are_told_apart_by_file_then_path() {
    let dir = tempfile::tempdir().unwrap();
    let golden = repo("tests/golden/pmb-baseline");
    let copy = dir.path().join("retrieval-report-vector.json");
    std::fs::copy(golden.join("retrieval-report-vector.json"), &copy).unwrap();
    let out = tenure_eval_ok(
        &["compare", "--format", "json"],
        &[
            &golden.join("retrieval-report-vector.json"),
            &golden.join("nomic-retrieval-report-vector.json"),
            &golden.join("qwen3-retrieval-report-vector.json"),
            &copy,
        ],
    );
    let table: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = table["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    let path = |p: &std::path::Path| format!("vector · {}", p.display());
    assert_eq!(
        names,
        [
            path(&golden.join("retrieval-report-vector.json")).as_str(),
            "vector · nomic-retrieval-report-vector.json",
            "qwen3",
            path(&copy).as_str(),
        ]
    );
}
