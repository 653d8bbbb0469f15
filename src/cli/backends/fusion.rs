//! Flags of the fusion backends (`--backend rrf|combsum|fallback`): what they fuse and how
//! deep, shared by all three, and each method's own.

use super::BackendArg;
use crate::backend::fusion::{FusionConfig, Method};
use crate::backend::BackendConfig;
use crate::cli::args::{non_negative, non_negative_f32};
use crate::cli::remote::{HttpArgs, RemoteArgs};
use crate::{Error, Result};
use clap::Args;

/// Settings every fusion backend shares.
#[derive(Debug, Args)]
#[command(next_help_heading = "Fusion (--backend rrf|combsum|fallback)")]
pub(crate) struct FusionArgs {
    /// The backends a fusion fuses, in order.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "bm25,cosine")]
    pub fuse: Vec<BackendArg>,
    /// How many of each fused backend's hits are fused: one number for all, or one per `--fuse`
    /// backend (`100,3`: BM25's top 100 and cosine's top 3). Not given: each is searched to 100
    /// or the search limit, whichever is deeper, and fused whole.
    #[arg(long, value_delimiter = ',')]
    pub fusion_depth: Vec<usize>,
    /// Per `--fuse` backend, the lowest score fused (`0,0.6`: a cosine similarity floor of 0.6);
    /// none by default.
    #[arg(long, value_delimiter = ',', value_parser = non_negative_f32)]
    pub fusion_floor: Vec<f64>,
}

/// RRF's own setting (`--backend rrf`).
#[derive(Debug, Args)]
#[command(next_help_heading = "Fusion (--backend rrf|combsum|fallback)")]
pub(crate) struct RrfArgs {
    /// RRF's constant k.
    #[arg(long, default_value_t = 60.0, value_parser = non_negative)]
    pub rrf_k: f64,
}

/// CombSUM's own setting (`--backend combsum`).
#[derive(Debug, Args)]
#[command(next_help_heading = "Fusion (--backend rrf|combsum|fallback)")]
pub(crate) struct CombsumArgs {
    /// CombSUM's weight per fused backend (1 each by default).
    #[arg(long, value_delimiter = ',', value_parser = non_negative)]
    pub combsum_weights: Vec<f64>,
}

/// The fusion method `b` names, with these settings (`None`: not a fusion).
pub(crate) fn method(b: BackendArg, rrf: &RrfArgs, combsum: &CombsumArgs) -> Option<Method> {
    match b {
        BackendArg::Rrf => Some(Method::Rrf { k: rrf.rrf_k }),
        BackendArg::Combsum => Some(Method::CombSum {
            weights: combsum.combsum_weights.clone(),
        }),
        BackendArg::Fallback => Some(Method::Fallback),
        _ => None,
    }
}

impl FusionArgs {
    /// A usage error for settings that do not fit `children` fused backends: a list of other
    /// than one value per backend (one for all where that is said: `--fusion-depth`), and
    /// CombSUM weights that are all 0 (every fused score 0). An audit found extra weights
    /// ignored (yet naming the run) and one weight applied to the first backend only.
    pub(crate) fn check(&self, method: &Method, children: usize) -> crate::Result<()> {
        let weights = match method {
            Method::CombSum { weights } => weights.as_slice(),
            _ => &[],
        };
        for (what, n, one_for_all) in [
            ("--fusion-depth", self.fusion_depth.len(), 1),
            ("--fusion-floor", self.fusion_floor.len(), 0),
            ("--combsum-weights", weights.len(), 0),
        ] {
            if n > one_for_all && n != children {
                return Err(crate::Error::Usage(format!(
                    "{what} gives {n} values for {children} fused backends; expected one per \
                     --fuse backend"
                )));
            }
        }
        if !weights.is_empty() && weights.iter().all(|w| *w == 0.0) {
            return Err(crate::Error::Usage(
                "--combsum-weights are all 0: every fused score would be 0".into(),
            ));
        }
        if self.fusion_depth.contains(&0) {
            return Err(crate::Error::Usage(
                "--fusion-depth 0: a fused backend searched to depth 0 gives nothing to fuse"
                    .into(),
            ));
        }
        Ok(())
    }

    /// `children` fused by `method` with these depths and floors.
    pub(crate) fn config(&self, method: Method, children: Vec<BackendConfig>) -> BackendConfig {
        // One depth given is every child's: each is cut to it. Children are searched to at
        // least the search limit, so a single depth below it once named the run and cut nothing.
        let depths: Vec<usize> = match self.fusion_depth[..] {
            [one] => vec![one; children.len()],
            _ => self.fusion_depth.clone(),
        };
        // Not given: searched to 100 (or the limit) and fused uncut, as always.
        BackendConfig::Fusion(Box::new(FusionConfig {
            method,
            depth: depths.iter().copied().max().unwrap_or(100),
            children,
            child_depths: depths,
            floors: self.fusion_floor.iter().map(|f| *f as f32).collect(),
        }))
    }
}

/// The fusions `run` and `serve` build from the backend flags.
impl super::BackendFlags {
    /// The one backend `configs` holds; several (a model or a floor each) are refused, naming
    /// the flag that made them: where one is used, the others were dropped in silence (a
    /// fusion or `serve` took the first model or floor alone, a sixteenth audit).
    pub(crate) fn one(
        &self,
        mut configs: Vec<BackendConfig>,
        why: &str,
        instead: &str,
    ) -> Result<BackendConfig> {
        if configs.len() > 1 {
            let flag = if self.index.cosine_floor.len() > 1 {
                format!(
                    "--cosine-floor gives {} floors",
                    self.index.cosine_floor.len()
                )
            } else {
                format!("--model gives {} models", self.cosine.model.len())
            };
            return Err(Error::Usage(format!(
                "{flag}, and {why}: all but the first would be left out; give one ({instead})"
            )));
        }
        Ok(configs.remove(0))
    }

    /// The `--fuse` backends fused by `method`: one configuration per fused backend (one
    /// each: several models or floors are refused, [`Self::one`]).
    pub(super) fn fused(
        &self,
        method: Method,
        remote: &RemoteArgs,
        http: Option<&HttpArgs>,
    ) -> Result<BackendConfig> {
        let fuse = &self.fusion.fuse;
        if fuse.len() < 2 || fuse.iter().any(|f| f.is_fusion()) {
            return Err(Error::Usage(
                "--fuse names two or more of bm25, cosine, http (not another fusion)".into(),
            ));
        }
        let mut children = Vec::new();
        for f in fuse {
            let of_f = self.configs(&[*f], remote, http)?;
            children.push(self.one(
                of_f,
                &format!("a fusion fuses one {} run", f.name()),
                "a run per value; `models --fusion rrf` fuses each model and floor with BM25",
            )?);
        }
        self.fusion.check(&method, children.len())?;
        Ok(self.fusion.config(method, children))
    }
}
