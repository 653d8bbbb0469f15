//! What a ninth audit (the commands earlier audits left: models, embed, history, temporal, beam)
//! found, each kept closed here: a shard's models table read as the suite's, a fusion or a
//! measure given twice, an empty history that passed its gate, batch sizes of 0 made 1, a text
//! of spaces classified, labels scored against themselves in silence, a missing runtime library
//! called a backend failure, a run of more BEAM tiers called a run on other files, imported
//! vectors filed under another suite's policy, and a built-in model's store looked for under
//! the flag's spelling.

use crate::common::needs::{data_file, needs, Need};
use crate::common::{refused, repo, tenure_eval_ok};
use std::path::Path;

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_shards_models_table_says_it_is_the_shards() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "models",
        "--suite",
        "pmb",
        "--model",
        "hashed:64",
        "--quiet",
        "--shard",
        "1/2",
        "--out",
    ];
    let out = tenure_eval_ok(&args, &[dir.path()]);
    let table = stdout(&out);
    assert!(
        table.contains("### Embedding models · suite pmb (head profile, index exact) · shard 1/2, its cases only"),
        "{table}"
    );
    assert!(
        table.contains(
            "shard 1/2: each row and its test against chance hold that shard's cases only"
        ),
        "{table}"
    );
    // JSON says it on every row.
    let json = tenure_eval_ok(
        &[
            &args[..],
            &[dir.path().to_str().unwrap(), "--format", "json"],
        ]
        .concat(),
        &[],
    );
    let rows: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert!(
        rows.len() >= 2 && rows.iter().all(|r| r["shard"] == "1/2"),
        "{rows:?}"
    );
    // The whole suite's table says no shard.
    let whole = tenure_eval_ok(&args[..6], &[]);
    assert!(!stdout(&whole).contains("shard"), "{}", stdout(&whole));
}

#[test]
fn a_fusion_or_a_measure_given_twice_is_refused() {
    let models = ["models", "--suite", "pmb", "--model", "hashed:64"];
    refused(
        &[&models[..], &["--fusion", "rrf,combsum,rrf"]].concat(),
        "--fusion rrf is given twice: each fusion runs once",
    );
    // Collapsed in silence by models, shown twice by history.
    refused(
        &[&models[..], &["--metrics", "nDCG@10,RR,nDCG@10"]].concat(),
        "nDCG@10 is given twice: name each measure once",
    );
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("h");
    let run = [
        "run",
        "--suite",
        "pmb",
        "--backend",
        "bm25",
        "--quiet",
        "--history",
    ];
    tenure_eval_ok(&run, &[&history, Path::new("--out"), &dir.path().join("r")]);
    let h = history.to_str().unwrap();
    tenure_eval_ok(&["history", h, "--metric", "passRate"], &[]);
    refused(
        &["history", h, "--metric", "passRate,passRate"],
        "--metric passRate is given twice",
    );
}

#[test]
fn an_empty_history_is_refused_not_passed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("history.jsonl"), "").unwrap();
    let d = dir.path().to_str().unwrap();
    let says = "history.jsonl: file: empty: no run is recorded";
    refused(&["history", d, "--fail-on-regression"], says);
    let figure = dir.path().join("h.svg");
    refused(&["history", d, "--plot", figure.to_str().unwrap()], says);
    assert!(!figure.exists(), "no figure without a series");
}

#[test]
fn batch_sizes_of_zero_are_refused() {
    let embed = ["embed", "--suite", "paper", "--model", "hashed:64"];
    for flag in ["--batch-size", "--batch-tokens"] {
        refused(
            &[&embed[..], &[flag, "0"]].concat(),
            &format!("invalid value '0' for '{flag}"),
        );
    }
}

#[test]
fn a_missing_runtime_library_is_the_users_to_fix() {
    let statements = repo("cases/temporal/statements.jsonl");
    let labels = statements.to_str().unwrap();
    let minilm = repo("models/all-minilm-l6-v2");
    let temporal = [
        "temporal",
        "classify",
        labels,
        "--embedder",
        minilm.to_str().unwrap(),
    ];
    let says = "/nonexistent/libonnxruntime.so: no such file (expected the ONNX Runtime library";
    refused(
        &[
            &temporal[..],
            &["--ort-lib", "/nonexistent/libonnxruntime.so"],
        ]
        .concat(),
        says,
    );
    let run = [
        "run",
        "--suite",
        "paper",
        "--backend",
        "cosine",
        "--model",
        "models/all-minilm-l6-v2",
    ];
    refused(
        &[&run[..], &["--ort-lib", "/nonexistent/libonnxruntime.so"]].concat(),
        says,
    );
}

#[test]
fn a_text_of_spaces_is_no_text_and_labels_against_themselves_are_said() {
    let dir = tempfile::tempdir().unwrap();
    let spaces = dir.path().join("spaces.jsonl");
    std::fs::write(
        &spaces,
        "{\"id\":\"a\",\"text\":\"   \",\"class\":\"closed\"}\n",
    )
    .unwrap();
    let s = spaces.to_str().unwrap();
    refused(&["temporal", "classify", s], "id \"a\": no \"text\"");
    refused(&["temporal", "eval", s], "id \"a\": no \"text\"");
    // The same labels as predictions: κ 1 by construction, said.
    let labels = repo("cases/temporal/statements.jsonl");
    let l = labels.to_str().unwrap();
    let out = tenure_eval_ok(&["temporal", "eval", l, "--predicted", l], &[]);
    assert!(
        stderr(&out)
            .contains("its labels are scored against themselves, in agreement by construction"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn imported_vectors_without_a_policy_need_their_suite() {
    let dir = tempfile::tempdir().unwrap();
    let texts = dir.path().join("texts.jsonl");
    let t = texts.to_str().unwrap();
    tenure_eval_ok(
        &[
            "embed",
            "--export-texts",
            "--suite",
            "paper",
            "--quiet",
            "--out",
            t,
        ],
        &[],
    );
    let mut lines = String::new();
    for line in std::fs::read_to_string(&texts).unwrap().lines() {
        let mut record: serde_json::Value = serde_json::from_str(line).unwrap();
        record.as_object_mut().unwrap().remove("policy").unwrap();
        record["vector"] = serde_json::json!([0.5, 0.5, 0.5, 0.5]);
        lines.push_str(&format!("{record}\n"));
    }
    let vectors = dir.path().join("vectors.jsonl");
    std::fs::write(&vectors, lines).unwrap();
    let stores = dir.path().join("stores");
    let import = [
        "embed",
        "--import-vectors",
        vectors.to_str().unwrap(),
        "--model",
        "mine",
        "--store-dir",
        stores.to_str().unwrap(),
    ];
    // Every built-in suite: the paper's texts were filed under the last suite's policy.
    refused(
        &import,
        "vectors.jsonl: line 1: no \"policy\", and the suites given embed under 2 policies",
    );
    assert!(!stores.join("mine").exists(), "nothing written");
    let out = tenure_eval_ok(&[&import[..], &["--suite", "paper"]].concat(), &[]);
    assert!(
        stderr(&out).contains("0 of its 97 needed texts still have no vector"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_built_in_models_store_is_found_by_the_flags_spelling() {
    let dir = tempfile::tempdir().unwrap();
    let stores = dir.path().to_str().unwrap();
    let model = ["--model", "hashed:64", "--store-dir", stores, "--quiet"];
    let embed = |suite: &'static str| [&["embed", "--suite", suite][..], &model[..]].concat();
    let missing = [&embed("paper")[..], &["--export-texts", "--missing"]].concat();
    // The store holds pmb's texts, none of the paper's (another policy): all 97 are listed.
    tenure_eval_ok(&embed("pmb"), &[]);
    assert!(dir.path().join("hashed-bow-64").is_dir());
    let out = tenure_eval_ok(&missing, &[]);
    assert_eq!(stdout(&out).lines().count(), 97, "{}", stderr(&out));
    // Then none (it looked for a store named hashed:64 and found none).
    tenure_eval_ok(&embed("paper"), &[]);
    assert_eq!(stdout(&tenure_eval_ok(&missing, &[])), "");
}

#[test]
fn a_run_of_more_beam_tiers_is_named_as_such() {
    if !needs(&[Need::Beam]) {
        return;
    }
    let beam = data_file("beam");
    let data = beam.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let run = [
        "run",
        "--suite",
        "beam",
        "--data",
        data,
        "--backend",
        "bm25-text",
        "--quiet",
        "--out",
    ];
    tenure_eval_ok(&run, &[dir.path()]);
    let report = dir.path().join("beam/retrieval-report-bm25-text.json");
    refused(
        &["beam", "--data", data, "--tier", "100K", report.to_str().unwrap()],
        "a run on tiers 100K, 500K where 100K is given: tier 500K is not; give the run's --tier here too",
    );
}
