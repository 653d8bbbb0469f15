//! What a sixteenth audit (serve, embedding stores, backend choices) found, each kept closed
//! here: a fusion or `serve` that took the first of several models or floors in silence, a
//! store embedded with another query prefix read as this model's, `recent` and `composite`
//! over a collection without timestamps reported as figures about recency, and `serve`
//! answering a client's typing bugs with well-formed results.

use crate::common::cli;
use crate::common::needs::{needs, Need};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;

fn refused(args: &[&str], says: &str) {
    let o = cli(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(says), "{args:?}: {stderr}");
}

/// A fusion fuses one run of each backend it names, and `serve` serves one backend: several
/// models or floors were taken and all but the first dropped (a floor of 0.5 that scores 77/77
/// alone never ran).
#[test]
fn one_backend_where_one_is_used_several_models_or_floors_refused() {
    let models = ["--model", "hashed", "--model", "hashed:64"];
    let run = ["run", "--suite", "pmb", "--quiet", "--out", "/nonexistent"];
    for backend in ["rrf", "cosine,rrf"] {
        let args = [&run[..], &["--backend", backend], &models[..]].concat();
        refused(
            &args,
            "--model gives 2 models, and a fusion fuses one cosine run",
        );
    }
    let args = [&run[..], &["--backend", "rrf", "--cosine-floor", "0.3,0.5"]].concat();
    refused(
        &args,
        "--cosine-floor gives 2 floors, and a fusion fuses one cosine run",
    );
    let serve = ["serve", "--port", "0", "--backend", "cosine"];
    refused(
        &[&serve[..], &["--cosine-floor", "0.3,0.5"]].concat(),
        "--cosine-floor gives 2 floors, and serve serves one backend",
    );
    refused(
        &[&serve[..], &models[..]].concat(),
        "--model gives 2 models, and serve serves one backend",
    );
}

/// The prefixes are part of what was embedded: MiniLM's folder with a query prefix read the
/// built-in store, embedded without one, and ranked as plain MiniLM (62 of 77 cases rank
/// otherwise with the prefix).
#[test]
fn a_store_embedded_with_another_prefix_is_refused() {
    if !needs(&[Need::Onnx]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m");
    std::fs::create_dir(&model).unwrap();
    let minilm =
        Path::new(&std::env::var_os("TENURE_EVAL_MODELS").unwrap()).join("all-minilm-l6-v2");
    for file in ["model.onnx", "tokenizer.json"] {
        std::os::unix::fs::symlink(minilm.join(file), model.join(file)).unwrap();
    }
    let mut embedder: Value =
        serde_json::from_slice(&std::fs::read(minilm.join("embedder.json")).unwrap()).unwrap();
    embedder["query_prefix"] = "query: ".into();
    std::fs::write(model.join("embedder.json"), embedder.to_string()).unwrap();
    let o = cli(&[
        "run",
        "--suite",
        "pmb",
        "--backend",
        "cosine",
        "--quiet",
        "--model",
    ])
    .arg(&model)
    .arg("--out")
    .arg(dir.path().join("out"))
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "$.model.query_prefix: store all-minilm-l6-v2 was embedded with query_prefix \"\""
        ) && stderr.contains("has \"query: \""),
        "{stderr}"
    );
    assert!(!dir.path().join("out").exists(), "no report");
}

/// A TREC collection's documents are all of one time (0): `recent` ranked in corpus order
/// (nDCG@10 0.237, the first topics "passing") and composite ranked as its similarity does,
/// both as figures about recency. `recent` is refused; composite's run says it.
#[test]
fn the_clock_over_a_collection_without_timestamps_is_refused_or_said() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    std::fs::write(
        d("docs.jsonl"),
        "{\"_id\":\"d01\",\"title\":\"Redis\",\"text\":\"Redis is an in-memory cache.\"}\n\
         {\"_id\":\"d02\",\"title\":\"Postgres\",\"text\":\"A relational database.\"}\n",
    )
    .unwrap();
    std::fs::write(
        d("topics.tsv"),
        "q1\tin-memory cache\nq2\trelational database\n",
    )
    .unwrap();
    std::fs::write(d("qrels.txt"), "q1 0 d01 1\nq2 0 d02 1\n").unwrap();
    let (docs, topics, qrels, out) = (d("docs.jsonl"), d("topics.tsv"), d("qrels.txt"), d("out"));
    let run = [
        "run",
        "--suite",
        "trec",
        "--corpus",
        &docs,
        "--topics",
        &topics,
        "--qrels",
        &qrels,
        "--out",
        &out,
        "--quiet",
        "--backend",
    ];
    refused(
        &[&run[..], &["recent"]].concat(),
        "--backend recent ranks by the beliefs' created_at, and trec's items are all of one time",
    );
    let composite = ["composite", "--model", "hashed"];
    let o = cli(&[&run[..], &composite[..]].concat()).output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "warning: the context scorers' clock reads created_at, and trec's items are all \
             of one time"
        ),
        "said even with --quiet: {stderr}"
    );
    // Over pmb, whose beliefs carry created_at, neither is said.
    let o = cli(&[
        "run",
        "--suite",
        "pmb",
        "--backend",
        "recent",
        "--quiet",
        "--out",
        &out,
    ])
    .output()
    .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&o.stderr).contains("created_at"));
}

/// `serve` refuses (422) what `/add` refused already: a search without a string user_id, a
/// limit or scope of the wrong type, and an update that names no belief or one never added.
/// Each was answered 200: a search as the default user, with the default limit or no scope
/// filter, and an update that created a belief.
#[test]
fn serve_refuses_malformed_searches_and_updates() {
    let mut child = cli(&[
        "serve",
        "--suite",
        "pmb",
        "--port",
        "0",
        "--backend",
        "bm25-text",
        "--quiet",
    ])
    .stdout(Stdio::piped())
    .spawn()
    .unwrap();
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut url)
        .unwrap();
    let url = url.trim().to_string();
    let call = |method: &str, path: &str, body: Value| -> (u16, Value) {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let request = match method {
            "PUT" => agent.put(format!("{url}{path}")),
            _ => agent.post(format!("{url}{path}")),
        };
        let mut response = request
            .header("Content-Type", "application/json")
            .send(body.to_string().as_bytes())
            .unwrap();
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    };
    let add = json!({"text": "redis cache", "user_id": "u1", "metadata": {"beliefId": "b1"}});
    assert_eq!(call("POST", "/add", add).0, 200);
    let search = |extra: Value| {
        let mut body = json!({"query": "redis", "user_id": "u1"});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        call("POST", "/search", body)
    };
    let (status, found) = search(json!({"limit": 5}));
    assert_eq!(status, 200);
    assert_eq!(found["results"][0]["id"], "b1", "{found}");
    for bad in [
        json!({"limit": -1}),
        json!({"limit": "1"}),
        json!({"limit": 1.5}),
        json!({"limit": null}),
        json!({"user_id": 5}),
        json!({"scopes": 5}),
        json!({"scope": ["domain:code", 3]}),
    ] {
        let (status, answer) = search(bad.clone());
        assert_eq!(status, 422, "{bad}: {answer}");
    }
    let (status, _) = call("POST", "/search", json!({"query": "redis"}));
    assert_eq!(status, 422, "no user_id");
    let update = |id: Option<&str>| {
        let mut body = json!({"text": "redis cache v2", "user_id": "u1", "metadata": {}});
        if let Some(id) = id {
            body["beliefId"] = id.into();
        }
        call("PUT", "/update", body)
    };
    assert_eq!(update(None).0, 422);
    let (status, answer) = update(Some("b-never-added"));
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer
            .to_string()
            .contains("no belief \\\"b-never-added\\\" to update"),
        "{answer}"
    );
    assert_eq!(update(Some("b1")).0, 200);
    let _ = child.kill();
    let _ = child.wait();
}
