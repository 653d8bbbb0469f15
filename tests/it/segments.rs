//! A corpus past the index writer's memory budget is indexed in several segments, and every
//! score equals a single-segment index of the same corpus (the budget raised until one segment
//! holds it). Before, such a corpus (about 3,900 beliefs and up at the 15 MB budget of the time)
//! failed to index: "expected one new segment".

use tenure_eval::backend::bm25::{Bm25Backend, Bm25Config};
use tenure_eval::backend::{Backend, SearchFilter, SearchRequest};
use tenure_eval::suite::Belief;

const WORDS: [&str; 24] = [
    "redis",
    "postgres",
    "kafka",
    "react",
    "vue",
    "kubernetes",
    "terraform",
    "graphql",
    "rust",
    "python",
    "django",
    "fastify",
    "mongo",
    "vitest",
    "jest",
    "docker",
    "nginx",
    "grafana",
    "sentry",
    "stripe",
    "celery",
    "airflow",
    "spark",
    "flink",
];

/// A deterministic corpus of `n` beliefs: 5 users, 7 scopes, 3-8 aliases each drawn from a
/// shared vocabulary (so terms repeat across documents and segments), names unique per belief.
fn corpus(n: usize) -> Vec<Belief> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        // xorshift64*: a fixed sequence, no dependency on a crate's generator.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    (0..n)
        .map(|i| {
            let word = |r: u64| WORDS[(r % WORDS.len() as u64) as usize];
            let aliases: Vec<String> = (0..3 + next() % 6)
                .map(|_| format!("{} {}", word(next()), word(next())))
                .collect();
            serde_json::from_value(serde_json::json!({
                "_id": format!("b-{i}"),
                "user_id": format!("user-{}", i % 5),
                "type": "entity",
                "canonical_name": format!("{} service {i}", word(next())),
                "aliases": aliases,
                "scope": [format!("scope-{}", i % 7)],
                "content": "",
            }))
            .unwrap()
        })
        .collect()
}

#[test]
fn a_large_corpus_indexes_in_several_segments_with_the_scores_of_one() {
    let beliefs = corpus(20_000);
    let config = Bm25Config::default();
    // tantivy's smallest writer budget, 15 MB, cannot hold 20k beliefs in one segment.
    let split = Bm25Backend::with_writer_memory(&beliefs, config, 15_000_000).unwrap();
    let whole = Bm25Backend::with_writer_memory(&beliefs, config, 2_000_000_000).unwrap();
    assert!(
        split.index().segment_count() > 1,
        "{}",
        split.index().segment_count()
    );
    assert_eq!(whole.index().segment_count(), 1);
    let queries = [
        "redis kafka",
        "how do we deploy kubernetes terraform",
        "graphql service 1234",
        "reddis postgress",
        "grafana sentry stripe",
        "flink",
    ];
    let mut compared = 0;
    for user in ["user-0", "user-3"] {
        for text in queries {
            let request = SearchRequest {
                text,
                message: text,
                filter: SearchFilter {
                    user_id: user,
                    scope: &[],
                    exclude_ids: &[],
                },
                limit: 50,
            };
            let (a, b) = (
                split.search(&request).unwrap(),
                whole.search(&request).unwrap(),
            );
            let pairs = |hits: &[tenure_eval::backend::Hit]| -> Vec<(String, Option<f32>)> {
                hits.iter().map(|h| (h.id.clone(), h.score)).collect()
            };
            assert_eq!(pairs(&a), pairs(&b), "{user}: {text}");
            compared += a.len();
        }
    }
    assert!(compared > 100, "{compared}");
    eprintln!(
        "{} segments; {compared} hits compared, ids and scores equal",
        split.index().segment_count()
    );
}
