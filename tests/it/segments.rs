//! A corpus past the index writer's memory budget is indexed in several segments, and every
//! score equals a single-segment index of the same corpus (the budget raised until one segment
//! holds it). Before, such a corpus (about 3,900 beliefs and up at the 15 MB budget of the time)
//! failed to index: "expected one new segment".

use tenure_eval::backend::bm25::{Bm25Backend, Bm25Config};
use tenure_eval::backend::{Backend, SearchRequest};
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
            let request = SearchRequest::of_user(user, text, 50);
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

/// Fuzzy expansion equals a scan of the whole term dictionary (every term, its similarity by the
/// suite's rule, df over all documents), for tokens one edit from indexed terms and for the
/// terms themselves, on each of its three paths: the merged in-memory dictionary (1,500
/// beliefs, up to `MERGE_UP_TO` terms), each segment's prefix range (3,000), and the Levenshtein
/// automaton on dictionaries past `SCAN_UP_TO` (20k beliefs in several segments).
#[test]
fn fuzzy_expansion_equals_a_dictionary_scan() {
    for n in [1_500, 3_000, 20_000] {
        let reached = expansions_equal_a_scan(n);
        assert!(reached >= 20, "{n}: {reached}");
    }
}

/// Compare on a corpus of `n`; how many edited tokens reached an indexed term.
fn expansions_equal_a_scan(n: usize) -> usize {
    use std::collections::BTreeMap;
    use tenure_eval::backend::bm25::analysis::whole_name_terms;
    use tenure_eval::backend::bm25::fuzzy::{similarity, MAX_EXPANSIONS, MERGE_UP_TO, SCAN_UP_TO};
    use tenure_eval::backend::bm25::IndexedField;

    // The scale study's corpus: a vocabulary large enough for dictionaries past SCAN_UP_TO.
    let beliefs = tenure_eval::suite::synthetic::corpus(&[], n, &[], 5);
    let backend =
        Bm25Backend::with_writer_memory(&beliefs, Bm25Config::default(), 15_000_000).unwrap();
    // The dictionary of the aliases field, with df, from the corpus itself.
    let mut df: BTreeMap<String, u64> = BTreeMap::new();
    for b in &beliefs {
        let mut terms: Vec<String> = b.aliases.iter().flat_map(|a| whole_name_terms(a)).collect();
        terms.sort();
        terms.dedup();
        for t in terms {
            *df.entry(t).or_default() += 1;
        }
    }
    // Which path the expansion takes.
    match n {
        1_500 => assert!(df.len() <= MERGE_UP_TO, "{} terms", df.len()),
        3_000 => assert!(
            df.len() > MERGE_UP_TO && df.len() <= SCAN_UP_TO,
            "{} terms",
            df.len()
        ),
        _ => {
            assert!(backend.index().segment_count() > 1);
            assert!(df.len() > 2 * SCAN_UP_TO, "{} terms", df.len());
        }
    }
    let scan = |token: &str| -> Vec<(String, f32, u64)> {
        let q: Vec<char> = token.chars().collect();
        let mut out: Vec<(String, f32, u64)> = df
            .iter()
            .filter_map(|(t, n)| similarity(&q, t).map(|s| (t.clone(), s, *n)))
            .collect();
        if out.len() > MAX_EXPANSIONS {
            out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            out.truncate(MAX_EXPANSIONS);
            out.sort_by(|a, b| a.0.cmp(&b.0));
        }
        out
    };
    let mut tokens: Vec<String> = Vec::new();
    for t in df.keys().step_by(37).take(60) {
        let chars: Vec<char> = t.chars().collect();
        tokens.push(t.clone());
        for at in [1, 2, chars.len() - 1] {
            let mut sub = chars.clone();
            sub[at] = 'x';
            tokens.push(sub.iter().collect());
            let mut del = chars.clone();
            del.remove(at);
            tokens.push(del.iter().collect());
            let mut ins = chars.clone();
            ins.insert(at, 'e');
            tokens.push(ins.iter().collect());
            if at + 1 < chars.len() {
                let mut tr = chars.clone();
                tr.swap(at, at + 1);
                tokens.push(tr.iter().collect());
            }
        }
    }
    // Tokens one edit away that reach an indexed term (an edit inside the two-character prefix
    // reaches none, as in Lucene).
    let mut reached = 0;
    for token in &tokens {
        let ours = backend.index().expand(IndexedField::Aliases, token);
        if token.chars().count() > 2 {
            assert_eq!(ours, scan(token), "{token}");
        }
        reached += usize::from(ours.iter().any(|(t, _, _)| t != token));
    }
    reached
}

/// A replaced version is deleted where it lives, by segment and document (no id is indexed):
/// new versions of beliefs from the first and the last segment of a split store leave the same
/// hits and scores as the same replacements in a one-segment store, old versions gone from both,
/// still counted in the statistics (Lucene before a merge).
#[test]
fn replacing_beliefs_in_several_segments_scores_as_in_one() {
    let beliefs = corpus(20_000);
    let config = Bm25Config::default();
    let mut split = Bm25Backend::with_writer_memory(&beliefs, config, 15_000_000).unwrap();
    let mut whole = Bm25Backend::with_writer_memory(&beliefs, config, 2_000_000_000).unwrap();
    assert_eq!(split.index().segment_count(), 2);
    let mut replaced = Vec::new();
    for i in [3, 10_007, 19_998] {
        let mut belief = beliefs[i].clone();
        belief.aliases = vec!["zookeeper".into(), format!("zookeeper {i}")];
        split.replace(&belief).unwrap();
        whole.replace(&belief).unwrap();
        replaced.push(belief);
    }
    for (i, belief) in [3, 10_007, 19_998].into_iter().zip(&replaced) {
        let old_alias = beliefs[i].aliases[0].as_str();
        let new_alias = format!("zookeeper {i}");
        for (text, found) in [(old_alias, 0), ("zookeeper", 1), (new_alias.as_str(), 1)] {
            let request = SearchRequest::of_user(&belief.user_id, text, 20_000);
            let (a, b) = (
                split.search(&request).unwrap(),
                whole.search(&request).unwrap(),
            );
            let pairs = |hits: &[tenure_eval::backend::Hit]| -> Vec<(String, Option<f32>)> {
                hits.iter().map(|h| (h.id.clone(), h.score)).collect()
            };
            assert_eq!(pairs(&a), pairs(&b), "{text}");
            assert!(!a.is_empty(), "{text}");
            // The old version is deleted: found by its old alias no more, by the new once.
            let hits = a.iter().filter(|h| h.id == belief.id).count();
            assert_eq!(hits, found, "{i}: {text}");
        }
    }
    let versions = (0..20_003u32)
        .filter(|&o| split.index().version(o).live)
        .count();
    assert_eq!(versions, 20_000);
}

/// A store seeded by writes in one batch (one commit, as `serve` indexes the `/add`s it
/// acknowledged before a search) is the store built from the corpus: updated one belief at a
/// time afterwards, both give the same hits, scores and statistics, in both modes of replaced
/// versions. Before, each `/add` was a segment of its own, and tantivy (as Lucene) drops a
/// segment whose documents are all deleted, so an updated seed belief left the served store's
/// df but not the built one's. A batch that replaces its own beliefs (committed first, to be
/// found) deletes their old versions and keeps tantivy's statistics equal to the side table's.
#[test]
fn a_store_seeded_in_one_batch_is_the_store_built_from_the_corpus() {
    use tenure_eval::backend::bm25::{IndexedField, ReplacedVersions};
    use tenure_eval::backend::Write;
    let seed = corpus(300);
    let version = |b: &Belief, k: usize| {
        let mut b = b.clone();
        b.aliases = vec![format!("zookeeper {k}")];
        b
    };
    let updates: Vec<Belief> = (0..300).step_by(23).map(|k| version(&seed[k], k)).collect();
    for replaced in [ReplacedVersions::KeptUntilMerge, ReplacedVersions::Expunged] {
        // No score floor: every matching belief is compared.
        let config = Bm25Config {
            replaced,
            min_score: 0.0,
        };
        let mut built = Bm25Backend::with_config(&seed, config).unwrap();
        let mut served = Bm25Backend::with_config(&[], config).unwrap();
        let inserts: Vec<Write<'_>> = seed.iter().map(Write::Insert).collect();
        served.apply(&inserts).unwrap();
        for belief in &updates {
            built.replace(belief).unwrap();
            served.replace(belief).unwrap();
        }
        let stats = |b: &Bm25Backend, field| {
            let total = b.index().tantivy_total_tokens(field);
            (b.index().stats(field), total)
        };
        for field in [IndexedField::CanonicalName, IndexedField::Aliases] {
            assert_eq!(stats(&served, field), stats(&built, field), "{replaced:?}");
            // Before a merge tantivy's token count is the side table's. (A merge recounts it
            // without the norms this index does not keep; the scores read the side table.)
            let (side, tantivy) = stats(&served, field);
            if replaced == ReplacedVersions::KeptUntilMerge {
                assert_eq!(side.sum_total_term_freq, tantivy);
            }
        }
        // Each tenth belief's first alias, as sent and misspelt, and each update's old and new.
        let mut queries: Vec<(String, String)> = Vec::new();
        for b in seed.iter().step_by(10) {
            queries.push((b.user_id.clone(), b.aliases[0].clone()));
            queries.push((b.user_id.clone(), b.aliases[0].replacen('e', "ee", 1)));
        }
        for (k, b) in (0..300).step_by(23).zip(&updates) {
            queries.push((b.user_id.clone(), seed[k].aliases[0].clone()));
            queries.push((b.user_id.clone(), b.aliases[0].clone()));
        }
        let mut compared = 0;
        for (user, text) in &queries {
            let request = SearchRequest::of_user(user, text, 500);
            let pairs = |b: &Bm25Backend| -> Vec<(String, Option<f32>)> {
                let hits = b.search(&request).unwrap();
                hits.into_iter().map(|h| (h.id, h.score)).collect()
            };
            assert_eq!(pairs(&served), pairs(&built), "{replaced:?} {user}: {text}");
            compared += pairs(&built).len();
        }
        assert!(compared > 60, "{compared}");
    }
    // New versions of beliefs written earlier in the same batch, twice over.
    let mut store = Bm25Backend::with_config(&[], Bm25Config::default()).unwrap();
    let (first, second) = (version(&seed[5], 1), version(&seed[5], 2));
    let writes = [
        Write::Insert(&seed[4]),
        Write::Insert(&seed[5]),
        Write::Replace(&first),
        Write::Insert(&seed[6]),
        Write::Replace(&second),
    ];
    store.apply(&writes).unwrap();
    let found = |text: &str| -> Vec<String> {
        let request = SearchRequest::of_user(&seed[5].user_id, text, 50);
        let hits = store.search(&request).unwrap();
        hits.into_iter().map(|h| h.id).collect()
    };
    assert!(found(&seed[5].aliases[0])
        .iter()
        .all(|id| id != &seed[5].id));
    assert!(found("zookeeper 1").is_empty());
    assert_eq!(found("zookeeper 2"), vec![seed[5].id.clone()]);
    for field in [IndexedField::CanonicalName, IndexedField::Aliases] {
        let side = store.index().stats(field).sum_total_term_freq;
        assert_eq!(side, store.index().tantivy_total_tokens(field));
    }
}
