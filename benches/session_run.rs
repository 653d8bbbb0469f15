//! Criterion bench of the session path: both session cases, all 12 turns and every mutation
//! (create, alias update, re-index), from an empty index. Target (issue 3): < 20 ms median.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tenure_eval::backend::BackendConfig;
use tenure_eval::run::{run_sessions, Silent};
use tenure_eval::suite::{Suite, SuiteSource};

fn session_suite(c: &mut Criterion) {
    let mut group = c.benchmark_group("session_run");
    for name in ["paper", "pmb"] {
        let suite = Suite::load(&SuiteSource::Builtin(name.into())).expect("built-in suite loads");
        group.bench_function(name, |b| {
            b.iter(|| run_sessions(black_box(&suite), &BackendConfig::bm25(), &mut Silent).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, session_suite);
criterion_main!(benches);
