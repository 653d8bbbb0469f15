//! The cosine backend without a runtime: committed MiniLM vectors against the published
//! PrecisionMemBench vector reports, exact against HNSW, Atlas score semantics, and store errors.
//!
//! The vector baselines have no score threshold, so whenever the budget does not truncate the
//! relevant tier, which beliefs come back is fixed by the filters alone, whatever the model:
//! those sets must equal the published nomic-embed-text report's exactly.

use crate::common::{builtin, read_json, repo, sorted, tenure_eval};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;
use tenure_eval::backend::cosine::{CosineConfig, HnswParams, IndexKind};
use tenure_eval::backend::BackendConfig;
use tenure_eval::embed::{normalised, EmbeddingStore, Role, TextPolicy};
use tenure_eval::run::{run_sessions, run_static, Silent};
use tenure_eval::suite::Suite;

mod errors;
mod outputs;

fn cosine(suite: &Suite, index: IndexKind) -> BackendConfig {
    let store = EmbeddingStore::open(&repo("embeddings"), "all-minilm-l6-v2")
        .unwrap()
        .unwrap();
    let mut config = CosineConfig::new("all-minilm-l6-v2");
    config.index = index;
    BackendConfig::cosine(config.with_vectors(Arc::new(store), suite.profile))
}

fn strings(v: &Value) -> Vec<String> {
    sorted(crate::common::ids(v))
}

#[test]
fn pmb_static_sets_equal_the_published_vector_report_wherever_the_budget_does_not_choose() {
    let suite = builtin("pmb");
    let run = run_static(&suite, &cosine(&suite, IndexKind::Exact), &mut Silent).unwrap();
    let published = read_json("tests/golden/pmb-baseline/nomic-retrieval-report-vector.json");
    let published = published["cases"].as_array().unwrap();
    assert_eq!(run.results.len(), 77);
    let (mut untruncated, mut passes) = (0, 0);
    for (ours, theirs) in run.results.iter().zip(published) {
        assert_eq!(ours.case_id, theirs["caseId"].as_str().unwrap());
        let ctx = &ours.context;
        assert_eq!(
            sorted(ctx.pinned.clone()),
            strings(&theirs["pinnedBeliefs"]),
            "{}",
            ours.case_id
        );
        assert_eq!(
            sorted(ctx.questions.clone()),
            strings(&theirs["retrievedQuestions"]),
            "{}",
            ours.case_id
        );
        let relevant = strings(&theirs["relevantBeliefs"]);
        assert_eq!(ctx.relevant.len(), relevant.len(), "{}", ours.case_id);
        // The budget chooses among the candidates only when it keeps some but not all of them.
        if ctx.search_scores.len() == ctx.relevant.len() || ctx.relevant.is_empty() {
            untruncated += 1;
            assert_eq!(sorted(ctx.relevant.clone()), relevant, "{}", ours.case_id);
            assert_eq!(
                ours.passed(),
                theirs["passed"].as_bool().unwrap(),
                "{}",
                ours.case_id
            );
            for key in ["retrievalPrecision", "retrievalRecall", "pinnedCoverage"] {
                let mine = match key {
                    "retrievalPrecision" => ours.metrics.retrieval_precision,
                    "retrievalRecall" => ours.metrics.retrieval_recall,
                    _ => ours.metrics.pinned_coverage,
                };
                assert_eq!(mine, theirs[key].as_f64(), "{} {key}", ours.case_id);
            }
        } else {
            // The model picks which beliefs fill the budget; every such case fails either way.
            assert!(
                !ours.passed() && !theirs["passed"].as_bool().unwrap(),
                "{}",
                ours.case_id
            );
        }
        passes += usize::from(ours.passed());
    }
    // In 4 cases the budget keeps some candidates and drops others: the model decides there.
    assert_eq!(untruncated, 73);
    assert_eq!(passes, 11, "published: 11/77");
}

#[test]
fn pmb_session_turns_equal_the_published_vector_report() {
    let suite = builtin("pmb");
    let run = run_sessions(&suite, &cosine(&suite, IndexKind::Exact), &mut Silent).unwrap();
    let published = read_json("tests/golden/pmb-baseline/session-retrieval-report-vector.json");
    let published = published["cases"].as_array().unwrap();
    assert_eq!(run.turns.len(), published.len());
    for (ours, theirs) in run.turns.iter().zip(published) {
        let at = format!("{} turn {}", ours.case_id, ours.turn_index);
        assert_eq!(ours.turn_index, theirs["turnIndex"].as_i64().unwrap());
        assert_eq!(
            sorted(ours.context.pinned.clone()),
            strings(&theirs["pinnedBeliefIds"]),
            "{at}"
        );
        assert_eq!(
            sorted(ours.context.relevant.clone()),
            strings(&theirs["retrievedBeliefIds"]),
            "{at}"
        );
        assert_eq!(ours.passed(), theirs["passed"].as_bool().unwrap(), "{at}");
        let precision = ours.metrics.retrieval_precision.unwrap();
        assert!(
            (precision - theirs["retrievalPrecision"].as_f64().unwrap()).abs() < 1e-12,
            "{at}"
        );
        // PrecisionMemBench's drift is 1 − precision.
        let drift = theirs["driftScore"].as_f64().unwrap();
        assert!(
            (ours.metrics.precision_drift_score - drift).abs() < 1e-12,
            "{at}"
        );
    }
    assert_eq!(run.summary().total_passed, 0);
}

#[test]
fn exact_and_hnsw_give_identical_results_on_every_case_and_turn_of_both_suites() {
    let hnsw = IndexKind::Hnsw(HnswParams::default());
    for name in ["paper", "pmb"] {
        let suite = builtin(name);
        let a = run_static(&suite, &cosine(&suite, IndexKind::Exact), &mut Silent).unwrap();
        let b = run_static(&suite, &cosine(&suite, hnsw), &mut Silent).unwrap();
        for (x, y) in a.results.iter().zip(&b.results) {
            assert_eq!(x.context, y.context, "{name} {}", x.case_id);
        }
        let a = run_sessions(&suite, &cosine(&suite, IndexKind::Exact), &mut Silent).unwrap();
        let b = run_sessions(&suite, &cosine(&suite, hnsw), &mut Silent).unwrap();
        for (x, y) in a.turns.iter().zip(&b.turns) {
            assert_eq!(
                x.context, y.context,
                "{name} {} turn {}",
                x.case_id, x.turn_index
            );
        }
    }
}

#[test]
fn scores_are_atlas_vector_scores_in_descending_order_with_ties_in_natural_order() {
    let suite = builtin("paper");
    let store = EmbeddingStore::open(&repo("embeddings"), "all-minilm-l6-v2")
        .unwrap()
        .unwrap();
    let policy = TextPolicy::of(suite.profile);
    let run = run_static(&suite, &cosine(&suite, IndexKind::Exact), &mut Silent).unwrap();
    let position = |id: &str| suite.corpus.iter().position(|b| b.id == id).unwrap();
    let mut checked = 0;
    for (case, result) in suite.cases.iter().zip(&run.results) {
        let query_text = policy.query.of(&case.query, suite.profile);
        let Some(q) = store.get(Role::Query, policy.query.name(), &query_text) else {
            assert!(result.context.search_scores.is_empty());
            continue;
        };
        let q = normalised(q).unwrap();
        for pair in result.context.search_scores.windows(2) {
            assert!(pair[0].score >= pair[1].score, "{}", case.case_id);
            if pair[0].score == pair[1].score {
                assert!(
                    position(&pair[0].id) < position(&pair[1].id),
                    "{}",
                    case.case_id
                );
            }
        }
        for hit in &result.context.search_scores {
            let belief = suite.corpus.iter().find(|b| b.id == hit.id).unwrap();
            let v = store
                .get(
                    Role::Belief,
                    policy.belief.name(),
                    &policy.belief.of(belief),
                )
                .unwrap();
            let v = normalised(v).unwrap();
            let cos: f64 = v
                .iter()
                .zip(&q)
                .map(|(a, b)| f64::from(*a) * f64::from(*b))
                .sum();
            assert!(
                (f64::from(hit.score) - (1.0 + cos) / 2.0).abs() < 1e-6,
                "{}",
                hit.id
            );
            checked += 1;
        }
    }
    assert!(checked > 500, "checked {checked} scores");
    // The paper harness has no score threshold: every in-scope candidate up to the limit.
    assert!(run
        .results
        .iter()
        .all(|r| r.context.search_scores.iter().all(|s| s.score < 3.0)));
}
