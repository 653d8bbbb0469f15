//! Exact and HNSW query latency over synthetic 384-d unit vectors (100k and 1M), and HNSW
//! recall@20 against exact search at 100k (must be >= 0.99).
//!
//! The vectors have a low intrinsic dimension, as sentence embeddings do: a 32-d Gaussian
//! latent mapped into 384 dimensions by a fixed random projection, plus a little isotropic
//! noise, normalised. (Isotropic 384-d noise, with no structure, is a worst case no embedding
//! model produces.) ChaCha8 with a fixed seed makes the data the same on every run. `cargo bench --bench vector_search`; under `cargo test` (criterion
//! test mode) it runs once on 2,000 vectors.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::hint::black_box;
use std::time::Instant;
use tenure_eval::backend::cosine::exact::{top_k, Matrix};
use tenure_eval::backend::cosine::hnsw::{Graph, HnswParams};
use tenure_eval::backend::cosine::quantized::Int8Rows;

const DIMS: usize = 384;
const K: usize = 20;

/// Standard normal by Box–Muller (rand_distr is not worth a dependency for one distribution).
fn normal(rng: &mut ChaCha8Rng) -> f32 {
    let u1 = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
}

fn unit(v: Vec<f32>) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.into_iter().map(|x| x / n).collect()
}

fn synthetic(n: usize, seed: u64) -> Vec<Vec<f32>> {
    const LATENT: usize = 32;
    // The projection is the same for every call (seed 1); `seed` draws the points.
    let mut basis_rng = ChaCha8Rng::seed_from_u64(1);
    let basis: Vec<f32> = (0..DIMS * LATENT).map(|_| normal(&mut basis_rng)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let z: Vec<f32> = (0..LATENT).map(|_| normal(&mut rng)).collect();
            let v = (0..DIMS)
                .map(|d| {
                    let row = &basis[d * LATENT..(d + 1) * LATENT];
                    row.iter().zip(&z).map(|(a, b)| a * b).sum::<f32>() + 0.5 * normal(&mut rng)
                })
                .collect();
            unit(v)
        })
        .collect()
}

fn full_run() -> bool {
    std::env::args().any(|a| a == "--bench")
}

fn bench(c: &mut Criterion) {
    // TENURE_EVAL_BENCH_SIZES=100000 runs only the sizes listed (comma-separated).
    let sizes: Vec<usize> = match std::env::var("TENURE_EVAL_BENCH_SIZES") {
        Ok(list) => list
            .split(',')
            .filter_map(|s| s.trim().parse().ok())
            .collect(),
        Err(_) if full_run() => vec![100_000, 1_000_000],
        Err(_) => vec![2_000],
    };
    let mut group = c.benchmark_group("vector_search");
    group.sample_size(20);
    for &n in &sizes {
        let data = synthetic(n, 7);
        let queries = synthetic(200, 8);
        let mut matrix = Matrix::new(DIMS);
        data.iter().for_each(|v| matrix.push(v));
        let params = HnswParams {
            // TENURE_EVAL_BENCH_EF_CONSTRUCTION trades build time for recall on large sizes.
            ef_construction: std::env::var("TENURE_EVAL_BENCH_EF_CONSTRUCTION")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(100),
            ..HnswParams::default()
        };
        let all = |_: usize| true;
        let exact = |q: &[f32]| top_k(matrix.scores(q, &all), K, |id| id);
        let mut i = 0;
        group.bench_with_input(BenchmarkId::new("exact", n), &n, |b, _| {
            b.iter(|| {
                i = (i + 1) % queries.len();
                black_box(exact(&queries[i]))
            })
        });
        // Exact through the int8 prefilter: the same answers (checked on every query), a
        // quarter of the memory read per query.
        let mut codes = Int8Rows::new(DIMS);
        data.iter().for_each(|v| codes.push(v));
        let mut rescored = 0;
        for q in &queries {
            let (fast, scored) = codes.top_k(&matrix, q, K, &all, |id| id);
            assert_eq!(fast, exact(q), "exact-int8 differs from exact at {n}");
            rescored += scored;
        }
        eprintln!(
            "vector_search/{n}: exact-int8 equals exact on {} queries; {:.0} rows rescored per query",
            queries.len(),
            rescored as f64 / queries.len() as f64
        );
        group.bench_with_input(BenchmarkId::new("exact-int8", n), &n, |b, _| {
            b.iter(|| {
                i = (i + 1) % queries.len();
                black_box(codes.top_k(&matrix, &queries[i], K, &all, |id| id))
            })
        });
        // TENURE_EVAL_BENCH_EXACT_ONLY=1 skips the graph.
        if std::env::var_os("TENURE_EVAL_BENCH_EXACT_ONLY").is_some() {
            continue;
        }
        let start = Instant::now();
        let graph = Graph::build(params, &matrix, 2).expect("HNSW build");
        eprintln!(
            "vector_search/{n}: HNSW build {:.1} s (M {}, ef_construction {})",
            start.elapsed().as_secs_f64(),
            params.max_connections,
            params.ef_construction
        );

        // Recall@20 of HNSW against exact, over the 200 queries.
        let mut found = 0;
        for q in &queries {
            let truth: Vec<usize> = exact(q).into_iter().map(|(_, id)| id).collect();
            let approx = graph.nearest(q, K, &all);
            found += approx.iter().filter(|id| truth.contains(id)).count();
        }
        let recall = found as f64 / (K * queries.len()) as f64;
        eprintln!(
            "vector_search/{n}: HNSW recall@{K} = {recall:.4} (ef_search {})",
            params.ef_search
        );
        if n == 100_000 {
            assert!(recall >= 0.99, "recall@{K} {recall} < 0.99 at 100k");
        }

        group.bench_with_input(BenchmarkId::new("hnsw", n), &n, |b, _| {
            b.iter(|| {
                i = (i + 1) % queries.len();
                black_box(graph.nearest(&queries[i], K, &all))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
