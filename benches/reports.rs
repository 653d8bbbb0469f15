//! Criterion benches of reports at 10,000 cases (pmb's cases repeated, as `scale --case-count`
//! runs them): writing one streamed against building it in memory (the same run, side by
//! side), and reading one back in one pass.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use tenure_eval::backend::BackendConfig;
use tenure_eval::eval::qrels::Qrels;
use tenure_eval::eval::rank::{parse_measures, DEFAULT_MEASURES};
use tenure_eval::report::rank_block::annotate;
use tenure_eval::report::read::LoadedReport;
use tenure_eval::report::write::stream::StaticStream;
use tenure_eval::report::{json, write_report, Manifest, Shape};
use tenure_eval::run::{run_static_with, Silent, StaticRun};
use tenure_eval::suite::{synthetic, Suite, SuiteSource};

const CASES: usize = 10_000;

fn setup() -> (Suite, StaticRun) {
    let mut suite = Suite::load(&SuiteSource::Builtin("pmb".into())).expect("pmb loads");
    suite.cases = synthetic::cases(&suite.cases, CASES);
    let run = run_static_with(&suite, &BackendConfig::bm25(), &mut Silent, 1).expect("runs");
    (suite, run)
}

fn write(c: &mut Criterion) {
    let (suite, run) = setup();
    let measures = parse_measures(DEFAULT_MEASURES).unwrap();
    let qrels = Qrels::of(&suite);
    let shape = Shape::of(suite.profile);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("retrieval-report.json");
    let head = StaticRun {
        results: Vec::new(),
        ..run.clone()
    };
    let mut group = c.benchmark_group("report_write_10k");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("streamed", |b| {
        b.iter(|| {
            let mut stream = StaticStream::new(dir.path(), shape, &qrels, &measures).unwrap();
            for r in &run.results {
                stream.push(&run.backend, r).unwrap();
            }
            stream.finish(&path, &head, &suite).unwrap()
        })
    });
    group.bench_function("in_memory", |b| {
        b.iter(|| {
            let mut report = json::static_report(&run, &Manifest::for_static(&suite, &run), shape);
            annotate(&mut report.body, &qrels, &measures);
            write_report(&path, &report).unwrap();
            LoadedReport::from_parts(&path, &report.body, report.sidecar.clone()).unwrap()
        })
    });
    group.finish();
}

fn read(c: &mut Criterion) {
    let (suite, run) = setup();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("retrieval-report.json");
    let report = json::static_report(
        &run,
        &Manifest::for_static(&suite, &run),
        Shape::of(suite.profile),
    );
    write_report(&path, &report).unwrap();
    let mut group = c.benchmark_group("report_read_10k");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("load", |b| b.iter(|| LoadedReport::load(&path).unwrap()));
    group.finish();
}

criterion_group!(benches, write, read);
criterion_main!(benches);
