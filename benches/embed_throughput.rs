//! Embedding throughput of the ONNX embedder against Python onnxruntime on the same model,
//! inputs, batch size (32) and thread count (1): sentences per second, and their ratio.
//!
//! The inputs are the 219 texts of the committed all-MiniLM-L6-v2 store (both suites' beliefs
//! and queries), cycled to 256. Needs the models and runtime of `scripts/setup-models.sh`
//! (TENURE_EVAL_MODELS, TENURE_EVAL_PYTHON, ORT_DYLIB_PATH, as `scripts/test.sh` sets them).
//! Under `cargo test` (criterion test mode) it embeds one batch with each model and skips
//! Python.

#[path = "../tests/it/common/needs.rs"]
#[allow(dead_code)]
mod needs;
#[path = "../tests/it/common/python_reference.rs"]
mod python_reference;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tenure_eval::embed::onnx::{EmbedOptions, OnnxEmbedder};
use tenure_eval::embed::{Embedder, EmbeddingStore, Role};

const SENTENCES: usize = 256;
const BATCH: usize = 32;
const THREADS: usize = 1;

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn python_sentences_per_second(model: &Path, texts: &[&str]) -> f64 {
    let (sentences, batch, threads) = (
        SENTENCES.to_string(),
        BATCH.to_string(),
        THREADS.to_string(),
    );
    let args = [
        "--bench",
        &sentences,
        "--batch",
        &batch,
        "--threads",
        &threads,
    ];
    python_reference::run(model, &args, texts)["sentences_per_second"]
        .as_f64()
        .unwrap()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn bench(c: &mut Criterion) {
    // Skipped with one line where the models or the venv are missing (tests/it/common/needs.rs),
    // required under scripts/test.sh.
    if !needs::needs(&[needs::Need::Onnx, needs::Need::Python]) {
        return;
    }
    let models = needs::env_path("TENURE_EVAL_MODELS").unwrap();
    let full = std::env::args().any(|a| a == "--bench");
    let store = EmbeddingStore::load(&repo("embeddings/all-minilm-l6-v2")).unwrap();
    let texts: Vec<String> = store
        .entries()
        .iter()
        .map(|e| e.text.clone())
        .cycle()
        .take(SENTENCES)
        .collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();

    let mut group = c.benchmark_group("embed");
    group.sample_size(10);
    group.throughput(Throughput::Elements(SENTENCES as u64));
    for name in ["all-minilm-l6-v2", "all-minilm-l6-v2-int8"] {
        let dir = models.join(name);
        let options = EmbedOptions {
            batch_size: BATCH,
            threads: THREADS,
            ..EmbedOptions::default()
        };
        let mut model = OnnxEmbedder::open(&dir, None, options).unwrap();
        if !full {
            model
                .embed(&refs[..BATCH], Role::Belief, &mut |_| {})
                .unwrap();
            continue;
        }
        group.bench_with_input(
            BenchmarkId::new(name, "batch32-1thread"),
            &refs,
            |b, refs| b.iter(|| model.embed(refs, Role::Belief, &mut |_| {}).unwrap()),
        );
        // The ratio, measured in this run: 7 rounds, alternating which side goes first, medians.
        let (mut rust, mut python) = (Vec::new(), Vec::new());
        for round in 0..7 {
            if round % 2 == 1 {
                python.push(python_sentences_per_second(&dir, &refs));
            }
            let start = Instant::now();
            model.embed(&refs, Role::Belief, &mut |_| {}).unwrap();
            rust.push(SENTENCES as f64 / start.elapsed().as_secs_f64());
            if round % 2 == 0 {
                python.push(python_sentences_per_second(&dir, &refs));
            }
        }
        let (rust, python) = (median(rust), median(python));
        eprintln!(
            "embed/{name}: Rust {rust:.1} sentences/s, Python onnxruntime {python:.1} sentences/s, ratio {:.3} (batch {BATCH}, {THREADS} thread)",
            rust / python
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
