//! Judgments: what a suite says of each query's beliefs (gold relevant, `mustExclude`
//! non-relevant), the qrels every rank measure and the TREC export read.

use crate::error::{Error, Result};
use crate::eval::metrics::{static_gold, turn_gold};
use crate::eval::rank::Measure;
use crate::suite::{Suite, DEFAULT_USER};
use std::collections::HashMap;
use std::path::Path;

/// What a suite says of one query's beliefs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Judgments {
    /// Gold: relevant (qrels relevance 1), in the case's order.
    pub relevant: Vec<String>,
    /// `mustExclude` beliefs not in the gold: judged non-relevant (relevance 0).
    pub non_relevant: Vec<String>,
    /// Each relevant belief's grade, aligned with `relevant` (a test collection's qrels);
    /// empty: every one grade 1.
    pub grades: Vec<u32>,
}

/// The judgments of every query of a suite: static cases by case id, turns by case id and
/// turn index.
#[derive(Debug, Clone, Default)]
pub struct Qrels {
    queries: HashMap<(String, Option<i64>), Judgments>,
    suite: String,
}

fn judgments(relevant: Vec<&String>, excluded: &[String]) -> Judgments {
    let relevant: Vec<String> = relevant.into_iter().cloned().collect();
    let mut non_relevant: Vec<String> = Vec::new();
    for id in excluded {
        if !relevant.contains(id) && !non_relevant.contains(id) {
            non_relevant.push(id.clone());
        }
    }
    Judgments {
        relevant,
        non_relevant,
        grades: Vec::new(),
    }
}

/// The judgments of a test collection's topic: grade ≥ 1 relevant, 0 judged not relevant.
fn graded(grades: &[(String, u32)]) -> Judgments {
    let (relevant, non_relevant): (Vec<_>, Vec<_>) = grades.iter().partition(|(_, g)| *g > 0);
    Judgments {
        relevant: relevant.iter().map(|(d, _)| d.clone()).collect(),
        grades: relevant.iter().map(|(_, g)| *g).collect(),
        non_relevant: non_relevant.iter().map(|(d, _)| d.clone()).collect(),
    }
}

impl Qrels {
    /// The judgments `suite` gives (the same gold as the suite's own recall).
    pub fn of(suite: &Suite) -> Qrels {
        let pinned: Vec<String> = suite
            .corpus
            .iter()
            .filter(|b| b.user_id == DEFAULT_USER && b.pinned)
            .map(|b| b.id.clone())
            .collect();
        let mut queries = HashMap::new();
        for case in &suite.cases {
            let excluded = case
                .expect
                .relevant_beliefs
                .as_ref()
                .map_or(&[][..], |rb| &rb.must_exclude);
            let j = if case.grades.is_empty() {
                judgments(static_gold(&case.expect, &pinned), excluded)
            } else {
                graded(&case.grades)
            };
            queries.insert((case.case_id.clone(), None), j);
        }
        for session in &suite.sessions {
            for turn in &session.turns {
                let excluded = turn
                    .expect
                    .relevant_beliefs
                    .as_ref()
                    .map_or(&[][..], |rb| &rb.must_exclude);
                let j = judgments(turn_gold(&turn.expect), excluded);
                queries.insert((session.case_id.clone(), Some(turn.turn_index)), j);
            }
        }
        Qrels {
            queries,
            suite: suite.label(),
        }
    }

    /// Every document some query judges (relevant or not): with the corpus, what a run of
    /// this suite may rank (a test collection's qrels may judge a document its corpus lacks,
    /// which counts in R as for trec_eval).
    pub(crate) fn judged(&self) -> impl Iterator<Item = &str> {
        (self.queries.values())
            .flat_map(|j| j.relevant.iter().chain(&j.non_relevant))
            .map(String::as_str)
    }

    /// The judgments of a case (`turn`: `None` for a static case).
    pub fn get(&self, case_id: &str, turn: Option<i64>) -> Option<&Judgments> {
        self.queries.get(&(case_id.to_string(), turn))
    }

    /// As [`Qrels::get`], or an input error naming `file` and the case when the suite has no
    /// such case (a report of another suite).
    pub(crate) fn require(
        &self,
        file: &Path,
        case_id: &str,
        turn: Option<i64>,
    ) -> Result<&Judgments> {
        self.get(case_id, turn).ok_or_else(|| {
            let what = match turn {
                Some(t) => format!("case {case_id:?} turn {t}"),
                None => format!("case {case_id:?}"),
            };
            Error::input(
                file,
                "$",
                format!(
                    "{what} is not in the suite {:?}; expected a report of that suite \
                     (name its suite with --suite)",
                    self.suite
                ),
            )
        })
    }
}

/// Each measure of `ranking` given `j`.
pub fn case_scores(measures: &[Measure], ranking: &[String], j: &Judgments) -> Vec<Option<f64>> {
    let ranking: Vec<&str> = ranking.iter().map(String::as_str).collect();
    let gold: Vec<(&str, f64)> = j
        .relevant
        .iter()
        .enumerate()
        .map(|(i, id)| (id.as_str(), j.grades.get(i).map_or(1.0, |g| f64::from(*g))))
        .collect();
    measures
        .iter()
        .map(|m| crate::eval::rank::score_graded(*m, &ranking, &gold))
        .collect()
}
