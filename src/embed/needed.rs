//! Every text a cosine run of a suite embeds, known before the run starts: the seed beliefs,
//! each belief version a session creates or updates, and each static and session query. Knowing
//! them up front lets a run embed what is missing in one batch, or fail before any work with
//! the exact count of missing vectors.

use super::{Role, TextPolicy};
use crate::store::BeliefStore;
use crate::suite::Suite;

/// One text to embed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NeededText {
    /// Belief or query.
    pub role: Role,
    /// The exact text.
    pub text: String,
}

/// The texts a static and session run of `suite` needs under `policy`, without duplicates, in
/// first-use order.
pub fn needed_texts(suite: &Suite, policy: TextPolicy) -> Vec<NeededText> {
    let mut out: Vec<NeededText> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |role: Role, text: String| {
        if seen.insert((role, text.clone())) {
            out.push(NeededText { role, text });
        }
    };
    for belief in &suite.corpus {
        push(Role::Belief, policy.belief.of(belief));
    }
    for case in &suite.cases {
        push(Role::Query, policy.query.of(&case.query, suite.profile));
    }
    // Replay the session mutations on a scratch store to learn each new version's text.
    let mut store = BeliefStore::new(&suite.corpus);
    for case in &suite.sessions {
        for turn in &case.turns {
            push(
                Role::Query,
                policy.query.of(&turn.user_message, suite.profile),
            );
            if let Some(created) = &turn.create_belief_at_turn {
                store.insert(created.clone());
                push(Role::Belief, policy.belief.of(created));
            }
            if let Some(update) = &turn.update_belief_at_turn {
                if let Some(v) = store.set_fields(update) {
                    push(Role::Belief, policy.belief.of(v));
                }
                if let Some(v) = store.add_aliases(update) {
                    push(Role::Belief, policy.belief.of(v));
                }
            }
        }
    }
    out
}
