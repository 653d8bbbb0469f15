//! Flags of the context scorers (`composite`, `spreading`, `recent`): every open parameter of
//! the context-scorer spec, its default documented here and in docs/scorer.md.

use super::args::non_negative;
use super::backends::CosineArgs;
use super::remote::RemoteArgs;
use clap::{Args, ValueEnum};
use tenure_eval::backend::composite::{
    CompositeConfig, ConfidenceSource, RelevanceMap, ScorerParams, VolatilityRates,
    PRIMACY_KEYWORDS,
};
use tenure_eval::backend::recent::RecentConfig;
use tenure_eval::backend::spreading::SpreadingConfig;
use tenure_eval::backend::{BackendConfig, Thresholds};
use tenure_eval::{Error, Result};

/// `--relevance` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RelevanceArg {
    /// max(0, cosine).
    Clip,
    /// (1 + cosine) / 2.
    Rescale,
}

/// `--confidence` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ConfidenceArg {
    /// The belief's numeric confidence, else its epistemic_status.
    Field,
    /// epistemic_status: active 1.0, inferred 0.8, exploratory 0.6.
    Status,
}

/// The context scorers' settings.
#[derive(Debug, Args)]
pub struct ScorerArgs {
    /// composite: the chapter 8 bitemporal modifications (valid-time recency and currency,
    /// the temporal-validity boost, forward-open never Forgotten).
    #[arg(long)]
    pub bitemporal: bool,
    /// composite, recent: recency decay rate λ in exp(−λ (1 − t/T)).
    #[arg(long, default_value_t = 0.5, value_parser = non_negative)]
    pub lambda: f64,
    /// composite, spreading: how a cosine becomes relevance.
    #[arg(long, value_enum, default_value = "clip")]
    pub relevance: RelevanceArg,
    /// composite: where confidence comes from.
    #[arg(long, value_enum, default_value = "field")]
    pub confidence: ConfidenceArg,
    /// composite: KDecay rates per hour of the volatility classes stable,slow,volatile
    /// (preference/decision/relation, entity, open_question).
    #[arg(long, value_delimiter = ',', default_value = "0,0.0001,0.001", value_parser = non_negative)]
    pub volatility_rates: Vec<f64>,
    /// composite, spreading: lowest scores of the Verbatim, Compressed and Archived tiers.
    #[arg(long, value_delimiter = ',', default_value = "0.75,0.40,0.10")]
    pub tier_thresholds: Vec<f64>,
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
    #[arg(long, default_value_t = 0.5)]
    pub revisit_threshold: f64,
    /// composite --bitemporal: a forward-open belief stated this many turns ago or more is
    /// established (+0.30), a younger one recent (+0.15).
    #[arg(long, default_value_t = 5)]
    pub established_after: u64,
    /// spreading: beliefs whose cosine reaches this are neighbours.
    #[arg(long, default_value_t = 0.6)]
    pub edge_threshold: f64,
    /// spreading: share of the neighbours' mean activation added.
    #[arg(long, default_value_t = 0.5, value_parser = non_negative)]
    pub spread_fraction: f64,
}

impl ScorerArgs {
    fn relevance(&self) -> RelevanceMap {
        match self.relevance {
            RelevanceArg::Clip => RelevanceMap::Clip,
            RelevanceArg::Rescale => RelevanceMap::Rescale,
        }
    }

    fn thresholds(&self) -> Result<Thresholds> {
        match self.tier_thresholds[..] {
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
                self.tier_thresholds
            ))),
        }
    }

    /// The composite scorer's parameters.
    pub fn params(&self) -> Result<ScorerParams> {
        let [stable, slow, volatile] = self.volatility_rates[..] else {
            return Err(Error::Usage(format!(
                "--volatility-rates takes three rates (stable,slow,volatile), got {:?}",
                self.volatility_rates
            )));
        };
        let keywords = if self.primacy_keywords.is_empty() {
            PRIMACY_KEYWORDS.iter().map(|k| k.to_string()).collect()
        } else {
            self.primacy_keywords
                .iter()
                .map(|k| k.trim().to_lowercase())
                .filter(|k| !k.is_empty())
                .collect()
        };
        Ok(ScorerParams {
            lambda: self.lambda,
            relevance: self.relevance(),
            confidence: match self.confidence {
                ConfidenceArg::Field => ConfidenceSource::Field,
                ConfidenceArg::Status => ConfidenceSource::Status,
            },
            rates: VolatilityRates {
                stable,
                slow,
                volatile,
            },
            thresholds: self.thresholds()?,
            clamp: self.clamp,
            primacy_keywords: keywords,
            revisit_rate: self.revisit_rate,
            revisit_cap: self.revisit_cap,
            revisit_threshold: self.revisit_threshold,
            bitemporal: self.bitemporal,
            established_after: self.established_after,
        })
    }

    /// One composite configuration per cosine model.
    pub fn composite(
        &self,
        cosine: &CosineArgs,
        remote: &RemoteArgs,
    ) -> Result<Vec<BackendConfig>> {
        let params = self.params()?;
        Ok(cosine
            .configs(remote)
            .into_iter()
            .map(|vectors| {
                BackendConfig::Composite(Box::new(CompositeConfig {
                    vectors,
                    params: params.clone(),
                }))
            })
            .collect())
    }

    /// One spreading configuration per cosine model.
    pub fn spreading(
        &self,
        cosine: &CosineArgs,
        remote: &RemoteArgs,
    ) -> Result<Vec<BackendConfig>> {
        let thresholds = self.thresholds()?;
        Ok(cosine
            .configs(remote)
            .into_iter()
            .map(|vectors| {
                BackendConfig::Spreading(Box::new(SpreadingConfig {
                    relevance: self.relevance(),
                    thresholds,
                    edge_threshold: self.edge_threshold,
                    fraction: self.spread_fraction,
                    ..SpreadingConfig::new(vectors)
                }))
            })
            .collect())
    }

    /// The recency baseline.
    pub fn recent(&self) -> BackendConfig {
        BackendConfig::Recent(RecentConfig {
            lambda: self.lambda,
        })
    }
}
