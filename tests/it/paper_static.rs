//! The `paper` suite through the BM25 backend: the paper's 60/60 static claim.

use crate::common::*;

#[test]
fn paper_passes_all_60_with_mean_precision_one() {
    let (suite, run) = static_run("paper");
    let failed: Vec<_> = run
        .results
        .iter()
        .filter(|r| !r.passed())
        .map(|r| (&r.case_id, &r.failures))
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
    let summary = run.summary();
    assert_eq!((summary.total_passed, summary.total_cases), (60, 60));
    assert_eq!(summary.mean_precision, Some(1.0));
    assert_eq!(summary.mean_recall, Some(1.0));
    // The paper-tag report is a bare array without category or latency.
    let report = static_report(&suite, &run);
    let first = &report.as_array().unwrap()[0];
    assert!(first.get("category").is_none() && first.get("retrievalLatencyMs").is_none());
}

#[test]
fn paper_profile_lists_pinned_hits_and_removes_them_from_relevant() {
    // PAPER does not exclude pinned ids from search (spec §C.4): a pinned hit is listed in
    // searchScores but never relevant. HEAD excludes it from the search itself.
    let (_, paper) = static_run("paper");
    let pinned_hits: Vec<_> = paper
        .results
        .iter()
        .flat_map(|r| {
            r.context
                .search_scores
                .iter()
                .filter(|s| r.context.pinned.contains(&s.id))
                .map(move |s| (&r.case_id, &s.id))
        })
        .collect();
    assert!(
        !pinned_hits.is_empty(),
        "no pinned search hit at all under the paper profile"
    );
    for r in &paper.results {
        assert!(r
            .context
            .relevant
            .iter()
            .all(|id| !r.context.pinned.contains(id)));
    }
    let (_, head) = static_run("pmb");
    for r in &head.results {
        assert!(
            r.context
                .search_scores
                .iter()
                .all(|s| !r.context.pinned.contains(&s.id)),
            "{}",
            r.case_id
        );
    }
}

#[test]
fn paper_profile_pins_the_user_edited_belief_across_scopes() {
    let (_, run) = static_run("paper");
    let code_cases: Vec<_> = run
        .results
        .iter()
        .filter(|r| r.context.pinned.contains(&"b-db-decision".to_string()))
        .collect();
    assert!(!code_cases.is_empty());
    assert!(code_cases.iter().all(|r| r
        .context
        .pinned
        .contains(&"b-prose-style-user-edited".to_string())));
}
