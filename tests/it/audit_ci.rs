//! What a fifth audit found in CI runs against memory systems, each kept closed here: a
//! repeated run that fails, client flags a run would ignore, a gate over no case, a flaky case
//! of a repeated run (the gates, JUnit and the summary judged the last repeat only).

use crate::common::refused;
use std::path::Path;

/// A `--repeat 3` run whose system dies in its second repeat: the first repeat's good-named
/// report, one repeat of three with no spread, was left beside failed/ and read as the run's.
/// The run's report is the failed one; the good-named file goes.
#[test]
fn a_repeated_run_that_fails_leaves_no_good_named_report() {
    use crate::common::provider::{faulty, static_toy};
    let Some((dir, provider)) = faulty(&["--die-after-searches", "100"]) else {
        return;
    };
    let out = dir.path().join("out");
    crate::common::exits(
        &mut static_toy(&provider.url, &out, &["--repeat", "3", "--retries", "0"]),
        3,
    );
    assert!(out.join("pmb/failed/retrieval-report-toy.json").is_file());
    assert!(
        !out.join("pmb/retrieval-report-toy.json").exists(),
        "no good-named report of one repeat"
    );
}

/// Flags of the careful client's that `--compat pmb` ignores (upstream's client neither retries
/// nor waits after a mutation), and the session flags a `static` run ignores, named the run
/// (`-settle1000`) or its manifest (`retries: 5`) and did nothing: refused before any call.
#[test]
fn client_flags_a_run_would_ignore_are_refused() {
    let http = [
        "--suite",
        "pmb",
        "--backend",
        "http",
        "--url",
        "http://127.0.0.1:9",
        "--name",
        "x",
    ];
    for (command, extra, says) in [
        (
            "session",
            &["--compat", "pmb", "--settle-ms", "1000"][..],
            "--settle-ms is the careful client's",
        ),
        (
            "static",
            &["--compat", "pmb", "--retries", "5"],
            "--retries is the careful client's",
        ),
        ("static", &["--supports-update"], "`static` runs no session"),
        ("static", &["--settle-ms", "50"], "`static` runs no session"),
    ] {
        let args = [&[command][..], &http, extra].concat();
        refused(&args, says);
    }
}

/// A run stopped before its first case (an add refused while seeding) has no case: the
/// any-failure gate said "no failing case" and passed, in JUnit and the summary.
#[test]
fn no_case_is_no_evidence_that_none_fails() {
    use crate::common::provider::{faulty, static_toy};
    let Some((dir, provider)) = faulty(&["--fail-add", "b-ci-gha-entity"]) else {
        return;
    };
    let junit = dir.path().join("j.xml");
    let extra = [
        "--fail-on",
        "any-failure",
        "--junit",
        junit.to_str().unwrap(),
    ];
    crate::common::exits(
        &mut static_toy(&provider.url, &dir.path().join("out"), &extra),
        3,
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("no case ran: nothing to judge"), "{xml}");
    assert!(!xml.contains("no failing case"), "{xml}");
}

/// `--repeat 3` against a system that answers a query every second time: its case passed in 2
/// of the 3 repeats, the last among them, and the gates, JUnit and summary judged the last
/// repeat only (passing on an odd N, failing on an even one). A case that failed in any repeat
/// fails the gate and is a failure in JUnit, saying it is flaky.
#[test]
fn a_flaky_case_of_a_repeated_run_fails_the_gate() {
    use crate::common::needs::{needs, Need};
    use crate::common::provider::{static_toy, Provider};
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sound = Provider::start(0, &dir.path().join("a.log"), &[]);
    let base_out = dir.path().join("base");
    crate::common::exits(&mut static_toy(&sound.url, &base_out, &[]), 0);
    let baseline = base_out.join("pmb/retrieval-report-toy.json");
    let flaky = Provider::start(0, &dir.path().join("b.log"), &["--flaky", "GHA"]);
    let junit = dir.path().join("j.xml");
    let extra = [
        "--repeat",
        "3",
        "--fail-on",
        "new-failures",
        "--baseline",
        baseline.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ];
    let run = static_toy(&flaky.url, &dir.path().join("out"), &extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("newly failing: alias-gha-resolves"),
        "{stderr}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("flaky: passed in 2 of 3 repeats"), "{xml}");
}

/// Shards that reached their system at different addresses are merged (a cluster's shards
/// may reach one system so), but the merged report keeps every shard's address, in shard
/// order, where it said shard 1's alone: two systems under one `--name` can be seen.
#[test]
fn a_merged_run_records_every_address_its_shards_reached() {
    use crate::common::needs::{needs, Need};
    use crate::common::provider::{static_toy, Provider};
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name);
    let a = Provider::start(0, &d("a.log"), &[]);
    let b = Provider::start(0, &d("b.log"), &[]);
    let shard = |url: &str, k: u8, folder: &str| {
        let out = static_toy(url, &d(folder), &["--shard", &format!("{k}/2")])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{said}");
        d(folder)
    };
    let merged_url = |one: &Path, two: &Path, out: &str| {
        crate::common::tenure_eval_ok(
            &["merge", "--suite", "pmb", "--quiet", "--out"],
            &[&d(out), one, two],
        );
        let report = std::fs::read(d(out).join("pmb/retrieval-report-toy.json")).unwrap();
        let report: serde_json::Value = serde_json::from_slice(&report).unwrap();
        report["manifest"]["backendSettings"]["url"].clone()
    };
    let (one, two) = (shard(&a.url, 1, "a1"), shard(&b.url, 2, "b2"));
    let apart = merged_url(&one, &two, "apart");
    assert_eq!(apart, serde_json::json!([a.url, b.url]));
    // Both shards at one address: the address, as an unsharded run records it.
    let two = shard(&a.url, 2, "a2");
    assert_eq!(merged_url(&one, &two, "together"), serde_json::json!(a.url));
}
