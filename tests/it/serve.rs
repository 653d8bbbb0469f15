//! `tenure-eval serve` over real HTTP: PrecisionMemBench's contract around the in-process
//! backends, evaluated by tenure-eval's own HTTP client in both modes (the loopback).

use crate::common::{builtin, http_run};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use tenure_eval::backend::bm25::Bm25Backend;
use tenure_eval::backend::{Backend, SearchFilter, SearchRequest};

/// A `serve` child process, killed when dropped.
pub struct Served {
    child: Child,
    pub url: String,
}

impl Served {
    pub fn start(suite: &str) -> Served {
        let args = ["serve", "--suite", suite, "--port", "0", "--quiet"];
        let (child, url) = spawn(&args, Stdio::inherit());
        Served { child, url }
    }
}

/// `tenure-eval ARGS` (a `serve`) with its stderr to `stderr`, and the URL it prints first.
fn spawn(args: &[&str], stderr: Stdio) -> (Child, String) {
    let mut child = crate::common::cli(args)
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (child, line.trim().to_string())
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn post(url: &str, body: &Value) -> Value {
    let mut response = ureq::post(url)
        .header("Content-Type", "application/json")
        .send(body.to_string().as_bytes())
        .unwrap();
    serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap()
}

fn run(kind: &str, suite: &str, url: &str, name: &str, compat: bool) -> Value {
    let extra: &[&str] = if compat {
        &["--quiet", "--compat", "pmb"]
    } else {
        &["--quiet"]
    };
    let run = http_run(kind, &["--suite", suite], suite, url, name, extra);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.written()
}

#[test]
fn served_bm25_answers_as_in_process_bm25_and_runs_both_suites_in_both_modes() {
    for name in ["pmb", "paper"] {
        let suite = builtin(name);
        let served = Served::start(name);
        let health: Value = serde_json::from_str(
            &ureq::get(format!("{}/health", served.url))
                .call()
                .unwrap()
                .body_mut()
                .read_to_string()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(health["backend"]["id"], "bm25");

        // A static run seeds all 35 beliefs (/reset, then /add in seed order).
        let careful = run("static", name, &served.url, "loop", false);
        assert_eq!(
            careful["cases"].as_array().unwrap().len(),
            suite.cases.len()
        );
        assert!(careful["cases"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c.get("error").is_none()));

        // Every case's query, asked over HTTP and in process, with the same filters.
        let local = Bm25Backend::build(&suite.corpus).unwrap();
        let mut compared = 0;
        for case in &suite.cases {
            let text = tenure_eval::query::prepare(&case.query, suite.profile).query;
            if text.is_empty() {
                continue;
            }
            let body = json!({"query": case.query, "user_id": case.user(), "limit": 20, "scopes": case.scope});
            let remote = post(&format!("{}/search", served.url), &body);
            let hits = local
                .search(&SearchRequest {
                    text: &text,
                    message: &case.query,
                    filter: SearchFilter {
                        user_id: case.user(),
                        scope: &case.scope,
                        exclude_ids: &[],
                    },
                    limit: 20,
                })
                .unwrap();
            // Scores travel as float32's shortest decimal: read back, the same float32.
            let remote: Vec<(String, f32)> = remote["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    (
                        r["id"].as_str().unwrap().to_string(),
                        r["score"].as_f64().unwrap() as f32,
                    )
                })
                .collect();
            let local: Vec<(String, f32)> = hits
                .iter()
                .map(|h| (h.id.clone(), h.score.unwrap()))
                .collect();
            assert_eq!(remote, local, "{name} {}", case.case_id);
            compared += 1;
        }
        assert!(compared > 40, "{compared}");

        let compat = run("static", name, &served.url, "loop", true);
        assert_eq!(compat["cases"].as_array().unwrap().len(), suite.cases.len());
        if !suite.sessions.is_empty() {
            for compat in [false, true] {
                let sessions = run("session", name, &served.url, "loop", compat);
                assert_eq!(sessions["cases"].as_array().unwrap().len(), 12);
            }
        }
        eprintln!(
            "{name}: careful {} passed, compat {} passed",
            careful["retrieval"]["totalPassed"], compat["retrieval"]["totalPassed"]
        );
    }
}

#[test]
fn serve_help_says_what_it_serves_and_it_serves_that() {
    let help = String::from_utf8(crate::common::tenure_eval(&["serve", "--help"]).stdout).unwrap();
    assert!(
        help.contains("bm25-text") && help.contains("not http"),
        "{help}"
    );
    // What the help names, it serves: plain BM25 answers a search over pmb.
    let (mut child, url) = crate::common::spawn_serve(&["--backend", "bm25-text", "--port", "0"]);
    let _ = child.kill();
    let _ = child.wait();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let refused = crate::common::tenure_eval(&["serve", "--backend", "http"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not another server"));
}

#[test]
fn ids_none_of_the_suites_are_said_once_and_counted() {
    // They are indexed from the text sent, without the suite's aliases: a served BM25 scored a
    // harness of another suite's ids low, and said nothing.
    let (child, url) = spawn(&["serve", "--suite", "pmb", "--port", "0"], Stdio::piped());
    let add = |id: &str, text: &str| {
        let body = json!({"text": text, "user_id": "u", "metadata": {"beliefId": id}});
        post(&format!("{url}/add"), &body)
    };
    // A belief of pmb's corpus, by its id and text.
    let suite = builtin("pmb");
    let known = &suite.corpus[0];
    add(
        &known.id,
        &tenure_eval::suite::text::BeliefText::Names.of(known),
    );
    add("not-in-pmb-1", "redis is the cache");
    add("not-in-pmb-2", "postgres is the store");
    let mut health = ureq::get(&format!("{url}/health")).call().unwrap();
    let health: Value = serde_json::from_str(&health.body_mut().read_to_string().unwrap()).unwrap();
    assert_eq!(health["unknownIds"], 2, "{health}");
    let mut child = child;
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    let notices: Vec<&str> = said
        .lines()
        .filter(|l| l.contains("is none of pmb's beliefs"))
        .collect();
    assert_eq!(notices.len(), 1, "{said}");
    assert!(notices[0].contains("\"not-in-pmb-1\""), "{said}");
}
