//! Hybrid retrieval: one backend over several (by default alias-BM25 and cosine), fusing their
//! ranked lists. Three methods:
//! - **RRF** (reciprocal rank fusion, Cormack et al. 2009): Σ 1 / (k + rank), k = 60;
//! - **CombSUM** over min-max normalised scores, each child weighted;
//! - **fallback**: the first child's list, or the next child's when it returns nothing (BM25
//!   first; cosine only when BM25 finds nothing above its floor).
//!
//! Each child searches the same filtered request to its `depth`. Ties of the fused score go to
//! corpus order (the order beliefs were indexed), as every backend's ties do. A fused hit's
//! explanation lists each child's rank and score.

use super::config::BackendFactory;
use super::{
    Backend, BackendConfig, BackendError, BackendInfo, ErrorKind, Explanation, Hit, Reader,
    ScoreScale, SearchRequest,
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
}

/// One child's answer, as fusion reads it.
#[derive(Debug, Clone)]
pub struct Ranked {
    /// Ids best first, with scores (`None` for a backend that only ranks).
    pub hits: Vec<(String, Option<f32>)>,
}

/// A fused entry: the id, its fused score, and each child's (rank, score) when it had it.
#[derive(Debug, Clone, PartialEq)]
pub struct Fused {
    /// Belief id.
    pub id: String,
    /// Fused score.
    pub score: f64,
    /// Per child: 1-based rank and score in its list.
    pub parts: Vec<Option<(usize, Option<f32>)>>,
}

/// Fuse `lists` by `method`; ties by `order` (corpus position; unknown ids last, by id).
pub fn fuse(method: &Method, lists: &[Ranked], order: &HashMap<String, usize>) -> Vec<Fused> {
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
            "children": self.children.iter().map(|c| serde_json::json!({"label": c.info().label, "settings": c.settings()})).collect::<Vec<_>>(),
        })
    }

    fn search(&self, request: &SearchRequest<'_>) -> std::result::Result<Vec<Hit>, BackendError> {
        let deep = SearchRequest {
            limit: self.config.depth.max(request.limit),
            ..*request
        };
        let mut lists = Vec::with_capacity(self.children.len());
        for child in &self.children {
            let hits = child.search(&deep)?;
            lists.push(Ranked {
                hits: hits.into_iter().map(|h| (h.id, h.score)).collect(),
            });
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
        let next = self.order.len();
        self.order.entry(belief.id.clone()).or_insert(next);
        self.children.iter_mut().try_for_each(|c| c.insert(belief))
    }

    fn replace(&mut self, belief: &Belief) -> std::result::Result<(), BackendError> {
        for child in &mut self.children {
            match child.replace(belief) {
                Err(e) if e.kind == ErrorKind::Unsupported => return Err(e),
                other => other?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(ids: &[(&str, f32)]) -> Ranked {
        Ranked {
            hits: ids.iter().map(|(i, s)| (i.to_string(), Some(*s))).collect(),
        }
    }

    fn order(ids: &[&str]) -> HashMap<String, usize> {
        ids.iter()
            .enumerate()
            .map(|(i, id)| (id.to_string(), i))
            .collect()
    }

    #[test]
    fn rrf_known_answer() {
        // a: ranks 1 and 3 → 1/61 + 1/63; b: 2 and 1 → 1/62 + 1/61; c: 3 → 1/63; d: 2 → 1/62.
        let lists = [
            list(&[("a", 9.0), ("b", 5.0), ("c", 1.0)]),
            list(&[("b", 0.9), ("d", 0.8), ("a", 0.7)]),
        ];
        let fused = fuse(
            &Method::Rrf { k: 60.0 },
            &lists,
            &order(&["a", "b", "c", "d"]),
        );
        let got: Vec<(&str, f64)> = fused.iter().map(|f| (f.id.as_str(), f.score)).collect();
        let want = [
            ("b", 1.0 / 62.0 + 1.0 / 61.0),
            ("a", 1.0 / 61.0 + 1.0 / 63.0),
            ("d", 1.0 / 62.0),
            ("c", 1.0 / 63.0),
        ];
        for ((id, s), (wid, ws)) in got.iter().zip(want) {
            assert_eq!(*id, wid);
            assert!((s - ws).abs() < 1e-15);
        }
        assert_eq!(
            fused[0].parts,
            vec![Some((2, Some(5.0))), Some((1, Some(0.9)))]
        );
    }

    #[test]
    fn combsum_known_answer_with_weights_and_ties_in_corpus_order() {
        // Child 1 normalises 10, 6, 2 to 1, 0.5, 0; child 2 (weight 2) 0.8, 0.4 to 1, 0.
        let lists = [
            list(&[("x", 10.0), ("y", 6.0), ("z", 2.0)]),
            list(&[("z", 0.8), ("y", 0.4)]),
        ];
        let fused = fuse(
            &Method::CombSum {
                weights: vec![1.0, 2.0],
            },
            &lists,
            &order(&["y", "x", "z"]),
        );
        let got: Vec<(&str, f64)> = fused.iter().map(|f| (f.id.as_str(), f.score)).collect();
        assert_eq!(got, [("z", 2.0), ("x", 1.0), ("y", 0.5)]);
        // Equal scores: corpus order decides (y before x here).
        let even = [list(&[("x", 1.0)]), list(&[("y", 1.0)])];
        let fused = fuse(
            &Method::CombSum { weights: vec![] },
            &even,
            &order(&["y", "x"]),
        );
        assert_eq!(
            fused.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(),
            ["y", "x"]
        );
    }

    #[test]
    fn fallback_takes_the_first_list_that_is_not_empty() {
        let lists = [list(&[]), list(&[("c", 0.7), ("d", 0.6)])];
        let fused = fuse(&Method::Fallback, &lists, &order(&["c", "d"]));
        assert_eq!(
            fused.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(),
            ["c", "d"]
        );
        assert_eq!(fused[0].parts, vec![None, Some((1, Some(0.7)))]);
        let first = [list(&[("a", 5.0)]), list(&[("c", 0.7)])];
        assert_eq!(fuse(&Method::Fallback, &first, &order(&[]))[0].id, "a");
    }
}
