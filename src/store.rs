//! The belief collection in natural (insertion) order, and the MongoDB `find`s the context
//! builder runs on it besides search: pinned facts, open questions, relation participants.

use crate::profile::Profile;
use crate::suite::{Belief, BeliefType, BeliefUpdate};
use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// Beliefs in natural order: seed order, then beliefs created during a session; with an id
/// index, so that looking a belief up (every relation hit, every session update) does not scan
/// the corpus, and each user's pinned beliefs listed, so that the pinned-fact and open-question
/// finds (both ask for pinned beliefs of one user) read that list, not the corpus. Session
/// updates change neither a belief's user nor whether it is pinned, so the lists only grow.
///
/// The store borrows the suite's corpus and copies a belief only when a session changes it
/// (copy on write), so a large corpus is not held twice.
///
/// Per seed belief the store holds a reference (16 bytes) and an id entry borrowing the
/// belief's id: at 1M beliefs, 0.5 GB less than a `Cow<Belief>` (the size of a belief) and an
/// owned id per entry.
#[derive(Debug, Clone)]
pub(crate) struct BeliefStore<'a> {
    beliefs: Vec<Held<'a>>,
    /// Positions in `beliefs` of each id, in natural order (the first is what a scan finds).
    by_id: HashMap<Cow<'a, str>, Positions>,
    /// Positions of each user's pinned beliefs, in natural order.
    pinned_by_user: HashMap<String, Vec<usize>>,
}

/// A belief as the store holds it: the seed's, borrowed, or a copy a session changed or created.
#[derive(Debug, Clone)]
enum Held<'a> {
    Seed(&'a Belief),
    Changed(Box<Belief>),
}

impl std::ops::Deref for Held<'_> {
    type Target = Belief;
    fn deref(&self) -> &Belief {
        match self {
            Held::Seed(b) => b,
            Held::Changed(b) => b,
        }
    }
}

impl Held<'_> {
    /// The belief, copied first if it is still the seed's.
    fn to_mut(&mut self) -> &mut Belief {
        if let Held::Seed(b) = self {
            *self = Held::Changed(Box::new((*b).clone()));
        }
        match self {
            Held::Changed(b) => b,
            Held::Seed(_) => unreachable!("copied above"),
        }
    }
}

/// Where one id occurs: once, but for a corpus that repeats an id.
#[derive(Debug, Clone)]
enum Positions {
    One(usize),
    Many(Vec<usize>),
}

impl Positions {
    fn first(&self) -> usize {
        match self {
            Positions::One(at) => *at,
            Positions::Many(all) => all[0],
        }
    }

    fn all(&self) -> &[usize] {
        match self {
            Positions::One(at) => std::slice::from_ref(at),
            Positions::Many(all) => all,
        }
    }

    fn push(&mut self, at: usize) {
        match self {
            Positions::One(first) => *self = Positions::Many(vec![*first, at]),
            Positions::Many(all) => all.push(at),
        }
    }
}

/// Which relation participants an expansion may add.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Participants {
    /// Active beliefs that are not open questions (Tenure's reader).
    ActiveBeliefs,
    /// Any of the user's in-scope beliefs (PrecisionMemBench's vector adapter).
    Any,
}

/// MongoDB `cursor.limit(n)`: 0 means no limit, a negative n means |n|.
fn take_limit(n: i64) -> usize {
    if n == 0 {
        usize::MAX
    } else {
        n.unsigned_abs() as usize
    }
}

const UNIVERSAL_SCOPES: [&str; 2] = ["universal", "user:universal"];

impl<'a> BeliefStore<'a> {
    /// A store over `corpus`, borrowed.
    pub(crate) fn new(corpus: &'a [Belief]) -> BeliefStore<'a> {
        let mut store = BeliefStore {
            beliefs: Vec::with_capacity(corpus.len()),
            by_id: HashMap::with_capacity(corpus.len()),
            pinned_by_user: HashMap::new(),
        };
        for belief in corpus {
            store.push(Held::Seed(belief));
        }
        store
    }

    /// All beliefs, natural order.
    pub(crate) fn beliefs(&self) -> impl Iterator<Item = &Belief> {
        self.beliefs.iter().map(|b| &**b)
    }

    /// Look a belief up by id.
    pub(crate) fn get(&self, id: &str) -> Option<&Belief> {
        self.by_id.get(id).map(|at| &*self.beliefs[at.first()])
    }

    /// `user_id`'s pinned beliefs, natural order.
    fn pinned_of(&self, user_id: &str) -> impl Iterator<Item = &Belief> {
        self.pinned_by_user
            .get(user_id)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|&i| &*self.beliefs[i])
    }

    /// Pinned facts (spec §D.3): user, active, pinned, not a question, scope rule of the
    /// profile; sorted by user_edited then last_reinforced_at (both descending, stable).
    pub(crate) fn pinned_facts(
        &self,
        profile: Profile,
        user_id: &str,
        scope: &[String],
        limit: i64,
    ) -> Vec<&Belief> {
        let universal = |b: &Belief| {
            b.scope
                .iter()
                .any(|s| UNIVERSAL_SCOPES.contains(&s.as_str()))
        };
        let mut facts: Vec<&Belief> = self
            .pinned_of(user_id)
            .filter(|b| b.is_active() && b.kind != BeliefType::OpenQuestion)
            .filter(|b| match profile {
                Profile::Paper => {
                    !universal(b) && (scope.is_empty() || b.user_edited || b.in_scope(scope))
                }
                Profile::Head if scope.is_empty() => !universal(b),
                Profile::Head => b.in_scope(scope),
            })
            .collect();
        // MongoDB sorts a missing date below any date.
        facts.sort_by(|a, b| {
            b.user_edited
                .cmp(&a.user_edited)
                .then_with(|| b.last_reinforced_at.cmp(&a.last_reinforced_at))
        });
        facts.truncate(take_limit(limit));
        facts
    }

    /// Pinned open questions (spec §D.4): user, active, in scope when a scope is given,
    /// natural order.
    pub(crate) fn open_questions(
        &self,
        user_id: &str,
        scope: &[String],
        limit: i64,
    ) -> Vec<&Belief> {
        self.pinned_of(user_id)
            .filter(|b| b.is_active() && b.kind == BeliefType::OpenQuestion)
            .filter(|b| scope.is_empty() || b.in_scope(scope))
            .take(take_limit(limit))
            .collect()
    }

    /// HEAD one-hop relation expansion (spec §D.6): participants of the relation hits, less
    /// `excluded`, that are the user's and in scope; natural order. Tenure's reader also asks
    /// them to be active and not questions (`Participants::ActiveBeliefs`); PrecisionMemBench's
    /// vector adapter does not (`Participants::Any`, spec §E).
    pub(crate) fn relation_participants(
        &self,
        hit_ids: &[String],
        excluded: &[String],
        user_id: &str,
        scope: &[String],
        which: Participants,
    ) -> Vec<&Belief> {
        let wanted: Vec<&String> = hit_ids
            .iter()
            .filter_map(|id| self.get(id))
            .filter(|b| b.kind == BeliefType::Relation)
            .flat_map(|b| b.participants.iter())
            .filter(|id| !excluded.contains(id))
            .collect();
        // Every belief holding a wanted id, in natural order (as a scan of the corpus finds them).
        let mut at: Vec<usize> = wanted
            .iter()
            .filter_map(|id| self.by_id.get(id.as_str()))
            .flat_map(Positions::all)
            .copied()
            .collect();
        at.sort_unstable();
        at.dedup();
        at.into_iter()
            .map(|i| &*self.beliefs[i])
            .filter(|b| b.user_id == user_id)
            .filter(|b| {
                which == Participants::Any || (b.is_active() && b.kind != BeliefType::OpenQuestion)
            })
            .filter(|b| scope.is_empty() || b.in_scope(scope))
            .collect()
    }

    /// PrecisionMemBench's vector adapter's pinned facts (spec §E): user, pinned, not a
    /// question, active, in scope; no universal exclusion, no sort, no limit.
    pub(crate) fn vector_adapter_pinned(&self, user_id: &str, scope: &[String]) -> Vec<&Belief> {
        self.pinned_of(user_id)
            .filter(|b| {
                b.kind != BeliefType::OpenQuestion
                    && b.is_active()
                    && (scope.is_empty() || b.in_scope(scope))
            })
            .collect()
    }

    /// PrecisionMemBench's vector adapter's questions (spec §E): user, pinned open questions
    /// not resolved (superseded is not checked), in scope; natural order, `limit` at most.
    pub(crate) fn vector_adapter_questions(
        &self,
        user_id: &str,
        scope: &[String],
        limit: i64,
    ) -> Vec<&Belief> {
        self.pinned_of(user_id)
            .filter(|b| {
                b.kind == BeliefType::OpenQuestion
                    && b.resolved_at.is_none()
                    && (scope.is_empty() || b.in_scope(scope))
            })
            .take(limit.max(0) as usize)
            .collect()
    }

    /// Append a new belief (session create).
    pub(crate) fn insert(&mut self, belief: Belief) {
        self.push(Held::Changed(Box::new(belief)));
    }

    fn push(&mut self, belief: Held<'a>) {
        let at = self.beliefs.len();
        let id = match belief {
            Held::Seed(b) => Cow::Borrowed(b.id.as_str()),
            Held::Changed(ref b) => Cow::Owned(b.id.clone()),
        };
        match self.by_id.entry(id) {
            Entry::Occupied(mut e) => e.get_mut().push(at),
            Entry::Vacant(e) => {
                e.insert(Positions::One(at));
            }
        }
        if belief.pinned {
            self.pinned_by_user
                .entry(belief.user_id.clone())
                .or_default()
                .push(at);
        }
        self.beliefs.push(belief);
    }

    fn get_mut(&mut self, id: &str) -> Option<&mut Belief> {
        let i = self.by_id.get(id)?.first();
        Some(self.beliefs[i].to_mut())
    }

    /// The `$set` of a session update, applied in place (natural order unchanged). Upstream
    /// always sets a fresh `updated_at` alongside, so the document is rewritten even when the
    /// values are equal: returns the new version, or `None` when there is nothing to set (empty
    /// strings count as absent, as JavaScript's truthiness test has it) or the id is unknown.
    pub(crate) fn set_fields(&mut self, update: &BeliefUpdate) -> Option<&Belief> {
        let content = update.set_content.as_deref().filter(|s| !s.is_empty());
        let name = update
            .set_canonical_name
            .as_deref()
            .filter(|s| !s.is_empty());
        if content.is_none() && name.is_none() {
            return None;
        }
        let belief = self.get_mut(&update.belief_id)?;
        if let Some(content) = content {
            belief.content = content.to_string();
        }
        if let Some(name) = name {
            belief.canonical_name = name.to_string();
        }
        Some(belief)
    }

    /// Mark `id` superseded by `by` (its replacement, or the survivor of a merge): the belief
    /// stays in the collection but is no longer active, so search filters it out (spec §C.2).
    /// Returns the new version, or `None` when the id is unknown.
    pub(crate) fn supersede(&mut self, id: &str, by: &str) -> Option<&Belief> {
        let belief = self.get_mut(id)?;
        belief.superseded_by = Some(by.to_string());
        Some(belief)
    }

    /// The `$addToSet` of a session update: trimmed, lowercased aliases appended in order,
    /// skipping values already present. Returns the new version, or `None` when nothing was
    /// added (MongoDB then writes nothing) or the id is unknown.
    pub(crate) fn add_aliases(&mut self, update: &BeliefUpdate) -> Option<&Belief> {
        let belief = self.get_mut(&update.belief_id)?;
        let before = belief.aliases.len();
        for alias in &update.add_aliases {
            let alias = crate::js::trim(alias).to_lowercase();
            if !belief.aliases.contains(&alias) {
                belief.aliases.push(alias);
            }
        }
        (belief.aliases.len() > before).then_some(&*belief)
    }
}
