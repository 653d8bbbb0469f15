//! The dissertation's CompositeScorer over the belief store (context-scorer spec §1-2, and §5
//! under `--bitemporal`).
//!
//! Each admitted belief is scored for the query: recency × relevance × confidence × currency,
//! then the additive primacy and revisitation boosts (and the TemporalValiditySignal under
//! `--bitemporal`). The score's tier decides what the context receives: the Verbatim and
//! Compressed beliefs, best first, cut lowest-first at the case's budget (the search limit).
//! Archived beliefs are not returned; they come back on a later query that scores them higher,
//! since every search scores the whole store afresh. Each hit carries its [`Signals`].
//!
//! Ties (equal float32 scores) go to corpus order, as every backend's do.

pub(crate) mod bitemporal;
mod config;
pub(crate) mod segments;
pub mod signals;

pub use config::{
    tier_list, CompositeConfig, ConfidenceSource, RelevanceMap, ScorerParams, VolatilityRates,
    PRIMACY_KEYWORDS,
};

use super::{
    Backend, BackendError, BackendInfo, Explanation, Hit, Reader, ScoreScale, SearchRequest,
    Signals, Workload,
};
use crate::error::Result;
use crate::suite::Belief;
use bitemporal::ValidClass;
use segments::{Segments, Vectors};
use serde_json::json;
use signals::Volatility;

/// The composite backend.
pub struct CompositeBackend {
    segments: Segments,
    params: ScorerParams,
    info: BackendInfo,
}

/// A scored version: (float32 score, slot, row, signals).
pub(crate) type Scored = (f32, usize, usize, Signals);

/// Best first; equal float32 scores in corpus order.
pub(crate) fn rank(scored: &mut [Scored]) {
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
}

/// Rank `scored` and keep the first `limit` as hits, each explained by its signals (`name`:
/// the scorer).
pub(crate) fn ranked_hits(
    segments: &Segments,
    mut scored: Vec<Scored>,
    limit: usize,
    name: &str,
) -> Vec<Hit> {
    rank(&mut scored);
    scored
        .into_iter()
        .take(limit)
        .map(|(score, _, row, s)| Hit {
            id: segments.versions[row].belief.id.clone(),
            score: Some(score),
            explanation: Some(Explanation::signals(s, name)),
        })
        .collect()
}

/// The backend info of a context scorer over `vectors` (`id` names it, `variant` a setting
/// that changes its file names, e.g. `bitemporal`). As cosine's, file names carry the model,
/// and the text policy only when it is not the profile's.
pub(crate) fn scorer_info(
    id: &str,
    vectors: Option<&Vectors>,
    variant: Option<&str>,
) -> BackendInfo {
    let model = vectors.map(Vectors::model);
    let policy = vectors.map(Vectors::policy);
    let mut prefix: Vec<String> = model.iter().cloned().collect();
    if let Some(v) = vectors.filter(|v| !v.default_policy) {
        prefix.push(v.policy().label());
    }
    prefix.extend(variant.map(str::to_string));
    let shown = match variant {
        Some(v) => format!("{id}+{v}"),
        None => id.to_string(),
    };
    BackendInfo {
        id: id.into(),
        provider: id.into(),
        label: match &model {
            Some(m) => format!("{shown}/{m}"),
            None => shown,
        },
        model,
        text_policy: policy.map(|p| p.label()),
        file_prefix: (!prefix.is_empty()).then(|| prefix.join(".")),
        paper_primary: false,
        reader: Reader::Text,
        score_scale: ScoreScale::ContextScore,
        // Each scorer says its own (backend::label).
        tag: None,
        upstream_exact: false,
    }
}

/// The model settings of a scorer with vectors, for the manifest.
pub(crate) fn vector_settings(vectors: &Vectors) -> serde_json::Value {
    let model = vectors.source().model();
    let store = vectors.source().summary();
    json!({
        "model": model.name,
        "store": store.origin,
        "storeSha256": store.fingerprint,
        "modelSha256": model.sha256,
        "dimensions": model.dimensions,
        "beliefText": vectors.policy().belief.name(),
        "queryText": vectors.policy().query.name(),
    })
}

impl CompositeBackend {
    /// Index `corpus` for `workload` with a prepared `config`.
    pub fn build(
        corpus: &[Belief],
        config: &CompositeConfig,
        workload: Workload,
    ) -> Result<CompositeBackend> {
        let (source, policy, default_policy) = config.vectors.vector_setup()?;
        let vectors = Vectors::new(source, policy, default_policy);
        let params = config.params.clone();
        let variant = params.bitemporal.then_some("bitemporal");
        let mut info = scorer_info("composite", Some(&vectors), variant);
        let mut settings = params.label_settings();
        settings.extend(config.vectors.embedding_label_settings());
        info.tag = super::label::tag(&settings, []);
        let mut segments = Segments::new(workload, Some(vectors), params.primacy_keywords.clone());
        for belief in corpus {
            segments
                .add(belief, false)
                .map_err(|e| crate::Error::backend("composite", e))?;
        }
        Ok(CompositeBackend {
            segments,
            params,
            info,
        })
    }

    /// The signals of version `row` for the unit query `q`, earlier turns' queries `earlier`.
    pub(crate) fn score(&self, row: usize, q: &[f32], earlier: &[(usize, Vec<f32>)]) -> Signals {
        let (p, segs) = (&self.params, &self.segments);
        let seg = &segs.versions[row];
        let vectors = segs.vectors.as_ref().expect("composite has vectors");
        let step = segs.step(row);
        let now = segs.now();
        let position = segs.position(step);
        let rate = Volatility::of(seg.belief.kind).rate(&p.rates);
        let mut s = Signals {
            relevance: Some(signals::relevance(vectors.cosine(row, q), p.relevance)),
            confidence: Some(signals::confidence(&seg.belief, p.confidence)),
            primacy: Some(signals::primacy(position, seg.instruction)),
            ..Signals::default()
        };
        if p.bitemporal {
            let class = seg.valid.class;
            let closure = match (class, seg.valid.closed_at) {
                (ValidClass::Closed, Some(t)) => segs.step_of_time(t),
                _ => step,
            };
            s.recency = Some(bitemporal::recency(
                class,
                p.lambda,
                position,
                segs.position(closure),
            ));
            s.currency = Some(match class {
                // Closed: the fastest rate from the closure on, whatever the type (§5).
                ValidClass::Closed => signals::currency(
                    p.rates.volatile,
                    segs.hours_since(seg.valid.closed_at.or(seg.belief.created_at)),
                ),
                _ => signals::currency(rate, segs.hours_since(seg.belief.created_at)),
            });
            s.temporal_validity = Some(bitemporal::validity_boost(
                class,
                now.saturating_sub(step),
                now.saturating_sub(closure),
                p.established_after,
            ));
            s.valid_class = Some(class.as_str().to_string());
        } else {
            s.recency = Some(signals::recency(p.lambda, position));
            s.currency = Some(signals::currency(
                rate,
                segs.hours_since(seg.belief.created_at),
            ));
        }
        if segs.workload == Workload::Session {
            let first = segs.first_turn(row);
            let revisits = earlier
                .iter()
                .filter(|(turn, qj)| {
                    *turn >= first && vectors.cosine(row, qj) >= p.revisit_threshold
                })
                .count();
            s.revisitation = Some(signals::revisitation(
                revisits,
                p.revisit_rate,
                p.revisit_cap,
            ));
        }
        s.multiply();
        s.add_boosts(p.clamp);
        let tier = p.thresholds.tier(s.score);
        s.tier = Some(if p.bitemporal {
            bitemporal::floor_tier(seg.valid.class, tier)
        } else {
            tier
        });
        s
    }
}

impl Backend for CompositeBackend {
    fn info(&self) -> &BackendInfo {
        &self.info
    }

    fn settings(&self) -> serde_json::Value {
        let vectors = self
            .segments
            .vectors
            .as_ref()
            .expect("composite has vectors");
        json!({
            "vectors": vector_settings(vectors),
            "params": self.params,
            "given": {
                "primacyBoost": signals::PRIMACY_BOOST,
                "primacyWindow": signals::PRIMACY_WINDOW,
                "closedRecentTurns": bitemporal::CLOSED_RECENT_TURNS,
                "closedHistoricalTurns": bitemporal::CLOSED_HISTORICAL_TURNS,
                "validityTable": "forward-open established +0.30, recent +0.15; current 0; closed recent 0, moderate -0.10, historical -0.25",
            },
            "clock": Segments::clock_settings(),
            "volatilityClasses": "stable: preference, decision, relation; slow: entity; volatile: open_question",
            "context": "Verbatim and Compressed beliefs, best first, cut at the budget",
            "score": "product + primacy + revisitation + temporalValidity",
            "ties": "natural order",
        })
    }

    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>, BackendError> {
        if request.text.is_empty() || request.limit == 0 {
            return Ok(Vec::new());
        }
        let vectors = self
            .segments
            .vectors
            .as_ref()
            .expect("composite has vectors");
        let q = vectors.query(request.text, request.message)?;
        let earlier = self.segments.remember(&q);
        let scored: Vec<Scored> = self
            .segments
            .admitted(&request.filter)
            .map(|row| {
                let s = self.score(row, &q, &earlier);
                (s.score as f32, self.segments.versions[row].slot, row, s)
            })
            .filter(|(_, _, _, s)| s.tier.is_some_and(super::Tier::in_context))
            .collect();
        Ok(ranked_hits(
            &self.segments,
            scored,
            request.limit,
            "composite",
        ))
    }

    fn insert(&mut self, belief: &Belief) -> Result<(), BackendError> {
        self.segments.add(belief, false)
    }

    fn replace(&mut self, belief: &Belief) -> Result<(), BackendError> {
        self.segments.add(belief, true)
    }

    fn at_turn(&mut self, turn: usize) {
        self.segments.at_turn(turn);
    }

    fn remembers_searches(&self) -> bool {
        true
    }
}
