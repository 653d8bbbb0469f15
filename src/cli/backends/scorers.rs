//! Flags of the context scorers (`composite`, `spreading`, `recent`): every open parameter of
//! the context-scorer spec, its default documented here and in docs/scorer.md.

use crate::backend::composite::{
    ConfidenceSource, RelevanceMap, ScorerParams, VolatilityRates, PRIMACY_KEYWORDS,
};
use crate::backend::recent::RecentConfig;
use crate::backend::{BackendConfig, Thresholds};
use crate::cli::args::non_negative;
use crate::{Error, Result};
use clap::{Args, ValueEnum};

/// `--relevance` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum RelevanceArg {
    /// max(0, cosine).
    Clip,
    /// (1 + cosine) / 2.
    Rescale,
}

/// `--confidence` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ConfidenceArg {
    /// The belief's numeric confidence, else its epistemic_status.
    Field,
    /// epistemic_status: active 1.0, inferred 0.8, exploratory 0.6.
    Status,
}

/// The composite scorer's own settings (`--backend composite`).
#[derive(Debug, Args)]
#[command(next_help_heading = "Context scorers (--backend composite|spreading|recent)")]
pub(crate) struct CompositeArgs {
    /// the temporal-validity boost, forward-open never Forgotten).
    #[arg(long)]
    pub bitemporal: bool,
    /// composite: where confidence comes from.
    #[arg(long, value_enum, default_value = "field")]
    pub confidence: ConfidenceArg,
    /// composite: KDecay rates per hour of the volatility classes stable,slow,volatile
    /// (preference/decision/relation, entity, open_question).
    #[arg(long, value_delimiter = ',', default_value = "0,0.0001,0.001", value_parser = non_negative)]
    pub volatility_rates: Vec<f64>,
    /// composite: clamp the score to [0, 1].
    #[arg(long)]
    pub clamp: bool,
    /// composite: the instruction keywords of the primacy boost (default: a built-in list of
    /// 15, see docs/scorer.md).
    #[arg(long, value_delimiter = ',')]
    pub primacy_keywords: Vec<String>,
    /// composite: revisitation boost per earlier turn that came back to a belief's topic.
    #[arg(long, default_value_t = 0.05, value_parser = non_negative)]
    pub revisit_rate: f64,
    /// composite: revisitation cap.
    #[arg(long, default_value_t = 0.15, value_parser = non_negative)]
    pub revisit_cap: f64,
    /// composite: an earlier turn revisits a belief when its query's cosine reaches this.
    #[arg(long, default_value_t = 0.5, value_parser = crate::cli::args::cosine)]
    pub revisit_threshold: f64,
}

/// The bitemporal extension's settings (`--backend composite --bitemporal`).
#[derive(Debug, Args)]
#[command(next_help_heading = "Context scorers (--backend composite|spreading|recent)")]
pub(crate) struct BitemporalArgs {
    /// composite --bitemporal: a forward-open belief stated this many turns ago or more is
    /// established (+0.30), a younger one recent (+0.15).
    #[arg(long, default_value_t = 5)]
    pub established_after: u64,
}

/// Recency, shared by the composite scorer and the recency baseline.
#[derive(Debug, Args)]
#[command(next_help_heading = "Context scorers (--backend composite|spreading|recent)")]
pub(crate) struct RecencyArgs {
    /// composite, recent: recency decay rate λ in exp(−λ (1 − t/T)).
    #[arg(long, default_value_t = 0.5, value_parser = non_negative)]
    pub lambda: f64,
}

/// Relevance and tiers, shared by the composite and spreading scorers.
#[derive(Debug, Args)]
#[command(next_help_heading = "Context scorers (--backend composite|spreading|recent)")]
pub(crate) struct TierArgs {
    /// composite, spreading: how a cosine becomes relevance.
    #[arg(long, value_enum, default_value = "clip")]
    pub relevance: RelevanceArg,
    /// composite, spreading: lowest scores of the Verbatim, Compressed and Archived tiers.
    #[arg(long, value_delimiter = ',', default_value = "0.75,0.40,0.10")]
    pub tier_thresholds: Vec<f64>,
}

/// Spreading activation's own settings (`--backend spreading`).
#[derive(Debug, Args)]
#[command(next_help_heading = "Context scorers (--backend composite|spreading|recent)")]
pub(crate) struct SpreadingArgs {
    /// spreading: beliefs whose cosine reaches this are neighbours.
    #[arg(long, default_value_t = 0.6, value_parser = crate::cli::args::cosine)]
    pub edge_threshold: f64,
    /// spreading: share of the neighbours' mean activation added.
    #[arg(long, default_value_t = 0.5, value_parser = non_negative)]
    pub spread_fraction: f64,
}

/// The context scorers' settings, each group applying to the scorers it names.
#[derive(Debug, Args)]
pub(crate) struct ScorerArgs {
    /// The composite scorer's.
    #[command(flatten)]
    pub composite: CompositeArgs,
    /// The bitemporal extension's.
    #[command(flatten)]
    pub bitemporal: BitemporalArgs,
    /// Recency.
    #[command(flatten)]
    pub recency: RecencyArgs,
    /// Relevance and tiers.
    #[command(flatten)]
    pub tiers: TierArgs,
    /// Spreading activation's.
    #[command(flatten)]
    pub spreading: SpreadingArgs,
}

impl ScorerArgs {
    /// How a cosine becomes relevance.
    pub(crate) fn relevance(&self) -> RelevanceMap {
        match self.tiers.relevance {
            RelevanceArg::Clip => RelevanceMap::Clip,
            RelevanceArg::Rescale => RelevanceMap::Rescale,
        }
    }

    /// The tiers' lowest scores, checked.
    pub(crate) fn thresholds(&self) -> Result<Thresholds> {
        match self.tiers.tier_thresholds[..] {
            [verbatim, compressed, archived]
                if verbatim >= compressed && compressed >= archived =>
            {
                Ok(Thresholds {
                    verbatim,
                    compressed,
                    archived,
                })
            }
            _ => Err(Error::Usage(format!(
                "--tier-thresholds takes three decreasing numbers (verbatim,compressed,archived), \
                 got {:?}",
                self.tiers.tier_thresholds
            ))),
        }
    }

    /// The composite scorer's parameters.
    pub(crate) fn params(&self) -> Result<ScorerParams> {
        let [stable, slow, volatile] = self.composite.volatility_rates[..] else {
            return Err(Error::Usage(format!(
                "--volatility-rates takes three rates (stable,slow,volatile), got {:?}",
                self.composite.volatility_rates
            )));
        };
        let keywords = if self.composite.primacy_keywords.is_empty() {
            PRIMACY_KEYWORDS.iter().map(|k| k.to_string()).collect()
        } else {
            self.composite
                .primacy_keywords
                .iter()
                .map(|k| k.trim().to_lowercase())
                .filter(|k| !k.is_empty())
                .collect()
        };
        Ok(ScorerParams {
            lambda: self.recency.lambda,
            relevance: self.relevance(),
            confidence: match self.composite.confidence {
                ConfidenceArg::Field => ConfidenceSource::Field,
                ConfidenceArg::Status => ConfidenceSource::Status,
            },
            rates: VolatilityRates {
                stable,
                slow,
                volatile,
            },
            thresholds: self.thresholds()?,
            clamp: self.composite.clamp,
            primacy_keywords: keywords,
            revisit_rate: self.composite.revisit_rate,
            revisit_cap: self.composite.revisit_cap,
            revisit_threshold: self.composite.revisit_threshold,
            bitemporal: self.composite.bitemporal,
            established_after: self.bitemporal.established_after,
        })
    }

    /// The recency baseline.
    pub(crate) fn recent(&self) -> BackendConfig {
        BackendConfig::Recent(RecentConfig {
            lambda: self.recency.lambda,
        })
    }
}
