//! Criterion benches of the static path: index build per suite, one query, the whole run.
//! Targets (issue 2): whole `pmb` static run < 50 ms, one query < 100 µs (medians).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tenure_eval::backend::bm25::Bm25Backend;
use tenure_eval::backend::{Backend, BackendConfig, SearchFilter, SearchRequest};
use tenure_eval::run::{run_static, Silent};
use tenure_eval::suite::{Suite, SuiteSource};

fn suite(name: &str) -> Suite {
    Suite::load(&SuiteSource::Builtin(name.into())).expect("built-in suite loads")
}

fn index_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("index_build");
    for name in ["paper", "pmb"] {
        let suite = suite(name);
        group.bench_function(name, |b| {
            b.iter(|| Bm25Backend::build(black_box(&suite.corpus)).unwrap())
        });
    }
    group.finish();
}

fn one_query(c: &mut Criterion) {
    let suite = suite("pmb");
    let backend = Bm25Backend::build(&suite.corpus).unwrap();
    let scope = vec!["domain:code".to_string()];
    let pinned = vec!["b-db-decision".to_string(), "b-linting-current".to_string()];
    let mut group = c.benchmark_group("query");
    // A typical case query, and the longest static query of the suite.
    let longest = suite
        .cases
        .iter()
        .map(|c| c.query.as_str())
        .max_by_key(|q| q.len())
        .unwrap()
        .to_string();
    for (label, text) in [
        (
            "alias_and_shingle",
            "how does kube schedule pods across our CI pipeline nodes",
        ),
        ("longest_case", longest.as_str()),
    ] {
        let request = SearchRequest {
            message: "",
            text,
            filter: SearchFilter {
                user_id: "test-user",
                scope: &scope,
                exclude_ids: &pinned,
            },
            limit: 20,
        };
        group.bench_function(label, |b| {
            b.iter(|| backend.search(black_box(&request)).unwrap())
        });
    }
    group.finish();
}

fn whole_static_run(c: &mut Criterion) {
    let mut group = c.benchmark_group("static_run");
    for name in ["paper", "pmb"] {
        let suite = suite(name);
        group.bench_function(name, |b| {
            b.iter(|| run_static(black_box(&suite), &BackendConfig::bm25(), &mut Silent).unwrap())
        });
    }
    // Including loading and validating the built-in suite (sha256, JSON parse).
    group.bench_function("pmb_with_suite_load", |b| {
        b.iter(|| run_static(&suite("pmb"), &BackendConfig::bm25(), &mut Silent).unwrap())
    });
    group.finish();
}

criterion_group!(benches, index_build, one_query, whole_static_run);
criterion_main!(benches);
