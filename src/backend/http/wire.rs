//! The bytes of PrecisionMemBench's provider contract (provider-http spec §2, §4): request
//! bodies as its client builds them (`JSON.stringify`, keys in its order, compact) and the
//! search answer as its client reads it.

use crate::suite::Belief;
use serde_json::{json, Map, Value};

/// A belief's text as the client sends it (spec §4): canonical name, each alias, content,
/// why it matters; empty parts dropped, joined by single spaces.
pub fn belief_text(belief: &Belief) -> String {
    let mut parts: Vec<&str> = vec![belief.canonical_name.as_str()];
    parts.extend(belief.aliases.iter().map(String::as_str));
    parts.push(belief.content.as_str());
    parts.push(belief.why_it_matters.as_deref().unwrap_or(""));
    parts.retain(|p| !p.is_empty());
    parts.join(" ")
}

/// `metadata` of a static seed (`{beliefId, scope: scope[0]}`, `scope` dropped when the
/// belief has none, as `JSON.stringify` drops `undefined`).
fn static_metadata(belief: &Belief) -> Value {
    let mut m = Map::new();
    m.insert("beliefId".into(), json!(belief.id));
    if let Some(first) = belief.scope.first() {
        m.insert("scope".into(), json!(first));
    }
    Value::Object(m)
}

/// `metadata` of the session adapter, in its seeding and its mutations:
/// `{beliefId, scope: scope[0], type, pinned, superseded_by}` (`null` when not superseded).
pub(crate) fn session_metadata(belief: &Belief) -> Value {
    let mut m = match static_metadata(belief) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    m.insert(
        "type".into(),
        serde_json::to_value(belief.kind).unwrap_or(Value::Null),
    );
    m.insert("pinned".into(), json!(belief.pinned));
    m.insert("superseded_by".into(), json!(belief.superseded_by));
    Value::Object(m)
}

/// E2, a seed `/add`: `{text, user_id, metadata, aliases}`.
pub(crate) fn seed_body(belief: &Belief, sessions: bool) -> Vec<u8> {
    let metadata = if sessions {
        session_metadata(belief)
    } else {
        static_metadata(belief)
    };
    compact(&json!({
        "text": belief_text(belief),
        "user_id": belief.user_id,
        "metadata": metadata,
        "aliases": belief.aliases,
    }))
}

/// E5 and E7, a session `/add`: `{text, user_id, metadata}` (no aliases).
pub(crate) fn session_add_body(belief: &Belief) -> Vec<u8> {
    compact(&json!({
        "text": belief_text(belief),
        "user_id": belief.user_id,
        "metadata": session_metadata(belief),
    }))
}

/// E6, `PUT /update`: `{beliefId, text, user_id, metadata}`.
pub(crate) fn update_body(belief: &Belief) -> Vec<u8> {
    compact(&json!({
        "beliefId": belief.id,
        "text": belief_text(belief),
        "user_id": belief.user_id,
        "metadata": session_metadata(belief),
    }))
}

/// E4, `/search`: `{query, user_id, limit, scope}` with the first scope only (dropped when
/// there is none). The careful client adds `scopes`, the whole list (D5).
pub(crate) fn search_body(
    query: &str,
    user_id: &str,
    limit: usize,
    scope: &[String],
    all: bool,
) -> Vec<u8> {
    let mut m = Map::new();
    m.insert("query".into(), json!(query));
    m.insert("user_id".into(), json!(user_id));
    m.insert("limit".into(), json!(limit));
    if let Some(first) = scope.first() {
        m.insert("scope".into(), json!(first));
    }
    if all {
        m.insert("scopes".into(), json!(scope));
    }
    compact(&Value::Object(m))
}

fn compact(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}

/// One element of a search answer, as far as the client reads it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RawResult {
    /// The id the client will look up: `id` when truthy (a non-string id as its JSON text);
    /// empty when it has none.
    pub id: String,
    /// The careful client took the id from `metadata.beliefId` (`id` was not a benchmark id).
    pub from_metadata: bool,
    /// The provider's score, when it sent a number.
    pub score: Option<f32>,
}

/// Why a search answer cannot be read at all.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum AnswerError {
    /// An element is `null` (upstream's client throws on `r.id`).
    NullElement(usize),
}

/// The results of a search answer (spec §2.3): `body.results` if it is an array, else `body`
/// if it is one, else nothing. Elements keep the provider's order; filtering (empty, repeated,
/// pinned, unknown ids) is the context builder's. `known` says whether an id is a benchmark
/// id; with `metadata_fallback` an element whose `id` is not one but whose
/// `metadata.beliefId` is, is read by the latter (D4).
pub(crate) fn search_results(
    body: &Value,
    metadata_fallback: bool,
    known: impl Fn(&str) -> bool,
) -> Result<Vec<RawResult>, AnswerError> {
    let list: &[Value] = match body.get("results").and_then(Value::as_array) {
        Some(results) => results,
        None => body.as_array().map(Vec::as_slice).unwrap_or(&[]),
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, element) in list.iter().enumerate() {
        if element.is_null() {
            return Err(AnswerError::NullElement(i));
        }
        let id = match element.get("id") {
            Some(Value::String(s)) => s.clone(),
            Some(v) if truthy(v) => v.to_string(),
            _ => String::new(),
        };
        let meta = element
            .get("metadata")
            .and_then(|m| m.get("beliefId"))
            .and_then(Value::as_str)
            .filter(|m| !m.is_empty());
        let (id, from_metadata) = match meta {
            Some(m) if metadata_fallback && !known(&id) && known(m) => (m.to_string(), true),
            _ => (id, false),
        };
        out.push(RawResult {
            id,
            from_metadata,
            score: element
                .get("score")
                .and_then(Value::as_f64)
                .map(|s| s as f32),
        });
    }
    Ok(out)
}

/// JavaScript truthiness of a JSON value.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0 && !x.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_as_upstream_reads_them() {
        let known = |id: &str| id.starts_with("b-");
        let read = |v: Value, fallback| search_results(&v, fallback, known);
        let body = json!({"results": [
            {"id": "b-a"}, {"id": ""}, {"id": 0}, {"id": 7}, {"memory": "x"}, 3,
            {"id": "uuid-1", "metadata": {"beliefId": "b-z"}, "score": 0.5}
        ]});
        let ids: Vec<String> = read(body.clone(), false)
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .collect();
        assert_eq!(ids, ["b-a", "", "", "7", "", "", "uuid-1"]);
        let careful = read(body, true).unwrap();
        assert_eq!(careful[6].id, "b-z");
        assert!(careful[6].from_metadata);
        assert_eq!(careful[6].score, Some(0.5));
        // A bare array is read too; anything else is no results.
        assert_eq!(read(json!([{"id": "b-a"}]), false).unwrap().len(), 1);
        assert!(read(json!({"detail": "Not Found"}), false)
            .unwrap()
            .is_empty());
        assert_eq!(
            read(json!([{"id": "b-a"}, null]), false),
            Err(AnswerError::NullElement(1))
        );
    }
}
