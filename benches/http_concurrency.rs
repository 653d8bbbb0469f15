//! `--concurrency` against a memory system that takes 20 ms per search: `tenure-eval serve`'s
//! BM25 on 127.0.0.1 with 20 ms added to every `/search`, the 77 static cases of the pmb suite
//! through the careful HTTP client, one case at a time and eight at a time. Prints the median
//! of each and their ratio (target ≥ 5x), and checks that both runs write the same report
//! apart from measured fields. The store is seeded once; the timed runs reuse it
//! (`--no-reseed`), so the times are the cases' (72 of them search).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tenure_eval::backend::http::HttpConfig;
use tenure_eval::backend::BackendConfig;
use tenure_eval::report::{json, Manifest, Shape};
use tenure_eval::run::{run_static_with, Silent};
use tenure_eval::serve::Server;
use tenure_eval::suite::{Suite, SuiteSource};

fn report(suite: &Suite, config: &BackendConfig, concurrency: usize) -> Value {
    let run = run_static_with(suite, config, &mut Silent, concurrency).unwrap();
    let mut report = json::static_report(&run, &Manifest::for_static(suite, &run), Shape::Pmb).body;
    // Measured fields: latencies, timings, counters, and the cases in flight they were measured
    // under.
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for k in [
                    "retrievalLatencyMs",
                    "meanLatencyMs",
                    "p50LatencyMs",
                    "p95LatencyMs",
                    "totalMs",
                    "meanPerBeliefMs",
                    "latencyMs",
                    "startedAt",
                    "backendStats",
                    "searchLatency",
                    "casesInFlight",
                ] {
                    m.remove(k);
                }
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut report);
    report
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn bench(c: &mut Criterion) {
    let suite = Suite::load(&SuiteSource::Builtin("pmb".into())).unwrap();
    let server = Arc::new(
        Server::bind("127.0.0.1:0", &suite, Box::new(BackendConfig::bm25()))
            .unwrap()
            .with_latency(Duration::from_millis(20)),
    );
    let url = server.url();
    let serving = server.clone();
    std::thread::spawn(move || serving.run(16));
    let seeded = BackendConfig::Http(Box::new(HttpConfig::new(&url, "bench")));
    let serial = report(&suite, &seeded, 1);
    assert_eq!(
        serial,
        report(&suite, &seeded, 8),
        "concurrency changed the report"
    );
    let mut reuse = HttpConfig::new(&url, "bench");
    reuse.reseed = false;
    let config = BackendConfig::Http(Box::new(reuse));

    let full = std::env::args().any(|a| a == "--bench");
    let mut group = c.benchmark_group("http_static_77_cases_20ms");
    group.sample_size(10);
    let mut medians = Vec::new();
    for concurrency in [1usize, 8] {
        let mut times = Vec::new();
        group.bench_with_input(
            BenchmarkId::from_parameter(concurrency),
            &concurrency,
            |b, &n| {
                b.iter(|| {
                    let start = Instant::now();
                    run_static_with(&suite, &config, &mut Silent, n).unwrap();
                    times.push(start.elapsed().as_secs_f64());
                })
            },
        );
        if full {
            medians.push(median(times));
        }
    }
    group.finish();
    if let [serial, eight] = medians[..] {
        println!(
            "median run: serial {:.3} s, --concurrency 8 {:.3} s: {:.2}x faster",
            serial,
            eight,
            serial / eight
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
