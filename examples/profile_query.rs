//! Repeats the longest pmb case query, for profilers (`valgrind --tool=callgrind`).
use tenure_eval::backend::bm25::Bm25Backend;
use tenure_eval::backend::{Backend, SearchFilter, SearchRequest};
use tenure_eval::suite::{Suite, SuiteSource};

fn main() {
    let suite = Suite::load(&SuiteSource::Builtin("pmb".into())).expect("built-in suite loads");
    let backend = Bm25Backend::build(&suite.corpus).expect("index builds");
    let text = suite
        .cases
        .iter()
        .map(|c| c.query.as_str())
        .max_by_key(|q| q.len())
        .unwrap_or_default();
    let scope = vec!["domain:code".to_string()];
    let request = SearchRequest {
        message: "",
        text,
        filter: SearchFilter {
            user_id: "test-user",
            scope: &scope,
            exclude_ids: &[],
        },
        limit: 20,
    };
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let mut hits = 0;
    for _ in 0..n {
        hits += backend.search(&request).expect("search").len();
    }
    println!("{hits} hits over {n} searches");
}
