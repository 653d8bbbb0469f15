//! What a simulated user does, written out: the [`Trace`] the generative model of
//! [`super::user`] produces and [`super::simulate`] replays, and the draws both use.

use crate::suite::synthetic::Rng;
use crate::suite::{Belief, BeliefType, DEFAULT_USER};

/// What the store sees change at the start of a session.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A new belief, seeded.
    Create(Belief),
    /// `old` is superseded by the new belief `new` (seeded).
    Supersede {
        /// The belief left behind.
        old: String,
        /// Its replacement.
        new: Belief,
    },
    /// `absorbed` merges into `survivor`.
    Merge {
        /// The belief kept.
        survivor: String,
        /// The belief merged away.
        absorbed: String,
    },
}

/// Why a reference uses the form it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefKind {
    /// One of the belief's own forms.
    Plain,
    /// A form of the tool the belief replaced (counter-signals decide it).
    OldForm,
    /// A form of a belief merged into this one (compaction decides it).
    Merged,
}

/// One message of the user about one belief.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// The belief meant.
    pub gold: String,
    /// The surface forms the message uses for it (one or two).
    pub forms: Vec<String>,
    /// The message.
    pub message: String,
    /// Would the user clarify, should it miss?
    pub clarified: bool,
    /// Where the form comes from.
    pub kind: RefKind,
}

/// One session: events first, then references.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SessionPlan {
    /// Store changes at the session's start.
    pub events: Vec<Event>,
    /// The messages, in order.
    pub references: Vec<Reference>,
}

/// The whole simulated history of one user.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// The store before the first session (seeded beliefs).
    pub initial: Vec<Belief>,
    /// Session by session.
    pub sessions: Vec<SessionPlan>,
}

pub(super) const FRAMES: [&str; 5] = [
    "what did we decide about the {}",
    "remind me how the {} is set up",
    "is the {} still the plan",
    "can you check the {} again",
    "any news on the {}",
];
pub(super) const TWO_FORM_FRAMES: [&str; 2] = [
    "the {}, I mean the {}, is it still fine",
    "can you check the {} again, the {} I mean",
];

/// A uniform draw in [0, 1).
pub(crate) fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// An index drawn with probability proportional to `weights` (all 0: the first).
pub(super) fn weighted(rng: &mut Rng, weights: impl Iterator<Item = f64> + Clone) -> usize {
    let total: f64 = weights.clone().sum();
    let mut x = unit(rng) * total;
    let mut last = 0;
    for (i, w) in weights.enumerate() {
        if x < w {
            return i;
        }
        x -= w;
        last = i;
    }
    last
}

/// A belief of the user's (an entity in `domain:code`) with `aliases`, no content.
pub fn belief(id: &str, name: &str, aliases: &[&str]) -> Belief {
    Belief {
        aliases: aliases.iter().map(|a| a.to_string()).collect(),
        scope: vec!["domain:code".into()],
        ..Belief::new(
            id.into(),
            DEFAULT_USER.into(),
            BeliefType::Entity,
            name.into(),
        )
    }
}
