//! What a fourteenth audit (input files) found, each kept closed here: a custom suite's records
//! that loaded in silence and then read as retrieval results (a relation's participant missing
//! from the corpus, a misspelt `epistemic_status`, ids blank or with control characters), and
//! `verify` passing a cosine report whose embedding store was changed.

use crate::common::{read_json, repo, tenure_eval_with};
use serde_json::Value;

/// `validate` of pmb's files with one record edited: exit 2, naming the file's JSON path.
fn refused_edit(edit: impl Fn(&mut Value, &mut Value), at: &str, says: &str) {
    refused_session_edit(|corpus, cases, _| edit(corpus, cases), at, says);
}

/// [`refused_edit`], the session file editable too.
fn refused_session_edit(edit: impl Fn(&mut Value, &mut Value, &mut Value), at: &str, says: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut files = [
        read_json("seeds/pmb/beliefs.seed.json"),
        read_json("cases/pmb/retrieval.cases.json"),
        read_json("cases/pmb/session-retrieval.cases.json"),
    ];
    let [corpus, cases, sessions] = &mut files;
    edit(corpus, cases, sessions);
    let paths = ["corpus.json", "cases.json", "sessions.json"].map(|n| dir.path().join(n));
    for (path, value) in paths.iter().zip(&files) {
        std::fs::write(path, serde_json::to_vec(value).unwrap()).unwrap();
    }
    let out = tenure_eval_with(
        &["validate", "--corpus"],
        &[
            &paths[0],
            std::path::Path::new("--cases"),
            &paths[1],
            std::path::Path::new("--sessions"),
            &paths[2],
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{at}: {stderr}");
    assert!(
        stderr.contains(at) && stderr.contains(says),
        "{at}: {stderr}"
    );
}

#[test]
fn records_that_would_read_as_results_are_refused_at_load() {
    // b-auth-depends-redis (32) relates b-redis-code: a typo in it read as 75/77, "missing
    // expected belief", with `validate` ok.
    refused_edit(
        |corpus, _| corpus[32]["participants"][0] = "b-redis-cod".into(),
        "$[32].participants[0]",
        "\"b-redis-cod\" is no belief of the corpus",
    );
    // "infered" read as full confidence under the composite scorer's `--confidence status`.
    refused_edit(
        |corpus, _| corpus[0]["epistemic_status"] = "infered".into(),
        "$[0].epistemic_status",
        "expected one of active, inferred, exploratory, superseded",
    );
    refused_edit(
        |corpus, _| corpus[1]["_id"] = "   ".into(),
        "$[1]._id",
        "not blank",
    );
    refused_edit(
        |_, cases| cases[2]["caseId"] = "a\nb\u{202e}".into(),
        "$[2].caseId",
        "no control character",
    );
}

/// `verify` checks the embedding store a cosine report names: its vectors' sha256 must still be
/// the recorded `storeSha256` (the report verified after its store was deleted or a vector
/// edited, and the store decides every cosine number); a store that cannot be read is exit 2.
#[test]
fn verify_checks_the_embedding_store_a_report_names() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("st/all-minilm-l6-v2");
    std::fs::create_dir_all(&store).unwrap();
    for file in ["manifest.json", "vectors.npy"] {
        std::fs::copy(
            repo("embeddings/all-minilm-l6-v2").join(file),
            store.join(file),
        )
        .unwrap();
    }
    let out = dir.path().join("out");
    crate::common::tenure_eval_ok(
        &[
            "static",
            "--suite",
            "pmb",
            "--backend",
            "cosine",
            "--model",
            "all-minilm-l6-v2",
            "--quiet",
            "--store-dir",
        ],
        &[&dir.path().join("st"), std::path::Path::new("--out"), &out],
    );
    let report = out.join("pmb/all-minilm-l6-v2-retrieval-report-vector.json");
    let verify = || tenure_eval_with(&["verify"], &[&report]);
    let o = verify();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // The last vector's lowest mantissa byte changed: a finite number, another vector.
    let npy = store.join("vectors.npy");
    let mut bytes = std::fs::read(&npy).unwrap();
    let at = bytes.len() - 4;
    bytes[at] ^= 1;
    std::fs::write(&npy, &bytes).unwrap();
    let o = verify();
    let said = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{said}");
    assert!(
        said.contains("the embedding store") && said.contains("the manifest records"),
        "{said}"
    );
    std::fs::remove_dir_all(&store).unwrap();
    let o = verify();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("$.manifest.backendSettings.store"),
        "{stderr}"
    );
}

/// `validate` warns of static cases that can never pass because the corpus puts what they
/// require out of any context of their user: it said "ok" and `static` failed each.
#[test]
fn validate_warns_of_cases_whose_required_beliefs_no_context_holds() {
    let dir = tempfile::tempdir().unwrap();
    let mut cases = read_json("cases/pmb/retrieval.cases.json");
    let other_user = read_json("seeds/pmb/beliefs.seed.json")
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["user_id"] == "other-user")
        .unwrap()["_id"]
        .as_str()
        .unwrap()
        .to_string();
    let required = [
        (
            "relevantBeliefs",
            "b-sqlalchemy-superseded",
            "which is superseded",
        ),
        (
            "relevantBeliefs",
            "b-auth-open-q",
            "which is an open question",
        ),
        (
            "pinnedFacts",
            "b-comm-recommendation",
            "which is not pinned",
        ),
        (
            "relevantBeliefs",
            other_user.as_str(),
            "which is user other-user's",
        ),
    ];
    for (i, (tier, id, _)) in required.iter().enumerate() {
        cases[i]["expect"][tier] = serde_json::json!({"mustInclude": [id]});
    }
    let file = dir.path().join("cases.json");
    std::fs::write(&file, serde_json::to_vec(&cases).unwrap()).unwrap();
    let out = crate::common::tenure_eval_ok(
        &[
            "validate",
            "--corpus",
            repo("seeds/pmb/beliefs.seed.json").to_str().unwrap(),
            "--cases",
        ],
        &[&file],
    );
    let said =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    for (tier, id, why) in required {
        assert!(
            said.contains(&format!("{tier}.mustInclude names {id:?}, {why}")),
            "{id}: {said}"
        );
    }
}

/// A session belief created for another user is a dead mutation: session turns search as the
/// default user, so no turn can retrieve it and a check that it does not surface always holds.
/// `validate` said "ok"; it now says so.
#[test]
fn validate_warns_of_a_session_belief_created_for_another_user() {
    let dir = tempfile::tempdir().unwrap();
    let mut sessions = read_json("cases/pmb/session-retrieval.cases.json");
    sessions[0]["turns"][4]["createBeliefAtTurn"]["user_id"] = "someone-else".into();
    let file = dir.path().join("sessions.json");
    std::fs::write(&file, serde_json::to_vec(&sessions).unwrap()).unwrap();
    let out = crate::common::tenure_eval_ok(
        &[
            "validate",
            "--corpus",
            repo("seeds/pmb/beliefs.seed.json").to_str().unwrap(),
            "--cases",
            repo("cases/pmb/retrieval.cases.json").to_str().unwrap(),
            "--sessions",
        ],
        &[&file],
    );
    let said =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("$[0].turns[4].createBeliefAtTurn.user_id: \"b-ci-parallel-decision\" is created for user \"someone-else\""),
        "{said}"
    );
}

/// A `superseded_by` naming no belief of the corpus or of a session's creations loads (only
/// whether it is set decides) and is said: a misspelt successor. Naming a belief a session
/// creates is no slip, and pmb's own corpus draws no warning of it.
#[test]
fn validate_warns_of_a_successor_that_is_nowhere() {
    let dir = tempfile::tempdir().unwrap();
    let validate = |corpus: &Value| {
        let file = dir.path().join("corpus.json");
        std::fs::write(&file, serde_json::to_vec(corpus).unwrap()).unwrap();
        let out = crate::common::tenure_eval_ok(
            &["validate", "--corpus"],
            &[
                &file,
                std::path::Path::new("--cases"),
                &repo("cases/pmb/retrieval.cases.json"),
                std::path::Path::new("--sessions"),
                &repo("cases/pmb/session-retrieval.cases.json"),
            ],
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let mut corpus = read_json("seeds/pmb/beliefs.seed.json");
    assert!(
        !validate(&corpus).contains(".superseded_by"),
        "{}",
        validate(&corpus)
    );
    let i = (corpus.as_array().unwrap().iter())
        .position(|b| b["superseded_by"].is_string())
        .expect("pmb has superseded beliefs");
    corpus[i]["superseded_by"] = "b-nowhere".into();
    let said = validate(&corpus);
    assert!(
        said.contains(&format!(
            "$[{i}].superseded_by: \"b-nowhere\" is no belief of the corpus"
        )) && said.contains("is inactive all the same"),
        "{said}"
    );
    corpus[i]["superseded_by"] = "b-ci-parallel-decision".into();
    assert!(
        !validate(&corpus).contains(".superseded_by"),
        "a session creates it"
    );
}

/// Inputs that changed nothing are refused at load: participants of a belief that is no
/// relation, a valid time that ends before it starts, a belief that supersedes itself, and a
/// session update of nothing.
#[test]
fn records_that_change_nothing_are_refused_at_load() {
    refused_edit(
        |corpus, _| corpus[0]["participants"] = serde_json::json!(["b-comm-pushback"]),
        "$[0].participants",
        "a belief that is not a relation",
    );
    refused_edit(
        |corpus, _| {
            corpus[0]["valid_from"] = "2026-02-01T00:00:00Z".into();
            corpus[0]["valid_to"] = "2026-01-01T00:00:00Z".into();
        },
        "$[0].valid_to",
        "before valid_from",
    );
    refused_edit(
        |corpus, _| corpus[0]["superseded_by"] = "b-comm-response-length".into(),
        "$[0].superseded_by",
        "the belief itself",
    );
    refused_session_edit(
        |_, _, sessions| {
            let update = &mut sessions[0]["turns"][9]["updateBeliefAtTurn"];
            *update = serde_json::json!({"beliefId": update["beliefId"].clone()});
        },
        "$[0].turns[9].updateBeliefAtTurn",
        "an update of nothing",
    );
}
