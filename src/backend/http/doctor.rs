//! `tenure-eval doctor`: probe a memory system behind the provider contract with a handful of
//! made-up beliefs, and say what works, what does not, and what each finding will do to the
//! scores of a run. The probes send the bodies the harness sends (`wire`), so what the doctor
//! sees is what a run will see.
//!
//! The doctor resets the store (twice: before and after), as a run does.

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
pub enum Verdict {
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
pub struct Finding {
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
pub struct Probe {
    /// How long to keep searching for a belief just added before calling it lost (a store that
    /// indexes in the background needs a while).
    pub patience: Duration,
}

/// Everything the doctor found.
#[derive(Debug, Clone, Serialize)]
pub struct Checkup {
    /// The system's base URL.
    pub url: String,
    /// The checks, in the order they ran.
    pub findings: Vec<Finding>,
    /// Median time of a `/search`, in ms.
    pub search_p50_ms: Option<f64>,
}

impl Checkup {
    /// Whether any check failed.
    pub fn failed(&self) -> bool {
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
pub fn examine(client: &Client, probe: &Probe) -> Result<Checkup, BackendError> {
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

    fn run_checks(&mut self) {
        const AFTER_ADD: [&str; 6] = [
            "round-trip",
            "isolation",
            "scope",
            "scopes",
            "update",
            "reset-clears",
        ];
        if !self.reset("reset") {
            self.skip(&["add"]);
            self.skip(&AFTER_ADD);
            return;
        }
        let beliefs = probe_beliefs();
        if !self.add(&beliefs) {
            self.skip(&AFTER_ADD);
            return;
        }
        if !self.round_trip(&beliefs[0]) {
            self.skip(&AFTER_ADD[1..]);
            self.error_path();
            return;
        }
        self.isolation();
        self.scope();
        self.update(&beliefs[0]);
        self.error_path();
        self.limit();
        if self.reset("reset-again") {
            self.reset_clears();
        }
    }

    fn reset(&mut self, check: &'static str) -> bool {
        match self.client.call(Endpoint::Reset, None) {
            Ok(reply) if reply.ok() => {
                self.note(
                    check,
                    Verdict::Ok,
                    format!("DELETE /reset answered HTTP {}", reply.status),
                    "",
                );
                true
            }
            Ok(reply) => {
                self.note(
                    check,
                    Verdict::Fail,
                    status_saw("DELETE /reset", &reply),
                    "careful mode stops seeding and records the error on every case; compat mode \
                     ignores the status and seeds on top of what the store holds",
                );
                false
            }
            Err(e) => {
                self.note(
                    check,
                    Verdict::Fail,
                    e.message,
                    "no run can reset the store",
                );
                false
            }
        }
    }

    fn add(&mut self, beliefs: &[Belief]) -> bool {
        for belief in beliefs {
            let reply = match self
                .client
                .call(Endpoint::Add, Some(&wire::seed_body(belief, false)))
            {
                Ok(reply) => reply,
                Err(e) => {
                    self.note(
                        "add",
                        Verdict::Fail,
                        e.message,
                        "seeding fails: every case records the error",
                    );
                    return false;
                }
            };
            if !reply.ok() {
                self.note("add", Verdict::Fail, status_saw("POST /add", &reply),
                    "careful mode fails seeding (every case records the error); compat mode counts \
                     the belief as added though the store refused it");
                return false;
            }
            if reply.json().is_none() {
                self.note("add", Verdict::Fail,
                    format!("POST /add answered HTTP {} with a body that is not JSON: {:?}", reply.status, excerpt(&reply.text)),
                    "seeding fails in both modes (upstream's client reads every /add answer as JSON): no case runs");
                return false;
            }
        }
        self.note(
            "add",
            Verdict::Ok,
            format!(
                "POST /add accepted {} beliefs with JSON answers",
                beliefs.len()
            ),
            "",
        );
        true
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

    /// The belief just added comes back, under its benchmark id.
    fn round_trip(&mut self, belief: &Belief) -> bool {
        let (answer, waited) = match self.search_until(WORD, &belief.id) {
            Ok(found) => found,
            Err(saw) => {
                self.note("round-trip", Verdict::Fail, saw,
                    "careful mode records the error on every case; compat mode scores every case as \
                     retrieving nothing (or loses it, when the body is not JSON)");
                return false;
            }
        };
        let id = &belief.id;
        if !answer.has(id) {
            self.note("round-trip", Verdict::Fail,
                format!("searching {WORD:?} for {USER} returned {} results, none with id {id:?} (waited {} ms)",
                        answer.len, waited.as_millis()),
                "every relevant tier comes back empty: precision and recall 0 in both modes");
            return false;
        }
        let late = waited > Duration::from_millis(500);
        let lateness = if late {
            format!(" after {} ms", waited.as_millis())
        } else {
            String::new()
        };
        if answer.ids.iter().any(|i| i == id) {
            let (verdict, effect) = if late {
                (Verdict::Warn, "the store indexes late: give --seed-delay-ms or --wait-after-seed, or the first cases search an incomplete store")
            } else {
                (Verdict::Ok, "")
            };
            self.note(
                "round-trip",
                verdict,
                format!("{id:?} came back as the result's id{lateness}"),
                effect,
            );
        } else {
            self.note("round-trip", Verdict::Warn,
                format!("{id:?} came back only in metadata.beliefId{lateness} (top-level ids: {:?})",
                        answer.ids.iter().take(3).collect::<Vec<_>>()),
                "ids only in metadata.beliefId: compat mode drops every hit (precision and recall 0, as \
                 upstream would publish); careful mode reads them");
        }
        true
    }

    fn isolation(&mut self) {
        match self.search(WORD, USER, &[], 20) {
            Ok(answer) if answer.has("doctor-probe-other") => self.note("isolation", Verdict::Fail,
                format!("searching for {USER} returned {OTHER_USER}'s belief"),
                "other users' beliefs come back: Cross-user isolation cases fail (they exclude the \
                 other user's ids); careful mode counts them in diagnostics.otherUser"),
            Ok(_) => self.note("isolation", Verdict::Ok,
                format!("searching for {USER} returned none of {OTHER_USER}'s beliefs"), ""),
            Err(saw) => self.note("isolation", Verdict::Fail, saw, "searches fail"),
        }
    }

    /// `scope` filters (or is ignored), and the careful client's `scopes` list is honoured.
    fn scope(&mut self) {
        let first = self.search(WORD, USER, &["domain:code"], 20);
        let filtered = matches!(&first, Ok(a) if !a.has("doctor-probe-writing"));
        match first {
            Ok(a) if a.has("doctor-probe-writing") => self.note(
                "scope",
                Verdict::Warn,
                "a domain:writing belief came back for scope domain:code: scope is not filtered"
                    .into(),
                "out-of-scope beliefs are kept (the client does not filter): Scope disambiguation \
                 cases that exclude them fail; careful mode counts them in diagnostics.outOfScope",
            ),
            Ok(a) if a.has("doctor-probe-code") => self.note(
                "scope",
                Verdict::Ok,
                "scope domain:code returned the domain:code belief only".into(),
                "",
            ),
            Ok(a) => self.note(
                "scope",
                Verdict::Fail,
                format!(
                    "scope domain:code returned {} results, not the domain:code belief",
                    a.len
                ),
                "scoped cases retrieve nothing",
            ),
            Err(saw) => self.note("scope", Verdict::Fail, saw, "scoped searches fail"),
        }
        match self.search(WORD, USER, &["domain:writing", "domain:code"], 20) {
            Ok(_) if !filtered => self.note("scopes", Verdict::Ok,
                "scope is not filtered, so every scope's beliefs come back".into(), ""),
            Ok(a) if a.has("doctor-probe-code") && a.has("doctor-probe-writing") => self.note("scopes", Verdict::Ok,
                "scope domain:writing with scopes [domain:writing, domain:code] returned both beliefs".into(),
                "compat mode sends only the first scope (as upstream); where that filters, the other \
                 scopes' beliefs are missed there and found in careful mode"),
            Ok(a) => self.note("scopes", Verdict::Warn,
                format!("scope domain:writing with scopes [domain:writing, domain:code] returned {} results \
                         without the domain:code belief: only the first scope is read", a.len),
                "multi-scope cases miss every belief outside their first scope, in both modes"),
            Err(saw) => self.note("scopes", Verdict::Fail, saw, "multi-scope searches fail"),
        }
    }

    /// `PUT /update` with a new alias, then a search for it.
    fn update(&mut self, belief: &Belief) {
        let mut updated = belief.clone();
        updated.aliases.push(NEW_ALIAS.into());
        let reply = match self
            .client
            .call(Endpoint::Update, Some(&wire::update_body(&updated)))
        {
            Ok(reply) => reply,
            Err(e) => {
                return self.note(
                    "update",
                    Verdict::Fail,
                    e.message,
                    "session alias updates fail",
                )
            }
        };
        if !reply.ok() {
            return self.note("update", Verdict::Warn, status_saw("PUT /update", &reply),
                "no update: leave supportsUpdate off (the default); sessions re-add the belief with \
                 its new aliases (POST /add), which may leave a duplicate");
        }
        match self.search_until(NEW_ALIAS, &belief.id) {
            Ok((a, _)) if a.has(&belief.id) => self.note("update", Verdict::Ok,
                format!("PUT /update answered HTTP {}; the new alias {NEW_ALIAS:?} finds the belief", reply.status),
                "give --supports-update (supportsUpdate in providers.config.json)"),
            Ok(_) => self.note("update", Verdict::Warn,
                format!("PUT /update answered HTTP {} but the new alias {NEW_ALIAS:?} does not find the belief", reply.status),
                "with --supports-update, session turns that search an added alias miss it (drift)"),
            Err(saw) => self.note("update", Verdict::Fail, saw, "searches fail"),
        }
    }

    /// A search without a query: a careful client wants a 4xx.
    fn error_path(&mut self) {
        let reply = match self.client.call(
            Endpoint::Search,
            Some(br#"{"user_id":"doctor-user-a","limit":20}"#),
        ) {
            Ok(reply) => reply,
            Err(e) => {
                return self.note(
                    "error-path",
                    Verdict::Warn,
                    format!("a search without a query: {}", e.message),
                    "a bad request breaks the connection instead of answering 4xx",
                )
            }
        };
        let saw = format!(
            "a search without a query answered HTTP {}: {}",
            reply.status,
            excerpt(&reply.text)
        );
        match reply.status {
            400..=499 => self.note("error-path", Verdict::Ok, saw, ""),
            500..=599 => self.note("error-path", Verdict::Warn, saw,
                "a bad request answers 5xx: careful mode retries what cannot succeed before recording it"),
            _ => self.note("error-path", Verdict::Warn, saw,
                "a bad request answers 2xx: an error looks like an empty result (scored as a miss, not \
                 an error)"),
        }
    }

    fn limit(&mut self) {
        match self.search(WORD, USER, &[], 1) {
            Ok(a) if a.len <= 1 => self.note("limit", Verdict::Ok, format!("limit 1 returned {} result(s)", a.len), ""),
            Ok(a) => self.note("limit", Verdict::Warn, format!("limit 1 returned {} results", a.len),
                "limit is ignored: the client still keeps at most maxBeliefs (after dropping pinned ids), \
                 so scores do not change; answers are larger than needed"),
            Err(saw) => self.note("limit", Verdict::Fail, saw, "searches fail"),
        }
    }

    fn reset_clears(&mut self) {
        match self.search(WORD, USER, &[], 20) {
            Ok(a) if a.len == 0 => self.note("reset-clears", Verdict::Ok, "after /reset the probe beliefs are gone".into(), ""),
            Ok(a) => self.note("reset-clears", Verdict::Fail,
                format!("after /reset a search still returned {} results", a.len),
                "earlier runs' beliefs stay: re-seeding duplicates them, and ids the client does not \
                 know are dropped (careful mode counts them in diagnostics.unknown)"),
            Err(saw) => self.note("reset-clears", Verdict::Fail, saw, "searches fail"),
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
