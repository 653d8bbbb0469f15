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
