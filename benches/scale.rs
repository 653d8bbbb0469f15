//! Criterion benches of BM25 at store sizes past the suites': index build and one search at 10k
//! and 100k beliefs (the pmb corpus planted in the scale study's synthetic store, seed fixed).
//! `tenure-eval scale --sizes 1m` gives the 1M figures (one build takes seconds there).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Duration;
use tenure_eval::backend::bm25::Bm25Backend;
use tenure_eval::backend::{Backend, SearchRequest};
use tenure_eval::suite::{synthetic, Belief, Suite, SuiteSource, DEFAULT_USER};

const SIZES: [(&str, usize); 2] = [("10k", 10_000), ("100k", 100_000)];

/// The sizes this process measures: all of them under `cargo bench`; under `cargo test`
/// (criterion's test mode, each bench run once) a 1k store, which runs every line here.
fn sizes() -> Vec<(&'static str, usize)> {
    if std::env::args().any(|a| a == "--bench") {
        SIZES.to_vec()
    } else {
        vec![("1k", 1_000)]
    }
}

fn corpus(size: usize) -> Vec<Belief> {
    let suite = Suite::load(&SuiteSource::Builtin("pmb".into())).expect("pmb loads");
    synthetic::corpus(
        &suite.corpus,
        size,
        &["domain:code".to_string()],
        20_260_511,
    )
}

fn build(c: &mut Criterion) {
    let mut group = c.benchmark_group("scale_build");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for (label, size) in sizes() {
        let beliefs = corpus(size);
        group.bench_function(label, |b| {
            b.iter(|| Bm25Backend::build(black_box(&beliefs)).unwrap())
        });
    }
    group.finish();
}

fn query(c: &mut Criterion) {
    let mut group = c.benchmark_group("scale_query");
    for (label, size) in sizes() {
        let beliefs = corpus(size);
        let backend = Bm25Backend::build(&beliefs).unwrap();
        // A suite query against the suite's user, and a generated alias of a generated belief.
        let generated = beliefs.last().unwrap();
        for (what, text, user) in [
            ("suite", "what's my k8s deploy story", DEFAULT_USER),
            (
                "alias",
                generated.aliases[0].as_str(),
                generated.user_id.as_str(),
            ),
        ] {
            let request = SearchRequest::of_user(user, text, 10);
            group.bench_function(format!("{label}/{what}"), |b| {
                b.iter(|| backend.search(black_box(&request)).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, build, query);
criterion_main!(benches);
