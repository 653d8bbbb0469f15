//! What cosine feeds: the session table's published vector row, the invariance table, vectors
//! imported from elsewhere, and `models --format json`.

use super::*;

#[test]
fn the_session_table_gives_the_published_vector_row_and_the_invariance_table_names_the_model() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::tenure_eval_into(
        &["run", "--suite", "pmb", "--backend", "cosine"],
        dir.path(),
    );
    let pmb = dir.path().join("pmb");
    let out = crate::common::tenure_eval_ok(
        &["tables", "--format", "json"],
        &[
            &pmb.join("all-minilm-l6-v2-retrieval-report-vector.json"),
            &pmb.join("all-minilm-l6-v2-session-retrieval-report-vector.json"),
        ],
    );
    let tables: Value = serde_json::from_slice(&out.stdout).unwrap();
    let table = |title: &str| {
        tables
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["title"].as_str().unwrap().starts_with(title))
            .unwrap_or_else(|| panic!("no table {title}: {tables}"))
            .clone()
    };
    let session = table("Session eval");
    // PrecisionMemBench's README row for `vector`: 0/12, 0.00, 0.9142, 0.00, 0.0858 (typed).
    let row = session["rows"][0].as_array().unwrap();
    assert_eq!(
        row[..6],
        [
            serde_json::json!("all-minilm-l6-v2"),
            serde_json::json!({"count": 0, "total": 12}),
            serde_json::json!(0.0),
            serde_json::json!(0.9142),
            serde_json::json!(0.0),
            serde_json::json!(0.0858)
        ]
    );
    let invariance = table("Embedding model invariance");
    assert_eq!(invariance["rows"][0][0], "all-minilm-l6-v2");
    assert_eq!(
        invariance["rows"][0][3],
        serde_json::json!({"count": 11, "total": 77})
    );
}

#[test]
fn vectors_computed_elsewhere_import_as_jsonl_or_npy_and_run_as_the_original_store() {
    // The committed MiniLM store, written out as another tool would have it.
    let original = repo("embeddings/all-minilm-l6-v2");
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(original.join("manifest.json")).unwrap()).unwrap();
    let store = EmbeddingStore::load(&original).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut jsonl = String::new();
    let mut texts = Vec::new();
    for e in manifest["entries"].as_array().unwrap() {
        let role = if e["role"] == "belief" {
            Role::Belief
        } else {
            Role::Query
        };
        let v = store.get(
            role,
            e["policy"].as_str().unwrap(),
            e["text"].as_str().unwrap(),
        );
        let record = serde_json::json!({"text": e["text"], "role": e["role"], "policy": e["policy"], "vector": v.unwrap()});
        jsonl.push_str(&format!("{record}\n"));
        texts
            .push(serde_json::json!({"text": e["text"], "role": e["role"], "policy": e["policy"]}));
    }
    std::fs::write(dir.path().join("v.jsonl"), jsonl).unwrap();
    std::fs::write(
        dir.path().join("texts.json"),
        Value::from(texts).to_string(),
    )
    .unwrap();
    let stores = dir.path().join("stores");
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    for (name, extra) in [
        (
            "from-jsonl",
            vec!["--import-vectors".to_string(), p("v.jsonl")],
        ),
        (
            "from-npy",
            vec![
                "--import-vectors".to_string(),
                original.join("vectors.npy").to_str().unwrap().to_string(),
                "--texts".to_string(),
                p("texts.json"),
            ],
        ),
    ] {
        let mut args = vec!["embed", "--quiet", "--model", name, "--store-dir"];
        args.push(stores.to_str().unwrap());
        args.extend(extra.iter().map(String::as_str));
        let out = tenure_eval(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let imported = EmbeddingStore::load(&stores.join(name)).unwrap();
        assert_eq!(imported.len(), store.len());
        // The same vectors, under another model name: the runs agree case by case.
        let reports = tempfile::tempdir().unwrap();
        for model in [name, "all-minilm-l6-v2"] {
            let args = [
                "run",
                "--suite",
                "pmb",
                "--backend",
                "cosine",
                "--quiet",
                "--model",
                model,
            ];
            // --store-dir is the only place looked at when given: the built-in store is
            // found without it.
            let store_dir: &[&str] = if model == name {
                &["--store-dir", stores.to_str().unwrap()]
            } else {
                &[]
            };
            let out = crate::common::cli(&[])
                .args(args)
                .args(store_dir)
                .args(["--out", reports.path().to_str().unwrap()])
                .current_dir(repo(""))
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let read = |model: &str| -> Value {
            let path = reports
                .path()
                .join(format!("pmb/{model}-retrieval-report-vector.json"));
            serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
        };
        let (a, b) = (read(name), read("all-minilm-l6-v2"));
        for (x, y) in a["cases"]
            .as_array()
            .unwrap()
            .iter()
            .zip(b["cases"].as_array().unwrap())
        {
            for key in ["relevantBeliefs", "searchScores", "passed", "failures"] {
                assert_eq!(x[key], y[key], "{name} {} {key}", x["caseId"]);
            }
        }
    }
    // A bad record is an input error naming its line.
    std::fs::write(
        dir.path().join("bad.jsonl"),
        "{\"text\": \"x\", \"role\": \"belief\", \"vector\": [0, 0]}\n",
    )
    .unwrap();
    let out = tenure_eval(&[
        "embed",
        "--quiet",
        "--model",
        "bad",
        "--store-dir",
        stores.to_str().unwrap(),
        "--import-vectors",
        &p("bad.jsonl"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.jsonl line 1") && stderr.contains("zero"),
        "{stderr}"
    );
    assert!(!stores.join("bad").exists());
}

/// `models --format json`: BM25's row has no model and no text policy, and says so with
/// `null` (it said "–"); counts and rates are numbers.
#[test]
fn models_json_says_null_for_what_bm25_lacks() {
    let out = crate::common::tenure_eval_ok(&["models", "--suite", "pmb", "--format", "json"], &[]);
    let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
    let bm25 = &rows[0];
    assert_eq!(bm25["backend"], "bm25");
    assert_eq!(
        (&bm25["model"], &bm25["textPolicy"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(rows[1]["model"], "all-minilm-l6-v2");
    assert_eq!(rows[1]["staticSummary"]["totalPassed"], 11);
}
