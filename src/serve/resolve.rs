//! Turning what `/add` receives into a belief: the suite's own when the id is one of its
//! beliefs, else one made from the text.

use crate::backend::http::wire::belief_text;
use crate::suite::{Belief, BeliefType, Suite};
use serde_json::Value;
use std::collections::HashMap;

/// The suite's beliefs by id, the alias updates its sessions make, and what is live.
pub(super) struct Catalogue {
    known: HashMap<String, Belief>,
    alias_updates: HashMap<String, Vec<String>>,
    live: HashMap<String, Belief>,
}

/// The scope list of a search: `scopes` (the careful client's), else `scope` as a string or a
/// list; none means no scope filter.
pub(super) fn scopes(body: &Value) -> Vec<String> {
    let list = |v: &Value| -> Option<Vec<String>> {
        match v {
            Value::String(s) => Some(vec![s.clone()]),
            Value::Array(a) => Some(
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect(),
            ),
            _ => None,
        }
    };
    list(&body["scopes"])
        .or_else(|| list(&body["scope"]))
        .unwrap_or_default()
}

impl Catalogue {
    pub(super) fn new(suite: &Suite) -> Catalogue {
        let mut known = HashMap::new();
        let mut alias_updates: HashMap<String, Vec<String>> = HashMap::new();
        for b in &suite.corpus {
            known.insert(b.id.clone(), b.clone());
        }
        for turn in suite.sessions.iter().flat_map(|c| &c.turns) {
            if let Some(b) = &turn.create_belief_at_turn {
                known.insert(b.id.clone(), b.clone());
            }
            if let Some(u) = &turn.update_belief_at_turn {
                alias_updates
                    .entry(u.belief_id.clone())
                    .or_default()
                    .extend(u.add_aliases.iter().cloned());
            }
        }
        Catalogue {
            known,
            alias_updates,
            live: HashMap::new(),
        }
    }

    pub(super) fn clear(&mut self) {
        self.live.clear();
    }

    pub(super) fn live(&self) -> usize {
        self.live.len()
    }

    pub(super) fn is_live(&self, id: &str) -> bool {
        self.live.contains_key(id)
    }

    pub(super) fn record(&mut self, belief: Belief) {
        self.live.insert(belief.id.clone(), belief);
    }

    /// The text a live belief is served with.
    pub(super) fn text(&self, id: &str) -> String {
        self.live.get(id).map(belief_text).unwrap_or_default()
    }

    /// The belief an `/add` or `/update` body stands for.
    pub(super) fn resolve(&self, body: &Value, update: bool) -> Result<Belief, String> {
        let text = body["text"]
            .as_str()
            .ok_or("expected {\"text\": string, \"user_id\": string, \"metadata\": {...}}")?;
        let user_id = body["user_id"]
            .as_str()
            .ok_or("expected a string user_id")?;
        let metadata = &body["metadata"];
        let id = if update {
            &body["beliefId"]
        } else {
            &metadata["beliefId"]
        };
        let id = id.as_str().filter(|s| !s.is_empty());
        let current = id.and_then(|id| self.live.get(id).or_else(|| self.known.get(id)));
        if let Some(current) = current {
            return Ok(self.version_for(current, text));
        }
        let id = match id {
            Some(id) => id.to_string(),
            None => format!("serve-{}", self.live.len() + 1),
        };
        let aliases = body["aliases"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        Ok(Belief {
            id,
            user_id: user_id.to_string(),
            kind: BeliefType::Entity,
            subtype: None,
            canonical_name: text.to_string(),
            aliases,
            scope: scopes(metadata),
            pinned: metadata["pinned"].as_bool().unwrap_or(false),
            user_edited: false,
            last_reinforced_at: None,
            resolved_at: None,
            superseded_by: metadata["superseded_by"].as_str().map(str::to_string),
            participants: Vec::new(),
            relation_type: None,
            content: text.to_string(),
            why_it_matters: None,
        })
    }

    /// `current`, or `current` with the suite's alias updates merged (trimmed, lower-cased, no
    /// repeats, as both harnesses merge them) when that is the text that was sent.
    fn version_for(&self, current: &Belief, text: &str) -> Belief {
        if belief_text(current) == text {
            return current.clone();
        }
        let mut updated = current.clone();
        for alias in self.alias_updates.get(&current.id).into_iter().flatten() {
            let alias = crate::js::trim(alias).to_lowercase();
            if !updated.aliases.contains(&alias) {
                updated.aliases.push(alias);
            }
        }
        if belief_text(&updated) == text {
            updated
        } else {
            current.clone()
        }
    }
}
