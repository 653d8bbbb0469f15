//! Embedding services: a real server (`scripts/embed_server.py`: MiniLM through Python
//! onnxruntime, speaking Ollama's and OpenAI's APIs on 127.0.0.1) against the in-process ONNX
//! embedder, cosine runs through a service against runs through the model folder, the legacy
//! API's unnormalised vectors, caching, and every failure a service can show, through the real
//! binary. Needs what `tests/it/onnx.rs` needs (see there), and skips without it.

use crate::common::embed_server::Server;
use crate::common::needs::{env_path, needs, Need};
use crate::common::{strip_measurements, tenure_eval};
use serde_json::Value;
use std::path::{Path, PathBuf};
use tenure_eval::embed::onnx::{EmbedOptions, OnnxEmbedder};
use tenure_eval::embed::service::{ServiceEmbedder, ServiceOptions, ServiceSpec};
use tenure_eval::embed::{needed_texts, normalised, Embedder, Role, TextPolicy};

mod failures;

const FP32: &str = "all-minilm-l6-v2";
/// What the test server calls the model.
const SERVED: &str = "minilm";
/// The store `ollama:minilm` fills: the API and the model, so it never meets a built-in or ONNX
/// store of the same model.
const SERVED_STORE: &str = "ollama-minilm";

/// The model folder and the venv's python, or `None` (and a skip line) on a machine without
/// them.
pub(crate) fn setup() -> Option<(PathBuf, PathBuf)> {
    if !needs(&[Need::Onnx, Need::Python]) {
        return None;
    }
    Some((
        env_path("TENURE_EVAL_MODELS")?.join(FP32),
        env_path("TENURE_EVAL_PYTHON")?,
    ))
}

fn texts() -> Vec<String> {
    let suite = crate::common::builtin("pmb");
    needed_texts(&suite, TextPolicy::of(suite.profile))
        .into_iter()
        .map(|t| t.text)
        .take(40)
        .collect()
}

fn worst(a: &[Vec<f32>], b: &[Vec<f32>]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .flatten()
        .zip(b.iter().flatten())
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[test]
fn every_api_gives_the_in_process_onnx_vectors() {
    let Some((model, python)) = setup() else {
        return;
    };
    let server = Server::start(&model, &python, &["--name", SERVED]);
    let texts = texts();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    // The same batches on both sides (padding moves float sums by ~1e-7): 8 texts a call,
    // and one a call for the legacy API.
    let onnx = |batch_size| {
        OnnxEmbedder::open(
            &model,
            None,
            EmbedOptions {
                batch_size,
                threads: 1,
                ..EmbedOptions::default()
            },
        )
        .unwrap()
        .embed(&refs, Role::Belief, &mut |_| {})
        .unwrap()
    };
    let (batched, single) = (onnx(8), onnx(1));
    for (prefix, legacy) in [("ollama", false), ("ollama", true), ("openai", false)] {
        let spec = ServiceSpec::parse(&format!("{prefix}:{SERVED}@{}", server.url), legacy)
            .unwrap()
            .unwrap();
        let options = ServiceOptions {
            batch_size: 8,
            concurrency: 3,
            ..ServiceOptions::default()
        };
        let mut service = ServiceEmbedder::connect(spec, options).unwrap();
        assert_eq!(service.info().dimensions, 384);
        let mut theirs = service.embed(&refs, Role::Belief, &mut |_| {}).unwrap();
        if legacy {
            // The legacy API returns the pooled vector unnormalised, as Ollama does.
            let norm: f32 = theirs[0].iter().map(|x| x * x).sum::<f32>().sqrt();
            assert!((norm - 1.0).abs() > 0.01, "legacy norm {norm}");
            theirs = theirs.iter().map(|v| normalised(v).unwrap()).collect();
            assert!(!service.info().normalize);
        }
        let w = worst(if legacy { &single } else { &batched }, &theirs);
        assert!(
            w <= 1e-6,
            "{prefix} legacy={legacy}: largest difference {w}"
        );
    }
}

/// Run `tenure-eval run --suite S --backend cosine` with `model` and extra flags.
fn run(
    suite: &str,
    model: &str,
    store_dir: &Path,
    out: &Path,
    extra: &[&str],
) -> std::process::Output {
    let mut args = vec![
        "run",
        "--suite",
        suite,
        "--backend",
        "cosine",
        "--quiet",
        "--model",
        model,
        "--store-dir",
        store_dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    tenure_eval(&args)
}

/// A report without its measured fields and settings, its unrounded `exactScore`s taken out and
/// returned in order: they carry the float32 noise of each path's vector arithmetic (a
/// service's JSON vectors, a client-side normalisation), so they are compared within 1e-6
/// ([`comparable_pair`]) and everything else exactly.
fn comparable_with_exact(path: &Path) -> (Value, Vec<f64>) {
    let mut v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    strip_measurements(&mut v);
    if let Some(manifest) = v.get_mut("manifest") {
        manifest["backendSettings"] = Value::Null;
    }
    let mut exact = Vec::new();
    let entries = match &mut v {
        Value::Array(a) => a,
        other => other["cases"].as_array_mut().unwrap(),
    };
    for entry in entries {
        for score in entry["searchScores"].as_array_mut().into_iter().flatten() {
            let x = score.as_object_mut().unwrap().remove("exactScore").unwrap();
            exact.push(x.as_f64().unwrap());
        }
    }
    (v, exact)
}

fn comparable(path: &Path) -> Value {
    comparable_with_exact(path).0
}

/// Two reports, each read once, as [`comparable`] gives them, after checking that their exact
/// scores agree within 1e-6.
fn comparable_pair(x: &Path, y: &Path) -> (Value, Value) {
    let ((xv, a), (yv, b)) = (comparable_with_exact(x), comparable_with_exact(y));
    assert_eq!(a.len(), b.len());
    let worst = a
        .iter()
        .zip(&b)
        .map(|(p, q)| (p - q).abs())
        .fold(0.0, f64::max);
    assert!(
        worst <= 1e-6,
        "{}: exact scores differ by {worst}",
        x.display()
    );
    (xv, yv)
}

fn report_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with(".manifest.json"))
        .collect();
    files.sort();
    files
}

#[test]
fn a_run_through_a_service_equals_the_run_through_the_model_folder_and_is_cached() {
    let Some((model, python)) = setup() else {
        return;
    };
    let server = Server::start(&model, &python, &["--name", SERVED]);
    for suite in ["paper", "pmb"] {
        let (stores, folder_stores) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (a, b, c) = (
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
        );
        let spec = format!("ollama:{SERVED}@{}", server.url);
        let out = run(suite, &spec, stores.path(), a.path(), &[]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = run(
            suite,
            model.to_str().unwrap(),
            folder_stores.path(),
            b.path(),
            &[],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (ours, theirs) = (
            report_files(&a.path().join(suite)),
            report_files(&b.path().join(suite)),
        );
        assert_eq!(ours.len(), 2);
        for (x, y) in ours.iter().zip(&theirs) {
            let name = y
                .file_name()
                .unwrap()
                .to_string_lossy()
                .replace(FP32, SERVED_STORE);
            assert_eq!(x.file_name().unwrap().to_string_lossy(), name);
            let (x, y) = comparable_pair(x, y);
            for key in ["cases", "retrieval"] {
                assert_eq!(x.get(key), y.get(key), "{suite}: {name} {key}");
            }
            assert_eq!(x.as_array().map(Vec::len), y.as_array().map(Vec::len));
            if let (Some(x), Some(y)) = (x.as_array(), y.as_array()) {
                assert_eq!(x, y, "{suite}: {name}");
            }
        }
        // The service's vectors were kept: a rerun asks the server for nothing.
        assert!(stores
            .path()
            .join(SERVED_STORE)
            .join("manifest.json")
            .is_file());
        let before = server.requests();
        let out = run(suite, &spec, stores.path(), c.path(), &[]);
        assert!(out.status.success());
        assert_eq!(
            server.requests(),
            before,
            "{suite}: the rerun called the server"
        );
        for (x, y) in ours.iter().zip(report_files(&c.path().join(suite))) {
            assert_eq!(comparable(x), comparable(&y));
        }
    }
}

#[test]
fn the_legacy_api_ranks_as_the_normalised_one() {
    let Some((model, python)) = setup() else {
        return;
    };
    let server = Server::start(&model, &python, &["--name", SERVED]);
    let spec = format!("ollama:{SERVED}@{}", server.url);
    let (s1, s2, a, b) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    assert!(run("pmb", &spec, s1.path(), a.path(), &[]).status.success());
    let legacy = run(
        "pmb",
        &spec,
        s2.path(),
        b.path(),
        &["--ollama-api", "legacy"],
    );
    assert!(
        legacy.status.success(),
        "{}",
        String::from_utf8_lossy(&legacy.stderr)
    );
    let stored: Value = serde_json::from_slice(
        &std::fs::read(s2.path().join("ollama-legacy-minilm/manifest.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(stored["model"]["service"]["api"], "ollama-legacy");
    assert_eq!(stored["model"]["normalize"], false);
    for (x, y) in report_files(&a.path().join("pmb"))
        .iter()
        .zip(report_files(&b.path().join("pmb")))
    {
        let (xv, yv) = comparable_pair(x, &y);
        assert_eq!(xv["cases"], yv["cases"], "{}", x.display());
    }
}

/// The user cache (issue 36): a served model's store, embedded from one folder, is found from
/// another with no new request; `cache list` shows it and `cache prune` removes it.
#[test]
fn a_store_embedded_from_one_folder_is_found_from_another_through_the_user_cache() {
    let Some((model, python)) = setup() else {
        return;
    };
    let server = Server::start(&model, &python, &["--name", SERVED]);
    let (cache, a, b) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let spec = format!("ollama:{SERVED}@{}", server.url);
    let from = |dir: &Path, args: &[&str]| {
        crate::common::cli(args)
            .current_dir(dir)
            .env("TENURE_EVAL_CACHE", cache.path())
            .output()
            .unwrap()
    };
    let run = |dir: &Path| {
        let o = from(
            dir,
            &[
                "run",
                "--suite",
                "pmb",
                "--backend",
                "cosine",
                "--model",
                &spec,
                "--out",
                "reports",
                "--quiet",
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(a.path());
    let embedded = server.requests();
    assert!(embedded > 0);
    let store = cache.path().join("embeddings").join(SERVED_STORE);
    assert!(
        store.join("manifest.json").is_file(),
        "written to the user cache"
    );
    assert!(
        !a.path().join("embeddings").exists(),
        "not under the folder it ran from"
    );
    run(b.path());
    assert_eq!(
        server.requests(),
        embedded,
        "found from another folder: no new request"
    );
    let report = |dir: &Path| {
        let mut v: serde_json::Value = serde_json::from_slice(
            &std::fs::read(dir.join(format!(
                "reports/pmb/{SERVED_STORE}-retrieval-report-vector.json"
            )))
            .unwrap(),
        )
        .unwrap();
        crate::common::strip_measurements(&mut v);
        v["cases"].clone()
    };
    assert_eq!(report(a.path()), report(b.path()));

    let listed = from(b.path(), &["cache", "list"]);
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(
        text.contains("(1 store)") && text.contains(SERVED_STORE),
        "{text}"
    );
    let pruned = from(b.path(), &["cache", "prune", "--all"]);
    assert!(pruned.status.success());
    assert!(!store.exists());
    run(b.path());
    assert!(server.requests() > embedded, "pruned: embedded again");
}
