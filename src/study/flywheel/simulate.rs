//! Replay a [`Trace`] against the real belief store and the real alias-BM25 backend, capturing
//! aliases as the essay describes (`docs/spec/alias-flywheel.md`, mechanisms 1-6):
//!
//! - a created belief enters the store with its seeded aliases (none with seeding off);
//! - each message is prepared as the suites prepare queries (spec §B) and searched for the
//!   user (limit and minimum score as the suites use them, spec §C.4);
//! - on a hit, the message's forms for the belief that it lacks are added (`$addToSet`, the
//!   session update of the suites); after a clarified miss, the missed forms are added;
//! - a supersession marks the old belief superseded and, with counter-signals, gives its
//!   canonical name and aliases to the replacement; a merge marks the absorbed belief
//!   superseded by the survivor and, with union, gives the survivor its aliases;
//! - with the ceiling on, a belief holding `ceiling` aliases takes no more (counted as refused).
//!
//! Every mutation goes through [`BeliefStore`] at once. The index is rebuilt from the store at
//! the start of each session, so what a session captured is searchable from the next one on
//! (the essay's capture pays off "in a later session"). Rebuilding is also what a Lucene merge
//! does to replaced versions (spec §C.6), and re-indexing each update instead costs one commit
//! per alias: several times the whole run.

use super::metrics::SessionMetrics;
use super::user::{Event, RefKind, Trace};
use super::{Mechanisms, Params, Progress};
use crate::backend::bm25::{Bm25Backend, Bm25Config};
use crate::backend::{Backend, SearchRequest};
use crate::error::{Error, Result};
use crate::profile::Profile;
use crate::store::BeliefStore;
use crate::suite::{Belief, BeliefUpdate, DEFAULT_USER};

/// Which counter an addition of aliases feeds.
#[derive(Debug, Clone, Copy)]
enum Why {
    Hit,
    Miss,
    CounterSignal,
    Union,
}

/// The store and its index during a replay.
pub(crate) struct Replay<'a> {
    /// The belief store.
    pub store: BeliefStore<'a>,
    backend: Option<Bm25Backend>,
    params: &'a Params,
    mechanisms: Mechanisms,
}

impl<'a> Replay<'a> {
    /// A replay over `initial` (already seeded, or stripped of aliases by the caller).
    pub(crate) fn new(
        initial: &'a [Belief],
        params: &'a Params,
        mechanisms: Mechanisms,
    ) -> Replay<'a> {
        Replay {
            store: BeliefStore::new(initial),
            backend: None,
            params,
            mechanisms,
        }
    }

    /// Rebuild the index from the store (a merge: replaced versions expunged).
    pub(crate) fn reindex(&mut self) -> Result<()> {
        let snapshot: Vec<Belief> = self.store.beliefs().cloned().collect();
        let config = Bm25Config {
            min_score: self.params.min_score,
            ..Bm25Config::default()
        };
        self.backend = Some(Bm25Backend::with_config(&snapshot, config)?);
        Ok(())
    }

    /// The ids `message` retrieves for the user, best first.
    pub(crate) fn search(&self, message: &str) -> Result<Vec<String>> {
        let Some(backend) = &self.backend else {
            return Err(Error::backend("flywheel", "searched before indexing"));
        };
        let query = crate::query::prepare(message, Profile::Head).query;
        if query.is_empty() {
            return Ok(Vec::new());
        }
        let request = SearchRequest::of_user(DEFAULT_USER, &query, self.params.limit);
        let hits = backend
            .search(&request)
            .map_err(|e| Error::backend("bm25", e))?;
        Ok(hits.into_iter().map(|h| h.id).collect())
    }

    /// Add `forms` to `id`'s aliases, as far as the ceiling allows: (added, refused).
    pub(crate) fn add_aliases(&mut self, id: &str, forms: &[String]) -> Result<(usize, usize)> {
        let Some(belief) = self.store.get(id) else {
            return Ok((0, 0));
        };
        let mut new: Vec<String> = Vec::new();
        for f in forms {
            let f = crate::js::trim(f).to_lowercase();
            if !f.is_empty() && !belief.aliases.contains(&f) && !new.contains(&f) {
                new.push(f);
            }
        }
        let room = match self.mechanisms.ceiling {
            true => self.params.ceiling.saturating_sub(belief.aliases.len()),
            false => usize::MAX,
        };
        let take = new.len().min(room);
        let refused = new.len() - take;
        new.truncate(take);
        if new.is_empty() {
            return Ok((0, refused));
        }
        let update = BeliefUpdate {
            belief_id: id.to_string(),
            add_aliases: new,
            set_content: None,
            set_canonical_name: None,
            note: None,
        };
        self.store.add_aliases(&update);
        Ok((take, refused))
    }

    fn capture(
        &mut self,
        id: &str,
        forms: &[String],
        why: Why,
        m: &mut SessionMetrics,
    ) -> Result<()> {
        let (added, refused) = self.add_aliases(id, forms)?;
        m.refused_at_ceiling += refused;
        match why {
            Why::Hit => m.captured_on_hit += added,
            Why::Miss => m.captured_after_miss += added,
            Why::CounterSignal => m.counter_signal_aliases += added,
            Why::Union => m.union_aliases += added,
        }
        Ok(())
    }

    fn insert(&mut self, belief: &Belief) {
        let mut belief = belief.clone();
        if !self.mechanisms.seeding {
            belief.aliases.clear();
        }
        self.store.insert(belief);
    }

    /// The store's names for `id`: canonical name, then aliases.
    fn names(&self, id: &str) -> Vec<String> {
        self.store
            .get(id)
            .map(|b| {
                std::iter::once(&b.canonical_name)
                    .chain(&b.aliases)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Apply one session's store events.
    pub(crate) fn apply(&mut self, event: &Event, m: &mut SessionMetrics) -> Result<()> {
        match event {
            Event::Create(belief) => self.insert(belief),
            Event::Supersede { old, new } => {
                self.insert(new);
                let names = self.names(old);
                self.store.supersede(old, &new.id);
                m.supersessions += 1;
                if self.mechanisms.counter_signals {
                    self.capture(&new.id, &names, Why::CounterSignal, m)?;
                }
            }
            Event::Merge { survivor, absorbed } => {
                let names = self.names(absorbed);
                self.store.supersede(absorbed, survivor);
                m.merges += 1;
                if self.mechanisms.union {
                    self.capture(survivor, &names, Why::Union, m)?;
                }
            }
        }
        Ok(())
    }
}

/// Replay `trace` under `mechanisms`: one [`SessionMetrics`] per session. `progress` hears
/// each finished session.
pub fn simulate(
    trace: &Trace,
    params: &Params,
    mechanisms: Mechanisms,
    progress: Progress<'_>,
) -> Result<Vec<SessionMetrics>> {
    let initial: Vec<Belief> = trace
        .initial
        .iter()
        .map(|b| {
            let mut b = b.clone();
            if !mechanisms.seeding {
                b.aliases.clear();
            }
            b
        })
        .collect();
    let mut replay = Replay::new(&initial, params, mechanisms);
    let mut out = Vec::with_capacity(trace.sessions.len());
    for (s, plan) in trace.sessions.iter().enumerate() {
        let mut m = SessionMetrics {
            session: s + 1,
            ..SessionMetrics::default()
        };
        for event in &plan.events {
            replay.apply(event, &mut m)?;
        }
        replay.reindex()?;
        for r in &plan.references {
            let ids = replay.search(&r.message)?;
            let hit = ids.contains(&r.gold);
            m.references += 1;
            m.retrieved += ids.len();
            m.correct += usize::from(hit);
            m.covered += usize::from(hit);
            m.empty += usize::from(ids.is_empty());
            match r.kind {
                RefKind::OldForm => {
                    m.old_form_refs += 1;
                    m.old_form_covered += usize::from(hit);
                }
                RefKind::Merged => {
                    m.merged_refs += 1;
                    m.merged_covered += usize::from(hit);
                }
                RefKind::Plain => {}
            }
            if hit && mechanisms.capture_hit {
                replay.capture(&r.gold, &r.forms, Why::Hit, &mut m)?;
            } else if !hit && r.clarified {
                m.clarified_misses += 1;
                if mechanisms.capture_miss {
                    replay.capture(&r.gold, &r.forms, Why::Miss, &mut m)?;
                }
            }
        }
        m.finish(&replay.store);
        out.push(m);
        progress(s + 1, trace.sessions.len(), "sessions");
    }
    Ok(out)
}
