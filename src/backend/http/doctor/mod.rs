//! `tenure-eval doctor`: probe a memory system behind the provider contract with a handful of
//! made-up beliefs, and say what works, what does not, and what each finding will do to the
//! scores of a run. The probes send the bodies the harness sends (`wire`), so what the doctor
//! sees is what a run will see.
//!
//! The doctor resets the store (twice: before and after), as a run does.

mod checks;
mod text;

use super::client::{excerpt, Client, Endpoint, Reply};
use super::wire;
use crate::backend::BackendError;
use crate::suite::Belief;
use serde::Serialize;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Verdict {
    /// As the contract expects.
    Ok,
    /// Works, with a consequence for the scores or the run worth knowing.
    Warn,
    /// Breaks runs: scores will be wrong or cases will fail for the system's reason.
    Fail,
    /// Not tried, because an earlier check failed.
    Skipped,
}

/// One check: what was sent, what came back, what it means for a run.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Finding {
    /// Short name (`round-trip`, `isolation`, ...).
    pub check: &'static str,
    /// How it came out.
    pub verdict: Verdict,
    /// What the system did.
    pub saw: String,
    /// What that does to a run's scores (empty when nothing).
    pub effect: String,
}

/// Settings of a checkup.
#[derive(Debug, Clone)]
pub(crate) struct Probe {
    /// How long to keep searching for a belief just added before calling it lost (a store that
    /// indexes in the background needs a while).
    pub patience: Duration,
}

/// Everything the doctor found.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Checkup {
    /// The system's base URL.
    pub url: String,
    /// The checks, in the order they ran.
    pub findings: Vec<Finding>,
    /// Median time of a `/search`, in ms.
    pub search_p50_ms: Option<f64>,
}

impl Checkup {
    /// Whether any check failed.
    pub(crate) fn failed(&self) -> bool {
        self.findings.iter().any(|f| f.verdict == Verdict::Fail)
    }
}

const USER: &str = "doctor-user-a";
const OTHER_USER: &str = "doctor-user-b";
const WORD: &str = "zebracache";
const NEW_ALIAS: &str = "quokkastore";

/// Topics of the filler beliefs.
const TOPICS: [&str; 20] = [
    "postgres database",
    "kubernetes cluster",
    "react frontend",
    "terraform modules",
    "grafana dashboards",
    "kafka topics",
    "nginx proxy",
    "python linting",
    "rust toolchain",
    "oauth tokens",
    "s3 buckets",
    "docker images",
    "graphql schema",
    "cron jobs",
    "feature flags",
    "sentry alerts",
    "css tokens",
    "redis queues",
    "ci pipeline",
    "dns records",
];

/// The probe beliefs: one in scope `domain:code`, one in `domain:writing`, another user's
/// belief with the same words, then twenty unrelated ones, so that the probe words are as rare
/// as a benchmark id's words are in a real corpus (a ranking function with a score floor, like
/// alias-BM25's, finds nothing in a store of three beliefs that all share them).
fn probe_beliefs() -> Vec<Belief> {
    let belief = |id: &str, user: &str, name: &str, scope: &str| -> Belief {
        serde_json::from_value(json!({
            "_id": id, "user_id": user, "type": "entity", "canonical_name": name,
            "aliases": [WORD], "scope": [scope],
            "content": "A doctor probe.",
        }))
        .expect("a fixed, valid belief")
    };
    let mut beliefs = vec![
        belief("doctor-probe-code", USER, "probe_code_store", "domain:code"),
        belief(
            "doctor-probe-writing",
            USER,
            "probe_writing_notes",
            "domain:writing",
        ),
        belief(
            "doctor-probe-other",
            OTHER_USER,
            "probe_code_store",
            "domain:code",
        ),
    ];
    for (i, topic) in TOPICS.iter().enumerate() {
        beliefs.push(
            serde_json::from_value(json!({
                "_id": format!("doctor-filler-{:02}", i + 1), "user_id": USER, "type": "entity",
                "canonical_name": topic.replace(' ', "_"), "aliases": [topic], "scope": ["domain:code"],
                "content": format!("The team keeps its {topic} in good order."),
            }))
            .expect("a fixed, valid belief"),
        );
    }
    beliefs
}

/// What a search answer held, read both ways.
struct Answer {
    /// Top-level `id`s, in order.
    ids: Vec<String>,
    /// `metadata.beliefId`s, in order.
    metadata_ids: Vec<String>,
    /// The result list's length.
    len: usize,
}

impl Answer {
    fn has(&self, id: &str) -> bool {
        self.ids.iter().any(|i| i == id) || self.metadata_ids.iter().any(|i| i == id)
    }
}

struct Doctor<'a> {
    client: &'a Client,
    probe: &'a Probe,
    findings: Vec<Finding>,
    search_ms: Vec<f64>,
}

/// Run every check against `client`'s system. Only an unreachable system is an error; every
/// other misbehaviour is a finding.
pub(crate) fn examine(client: &Client, probe: &Probe) -> Result<Checkup, BackendError> {
    let mut d = Doctor {
        client,
        probe,
        findings: Vec::new(),
        search_ms: Vec::new(),
    };
    d.health()?;
    d.run_checks();
    let mut ms = d.search_ms.clone();
    ms.sort_by(f64::total_cmp);
    Ok(Checkup {
        url: client.base().to_string(),
        findings: d.findings,
        search_p50_ms: (!ms.is_empty()).then(|| ms[(ms.len() - 1) / 2]),
    })
}

impl Doctor<'_> {
    fn note(&mut self, check: &'static str, verdict: Verdict, saw: String, effect: &str) {
        self.findings.push(Finding {
            check,
            verdict,
            saw,
            effect: effect.to_string(),
        });
    }

    fn skip(&mut self, checks: &[&'static str]) {
        for check in checks {
            self.note(check, Verdict::Skipped, "not tried".into(), "");
        }
    }

    /// `GET /health` is not part of the contract: its absence is fine, but a refused connection
    /// ends the checkup.
    fn health(&mut self) -> Result<(), BackendError> {
        let reply = self.client.call(Endpoint::Health, None)?;
        let saw = format!("GET /health answered HTTP {}", reply.status);
        if reply.ok() {
            self.note("health", Verdict::Ok, saw, "");
        } else {
            self.note(
                "health",
                Verdict::Ok,
                saw,
                "not part of the contract; nothing reads it",
            );
        }
        Ok(())
    }

    /// Search `query` for `user` in `scopes` (the careful body: `scope` = the first, `scopes` =
    /// all), timed.
    fn search(
        &mut self,
        query: &str,
        user: &str,
        scopes: &[&str],
        limit: usize,
    ) -> Result<Answer, String> {
        let scopes: Vec<String> = scopes.iter().map(|s| s.to_string()).collect();
        let body = wire::search_body(query, user, limit, &scopes, !scopes.is_empty());
        let start = Instant::now();
        let reply = self
            .client
            .call(Endpoint::Search, Some(&body))
            .map_err(|e| e.message)?;
        self.search_ms.push(start.elapsed().as_secs_f64() * 1000.0);
        if !reply.ok() {
            return Err(status_saw("POST /search", &reply));
        }
        let value = reply.json().ok_or_else(|| {
            format!(
                "POST /search answered with a body that is not JSON: {:?}",
                excerpt(&reply.text)
            )
        })?;
        let list = match (
            value.get("results").and_then(Value::as_array),
            value.as_array(),
        ) {
            (Some(list), _) | (None, Some(list)) => list,
            _ => {
                return Err(format!(
                    "POST /search: expected {{\"results\": [...]}} or an array, got {}",
                    excerpt(&value.to_string())
                ))
            }
        };
        let text = |v: &Value| v.as_str().map(str::to_string);
        Ok(Answer {
            ids: list.iter().filter_map(|r| text(&r["id"])).collect(),
            metadata_ids: list
                .iter()
                .filter_map(|r| text(&r["metadata"]["beliefId"]))
                .collect(),
            len: list.len(),
        })
    }

    /// Search until `id` shows up or patience runs out; returns the answer and how long it took.
    fn search_until(&mut self, query: &str, id: &str) -> Result<(Answer, Duration), String> {
        let start = Instant::now();
        loop {
            let answer = self.search(query, USER, &[], 20)?;
            if answer.has(id) || start.elapsed() >= self.probe.patience {
                return Ok((answer, start.elapsed()));
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

fn status_saw(call: &str, reply: &Reply) -> String {
    format!(
        "{call} answered HTTP {}: {}",
        reply.status,
        excerpt(&reply.text)
    )
}
