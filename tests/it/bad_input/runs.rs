//! Runs on bad input write no report; an unknown suite or a missing half is a usage error.

use super::*;

#[test]
fn static_run_on_bad_input_writes_no_report() {
    let f = Files::new();
    let mut c = cases();
    c[0]["expect"]["openQuestions"] = json!({"mustInclude": "b-auth-open-q"});
    let bad = f.json("cases.json", &c);
    let out_dir = f.dir.path().join("reports");
    let corpus = f.json("corpus.json", &corpus());
    let out = tenure_eval_with(&["static", "--corpus"], &[&corpus]);
    assert_eq!(out.status.code(), Some(2)); // --cases missing: usage error
    let mut cmd = crate::common::cli(&[]);
    let out = cmd
        .arg("static")
        .arg("--corpus")
        .arg(&corpus)
        .arg("--cases")
        .arg(&bad)
        .arg("--out")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_input_error(
        &out,
        &bad,
        &[
            "$[0].expect.openQuestions.mustInclude",
            "expected a sequence",
        ],
    );
    assert!(!out_dir.exists());
}

#[test]
fn unknown_builtin_suite_is_a_usage_error() {
    // Every suite is listed, and a near name is suggested, before anything else is said.
    let out = tenure_eval_with(&["static", "--suite", "nope", "--out", "/nonexistent"], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("invalid value 'nope' for '--suite <SUITE>'")
            && stderr.contains("[possible values: paper, pmb, bitemporal, locomo, longmemeval, trec, beir, beam, locomo-plus, temporal-memory]"),
        "{stderr}"
    );
    let out = tenure_eval_with(
        &["static", "--suite", "locmo", "--data", "/nonexistent"],
        &[],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("a similar value exists: 'locomo'"),
        "{stderr}"
    );
}

#[test]
fn valid_custom_suite_validates_with_warnings() {
    let f = Files::new();
    let out = validate(
        &f.json("corpus.json", &corpus()),
        &f.json("cases.json", &cases()),
        Some(&f.json("sessions.json", &sessions())),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("35 beliefs, 77 static cases, 2 session cases (12 turns), 3 warnings"),
        "{stdout}"
    );
}

#[test]
fn session_without_session_cases_is_a_usage_error_and_run_does_the_static_half() {
    let f = Files::new();
    let (corpus, cases) = (
        f.json("corpus.json", &corpus()),
        f.json("cases.json", &cases()),
    );
    let out_dir = f.dir.path().join("reports");
    let run = |command: &str| {
        crate::common::cli(&[])
            .args([command, "--corpus"])
            .arg(&corpus)
            .arg("--cases")
            .arg(&cases)
            .arg("--out")
            .arg(&out_dir)
            .output()
            .unwrap()
    };
    let out = run("session");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no session cases"));
    assert!(
        !out_dir.exists(),
        "nothing may be written before a usage error"
    );
    let out = run("run");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out_dir.join("custom/retrieval-report-tenure.json").exists());
    assert!(!out_dir
        .join("custom/session-retrieval-report-tenure.json")
        .exists());
}
