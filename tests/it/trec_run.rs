//! A TREC run made elsewhere, beside tenure-eval's reports (`compare`/`tables --trec-run`):
//! a report exported by `tenure-eval trec` and read back scores exactly what the report says on
//! every rank measure, static and session; the file is read as trec_eval reads it (rank column
//! ignored, ties by docno descending); a malformed run is exit 2 naming the line.

use crate::common::{tenure_eval, tenure_eval_ok};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Reports of bm25 and cosine on pmb, and the TREC run `tenure-eval trec` exports of `name`.
fn reports_and_run(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let out = dir.join("r");
    tenure_eval_ok(
        &[
            "run",
            "--suite",
            "pmb",
            "--backend",
            "bm25,cosine",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
    );
    let report = out.join("pmb").join(format!("{name}.json"));
    let trec = dir.join("t");
    tenure_eval_ok(
        &["trec", "--suite", "pmb", "--out", trec.to_str().unwrap()],
        &[&report],
    );
    (report, trec.join(format!("{name}.run")))
}

fn json(out: &std::process::Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn an_exported_run_read_back_scores_what_its_report_says_static_and_session() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "all-minilm-l6-v2-retrieval-report-vector",
        "session-retrieval-report-tenure",
    ] {
        let (report, run) = reports_and_run(dir.path(), name);
        let (r, t) = (report.to_str().unwrap(), run.to_str().unwrap());
        let args = [
            "compare",
            r,
            "--trec-run",
            t,
            "--suite",
            "pmb",
            "--format",
            "json",
        ];
        let table = json(&tenure_eval(&args));
        let columns = table["columns"].as_array().unwrap();
        let measures: Vec<&str> = columns
            .iter()
            .map(|c| c["measure"].as_str().unwrap())
            .collect();
        // Rank measures only: a TREC run has no pass/fail or set precision.
        assert_eq!(measures, ["P@5", "R@5", "nDCG@10", "RR", "AP"], "{name}");
        for column in columns {
            let means = column["means"].as_array().unwrap();
            assert!(means[0].as_f64().is_some(), "{name}: {column}");
            assert_eq!(means[0], means[1], "{name}: {column}");
        }
        assert_eq!(table["passed"][1], Value::Null, "{name}");
        assert_eq!(table["notInEveryRun"], 0, "{name}");
        // Two reports keep their pass/fail and set-precision columns.
        let both = json(&tenure_eval(&["compare", r, r, "--format", "json"]));
        let names: Vec<&str> = both["runsTable"]["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["measure"].as_str().unwrap())
            .collect();
        assert!(names.ends_with(&["precision", "passed"]), "{names:?}");
    }
    // `tables` puts the run in the rank-measure table, with the report's values.
    let report = dir
        .path()
        .join("r/pmb/all-minilm-l6-v2-retrieval-report-vector.json");
    let run = dir
        .path()
        .join("t/all-minilm-l6-v2-retrieval-report-vector.run");
    let out = tenure_eval_ok(
        &["tables", "--suite", "pmb", "--format", "json", "--trec-run"],
        &[&run, &report],
    );
    let tables: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rank = tables
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["title"].as_str().unwrap().starts_with("Rank metrics"))
        .unwrap();
    let rows = rank["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{rank}");
    assert_eq!(
        rows[0].as_array().unwrap()[2..],
        rows[1].as_array().unwrap()[2..]
    );
}

/// The gold of one pmb query with one relevant belief: (query, belief).
fn one_gold(dir: &Path) -> (String, String) {
    reports_and_run(dir, "retrieval-report-tenure");
    let qrels = std::fs::read_to_string(dir.join("t/retrieval-report-tenure.qrels")).unwrap();
    let mut by_query: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for line in qrels.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f[3] == "1" {
            by_query.entry(f[0]).or_default().push(f[2]);
        }
    }
    // One whose belief is neither the corpus's first id nor its last, so that the ordering
    // test has a document of the corpus on either side of it.
    let corpus = crate::common::read_json("seeds/pmb/beliefs.seed.json");
    let ids: Vec<&str> = (corpus.as_array().unwrap().iter())
        .map(|b| b["_id"].as_str().unwrap())
        .collect();
    let (lowest, highest) = (ids.iter().min().unwrap(), ids.iter().max().unwrap());
    let (q, gold) = by_query
        .into_iter()
        .find(|(_, g)| g.len() == 1 && g[0] != *lowest && g[0] != *highest)
        .unwrap();
    (q.to_string(), gold[0].to_string())
}

/// trec_eval's order, not the file's: the rank column is ignored, a higher score ranks first,
/// and a tie goes to the greater docno.
#[test]
fn a_run_is_ordered_as_trec_eval_orders_it() {
    let dir = tempfile::tempdir().unwrap();
    let (q, gold) = one_gold(dir.path());
    let rr = |lines: &str| -> f64 {
        let run = dir.path().join("hand.run");
        std::fs::write(&run, lines).unwrap();
        let out = tenure_eval(&[
            "compare",
            "--trec-run",
            run.to_str().unwrap(),
            "--trec-run",
            run.to_str().unwrap(),
            "--suite",
            "pmb",
            "--metrics",
            "RR",
            "--format",
            "json",
        ]);
        let table = json(&out);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("76 of the suite's 77 queries have no line"),
            "{stderr}"
        );
        // The query's RR, from the mean over the 43 queries with gold (the others score 0).
        table["columns"][0]["means"][0].as_f64().unwrap() * 43.0
    };
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    // Documents of the corpus (a run's documents must be): one that sorts after the gold and
    // one before it, neither relevant to the query (it has one relevant belief).
    let corpus = crate::common::read_json("seeds/pmb/beliefs.seed.json");
    let ids: Vec<&str> = (corpus.as_array().unwrap().iter())
        .map(|b| b["_id"].as_str().unwrap())
        .collect();
    let after = ids.iter().filter(|i| **i > gold.as_str()).max().unwrap();
    let before = ids.iter().filter(|i| **i < gold.as_str()).min().unwrap();
    // Ranked first by the rank column, second by score: RR 1/2.
    let by_score = format!("{q} Q0 {gold} 1 0.5 x\n{q} Q0 {after} 2 0.9 x\n");
    assert!(close(rr(&by_score), 0.5), "{by_score}");
    // A tie: the greater docno first, whatever the file's order.
    let tie_after = format!("{q} Q0 {gold} 1 1 x\n{q} Q0 {after} 2 1 x\n");
    assert!(close(rr(&tie_after), 0.5));
    let tie_before = format!("{q} Q0 {after} 1 1 x\n{q} Q0 {gold} 2 1 x\n");
    assert!(close(rr(&tie_before), 0.5));
    let tie_below = format!("{q} Q0 {before} 1 1 x\n{q} Q0 {gold} 2 1 x\n");
    assert!(close(rr(&tie_below), 1.0));
}

#[test]
fn a_malformed_run_or_a_run_without_its_suite_is_exit_2_naming_what() {
    let dir = tempfile::tempdir().unwrap();
    let (q, gold) = one_gold(dir.path());
    let report = dir.path().join("r/pmb/retrieval-report-tenure.json");
    let r = report.to_str().unwrap();
    let run = dir.path().join("bad.run");
    let t = run.to_str().unwrap();
    for (lines, said) in [
        (
            format!("{q} Q0 {gold} 1\n"),
            "line 1: 4 fields; expected six",
        ),
        (
            format!("{q} Q0 {gold} 1 high x\n"),
            "line 1: score \"high\": expected a number",
        ),
        (
            format!("{q} Q0 a 1 1 x\n{q} Q0 b 2 0.5 y\n"),
            "line 2: run name \"y\"",
        ),
        (
            format!("{q} Q0 a 1 1 x\n{q} Q0 a 2 0.5 x\n"),
            "line 2: \"a\" is ranked twice",
        ),
        (
            "no-such-case Q0 a 1 1 x\n".to_string(),
            "query \"no-such-case\": not a query of the suite",
        ),
        // NaN and inf rank above (or, -NaN, below) every number: refused as not numbers.
        (
            format!("{q} Q0 {gold} 1 NaN x\n"),
            "line 1: score \"NaN\": expected a number",
        ),
        (
            format!("{q} Q0 a 1 1 x\n{q} Q0 {gold} 2 1e400 x\n"),
            "line 2: score \"1e400\": expected a number",
        ),
        // A document the corpus lacks is of another collection (it scored 0 in silence).
        (
            format!("{q} Q0 {gold} 1 2 x\n{q} Q0 conv-26/S1 2 1 x\n"),
            "line 2: document \"conv-26/S1\" is not in the suite's corpus (pmb)",
        ),
        (String::new(), "an empty TREC run"),
    ] {
        std::fs::write(&run, &lines).unwrap();
        let out = tenure_eval(&["compare", r, "--trec-run", t, "--suite", "pmb"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{lines}: {stderr}");
        assert!(
            stderr.contains(t) && stderr.contains(said),
            "{lines}: {stderr}"
        );
    }
    std::fs::write(&run, format!("{q} Q0 {gold} 1 1 x\n")).unwrap();
    for (args, said) in [
        (
            vec!["compare", r, "--trec-run", t],
            "--trec-run: name the suite",
        ),
        (
            vec!["tables", r, "--trec-run", t],
            "--trec-run: name the suite",
        ),
        (
            vec!["tables", r, "--suite", "pmb"],
            "--suite applies with --trec-run",
        ),
        (
            vec!["compare", "--trec-run", t, "--suite", "pmb"],
            "two or more runs",
        ),
    ] {
        let out = tenure_eval(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
    }
}
