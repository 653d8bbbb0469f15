//! Any qrels as a suite (issue 36): a BEIR folder and the same data as TREC files give the same
//! report; its R@10 and nDCG@10 (graded) equal ir_measures' on the input qrels; and the qrels
//! that `trec` exports equal the input.

use crate::common::cli;
use crate::common::needs::{needs, Need};
use crate::common::rank_reference::rank_reference;
use crate::common::strip_measurements;
use serde_json::{json, Value};
use std::path::Path;

/// Twelve documents, five topics, graded judgments (3 highly relevant … 0 judged not).
const DOCS: [(&str, &str, &str); 12] = [
    (
        "d01",
        "Redis",
        "Redis is an in-memory key value store, often used as a cache.",
    ),
    (
        "d02",
        "Memcached",
        "Memcached is a simple in-memory cache for small values.",
    ),
    (
        "d03",
        "PostgreSQL",
        "PostgreSQL is a relational database with transactions.",
    ),
    (
        "d04",
        "SQLite",
        "SQLite is an embedded relational database in one file.",
    ),
    (
        "d05",
        "",
        "A cache keeps hot values in memory to spare the database.",
    ),
    (
        "d06",
        "Kubernetes",
        "Kubernetes schedules containers on a cluster of machines.",
    ),
    (
        "d07",
        "Nomad",
        "Nomad schedules containers and plain binaries on a cluster.",
    ),
    (
        "d08",
        "Kafka",
        "Kafka is a log of messages that consumers read at their pace.",
    ),
    (
        "d09",
        "RabbitMQ",
        "RabbitMQ routes messages from producers to queues.",
    ),
    (
        "d10",
        "Vitest",
        "Vitest runs unit tests for JavaScript with a fast watcher.",
    ),
    (
        "d11",
        "Pytest",
        "Pytest runs unit tests for Python with fixtures.",
    ),
    (
        "d12",
        "Grafana",
        "Grafana draws dashboards of metrics from many sources.",
    ),
];
const TOPICS: [(&str, &str); 5] = [
    ("q1", "in-memory cache for values"),
    ("q2", "relational database"),
    ("q3", "schedules containers on a cluster"),
    ("q4", "messages from producers to consumers"),
    ("q5", "unit tests runner"),
];
const QRELS: [(&str, &str, u32); 12] = [
    ("q1", "d01", 3),
    ("q1", "d02", 2),
    ("q1", "d05", 1),
    ("q1", "d03", 0),
    ("q2", "d03", 2),
    ("q2", "d04", 2),
    ("q3", "d06", 3),
    ("q3", "d07", 1),
    ("q4", "d09", 2),
    ("q4", "d08", 1),
    ("q5", "d11", 1),
    ("q5", "d10", 2),
];

/// The collection written both ways: a BEIR folder, and TREC files (TSV topics, 4-column qrels).
fn collection(dir: &Path) {
    let beir = dir.join("beir");
    std::fs::create_dir_all(beir.join("qrels")).unwrap();
    let docs: String = DOCS
        .iter()
        .map(|(id, title, text)| format!("{}\n", json!({"_id": id, "title": title, "text": text})))
        .collect();
    std::fs::write(beir.join("corpus.jsonl"), &docs).unwrap();
    std::fs::write(dir.join("docs.jsonl"), &docs).unwrap();
    let queries: String = TOPICS
        .iter()
        .map(|(id, text)| format!("{}\n", json!({"_id": id, "text": text})))
        .collect();
    std::fs::write(beir.join("queries.jsonl"), queries).unwrap();
    let tsv: String = TOPICS
        .iter()
        .map(|(id, text)| format!("{id}\t{text}\n"))
        .collect();
    std::fs::write(dir.join("topics.tsv"), tsv).unwrap();
    let beir_qrels: String = std::iter::once("query-id\tcorpus-id\tscore\n".to_string())
        .chain(QRELS.iter().map(|(q, d, g)| format!("{q}\t{d}\t{g}\n")))
        .collect();
    std::fs::write(beir.join("qrels/test.tsv"), beir_qrels).unwrap();
    let trec: String = QRELS
        .iter()
        .map(|(q, d, g)| format!("{q} 0 {d} {g}\n"))
        .collect();
    std::fs::write(dir.join("qrels.txt"), trec).unwrap();
}

fn run(args: &[&str], out: &Path) -> Value {
    let o = cli(&["static", "--backend", "bm25-text", "--quiet"])
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let suite = if args.contains(&"beir") {
        "beir"
    } else {
        "trec"
    };
    let path = out.join(suite).join("retrieval-report-bm25-text.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn a_beir_folder_and_trec_files_are_one_suite_measured_as_ir_measures_measures_it() {
    let dir = tempfile::tempdir().unwrap();
    collection(dir.path());
    let d = |p: &str| dir.path().join(p).display().to_string();
    let beir = run(
        &["--suite", "beir", "--data", &d("beir")],
        &dir.path().join("out"),
    );
    let trec = run(
        &[
            "--suite",
            "trec",
            "--corpus",
            &d("docs.jsonl"),
            "--topics",
            &d("topics.tsv"),
            "--qrels",
            &d("qrels.txt"),
        ],
        &dir.path().join("out"),
    );
    // The same cases, results and measures; only the manifest (suite name, input files) and
    // each case's category (the suite's name) say where they came from.
    let same = |mut v: Value| {
        strip_measurements(&mut v);
        v["manifest"] = Value::Null;
        for c in v["cases"].as_array_mut().unwrap() {
            c["category"] = Value::Null;
        }
        v["retrieval"]["categories"] = Value::Null;
        v
    };
    assert_eq!(same(beir.clone()), same(trec));
    assert_eq!(beir["cases"].as_array().unwrap().len(), 5);

    // ir_measures on the input qrels and the exported run: equal per query, graded nDCG too.
    let report = dir.path().join("out/beir/retrieval-report-bm25-text.json");
    let exported = dir.path().join("exported");
    let o = cli(&[
        "trec",
        report.to_str().unwrap(),
        "--suite",
        "beir",
        "--data",
        &d("beir"),
    ])
    .arg("--out")
    .arg(&exported)
    .output()
    .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let run_file = exported.join("retrieval-report-bm25-text.run");
    // The exported qrels are the input's, line for line (order aside).
    let lines = |p: &Path| {
        let mut l: Vec<String> = std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        l.sort();
        l
    };
    assert_eq!(
        lines(&exported.join("retrieval-report-bm25-text.qrels")),
        lines(&dir.path().join("qrels.txt"))
    );
    if !needs(&[Need::Python]) {
        return;
    }
    let reference = rank_reference(&json!({
        "op": "measures",
        "run": run_file,
        "qrels": dir.path().join("qrels.txt"),
        "measures": ["R@10", "nDCG@10"],
    }));
    let mut compared = 0;
    for case in beir["cases"].as_array().unwrap() {
        let q = case["caseId"].as_str().unwrap();
        for m in ["R@10", "nDCG@10"] {
            let ours = case["rankMetrics"][m].as_f64().unwrap();
            // ir_measures leaves out a query the run retrieved nothing for: its value is 0.
            let theirs = reference["values"][q][m].as_f64().unwrap_or(0.0);
            assert!(
                (ours - theirs).abs() < 1e-9,
                "{q} {m}: ours {ours}, ir_measures {theirs}"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 10);
    // Graded gains matter: q1's nDCG@10 is not the binary one.
    let q1 = &beir["cases"][0];
    assert_eq!(q1["caseId"], "q1");
    assert!(q1["rankMetrics"]["nDCG@10"].as_f64().unwrap() > 0.0);
}

/// A memory system over HTTP runs a collection too: every document seeded as one user's
/// (`collection`), every topic searched as that user, and the report holds every topic.
#[test]
fn a_memory_system_over_http_runs_a_collection_as_one_user() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    collection(dir.path());
    let log = dir.path().join("p.log");
    let provider = crate::common::provider::Provider::start(0, &log, &[]);
    let beir = dir.path().join("beir").display().to_string();
    let o = cli(&[
        "static",
        "--suite",
        "beir",
        "--data",
        &beir,
        "--backend",
        "http",
        "--url",
        &provider.url,
        "--name",
        "toy",
        "--quiet",
    ])
    .arg("--out")
    .arg(dir.path().join("out"))
    .output()
    .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let requests = crate::common::provider::requests(&log);
    let adds = requests.iter().filter(|r| r["path"] == "/add").count();
    assert_eq!(adds, DOCS.len());
    let searched: Vec<&str> = requests
        .iter()
        .filter(|r| r["path"] == "/search")
        .filter_map(|r| r["query"].as_str())
        .collect();
    for (_, text) in TOPICS {
        assert!(searched.contains(&text), "{text} searched");
    }
    let report: Value = serde_json::from_slice(
        &std::fs::read(dir.path().join("out/beir/retrieval-report-toy.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(report["cases"].as_array().unwrap().len(), TOPICS.len());
    // Keyword overlap finds q1's graded gold at the top: its nDCG@10 is measured, not null.
    assert!(
        report["cases"][0]["rankMetrics"]["nDCG@10"]
            .as_f64()
            .unwrap()
            > 0.0
    );
}

#[test]
fn a_split_without_qrels_names_the_splits_there_and_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    collection(dir.path());
    let beir = dir.path().join("beir");
    let data = beir.to_str().unwrap();
    let o = crate::common::tenure_eval(&[
        "validate", "--suite", "beir", "--data", data, "--split", "dev",
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("qrels/dev.tsv") && e.contains("no qrels TSV for the split \"dev\""),
        "{e}"
    );
    assert!(
        e.contains("qrels are for test: choose one with --split test"),
        "{e}"
    );
    // A missing corpus is named as the JSON Lines file it is, not as JSON.
    std::fs::remove_file(beir.join("corpus.jsonl")).unwrap();
    let o = crate::common::tenure_eval(&["validate", "--suite", "beir", "--data", data]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("corpus.jsonl: file: file not found; expected a readable JSON Lines file"),
        "{e}"
    );
}
