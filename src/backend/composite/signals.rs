//! The composite score's signals and boosts as pure functions (context-scorer spec §1), each
//! with known-answer tests. The mapping from a belief's fields to a segment's attributes that
//! feeds them is in [`super::segments`].

use super::config::{ConfidenceSource, RelevanceMap, VolatilityRates};
use crate::suite::{Belief, BeliefType};

/// The primacy boost (spec §1, **[given]**: +0.30, the forward-open boost's magnitude).
pub(crate) const PRIMACY_BOOST: f64 = 0.30;
/// Primacy applies in the first 15 % of the conversation (**[given]**).
pub(crate) const PRIMACY_WINDOW: f64 = 0.15;

/// Recency `exp(−λ (1 − t/T))`, `position` = t/T in [0, 1]: the newest belief scores 1.0.
pub(crate) fn recency(lambda: f64, position: f64) -> f64 {
    (-lambda * (1.0 - position.clamp(0.0, 1.0))).exp()
}

/// Relevance from a cosine.
pub(crate) fn relevance(cosine: f64, map: RelevanceMap) -> f64 {
    match map {
        RelevanceMap::Clip => cosine.clamp(0.0, 1.0),
        RelevanceMap::Rescale => ((1.0 + cosine) / 2.0).clamp(0.0, 1.0),
    }
}

/// Confidence of `belief` in [0, 1].
pub(crate) fn confidence(belief: &Belief, source: ConfidenceSource) -> f64 {
    let from_status = || match belief.epistemic_status.as_deref() {
        Some("inferred") => 0.8,
        Some("exploratory") => 0.6,
        _ => 1.0,
    };
    match (source, belief.confidence) {
        (ConfidenceSource::Field, Some(c)) => c.clamp(0.0, 1.0),
        _ => from_status(),
    }
}

/// Volatility classes (spec §1 **[open]**), by belief type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Volatility {
    /// Preferences, decisions, relations.
    Stable,
    /// Entities.
    Slow,
    /// Open questions.
    Volatile,
}

impl Volatility {
    /// The class of a belief type.
    pub(crate) fn of(kind: BeliefType) -> Volatility {
        match kind {
            BeliefType::Preference | BeliefType::Decision | BeliefType::Relation => {
                Volatility::Stable
            }
            BeliefType::Entity => Volatility::Slow,
            BeliefType::OpenQuestion => Volatility::Volatile,
        }
    }

    /// Its decay rate per hour.
    pub(crate) fn rate(self, rates: &VolatilityRates) -> f64 {
        match self {
            Volatility::Stable => rates.stable,
            Volatility::Slow => rates.slow,
            Volatility::Volatile => rates.volatile,
        }
    }
}

/// Currency (KDecay) `exp(−rate · age)`, age in hours (never negative).
pub(crate) fn currency(rate: f64, age_hours: f64) -> f64 {
    (-rate * age_hours.max(0.0)).exp()
}

/// Primacy: +0.30 for a belief in the first 15 % of the conversation that carries an
/// instruction keyword, else 0.
pub(crate) fn primacy(position: f64, instruction: bool) -> f64 {
    if instruction && position <= PRIMACY_WINDOW {
        PRIMACY_BOOST
    } else {
        0.0
    }
}

/// Revisitation: `rate` per earlier turn that revisited the topic, at most `cap`.
pub(crate) fn revisitation(revisits: usize, rate: f64, cap: f64) -> f64 {
    (revisits as f64 * rate).min(cap)
}

/// Does `text` contain one of `keywords` (lower case) as whole words?
pub(crate) fn has_keyword(text: &str, keywords: &[String]) -> bool {
    let text = text.to_lowercase();
    keywords.iter().any(|k| {
        text.match_indices(k.as_str()).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + k.len()..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            !word(before) && !word(after)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn recency_is_exp_of_minus_lambda_times_distance_from_now() {
        // t = T (now): 1.0 whatever λ; t = 0: exp(−λ); t/T = 0.5, λ = 2: exp(−1).
        assert_eq!(recency(0.5, 1.0), 1.0);
        assert!(close(recency(0.5, 0.0), (-0.5f64).exp()));
        assert!(close(recency(1.0, 0.0), 0.36787944117144233));
        assert!(close(recency(2.0, 0.5), 0.36787944117144233));
        assert_eq!(recency(0.0, 0.0), 1.0);
    }

    #[test]
    fn relevance_clips_or_rescales() {
        assert_eq!(relevance(-0.3, RelevanceMap::Clip), 0.0);
        assert_eq!(relevance(0.6, RelevanceMap::Clip), 0.6);
        assert!(close(relevance(-0.3, RelevanceMap::Rescale), 0.35));
        assert!(close(relevance(0.6, RelevanceMap::Rescale), 0.8));
    }

    #[test]
    fn confidence_is_the_field_else_the_status() {
        let mut b: Belief = serde_json::from_value(serde_json::json!({
            "_id": "b", "user_id": "u", "type": "entity", "canonical_name": "x",
            "epistemic_status": "exploratory", "confidence": 0.7,
        }))
        .unwrap();
        assert_eq!(confidence(&b, ConfidenceSource::Field), 0.7);
        assert_eq!(confidence(&b, ConfidenceSource::Status), 0.6);
        b.confidence = None;
        assert_eq!(confidence(&b, ConfidenceSource::Field), 0.6);
        b.epistemic_status = Some("inferred".into());
        assert_eq!(confidence(&b, ConfidenceSource::Status), 0.8);
        b.epistemic_status = None;
        assert_eq!(confidence(&b, ConfidenceSource::Status), 1.0);
    }

    #[test]
    fn currency_decays_by_class() {
        let rates = VolatilityRates::default();
        let month = 720.0;
        assert_eq!(currency(Volatility::Stable.rate(&rates), month), 1.0);
        assert!(close(
            currency(Volatility::Slow.rate(&rates), month),
            (-0.072f64).exp()
        ));
        assert!(close(
            currency(Volatility::Volatile.rate(&rates), month),
            (-0.72f64).exp()
        ));
        assert_eq!(currency(1.0, -5.0), 1.0);
        assert_eq!(Volatility::of(BeliefType::Entity), Volatility::Slow);
        assert_eq!(Volatility::of(BeliefType::Decision), Volatility::Stable);
        assert_eq!(
            Volatility::of(BeliefType::OpenQuestion),
            Volatility::Volatile
        );
    }

    #[test]
    fn primacy_needs_the_first_fifteen_percent_and_a_keyword() {
        assert_eq!(primacy(0.0, true), 0.30);
        assert_eq!(primacy(0.15, true), 0.30);
        assert_eq!(primacy(0.16, true), 0.0);
        assert_eq!(primacy(0.0, false), 0.0);
        let k: Vec<String> = ["always", "do not"].map(String::from).to_vec();
        assert!(has_keyword("We ALWAYS pin versions", &k));
        assert!(has_keyword("do not push to main", &k));
        assert!(!has_keyword("always_on flag", &k));
        assert!(!has_keyword("hallways", &k));
    }

    #[test]
    fn revisitation_grows_by_rate_up_to_the_cap() {
        assert_eq!(revisitation(0, 0.05, 0.15), 0.0);
        assert!(close(revisitation(2, 0.05, 0.15), 0.1));
        assert!(close(revisitation(9, 0.05, 0.15), 0.15));
    }
}
