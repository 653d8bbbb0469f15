//! What a context scorer (the `composite`, `spreading` and `recent` backends) says about each
//! hit: every signal's value, `None` where the signal is off in this run, the multiplicative
//! product, the score and the tier (context-scorer spec §1-2). Reports write it as the hit's
//! `signals` object, so anyone can recompute the score: `score = product + primacy +
//! revisitation + temporalValidity + spread` (absent boosts count 0), clamped to [0, 1] when
//! the backend's settings say `clamp`.

use serde::{Deserialize, Serialize};

/// The tier vocabulary over the continuous score (spec §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// Below the archived threshold: discarded.
    Forgotten,
    /// Out of the context, back when its score rises.
    Archived,
    /// Kept, summarised.
    Compressed,
    /// Kept as is.
    Verbatim,
}

impl Tier {
    /// Does the context receive beliefs of this tier? Verbatim and Compressed only.
    pub(crate) fn in_context(self) -> bool {
        self >= Tier::Compressed
    }
}

/// Tier thresholds: the lowest score of each tier (spec §2 defaults 0.75 / 0.40 / 0.10).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Thresholds {
    /// Verbatim from here.
    pub verbatim: f64,
    /// Compressed from here.
    pub compressed: f64,
    /// Archived from here; Forgotten below.
    pub archived: f64,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            verbatim: 0.75,
            compressed: 0.40,
            archived: 0.10,
        }
    }
}

impl Thresholds {
    /// The tier of `score`; a boundary belongs to the higher tier.
    pub(crate) fn tier(&self, score: f64) -> Tier {
        if score >= self.verbatim {
            Tier::Verbatim
        } else if score >= self.compressed {
            Tier::Compressed
        } else if score >= self.archived {
            Tier::Archived
        } else {
            Tier::Forgotten
        }
    }
}

/// One hit's signals. Multiplicative signals make `product`; boosts are added after it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Signals {
    /// exp(−λ (1 − t/T)), or the bitemporal variant.
    pub recency: Option<f64>,
    /// The cosine with the query, clipped or rescaled to [0, 1].
    pub relevance: Option<f64>,
    /// The belief's confidence.
    pub confidence: Option<f64>,
    /// The volatility discount (KDecay).
    pub currency: Option<f64>,
    /// Additive primacy boost.
    pub primacy: Option<f64>,
    /// Additive revisitation boost.
    pub revisitation: Option<f64>,
    /// Additive TemporalValiditySignal (bitemporal only).
    pub temporal_validity: Option<f64>,
    /// Additive spreading term (spreading only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<f64>,
    /// Product of the multiplicative signals that are on.
    pub product: f64,
    /// The score the hit is ranked by.
    pub score: f64,
    /// Its tier; `None` for a scorer without tiers (`recent`).
    pub tier: Option<Tier>,
    /// The valid-time class that set `temporalValidity` (bitemporal only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_class: Option<String>,
}

impl Signals {
    /// `product` of the multiplicative signals that are on.
    pub(crate) fn multiply(&mut self) {
        self.product = [self.recency, self.relevance, self.confidence, self.currency]
            .into_iter()
            .flatten()
            .product();
    }

    /// `score` = product + the boosts that are on, clamped to [0, 1] if `clamp`.
    pub(crate) fn add_boosts(&mut self, clamp: bool) {
        let boosts: f64 = [
            self.primacy,
            self.revisitation,
            self.temporal_validity,
            self.spread,
        ]
        .into_iter()
        .flatten()
        .sum();
        let score = self.product + boosts;
        self.score = if clamp { score.clamp(0.0, 1.0) } else { score };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tier_boundaries_belong_to_the_higher_tier() {
        let t = Thresholds::default();
        assert_eq!(t.tier(1.0), Tier::Verbatim);
        assert_eq!(t.tier(0.75), Tier::Verbatim);
        assert_eq!(t.tier(0.7499), Tier::Compressed);
        assert_eq!(t.tier(0.40), Tier::Compressed);
        assert_eq!(t.tier(0.3999), Tier::Archived);
        assert_eq!(t.tier(0.10), Tier::Archived);
        assert_eq!(t.tier(0.0999), Tier::Forgotten);
        assert_eq!(t.tier(-0.2), Tier::Forgotten);
        assert!(Tier::Verbatim.in_context() && Tier::Compressed.in_context());
        assert!(!Tier::Archived.in_context() && !Tier::Forgotten.in_context());
    }

    #[test]
    fn score_is_the_product_plus_the_boosts_that_are_on() {
        let mut s = Signals {
            recency: Some(0.5),
            relevance: Some(0.8),
            confidence: Some(0.9),
            currency: None,
            primacy: Some(0.3),
            revisitation: None,
            temporal_validity: Some(-0.25),
            ..Signals::default()
        };
        s.multiply();
        assert!((s.product - 0.36).abs() < 1e-12);
        s.add_boosts(false);
        assert!((s.score - 0.41).abs() < 1e-12);
        // 0.36 + 0.30 + 0.15 + 0.30 = 1.11: 1.0 when clamped, as is when not.
        s.temporal_validity = Some(0.3);
        s.revisitation = Some(0.15);
        s.add_boosts(true);
        assert_eq!(s.score, 1.0);
        s.add_boosts(false);
        assert!((s.score - 1.11).abs() < 1e-12);
    }
}
