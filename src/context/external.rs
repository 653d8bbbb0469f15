//! PrecisionMemBench's external client (provider-http spec §5.2): the memory system answers
//! the search; pinned facts, questions, relation expansion and the cap come from the client's
//! copy of the corpus (`seedIndex`), with upstream's filters and none of the reader's.
//!
//! Besides the context, the builder records what a careful client would want to know
//! ([`Diagnostics`]): ids it dropped and why, and beliefs the system returned that the user
//! should not have got (another user's, superseded, resolved, out of scope).

use super::{persona_prelude, Context, ContextRequest, ScoredBelief};
use crate::backend::{Backend, BackendError, SearchFilter, SearchRequest};
use crate::js;
use crate::profile::Profile;
use crate::query;
use crate::store::BeliefStore;
use crate::suite::{Belief, BeliefType};
use serde::Serialize;
use std::collections::HashSet;
use std::time::Instant;

/// What the system returned beyond the context: ids dropped by the client and why, and kept
/// beliefs a structured store would not have returned. Lists in answer order.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostics {
    /// Results in the answer.
    pub returned: usize,
    /// Results without an id (upstream drops them).
    #[serde(skip_serializing_if = "is_zero")]
    pub without_id: usize,
    /// Ids returned more than once (the first is kept).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub duplicate: Vec<String>,
    /// The case's own pinned facts, which the client excludes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pinned: Vec<String>,
    /// Ids that are not benchmark ids (a provider-side id, or stale data of another run).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<String>,
    /// Kept results and expansions the budget cut.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cut_by_budget: Vec<String>,
    /// In the relevant tier: another user's beliefs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_user: Vec<String>,
    /// In the relevant tier: superseded beliefs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub superseded: Vec<String>,
    /// In the relevant tier: resolved beliefs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resolved: Vec<String>,
    /// In the relevant tier: open questions (their tier is the questions').
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub open_question: Vec<String>,
    /// In the relevant tier: beliefs in none of the request's scopes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub out_of_scope: Vec<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// JavaScript's `array.slice(0, n)`: a negative `n` counts from the end.
fn js_take<T>(mut items: Vec<T>, n: i64) -> Vec<T> {
    let len = items.len() as i64;
    let keep = if n < 0 { (len + n).max(0) } else { n.min(len) };
    items.truncate(keep as usize);
    items
}

/// `scope.some(s => wanted.includes(s))`: an empty request scope matches nothing.
fn overlaps(belief: &Belief, scope: &[String]) -> bool {
    belief.in_scope(scope)
}

/// `buildContext` of the external adapter (BA:185-239).
pub(super) fn build(
    store: &BeliefStore,
    backend: &dyn Backend,
    profile: Profile,
    request: &ContextRequest<'_>,
) -> Result<Context, BackendError> {
    let (user, scope, budget) = (request.user_id, request.scope, request.budget);
    let pinned_all = pinned_all(store, user, scope);
    let questions: Vec<String> = store
        .beliefs()
        .filter(|b| {
            b.user_id == user
                && b.kind == BeliefType::OpenQuestion
                && b.pinned
                && b.resolved_at.is_none()
                && overlaps(b, scope)
        })
        .map(|b| b.id.clone())
        .collect();

    let expanded_query = query::prepare(request.message, profile).query;
    let mut diagnostics = Diagnostics::default();
    let mut hits: Vec<ScoredBelief> = Vec::new();
    let mut search_ms = None;
    if !js::trim(request.message).is_empty() && budget.max_beliefs > 0 {
        let start = Instant::now();
        let answer = backend.search(&SearchRequest {
            text: &expanded_query,
            message: request.message,
            filter: SearchFilter {
                user_id: user,
                scope,
                exclude_ids: &pinned_all,
            },
            limit: budget.max_beliefs as usize,
        })?;
        search_ms = Some(start.elapsed().as_secs_f64() * 1000.0);
        diagnostics.returned = answer.len();
        let mut seen: HashSet<String> = HashSet::new();
        for hit in answer {
            if hit.id.is_empty() {
                diagnostics.without_id += 1;
            } else if !seen.insert(hit.id.clone()) {
                diagnostics.duplicate.push(hit.id);
            } else if pinned_all.contains(&hit.id) {
                diagnostics.pinned.push(hit.id);
            } else if store.get(&hit.id).is_none() {
                diagnostics.unknown.push(hit.id);
            } else {
                hits.push(ScoredBelief {
                    id: hit.id,
                    score: hit.score.unwrap_or(0.0),
                    explanation: hit.explanation,
                });
            }
        }
    }

    // One-hop expansion (BA:280-305): participants of relation hits, in hit then participant
    // order, against the ids excluded before expanding; no type or state filter.
    let mut expansions: Vec<ScoredBelief> = Vec::new();
    if !hits.is_empty() {
        let excluded: HashSet<&str> = pinned_all
            .iter()
            .map(String::as_str)
            .chain(hits.iter().map(|h| h.id.as_str()))
            .collect();
        for relation in hits.iter().filter_map(|h| store.get(&h.id)) {
            if relation.kind != BeliefType::Relation {
                continue;
            }
            for id in &relation.participants {
                let Some(b) = store.get(id).filter(|_| !excluded.contains(id.as_str())) else {
                    continue;
                };
                if b.user_id == user && (scope.is_empty() || overlaps(b, scope)) {
                    expansions.push(ScoredBelief {
                        id: id.clone(),
                        score: 0.0,
                        explanation: None,
                    });
                }
            }
        }
    }
    hits.extend(expansions);
    let search_scores = hits;

    let pinned = js_take(pinned_all, budget.max_beliefs);
    let room = (budget.max_beliefs - pinned.len() as i64).max(0) as usize;
    let all_relevant: Vec<String> = search_scores.iter().map(|s| s.id.clone()).collect();
    diagnostics.cut_by_budget = all_relevant.iter().skip(room).cloned().collect();
    let relevant = js_take(all_relevant, room as i64);
    for id in &relevant {
        let Some(b) = store.get(id) else { continue };
        let lists = [
            (b.user_id != user, &mut diagnostics.other_user),
            (b.superseded_by.is_some(), &mut diagnostics.superseded),
            (b.resolved_at.is_some(), &mut diagnostics.resolved),
            (
                b.kind == BeliefType::OpenQuestion,
                &mut diagnostics.open_question,
            ),
            (
                !scope.is_empty() && !overlaps(b, scope),
                &mut diagnostics.out_of_scope,
            ),
        ];
        for (applies, list) in lists {
            if applies {
                list.push(id.clone());
            }
        }
    }
    Ok(Context {
        expanded_query,
        // The eval's persona stub, unclipped (SE:131-145).
        persona_prelude: persona_prelude(user, i64::MAX),
        pinned,
        relevant,
        questions: js_take(questions, budget.max_questions),
        search_scores,
        diagnostics: Some(diagnostics),
        search_ms,
    })
}

/// Every pinned fact of `user` in `scope`: what the client leaves out of the system's search.
pub(crate) fn pinned_all(store: &BeliefStore, user: &str, scope: &[String]) -> Vec<String> {
    store
        .beliefs()
        .filter(|b| {
            b.user_id == user
                && b.pinned
                && b.kind != BeliefType::OpenQuestion
                && b.superseded_by.is_none()
                && b.resolved_at.is_none()
                && overlaps(b, scope)
        })
        .map(|b| b.id.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::js_take;

    #[test]
    fn take_is_javascript_slice() {
        assert_eq!(js_take(vec![1, 2, 3], 2), [1, 2]);
        assert_eq!(js_take(vec![1, 2, 3], 9), [1, 2, 3]);
        assert_eq!(js_take(vec![1, 2, 3], -1), [1, 2]);
        assert_eq!(js_take(vec![1, 2, 3], -5), Vec::<i32>::new());
    }
}
