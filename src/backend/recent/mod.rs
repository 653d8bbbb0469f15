//! The baseline the dissertation argues against (context-scorer spec §2): oldest-first
//! truncation, "the degenerate special case in which the only signal is recency". It keeps
//! the newest admitted beliefs that fit the budget, whatever the query says: the score is the
//! recency signal `exp(−λ (1 − t/T))` on the context scorers' clock
//! ([`crate::backend::composite::segments`]), so newer is higher; equal steps go to corpus order.

use super::composite::segments::Segments;
use super::composite::{ranked_hits, scorer_info, signals, Scored};
use super::label::Setting;
use super::{Backend, BackendError, BackendInfo, Hit, SearchRequest, Signals, Workload};
use crate::suite::Belief;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The recency baseline's settings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct RecentConfig {
    /// λ of the recency signal (it orders as any λ > 0 does; it sets the reported scores).
    pub lambda: f64,
}

impl Default for RecentConfig {
    fn default() -> RecentConfig {
        RecentConfig { lambda: 0.5 }
    }
}

/// The recency baseline.
pub struct RecentBackend {
    segments: Segments,
    config: RecentConfig,
    info: BackendInfo,
}

impl RecentBackend {
    /// Index `corpus` for `workload`.
    pub fn build(corpus: &[Belief], config: RecentConfig, workload: Workload) -> RecentBackend {
        let mut segments = Segments::new(workload, None, Vec::new());
        for belief in corpus {
            // Without vectors adding cannot fail.
            let _ = segments.add(belief, false);
        }
        RecentBackend {
            segments,
            config,
            info: BackendInfo {
                tag: super::label::tag(
                    &[Setting::new(
                        "l",
                        config.lambda,
                        RecentConfig::default().lambda,
                    )],
                    [],
                ),
                ..scorer_info("recent", None, None)
            },
        }
    }
}

impl Backend for RecentBackend {
    fn info(&self) -> &BackendInfo {
        &self.info
    }

    fn settings(&self) -> serde_json::Value {
        json!({
            "lambda": self.config.lambda,
            "clock": Segments::clock_settings(),
            "context": "the newest admitted beliefs, cut at the budget; no tiers",
            "score": "recency",
            "ties": "natural order",
        })
    }

    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>, BackendError> {
        if request.text.is_empty() || request.limit == 0 {
            return Ok(Vec::new());
        }
        let segs = &self.segments;
        let scored: Vec<Scored> = segs
            .admitted(&request.filter)
            .map(|row| {
                let mut s = Signals {
                    recency: Some(signals::recency(
                        self.config.lambda,
                        segs.position(segs.step(row)),
                    )),
                    ..Signals::default()
                };
                s.multiply();
                s.add_boosts(false);
                (s.score as f32, segs.versions[row].slot, row, s)
            })
            .collect();
        Ok(ranked_hits(segs, scored, request.limit, "recent"))
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
}
