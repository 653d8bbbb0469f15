//! Embedding throughput through a service against the in-process ONNX embedder: the same
//! all-MiniLM-L6-v2 model, inputs (256 texts of the committed store), batch size (32) and
//! thread count (1 on each side), sentences per second and their ratio (target ≥ 0.8).
//! The service is `scripts/embed_server.py` (Python onnxruntime behind Ollama's `/api/embed`)
//! on 127.0.0.1, so the difference is what HTTP, JSON and the client cost.
//!
//! Needs TENURE_EVAL_MODELS, TENURE_EVAL_PYTHON and ORT_DYLIB_PATH (`scripts/test.sh` sets
//! them). Under `cargo test` (criterion test mode) it embeds one batch each way.

#[path = "../tests/it/common/embed_server.rs"]
#[allow(dead_code)]
mod embed_server;
#[path = "../tests/it/common/needs.rs"]
#[allow(dead_code)]
mod needs;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::path::Path;
use std::time::Instant;
use tenure_eval::embed::onnx::{EmbedOptions, OnnxEmbedder};
use tenure_eval::embed::service::{ServiceEmbedder, ServiceOptions, ServiceSpec};
use tenure_eval::embed::{Embedder, EmbeddingStore, Role};

const SENTENCES: usize = 256;
const BATCH: usize = 32;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn rate(embedder: &mut dyn Embedder, texts: &[&str]) -> f64 {
    let start = Instant::now();
    embedder.embed(texts, Role::Belief, &mut |_| {}).unwrap();
    texts.len() as f64 / start.elapsed().as_secs_f64()
}

fn bench(c: &mut Criterion) {
    // Skipped with one line where the models or the venv are missing (tests/it/common/needs.rs),
    // required under scripts/test.sh.
    if !needs::needs(&[needs::Need::Onnx, needs::Need::Python]) {
        return;
    }
    let model = needs::env_path("TENURE_EVAL_MODELS")
        .unwrap()
        .join("all-minilm-l6-v2");
    let python = needs::env_path("TENURE_EVAL_PYTHON").unwrap();
    let full = std::env::args().any(|a| a == "--bench");
    let store = EmbeddingStore::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("embeddings/all-minilm-l6-v2"),
    )
    .unwrap();
    let texts: Vec<String> = store
        .entries()
        .iter()
        .map(|e| e.text.clone())
        .cycle()
        .take(SENTENCES)
        .collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();

    let server = embed_server::Server::start(&model, &python, &["--name", "minilm"]);
    let spec = ServiceSpec::parse(&format!("ollama:minilm@{}", server.url), false)
        .unwrap()
        .unwrap();
    let options = ServiceOptions {
        batch_size: BATCH,
        ..ServiceOptions::default()
    };
    let mut service = ServiceEmbedder::connect(spec, options).unwrap();
    let mut onnx = OnnxEmbedder::open(
        &model,
        None,
        EmbedOptions {
            batch_size: BATCH,
            threads: 1,
            ..EmbedOptions::default()
        },
    )
    .unwrap();
    if !full {
        rate(&mut service, &refs[..BATCH]);
        rate(&mut onnx, &refs[..BATCH]);
        return;
    }
    let mut group = c.benchmark_group("embed_service");
    group.sample_size(10);
    group.throughput(Throughput::Elements(SENTENCES as u64));
    group.bench_with_input(
        BenchmarkId::new("ollama-api-embed", "batch32"),
        &refs,
        |b, r| b.iter(|| service.embed(r, Role::Belief, &mut |_| {}).unwrap()),
    );
    group.bench_with_input(
        BenchmarkId::new("onnx-in-process", "batch32"),
        &refs,
        |b, r| b.iter(|| onnx.embed(r, Role::Belief, &mut |_| {}).unwrap()),
    );
    group.finish();
    // The ratio, measured in this run: 7 rounds, alternating which side goes first, medians.
    let (mut through, mut local) = (Vec::new(), Vec::new());
    for round in 0..7 {
        if round % 2 == 1 {
            local.push(rate(&mut onnx, &refs));
        }
        through.push(rate(&mut service, &refs));
        if round % 2 == 0 {
            local.push(rate(&mut onnx, &refs));
        }
    }
    let (through, local) = (median(through), median(local));
    eprintln!(
        "embed_service: service {through:.1} sentences/s, in-process ONNX {local:.1} sentences/s, ratio {:.3} (batch {BATCH}, 1 thread each)",
        through / local
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
