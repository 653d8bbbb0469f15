//! HTTP calls to a memory system, counted. ureq (blocking) rather than an async client: the
//! harness sends one call per case from a few threads, and ureq is small, has timeouts per
//! call and no runtime to start.

use super::super::{BackendError, ErrorKind};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

/// The endpoints of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Endpoint {
    /// `DELETE /reset`.
    Reset,
    /// `POST /add`.
    Add,
    /// `POST /wait`.
    Wait,
    /// `POST /search`.
    Search,
    /// `PUT /update`.
    Update,
    /// `GET /health` (doctor only).
    Health,
}

impl Endpoint {
    /// Method and path.
    pub(crate) fn route(self) -> (&'static str, &'static str) {
        match self {
            Endpoint::Reset => ("DELETE", "/reset"),
            Endpoint::Add => ("POST", "/add"),
            Endpoint::Wait => ("POST", "/wait"),
            Endpoint::Search => ("POST", "/search"),
            Endpoint::Update => ("PUT", "/update"),
            Endpoint::Health => ("GET", "/health"),
        }
    }

    fn name(self) -> &'static str {
        &self.route().1[1..]
    }
}

/// What came back: status and body text.
#[derive(Debug, Clone)]
pub(crate) struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Body text.
    pub text: String,
}

impl Reply {
    /// 2xx.
    pub(crate) fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The body as JSON, if it is.
    pub(crate) fn json(&self) -> Option<Value> {
        serde_json::from_str(&self.text).ok()
    }
}

#[derive(Debug, Default)]
struct Counters {
    requests: BTreeMap<&'static str, u64>,
    failures: BTreeMap<&'static str, u64>,
    warnings: BTreeMap<String, u64>,
    from_metadata: u64,
}

/// A base URL and an agent, with counters for the manifest.
pub(crate) struct Client {
    base: String,
    agent: ureq::Agent,
    timeout_secs: u64,
    counters: Mutex<Counters>,
    /// Some call has had an answer (any status).
    answered: std::sync::atomic::AtomicBool,
    /// A refused connection after an answer is [`ErrorKind::Lost`], not a retry (the careful
    /// client's rule; see [`Client::stopping_when_gone`]).
    stop_when_gone: bool,
}

/// The first 200 characters of a body, whitespace runs as one blank, for one-line messages.
pub(crate) fn excerpt(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let t: String = text.chars().take(200).collect();
    if t.len() < text.len() {
        format!("{t}…")
    } else {
        t
    }
}

impl Client {
    /// A client for `base` (trailing slashes dropped) with a per-call timeout.
    pub(crate) fn new(base: &str, timeout_secs: u64) -> Client {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(timeout_secs.max(1))))
            .http_status_as_error(false)
            .build()
            .into();
        Client {
            base: base.trim_end_matches('/').to_string(),
            agent,
            timeout_secs,
            counters: Mutex::new(Counters::default()),
            answered: std::sync::atomic::AtomicBool::new(false),
            stop_when_gone: false,
        }
    }

    /// The same client, for which a connection refused after the system had answered means it
    /// went away (issue 45): the call fails as a lost store at once, where retries would only
    /// wait (16 s of them before) and a supervisor's restart brings back an empty store.
    pub(crate) fn stopping_when_gone(mut self, stop: bool) -> Client {
        self.stop_when_gone = stop;
        self
    }

    /// The base URL.
    pub(crate) fn base(&self) -> &str {
        &self.base
    }

    /// One call. A transport failure (refused, reset, timed out, body cut short) is an error;
    /// any status is a reply, judged by the caller.
    pub(crate) fn call(
        &self,
        endpoint: Endpoint,
        body: Option<&[u8]>,
    ) -> Result<Reply, BackendError> {
        let (method, path) = endpoint.route();
        self.count(|c| *c.requests.entry(endpoint.name()).or_default() += 1);
        let url = format!("{}{path}", self.base);
        let sent = match (endpoint, body) {
            (Endpoint::Reset, _) => self.agent.delete(&url).call(),
            (Endpoint::Health, _) => self.agent.get(&url).call(),
            (Endpoint::Update, Some(b)) => self
                .agent
                .put(&url)
                .header("Content-Type", "application/json")
                .send(b),
            (_, Some(b)) => self
                .agent
                .post(&url)
                .header("Content-Type", "application/json")
                .send(b),
            (_, None) => self.agent.post(&url).send_empty(),
        };
        let answered = self.answered.load(std::sync::atomic::Ordering::Relaxed);
        let fail = |e: ureq::Error| {
            self.count_failed(endpoint);
            let refused = matches!(&e, ureq::Error::Io(io)
                if io.kind() == std::io::ErrorKind::ConnectionRefused);
            if refused && answered && self.stop_when_gone {
                return BackendError::new(
                    ErrorKind::Lost,
                    format!(
                        "{method} {path}: connection refused at {} after it had answered: the \
                         memory system went away",
                        self.base
                    ),
                );
            }
            let message = match e {
                ureq::Error::Timeout(_) => format!("timed out after {} s", self.timeout_secs),
                e => e.to_string(),
            };
            BackendError::transient(format!("{method} {path}: {message}"))
        };
        let mut response = sent.map_err(fail)?;
        self.answered
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().map_err(fail)?;
        if !(200..300).contains(&status) {
            self.count_failed(endpoint);
        }
        Ok(Reply { status, text })
    }

    /// The careful reading of a reply: a non-2xx status is an error (transient for 408, 429
    /// and 5xx), and so is a body that is not JSON.
    pub(crate) fn checked(&self, endpoint: Endpoint, reply: Reply) -> Result<Value, BackendError> {
        let (method, path) = endpoint.route();
        if !reply.ok() {
            let kind = if matches!(reply.status, 408 | 429) || reply.status >= 500 {
                ErrorKind::Transient
            } else {
                ErrorKind::Permanent
            };
            return Err(BackendError::new(
                kind,
                format!(
                    "{method} {path}: HTTP {}: {}",
                    reply.status,
                    excerpt(&reply.text)
                ),
            ));
        }
        reply.json().ok_or_else(|| {
            BackendError::permanent(format!(
                "{method} {path}: the answer is not JSON: {:?}",
                excerpt(&reply.text)
            ))
        })
    }

    /// Note something a careful client would not accept, for the manifest and stderr.
    pub(crate) fn warn(&self, warning: String) {
        self.count(|c| *c.warnings.entry(warning).or_default() += 1);
    }

    /// Count a failed call to `endpoint`: one that failed in transport or answered an error
    /// status, and one whose answer upstream reads as no results though it came with a success
    /// status (a search answering `{"items": []}`), for the rule a compat pass is judged by
    /// (`job::health`).
    pub(crate) fn count_failed(&self, endpoint: Endpoint) {
        self.count(|c| *c.failures.entry(endpoint.name()).or_default() += 1);
    }

    /// Count a result whose id came from `metadata.beliefId`.
    pub(crate) fn count_ids_from_metadata(&self, n: u64) {
        self.count(|c| c.from_metadata += n);
    }

    fn count(&self, f: impl FnOnce(&mut Counters)) {
        if let Ok(mut c) = self.counters.lock() {
            f(&mut c);
        }
    }

    /// Counters as manifest JSON.
    pub(crate) fn stats(&self) -> Value {
        let Ok(c) = self.counters.lock() else {
            return Value::Null;
        };
        json!({
            "requests": c.requests,
            "failedRequests": c.failures,
            "idsFromMetadata": c.from_metadata,
            "warnings": c.warnings.iter().map(|(w, n)| json!({"warning": w, "count": n})).collect::<Vec<_>>(),
        })
    }
}
