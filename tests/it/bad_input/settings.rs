//! Warnings and recorded settings: a corpus without the default user's beliefs, `--min-score`
//! in the manifest, and `explain` below the floor.

use super::*;

/// A corpus written for another user than the cases' default `test-user` would score 0
/// everywhere: validate says so, naming the corpus's users.
#[test]
fn a_corpus_without_the_default_users_beliefs_warns() {
    let f = Files::new();
    let mut c = corpus();
    for b in c.as_array_mut().unwrap() {
        b["user_id"] = json!("alice");
    }
    let corpus_file = f.json("corpus.json", &c);
    let out = validate(&corpus_file, &f.json("cases.json", &cases()), None);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "{}: no belief belongs to \"test-user\", the user of the 76 cases without `userId`; they will retrieve nothing (the corpus's users: alice)",
            corpus_file.display()
        )),
        "{stderr}"
    );
    // The built-in corpus has test-user's beliefs: no such warning.
    let out = validate(
        &f.json("corpus.json", &corpus()),
        &f.json("cases.json", &cases()),
        None,
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("no belief belongs"));
}

/// A corpus of one belief and a case asking for it by its exact alias.
fn one_belief_suite(f: &Files) -> (PathBuf, PathBuf) {
    let corpus = f.json(
        "one.json",
        &json!([{"_id": "b-only", "user_id": "test-user", "type": "entity",
                 "canonical_name": "zebra_cache", "aliases": ["zebracache"], "scope": [],
                 "content": "The zebracache."}]),
    );
    let cases = f.json(
        "cases.json",
        &json!([{"caseId": "exact-alias", "category": "Alias", "scope": [], "query": "zebracache",
                 "expect": {"relevantBeliefs": {"shouldOnlyInclude": ["b-only"]}}}]),
    );
    (corpus, cases)
}

/// A one-belief corpus finds nothing for its exact alias under the eval's minimum score of 3
/// (its IDF is low); `--min-score` lowers the floor, and the manifest records it.
#[test]
fn min_score_is_a_setting_recorded_in_the_manifest() {
    let f = Files::new();
    let (corpus, cases) = one_belief_suite(&f);
    // The report is named by the run's label: `--min-score` adds its token (report::label).
    let run = |extra: &[&str], file: &str| {
        let out = f.dir.path().join(format!("out{}", extra.len()));
        let mut cmd = crate::common::cli(&[]);
        cmd.args(["static", "--quiet", "--corpus"])
            .arg(&corpus)
            .arg("--cases")
            .arg(&cases)
            .arg("--out")
            .arg(&out)
            .args(extra);
        assert_eq!(cmd.output().unwrap().status.code(), Some(0));
        read_json(out.join("custom").join(file).to_str().unwrap())
    };
    let floor = run(&[], "retrieval-report-tenure.json");
    assert_eq!(floor["cases"][0]["relevantBeliefs"], json!([]));
    assert!(floor["manifest"]["backendSettings"]
        .get("minScore")
        .is_none());
    let lowered = run(
        &["--min-score", "0.1"],
        "retrieval-report-tenure-min0.1.json",
    );
    assert_eq!(lowered["cases"][0]["relevantBeliefs"], json!(["b-only"]));
    assert_eq!(
        lowered["manifest"]["backendSettings"]["minScore"],
        json!(0.1)
    );
}

/// `--explain CASE` shows why a case returned nothing: its best candidates without a floor,
/// marked against it, with the terms that scored them; an unknown case is a usage error.
#[test]
fn explain_shows_the_candidates_below_the_floor() {
    let f = Files::new();
    let (corpus, cases) = one_belief_suite(&f);
    let explain = |extra: &[&str]| {
        let out = crate::common::cli(&[])
            .args(["static", "--corpus"])
            .arg(&corpus)
            .arg("--cases")
            .arg(&cases)
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, text, _) = explain(&["--explain", "exact-alias"]);
    assert_eq!(code, Some(0));
    assert!(
        text.contains("searched as \"zebracache\", user test-user, scopes [], floor 3"),
        "{text}"
    );
    assert!(
        text.contains("- `b-only` 2.30 (below the floor): "),
        "{text}"
    );
    assert!(text.contains("aliases:zebracache 0.65"), "{text}");
    let (_, text, _) = explain(&["--explain", "exact-alias", "--min-score", "2"]);
    assert!(text.contains("- `b-only` 2.30 (kept): "), "{text}");
    let (code, _, stderr) = explain(&["--explain", "exact"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("no static case with that id in suite custom (near: exact-alias)"),
        "{stderr}"
    );
}
