//! What the client sends and reads: upstream's request bodies byte for byte, session
//! mutations as upstream sends them, and what the careful client reads from the answers.

use super::*;

#[test]
fn compat_request_bodies_are_upstreams_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let files = suite_files(dir.path(), None);
    let server = recording_server();
    run_http(
        "static",
        &files,
        &server.url,
        "rec",
        &["--compat", "pmb", "--wait-after-seed"],
    );
    let got = server.received();
    // E1 first, no body; 35 adds in seed order; E3; then the searches.
    assert_eq!(
        (
            got[0].method.as_str(),
            got[0].path.as_str(),
            got[0].body.as_str()
        ),
        ("DELETE", "/reset", "")
    );
    assert_eq!(got[0].content_type, None);
    let adds = server.to("/add");
    assert_eq!(adds.len(), 35);
    let seed = read_json("seeds/pmb/beliefs.seed.json");
    for (add, belief) in adds.iter().zip(seed.as_array().unwrap()) {
        assert_eq!(add.content_type.as_deref(), Some("application/json"));
        let body: Value = serde_json::from_str(&add.body).unwrap();
        assert_eq!(body["metadata"]["beliefId"], belief["_id"]);
    }
    let redis = adds
        .iter()
        .find(|a| a.body.contains("\"beliefId\":\"b-redis-code\""))
        .unwrap();
    assert_eq!(
        redis.body,
        r#"{"text":"redis_cache Redis Redis is used as a cache and rate-limiter in the backend. Single-node, not clustered. Shapes interpretation of 'Redis' in the code scope — always the caching datastore, not the fictional character.","user_id":"test-user","metadata":{"beliefId":"b-redis-code","scope":"domain:code"},"aliases":["Redis"]}"#
    );
    let wait = got.iter().position(|r| r.path == "/wait").unwrap();
    assert_eq!(wait, 36, "/wait follows the last add");
    // E4 of multi-scope-redis-both-surfaces (scope code+writing): the first scope only.
    let searches = server.to("/search");
    assert!(searches.iter().any(|s| s.body
        == r#"{"query":"What's Redis doing?","user_id":"test-user","limit":20,"scope":"domain:code"}"#));
    assert!(searches.iter().all(|s| !s.body.contains("\"scopes\"")));
}

#[test]
fn session_mutations_are_sent_as_upstream_sends_them() {
    let dir = tempfile::tempdir().unwrap();
    let files = suite_files(dir.path(), None);
    for (extra, endpoint) in [(vec![], "/add"), (vec!["--supports-update"], "/update")] {
        let server = recording_server();
        let args = [vec!["--compat", "pmb"], extra].concat();
        run_http("session", &files, &server.url, "rec", &args);
        let got = server.received();
        // Seeding carries the session metadata.
        let first_add: Value = serde_json::from_str(&server.to("/add")[0].body).unwrap();
        assert_eq!(
            first_add["metadata"]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["beliefId", "scope", "type", "pinned", "superseded_by"]
        );
        assert_eq!(first_add["metadata"]["superseded_by"], Value::Null);
        // Turn 4 creates b-ci-parallel-decision after its search (E5, no aliases).
        let create = got
            .iter()
            .position(|r| r.body.contains("\"beliefId\":\"b-ci-parallel-decision\""))
            .unwrap();
        assert_eq!(got[create].path, "/add");
        assert!(!got[create].body.contains("\"aliases\""));
        assert_eq!(
            got[..create].iter().filter(|r| r.path == "/search").count(),
            5
        );
        // Turn 9 updates b-redis-code: aliases merged lower-cased, sent to /update or re-added.
        let update = got
            .iter()
            .rposition(|r| r.body.contains("b-redis-code") && r.path != "/search")
            .unwrap();
        assert_eq!(got[update].path, endpoint);
        assert_eq!(
            got[update].method,
            if endpoint == "/add" { "POST" } else { "PUT" }
        );
        let body: Value = serde_json::from_str(&got[update].body).unwrap();
        assert!(body["text"].as_str().unwrap().starts_with(
            "redis_cache Redis allkeys-lru eviction policy maxmemory eviction sweeps volatile-lru Redis is used as"
        ));
        if endpoint == "/update" {
            assert_eq!(
                body.as_object().unwrap().keys().collect::<Vec<_>>(),
                ["beliefId", "text", "user_id", "metadata"]
            );
        }
    }
}

#[test]
fn the_careful_client_reads_ids_from_metadata_and_says_what_it_dropped() {
    // The system answers with its own ids and the benchmark id only in metadata, plus an
    // empty id, a repeat, an unknown id and another user's belief.
    let answer = j!({"results": [
        {"id": "uuid-1", "metadata": {"beliefId": "b-redis-code"}},
        {"id": ""},
        {"id": "uuid-1", "metadata": {"beliefId": "b-redis-code"}},
        {"id": "stale-7"},
        {"id": "b-other-user-leak-check"}
    ]});
    let server = MemoryServer::start(move |r: &Received, _| match r.path.as_str() {
        "/search" => json(answer.clone()),
        _ => json(j!({})),
    });
    let dir = tempfile::tempdir().unwrap();
    let files = suite_files(dir.path(), None);
    let (careful, _) = run_http("static", &files, &server.url, "ids", &[]);
    let (compat, _) = run_http("static", &files, &server.url, "ids", &["--compat", "pmb"]);
    let case = |r: &Value| -> Value {
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["caseId"] == "multi-scope-redis-both-surfaces")
            .unwrap()
            .clone()
    };
    let (c, p) = (case(&careful), case(&compat));
    assert_eq!(
        c["relevantBeliefs"],
        j!(["b-redis-code", "b-other-user-leak-check"])
    );
    assert_eq!(p["relevantBeliefs"], j!(["b-other-user-leak-check"]));
    assert_eq!(
        c["diagnostics"],
        j!({"returned": 5, "withoutId": 1, "duplicate": ["b-redis-code"], "unknown": ["stale-7"], "otherUser": ["b-other-user-leak-check"]})
    );
    assert!(
        p.get("diagnostics").is_none(),
        "compat reports hold upstream's fields only"
    );
    // The careful client sends the whole scope list as well.
    let body = server
        .to("/search")
        .into_iter()
        .find(|s| s.body.contains("What's Redis doing?"))
        .unwrap()
        .body;
    assert_eq!(
        body,
        r#"{"query":"What's Redis doing?","user_id":"test-user","limit":20,"scope":"domain:code","scopes":["domain:code","domain:writing"]}"#
    );
    // Two elements of every answer were read by metadata; both runs searched as often, but
    // for the careful client's one store probe after seeding (backend::http::watch).
    let searches = server.to("/search").len() as u64;
    assert_eq!(
        careful["manifest"]["backendStats"]["idsFromMetadata"],
        j!(searches - 1)
    );
}
