//! The context scorers' parameters: every **\[open\]** choice of the context-scorer spec with its
//! default, each one a flag (`src/cli/backends/scorers.rs`) and a line of the manifest
//! (`backendSettings`). The **[given]** values (primacy +0.30 over the first 15 %, the
//! temporal-validity table, the tier thresholds' defaults) are constants here or in
//! [`super::signals`], recorded in the manifest too.

use crate::backend::cosine::CosineConfig;
use crate::backend::label::Setting;
use crate::backend::Thresholds;
use serde::{Deserialize, Serialize};

/// How a cosine in [−1, 1] becomes the relevance signal in [0, 1] (spec §1: **\[open\]**).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RelevanceMap {
    /// max(0, cos): an unrelated belief contributes nothing (default).
    #[default]
    Clip,
    /// (1 + cos) / 2, Atlas's vector score: an unrelated belief keeps about half.
    Rescale,
}

impl RelevanceMap {
    /// `clip` or `rescale`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            RelevanceMap::Clip => "clip",
            RelevanceMap::Rescale => "rescale",
        }
    }
}

/// Tier thresholds as a label lists them: verbatim, compressed, archived.
pub fn tier_list(t: &Thresholds) -> [f64; 3] {
    [t.verbatim, t.compressed, t.archived]
}

/// Where the confidence signal comes from (spec §1, §6: **\[open\]**).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConfidenceSource {
    /// The belief's numeric `confidence`, else its `epistemic_status` (default).
    #[default]
    Field,
    /// `epistemic_status` only: active 1.0, inferred 0.8, exploratory 0.6, anything else 1.0.
    Status,
}

/// KDecay rates per volatility class, per hour of age (spec §1: classes and rates **\[open\]**).
/// Classes by belief type: preferences, decisions and relations are `stable`, entities `slow`,
/// open questions `volatile`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VolatilityRates {
    /// How the user works, what was decided: no decay by default.
    pub stable: f64,
    /// Things (tools, systems): 0.0001 / h, 0.93 after a month.
    pub slow: f64,
    /// Open questions: 0.001 / h, 0.49 after a month. Also the rate a closed belief's currency
    /// falls at after its closure under `--bitemporal` (spec §5).
    pub volatile: f64,
}

impl Default for VolatilityRates {
    fn default() -> VolatilityRates {
        VolatilityRates {
            stable: 0.0,
            slow: 0.0001,
            volatile: 0.001,
        }
    }
}

/// The instruction-class keywords of the primacy boost (spec §1: list **\[open\]**), matched as
/// whole words or phrases, case-insensitively, in the belief's canonical name, aliases, content
/// and why_it_matters.
pub const PRIMACY_KEYWORDS: &[&str] = &[
    "always",
    "never",
    "must",
    "do not",
    "don't",
    "from now on",
    "going forward",
    "make sure",
    "rule",
    "require",
    "required",
    "requirement",
    "prefer",
    "prefers",
    "instead of",
];

/// Parameters shared by the context scorers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ScorerParams {
    /// Recency decay rate λ in exp(−λ (1 − t/T)) (**\[open\]**; default 0.5: the oldest belief
    /// keeps 0.61).
    pub lambda: f64,
    /// Relevance from cosine.
    pub relevance: RelevanceMap,
    /// Confidence source.
    pub confidence: ConfidenceSource,
    /// KDecay rates.
    pub rates: VolatilityRates,
    /// Tier thresholds.
    pub thresholds: Thresholds,
    /// Clamp the score to [0, 1] (**\[open\]**; default off: boosted beliefs would all tie at
    /// 1.0 and fall back on corpus order, and a score above 1 is in the Verbatim tier anyway).
    pub clamp: bool,
    /// Primacy keywords (lower case).
    pub primacy_keywords: Vec<String>,
    /// Revisitation boost per earlier turn that came back to the belief's topic (**\[open\]**).
    pub revisit_rate: f64,
    /// Revisitation cap (**\[open\]**).
    pub revisit_cap: f64,
    /// An earlier turn revisits a belief when its query's cosine with the belief reaches this.
    pub revisit_threshold: f64,
    /// The chapter 8 modifications (`--bitemporal`).
    pub bitemporal: bool,
    /// Bitemporal: a forward-open belief stated at least this many turns ago is "established"
    /// (+0.30), a younger one "recent" (+0.15) (**\[open\]**).
    pub established_after: u64,
}

impl Default for ScorerParams {
    fn default() -> ScorerParams {
        ScorerParams {
            lambda: 0.5,
            relevance: RelevanceMap::Clip,
            confidence: ConfidenceSource::Field,
            rates: VolatilityRates::default(),
            thresholds: Thresholds::default(),
            clamp: false,
            primacy_keywords: PRIMACY_KEYWORDS.iter().map(|k| k.to_string()).collect(),
            revisit_rate: 0.05,
            revisit_cap: 0.15,
            revisit_threshold: 0.5,
            bitemporal: false,
            established_after: 5,
        }
    }
}

impl ScorerParams {
    /// Its result-changing settings, in tag order (`backend::label`): `l` (λ), `rescale`,
    /// `status`, `rates`, `tiers`, `clamp`, `kw` (a hash of the keyword list), `rr`, `rc`,
    /// `rt` (revisitation rate, cap, threshold), `est`. `--bitemporal` is in the label already.
    pub(crate) fn label_settings(&self) -> Vec<Setting> {
        let d = ScorerParams::default();
        let rates = |r: &VolatilityRates| [r.stable, r.slow, r.volatile];
        vec![
            Setting::new("l", self.lambda, d.lambda),
            Setting::choice(self.relevance.name(), "clip"),
            Setting::choice(
                match self.confidence {
                    ConfidenceSource::Field => "field",
                    ConfidenceSource::Status => "status",
                },
                "field",
            ),
            Setting::list("rates", &rates(&self.rates)[..], &rates(&d.rates)),
            Setting::list(
                "tiers",
                &tier_list(&self.thresholds)[..],
                &tier_list(&d.thresholds),
            ),
            Setting::switch("clamp", self.clamp),
            Setting::text(
                "kw",
                &self.primacy_keywords.join(","),
                &d.primacy_keywords.join(","),
            ),
            Setting::new("rr", self.revisit_rate, d.revisit_rate),
            Setting::new("rc", self.revisit_cap, d.revisit_cap),
            Setting::new("rt", self.revisit_threshold, d.revisit_threshold),
            Setting::new("est", self.established_after, d.established_after),
        ]
    }
}

/// The composite backend: a cosine model for relevance, and the scorer's parameters.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompositeConfig {
    /// The embedding model and text policy of relevance (as the cosine backend's).
    pub vectors: CosineConfig,
    /// The parameters.
    #[serde(default)]
    pub params: ScorerParams,
}

impl CompositeConfig {
    /// `vectors` with the default parameters.
    pub fn new(vectors: CosineConfig) -> CompositeConfig {
        CompositeConfig {
            vectors,
            params: ScorerParams::default(),
        }
    }
}
