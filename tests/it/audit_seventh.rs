//! What a seventh audit (TREC runs made elsewhere, `tables`, `compare`'s statistics, `plot`,
//! fusion and the composite scorer's flags) found, each kept closed here. The TREC-run
//! refusals are in `trec_run.rs`, beside the others of their kind.

use crate::common::{refused, strs, tenure_eval_ok};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A static pmb run of `extra` into `dir/name`; its report.
fn pmb(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let out = dir.join(name);
    let args = ["static", "--suite", "pmb", "--quiet", "--out"];
    let out_str = out.to_str().unwrap();
    tenure_eval_ok(&[&args[..], &[out_str], extra].concat(), &[]);
    let file = std::fs::read_dir(out.join("pmb"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    file.path()
}

/// `tables` named a hashed model's run `mxbai-embed-large (1024)` because its file was called
/// as a published report's is: a report with a manifest names its own model.
#[test]
fn tables_names_a_model_by_its_report_not_its_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--backend",
        "cosine",
        "--model",
        "hashed",
        "--label",
        "vector",
    ];
    let report = pmb(dir.path(), "r", &args);
    assert!(report.ends_with("retrieval-report-vector.json"));
    let out = tenure_eval_ok(&["tables", "--config", "none"], &[&report]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("### Embedding model invariance"), "{text}");
    assert!(!text.contains("mxbai"), "{text}");
    assert!(text.contains("| vector (hashed-bow-384) |"), "{text}");
}

/// `compare --resamples 0` printed p = 1.0 for runs a full test separates at p = 1e-5: a
/// sampled test that can never reach α is refused; a failed or stopped run's report is no
/// run to compare or plot; `plot --case` drew a session report's first turn as the case.
#[test]
fn compare_and_plot_take_only_tests_and_runs_that_can_say_something() {
    let dir = tempfile::tempdir().unwrap();
    let a = pmb(dir.path(), "a", &["--backend", "bm25"]);
    let b = pmb(dir.path(), "b", &["--backend", "bm25-text"]);
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    for n in ["0", "1", "19"] {
        refused(
            &["compare", a, b, "--resamples", n],
            "can never reach significance in a family of 1 tests",
        );
    }
    tenure_eval_ok(&["compare", a, b, "--resamples", "20"], &[]);
    // Three runs are three pairs a measure, Holm-adjusted: 20 patterns cannot reach 0.05.
    refused(
        &["compare", a, b, a, "--resamples", "20"],
        "in a family of 3 tests",
    );
    let mut failed: Value = serde_json::from_slice(&std::fs::read(a).unwrap()).unwrap();
    failed["manifest"]["unhealthy"] = "more than 5% of /search calls failed".into();
    let failed_path = dir.path().join("failed.json");
    std::fs::write(&failed_path, serde_json::to_vec(&failed).unwrap()).unwrap();
    let f = failed_path.to_str().unwrap();
    refused(&["compare", f, b], "the report of a failed run");
    let svg = dir.path().join("f.svg");
    let svg = svg.to_str().unwrap();
    let case = "happy-alias-match-kubernetes";
    refused(
        &["plot", "--case", case, f, b, "--out", svg],
        "the report of a failed run",
    );
    let s = crate::common::pmb_session(&dir.path().join("s"));
    let s = s.to_str().unwrap();
    let turn_case = "session-drift-noise-10-turns-implicit-redis";
    refused(
        &["plot", "--case", turn_case, s, s, "--out", svg],
        "a session report: plot --case draws a static case's scores",
    );
}

/// Fusion and the composite scorer's flags that did nothing but rename the run: extra or
/// single CombSUM weights (one applied to the first backend only), weights all 0,
/// `--fusion-depth 0` (run at 1), and the revisitation flags on a static run; a revisit
/// threshold is a cosine.
#[test]
fn fusion_and_scorer_flags_that_would_do_nothing_are_refused() {
    let run = [
        "static",
        "--suite",
        "pmb",
        "--quiet",
        "--model",
        "hashed",
        "--backend",
    ];
    let with = |backend: &str, extra: &[&str]| -> Vec<String> {
        let all = [
            &run[..],
            &[backend],
            extra,
            &["--out", "/nonexistent-never-written"],
        ];
        all.concat().into_iter().map(str::to_string).collect()
    };
    let cases: [(&str, &[&str], &str); 7] = [
        (
            "combsum",
            &["--combsum-weights", "1,1,7"],
            "--combsum-weights gives 3 values for 2",
        ),
        (
            "combsum",
            &["--combsum-weights", "2"],
            "--combsum-weights gives 1 values for 2",
        ),
        (
            "combsum",
            &["--combsum-weights", "0,0"],
            "--combsum-weights are all 0",
        ),
        ("rrf", &["--fusion-depth", "0"], "--fusion-depth 0"),
        (
            "composite",
            &["--revisit-rate", "5"],
            "--revisit-rate acts on a session's",
        ),
        (
            "composite",
            &["--revisit-cap", "0.9"],
            "--revisit-cap acts on a session's",
        ),
        (
            "composite",
            &["--revisit-threshold", "NaN"],
            "--revisit-threshold",
        ),
    ];
    for (backend, extra, said) in cases {
        refused(&strs(&with(backend, extra)), said);
    }
    // `models` fuses BM25 with each model: its fusion settings fit two backends too.
    let models = [
        "models", "--suite", "pmb", "--model", "hashed", "--fusion", "combsum",
    ];
    let three = [&models[..], &["--combsum-weights", "1,2,3"]].concat();
    refused(&three, "--combsum-weights gives 3 values for 2");
    // An --alpha no p can reach: BM25 (nDCG@10 1.00) was "not distinguishable from chance".
    let tiny = [&models[..], &["--alpha", "0.000001"]].concat();
    refused(&tiny, "can never reach significance");
}

/// A review of the fixes above: a test collection's qrels may judge a document its corpus
/// lacks (it counts in R, as for trec_eval), and a run that ranks it is a run of that
/// collection, not of another (it was refused); a stopped run's report is no run to compare;
/// a revisit threshold is a cosine wherever it acts.
#[test]
fn the_review_of_the_seventh_audits_fixes() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name);
    let docs = "{\"_id\":\"d01\",\"title\":\"Redis\",\"text\":\"Redis is an in-memory cache.\"}\n\
                {\"_id\":\"d02\",\"title\":\"Postgres\",\"text\":\"A relational database.\"}\n";
    std::fs::write(d("docs.jsonl"), docs).unwrap();
    std::fs::write(
        d("topics.tsv"),
        "q1\tin-memory cache\nq2\trelational database\n",
    )
    .unwrap();
    std::fs::write(d("qrels.txt"), "q1 0 d01 1\nq1 0 d99 1\nq2 0 d02 1\n").unwrap();
    std::fs::write(
        d("ext.run"),
        "q1 Q0 d99 1 3 ext\nq1 Q0 d01 2 2 ext\nq2 Q0 d02 1 1 ext\n",
    )
    .unwrap();
    let suite = |file: &str| d(file).to_str().unwrap().to_string();
    let (docs, topics, qrels) = (suite("docs.jsonl"), suite("topics.tsv"), suite("qrels.txt"));
    let collection = [
        "--suite", "trec", "--corpus", &docs, "--topics", &topics, "--qrels", &qrels,
    ];
    let run = ["run", "--backend", "bm25-text", "--quiet", "--out"];
    tenure_eval_ok(&[&run[..], &[&suite("r")], &collection[..]].concat(), &[]);
    let report = std::fs::read_dir(d("r").join("trec"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let report = report.path();
    let ext = suite("ext.run");
    let args = [
        &["compare", report.to_str().unwrap(), "--trec-run", &ext][..],
        &collection,
    ];
    let out = tenure_eval_ok(&[&args.concat()[..], &["--format", "json"]].concat(), &[]);
    let table: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The run ranks both of q1's relevant documents first: its RR is 1 on both queries.
    let rr = (table["columns"].as_array().unwrap().iter())
        .find(|c| c["measure"] == "RR")
        .unwrap();
    assert_eq!(rr["means"][1], 1.0, "{rr}");

    let a = pmb(dir.path(), "a", &["--backend", "bm25"]);
    let mut stopped: Value = serde_json::from_slice(&std::fs::read(&a).unwrap()).unwrap();
    stopped["manifest"]["stopped"] = serde_json::json!({"at": "x", "reason": "interrupted"});
    std::fs::write(d("stopped.json"), serde_json::to_vec(&stopped).unwrap()).unwrap();
    let (a, s) = (a.to_str().unwrap().to_string(), suite("stopped.json"));
    refused(&["compare", &s, &a], "stopped before its end");
    let session = [
        "session",
        "--suite",
        "pmb",
        "--model",
        "hashed",
        "--backend",
        "composite",
    ];
    refused(
        &[&session[..], &["--revisit-threshold", "NaN"]].concat(),
        "--revisit-threshold",
    );
    refused(
        &[&session[..], &["--revisit-threshold", "2"]].concat(),
        "--revisit-threshold",
    );
    // `serve` answers each search alone: revisitation never acts there either.
    let serve = [
        "serve",
        "--suite",
        "pmb",
        "--model",
        "hashed",
        "--backend",
        "composite",
    ];
    let said = "--revisit-rate acts on a session's earlier turns, which a served search never";
    refused(&[&serve[..], &["--revisit-rate", "0.3"]].concat(), said);
}
