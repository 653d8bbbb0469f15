//! `run --explain CASE` through any backend: the case's search as the backend answers it, each
//! hit with what its score is made of, said in the backend's own terms (context-scorer spec
//! §1-5 for the context scorers' signals). Alias-BM25 has its own, richer explanation (its
//! candidates below the floor too: `backend::bm25::explain`).
//! - cosine: the cosine similarity behind Atlas's score, (1 + cos) / 2;
//! - composite, spreading, recent: the signals, their product, the additive boosts, the tier
//!   and, with `--bitemporal`, the valid-time class;
//! - fusion: each fused list's rank and score of the hit;
//! - any other (plain BM25 over words, a memory system): the score as given.

use crate::backend::bm25::explain::{case_request, find_static_case};
use crate::backend::{BackendConfig, BackendFactory, Explanation, Hit, ScoreScale};
use crate::error::{Error, Result};
use crate::suite::Suite;
use std::fmt::Write as _;

/// The markdown explanation of `case_id` through `config`: its `top` hits.
pub(crate) fn explain_case(
    suite: &Suite,
    case_id: &str,
    config: &mut BackendConfig,
    top: usize,
) -> Result<String> {
    let case = find_static_case(suite, case_id)?;
    config.prepare(suite, &mut |_, _| {})?;
    let backend = config.build(&suite.corpus)?;
    let info = backend.info().clone();
    let searched = crate::query::prepare(&case.query, suite.profile).query;
    let mut out = format!(
        "### {} · explained by {}\n\nquery {:?} → searched as {:?}, user {}, scopes [{}]; \
         the score is {}\n\n",
        case.case_id,
        info.label,
        case.query,
        searched,
        case.user(),
        case.scope.join(", "),
        info.score_scale.describe(),
    );
    // The run searches nothing for a blank query or a budget of no belief (`context::build`);
    // the explanation said a backend error for `edge-whitespace-query`.
    let budget = crate::context::Budget::with(case.budget.as_ref());
    if searched.trim().is_empty() || budget.max_beliefs <= 0 {
        out.push_str("no search: the run sends none for a blank query or a budget of no belief\n");
        return Ok(out);
    }
    let excluded = excluded(suite, case, info.reader);
    let hits = backend
        .search(&case_request(case, &searched, &excluded, top))
        .map_err(|e| Error::backend(&info.label, e.message))?;
    if hits.is_empty() {
        out.push_str(match info.score_scale {
            ScoreScale::ContextScore => {
                "no hit: no belief of this user in these scopes reaches the Compressed tier\n"
            }
            _ => "no hit\n",
        });
    }
    for hit in &hits {
        let _ = writeln!(out, "- {}", line(hit, info.score_scale));
    }
    Ok(out)
}

/// The ids the run's search for `case` leaves out, for a backend of `reader`: the context's
/// rules ([`crate::context::excluded_from_search`]).
pub(crate) fn excluded(
    suite: &Suite,
    case: &crate::suite::StaticCase,
    reader: crate::backend::Reader,
) -> Vec<String> {
    let store = crate::store::BeliefStore::new(&suite.corpus);
    let request = crate::context::ContextRequest {
        user_id: case.user(),
        scope: &case.scope,
        message: &case.query,
        budget: crate::context::Budget::with(case.budget.as_ref()),
    };
    crate::context::excluded_from_search(&store, reader, suite.profile, &request)
}

/// One hit: its id, score and what made it.
fn line(hit: &Hit, scale: ScoreScale) -> String {
    let score = hit.score.map_or("–".to_string(), |s| format!("{s:.3}"));
    let head = format!("`{}` {score}", hit.id);
    match (&hit.explanation, scale) {
        (Some(e), _) if e.signals.is_some() => format!("{head}: {}", signals(e)),
        (Some(e), _) if !e.contributions().is_empty() => {
            let mut terms = e.contributions();
            terms.sort_by(|a, b| b.score.total_cmp(&a.score));
            let terms: Vec<String> = terms
                .iter()
                .map(|t| format!("{}:{} {:.2}", t.path, t.term, t.score))
                .collect();
            format!("{head}: {}", terms.join(", "))
        }
        (Some(e), _) if !e.details.is_empty() => {
            let parts: Vec<String> = e
                .details
                .iter()
                .map(|d| format!("{} ({:.3})", d.description, d.value))
                .collect();
            format!("{head}: {} {}", e.description, parts.join(", "))
        }
        (None, ScoreScale::VectorSimilarity) => match hit.score {
            Some(s) => format!(
                "{head}: cosine {:.3} (the score is (1 + cos) / 2)",
                2.0 * s - 1.0
            ),
            None => head,
        },
        _ => format!("{head}: the score as the backend gave it, with no explanation"),
    }
}

/// A context scorer's signals: the product, the boosts, the tier.
fn signals(e: &Explanation) -> String {
    let Some(s) = e.signals.as_deref() else {
        return String::new();
    };
    let mut factors = Vec::new();
    for (name, v) in [
        ("recency", s.recency),
        ("relevance", s.relevance),
        ("confidence", s.confidence),
        ("currency", s.currency),
    ] {
        if let Some(v) = v {
            factors.push(format!("{name} {v:.3}"));
        }
    }
    let mut text = format!("{} = {:.3}", factors.join(" × "), s.product);
    for (name, v) in [
        ("primacy", s.primacy),
        ("revisitation", s.revisitation),
        ("temporal validity", s.temporal_validity),
        ("spread", s.spread),
    ] {
        if let Some(v) = v {
            let _ = write!(text, " + {name} {v:.3}");
        }
    }
    let _ = write!(text, " → {:.3}", s.score);
    if let Some(tier) = s.tier {
        let _ = write!(text, ", tier {tier:?}");
    }
    if let Some(class) = &s.valid_class {
        let _ = write!(text, ", valid time {class}");
    }
    text
}
