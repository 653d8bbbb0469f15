//! The composite context scorer over a 10,000-belief store, one query: every belief scored
//! (recency, relevance, confidence, currency, primacy, tiers), ranked and cut to the budget.
//! Vectors are precomputed (an in-memory store of synthetic 384-d unit vectors), so this
//! measures the scorer, not an embedding model. Target: median under 50 ms.
//! `cargo bench --bench composite`; under `cargo test` (criterion test mode) it runs once.

use criterion::{criterion_group, criterion_main, Criterion};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::hint::black_box;
use std::sync::Arc;
use tenure_eval::backend::composite::{CompositeBackend, CompositeConfig};
use tenure_eval::backend::cosine::CosineConfig;
use tenure_eval::backend::{Backend, SearchRequest, Workload};
use tenure_eval::embed::{EmbeddingStore, ModelInfo, Role, TextPolicy};
use tenure_eval::suite::{synthetic, DEFAULT_USER};
use tenure_eval::Profile;

const DIMS: usize = 384;
const BELIEFS: usize = 10_000;
const QUERY: &str = "how do we deploy the cache service";

fn unit(rng: &mut ChaCha8Rng) -> Vec<f32> {
    let v: Vec<f32> = (0..DIMS)
        .map(|_| (rng.next_u32() as f32 / u32::MAX as f32) - 0.5)
        .collect();
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.into_iter().map(|x| x / n).collect()
}

fn bench(c: &mut Criterion) {
    let mut corpus = synthetic::corpus(&[], BELIEFS, &[], 11);
    let start = 1_767_225_600_000i64; // 2026-01-01
    for (i, b) in corpus.iter_mut().enumerate() {
        // Every belief is the user's and has a creation time: all 10,000 are scored.
        b.user_id = DEFAULT_USER.to_string();
        b.created_at = Some(start + i as i64 * 3_600_000);
    }
    let policy = TextPolicy::of(Profile::Head);
    let mut store = EmbeddingStore::empty(
        ModelInfo::imported("bench-384", "synthetic", DIMS),
        "memory".into(),
    );
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for b in &corpus {
        let text = policy.belief.of(b);
        if store
            .get(Role::Belief, policy.belief.name(), &text)
            .is_none()
        {
            store
                .insert(Role::Belief, policy.belief.name(), &text, unit(&mut rng))
                .unwrap();
        }
    }
    store
        .insert(Role::Query, policy.query.name(), QUERY, unit(&mut rng))
        .unwrap();
    let vectors = CosineConfig::new("bench-384").with_vectors(Arc::new(store), Profile::Head);
    let mut config = CompositeConfig::new(vectors);
    // Low thresholds so the budget, not the tiers, decides what comes back.
    config.params.thresholds.compressed = 0.0;
    config.params.thresholds.archived = 0.0;
    let backend = CompositeBackend::build(&corpus, &config, Workload::Static).unwrap();
    let request = SearchRequest::of_user(DEFAULT_USER, QUERY, 20);
    assert_eq!(backend.search(&request).unwrap().len(), 20);
    let mut group = c.benchmark_group("composite");
    group.sample_size(30);
    group.bench_function("score_10k_one_query", |b| {
        b.iter(|| black_box(backend.search(black_box(&request)).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
