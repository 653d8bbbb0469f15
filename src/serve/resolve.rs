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
/// list; none means no scope filter. Anything else (a number, a list holding one) is refused:
/// it searched with no scope filter.
pub(super) fn scopes(body: &Value) -> Result<Vec<String>, String> {
    let list = |key: &str| -> Result<Option<Vec<String>>, String> {
        let bad = || format!("{key}: expected a string or a list of strings");
        match &body[key] {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(vec![s.clone()])),
            Value::Array(a) => a
                .iter()
                .map(|s| s.as_str().map(str::to_string).ok_or_else(bad))
                .collect::<Result<_, _>>()
                .map(Some),
            _ => Err(bad()),
        }
    };
    Ok(match list("scopes")? {
        Some(scopes) => scopes,
        None => list("scope")?.unwrap_or_default(),
    })
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

    /// Is `id` one of the suite's beliefs (its corpus, or one its sessions create)?
    pub(super) fn knows(&self, id: &str) -> bool {
        self.known.contains_key(id)
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
        // An update names the belief it updates, and one that is live: an update without an
        // id, or of one never added, created a belief in silence (a sixteenth audit).
        if update {
            match id {
                None => {
                    return Err("expected {\"beliefId\": string, ...}: the belief to update".into())
                }
                Some(id) if !self.live.contains_key(id) => {
                    return Err(format!("no belief {id:?} to update: add it first"))
                }
                Some(_) => {}
            }
        }
        // A suite belief keeps its fields (the text selects its version); any other belief, and
        // a suite belief sent with a text that is none of its versions, is indexed from the text
        // it was sent with.
        let suite_belief = id
            .filter(|id| self.known.contains_key(*id))
            .and_then(|id| self.live.get(id).or_else(|| self.known.get(id)));
        if let Some(version) = suite_belief.and_then(|current| self.version_for(current, text)) {
            return Ok(version);
        }
        let id = match id {
            Some(id) => id.to_string(),
            None => format!("serve-{}", self.live.len() + 1),
        };
        let sent_aliases: Option<Vec<String>> = body["aliases"].as_array().map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        });
        let (canonical_name, aliases, content) = match (sent_aliases, self.live.get(&id)) {
            (Some(aliases), _) => split_seed_text(text, aliases),
            (None, Some(current)) => split_updated_text(text, current),
            (None, None) => (text.to_string(), Vec::new(), text.to_string()),
        };
        if let Some(current) = suite_belief {
            return Ok(Belief {
                canonical_name,
                aliases,
                content,
                why_it_matters: None,
                ..current.clone()
            });
        }
        Ok(Belief {
            aliases,
            scope: scopes(metadata)?,
            pinned: metadata["pinned"].as_bool().unwrap_or(false),
            superseded_by: metadata["superseded_by"].as_str().map(str::to_string),
            content,
            ..Belief::new(id, user_id.to_string(), BeliefType::Entity, canonical_name)
        })
    }

    /// `current`, or `current` with the suite's alias updates merged (trimmed, lower-cased, no
    /// repeats, as both harnesses merge them), whichever is the text that was sent; `None` when
    /// neither is.
    fn version_for(&self, current: &Belief, text: &str) -> Option<Belief> {
        if belief_text(current) == text {
            return Some(current.clone());
        }
        let mut updated = current.clone();
        for alias in self.alias_updates.get(&current.id).into_iter().flatten() {
            let alias = crate::js::trim(alias).to_lowercase();
            if !updated.aliases.contains(&alias) {
                updated.aliases.push(alias);
            }
        }
        (belief_text(&updated) == text).then_some(updated)
    }
}

/// A belief that is not the suite's, from a seed `/add` (text and aliases): the client's text is
/// `canonical_name aliases... content why_it_matters`, so the part before the aliases is the
/// name and the part after them the content. A text of another shape is both name and content.
fn split_seed_text(text: &str, aliases: Vec<String>) -> (String, Vec<String>, String) {
    let joined = aliases.join(" ");
    if !joined.is_empty() {
        if let Some((name, rest)) = text.split_once(&format!(" {joined}")) {
            if !name.is_empty() && (rest.is_empty() || rest.starts_with(' ')) {
                return (name.to_string(), aliases, rest.trim_start().to_string());
            }
        }
    }
    (text.to_string(), aliases, text.to_string())
}

/// A later text for a belief that is not the suite's (`/update`, or a second `/add` without
/// aliases): when it is the current name, aliases and content with words added after the
/// aliases, those words are a new alias (the harness's alias updates); otherwise the text
/// replaces name and content, aliases kept.
fn split_updated_text(text: &str, current: &Belief) -> (String, Vec<String>, String) {
    let keep = || (text.to_string(), current.aliases.clone(), text.to_string());
    let Some(rest) = text.strip_prefix(current.canonical_name.as_str()) else {
        return keep();
    };
    let middle = if current.content.is_empty() {
        Some(rest)
    } else {
        rest.strip_suffix(current.content.as_str())
    };
    let Some(middle) = middle else {
        return keep();
    };
    let Some(added) = middle
        .trim()
        .strip_prefix(current.aliases.join(" ").as_str())
    else {
        return keep();
    };
    let mut aliases = current.aliases.clone();
    if !added.trim().is_empty() {
        aliases.push(added.trim().to_string());
    }
    (
        current.canonical_name.clone(),
        aliases,
        current.content.clone(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn belief(name: &str, aliases: &[&str], content: &str) -> Belief {
        serde_json::from_value(serde_json::json!({
            "_id": "x", "user_id": "u", "type": "entity", "canonical_name": name,
            "aliases": aliases, "content": content,
        }))
        .unwrap()
    }

    #[test]
    fn a_seed_text_splits_around_its_aliases() {
        let b = belief(
            "redis_cache",
            &["Redis", "the cache"],
            "Redis is the cache.",
        );
        let text = belief_text(&b);
        let aliases = b.aliases.clone();
        assert_eq!(
            split_seed_text(&text, aliases.clone()),
            (
                "redis_cache".into(),
                aliases.clone(),
                "Redis is the cache.".into()
            )
        );
        // A text of another shape is name and content both.
        assert_eq!(
            split_seed_text("just words", aliases.clone()),
            ("just words".into(), aliases, "just words".into())
        );
    }

    #[test]
    fn an_updated_text_adds_what_follows_the_aliases_as_one_alias() {
        let b = belief("redis_cache", &["Redis"], "Redis is the cache.");
        let (name, aliases, content) =
            split_updated_text("redis_cache Redis valkey fork Redis is the cache.", &b);
        assert_eq!(
            (name.as_str(), content.as_str()),
            ("redis_cache", "Redis is the cache.")
        );
        assert_eq!(aliases, ["Redis", "valkey fork"]);
        // The same text again adds nothing; another text replaces name and content.
        assert_eq!(split_updated_text(&belief_text(&b), &b).1, ["Redis"]);
        let other = split_updated_text("something else entirely", &b);
        assert_eq!(
            (other.0.as_str(), other.2.as_str()),
            ("something else entirely", "something else entirely")
        );
    }
}
