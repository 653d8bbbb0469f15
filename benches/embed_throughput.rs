//! Embedding throughput (docs/results.md, "Embedding speed"): the ONNX embedder at its
//! defaults (a single-threaded session per core, texts batched by length) against the obvious
//! Python script (onnxruntime, batches of 64 in file order, its default threads), on the same
//! model and texts, side by side in one run; tokens per second, and the share of this
//! machine's single-precision matrix-multiply peak (ONNX Runtime's MatMul on one core, times
//! the cores).
//!
//! The texts are LoCoMo's (every turn and question `--suite locomo` embeds) when the data
//! folder holds it (TENURE_EVAL_DATA), else the committed store's 219. Criterion measures texts
//! per second over the first 512; `cargo bench --bench embed_throughput` also times the whole
//! set side by side, three rounds alternating which side goes first, medians. Needs the models
//! and runtime of `scripts/setup-models.sh`. Under `cargo test` (criterion's test mode) it
//! embeds one batch with each model and skips the rest.

#[path = "../tests/it/common/needs.rs"]
#[allow(dead_code)]
mod needs;
#[path = "../tests/it/common/python_reference.rs"]
mod python_reference;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tenure_eval::embed::onnx::{EmbedOptions, OnnxEmbedder};
use tenure_eval::embed::{needed_texts, Embedder, EmbeddingStore, Role};
use tenure_eval::suite::text::TextPolicy;
use tenure_eval::suite::{Suite, SuiteSource};

/// Texts criterion times a sample over.
const SAMPLE: usize = 512;

/// MiniLM-L6's flops a text of `l` tokens costs: its matrix products (6 layers × (4 × 384² +
/// 2 × 384 × 1536) multiply-adds a token) and attention (6 layers × 2 × l × 384 a token).
fn minilm_flops(l: usize) -> f64 {
    let l = l as f64;
    let per_token = 6.0 * (4.0 * 384.0 * 384.0 + 2.0 * 384.0 * 1536.0);
    2.0 * (per_token * l + 6.0 * 2.0 * 384.0 * l * l)
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The texts: LoCoMo's when present, else the committed store's; and what they are.
fn texts() -> (Vec<String>, &'static str) {
    let locomo = needs::locomo_file();
    if locomo.is_file() {
        let source = SuiteSource::Locomo(tenure_eval::suite::locomo::LocomoSource::turns(&locomo));
        let suite = Suite::load(&source).unwrap();
        let texts = needed_texts(&suite, TextPolicy::of(suite.profile));
        return (
            texts.into_iter().map(|t| t.text).collect(),
            "LoCoMo's texts",
        );
    }
    let store = EmbeddingStore::load(&repo("embeddings/all-minilm-l6-v2")).unwrap();
    let texts = store.entries().iter().map(|e| e.text.clone()).collect();
    (texts, "the committed store's texts")
}

fn bench(c: &mut Criterion) {
    // Skipped with one line where the models or the venv are missing (tests/it/common/needs.rs),
    // required under scripts/test.sh.
    if !needs::needs(&[needs::Need::Onnx, needs::Need::Python]) {
        return;
    }
    let models = needs::env_path("TENURE_EVAL_MODELS").unwrap();
    let full = std::env::args().any(|a| a == "--bench");
    let (texts, what) = texts();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let sample = &refs[..SAMPLE.min(refs.len())];
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Test mode runs the peak's graph once too: a graph the runtime cannot load fails here,
    // not in the first full run.
    let peak = tenure_eval::embed::onnx::peak::matmul_gflops(
        &models.join("matmul"),
        None,
        if full { 9 } else { 1 },
    )
    .unwrap();
    let peak = full.then_some(peak);
    if let Some(peak) = peak {
        eprintln!(
            "peak: ONNX Runtime's MatMul (1024^3) on one core {peak:.1} GFLOP/s, {:.1} on {cores} cores",
            peak * cores as f64
        );
    }
    let mut group = c.benchmark_group("embed");
    group.sample_size(10);
    group.throughput(Throughput::Elements(sample.len() as u64));
    for name in ["all-minilm-l6-v2", "all-minilm-l6-v2-int8"] {
        let dir = models.join(name);
        let mut model = OnnxEmbedder::open(&dir, None, EmbedOptions::default()).unwrap();
        if !full {
            model.embed(&refs[..8], Role::Belief, &mut |_| {}).unwrap();
            continue;
        }
        group.bench_with_input(BenchmarkId::new(name, "defaults"), &sample, |b, sample| {
            b.iter(|| model.embed(sample, Role::Belief, &mut |_| {}).unwrap())
        });
        // The whole set, side by side: 3 rounds, alternating which side goes first, medians.
        let (mut rust, mut python) = (Vec::new(), Vec::new());
        let python_seconds = || {
            let args = ["--time", "--batch", "64", "--threads", "0"];
            python_reference::run(&dir, &args, &refs)["seconds"]
                .as_f64()
                .unwrap()
        };
        for round in 0..3 {
            if round % 2 == 1 {
                python.push(python_seconds());
            }
            let start = Instant::now();
            model.embed(&refs, Role::Belief, &mut |_| {}).unwrap();
            rust.push(start.elapsed().as_secs_f64());
            if round % 2 == 0 {
                python.push(python_seconds());
            }
        }
        let (rust, python) = (median(rust), median(python));
        let tokens = tokens(&dir, &refs);
        let flops: f64 = tokens.iter().map(|&l| minilm_flops(l)).sum();
        let total: usize = tokens.iter().sum();
        let share = peak.map_or(String::new(), |p| {
            format!(
                ", {:.0}% of the {cores}-core peak",
                100.0 * flops / rust / 1e9 / (p * cores as f64)
            )
        });
        eprintln!(
            "embed/{name}: {} texts ({what}), {total} tokens: tenure-eval {rust:.1} s ({:.0} \
             texts/s, {:.0} tokens/s, {:.1} GFLOP/s{share}), Python onnxruntime (batches of 64, \
             file order, default threads) {python:.1} s; ratio {:.2}",
            refs.len(),
            refs.len() as f64 / rust,
            total as f64 / rust,
            flops / rust / 1e9,
            rust / python,
        );
    }
    group.finish();
}

/// Each text's token count, as the model's tokenizer cuts it (specials and truncation
/// included).
fn tokens(dir: &Path, texts: &[&str]) -> Vec<usize> {
    let mut tokenizer = tokenizers::Tokenizer::from_file(dir.join("tokenizer.json")).unwrap();
    tokenizer.with_padding(None);
    (tokenizer
        .encode_batch_fast(texts.to_vec(), true)
        .unwrap()
        .iter())
    .map(|e| e.len())
    .collect()
}

criterion_group!(benches, bench);
criterion_main!(benches);
