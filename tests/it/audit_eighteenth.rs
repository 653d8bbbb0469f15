//! What an eighteenth audit (memory systems over HTTP) found, each kept closed here against
//! `provider.py`: a compat pass judged a failed run by its failed calls came back a good one
//! (answers without a results array not counted, `/reset` and `/wait` not judged, `--resume`
//! and `merge` without the counters), a failed repeat left a good-named report, repeats'
//! intervals left the measure's range, an ingestion time went negative, and flags taken and
//! never read.

use crate::common::cli;
use crate::common::needs::{needs, Need};
use crate::common::provider::{static_toy, toy, Provider};
use serde_json::Value;
use std::path::Path;

/// Exit 3, the report only in `failed/`, and stderr saying why.
fn failed_run(o: &std::process::Output, report: &Path, says: &str) {
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains(says), "{stderr}");
    assert!(
        !report.exists(),
        "no good-named report: {}",
        report.display()
    );
    let failed = report
        .parent()
        .unwrap()
        .join("failed")
        .join(report.file_name().unwrap());
    assert!(failed.is_file(), "{}", failed.display());
}

#[test]
fn a_compat_pass_judged_failed_stays_failed() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let compat = ["--compat", "pmb"];
    let report = |out: &str| {
        dir.path()
            .join(out)
            .join("pmb/retrieval-report-toy-compat.json")
    };
    // Every fifth search answers 200 with no results array: 14 of 72, read as no results.
    let unread = Provider::start(0, &dir.path().join("u.log"), &["--unread-every", "5"]);
    let o = static_toy(&unread.url, &dir.path().join("u"), &compat)
        .output()
        .unwrap();
    failed_run(
        &o,
        &report("u"),
        "14 of 72 /search calls failed (more than 5%)",
    );
    // Every search answers 500: failed; --resume takes every case from the journal and sends
    // none, and the counters that judged it come with them.
    let down = Provider::start(0, &dir.path().join("d.log"), &["--search-status", "500"]);
    let out = dir.path().join("d");
    let o = static_toy(&down.url, &out, &compat).output().unwrap();
    failed_run(&o, &report("d"), "72 of 72 /search calls failed");
    for again in ["--resume", "--rerun-errored"] {
        let o = static_toy(&down.url, &out, &[&compat[..], &[again]].concat())
            .output()
            .unwrap();
        failed_run(&o, &report("d"), "/search calls failed");
    }
    // In shards, merged: the shards' counters summed.
    for k in ["1/2", "2/2"] {
        let shard = dir.path().join(format!("s{}", &k[..1]));
        let o = static_toy(&down.url, &shard, &[&compat[..], &["--shard", k]].concat())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(3));
    }
    let o = cli(&["merge", "--suite", "pmb", "--quiet", "--out"])
        .arg(dir.path().join("m"))
        .args([dir.path().join("s1"), dir.path().join("s2")])
        .output()
        .unwrap();
    failed_run(&o, &report("m"), "72 of 72 /search calls failed");
    // A /reset that fails clears nothing: the store a session runs on is not the seed.
    let reset = Provider::start(0, &dir.path().join("r.log"), &["--reset-status", "500"]);
    let o = toy("session", &reset.url, &dir.path().join("r"), &compat)
        .output()
        .unwrap();
    failed_run(
        &o,
        &dir.path()
            .join("r/pmb/session-retrieval-report-toy-compat.json"),
        "1 of 1 /reset calls failed",
    );
}

/// A repeat the system failed on fails the run, and the report goes to `failed/` with the
/// verdict in its manifest; the repeats' intervals stay in their measures' range (two repeats
/// of 0 and 11 passes gave a t interval past both ends).
#[test]
fn a_failed_repeat_fails_the_run_and_intervals_stay_in_range() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let late = Provider::start(0, &dir.path().join("l.log"), &["--down-first", "72"]);
    let out = dir.path().join("l");
    let o = static_toy(&late.url, &out, &["--compat", "pmb", "--repeat", "2"])
        .output()
        .unwrap();
    let good = out.join("pmb/retrieval-report-toy-compat.json");
    failed_run(&o, &good, "72 of 72 /search calls failed");
    let failed = out.join("pmb/failed/retrieval-report-toy-compat.json");
    let report: Value = serde_json::from_slice(&std::fs::read(&failed).unwrap()).unwrap();
    let manifest = &report["manifest"];
    assert!(
        manifest["unhealthy"]
            .as_str()
            .unwrap()
            .contains("72 of 72 /search calls failed"),
        "{manifest}"
    );
    for m in manifest["repeats"]["measures"].as_array().unwrap() {
        let high = if m["measure"] == "totalPassed" {
            77.0
        } else {
            1.0
        };
        let ci = [
            m["ci95"][0].as_f64().unwrap(),
            m["ci95"][1].as_f64().unwrap(),
        ];
        assert!(0.0 <= ci[0] && ci[0] <= ci[1] && ci[1] <= high, "{m}");
    }
    let values = |name: &str| {
        let m = (manifest["repeats"]["measures"].as_array().unwrap().iter())
            .find(|m| m["measure"] == name)
            .unwrap()
            .clone();
        m["values"].clone()
    };
    assert_ne!(
        values("totalPassed")[0],
        values("totalPassed")[1],
        "the repeats differ"
    );
}

/// The careful client subtracts no overhead below 0 or longer than the call (an ingestion of
/// -3,500 s was written and verified); flags taken and never read are refused.
#[test]
fn impossible_overheads_and_flags_never_read() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let slow = Provider::start(0, &dir.path().join("o.log"), &["--overhead-ms", "100000"]);
    let out = dir.path().join("o");
    let o = static_toy(&slow.url, &out, &[]).output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.join("pmb/retrieval-report-toy.json")).unwrap())
            .unwrap();
    assert!(
        report["ingestion"]["totalMs"].as_f64().unwrap() >= 0.0,
        "{}",
        report["ingestion"]
    );
    assert!(
        report["manifest"]["backendStats"]
            .to_string()
            .contains("db_overhead_ms below 0 or longer"),
        "{}",
        report["manifest"]["backendStats"]
    );
    let refused = |extra: &[&str], says: &str| {
        let o = static_toy(&slow.url, &dir.path().join("x"), extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
    };
    refused(&["--providers-config", "providers.json"], "--provider");
    let session = toy(
        "session",
        &slow.url,
        &dir.path().join("x"),
        &["--no-reseed", "--repeat", "2"],
    )
    .output()
    .unwrap();
    assert_eq!(session.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&session.stderr)
        .contains("--repeat runs each repeat on a fresh store, and --no-reseed"));
}
