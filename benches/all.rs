//! The nine criterion benches as one target, for the test gate: `cargo test --bench all` runs
//! each once in test mode, and criterion's generic code is built once at `-O2` instead of nine
//! times (the nine targets cost about 67 s of CPU to build, this one about 25 s; CONTRIBUTING.md,
//! "Where the time goes"). Each file stays a target of its own for `cargo bench --bench NAME`;
//! here each is a module, its `criterion_main!` a `main` nobody calls.
#![allow(dead_code, clippy::duplicate_mod)]

#[path = "composite.rs"]
mod composite;
#[path = "embed_throughput.rs"]
mod embed_throughput;
#[path = "http_concurrency.rs"]
mod http_concurrency;
#[path = "reports.rs"]
mod reports;
#[path = "scale.rs"]
mod scale;
#[path = "service_throughput.rs"]
mod service_throughput;
#[path = "session_run.rs"]
mod session_run;
#[path = "static_run.rs"]
mod static_run;
#[path = "vector_search.rs"]
mod vector_search;

criterion::criterion_main!(
    composite::benches,
    embed_throughput::benches,
    http_concurrency::benches,
    reports::benches,
    scale::benches,
    service_throughput::benches,
    session_run::benches,
    static_run::benches,
    vector_search::benches,
);
