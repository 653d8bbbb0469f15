//! The backend contract, checked the same way for every backend: `conformance(make)` runs the
//! `pmb` suite's 77 static queries (their expanded and raw forms, so text and vector backends
//! both have real queries) through a backend built by `make` and asserts what the context
//! builder relies on:
//! - filters: every hit is admitted by the request's `SearchFilter` (user, active, not a
//!   question, not expertise, scope, excluded ids), under four filter variants;
//! - order: scores never increase down the list, equal scores keep corpus order, and the same
//!   request gives the same answer twice;
//! - limit: never more than asked, and a smaller limit gives a prefix of a larger one;
//! - insert: a belief left out of the index and inserted later is found by a query that
//!   finds it in the full index;
//! - replace: a replacement takes effect (a belief replaced by its superseded version
//!   vanishes), no id is returned twice; or the backend says `Unsupported`.

use crate::common::{builtin, repo};
use std::collections::HashMap;
use std::sync::Arc;
use tenure_eval::backend::bm25::Bm25Backend;
use tenure_eval::backend::cosine::{CosineBackend, CosineConfig, HnswParams, IndexKind};
use tenure_eval::backend::{Backend, ErrorKind, Hit, SearchFilter, SearchRequest};
use tenure_eval::embed::EmbeddingStore;
use tenure_eval::query;
use tenure_eval::suite::{Belief, Suite};

mod backends;

type Make<'a> = &'a dyn Fn(&[Belief]) -> Box<dyn Backend>;

/// A query of the suite in both forms.
struct Query {
    case: String,
    text: String,
    message: String,
    scope: Vec<String>,
}

fn queries(suite: &Suite) -> Vec<Query> {
    suite
        .cases
        .iter()
        .filter_map(|c| {
            let text = query::prepare(&c.query, suite.profile).query;
            // The context builder never searches with an empty query.
            (!text.is_empty() && !c.query.trim().is_empty()).then(|| Query {
                case: c.case_id.clone(),
                text,
                message: c.query.clone(),
                scope: c.scope.clone(),
            })
        })
        .collect()
}

fn search(backend: &dyn Backend, q: &Query, filter: SearchFilter<'_>, limit: usize) -> Vec<Hit> {
    backend
        .search(&SearchRequest {
            text: &q.text,
            message: &q.message,
            filter,
            limit,
        })
        .unwrap_or_else(|e| panic!("{}: search failed: {e}", q.case))
}

fn ids(hits: &[Hit]) -> Vec<&str> {
    hits.iter().map(|h| h.id.as_str()).collect()
}

fn no_duplicates(name: &str, q: &Query, hits: &[Hit]) {
    let mut seen = ids(hits);
    seen.sort_unstable();
    let before = seen.len();
    seen.dedup();
    assert_eq!(
        seen.len(),
        before,
        "{name} {}: an id returned twice",
        q.case
    );
}

/// Run the whole contract against backends built by `make` over `suite`'s corpus.
fn conformance(name: &str, suite: &Suite, make: Make<'_>) {
    let corpus = &suite.corpus;
    let position: HashMap<&str, usize> = corpus
        .iter()
        .enumerate()
        .map(|(i, b)| (b.id.as_str(), i))
        .collect();
    let by_id: HashMap<&str, &Belief> = corpus.iter().map(|b| (b.id.as_str(), b)).collect();
    let backend = make(corpus);
    let queries = queries(suite);
    assert!(queries.len() > 70, "{name}: {} queries", queries.len());

    let none: Vec<String> = Vec::new();
    let mut returned = [0usize; 4];
    let mut excluded_were_returned = 0;
    let mut ties = 0;
    for q in &queries {
        let open = SearchFilter {
            user_id: "test-user",
            scope: &none,
            exclude_ids: &none,
        };
        let unfiltered = search(backend.as_ref(), q, open, 20);
        let top: Vec<String> = unfiltered.iter().take(2).map(|h| h.id.clone()).collect();
        let variants = [
            open,
            SearchFilter {
                scope: &q.scope,
                ..open
            },
            SearchFilter {
                user_id: "other-user",
                ..open
            },
            SearchFilter {
                exclude_ids: &top,
                ..open
            },
        ];
        for (v, filter) in variants.iter().enumerate() {
            let hits = search(backend.as_ref(), q, *filter, 20);
            returned[v] += hits.len();
            no_duplicates(name, q, &hits);
            for h in &hits {
                let belief = by_id
                    .get(h.id.as_str())
                    .unwrap_or_else(|| panic!("{name} {}: unknown id {}", q.case, h.id));
                assert!(
                    filter.admits(belief),
                    "{name} {}: filter variant {v} admits no {}",
                    q.case,
                    h.id
                );
            }
            if v == 3 {
                excluded_were_returned += top.len();
            }
        }

        // Order: non-increasing scores, ties in corpus order, deterministic.
        for pair in unfiltered.windows(2) {
            let (a, b) = (pair[0].score, pair[1].score);
            assert!(a >= b, "{name} {}: {a:?} before {b:?}", q.case);
            if a == b {
                ties += 1;
                assert!(
                    position[pair[0].id.as_str()] < position[pair[1].id.as_str()],
                    "{name} {}: tie {} / {} not in corpus order",
                    q.case,
                    pair[0].id,
                    pair[1].id
                );
            }
        }
        assert_eq!(
            search(backend.as_ref(), q, open, 20),
            unfiltered,
            "{name} {}",
            q.case
        );

        // Limit: at most k, and a prefix of a larger limit.
        for k in [0, 1, 3] {
            let hits = search(backend.as_ref(), q, open, k);
            assert!(hits.len() <= k, "{name} {}: {} > {k}", q.case, hits.len());
            assert_eq!(
                ids(&hits),
                ids(&unfiltered)[..hits.len()],
                "{name} {}",
                q.case
            );
            assert_eq!(hits.len(), unfiltered.len().min(k), "{name} {}", q.case);
        }
    }
    // The test-user variants returned something somewhere (the one `other-user` belief need
    // not match any query: that variant checks isolation), and the excluded ids were hits.
    assert!(
        [returned[0], returned[1], returned[3]]
            .iter()
            .all(|&n| n > 0),
        "{name}: {returned:?}"
    );
    assert!(excluded_were_returned > 0, "{name}");
    println!("{name}: {} queries, {ties} tied neighbours", queries.len());

    insert_is_visible(name, suite, make, &queries);
    replace_takes_effect(name, suite, make, &queries);
}

/// The first (query, belief) whose belief is the query's top hit in the full index.
fn a_found_belief<'a>(backend: &dyn Backend, queries: &'a [Query]) -> (&'a Query, String) {
    let none: Vec<String> = Vec::new();
    let filter = SearchFilter {
        user_id: "test-user",
        scope: &none,
        exclude_ids: &none,
    };
    queries
        .iter()
        .find_map(|q| Some((q, search(backend, q, filter, 20).first()?.id.clone())))
        .expect("some query finds something")
}

fn insert_is_visible(name: &str, suite: &Suite, make: Make<'_>, queries: &[Query]) {
    let full = make(&suite.corpus);
    let (q, id) = a_found_belief(full.as_ref(), queries);
    let rest: Vec<Belief> = suite
        .corpus
        .iter()
        .filter(|b| b.id != id)
        .cloned()
        .collect();
    let left_out = suite.corpus.iter().find(|b| b.id == id).unwrap();
    let mut backend = make(&rest);
    let none: Vec<String> = Vec::new();
    let filter = SearchFilter {
        user_id: "test-user",
        scope: &none,
        exclude_ids: &none,
    };
    assert!(!ids(&search(backend.as_ref(), q, filter, 20)).contains(&id.as_str()));
    backend.insert(left_out).unwrap();
    let after = search(backend.as_ref(), q, filter, 20);
    assert!(
        ids(&after).contains(&id.as_str()),
        "{name}: inserted {id} not found by {} ({:?})",
        q.case,
        ids(&after)
    );
}

fn replace_takes_effect(name: &str, suite: &Suite, make: Make<'_>, queries: &[Query]) {
    let mut backend = make(&suite.corpus);
    let (q, id) = a_found_belief(backend.as_ref(), queries);
    let mut superseded = suite.corpus.iter().find(|b| b.id == id).unwrap().clone();
    superseded.superseded_by = Some("b-conformance-newer".into());
    match backend.replace(&superseded) {
        Err(e) => assert_eq!(e.kind, ErrorKind::Unsupported, "{name}: {e}"),
        Ok(()) => {
            let none: Vec<String> = Vec::new();
            let filter = SearchFilter {
                user_id: "test-user",
                scope: &none,
                exclude_ids: &none,
            };
            let after = search(backend.as_ref(), q, filter, 20);
            no_duplicates(name, q, &after);
            assert!(
                !ids(&after).contains(&id.as_str()),
                "{name}: {id} still returned after being replaced by a superseded version"
            );
        }
    }
}

fn minilm(suite: &Suite, index: IndexKind) -> CosineConfig {
    let store = EmbeddingStore::open(&repo("embeddings"), "all-minilm-l6-v2")
        .unwrap()
        .unwrap();
    let mut config = CosineConfig::new("all-minilm-l6-v2");
    config.index = index;
    config.with_vectors(Arc::new(store), suite.profile)
}
