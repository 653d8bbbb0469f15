//! The TemporalClassifier of the dissertation's bitemporal extension (spec context-scorer §5):
//! a statement's valid-time class from rule-based text markers, with explicit belief metadata
//! winning over the text (§5 "an explicit override from structured metadata that wins", §6).
//!
//! A low layer: it imports `suite` and `io` only, so backends can use it. The marker rules are
//! in `markers`; the per-class evaluation against a labelled corpus is the temporal study
//! ([`crate::study::temporal`]).

pub(crate) mod features;
mod lexicon;
mod markers;
mod model;

pub(crate) use model::{embedded_model, EmbeddedModel};
pub(crate) use model::{embedded_weights_sha256, weights_sha256};

use crate::suite::{Belief, BeliefType};
use serde::{Deserialize, Serialize};

/// The four valid-time classes (spec §5: forward commitments, open current state, bounded
/// historical facts, backward mutations).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TemporalClass {
    /// Valid from its turn onward: decisions, constraints, instructions, plans, standing choices.
    ForwardOpen,
    /// True now, with no commitment that it stays so: status, measurements, observations.
    CurrentState,
    /// A past state whose valid time has closed.
    Closed,
    /// A backward mutation: it closes (or rewrites) earlier content.
    Correction,
}

impl TemporalClass {
    /// Every class, in the order tables list them.
    pub(crate) const ALL: [TemporalClass; 4] = [
        TemporalClass::ForwardOpen,
        TemporalClass::CurrentState,
        TemporalClass::Closed,
        TemporalClass::Correction,
    ];

    /// The serde name (`forward_open`, ...).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            TemporalClass::ForwardOpen => "forward_open",
            TemporalClass::CurrentState => "current_state",
            TemporalClass::Closed => "closed",
            TemporalClass::Correction => "correction",
        }
    }
}

impl std::fmt::Display for TemporalClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What decided a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A belief field (`superseded_by`, `resolved_at`, `valid_to`, `type`, `subtype`).
    Metadata,
    /// A marker phrase in the text.
    Text,
    /// The learned model over the text's features.
    Model,
}

/// A statement's class and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Classification {
    /// The valid-time class.
    pub class: TemporalClass,
    /// `family:phrase` for a text marker (`constraint:always`, `correction:actually`), or
    /// `metadata:field` (`metadata:superseded_by`), or `model:FEATURE` for the learned model;
    /// `None` when the model decided with no feature weighing for its class.
    pub marker: Option<String>,
    /// Whether metadata, a text marker or the learned model decided.
    pub source: Source,
}

impl Classification {
    fn metadata(class: TemporalClass, field: &str) -> Classification {
        Classification {
            class,
            marker: Some(format!("metadata:{field}")),
            source: Source::Metadata,
        }
    }
}

/// The rules' tiers (1-based) whose markers decide a statement outright: correction, strong
/// forward, closed. A weaker marker, or none, leaves it to the learned model, which reads the
/// marker among its features. Chosen by cross-validation (docs/temporal.md, "The learned part").
const RULE_TIERS: std::ops::RangeInclusive<usize> = 1..=3;

/// One statement's class from its text (spec §5 marker classes, then a learned model): a
/// marker of the first three tiers decides (correction, strong forward, closed), except a
/// leading "No," (`denial`), which answers as often as it corrects; otherwise the learned
/// model over [`features`] decides, and its marker is `model:FEATURE`, the feature that
/// weighed most for the class. See `docs/temporal.md`.
pub(crate) fn classify_text(text: &str) -> Classification {
    classify(text, None)
}

/// [`classify_text`] with the embedded model deciding where the rules leave it open: its
/// buckets and the statement's sentence `embedding`, of [`embedded_model`] (the caller embeds
/// with it; docs/temporal.md, "The fourth attempt").
pub(crate) fn classify_text_embedded(text: &str, embedding: &[f32]) -> Classification {
    classify(text, Some(embedding))
}

fn classify(text: &str, embedding: Option<&[f32]>) -> Classification {
    if let Some(m) = markers::find_marker(text) {
        if RULE_TIERS.contains(&(m.tier + 1)) && m.family != "denial" {
            return Classification {
                class: m.class,
                marker: Some(format!("{}:{}", m.family, m.phrase)),
                source: Source::Text,
            };
        }
    }
    let words = features::features(text);
    let (class, top) = match embedding {
        Some(e) => model::predict_embedded(&words, e),
        None => model::predict(&words),
    };
    Classification {
        class,
        marker: top.map(|f| format!("model:{f}")),
        source: Source::Model,
    }
}

/// A belief's class: explicit metadata wins, the text (`content`, else the canonical name)
/// otherwise. Metadata, in this order (spec §6):
/// - `superseded_by` set -> closed (its valid time closed when its successor was created);
/// - `resolved_at` set -> closed (a resolved open question);
/// - `valid_to` set -> closed (an explicit bound);
/// - `type: decision`, or `subtype: constraint` (the suites' type vocabulary has no
///   `constraint` type) -> forward-open.
///
/// A preference, an entity or a belief with only `valid_from` is classified by its text.
pub fn classify_belief(belief: &Belief) -> Classification {
    if belief.superseded_by.is_some() {
        return Classification::metadata(TemporalClass::Closed, "superseded_by");
    }
    if belief.resolved_at.is_some() {
        return Classification::metadata(TemporalClass::Closed, "resolved_at");
    }
    if belief.valid_to.is_some() {
        return Classification::metadata(TemporalClass::Closed, "valid_to");
    }
    if belief.kind == BeliefType::Decision {
        return Classification::metadata(TemporalClass::ForwardOpen, "type=decision");
    }
    if belief.subtype.as_deref() == Some("constraint") {
        return Classification::metadata(TemporalClass::ForwardOpen, "subtype=constraint");
    }
    if belief.content.trim().is_empty() {
        classify_text(&belief.canonical_name.replace('_', " "))
    } else {
        classify_text(&belief.content)
    }
}

#[cfg(test)]
mod tests;
