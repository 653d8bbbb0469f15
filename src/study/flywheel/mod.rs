//! The alias enrichment flywheel, measured (`docs/spec/alias-flywheel.md`): one simulated
//! user over many sessions, run on the real alias-BM25 backend and the real belief store.
//!
//! - [`domain`]: the one technical domain (real tool and concept names) beliefs are made of.
//! - [`user`]: the generative model of the user's vocabulary; it writes a [`user::Trace`]
//!   (beliefs created, superseded and merged; references with the surface forms used) that
//!   depends on the seed and the parameters only, never on what the store retrieved, so every
//!   variant of the mechanisms replays the same user.
//! - [`simulate`]: replays a trace against a [`crate::store::BeliefStore`] and a
//!   [`crate::backend::bm25::Bm25Backend`], capturing aliases as the essay says.
//! - [`metrics`]: what one session measured.
//! - [`cases`]: the small fixed cases of counter-signals (C6) and compaction (C5).
//! - [`vector`]: the vector side (C3): cosine with a real embedding model beside alias-BM25 on
//!   the same growing stores.
//! - [`claims`]: the essay's claims C1-C7 against the measurements, and the sensitivity sweep.
//! - [`figure`]: coverage and precision per session, one line per variant (SVG).
//!
//! The library never prints: progress goes through a callback, results are values.

pub mod cases;
pub mod claims;
pub mod domain;
pub mod figure;
pub mod job;
pub mod metrics;
pub mod simulate;
mod stale;
pub mod trace;
pub mod user;
pub(crate) mod vector;

use serde::{Deserialize, Serialize};

/// The generative model's parameters and the store's settings. Defaults are the study's
/// baseline; every one is a flag of `tenure-eval flywheel`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Params {
    /// Sessions simulated.
    pub sessions: usize,
    /// Seed of every draw.
    pub seed: u64,
    /// Beliefs in the store before the first session.
    pub initial_beliefs: usize,
    /// New beliefs the user introduces per session.
    pub growth: usize,
    /// References to beliefs per session (one message each).
    pub references: usize,
    /// Probability that a new belief is about a tool the store already has a belief about
    /// (while the domain has both kinds left): the source of word overlaps between aliases.
    pub tool_reuse: f64,
    /// Surface forms a user has for one belief (at most; fewer when the domain has fewer).
    pub forms: usize,
    /// Zipf exponent of form usage: the k-th form is used with weight 1/k^s.
    pub zipf: f64,
    /// Zipf exponent of how often each belief is talked about.
    pub topic_skew: f64,
    /// Probability that a form slot of a belief holds a form another belief of the same
    /// category also has (two beliefs sharing a surface form).
    pub collision: f64,
    /// Probability that a miss is clarified by the user (so the form can be captured).
    pub clarify: f64,
    /// Per session and belief, probability that the user coins a new form and uses it most.
    pub drift: f64,
    /// Per session, probability that a belief is superseded (the user moved tools).
    pub supersede: f64,
    /// Probability that a reference to a replacement uses a form of the tool left behind.
    pub old_form: f64,
    /// Per session, probability that two overlapping beliefs are merged (compaction).
    pub merge: f64,
    /// Probability that a message names its belief with two different forms.
    pub second_form: f64,
    /// Fewest aliases seeded at extraction.
    pub seed_min: usize,
    /// Most aliases seeded at extraction.
    pub seed_max: usize,
    /// Alias ceiling per belief.
    pub ceiling: usize,
    /// Results per search (the suites' maxBeliefs, spec §C.4).
    pub limit: usize,
    /// BM25 minimum score (Tenure's ContextBuilder: 3).
    pub min_score: f32,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            sessions: 50,
            seed: 7,
            initial_beliefs: 150,
            growth: 2,
            references: 40,
            tool_reuse: 0.3,
            forms: 10,
            zipf: 1.0,
            topic_skew: 0.8,
            collision: 0.05,
            clarify: 0.5,
            drift: 0.02,
            supersede: 0.1,
            old_form: 0.3,
            merge: 0.05,
            second_form: 0.3,
            seed_min: 3,
            seed_max: 5,
            ceiling: 25,
            limit: 20,
            min_score: crate::backend::bm25::DEFAULT_MIN_SCORE,
        }
    }
}

impl Params {
    /// Check the values: probabilities in [0, 1], seeding bounds ordered, sizes positive.
    pub(crate) fn check(&self) -> Result<(), String> {
        for (name, p) in [
            ("collision", self.collision),
            ("tool-reuse", self.tool_reuse),
            ("clarify", self.clarify),
            ("drift", self.drift),
            ("supersede", self.supersede),
            ("old-form", self.old_form),
            ("merge", self.merge),
            ("second-form", self.second_form),
        ] {
            if !(0.0..=1.0).contains(&p) {
                return Err(format!("--{name} {p}: expected a probability in [0, 1]"));
            }
        }
        if self.seed_min > self.seed_max {
            return Err(format!(
                "--seed-min {} is above --seed-max {}",
                self.seed_min, self.seed_max
            ));
        }
        if self.initial_beliefs < 2 || self.forms == 0 || self.limit == 0 {
            return Err(
                "--initial-beliefs must be at least 2, --forms and --limit at least 1".into(),
            );
        }
        // Finite: infinity changes the simulation yet is recorded as null, so the recorded
        // parameters could not reproduce the run.
        for (name, x) in [("zipf", self.zipf), ("topic-skew", self.topic_skew)] {
            if !(x.is_finite() && x >= 0.0) {
                return Err(format!("--{name} {x}: expected a finite number, 0 or more"));
            }
        }
        if !(self.min_score.is_finite() && self.min_score >= 0.0) {
            return Err(format!(
                "--min-score {}: expected a finite number, 0 or more",
                self.min_score
            ));
        }
        // No session, or no reference in one: nothing is searched, and every coverage and
        // retrieval per query would be printed as 0 (an audit found both, exit 0).
        if self.sessions == 0 || self.references == 0 {
            return Err("--sessions and --references must be at least 1".into());
        }
        Ok(())
    }

    /// These parameters with `name` (a `--sweep` name, as the flag) set to `value`, checked.
    pub(crate) fn with(&self, name: &str, value: f64) -> Result<Params, String> {
        let count = || {
            (value >= 0.0 && value.fract() == 0.0 && value <= f64::from(u32::MAX))
                .then_some(value as usize)
                .ok_or_else(|| format!("--sweep {name}={value}: expected a whole number"))
        };
        let mut p = self.clone();
        match name {
            "collision" => p.collision = value,
            "clarify" => p.clarify = value,
            "drift" => p.drift = value,
            "tool-reuse" => p.tool_reuse = value,
            "zipf" => p.zipf = value,
            "supersede" => p.supersede = value,
            "merge" => p.merge = value,
            "old-form" => p.old_form = value,
            "initial-beliefs" => p.initial_beliefs = count()?,
            "growth" => p.growth = count()?,
            _ => {
                return Err(format!(
                    "--sweep {name}: expected collision, tool-reuse, clarify, drift, zipf, \
                     supersede, merge, old-form, initial-beliefs or growth"
                ))
            }
        }
        p.check()?;
        Ok(p)
    }
}

/// Parameters the sensitivity sweep moves, and the values it tries by default (baseline
/// included), collision rate first. The store's starting size is last: precision 1.0 (C1)
/// fails at every rate of the others, and a small store is where it can start to hold.
pub(crate) const SWEEP: [(&str, &[f64]); 5] = [
    ("collision", &[0.0, 0.05, 0.1, 0.2, 0.3, 0.5]),
    ("tool-reuse", &[0.0, 0.1, 0.3, 0.6, 1.0]),
    ("clarify", &[0.0, 0.25, 0.5, 0.75, 1.0]),
    ("drift", &[0.0, 0.02, 0.05, 0.1, 0.2]),
    ("initial-beliefs", &[10.0, 25.0, 50.0, 100.0, 150.0, 300.0]),
];

/// The essay's mechanisms, each switchable off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Mechanisms {
    /// 3-5 aliases from the extraction session (else a belief starts with its name only).
    pub seeding: bool,
    /// On a hit, the message's other forms for the belief are added.
    pub capture_hit: bool,
    /// After a clarified miss, the missed form is added.
    pub capture_miss: bool,
    /// At most `ceiling` aliases per belief.
    pub ceiling: bool,
    /// A superseded belief's name and aliases go to its replacement.
    pub counter_signals: bool,
    /// A merge's survivor gets the union of both alias sets.
    pub union: bool,
}

impl Mechanisms {
    /// A usage error when seeding would start a belief above the ceiling, both on: the
    /// variant `all` ended at a median of 8 aliases under a ceiling of 3 (an audit). With
    /// either off (`--off seeding`, `--off ceiling`) nothing conflicts.
    pub(crate) fn check(&self, params: &Params) -> Result<(), String> {
        if self.seeding && self.ceiling && params.seed_max > params.ceiling {
            return Err(format!(
                "--seed-max {} is above --ceiling {}: beliefs would start with more aliases \
                 than the ceiling allows",
                params.seed_max, params.ceiling
            ));
        }
        Ok(())
    }

    /// Everything on.
    pub(crate) const ALL: Mechanisms = Mechanisms {
        seeding: true,
        capture_hit: true,
        capture_miss: true,
        ceiling: true,
        counter_signals: true,
        union: true,
    };

    /// The mechanism names, as flags and variant names spell them.
    pub(crate) const NAMES: [&'static str; 6] = [
        "seeding",
        "capture-hit",
        "capture-miss",
        "ceiling",
        "counter-signals",
        "union",
    ];

    /// The switch named `name`.
    pub fn switch(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "seeding" => &mut self.seeding,
            "capture-hit" => &mut self.capture_hit,
            "capture-miss" => &mut self.capture_miss,
            "ceiling" => &mut self.ceiling,
            "counter-signals" => &mut self.counter_signals,
            "union" => &mut self.union,
            _ => return None,
        })
    }
}

/// A named set of mechanisms: one line of the figure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Variant {
    /// `all`, `no-capture-hit`, `seed-only`, ...
    pub name: String,
    /// What is on.
    pub mechanisms: Mechanisms,
}

/// The variants the study runs by default: everything, each capture mechanism off alone, and
/// the store as seeded (no capture at all).
pub(crate) const DEFAULT_VARIANTS: &str =
    "all,no-capture-hit,no-capture-miss,no-counter-signals,no-union,seed-only";

impl Variant {
    /// `all`, `seed-only` (no capture of any kind), or `no-<mechanism>`, applied to `base`.
    pub(crate) fn parse(name: &str, base: Mechanisms) -> Result<Variant, String> {
        let mut mechanisms = base;
        match name {
            "all" => {}
            "seed-only" => {
                mechanisms.capture_hit = false;
                mechanisms.capture_miss = false;
                mechanisms.counter_signals = false;
                mechanisms.union = false;
            }
            _ => {
                let off = name.strip_prefix("no-").and_then(|m| mechanisms.switch(m));
                match off {
                    Some(flag) => *flag = false,
                    None => {
                        return Err(format!(
                            "variant {name:?}: expected all, seed-only or no-<mechanism> with a \
                             mechanism of {}",
                            Mechanisms::NAMES.join(", ")
                        ))
                    }
                }
            }
        }
        Ok(Variant {
            name: name.to_string(),
            mechanisms,
        })
    }
}

/// Progress of a long piece of work: `done` of `total` `unit`.
pub(crate) type Progress<'a> = &'a mut dyn FnMut(usize, usize, &str);
