//! The cosine backend without a runtime: committed MiniLM vectors against the published
//! PrecisionMemBench vector reports, exact against HNSW, Atlas score semantics, and store errors.
//!
//! The vector baselines have no score threshold, so whenever the budget does not truncate the
//! relevant tier, which beliefs come back is fixed by the filters alone, whatever the model:
//! those sets must equal the published nomic-embed-text report's exactly.

use crate::common::{builtin, read_json, repo, sorted, tenure_eval};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;
use tenure_eval::backend::cosine::{CosineConfig, HnswParams, IndexKind};
use tenure_eval::backend::BackendConfig;
use tenure_eval::embed::{normalised, EmbeddingStore, Role, TextPolicy};
use tenure_eval::run::{run_sessions, run_static, Silent};
use tenure_eval::suite::Suite;

fn cosine(suite: &Suite, index: IndexKind) -> BackendConfig {
    let store = EmbeddingStore::open(&repo("embeddings"), "all-minilm-l6-v2")
        .unwrap()
        .unwrap();
    let mut config = CosineConfig::new("all-minilm-l6-v2");
    config.index = index;
    BackendConfig::cosine(config.with_vectors(Arc::new(store), suite.profile))
}

fn strings(v: &Value) -> Vec<String> {
    sorted(crate::common::ids(v))
}

#[test]
fn pmb_static_sets_equal_the_published_vector_report_wherever_the_budget_does_not_choose() {
    let suite = builtin("pmb");
    let run = run_static(&suite, &cosine(&suite, IndexKind::Exact), &mut Silent).unwrap();
    let published = read_json("tests/golden/pmb-baseline/nomic-retrieval-report-vector.json");
    let published = published["cases"].as_array().unwrap();
    assert_eq!(run.results.len(), 77);
    let (mut untruncated, mut passes) = (0, 0);
    for (ours, theirs) in run.results.iter().zip(published) {
        assert_eq!(ours.case_id, theirs["caseId"].as_str().unwrap());
        let ctx = &ours.context;
        assert_eq!(
            sorted(ctx.pinned.clone()),
            strings(&theirs["pinnedBeliefs"]),
            "{}",
            ours.case_id
        );
        assert_eq!(
            sorted(ctx.questions.clone()),
            strings(&theirs["retrievedQuestions"]),
            "{}",
            ours.case_id
        );
        let relevant = strings(&theirs["relevantBeliefs"]);
        assert_eq!(ctx.relevant.len(), relevant.len(), "{}", ours.case_id);
        // The budget chooses among the candidates only when it keeps some but not all of them.
        if ctx.search_scores.len() == ctx.relevant.len() || ctx.relevant.is_empty() {
            untruncated += 1;
            assert_eq!(sorted(ctx.relevant.clone()), relevant, "{}", ours.case_id);
            assert_eq!(
                ours.passed(),
                theirs["passed"].as_bool().unwrap(),
                "{}",
                ours.case_id
            );
            for key in ["retrievalPrecision", "retrievalRecall", "pinnedCoverage"] {
                let mine = match key {
                    "retrievalPrecision" => ours.metrics.retrieval_precision,
                    "retrievalRecall" => ours.metrics.retrieval_recall,
                    _ => ours.metrics.pinned_coverage,
                };
                assert_eq!(mine, theirs[key].as_f64(), "{} {key}", ours.case_id);
            }
        } else {
            // The model picks which beliefs fill the budget; every such case fails either way.
            assert!(
                !ours.passed() && !theirs["passed"].as_bool().unwrap(),
                "{}",
                ours.case_id
            );
        }
        passes += usize::from(ours.passed());
    }
    // In 4 cases the budget keeps some candidates and drops others: the model decides there.
    assert_eq!(untruncated, 73);
    assert_eq!(passes, 11, "published: 11/77");
}

#[test]
fn pmb_session_turns_equal_the_published_vector_report() {
    let suite = builtin("pmb");
    let run = run_sessions(&suite, &cosine(&suite, IndexKind::Exact), &mut Silent).unwrap();
    let published = read_json("tests/golden/pmb-baseline/session-retrieval-report-vector.json");
    let published = published["cases"].as_array().unwrap();
    assert_eq!(run.turns.len(), published.len());
    for (ours, theirs) in run.turns.iter().zip(published) {
        let at = format!("{} turn {}", ours.case_id, ours.turn_index);
        assert_eq!(ours.turn_index, theirs["turnIndex"].as_i64().unwrap());
        assert_eq!(
            sorted(ours.context.pinned.clone()),
            strings(&theirs["pinnedBeliefIds"]),
            "{at}"
        );
        assert_eq!(
            sorted(ours.context.relevant.clone()),
            strings(&theirs["retrievedBeliefIds"]),
            "{at}"
        );
        assert_eq!(ours.passed(), theirs["passed"].as_bool().unwrap(), "{at}");
        let precision = ours.metrics.retrieval_precision.unwrap();
        assert!(
            (precision - theirs["retrievalPrecision"].as_f64().unwrap()).abs() < 1e-12,
            "{at}"
        );
        // PrecisionMemBench's drift is 1 − precision.
        let drift = theirs["driftScore"].as_f64().unwrap();
        assert!(
            (ours.metrics.precision_drift_score - drift).abs() < 1e-12,
            "{at}"
        );
    }
    assert_eq!(run.summary().total_passed, 0);
}

#[test]
fn exact_and_hnsw_give_identical_results_on_every_case_and_turn_of_both_suites() {
    let hnsw = IndexKind::Hnsw(HnswParams::default());
    for name in ["paper", "pmb"] {
        let suite = builtin(name);
        let a = run_static(&suite, &cosine(&suite, IndexKind::Exact), &mut Silent).unwrap();
        let b = run_static(&suite, &cosine(&suite, hnsw), &mut Silent).unwrap();
        for (x, y) in a.results.iter().zip(&b.results) {
            assert_eq!(x.context, y.context, "{name} {}", x.case_id);
        }
        let a = run_sessions(&suite, &cosine(&suite, IndexKind::Exact), &mut Silent).unwrap();
        let b = run_sessions(&suite, &cosine(&suite, hnsw), &mut Silent).unwrap();
        for (x, y) in a.turns.iter().zip(&b.turns) {
            assert_eq!(
                x.context, y.context,
                "{name} {} turn {}",
                x.case_id, x.turn_index
            );
        }
    }
}

#[test]
fn scores_are_atlas_vector_scores_in_descending_order_with_ties_in_natural_order() {
    let suite = builtin("paper");
    let store = EmbeddingStore::open(&repo("embeddings"), "all-minilm-l6-v2")
        .unwrap()
        .unwrap();
    let policy = TextPolicy::of(suite.profile);
    let run = run_static(&suite, &cosine(&suite, IndexKind::Exact), &mut Silent).unwrap();
    let position = |id: &str| suite.corpus.iter().position(|b| b.id == id).unwrap();
    let mut checked = 0;
    for (case, result) in suite.cases.iter().zip(&run.results) {
        let query_text = policy.query.of(&case.query, suite.profile);
        let Some(q) = store.get(Role::Query, policy.query.name(), &query_text) else {
            assert!(result.context.search_scores.is_empty());
            continue;
        };
        let q = normalised(q).unwrap();
        for pair in result.context.search_scores.windows(2) {
            assert!(pair[0].score >= pair[1].score, "{}", case.case_id);
            if pair[0].score == pair[1].score {
                assert!(
                    position(&pair[0].id) < position(&pair[1].id),
                    "{}",
                    case.case_id
                );
            }
        }
        for hit in &result.context.search_scores {
            let belief = suite.corpus.iter().find(|b| b.id == hit.id).unwrap();
            let v = store
                .get(
                    Role::Belief,
                    policy.belief.name(),
                    &policy.belief.of(belief),
                )
                .unwrap();
            let v = normalised(v).unwrap();
            let cos: f64 = v
                .iter()
                .zip(&q)
                .map(|(a, b)| f64::from(*a) * f64::from(*b))
                .sum();
            assert!(
                (f64::from(hit.score) - (1.0 + cos) / 2.0).abs() < 1e-6,
                "{}",
                hit.id
            );
            checked += 1;
        }
    }
    assert!(checked > 500, "checked {checked} scores");
    // The paper harness has no score threshold: every in-scope candidate up to the limit.
    assert!(run
        .results
        .iter()
        .all(|r| r.context.search_scores.iter().all(|s| s.score < 3.0)));
}

fn fails_with(args: &[&str], code: i32, needles: &[&str]) {
    let out = tenure_eval(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "{args:?}: {needle:?} not in {stderr}"
        );
    }
}

#[test]
fn nomic_without_its_model_fails_with_the_count_of_missing_query_vectors() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    // 29 belief vectors are imported; the 67 distinct queries never were, nor the 2 belief versions the sessions create.
    fails_with(
        &[
            "run",
            "--suite",
            "paper",
            "--backend",
            "cosine",
            "--model",
            "nomic-embed-text",
            "--out",
            dir,
        ],
        2,
        &[
            "nomic-embed-text",
            "(2 beliefs, 67 queries)",
            "ONNX export of nomic-embed-text",
            "tenure-eval embed",
        ],
    );
    fails_with(
        &[
            "static",
            "--suite",
            "pmb",
            "--model",
            "nomic-embed-text",
            "--out",
            dir,
        ],
        2,
        // 3 beliefs: the 2 session versions, and b-comm-response-length, whose text in the
        // upstream embedded file differs from the seed's (". Prevents" vs " — prevents").
        &["(3 beliefs, 84 queries)"],
    );
    assert!(
        std::fs::read_dir(out.path()).unwrap().next().is_none(),
        "no report on failure"
    );
}

#[test]
fn an_unknown_model_is_a_usage_error_listing_the_stores() {
    fails_with(
        &["run", "--model", "no-such-model"],
        2,
        &[
            "no-such-model",
            "all-minilm-l6-v2, all-minilm-l6-v2-int8, nomic-embed-text",
        ],
    );
}

/// A copy of the committed MiniLM store with one change, in a temporary store folder.
fn broken_store(change: impl Fn(&mut Vec<u8>, &mut Value)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("all-minilm-l6-v2");
    std::fs::create_dir_all(&store).unwrap();
    let mut npy = std::fs::read(repo("embeddings/all-minilm-l6-v2/vectors.npy")).unwrap();
    let mut manifest = read_json("embeddings/all-minilm-l6-v2/manifest.json");
    change(&mut npy, &mut manifest);
    std::fs::write(store.join("vectors.npy"), npy).unwrap();
    std::fs::write(
        store.join("manifest.json"),
        serde_json::to_vec(&manifest).unwrap(),
    )
    .unwrap();
    dir
}

/// Byte offset of row `row` in a version-1 .npy file of float32 rows of `dims`.
fn row_offset(npy: &[u8], row: usize, dims: usize) -> usize {
    let header = u16::from_le_bytes([npy[8], npy[9]]) as usize;
    10 + header + row * dims * 4
}

fn run_with_store(dir: &Path) -> Vec<String> {
    let out = tempfile::tempdir().unwrap();
    vec![
        "static".into(),
        "--suite".into(),
        "pmb".into(),
        "--backend".into(),
        "cosine".into(),
        "--store-dir".into(),
        dir.display().to_string(),
        "--out".into(),
        out.path().display().to_string(),
    ]
}

fn fails_on_store(dir: &Path, needles: &[&str]) {
    let args = run_with_store(dir);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    fails_with(&args, 2, needles);
}

#[test]
fn nan_and_zero_vectors_dimension_mismatches_and_tampered_keys_are_input_errors() {
    let nan = broken_store(|npy, _| {
        let at = row_offset(npy, 7, 384) + 4 * 3;
        npy[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    });
    fails_on_store(
        nan.path(),
        &["vectors.npy", "row 7", "NaN", "finite, non-zero"],
    );

    let zero = broken_store(|npy, _| {
        let at = row_offset(npy, 2, 384);
        npy[at..at + 384 * 4].fill(0);
    });
    fails_on_store(zero.path(), &["vectors.npy", "row 2", "all-zero"]);

    let width = broken_store(|_, manifest| manifest["model"]["dimensions"] = 768.into());
    fails_on_store(
        width.path(),
        &["vectors.npy", "shape", "(358, 384)", "expected (358, 768)"],
    );

    let key = broken_store(|_, manifest| {
        manifest["entries"][5]["text"] = "a different text".into();
    });
    fails_on_store(
        key.path(),
        &["manifest.json", "$.entries[5].key", "does not match"],
    );

    let count = broken_store(|_, manifest| manifest["count"] = 3.into());
    fails_on_store(count.path(), &["manifest.json", "$.count"]);

    // A model name that would place report files outside --out.
    let escape = broken_store(|_, manifest| manifest["model"]["name"] = "../../escaped".into());
    fails_on_store(
        escape.path(),
        &["manifest.json", "$.model.name", "one plain path component"],
    );

    // A header declaring far more data than the file holds: refused before any allocation
    // (it used to abort with "memory allocation of 35184372088832 bytes failed").
    let huge = broken_store(|npy, _| {
        let header_len = u16::from_le_bytes([npy[8], npy[9]]) as usize;
        let header = String::from_utf8(npy[10..10 + header_len].to_vec()).unwrap();
        let claimed = header.replace("(358, 384)", "(1099511627776, 8)");
        let padded = format!("{:<width$}\n", claimed.trim_end(), width = header_len - 1);
        npy[10..10 + header_len].copy_from_slice(padded.as_bytes());
    });
    fails_on_store(
        huge.path(),
        &[
            "vectors.npy",
            "shape (1099511627776, 8) needs 35184372088832 bytes",
            "the file has 549888",
        ],
    );
}

#[test]
fn a_missing_runtime_and_missing_model_files_fail_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("model");
    std::fs::create_dir_all(&model).unwrap();
    std::fs::write(model.join("model.onnx"), b"not a graph").unwrap();
    let model_arg = model.display().to_string();
    let args = [
        "static",
        "--suite",
        "paper",
        "--model",
        &model_arg,
        "--ort-lib",
        "/nonexistent/libonnxruntime.so",
    ];
    // No tokenizer.json: an input error naming the file.
    fails_with(&args, 2, &["tokenizer.json", "missing the tokenizer"]);
    // The runtime is loaded before the tokenizer is read, so any file will do here.
    std::fs::write(model.join("tokenizer.json"), b"{}").unwrap();
    // The runtime library is missing: a runtime failure (exit 3) saying how to get one.
    fails_with(
        &args,
        3,
        &["/nonexistent/libonnxruntime.so", "does not exist"],
    );
    let out = crate::common::cli(&[])
        .args(["static", "--suite", "paper", "--model", &model_arg])
        .env_remove("ORT_DYLIB_PATH")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("ORT_DYLIB_PATH") && stderr.contains("--ort-lib"),
        "{stderr}"
    );
}

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
