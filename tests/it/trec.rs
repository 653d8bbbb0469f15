//! TREC export: precision recomputed from the run and qrels files alone equals the report's own
//! mean precision, for our BM25 report and for PrecisionMemBench's published cosine report.

use crate::common::{read_json, repo};
use std::collections::{HashMap, HashSet};
use std::path::Path;

fn export(report: &Path, out: &Path) {
    let status = crate::common::cli(&[])
        .arg("trec")
        .arg(report)
        .args(["--suite", "pmb", "--out"])
        .arg(out)
        .status()
        .unwrap();
    assert!(status.success());
}

/// Mean precision per HEAD rules from TREC files: a query with gold but nothing retrieved counts
/// 0; a query with neither is skipped.
fn precision_from_trec(run: &str, qrels: &str, queries: &[String]) -> f64 {
    let mut retrieved: HashMap<&str, Vec<&str>> = HashMap::new();
    for line in run.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 6, "{line}");
        assert_eq!(f[1], "Q0");
        retrieved.entry(f[0]).or_default().push(f[2]);
    }
    let mut gold: HashMap<&str, HashSet<&str>> = HashMap::new();
    for line in qrels.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!((f.len(), f[1]), (4, "0"), "{line}");
        assert!(f[3] == "1" || f[3] == "0", "{line}");
        if f[3] == "1" {
            gold.entry(f[0]).or_default().insert(f[2]);
        }
    }
    let mut values = Vec::new();
    for q in queries {
        let r = retrieved.get(q.as_str()).cloned().unwrap_or_default();
        let g = gold.get(q.as_str()).cloned().unwrap_or_default();
        match (r.is_empty(), g.is_empty()) {
            (true, true) => {}
            (true, false) => values.push(0.0),
            (false, _) => {
                values.push(r.iter().filter(|d| g.contains(*d)).count() as f64 / r.len() as f64)
            }
        }
    }
    tenure_eval::js::round4(values.iter().sum::<f64>() / values.len() as f64)
}

/// Export `report_path`, check the round trip, and return (run, qrels).
fn check(report_path: &Path, expected_mean: f64) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    export(report_path, dir.path());
    let stem = report_path
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let run = std::fs::read_to_string(dir.path().join(format!("{stem}.run"))).unwrap();
    let qrels = std::fs::read_to_string(dir.path().join(format!("{stem}.qrels"))).unwrap();
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(report_path).unwrap()).unwrap();
    let queries: Vec<String> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["caseId"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        report["retrieval"]["meanPrecision"].as_f64().unwrap(),
        expected_mean
    );
    assert_eq!(precision_from_trec(&run, &qrels, &queries), expected_mean);
    (run, qrels)
}

#[test]
fn published_cosine_report_round_trips_through_trec() {
    let _ = check(
        &repo("tests/golden/pmb-baseline/retrieval-report-vector.json"),
        0.0876,
    );
}

#[test]
fn our_bm25_report_round_trips_through_trec() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::tenure_eval_into(&["static", "--suite", "pmb"], dir.path());
    let (run, qrels) = check(&dir.path().join("pmb/retrieval-report-tenure.json"), 1.0);
    // Scores in the run file are the report's unrounded search scores (the float32 BM25
    // scores, 18.33 and 7.67 in `score`), in rank order.
    // The run tag is the backend as `run` names it.
    assert!(run.contains("alias-kube-resolves Q0 b-ci-gha-entity 1 18.334835 bm25\nalias-kube-resolves Q0 b-kubernetes-entity 2 7.6671443 bm25\n"), "{run}");
    // The qrels hold every gold belief: 67 shouldOnlyInclude ids over the 77 cases, each
    // judged relevant; the other lines are mustExclude beliefs judged non-relevant.
    let cases = read_json("cases/pmb/retrieval.cases.json");
    let gold: usize = cases
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["expect"]["relevantBeliefs"]["shouldOnlyInclude"].as_array())
        .map(Vec::len)
        .sum();
    assert_eq!(qrels.lines().filter(|l| l.ends_with(" 1")).count(), gold);
}

#[test]
fn ids_that_trec_would_split_are_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    // The published tenure report with one belief id given a blank, and one with a newline.
    let mut report =
        crate::common::read_json("tests/golden/pmb-baseline/retrieval-report-tenure.json");
    for (i, bad) in [(0, "b redis code"), (1, "b-redis\ncode")] {
        let case = &mut report["cases"].as_array_mut().unwrap()[i];
        if case["relevantBeliefs"].as_array().unwrap().is_empty() {
            case["relevantBeliefs"] = serde_json::json!([bad]);
        } else {
            case["relevantBeliefs"][0] = bad.into();
        }
        let path = dir.path().join(format!("odd-{i}.json"));
        std::fs::write(&path, report.to_string()).unwrap();
        let out = crate::common::tenure_eval(&["trec", path.to_str().unwrap(), "--suite", "pmb"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!("odd-{i}.json: case ")) && stderr.contains("whitespace"),
            "{stderr}"
        );
        assert!(!dir.path().join(format!("odd-{i}.run")).exists());
        assert!(!dir.path().join(format!("odd-{i}.qrels")).exists());
        report = crate::common::read_json("tests/golden/pmb-baseline/retrieval-report-tenure.json");
    }
}

/// A system name TREC cannot carry is refused when it is given (`run --name`), exit 2 before
/// anything runs, not by every later `trec` export of its reports.
#[test]
fn a_name_with_whitespace_is_refused_by_run_not_later_by_trec() {
    let out = tempfile::tempdir().unwrap();
    let run = crate::common::tenure_eval(&[
        "run",
        "--suite",
        "pmb",
        "--backend",
        "http",
        "--url",
        "http://127.0.0.1:9",
        "--name",
        "my system",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--name \"my system\" holds whitespace")
            && stderr.contains("\"my-system\""),
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0);
}
