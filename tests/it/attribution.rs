//! Score attribution: every scored belief carries the contributions the scorer itself computed,
//! and they add up to its score.

use crate::common::*;
use tenure_eval::backend::bm25::{Bm25Backend, IndexedField};

#[test]
fn contributions_sum_to_the_score_on_every_case_of_both_suites() {
    let mut checked = 0;
    for name in ["paper", "pmb"] {
        let (suite, run) = static_run(name);
        for r in &run.results {
            for s in r.context.search_scores.iter().filter(|s| s.score > 0.0) {
                assert!(
                    !s.contributions().is_empty(),
                    "{name}/{}: {} has no attribution",
                    r.case_id,
                    s.id
                );
                let sum: f64 = s.contributions().iter().map(|c| f64::from(c.score)).sum();
                assert!(
                    (sum - f64::from(s.score)).abs() <= 0.01,
                    "{name}/{}: {}: {sum} vs {}",
                    r.case_id,
                    s.id,
                    s.score
                );
                checked += 1;
            }
        }
        // The report's `attribution` lists carry the same numbers.
        let report = static_report(&suite, &run);
        let cases = report
            .get("cases")
            .unwrap_or(&report)
            .as_array()
            .unwrap()
            .clone();
        for case in cases {
            for s in case["searchScores"].as_array().unwrap() {
                let sum: f64 = s["attribution"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["score"].as_f64().unwrap())
                    .sum();
                let score = s["score"].as_f64().unwrap();
                assert!(
                    score == 0.0 || (sum - score).abs() <= 0.01 + 0.005,
                    "{}: {}",
                    case["caseId"],
                    s["id"]
                );
            }
        }
    }
    assert!(checked > 100, "only {checked} scored beliefs checked");
}

#[test]
fn collapsed_clauses_are_scored_but_hidden_from_static_clause_lists() {
    // "what's my k8s deploy story": only `k8s` matches, in a clause that rewrites to one term,
    // so Atlas's static report shows no clause although the score is 7.67 (spec §C.5).
    let (_, run) = static_run("pmb");
    let r = run
        .results
        .iter()
        .find(|r| r.case_id == "happy-alias-match-kubernetes")
        .unwrap();
    let hit = &r.context.search_scores[0];
    assert_eq!(hit.id, "b-kubernetes-entity");
    assert_eq!(tenure_eval::js::round2(f64::from(hit.score)), 7.67);
    assert_eq!(hit.contributions().len(), 1);
    assert_eq!(
        (
            hit.contributions()[0].term.as_str(),
            hit.contributions()[0].collapsed
        ),
        ("k8s", true)
    );
}

#[test]
fn index_statistics_match_the_corpus_facts() {
    // Spec §A.2: docs with ≥1 alias / alias values: paper 24/63, HEAD 30/80; every belief has a
    // one-term canonical name.
    for (name, aliased, values, beliefs) in [("paper", 24, 63, 29), ("pmb", 30, 80, 35)] {
        let suite = builtin(name);
        let backend = Bm25Backend::build(&suite.corpus).unwrap();
        let index = backend.index();
        let aliases = index.stats(IndexedField::Aliases);
        assert_eq!(
            (aliases.doc_count, aliases.sum_total_term_freq),
            (aliased, values),
            "{name}"
        );
        let canonical = index.stats(IndexedField::CanonicalName);
        assert_eq!(
            (canonical.doc_count, canonical.sum_total_term_freq),
            (beliefs, beliefs),
            "{name}"
        );
        // The side table and tantivy count the same tokens.
        assert_eq!(index.tantivy_total_tokens(IndexedField::Aliases), values);
        assert_eq!(
            index.tantivy_total_tokens(IndexedField::CanonicalName),
            beliefs
        );
    }
}

#[test]
fn repeated_alias_in_one_document_has_term_frequency_two() {
    let suite = builtin("pmb");
    let backend = Bm25Backend::build(&suite.corpus).unwrap();
    let mut seen = Vec::new();
    backend
        .index()
        .for_each_posting(IndexedField::Aliases, "vitest", |ordinal, tf| {
            seen.push((backend.index().version(ordinal).belief.id.to_string(), tf));
        })
        .unwrap();
    assert!(seen.contains(&("b-vitest-pref".to_string(), 2)), "{seen:?}");
}
