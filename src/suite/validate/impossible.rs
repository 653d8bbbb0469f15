//! Static cases that can never pass: assertions that contradict one another, which `validate`
//! warns of (an audit found it saying "ok" and the run counting them as the backend's
//! failures). What each assertion means is `eval::assertions`'s.

use crate::suite::{Belief, BeliefType, StaticCase};
use std::collections::{HashMap, HashSet};

/// Why a static case's assertions contradict one another or the corpus, if they do (audits
/// found `validate` saying "ok" for each of these, and the run then counting them as the
/// backend's failures).
pub(super) fn never_passes(
    case: &StaticCase,
    pinned: &HashSet<&str>,
    corpus: &HashMap<&str, &Belief>,
) -> Vec<String> {
    let mut why = unreachable(case, corpus);
    let Some(rb) = &case.expect.relevant_beliefs else {
        return why;
    };
    let must: HashSet<&str> = rb.must_include.iter().map(String::as_str).collect();
    if let Some(id) = rb.must_exclude.iter().find(|id| must.contains(id.as_str())) {
        why.push(format!("{id:?} is in both mustInclude and mustExclude"));
    }
    // Without `withinTop`, a pinned id in mustInclude is met by the pinned tier, which
    // `maxCount` does not count; with it, every id must be among the relevant.
    let relevant = match rb.within_top {
        Some(_) => must.len(),
        None => must.iter().filter(|id| !pinned.contains(*id)).count(),
    };
    if let Some(max) = rb.max_count.filter(|m| (*m as usize) < relevant) {
        why.push(format!(
            "maxCount {max} is below its {relevant} mustInclude of the relevant tier"
        ));
    }
    if let Some(top) = rb.within_top.filter(|k| *k < must.len()) {
        why.push(format!(
            "withinTop {top} is below its {} mustInclude",
            must.len()
        ));
    }
    if let (Some(min), Some(max)) = (rb.min_count, rb.max_count) {
        if min > max {
            why.push(format!("minCount {min} is above maxCount {max}"));
        }
    }
    let room = case.budget.as_ref().and_then(|b| b.max_beliefs);
    if let Some(room) = room.filter(|r| (*r.max(&0) as usize) < must.len()) {
        why.push(format!(
            "a budget of {room} beliefs holds fewer than its {} mustInclude",
            must.len()
        ));
    }
    if let Some((a, _)) = rb.ordered_before.iter().find(|(a, b)| a == b) {
        why.push(format!("orderedBefore puts {a:?} before itself"));
    }
    why
}

/// Beliefs a case requires that no context of its user can hold (a fourteenth audit): another
/// user's, a superseded or resolved one, an open question in the relevant tier (questions have
/// their own), and an unpinned one in the pinned tier.
fn unreachable(case: &StaticCase, corpus: &HashMap<&str, &Belief>) -> Vec<String> {
    let mut why = Vec::new();
    let user = case.user();
    let relevant = (case.expect.relevant_beliefs.iter()).flat_map(|rb| &rb.must_include);
    let pinned = (case.expect.pinned_facts.iter()).flat_map(|p| &p.must_include);
    for (tier, id) in relevant
        .map(|id| ("relevantBeliefs", id))
        .chain(pinned.map(|id| ("pinnedFacts", id)))
    {
        let Some(b) = corpus.get(id.as_str()) else {
            continue;
        };
        let reason = if b.user_id != user {
            Some(format!("user {}'s, and the case asks as {user}", b.user_id))
        } else if b.superseded_by.is_some() {
            Some("superseded".to_string())
        } else if b.resolved_at.is_some() {
            Some("resolved".to_string())
        } else if tier == "relevantBeliefs" && b.kind == BeliefType::OpenQuestion {
            Some("an open question, which comes in the questions tier".to_string())
        } else if tier == "pinnedFacts" && !b.pinned {
            Some("not pinned".to_string())
        } else {
            None
        };
        if let Some(reason) = reason {
            why.push(format!(
                "{tier}.mustInclude names {id:?}, which is {reason}"
            ));
        }
    }
    why
}
