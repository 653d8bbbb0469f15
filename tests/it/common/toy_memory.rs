//! A small, real memory system with switchable flaws, on `MemoryServer`: it stores what `/add`
//! receives and answers `/search` by keyword overlap, filtered by user and scope. Each flaw is
//! one a published wrapper has (ids only in metadata, no user filter, scope ignored or only the
//! first scope read, no `/update`, errors answered 200, a `/reset` that keeps data).

use super::memory_server::{json, MemoryServer, Reply};
use serde_json::{json as j, Value};
use std::sync::{Arc, Mutex};

/// What this memory system gets wrong.
#[derive(Debug, Clone, Copy, Default)]
pub struct Flaws {
    /// Results carry a store id at the top level and the benchmark id in metadata.beliefId.
    pub ids_in_metadata_only: bool,
    /// Searches return every user's beliefs.
    pub ignore_user: bool,
    /// Searches ignore scope.
    pub ignore_scope: bool,
    /// Searches filter by `scope` and never read `scopes`.
    pub first_scope_only: bool,
    /// `PUT /update` is 404.
    pub no_update: bool,
    /// A bad request is answered 200 with no results.
    pub errors_as_ok: bool,
    /// `/reset` answers 200 and keeps everything.
    pub reset_keeps_data: bool,
    /// A search no stored word matches answers the user's beliefs anyway (a vector store
    /// returns its nearest), and `PUT /update` answers 200 and changes nothing.
    pub neighbours_and_no_op_update: bool,
}

#[derive(Debug, Clone)]
struct Stored {
    id: String,
    user: String,
    scope: Option<String>,
    text: String,
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= 3)
        .map(str::to_lowercase)
        .collect()
}

/// Start a toy memory system with `flaws`.
pub fn start(flaws: Flaws) -> MemoryServer {
    let store: Arc<Mutex<Vec<Stored>>> = Arc::default();
    MemoryServer::start(move |request, _| {
        let body: Value = serde_json::from_str(&request.body).unwrap_or(Value::Null);
        let mut store = store.lock().unwrap();
        match (request.method.as_str(), request.path.as_str()) {
            ("GET", "/health") => json(j!({"status": "ok"})),
            ("DELETE", "/reset") => {
                if !flaws.reset_keeps_data {
                    store.clear();
                }
                json(j!({"status": "ok"}))
            }
            ("POST", "/add") | ("PUT", "/update") => {
                let update = request.method == "PUT";
                if update && flaws.no_update {
                    return Reply::Body(404, r#"{"detail":"Not Found"}"#.into());
                }
                if update && flaws.neighbours_and_no_op_update {
                    return json(j!({"status": "ok"}));
                }
                let id = if update {
                    body["beliefId"].as_str()
                } else {
                    body["metadata"]["beliefId"].as_str()
                };
                let (Some(id), Some(user), Some(text)) =
                    (id, body["user_id"].as_str(), body["text"].as_str())
                else {
                    return Reply::Body(422, r#"{"detail":"bad add"}"#.into());
                };
                store.retain(|s| !(update && s.id == id));
                store.push(Stored {
                    id: id.to_string(),
                    user: user.to_string(),
                    scope: body["metadata"]["scope"].as_str().map(str::to_string),
                    text: text.to_string(),
                });
                json(j!({"status": "ok", "id": format!("mem-{}", store.len())}))
            }
            ("POST", "/search") => {
                let Some(query) = body["query"].as_str() else {
                    return if flaws.errors_as_ok {
                        json(j!({"results": []}))
                    } else {
                        Reply::Body(422, r#"{"detail":"query is required"}"#.into())
                    };
                };
                let user = body["user_id"].as_str().unwrap_or("");
                let scopes: Vec<String> = match (&body["scopes"], &body["scope"]) {
                    (Value::Array(all), _) if !flaws.first_scope_only => all
                        .iter()
                        .filter_map(|s| s.as_str().map(str::to_string))
                        .collect(),
                    (_, Value::String(first)) => vec![first.clone()],
                    _ => Vec::new(),
                };
                let limit = body["limit"].as_u64().unwrap_or(20) as usize;
                let asked = words(query);
                let mut hits: Vec<(usize, usize, &Stored)> = store
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| flaws.ignore_user || s.user == user)
                    .filter(|(_, s)| {
                        flaws.ignore_scope
                            || scopes.is_empty()
                            || s.scope.as_ref().is_some_and(|sc| scopes.contains(sc))
                    })
                    .map(|(i, s)| {
                        let have = words(&s.text);
                        (asked.iter().filter(|w| have.contains(w)).count(), i, s)
                    })
                    .collect();
                let matched = hits.iter().any(|(n, _, _)| *n > 0);
                if matched || !flaws.neighbours_and_no_op_update {
                    hits.retain(|(n, _, _)| *n > 0);
                }
                hits.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                let results: Vec<Value> = hits
                    .iter()
                    .take(limit)
                    .map(|(n, i, s)| {
                        let id = if flaws.ids_in_metadata_only {
                            format!("mem-{}", i + 1)
                        } else {
                            s.id.clone()
                        };
                        j!({"id": id, "memory": s.text, "score": n, "metadata": {"beliefId": s.id}})
                    })
                    .collect();
                json(j!({"results": results}))
            }
            _ => Reply::Body(404, r#"{"detail":"Not Found"}"#.into()),
        }
    })
}
