//! The built-in backends' flags as one group ([`BackendFlags`]), flattened once by every
//! command that builds backends (`run`, `static`, `session`, `serve`, `models`), and the one
//! place those flags become [`BackendConfig`]s.
//!
//! Which flag applies to which backend is not a table of names: each flag group is a clap
//! `Args` struct whose flags clap lists ([`ids`]), and [`BackendFlags::check`] says of each
//! group, typed, which chosen backends it applies to. A flag given for a backend not chosen is a
//! usage error (exit 2) naming the flag and what it applies to: a warning would leave a run
//! that looks configured but is not (`--hnsw-m 64` under an exact index measures nothing of
//! HNSW), and a rule that is sometimes an error and sometimes silence is no rule.

pub(crate) mod bm25;
pub(crate) mod cosine;
pub(crate) mod fusion;
pub(crate) mod scorers;

pub(crate) use bm25::Bm25Args;
pub(crate) use cosine::{BeliefTextArg, CosineArgs, HnswArgs, IndexArg, IndexArgs};
pub(crate) use fusion::{CombsumArgs, FusionArgs, RrfArgs};
pub(crate) use scorers::ScorerArgs;

use super::given::given_else_noted;
use super::remote::{HttpArgs, RemoteArgs};
use crate::backend::bm25::Bm25Config;
use crate::backend::composite::CompositeConfig;
use crate::backend::cosine::IndexKind;
use crate::backend::fusion::Method;
use crate::backend::spreading::SpreadingConfig;
use crate::backend::text::TextBm25Config;
use crate::backend::BackendConfig;
use crate::{Error, Result};
use clap::{Args, ValueEnum};

/// `--backend` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum BackendArg {
    /// Alias-weighted BM25 (tantivy, Lucene scoring).
    Bm25,
    /// Cosine similarity over dense embeddings (see --model).
    Cosine,
    /// A memory system behind PrecisionMemBench's HTTP contract (see --url, --provider).
    Http,
    /// Reciprocal rank fusion of the --fuse backends (bm25 and cosine by default).
    Rrf,
    /// CombSUM of the --fuse backends' min-max normalised scores (see --combsum-weights).
    Combsum,
    /// The first --fuse backend, or the next when it finds nothing (BM25, then cosine).
    Fallback,
    /// The dissertation's composite context scorer (see --bitemporal, --lambda, --model).
    Composite,
    /// Spreading activation over a similarity graph (see --edge-threshold, --model).
    Spreading,
    /// Oldest-first truncation: the newest beliefs that fit the budget.
    Recent,
    /// Plain BM25 over each belief's words: no aliases, no fuzzy terms (text without aliases,
    /// as LoCoMo's turns).
    Bm25Text,
}

impl BackendArg {
    /// The backend's id.
    pub(crate) fn name(self) -> &'static str {
        match self {
            BackendArg::Bm25 => "bm25",
            BackendArg::Cosine => "cosine",
            BackendArg::Http => "http",
            BackendArg::Rrf => "rrf",
            BackendArg::Combsum => "combsum",
            BackendArg::Fallback => "fallback",
            BackendArg::Composite => "composite",
            BackendArg::Spreading => "spreading",
            BackendArg::Recent => "recent",
            BackendArg::Bm25Text => "bm25-text",
        }
    }

    /// A fusion of other backends.
    fn is_fusion(self) -> bool {
        matches!(
            self,
            BackendArg::Rrf | BackendArg::Combsum | BackendArg::Fallback
        )
    }
}

/// Every built-in backend's settings, one flag group per set of backends it applies to.
#[derive(Debug, Args)]
pub(crate) struct BackendFlags {
    /// BM25's.
    #[command(flatten)]
    pub bm25: Bm25Args,
    /// Plain BM25's.
    #[command(flatten)]
    pub bm25_text: bm25::Bm25TextArgs,
    /// Embedding models and their stores (cosine, composite, spreading).
    #[command(flatten)]
    pub cosine: CosineArgs,
    /// The cosine backend's index.
    #[command(flatten)]
    pub index: IndexArgs,
    /// HNSW's parameters.
    #[command(flatten)]
    pub hnsw: HnswArgs,
    /// What the fusions fuse.
    #[command(flatten)]
    pub fusion: FusionArgs,
    /// RRF's k.
    #[command(flatten)]
    pub rrf: RrfArgs,
    /// CombSUM's weights.
    #[command(flatten)]
    pub combsum: CombsumArgs,
    /// The context scorers'.
    #[command(flatten)]
    pub scorer: ScorerArgs,
}

/// The ids (field names) of a flag group's flags, as clap defines them.
pub(crate) fn ids<G: Args>() -> Vec<String> {
    G::augment_args(clap::Command::new("group"))
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect()
}

/// One flag group: its flags, whether it applies to what was chosen, and what it applies to.
struct Group {
    ids: Vec<String>,
    applies: bool,
    what: &'static str,
}

impl BackendFlags {
    /// The fusion method `b` names with these settings (`None`: not a fusion).
    pub(crate) fn method(&self, b: BackendArg) -> Option<Method> {
        fusion::method(b, &self.rrf, &self.combsum)
    }

    /// The cosine backend's search structure.
    pub(crate) fn index_kind(&self) -> IndexKind {
        self.index.kind(&self.hnsw)
    }

    /// Refuse a flag given for a backend that is not among `chosen` (nor fused by one of
    /// them). `http` is the memory system's group, when the command has one; `static_pass`:
    /// static cases run (what `--concurrency` runs at once besides remote calls).
    pub(crate) fn check(
        &self,
        chosen: &[BackendArg],
        http: Option<&HttpArgs>,
        static_pass: bool,
    ) -> Result<()> {
        let mut used: Vec<BackendArg> = chosen.to_vec();
        let fuses = chosen.iter().any(|b| b.is_fusion());
        if fuses {
            used.extend(self.fusion.fuse.iter().copied());
        }
        let has = |b: BackendArg| used.contains(&b);
        let cosine = has(BackendArg::Cosine);
        let exact = self.index.index == IndexArg::Exact;
        let groups = [
            Group {
                ids: ids::<Bm25Args>(),
                applies: has(BackendArg::Bm25),
                what: "--backend bm25 (or a fusion of it)",
            },
            Group {
                ids: ids::<bm25::Bm25TextArgs>(),
                applies: has(BackendArg::Bm25Text),
                what: "--backend bm25-text (or a fusion of it)",
            },
            Group {
                ids: ids::<CosineArgs>(),
                applies: cosine || has(BackendArg::Composite) || has(BackendArg::Spreading),
                what: "--backend cosine (or a fusion of it), composite or spreading",
            },
            Group {
                ids: ids::<IndexArgs>(),
                applies: cosine,
                what: "--backend cosine (or a fusion of it)",
            },
            Group {
                ids: ids::<HnswArgs>(),
                applies: cosine && !exact,
                what: "--backend cosine with --index hnsw",
            },
            Group {
                ids: ids::<FusionArgs>(),
                applies: fuses,
                what: "--backend rrf, combsum or fallback",
            },
            Group {
                ids: ids::<RrfArgs>(),
                applies: has(BackendArg::Rrf),
                what: "--backend rrf",
            },
            Group {
                ids: ids::<CombsumArgs>(),
                applies: has(BackendArg::Combsum),
                what: "--backend combsum",
            },
            Group {
                ids: ids::<scorers::CompositeArgs>(),
                applies: has(BackendArg::Composite),
                what: "--backend composite",
            },
            Group {
                ids: ids::<scorers::BitemporalArgs>(),
                applies: has(BackendArg::Composite) && self.scorer.composite.bitemporal,
                what: "--backend composite with --bitemporal",
            },
            Group {
                ids: ids::<scorers::RecencyArgs>(),
                applies: has(BackendArg::Composite) || has(BackendArg::Recent),
                what: "--backend composite or recent",
            },
            Group {
                ids: ids::<scorers::TierArgs>(),
                applies: has(BackendArg::Composite) || has(BackendArg::Spreading),
                what: "--backend composite or spreading",
            },
            Group {
                ids: ids::<scorers::SpreadingArgs>(),
                applies: has(BackendArg::Spreading),
                what: "--backend spreading",
            },
            Group {
                ids: if http.is_some() {
                    ids::<HttpArgs>()
                } else {
                    Vec::new()
                },
                applies: has(BackendArg::Http),
                what: "--backend http (or a fusion of it)",
            },
        ];
        // Remote calls: a memory system's, or a served model's.
        let models = cosine || has(BackendArg::Composite) || has(BackendArg::Spreading);
        let served = models && self.cosine.serves();
        let remote_calls = has(BackendArg::Http) || served;
        let remote = [
            Group {
                ids: vec!["timeout".into(), "retries".into(), "max_errors".into()],
                applies: remote_calls,
                what: "--backend http or a served model (--model ollama:NAME or openai:NAME)",
            },
            // Cases in flight: a static pass's (any backend), or a served model's calls; a
            // memory system's sessions run one turn at a time (`session --backend http
            // --concurrency 4` did nothing, a twelfth audit).
            Group {
                ids: vec!["concurrency".into()],
                applies: served || static_pass,
                what: "static cases (sessions run one turn at a time) or a served model's calls",
            },
        ];
        debug_assert!(ids::<RemoteArgs>()
            .iter()
            .all(|id| remote.iter().any(|g| g.ids.contains(id))));
        let groups = groups.into_iter().chain(remote);
        let mut names: Vec<String> = chosen.iter().map(|b| b.name().to_string()).collect();
        if cosine && exact {
            names.push("with --index exact".into());
        }
        for group in groups.filter(|g| !g.applies) {
            let why = |id: &str| {
                format!(
                    "--{} applies to {}; the backends chosen are {}",
                    id.replace('_', "-"),
                    group.what,
                    names.join(", ")
                )
            };
            if let Some(id) = (group.ids.iter()).find(|id| given_else_noted(id, || why(id))) {
                return Err(Error::Usage(format!(
                    "{}: drop the flag or choose what it applies to",
                    why(id)
                )));
            }
        }
        if models {
            self.cosine.check_kinds()?;
        }
        // A floor given twice ran twice, one report written over the other.
        if let Some(floor) = crate::cli::args::repeated(&self.index.cosine_floor) {
            let at = crate::cli::given::from_config("cosine_floor").map(|c| format!(" ({c})"));
            return Err(Error::Usage(format!(
                "--cosine-floor {floor} is given twice{}: each floor runs once",
                at.unwrap_or_default()
            )));
        }
        Ok(())
    }

    /// The backends `chosen`, in order: BM25, cosine once per model, the memory system
    /// (`http`, when the command has one).
    pub(crate) fn configs(
        &self,
        chosen: &[BackendArg],
        remote: &RemoteArgs,
        http: Option<&HttpArgs>,
    ) -> Result<Vec<BackendConfig>> {
        let mut configs = Vec::new();
        for b in chosen {
            if let Some(method) = self.method(*b) {
                configs.push(self.fused(method, remote, http)?);
                continue;
            }
            let vectors = || self.cosine.configs(remote, self.index_kind());
            match b {
                BackendArg::Rrf | BackendArg::Combsum | BackendArg::Fallback => {}
                BackendArg::Bm25 => configs.push(match self.bm25.min_score {
                    Some(min) => BackendConfig::Bm25(Bm25Config {
                        min_score: min as f32,
                        ..Bm25Config::default()
                    }),
                    None => BackendConfig::bm25(),
                }),
                BackendArg::Cosine => configs.extend(
                    self.index
                        .with_floors(vectors())
                        .into_iter()
                        .map(BackendConfig::cosine),
                ),
                BackendArg::Http => match http {
                    Some(http) => configs.push(BackendConfig::Http(Box::new(http.config(remote)?))),
                    None => {
                        return Err(Error::Usage(
                            "this command runs built-in backends, not a memory system over HTTP"
                                .into(),
                        ))
                    }
                },
                BackendArg::Composite => {
                    let params = self.scorer.params()?;
                    configs.extend(vectors().into_iter().map(|vectors| {
                        BackendConfig::Composite(Box::new(CompositeConfig {
                            vectors,
                            params: params.clone(),
                        }))
                    }));
                }
                BackendArg::Spreading => {
                    let thresholds = self.scorer.thresholds()?;
                    let spreading = &self.scorer.spreading;
                    configs.extend(vectors().into_iter().map(|vectors| {
                        BackendConfig::Spreading(Box::new(SpreadingConfig {
                            relevance: self.scorer.relevance(),
                            thresholds,
                            edge_threshold: spreading.edge_threshold,
                            fraction: spreading.spread_fraction,
                            ..SpreadingConfig::new(vectors)
                        }))
                    }));
                }
                BackendArg::Recent => configs.push(self.scorer.recent()),
                BackendArg::Bm25Text => configs.push(BackendConfig::Bm25Text(TextBm25Config {
                    recency: self.bm25_text.recency.unwrap_or(0.0),
                    recency_window: self.bm25_text.recency_window.unwrap_or(0),
                })),
            }
        }
        Ok(configs)
    }
}
