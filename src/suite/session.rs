//! Multi-turn session cases (spec §F.2, §I).
//!
//! Upstream ignores unknown assertion keys in session files, and the shipped files rely on it
//! (`topicRetrieval`, and a `pinnedFacts` wrongly nested inside `relevantBeliefs` on turn 10,
//! which is therefore never checked). They are kept here as `ignored` so that `validate` can
//! list them instead of dropping them silently.

use super::belief::Belief;
use serde::Deserialize;
use std::collections::BTreeMap;

/// One session case: turns run in order against one shared store.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionCase {
    /// Unique id.
    pub case_id: String,
    /// Human description.
    #[serde(default)]
    pub description: String,
    /// The turns, in file order.
    pub turns: Vec<Turn>,
    /// Free text.
    #[serde(default)]
    pub notes: Option<String>,
}

/// What a turn does to the conversation; copied into reports, no effect on retrieval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnLabel {
    /// First mention of a topic.
    EstablishesTopic,
    /// Moves to another topic.
    Drift,
    /// Continues a topic without naming it.
    ImplicitContinuation,
    /// Comes back to an earlier topic by name.
    ReEntry,
}

impl TurnLabel {
    /// The label as the case files and reports spell it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            TurnLabel::EstablishesTopic => "establishes_topic",
            TurnLabel::Drift => "drift",
            TurnLabel::ImplicitContinuation => "implicit_continuation",
            TurnLabel::ReEntry => "re_entry",
        }
    }
}

/// One user turn.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Turn {
    /// Position in the case; must increase.
    pub turn_index: i64,
    /// Role of the turn in the drift scenario.
    pub label: TurnLabel,
    /// Scope of the request.
    pub scope: Vec<String>,
    /// The message retrieval runs on.
    pub user_message: String,
    /// Not used by retrieval.
    #[serde(default)]
    pub assistant_message: Option<String>,
    /// Not used by retrieval.
    #[serde(default)]
    pub turn_signal: Option<String>,
    /// Not used by retrieval.
    #[serde(default)]
    pub topics: Vec<String>,
    /// Per-turn assertions.
    #[serde(default)]
    pub expect: TurnExpect,
    /// A belief inserted after this turn's retrieval.
    #[serde(default)]
    pub create_belief_at_turn: Option<Belief>,
    /// An alias/content update applied after this turn's retrieval (and after any create).
    #[serde(default)]
    pub update_belief_at_turn: Option<BeliefUpdate>,
}

/// `updateBeliefAtTurn`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BeliefUpdate {
    /// The belief to update; must exist by then.
    pub belief_id: String,
    /// Added with `$addToSet` after trim + lowercase.
    #[serde(default)]
    pub add_aliases: Vec<String>,
    /// `$set content` when given.
    #[serde(default)]
    pub set_content: Option<String>,
    /// `$set canonical_name` when given.
    #[serde(default)]
    pub set_canonical_name: Option<String>,
    /// Free text.
    #[serde(default, rename = "_note")]
    pub note: Option<String>,
}

/// Per-turn assertions.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnExpect {
    /// Relevant-tier checks.
    #[serde(default)]
    pub relevant_beliefs: Option<TurnRelevantExpect>,
    /// Pinned-tier checks.
    #[serde(default)]
    pub pinned_facts: Option<super::case::IdsExpect>,
    /// Questions-tier checks.
    #[serde(default)]
    pub open_questions: Option<super::case::IdsExpect>,
    /// Noise beliefs that must not surface.
    #[serde(default)]
    pub noise_check: Option<NoiseCheck>,
    /// Keys upstream ignores (kept to be reported, never evaluated).
    #[serde(flatten)]
    pub ignored: BTreeMap<String, serde_json::Value>,
}

/// `relevantBeliefs` of a turn.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnRelevantExpect {
    /// The relevant tier must be exactly this set; also the gold set of the metrics.
    #[serde(default)]
    pub should_only_include: Option<Vec<String>>,
    /// Must be in relevant ∪ pinned.
    #[serde(default)]
    pub must_include: Vec<String>,
    /// Must be in neither.
    #[serde(default)]
    pub must_exclude: Vec<String>,
    /// Keys upstream ignores (kept to be reported, never evaluated).
    #[serde(flatten)]
    pub ignored: BTreeMap<String, serde_json::Value>,
}

impl TurnRelevantExpect {
    /// No assertion: what an absent `relevantBeliefs` means.
    pub(crate) const NONE: TurnRelevantExpect = TurnRelevantExpect {
        should_only_include: None,
        must_include: Vec::new(),
        must_exclude: Vec::new(),
        ignored: BTreeMap::new(),
    };
}

/// `noiseCheck`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NoiseCheck {
    /// Ids counted as noise when they surface in relevant ∪ pinned.
    #[serde(default)]
    pub must_not_surface: Vec<String>,
}
