//! The `bitemporal` suite (written for this project, docs/temporal.md): its shape, the claim
//! every case names, the valid time its beliefs carry, and what alias-BM25 makes of it.

use crate::common::builtin;
use tenure_eval::backend::BackendConfig;
use tenure_eval::run::{run_static, Silent};
use tenure_eval::temporal::{classify_belief, TemporalClass};

#[test]
fn the_suite_has_the_shape_the_issue_asks_for_and_loads_without_warnings() {
    let suite = builtin("bitemporal");
    assert!(suite.warnings.is_empty(), "{:#?}", suite.warnings);
    assert!(
        suite.cases.len() >= 40,
        "{} static cases",
        suite.cases.len()
    );
    assert_eq!(suite.sessions.len(), 3);
    for session in &suite.sessions {
        assert!(session.turns.len() >= 20, "{}", session.case_id);
        assert!(
            session.description.starts_with("Tests: ch. 8"),
            "{}",
            session.case_id
        );
    }
    for case in &suite.cases {
        assert!(
            case.description.starts_with("Tests: ch. "),
            "{}",
            case.case_id
        );
    }
    let categories: std::collections::BTreeSet<_> = suite
        .cases
        .iter()
        .filter_map(|c| c.category.as_deref())
        .collect();
    assert_eq!(
        categories.into_iter().collect::<Vec<_>>(),
        [
            "Bounded historical facts",
            "Controls",
            "Corrections",
            "Forward commitments"
        ]
    );
}

#[test]
fn every_excluded_belief_is_closed_by_its_metadata() {
    // A case that forbids a belief for a current question forbids a closed one (valid_to or
    // superseded_by), never an open belief: the suite tests valid time, not relevance.
    let suite = builtin("bitemporal");
    for case in &suite.cases {
        for id in case
            .expect
            .relevant_beliefs
            .iter()
            .flat_map(|r| &r.must_exclude)
        {
            let belief = suite.corpus.iter().find(|b| &b.id == id).unwrap();
            assert_eq!(classify_belief(belief).class, TemporalClass::Closed, "{id}");
        }
    }
}

#[test]
fn alias_bm25_passes_only_the_corrections_tenure_already_filters() {
    // Measured, not chosen: the 3 corrections whose original carries `superseded_by` pass
    // through Tenure's active-belief filter; the 5 closed only by `valid_to` surface, and no
    // current-state question keeps its bounded historical fact out.
    let suite = builtin("bitemporal");
    let run = run_static(&suite, &BackendConfig::bm25(), &mut Silent).unwrap();
    let passed = |prefix: &str| {
        let of: Vec<_> = run
            .reported()
            .into_iter()
            .filter(|c| c.case_id.starts_with(prefix))
            .collect();
        (of.iter().filter(|c| c.passed()).count(), of.len())
    };
    assert_eq!(passed("correction-closes-earlier-"), (3, 8));
    assert_eq!(passed("history-stays-out-of-current-"), (0, 8));
    assert_eq!(passed("history-returns-when-asked-"), (8, 8));
    assert_eq!(passed("control-similarity-"), (6, 6));
    assert_eq!(run.summary().total_passed, 26);
}
