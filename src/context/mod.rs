//! Context building (`ContextBuilder.build`, spec §D): the tiers a memory system hands the
//! model — persona prelude, pinned facts, relevant beliefs, open questions — under a budget.

mod external;

pub(crate) use external::Diagnostics;

use crate::backend::{
    Backend, BackendError, Contribution, Explanation, SearchFilter, SearchRequest,
};
use crate::js;
use crate::profile::{ContextRules, Fidelity, Profile};
use crate::query;
use crate::store::{BeliefStore, Participants};
use crate::suite::{BudgetOverride, DEFAULT_USER};

/// The eval's persona stub: the universal persona text of `test-user` (174 characters).
pub(crate) const EVAL_PERSONA: &str = "You prefer direct answers without preamble. You push back when plans have problems rather than defaulting to agreement. You edit AI output; you do not let AI edit your prose.";

/// Context budget; defaults as upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    /// Pinned + relevant beliefs.
    pub max_beliefs: i64,
    /// Pinned facts fetched.
    pub max_pinned_facts: i64,
    /// Open questions fetched.
    pub max_questions: i64,
    /// Persona prelude clipping.
    pub max_persona_chars: i64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_beliefs: 20,
            max_pinned_facts: 10,
            max_questions: 15,
            max_persona_chars: 800,
        }
    }
}

impl Budget {
    /// Defaults with a case's overrides applied key by key.
    pub(crate) fn with(overrides: Option<&BudgetOverride>) -> Budget {
        let mut budget = Budget::default();
        if let Some(o) = overrides {
            budget.max_beliefs = o.max_beliefs.unwrap_or(budget.max_beliefs);
            budget.max_pinned_facts = o.max_pinned_facts.unwrap_or(budget.max_pinned_facts);
            budget.max_questions = o.max_questions.unwrap_or(budget.max_questions);
            budget.max_persona_chars = o.max_persona_chars.unwrap_or(budget.max_persona_chars);
        }
        budget
    }
}

/// One request for context.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ContextRequest<'a> {
    /// Requesting user.
    pub user_id: &'a str,
    /// Scope list.
    pub scope: &'a [String],
    /// Raw user message.
    pub message: &'a str,
    /// Budget.
    pub budget: Budget,
}

/// A search hit as the context reports it (`searchScores`).
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredBelief {
    /// Belief id.
    pub id: String,
    /// Backend score; 0 for relation expansions and for backends that only rank (upstream
    /// reports write 0 there too).
    pub score: f32,
    /// The backend's explanation, when it gives one.
    pub explanation: Option<Explanation>,
}

impl ScoredBelief {
    /// Score attribution: the explanation's term matches (empty for expansions and backends
    /// without one).
    pub fn contributions(&self) -> Vec<Contribution> {
        self.explanation
            .as_ref()
            .map(Explanation::contributions)
            .unwrap_or_default()
    }
}

/// The built context, ids only (the reports never carry belief text).
#[derive(Debug, Clone, PartialEq)]
pub struct Context {
    /// The prepared query (`expandedQuery`).
    pub expanded_query: String,
    /// Persona prelude text.
    pub persona_prelude: String,
    /// Pinned tier after the cap.
    pub pinned: Vec<String>,
    /// Relevant tier after the cap.
    pub relevant: Vec<String>,
    /// Open questions.
    pub questions: Vec<String>,
    /// Every search hit (and HEAD expansion) before the cap.
    pub search_scores: Vec<ScoredBelief>,
    /// What an external system returned that the client dropped or should not have got
    /// (external reader only).
    pub diagnostics: Option<Diagnostics>,
    /// Time spent in the backend's search, in ms; `None` when no search ran. Measured.
    pub search_ms: Option<f64>,
}

/// Universal persona clipped to `max` characters (`…` appended when clipped); empty for a
/// user without a persona.
pub(crate) fn persona_prelude(user_id: &str, max: i64) -> String {
    if user_id != DEFAULT_USER {
        return String::new();
    }
    let max = max.max(0) as usize;
    if js::len(EVAL_PERSONA) <= max {
        return EVAL_PERSONA.to_string();
    }
    let clipped = js::slice_prefix(EVAL_PERSONA, max.saturating_sub(1));
    format!("{}…", clipped.trim_end_matches(js::is_js_whitespace))
}

/// Build the context for `request` by the rules of `profile` with `backend`'s reader (their
/// `Fidelity`).
pub(crate) fn build(
    store: &BeliefStore,
    backend: &dyn Backend,
    profile: Profile,
    request: &ContextRequest<'_>,
) -> Result<Context, BackendError> {
    match Fidelity::new(profile, backend.info().reader).context_rules() {
        ContextRules::VectorAdapter => build_vector_adapter(store, backend, request),
        ContextRules::External(profile) => external::build(store, backend, profile, request),
        ContextRules::Tenure(profile) => build_tenure(store, backend, profile, request),
    }
}

/// The ids [`build`] leaves out of `backend`'s search for `request` by the rules it follows (the
/// case's pinned facts: HEAD's reader, the vector adapter and the external client each exclude
/// theirs; PAPER excludes none, it drops them afterwards). An explanation of the same search
/// leaves them out too (a thirteenth audit: `--explain` on pmb listed pinned facts as hits and
/// its ranks and fused scores were not the run's).
pub(crate) fn excluded_from_search(
    store: &BeliefStore,
    reader: crate::backend::Reader,
    profile: Profile,
    request: &ContextRequest<'_>,
) -> Vec<String> {
    let (user, scope) = (request.user_id, request.scope);
    match Fidelity::new(profile, reader).context_rules() {
        ContextRules::VectorAdapter => ids(store.vector_adapter_pinned(user, scope)),
        ContextRules::External(_) => external::pinned_all(store, user, scope),
        ContextRules::Tenure(Profile::Head) => {
            ids(store.pinned_facts(Profile::Head, user, scope, request.budget.max_pinned_facts))
        }
        ContextRules::Tenure(Profile::Paper) => Vec::new(),
    }
}

/// Search unless the budget has no room or `query` (the text the upstream reader sends) is empty.
fn search(
    backend: &dyn Backend,
    request: &ContextRequest<'_>,
    expanded_query: &str,
    query: &str,
    exclude_ids: &[String],
) -> Result<Vec<ScoredBelief>, BackendError> {
    let hits = if query.is_empty() || request.budget.max_beliefs <= 0 {
        Vec::new()
    } else {
        backend.search(&SearchRequest {
            text: expanded_query,
            message: request.message,
            filter: SearchFilter {
                user_id: request.user_id,
                scope: request.scope,
                exclude_ids,
            },
            limit: request.budget.max_beliefs as usize,
        })?
    };
    Ok(hits
        .into_iter()
        .map(|h| ScoredBelief {
            id: h.id,
            score: h.score.unwrap_or(0.0),
            explanation: h.explanation,
        })
        .collect())
}

/// HEAD one-hop expansion: the participants of relation hits, appended with score 0.
fn expand_relations(
    store: &BeliefStore,
    request: &ContextRequest<'_>,
    pinned: &[String],
    search_scores: &mut Vec<ScoredBelief>,
    which: Participants,
) {
    let hit_ids: Vec<String> = search_scores.iter().map(|s| s.id.clone()).collect();
    if hit_ids.is_empty() {
        return;
    }
    let mut excluded = pinned.to_vec();
    excluded.extend(hit_ids.iter().cloned());
    for b in store.relation_participants(&hit_ids, &excluded, request.user_id, request.scope, which)
    {
        search_scores.push(ScoredBelief {
            id: b.id.clone(),
            score: 0.0,
            explanation: None,
        });
    }
}

/// The budget cap of both readers: pinned facts always win, the relevant tier gets the rest.
fn cap(pinned: Vec<String>, relevant: Vec<String>, max_beliefs: i64) -> (Vec<String>, Vec<String>) {
    let cap = max_beliefs.max(0) as usize;
    let pinned_kept = pinned.len().min(cap);
    (
        pinned.into_iter().take(pinned_kept).collect(),
        relevant.into_iter().take(cap - pinned_kept).collect(),
    )
}

fn ids(beliefs: Vec<&crate::suite::Belief>) -> Vec<String> {
    beliefs.into_iter().map(|b| b.id.clone()).collect()
}

/// Tenure's `ContextBuilder` (spec §D).
fn build_tenure(
    store: &BeliefStore,
    backend: &dyn Backend,
    profile: Profile,
    request: &ContextRequest<'_>,
) -> Result<Context, BackendError> {
    let budget = request.budget;
    let expanded_query = query::prepare(request.message, profile).query;
    let persona_prelude = persona_prelude(request.user_id, budget.max_persona_chars);
    let pinned = ids(store.pinned_facts(
        profile,
        request.user_id,
        request.scope,
        budget.max_pinned_facts,
    ));
    let questions = ids(store.open_questions(request.user_id, request.scope, budget.max_questions));

    let excluded: &[String] = match profile {
        Profile::Head => &pinned,
        Profile::Paper => &[],
    };
    let mut search_scores = search(backend, request, &expanded_query, &expanded_query, excluded)?;
    let relevant: Vec<String> = match profile {
        // PAPER does not exclude pinned ids from search; it drops them afterwards.
        Profile::Paper => search_scores
            .iter()
            .map(|s| s.id.clone())
            .filter(|id| !pinned.contains(id))
            .collect(),
        Profile::Head => {
            expand_relations(
                store,
                request,
                &pinned,
                &mut search_scores,
                Participants::ActiveBeliefs,
            );
            search_scores.iter().map(|s| s.id.clone()).collect()
        }
    };

    let (pinned, relevant) = cap(pinned, relevant, budget.max_beliefs);
    Ok(Context {
        expanded_query,
        persona_prelude,
        pinned,
        relevant,
        questions,
        search_scores,
        diagnostics: None,
        search_ms: None,
    })
}

/// PrecisionMemBench's vector adapter (spec §E, HEAD): its own pinned and question queries,
/// expansion without the type and status filters, the persona unclipped.
fn build_vector_adapter(
    store: &BeliefStore,
    backend: &dyn Backend,
    request: &ContextRequest<'_>,
) -> Result<Context, BackendError> {
    let budget = request.budget;
    let expanded_query = query::prepare(request.message, Profile::Head).query;
    let persona_prelude = persona_prelude(request.user_id, i64::MAX);
    let pinned = ids(store.vector_adapter_pinned(request.user_id, request.scope));
    let questions =
        ids(store.vector_adapter_questions(request.user_id, request.scope, budget.max_questions));
    // The adapter embeds the raw message (the search sees both texts and the backend picks),
    // and skips the search for a blank one: `edge-whitespace-query` returns nothing.
    let mut search_scores = search(
        backend,
        request,
        &expanded_query,
        js::trim(request.message),
        &pinned,
    )?;
    expand_relations(
        store,
        request,
        &pinned,
        &mut search_scores,
        Participants::Any,
    );

    let relevant = search_scores.iter().map(|s| s.id.clone()).collect();
    let (pinned, relevant) = cap(pinned, relevant, budget.max_beliefs);
    Ok(Context {
        pinned,
        relevant,
        expanded_query,
        persona_prelude,
        questions,
        search_scores,
        diagnostics: None,
        search_ms: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn persona_is_the_174_character_stub_clipped_with_an_ellipsis() {
        assert_eq!(js::len(EVAL_PERSONA), 174);
        assert_eq!(persona_prelude("test-user", 800), EVAL_PERSONA);
        assert_eq!(persona_prelude("brand-new-user", 800), "");
        assert_eq!(persona_prelude("test-user", 11), "You prefer…");
        assert_eq!(persona_prelude("test-user", 12), "You prefer…");
    }
}
