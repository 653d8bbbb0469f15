//! The belief store as the context scorers see it: each belief version as a *segment* with a
//! transaction time, and the clock that says where "now" is (context-scorer spec §1, §6).
//!
//! The mapping (spec §6, **[open]**, documented in docs/scorer.md):
//! - **Transaction time** is a step on one clock. Seed beliefs are ordered by `created_at`: a
//!   belief's step is the number of seed beliefs created strictly before it (a belief without
//!   `created_at` counts as the newest). In static runs "now" (T) is the newest seed step. In
//!   session runs the turns continue the clock: at turn k, T = newest seed step + k, and a
//!   belief created or updated after turn k's retrieval enters at step newest + k + 1.
//! - **Position** t/T (recency, primacy) is step / T; 1 when T = 0.
//! - **Age** (currency) is in hours of wall-clock time: the newest `created_at`/`updated_at` of
//!   the store minus the belief's `created_at` (0 without one).
//! - **Turns since** (the bitemporal table) are steps: T − the belief's step.

use super::bitemporal::ValidTime;
use super::signals::has_keyword;
use crate::backend::cosine::exact::Matrix;
use crate::backend::{BackendError, SearchFilter, Workload};
use crate::embed::{normalised, Role, TextPolicy, VectorSource};
use crate::suite::Belief;
use std::sync::{Arc, Mutex};

/// How a version entered the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entered {
    /// In the seed (or inserted in a static run): placed by `created_at`.
    Seed,
    /// After the retrieval of this turn of a session run.
    Turn(usize),
}

/// One belief version.
#[derive(Debug, Clone)]
pub(crate) struct Segment {
    /// The belief.
    pub belief: Belief,
    /// Corpus position: ties go to the lower slot; a replacement keeps its predecessor's.
    pub slot: usize,
    /// False once replaced.
    pub live: bool,
    /// How it entered.
    pub entered: Entered,
    /// Carries an instruction keyword (primacy).
    pub instruction: bool,
    /// Valid time (read under `--bitemporal`).
    pub valid: ValidTime,
}

/// The embedding side: the model's vectors of every version, row i for version i.
pub(crate) struct Vectors {
    source: Arc<dyn VectorSource>,
    policy: TextPolicy,
    /// The policy is the suite profile's own.
    pub default_policy: bool,
    matrix: Matrix,
}

impl Vectors {
    /// Vectors from `source` under `policy` (`default_policy`: the profile's own).
    pub(crate) fn new(
        source: Arc<dyn VectorSource>,
        policy: TextPolicy,
        default_policy: bool,
    ) -> Vectors {
        let dims = source.model().dimensions;
        Vectors {
            source,
            policy,
            default_policy,
            matrix: Matrix::new(dims),
        }
    }

    /// The model's name.
    pub(crate) fn model(&self) -> String {
        self.source.model().name
    }

    /// The text policy.
    pub(crate) fn policy(&self) -> TextPolicy {
        self.policy
    }

    /// The vector source.
    pub(crate) fn source(&self) -> &Arc<dyn VectorSource> {
        &self.source
    }

    fn unit(&self, role: Role, policy: &str, text: &str) -> Result<Vec<f32>, BackendError> {
        let raw = self
            .source
            .vector(role, policy, text)
            .map_err(BackendError::permanent)?;
        normalised(&raw).ok_or_else(|| {
            BackendError::permanent(format!("zero or non-finite vector for {text:?}"))
        })
    }

    /// The unit query vector of a search (the policy picks the expanded or the raw text).
    pub(crate) fn query(&self, text: &str, message: &str) -> Result<Vec<f32>, BackendError> {
        let text = match self.policy.query {
            crate::embed::QueryText::Expanded => text,
            crate::embed::QueryText::Raw => message,
        };
        self.unit(Role::Query, self.policy.query.name(), text)
    }

    /// Cosine of version `row` with the unit vector `q`.
    pub(crate) fn cosine(&self, row: usize, q: &[f32]) -> f64 {
        f64::from(self.matrix.dot(row, q))
    }

    /// Cosine of versions `a` and `b`.
    pub(crate) fn between(&self, a: usize, b: usize) -> f64 {
        f64::from(self.matrix.dot(b, self.matrix.row(a)))
    }

    fn push(&mut self, belief: &Belief) -> Result<(), BackendError> {
        let text = self.policy.belief.of(belief);
        let v = self.unit(Role::Belief, self.policy.belief.name(), &text)?;
        self.matrix.push(&v);
        Ok(())
    }
}

/// The store, its clock and (for scorers with relevance) its vectors.
pub(crate) struct Segments {
    /// Every version, in write order.
    pub versions: Vec<Segment>,
    /// `created_at` of every seed-entered version, sorted (a missing one as `i64::MAX`).
    seed_times: Vec<i64>,
    /// Newest `created_at` / `updated_at` seen (Unix ms).
    now_ms: Option<i64>,
    /// Distinct beliefs so far (the next slot).
    beliefs: usize,
    /// Static or session run.
    pub workload: Workload,
    /// The session turn the run is at.
    pub turn: usize,
    /// A session turn has begun: what is added now enters on the turn clock.
    pub started: bool,
    /// Vectors, when the scorer has relevance.
    pub vectors: Option<Vectors>,
    /// Each session turn's query vector, for revisitation (turn, vector).
    pub history: Mutex<Vec<(usize, Vec<f32>)>>,
    keywords: Vec<String>,
}

impl Segments {
    /// An empty store.
    pub(crate) fn new(
        workload: Workload,
        vectors: Option<Vectors>,
        keywords: Vec<String>,
    ) -> Segments {
        Segments {
            versions: Vec::new(),
            seed_times: Vec::new(),
            now_ms: None,
            beliefs: 0,
            workload,
            turn: 0,
            started: false,
            vectors,
            history: Mutex::new(Vec::new()),
            keywords,
        }
    }

    /// Add a version of `belief`: new, or replacing the live version of the same id.
    pub(crate) fn add(&mut self, belief: &Belief, replace: bool) -> Result<(), BackendError> {
        let slot = if replace {
            let old = self
                .versions
                .iter()
                .position(|v| v.live && v.belief.id == belief.id)
                .ok_or_else(|| {
                    BackendError::permanent(format!("replace of unknown belief {:?}", belief.id))
                })?;
            self.versions[old].live = false;
            self.versions[old].slot
        } else {
            self.beliefs += 1;
            self.beliefs - 1
        };
        if let Some(vectors) = &mut self.vectors {
            vectors.push(belief)?;
        }
        let entered = match self.workload {
            Workload::Session if self.turn_started() => Entered::Turn(self.turn),
            _ => Entered::Seed,
        };
        if entered == Entered::Seed {
            let t = belief.created_at.unwrap_or(i64::MAX);
            let at = self.seed_times.partition_point(|&x| x <= t);
            self.seed_times.insert(at, t);
        }
        for t in [belief.created_at, belief.updated_at].into_iter().flatten() {
            self.now_ms = Some(self.now_ms.map_or(t, |n| n.max(t)));
        }
        let text = [
            belief.canonical_name.as_str(),
            &belief.aliases.join(" "),
            &belief.content,
            belief.why_it_matters.as_deref().unwrap_or(""),
        ]
        .join(" ");
        self.versions.push(Segment {
            instruction: has_keyword(&text, &self.keywords),
            valid: ValidTime::of(belief),
            belief: belief.clone(),
            slot,
            live: true,
            entered,
        });
        Ok(())
    }

    /// Move the clock to session turn `turn`.
    pub(crate) fn at_turn(&mut self, turn: usize) {
        self.turn = turn;
        self.started = true;
    }

    /// Has the session's first turn begun (seeding is over)?
    fn turn_started(&self) -> bool {
        self.started
    }

    /// The step of a time on the seed clock.
    fn seed_step(&self, t: Option<i64>) -> u64 {
        self.seed_times
            .partition_point(|&x| x < t.unwrap_or(i64::MAX)) as u64
    }

    /// The newest seed step.
    fn seed_top(&self) -> u64 {
        self.seed_times
            .last()
            .map_or(0, |&t| self.seed_step(Some(t)))
    }

    /// "Now": T on the step clock.
    pub(crate) fn now(&self) -> u64 {
        match self.workload {
            Workload::Static => self.seed_top(),
            Workload::Session => self.seed_top() + self.turn as u64,
        }
    }

    /// Version `row`'s step.
    pub(crate) fn step(&self, row: usize) -> u64 {
        let v = &self.versions[row];
        match v.entered {
            Entered::Seed => self.seed_step(v.belief.created_at),
            Entered::Turn(k) => self.seed_top() + k as u64 + 1,
        }
    }

    /// The step of a wall-clock time (an explicit `valid_to`).
    pub(crate) fn step_of_time(&self, t: i64) -> u64 {
        self.seed_step(Some(t))
    }

    /// t/T of a step (1 when T = 0).
    pub(crate) fn position(&self, step: u64) -> f64 {
        let now = self.now();
        if now == 0 {
            1.0
        } else {
            (step as f64 / now as f64).min(1.0)
        }
    }

    /// Hours from `t` to the store's newest time (0 without `t`).
    pub(crate) fn hours_since(&self, t: Option<i64>) -> f64 {
        match (t, self.now_ms) {
            (Some(t), Some(now)) => (now - t).max(0) as f64 / 3_600_000.0,
            _ => 0.0,
        }
    }

    /// Live versions a request may see.
    pub(crate) fn admitted<'a>(
        &'a self,
        filter: &'a SearchFilter<'_>,
    ) -> impl Iterator<Item = usize> + 'a {
        (0..self.versions.len())
            .filter(move |&i| self.versions[i].live && filter.admits(&self.versions[i].belief))
    }

    /// Record this turn's query for revisitation (session runs only, once a turn); return the
    /// earlier turns' queries.
    pub(crate) fn remember(&self, query: &[f32]) -> Vec<(usize, Vec<f32>)> {
        if self.workload != Workload::Session {
            return Vec::new();
        }
        let mut history = self.history.lock().unwrap_or_else(|e| e.into_inner());
        let earlier: Vec<(usize, Vec<f32>)> = history
            .iter()
            .filter(|(t, _)| *t < self.turn)
            .cloned()
            .collect();
        if history.last().map(|h| h.0) != Some(self.turn) {
            history.push((self.turn, query.to_vec()));
        }
        earlier
    }

    /// The first turn version `row` could have been revisited at.
    pub(crate) fn first_turn(&self, row: usize) -> usize {
        match self.versions[row].entered {
            Entered::Seed => 0,
            Entered::Turn(k) => k + 1,
        }
    }

    /// Settings of the clock, for the manifest.
    pub(crate) fn clock_settings() -> serde_json::Value {
        serde_json::json!({
            "transactionTime": "step: seed beliefs ordered by created_at (none: newest); session turns continue the clock, a belief created or updated after turn k's retrieval enters at newest seed step + k + 1",
            "position": "t/T = step / now (1 when now = 0)",
            "age": "hours from created_at to the store's newest created_at/updated_at",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn belief(id: &str, created: Option<&str>) -> Belief {
        serde_json::from_value(serde_json::json!({
            "_id": id, "user_id": "u", "type": "entity", "canonical_name": id,
            "content": "Always pin versions.", "created_at": created,
        }))
        .unwrap()
    }

    fn store(workload: Workload) -> Segments {
        let mut s = Segments::new(workload, None, vec!["always".into()]);
        for (id, at) in [
            ("a", Some("2026-01-01T00:00:00Z")),
            ("b", Some("2026-02-01T00:00:00Z")),
            ("c", Some("2026-02-01T00:00:00Z")),
            ("d", None),
        ] {
            s.add(&belief(id, at), false).unwrap();
        }
        s
    }

    #[test]
    fn seed_steps_order_by_created_at_and_the_newest_is_now() {
        let s = store(Workload::Static);
        let steps: Vec<u64> = (0..4).map(|r| s.step(r)).collect();
        // Equal times share a step; no created_at counts as the newest.
        assert_eq!(steps, [0, 1, 1, 3]);
        assert_eq!(s.now(), 3);
        assert_eq!(s.position(1), 1.0 / 3.0);
        assert_eq!(s.position(3), 1.0);
        // Age runs to the newest timestamp (February 1st): 31 days for a.
        assert_eq!(s.hours_since(Some(1_767_225_600_000)), 744.0);
        assert_eq!(s.hours_since(None), 0.0);
        assert!(s.versions[0].instruction);
    }

    #[test]
    fn session_turns_continue_the_clock() {
        let mut s = store(Workload::Session);
        s.at_turn(0);
        assert_eq!(s.now(), 3);
        s.at_turn(2);
        assert_eq!(s.now(), 5);
        // Created after turn 2's retrieval: step 3 + 2 + 1, the newest from turn 3 on.
        s.add(&belief("e", None), false).unwrap();
        assert_eq!(s.step(4), 6);
        assert_eq!(s.first_turn(4), 3);
        s.at_turn(3);
        assert_eq!(s.position(s.step(4)), 1.0);
        // A replacement keeps the slot and enters on the turn clock too.
        s.add(&belief("a", Some("2026-01-01T00:00:00Z")), true)
            .unwrap();
        assert_eq!((s.versions[5].slot, s.step(5)), (0, 7));
        assert!(!s.versions[0].live);
    }
}
