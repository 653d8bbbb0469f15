//! `--explain CASE`: why a static case's search tier holds what it holds. Alias-BM25 is run on
//! the case's prepared query with no score floor, so the best candidates show with their
//! scores whether or not they clear the floor (3 in Tenure's eval, `--min-score`), each with
//! the terms that scored it. What a case "returned nothing" for is usually right below it.

use crate::backend::bm25::{Bm25Backend, Bm25Config};
use crate::backend::{Backend, Contribution, SearchFilter, SearchRequest};
use crate::error::{Error, Result};
use crate::suite::{StaticCase, Suite};

/// One candidate of the case's search.
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    /// Belief id.
    pub id: String,
    /// Its score (float32 BM25, boosts included).
    pub score: f32,
    /// Whether it clears the floor (and so could be in the relevant tier).
    pub above_floor: bool,
    /// The terms that scored it, largest first.
    pub terms: Vec<Contribution>,
}

/// The explanation of one case.
#[derive(Debug, Clone)]
pub(crate) struct CaseExplanation {
    /// Case id.
    pub case_id: String,
    /// The user message.
    pub query: String,
    /// What is searched after preparation (`expandedQuery`); empty means no search.
    pub expanded_query: String,
    /// The user and scopes the search is filtered to.
    pub user: String,
    /// Scopes.
    pub scope: Vec<String>,
    /// The floor.
    pub floor: f32,
    /// The best candidates, best first.
    pub candidates: Vec<Candidate>,
}

/// The static case `case_id` of `suite`; an unknown id is a usage error naming near ids.
pub(crate) fn find_static_case<'a>(
    suite: &'a Suite,
    case_id: &str,
) -> Result<&'a crate::suite::StaticCase> {
    suite
        .cases
        .iter()
        .find(|c| c.case_id == case_id)
        .ok_or_else(|| {
            let near: Vec<&str> = suite
                .cases
                .iter()
                .map(|c| c.case_id.as_str())
                .filter(|id| id.contains(case_id) || case_id.contains(*id))
                .take(5)
                .collect();
            Error::Usage(format!(
                "--explain {case_id:?}: no static case with that id in suite {}{}",
                suite.label(),
                if near.is_empty() {
                    String::new()
                } else {
                    format!(" (near: {})", near.join(", "))
                }
            ))
        })
}

/// The search an explanation makes for `case`: `text` (its prepared query) under the case's
/// user and scopes, without the ids the run's search leaves out (`excluded`: the case's pinned
/// facts, by the context's rules), `top` results. Every backend's `--explain` searches with it.
pub(crate) fn case_request<'a>(
    case: &'a StaticCase,
    text: &'a str,
    excluded: &'a [String],
    top: usize,
) -> SearchRequest<'a> {
    SearchRequest {
        text,
        message: &case.query,
        filter: SearchFilter {
            user_id: case.user(),
            scope: &case.scope,
            exclude_ids: excluded,
        },
        limit: top,
    }
}

/// Explain `case_id` of `suite`: its `top` best BM25 candidates without a floor, marked
/// against `floor`, searched without `excluded` (as the run searches: [`case_request`]).
pub(crate) fn explain_case(
    suite: &Suite,
    case_id: &str,
    floor: f32,
    top: usize,
    excluded: &[String],
) -> Result<CaseExplanation> {
    let case = find_static_case(suite, case_id)?;
    let expanded_query = crate::query::prepare(&case.query, suite.profile).query;
    let mut explanation = CaseExplanation {
        case_id: case.case_id.clone(),
        query: case.query.clone(),
        expanded_query: expanded_query.clone(),
        user: case.user().to_string(),
        scope: case.scope.clone(),
        floor,
        candidates: Vec::new(),
    };
    if expanded_query.is_empty() {
        return Ok(explanation);
    }
    let unfloored = Bm25Config {
        min_score: 0.0,
        ..Bm25Config::default()
    };
    let backend = Bm25Backend::with_config(&suite.corpus, unfloored)?;
    let hits = backend
        .search(&case_request(case, &expanded_query, excluded, top))
        .map_err(|e| Error::backend("bm25", e.message))?;
    explanation.candidates = hits
        .into_iter()
        .map(|h| {
            let score = h.score.unwrap_or(0.0);
            let mut terms = h.explanation.map(|e| e.contributions()).unwrap_or_default();
            terms.sort_by(|a, b| b.score.total_cmp(&a.score));
            Candidate {
                id: h.id,
                score,
                above_floor: score >= floor,
                terms,
            }
        })
        .collect();
    Ok(explanation)
}

impl CaseExplanation {
    /// As markdown: the query, then one line per candidate with its terms.
    pub(crate) fn markdown(&self) -> String {
        let mut out = format!(
            "### {} · explained by bm25\n\nquery {:?} → searched as {:?}, user {}, scopes [{}], \
             floor {}\n\n",
            self.case_id,
            self.query,
            self.expanded_query,
            self.user,
            self.scope.join(", "),
            self.floor
        );
        if self.expanded_query.is_empty() {
            out.push_str("nothing is searched: the query is empty after preparation\n");
            return out;
        }
        if self.candidates.is_empty() {
            out.push_str("no belief of this user in these scopes matches any query term\n");
            return out;
        }
        for c in &self.candidates {
            let mark = if c.above_floor {
                "kept"
            } else {
                "below the floor"
            };
            let terms: Vec<String> = c
                .terms
                .iter()
                .map(|t| format!("{}:{} {:.2}", t.path, t.term, t.score))
                .collect();
            out.push_str(&format!(
                "- `{}` {:.2} ({mark}): {}\n",
                c.id,
                c.score,
                terms.join(", ")
            ));
        }
        out
    }
}
