//! Property tests (proptest, stable Rust): whatever the input, the readers and the analyzers
//! do not panic, and what they refuse they refuse as an input error (exit 2), never as
//! anything else. Inputs are random bytes and, more searching, the real files with random
//! mutations (a node replaced by arbitrary JSON, removed, or its text made odd).
//!
//! `TENURE_EVAL_FUZZ_CASES` scales every target: 10 by default (about 1.5 minutes of CPU in
//! all on the 2-core machine, inside the test command); for a long run,
//! `TENURE_EVAL_FUZZ_CASES=300 cargo test --release --test it -- fuzz::`.

use crate::common::{read_json, repo};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::Value;
use std::path::Path;
use tenure_eval::backend::bm25::Bm25Backend;
use tenure_eval::backend::{Backend, SearchFilter, SearchRequest};
use tenure_eval::error::Error;
use tenure_eval::profile::Profile;
use tenure_eval::suite::{CustomFiles, Suite, SuiteSource};

fn runner(cases: u32) -> TestRunner {
    let scale: u32 = std::env::var("TENURE_EVAL_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    TestRunner::new(Config {
        cases: cases * scale,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Any JSON value, a few levels deep, with strings that include odd Unicode.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e300f64..1e300).prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::String),
        Just(Value::String("b-redis-code".into())),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z_]{1,12}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// One mutation: which node (an index into all nodes), and what happens to it.
#[derive(Debug, Clone)]
enum Mutation {
    Replace(usize, Value),
    Remove(usize),
    OddText(usize, String),
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    let one = prop_oneof![
        (any::<usize>(), any_json()).prop_map(|(i, v)| Mutation::Replace(i, v)),
        any::<usize>().prop_map(Mutation::Remove),
        (any::<usize>(), "\\PC{0,6}").prop_map(|(i, s)| Mutation::OddText(i, s)),
    ];
    prop::collection::vec(one, 1..4)
}

/// JSON-pointer paths of every node of `v` (the root included).
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            pointers(
                x,
                format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                out,
            )
        }),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| pointers(x, format!("{at}/{i}"), out)),
        _ => {}
    }
}

fn mutate(mut doc: Value, mutations: &[Mutation]) -> Value {
    for m in mutations {
        let mut all = Vec::new();
        pointers(&doc, String::new(), &mut all);
        let pick = |i: &usize| all[i % all.len()].clone();
        match m {
            Mutation::Replace(i, v) => {
                if let Some(node) = doc.pointer_mut(&pick(i)) {
                    *node = v.clone();
                }
            }
            Mutation::Remove(i) => {
                let at = pick(i);
                let Some((parent, key)) = at.rsplit_once('/') else {
                    continue;
                };
                match doc.pointer_mut(parent) {
                    Some(Value::Object(m)) => {
                        m.shift_remove(&key.replace("~1", "/").replace("~0", "~"));
                    }
                    Some(Value::Array(a)) => {
                        if let Ok(k) = key.parse::<usize>() {
                            if k < a.len() {
                                a.remove(k);
                            }
                        }
                    }
                    _ => {}
                }
            }
            Mutation::OddText(i, s) => {
                if let Some(Value::String(text)) = doc.pointer_mut(&pick(i)) {
                    text.push_str(s);
                }
            }
        }
    }
    doc
}

/// An error a reader may give for bad input: an input error (exit 2).
fn input_error(e: &Error) -> bool {
    e.exit_code() == 2
}

#[test]
fn suite_loaders_refuse_mutated_files_as_input_errors() {
    let originals = [
        read_json("seeds/pmb/beliefs.seed.json"),
        read_json("cases/pmb/retrieval.cases.json"),
        read_json("cases/pmb/session-retrieval.cases.json"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let names = ["corpus.json", "cases.json", "sessions.json"].map(|n| dir.path().join(n));
    let source = SuiteSource::Custom(CustomFiles {
        corpus: names[0].clone(),
        cases: names[1].clone(),
        sessions: Some(names[2].clone()),
        profile: Profile::Head,
    });
    let strategy = (0..3usize, mutations());
    runner(300)
        .run(&strategy, |(which, m)| {
            for (doc, name) in originals.iter().zip(&names) {
                std::fs::write(name, doc.to_string()).unwrap();
            }
            std::fs::write(
                &names[which],
                mutate(originals[which].clone(), &m).to_string(),
            )
            .unwrap();
            if let Err(e) = Suite::load(&source) {
                prop_assert!(input_error(&e), "{e}");
                // The mutated file, or another that now disagrees with it (a renamed belief
                // is missing from the cases that name it).
                let message = e.to_string();
                prop_assert!(
                    names
                        .iter()
                        .any(|n| message.contains(&n.display().to_string())),
                    "{message}"
                );
            }
            Ok(())
        })
        .unwrap();
    // Random bytes, not JSON at all.
    runner(200)
        .run(&prop::collection::vec(any::<u8>(), 0..200), |bytes| {
            std::fs::write(&names[1], &bytes).unwrap();
            std::fs::write(&names[0], originals[0].to_string()).unwrap();
            let loaded = Suite::load(&source);
            prop_assert!(loaded.err().is_some_and(|e| input_error(&e)));
            Ok(())
        })
        .unwrap();
}

#[test]
fn the_report_reader_refuses_mutated_reports_as_input_errors() {
    let originals: Vec<Value> = ["mem0", "tenure", "zep"]
        .iter()
        .map(|p| {
            read_json(&format!(
                "tests/golden/pmb-baseline/retrieval-report-{p}.json"
            ))
        })
        .collect();
    let path = Path::new("report.json");
    runner(300)
        .run(&(0..originals.len(), mutations()), |(which, m)| {
            let doc = mutate(originals[which].clone(), &m);
            if let Err(e) = tenure_eval::report::LoadedReport::from_value(path, &doc) {
                prop_assert!(input_error(&e), "{e}");
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn the_embedding_store_reader_refuses_damaged_stores_as_input_errors() {
    let source = repo("embeddings/all-minilm-l6-v2");
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(source.join("manifest.json")).unwrap()).unwrap();
    let npy = std::fs::read(source.join("vectors.npy")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path();
    // The manifest mutated (the vectors intact), or the .npy's first 256 bytes (magic, header,
    // the start of the data) overwritten at random places.
    let damage = prop_oneof![
        mutations().prop_map(|m| (Some(m), Vec::new())),
        prop::collection::vec((0..256usize, any::<u8>()), 1..8).prop_map(|b| (None, b)),
    ];
    runner(60)
        .run(&damage, |(m, bytes)| {
            let doc = match &m {
                Some(m) => mutate(manifest.clone(), m),
                None => manifest.clone(),
            };
            let mut vectors = npy.clone();
            for (at, b) in &bytes {
                vectors[*at] = *b;
            }
            std::fs::write(folder.join("manifest.json"), doc.to_string()).unwrap();
            std::fs::write(folder.join("vectors.npy"), &vectors).unwrap();
            if let Err(e) = tenure_eval::embed::store::EmbeddingStore::load(folder) {
                prop_assert!(input_error(&e), "{e}");
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn bm25_answers_any_query_within_its_invariants() {
    let suite = Suite::load(&SuiteSource::Builtin("pmb".into())).unwrap();
    let backend = Bm25Backend::with_config(&suite.corpus, Default::default()).unwrap();
    let scopes = [vec![], vec!["domain:code".to_string()]];
    runner(1500)
        .run(&("\\PC{0,60}", 0..2usize), |(message, s)| {
            let prepared = tenure_eval::query::prepare(&message, suite.profile).query;
            if prepared.is_empty() {
                return Ok(());
            }
            let hits = backend
                .search(&SearchRequest {
                    text: &prepared,
                    message: &message,
                    filter: SearchFilter {
                        user_id: "test-user",
                        scope: &scopes[s],
                        exclude_ids: &[],
                    },
                    limit: 20,
                })
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(hits.len() <= 20);
            for pair in hits.windows(2) {
                prop_assert!(pair[0].score >= pair[1].score, "ranked: {pair:?}");
            }
            for h in &hits {
                let score = h.score.unwrap_or(f32::NAN);
                prop_assert!(score.is_finite() && score >= 3.0, "{h:?}");
                prop_assert!(suite
                    .corpus
                    .iter()
                    .any(|b| b.id == h.id && b.user_id == "test-user"));
            }
            Ok(())
        })
        .unwrap();
}
