//! The generative model of one user's vocabulary, written out as a [`Trace`]: what the user
//! does in each session, independent of what the store answers.
//!
//! - Each belief is a topic of the [`super::domain`] with a ranked list of the user's surface
//!   forms (at most `forms`), drawn from the topic's candidate forms in a seeded order; a form
//!   another belief already has is not reused, except that each slot but the first, with
//!   probability `collision`, takes a form of another belief of the same category (a shared
//!   surface form).
//! - A reference picks a belief by popularity (Zipf `topic_skew` over a seeded rank), a form by
//!   usage (Zipf `zipf` over the form ranks), with probability `second_form` a second form in
//!   the same message; it is clarified, should it miss, with probability `clarify`.
//! - Seeding draws `seed_min..=seed_max` distinct forms by usage: what the user said in the
//!   extraction session.
//! - Each session, each belief with probability `drift` gains a newly coined form, which the
//!   user then uses most; with probability `supersede` one belief is replaced by another tool
//!   in the same role, and references to it use a form of the old tool with probability
//!   `old_form`; with probability `merge` two overlapping beliefs of a category merge and the
//!   user's forms for both now mean the survivor.
//! - Each session starts with `growth` new beliefs. A new belief is about a tool the store
//!   already has a belief about with probability `tool_reuse` (`redis` as the cache when
//!   `redis` is already the session store): its two-word forms then contain a word that may be
//!   the other belief's one-word alias.

use super::domain::{topics, Topic};
use super::trace::{unit, weighted, FRAMES, TWO_FORM_FRAMES};
pub use super::trace::{Event, RefKind, Reference, SessionPlan, Trace};
use super::Params;
use crate::suite::synthetic::{room, Rng};
use crate::suite::Belief;
use std::collections::{BTreeMap, BTreeSet};

/// The user's view of one belief.
#[derive(Debug, Clone)]
struct Slot {
    id: String,
    topic: Topic,
    forms: Vec<String>,
    old: Vec<String>,
    absorbed: BTreeSet<String>,
    popularity: f64,
    active: bool,
    coined: usize,
}

struct Model<'p> {
    p: &'p Params,
    rng: Rng,
    /// Topics not used yet, in the seed's order.
    pending: Vec<Topic>,
    slots: Vec<Slot>,
    /// Each form and the slots using it.
    owners: BTreeMap<String, usize>,
    next_id: usize,
}

impl Model<'_> {
    fn form_weights(&self, slot: &Slot) -> Vec<f64> {
        (1..=slot.forms.len())
            .map(|k| 1.0 / (k as f64).powf(self.p.zipf))
            .collect()
    }

    /// A new slot for `topic` (popularity rank drawn), its belief seeded.
    fn new_slot(&mut self, topic: Topic) -> Belief {
        let mut candidates: Vec<String> = topic
            .candidate_forms()
            .into_iter()
            .filter(|f| !self.owners.contains_key(f))
            .collect();
        for i in (1..candidates.len()).rev() {
            candidates.swap(i, self.rng.below(i + 1));
        }
        candidates.truncate(self.p.forms);
        if candidates.is_empty() {
            // Every candidate is another belief's: the user coins one.
            candidates.extend(
                topic
                    .drift_forms()
                    .into_iter()
                    .filter(|f| !self.owners.contains_key(f))
                    .take(1),
            );
        }
        if candidates.is_empty() {
            // Every coined form is taken as well (a fast drift coins them for other beliefs):
            // the user names it as another belief is named, a shared form. A belief the user
            // cannot name at all would be a belief nobody refers to.
            candidates.extend(topic.candidate_forms().into_iter().take(1));
        }
        for k in 1..candidates.len() {
            if unit(&mut self.rng) < self.p.collision {
                let pool: Vec<&String> = self
                    .slots
                    .iter()
                    .filter(|s| s.active && s.topic.category == topic.category)
                    .flat_map(|s| s.forms.iter())
                    .filter(|f| !candidates.contains(f))
                    .collect();
                if !pool.is_empty() {
                    candidates[k] = pool[self.rng.below(pool.len())].clone();
                }
            }
        }
        let index = self.slots.len();
        for f in &candidates {
            *self.owners.entry(f.clone()).or_insert(0) += 1;
        }
        let rank = 1 + self.rng.below(self.p.initial_beliefs.max(index + 1));
        let id = format!("b{:04}", self.next_id);
        self.next_id += 1;
        self.slots.push(Slot {
            id: id.clone(),
            topic,
            forms: candidates,
            old: Vec::new(),
            absorbed: BTreeSet::new(),
            popularity: 1.0 / (rank as f64).powf(self.p.topic_skew),
            active: true,
            coined: 0,
        });
        self.seeded(index)
    }

    /// The belief of slot `index`, seeded with forms drawn by usage.
    fn seeded(&mut self, index: usize) -> Belief {
        let slot = self.slots[index].clone();
        let span = self.p.seed_max - self.p.seed_min + 1;
        let want = (self.p.seed_min + self.rng.below(span)).min(slot.forms.len());
        let mut weights = self.form_weights(&slot);
        let mut aliases = Vec::new();
        while aliases.len() < want {
            let k = weighted(&mut self.rng, weights.iter().copied());
            aliases.push(slot.forms[k].clone());
            weights[k] = 0.0;
        }
        let aliases: Vec<&str> = aliases.iter().map(String::as_str).collect();
        Belief {
            content: slot.topic.content(),
            ..super::trace::belief(&slot.id, &slot.topic.canonical_name(), &aliases)
        }
    }

    /// The next topic: with probability `tool_reuse` the first pending one about a tool the
    /// store has, else the first about a tool it has not (either, when one kind is used up).
    fn next_topic(&mut self) -> Topic {
        if self.pending.is_empty() {
            self.pending = topics(self.p.seed);
        }
        let used: BTreeSet<(usize, usize)> = self
            .slots
            .iter()
            .map(|s| (s.topic.category, s.topic.tool))
            .collect();
        let reuse = unit(&mut self.rng) < self.p.tool_reuse;
        let at = self
            .pending
            .iter()
            .position(|t| used.contains(&(t.category, t.tool)) == reuse)
            .unwrap_or(0);
        self.pending.remove(at)
    }

    fn active(&self) -> Vec<usize> {
        (0..self.slots.len())
            .filter(|&i| self.slots[i].active)
            .collect()
    }

    fn drift(&mut self) {
        for i in self.active() {
            if unit(&mut self.rng) >= self.p.drift {
                continue;
            }
            let slot = &self.slots[i];
            let coined = slot
                .topic
                .drift_forms()
                .into_iter()
                .skip(slot.coined)
                .find(|f| !self.owners.contains_key(f) && !slot.forms.contains(f));
            let slot = &mut self.slots[i];
            slot.coined += 1;
            if let Some(f) = coined {
                *self.owners.entry(f.clone()).or_insert(0) += 1;
                slot.forms.insert(0, f);
            }
        }
    }

    fn supersede(&mut self) -> Option<Event> {
        let active = self.active();
        let i = active[self.rng.below(active.len())];
        let topic = self.slots[i].topic.replacement(&mut self.rng)?;
        let old = self.slots[i].clone();
        self.slots[i].active = false;
        let new = self.new_slot(topic);
        let slot = self.slots.last_mut()?;
        slot.popularity = old.popularity;
        slot.old = old.old.iter().chain(&old.forms).cloned().collect();
        Some(Event::Supersede { old: old.id, new })
    }

    fn merge(&mut self) -> Option<Event> {
        let active = self.active();
        let a = active[self.rng.below(active.len())];
        let ta = self.slots[a].topic;
        let same: Vec<usize> = active
            .iter()
            .copied()
            .filter(|&b| b != a && self.slots[b].topic.category == ta.category)
            .collect();
        let overlapping: Vec<usize> = same
            .iter()
            .copied()
            .filter(|&b| {
                let tb = self.slots[b].topic;
                tb.tool == ta.tool || tb.role == ta.role
            })
            .collect();
        let pool = if overlapping.is_empty() {
            same
        } else {
            overlapping
        };
        if pool.is_empty() {
            return None;
        }
        let b = pool[self.rng.below(pool.len())];
        let (survivor, absorbed) = (a.min(b), a.max(b));
        let gone = self.slots[absorbed].clone();
        self.slots[absorbed].active = false;
        let keep = &mut self.slots[survivor];
        keep.popularity += gone.popularity;
        for f in gone.forms.iter().chain(&gone.absorbed) {
            if !keep.forms.contains(f) {
                keep.forms.push(f.clone());
                keep.absorbed.insert(f.clone());
            }
        }
        keep.old.extend(gone.old);
        Some(Event::Merge {
            survivor: keep.id.clone(),
            absorbed: gone.id,
        })
    }

    fn reference(&mut self) -> Reference {
        let active = self.active();
        let i = active[weighted(
            &mut self.rng,
            active.iter().map(|&i| self.slots[i].popularity),
        )];
        let slot = self.slots[i].clone();
        let weights = self.form_weights(&slot);
        let (first, kind) = if !slot.old.is_empty() && unit(&mut self.rng) < self.p.old_form {
            let f = slot.old[self.rng.below(slot.old.len())].clone();
            (f, RefKind::OldForm)
        } else {
            let f = slot.forms[weighted(&mut self.rng, weights.iter().copied())].clone();
            let kind = match slot.absorbed.contains(&f) {
                true => RefKind::Merged,
                false => RefKind::Plain,
            };
            (f, kind)
        };
        let mut forms = vec![first];
        if slot.forms.len() > 1 && unit(&mut self.rng) < self.p.second_form {
            let mut w = weights.clone();
            if let Some(k) = slot.forms.iter().position(|f| *f == forms[0]) {
                w[k] = 0.0;
            }
            forms.push(slot.forms[weighted(&mut self.rng, w.iter().copied())].clone());
        }
        let message = match forms.as_slice() {
            [a, b] => TWO_FORM_FRAMES[self.rng.below(TWO_FORM_FRAMES.len())]
                .replacen("{}", a, 1)
                .replacen("{}", b, 1),
            _ => FRAMES[self.rng.below(FRAMES.len())].replacen("{}", &forms[0], 1),
        };
        Reference {
            gold: slot.id,
            forms,
            message,
            clarified: unit(&mut self.rng) < self.p.clarify,
            kind,
        }
    }
}

impl<'p> Model<'p> {
    /// A model that will hold `beliefs` beliefs, checked to fit.
    fn new(p: &'p Params, beliefs: Option<usize>) -> Result<Model<'p>, String> {
        Ok(Model {
            p,
            rng: Rng::new(p.seed),
            pending: topics(p.seed),
            slots: room(beliefs, "beliefs")?,
            owners: BTreeMap::new(),
            next_id: 0,
        })
    }
}

/// The trace of `params` (its seed included): the same parameters give the same trace; an
/// error when its beliefs, sessions or references cannot be held in memory.
pub(crate) fn trace(params: &Params) -> Result<Trace, String> {
    let p = params;
    let beliefs = (p.sessions.checked_mul(p.growth)).and_then(|g| g.checked_add(p.initial_beliefs));
    let mut model = Model::new(params, beliefs)?;
    // Every reference is held until the trace is replayed: checked, then let go.
    drop(room::<Reference>(
        p.sessions.checked_mul(p.references),
        "references",
    )?);
    let mut initial = room(Some(params.initial_beliefs), "beliefs")?;
    initial.extend((0..params.initial_beliefs).map(|_| {
        let t = model.next_topic();
        model.new_slot(t)
    }));
    let mut sessions = room(Some(params.sessions), "sessions")?;
    sessions.extend((0..params.sessions).map(|_| {
        let mut plan = SessionPlan::default();
        model.drift();
        for _ in 0..params.growth {
            let t = model.next_topic();
            plan.events.push(Event::Create(model.new_slot(t)));
        }
        if unit(&mut model.rng) < params.supersede {
            plan.events.extend(model.supersede());
        }
        if unit(&mut model.rng) < params.merge {
            plan.events.extend(model.merge());
        }
        plan.references = (0..params.references).map(|_| model.reference()).collect();
        plan
    }));
    Ok(Trace { initial, sessions })
}

/// A store of `size` beliefs of the domain, seeded as the model seeds them, with one query per
/// belief (its user's most used form in a message frame): the vector side's stores. Nested:
/// the store of n is the first n beliefs of any larger one.
/// An error when `size` beliefs cannot be held in memory.
pub fn grown_store(params: &Params, size: usize) -> Result<(Vec<Belief>, Vec<Reference>), String> {
    let p = Params {
        initial_beliefs: size,
        sessions: 0,
        ..params.clone()
    };
    let mut model = Model::new(&p, Some(size))?;
    // Each belief is held three times: its slot, its belief and its query.
    drop(room::<Reference>(Some(size), "queries")?);
    let mut beliefs = room(Some(size), "beliefs")?;
    beliefs.extend((0..size).map(|_| {
        let t = model.next_topic();
        model.new_slot(t)
    }));
    let queries = model
        .slots
        .iter()
        .enumerate()
        .map(|(i, s)| Reference {
            gold: s.id.clone(),
            forms: vec![s.forms[0].clone()],
            message: FRAMES[i % FRAMES.len()].replacen("{}", &s.forms[0], 1),
            clarified: false,
            kind: RefKind::Plain,
        })
        .collect();
    Ok((beliefs, queries))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_belief_has_a_form_to_be_named_by_even_under_fast_drift() {
        // Drift 0.2 coined every spare form of some topics before a belief of theirs was
        // created; that belief had no form and its first reference indexed an empty list.
        for drift in [0.0, 0.02, 0.2, 0.5] {
            let params = Params {
                drift,
                sessions: 50,
                ..Params::default()
            };
            let t = trace(&params).unwrap();
            assert!(t.initial.iter().all(|b| !b.aliases.is_empty()));
            for (s, plan) in t.sessions.iter().enumerate() {
                for r in &plan.references {
                    assert!(!r.forms.is_empty(), "drift {drift}, session {}", s + 1);
                }
            }
        }
    }
}
