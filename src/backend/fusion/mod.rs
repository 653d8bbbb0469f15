//! Hybrid retrieval: one backend over several (by default alias-BM25 and cosine), fusing their
//! ranked lists. Three methods:
//! - **RRF** (reciprocal rank fusion, Cormack et al. 2009): Σ 1 / (k + rank), k = 60;
//! - **CombSUM** over min-max normalised scores, each child weighted;
//! - **fallback**: the first child's list, or the next child's when it returns nothing (BM25
//!   first; cosine only when BM25 finds nothing above its floor).
//!
//! Each child searches the same filtered request to `depth`; per child, only its first
//! `child_depths` hits and those scoring at least its `floors` entry are fused. Ties of the fused score go to
//! corpus order (the order beliefs were indexed), as every backend's ties do. A fused hit's
//! explanation lists each child's rank and score.

use super::config::BackendFactory;
use super::label::{self, Setting};
use super::{
    Backend, BackendConfig, BackendError, BackendInfo, Explanation, Hit, Reader, ScoreScale,
    SearchRequest, Write,
};
use crate::error::Result;
use crate::suite::Belief;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// How the children's lists become one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "lowercase")]
pub enum Method {
    /// Σ 1 / (k + rank), rank from 1.
    Rrf {
        /// The constant k (60 in the original paper and in most tools).
        k: f64,
    },
    /// Σ weight · (score − min) / (max − min) over each child's list (1 when all are equal).
    CombSum {
        /// One weight per child (1 each when empty).
        weights: Vec<f64>,
    },
    /// The first child whose list is not empty.
    Fallback,
}

impl Method {
    /// The id a report names it by.
    pub fn id(&self) -> &'static str {
        match self {
            Method::Rrf { .. } => "rrf",
            Method::CombSum { .. } => "combsum",
            Method::Fallback => "fallback",
        }
    }
}

/// A fusion backend's settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FusionConfig {
    /// The method.
    pub method: Method,
    /// The backends fused, in order (the first is the fallback's primary).
    pub children: Vec<BackendConfig>,
    /// How deep each child searches.
    pub depth: usize,
    /// Per child, in order: how many of its hits are fused (fewer than `depth` cuts a child to
    /// its confident top); a missing entry means `depth`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub child_depths: Vec<usize>,
    /// Per child, in order: hits scoring below this are not fused (a similarity floor for
    /// cosine); a missing entry means no floor.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub floors: Vec<f32>,
}

impl FusionConfig {
    /// Its own result-changing settings, in tag order (`backend::label`): RRF's `k` or
    /// CombSUM's weights `w`, the depths, the floors. The fused backends follow (`fuse`, when
    /// not BM25 then cosine) and then their own tags, added at build.
    pub(crate) fn label_settings(&self) -> Vec<Setting> {
        let mut settings = match &self.method {
            Method::Rrf { k } => vec![Setting::new("k", k, 60.0)],
            Method::CombSum { weights } => vec![Setting::list("w", &weights[..], &[])],
            Method::Fallback => Vec::new(),
        };
        // No cut is the default, whatever `depth`; every child cut to one depth is written as
        // that one depth (`--fusion-depth 50` → `depth50`), else one per child.
        let depths = match self.child_depths.first() {
            Some(&d) if self.child_depths.iter().all(|c| *c == d) => vec![d],
            _ => self.child_depths.clone(),
        };
        settings.push(Setting::list("depth", &depths[..], &[]));
        // Uncut, `depth` is how deep each backend is searched (the command line leaves it at
        // 100; a library caller may not): its own key, since `depth` names a cut.
        if self.child_depths.is_empty() {
            settings.push(Setting::new("reach", self.depth, 100));
        }
        settings.push(Setting::list("floor", &self.floors[..], &[]));
        settings
    }
}

/// One child's answer, as fusion reads it.
#[derive(Debug, Clone)]
pub(crate) struct Ranked {
    /// Ids best first, with scores (`None` for a backend that only ranks).
    pub hits: Vec<(String, Option<f32>)>,
}

/// A fused entry: the id, its fused score, and each child's (rank, score) when it had it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fused {
    /// Belief id.
    pub id: String,
    /// Fused score.
    pub score: f64,
    /// Per child: 1-based rank and score in its list.
    pub parts: Vec<Option<(usize, Option<f32>)>>,
}

/// Fuse `lists` by `method`; ties by `order` (corpus position; unknown ids last, by id).
pub(crate) fn fuse(
    method: &Method,
    lists: &[Ranked],
    order: &HashMap<String, usize>,
) -> Vec<Fused> {
    if let Method::Fallback = method {
        let chosen = lists.iter().position(|l| !l.hits.is_empty());
        return chosen
            .map(|c| {
                lists[c]
                    .hits
                    .iter()
                    .enumerate()
                    .map(|(r, (id, s))| {
                        let mut parts = vec![None; lists.len()];
                        parts[c] = Some((r + 1, *s));
                        Fused {
                            id: id.clone(),
                            score: f64::from(s.unwrap_or(0.0)),
                            parts,
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
    }
    let mut fused: Vec<Fused> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    for (c, list) in lists.iter().enumerate() {
        let scores: Vec<f64> = list
            .hits
            .iter()
            .map(|(_, s)| f64::from(s.unwrap_or(0.0)))
            .collect();
        let (lo, hi) = scores
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &s| {
                (lo.min(s), hi.max(s))
            });
        for (r, (id, s)) in list.hits.iter().enumerate() {
            let contribution = match method {
                Method::Rrf { k } => 1.0 / (k + (r + 1) as f64),
                Method::CombSum { weights } => {
                    let w = weights.get(c).copied().unwrap_or(1.0);
                    let norm = if hi > lo {
                        (scores[r] - lo) / (hi - lo)
                    } else {
                        1.0
                    };
                    w * norm
                }
                Method::Fallback => unreachable!("handled above"),
            };
            let i = *at.entry(id.clone()).or_insert_with(|| {
                fused.push(Fused {
                    id: id.clone(),
                    score: 0.0,
                    parts: vec![None; lists.len()],
                });
                fused.len() - 1
            });
            fused[i].score += contribution;
            fused[i].parts[c] = Some((r + 1, *s));
        }
    }
    let position = |id: &str| order.get(id).copied().unwrap_or(usize::MAX);
    fused.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| position(&a.id).cmp(&position(&b.id)))
            .then_with(|| a.id.cmp(&b.id))
    });
    fused
}

/// A child's hits as fused: those scoring at least `floor` (a hit without a score has none to
/// reach it), then the first `depth` of them.
pub(crate) fn cut(hits: Vec<Hit>, depth: Option<usize>, floor: Option<f32>) -> Ranked {
    Ranked {
        hits: hits
            .into_iter()
            .filter(|h| floor.is_none_or(|f| h.score.is_some_and(|s| s >= f)))
            .take(depth.unwrap_or(usize::MAX))
            .map(|h| (h.id, h.score))
            .collect(),
    }
}

/// Several backends, fused.
pub struct FusionBackend {
    info: BackendInfo,
    config: FusionConfig,
    children: Vec<Box<dyn Backend>>,
    order: HashMap<String, usize>,
}

impl FusionBackend {
    /// Build every child over `corpus`.
    pub fn build(corpus: &[Belief], config: &FusionConfig) -> Result<FusionBackend> {
        let children = config
            .children
            .iter()
            .map(|c| c.build(corpus))
            .collect::<Result<Vec<_>>>()?;
        let labels: Vec<&str> = children.iter().map(|c| c.info().label.as_str()).collect();
        // The children's file prefixes (a cosine child's model) name the file too, so that two
        // fusions over different models in one folder do not write the same report.
        let prefixes: Vec<&str> = children
            .iter()
            .filter_map(|c| c.info().file_prefix.as_deref())
            .collect();
        let id = config.method.id();
        let mut settings = config.label_settings();
        let ids: Vec<&str> = children.iter().map(|c| c.info().id.as_str()).collect();
        settings.push(Setting::new("fuse", ids.join("+"), "bm25+cosine"));
        let child_tags = children.iter().map(|c| c.info().tag.as_deref());
        Ok(FusionBackend {
            info: BackendInfo {
                id: id.into(),
                provider: id.into(),
                label: format!("{id}({})", labels.join("+")),
                model: None,
                text_policy: None,
                file_prefix: (!prefixes.is_empty()).then(|| prefixes.join("+")),
                paper_primary: false,
                reader: Reader::Text,
                score_scale: match config.method {
                    Method::Fallback => ScoreScale::None,
                    _ => ScoreScale::RankFusion,
                },
                tag: label::tag(&settings, child_tags),
                upstream_exact: false,
            },
            config: config.clone(),
            children,
            order: corpus
                .iter()
                .enumerate()
                .map(|(i, b)| (b.id.clone(), i))
                .collect(),
        })
    }
}

impl Backend for FusionBackend {
    fn info(&self) -> &BackendInfo {
        &self.info
    }

    fn settings(&self) -> serde_json::Value {
        serde_json::json!({
            "method": self.config.method,
            "depth": self.config.depth,
            "childDepths": self.config.child_depths,
            "floors": self.config.floors,
            "children": self.children.iter().map(|c| serde_json::json!({"label": c.info().label, "settings": c.settings()})).collect::<Vec<_>>(),
        })
    }

    fn search(&self, request: &SearchRequest<'_>) -> std::result::Result<Vec<Hit>, BackendError> {
        let deep = SearchRequest {
            limit: self.config.depth.max(request.limit),
            ..*request
        };
        let mut lists = Vec::with_capacity(self.children.len());
        for (c, child) in self.children.iter().enumerate() {
            let depth = self.config.child_depths.get(c).copied();
            let floor = self.config.floors.get(c).copied();
            lists.push(cut(child.search(&deep)?, depth, floor));
        }
        let labels: Vec<&str> = self
            .children
            .iter()
            .map(|c| c.info().label.as_str())
            .collect();
        Ok(fuse(&self.config.method, &lists, &self.order)
            .into_iter()
            .take(request.limit)
            .map(|f| {
                let details = f
                    .parts
                    .iter()
                    .zip(&labels)
                    .map(|(part, label)| match part {
                        Some((rank, score)) => Explanation::node(
                            score.unwrap_or(0.0),
                            format!("{label}: rank {rank}"),
                            Vec::new(),
                        ),
                        None => {
                            Explanation::node(0.0, format!("{label}: not returned"), Vec::new())
                        }
                    })
                    .collect();
                Hit {
                    explanation: Some(Explanation::node(
                        f.score as f32,
                        format!("{} of", self.config.method.id()),
                        details,
                    )),
                    score: Some(f.score as f32),
                    id: f.id,
                }
            })
            .collect())
    }

    fn insert(&mut self, belief: &Belief) -> std::result::Result<(), BackendError> {
        self.apply(&[Write::Insert(belief)])
    }

    fn replace(&mut self, belief: &Belief) -> std::result::Result<(), BackendError> {
        self.apply(&[Write::Replace(belief)])
    }

    /// Each child takes the batch whole (bm25's one commit); a new belief is placed in the
    /// order ties fall back on.
    fn apply(&mut self, writes: &[Write<'_>]) -> std::result::Result<(), BackendError> {
        for write in writes {
            if let Write::Insert(belief) = write {
                let next = self.order.len();
                self.order.entry(belief.id.clone()).or_insert(next);
            }
        }
        self.children.iter_mut().try_for_each(|c| c.apply(writes))
    }

    fn at_turn(&mut self, turn: usize) {
        self.children.iter_mut().for_each(|c| c.at_turn(turn));
    }
}

#[cfg(test)]
mod tests;
