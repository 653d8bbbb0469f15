//! The chapter 8 modifications of `--bitemporal` (context-scorer spec §5): recency and
//! currency from valid time, the TemporalValiditySignal table, and the rule that a
//! forward-open belief is never Forgotten. A belief's valid-time class comes from explicit
//! metadata when present and from the TemporalClassifier otherwise (see [`ValidTime::of`]).

use crate::backend::Tier;

/// A belief's valid-time class: the TemporalClassifier's classes.
pub(crate) use crate::temporal::TemporalClass as ValidClass;

/// A closed belief within this many turns of its closure is "recent" (spec §5 table).
pub(crate) const CLOSED_RECENT_TURNS: u64 = 5;
/// A closed belief more than this many turns after its closure is "historical".
pub(crate) const CLOSED_HISTORICAL_TURNS: u64 = 20;

/// The TemporalValiditySignal (spec §5 table, **[given]**). `since_statement`: turns since the
/// belief was stated; `since_closure`: turns since its valid time closed.
pub(crate) fn validity_boost(
    class: ValidClass,
    since_statement: u64,
    since_closure: u64,
    established_after: u64,
) -> f64 {
    match class {
        ValidClass::ForwardOpen if since_statement >= established_after => 0.30,
        ValidClass::ForwardOpen => 0.15,
        ValidClass::CurrentState | ValidClass::Correction => 0.0,
        ValidClass::Closed if since_closure <= CLOSED_RECENT_TURNS => 0.0,
        ValidClass::Closed if since_closure <= CLOSED_HISTORICAL_TURNS => -0.10,
        ValidClass::Closed => -0.25,
    }
}

/// Bitemporal recency (spec §5): forward-open 1.0 (no positional decay); open beliefs the
/// normal `exp(−λ (1 − t/T))`; closed beliefs the same counted from the moment of closure
/// (`closure_position` = t_close / T).
pub(crate) fn recency(class: ValidClass, lambda: f64, position: f64, closure_position: f64) -> f64 {
    match class {
        ValidClass::ForwardOpen => 1.0,
        ValidClass::CurrentState | ValidClass::Correction => {
            super::signals::recency(lambda, position)
        }
        ValidClass::Closed => super::signals::recency(lambda, closure_position),
    }
}

/// Hard rule (spec §5): a forward-open belief is never Forgotten.
pub(crate) fn floor_tier(class: ValidClass, tier: Tier) -> Tier {
    if class == ValidClass::ForwardOpen {
        tier.max(Tier::Archived)
    } else {
        tier
    }
}

/// A belief's valid time, as the scorer reads it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ValidTime {
    /// The class.
    pub class: ValidClass,
    /// When it closed (Unix ms), for a closed belief with an explicit bound; otherwise a closed
    /// belief closed when it was stated (a past description, spec §5).
    pub closed_at: Option<i64>,
}

impl ValidTime {
    /// The valid time of `belief`: explicit metadata wins (`superseded_by`, `resolved_at`,
    /// `valid_to`, decision and constraint types), the TemporalClassifier's text markers
    /// otherwise (`crate::temporal::classify_belief`). A closed belief closed at its
    /// `valid_to`, else its `resolved_at`, else when it was stated (a past description).
    pub(crate) fn of(belief: &crate::suite::Belief) -> ValidTime {
        let class = crate::temporal::classify_belief(belief).class;
        ValidTime {
            class,
            closed_at: match class {
                ValidClass::Closed => belief.valid_to.or(belief.resolved_at),
                _ => None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_validity_table_row_by_row() {
        let row = |c, stated, closed| validity_boost(c, stated, closed, 5);
        // forward-open, established / recent
        assert_eq!(row(ValidClass::ForwardOpen, 5, 0), 0.30);
        assert_eq!(row(ValidClass::ForwardOpen, 40, 0), 0.30);
        assert_eq!(row(ValidClass::ForwardOpen, 4, 0), 0.15);
        // current-state, open (and a correction, which is one)
        assert_eq!(row(ValidClass::CurrentState, 30, 0), 0.0);
        assert_eq!(row(ValidClass::Correction, 30, 0), 0.0);
        // closed: recent (within 5 turns), moderate (5-20), historical (over 20)
        assert_eq!(row(ValidClass::Closed, 30, 0), 0.0);
        assert_eq!(row(ValidClass::Closed, 30, 5), 0.0);
        assert_eq!(row(ValidClass::Closed, 30, 6), -0.10);
        assert_eq!(row(ValidClass::Closed, 30, 20), -0.10);
        assert_eq!(row(ValidClass::Closed, 30, 21), -0.25);
    }

    #[test]
    fn recency_from_valid_time() {
        assert_eq!(recency(ValidClass::ForwardOpen, 2.0, 0.0, 0.0), 1.0);
        let normal = super::super::signals::recency(1.0, 0.25);
        assert_eq!(recency(ValidClass::CurrentState, 1.0, 0.25, 0.9), normal);
        assert_eq!(recency(ValidClass::Closed, 1.0, 0.25, 0.5), (-0.5f64).exp());
    }

    #[test]
    fn valid_time_comes_from_metadata_then_the_classifier() {
        let belief = |extra: serde_json::Value| -> crate::suite::Belief {
            let mut v = serde_json::json!({
                "_id": "b", "user_id": "u", "type": "entity", "canonical_name": "ci",
                "content": "CI runs on GitHub Actions.",
            });
            v.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            serde_json::from_value(v).unwrap()
        };
        let of = |extra| ValidTime::of(&belief(extra));
        assert_eq!(of(serde_json::json!({})).class, ValidClass::CurrentState);
        assert_eq!(
            of(serde_json::json!({"type": "decision"})).class,
            ValidClass::ForwardOpen
        );
        let bounded = of(serde_json::json!({"valid_to": "2026-09-15T00:00:00Z"}));
        assert_eq!(bounded.class, ValidClass::Closed);
        assert_eq!(bounded.closed_at, Some(1_789_430_400_000));
        let past = of(serde_json::json!({"content": "We used to deploy on Heroku."}));
        assert_eq!((past.class, past.closed_at), (ValidClass::Closed, None));
    }

    #[test]
    fn forward_open_is_never_forgotten() {
        assert_eq!(
            floor_tier(ValidClass::ForwardOpen, Tier::Forgotten),
            Tier::Archived
        );
        assert_eq!(
            floor_tier(ValidClass::ForwardOpen, Tier::Verbatim),
            Tier::Verbatim
        );
        assert_eq!(
            floor_tier(ValidClass::Closed, Tier::Forgotten),
            Tier::Forgotten
        );
        assert_eq!(
            floor_tier(ValidClass::CurrentState, Tier::Forgotten),
            Tier::Forgotten
        );
    }
}
