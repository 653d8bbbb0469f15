//! Loud where a system is broken (issue 33): careful mode warns when answers hold ids never
//! added, and `doctor` names them; a compat run whose searches all fail is a failed run that
//! leaves the last good report alone; a seeding failure is one error naming the belief. The
//! memory system is `provider.py`, a real process on 127.0.0.1 (needs python3).

use crate::common::cli;
use crate::common::needs::{needs, Need};
use crate::common::provider::{static_toy, Provider};
use std::path::Path;

fn run(url: &str, out: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let o = static_toy(url, out, extra).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn careful_mode_warns_of_ids_never_added_and_doctor_names_them() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let provider = Provider::start(0, &dir.path().join("p.log"), &["--invent-ids"]);
    let summary = dir.path().join("summary.md");
    let s = summary.display().to_string();
    let (code, stderr) = run(
        &provider.url,
        &dir.path().join("out"),
        &["--summary-md", &s],
    );
    // Every answer holds one of three invented ids, each search but those with no match.
    assert_eq!(code, Some(0), "{stderr}");
    let warning = stderr
        .lines()
        .find(|l| l.starts_with("warning: toy static: answers to "))
        .unwrap_or_else(|| panic!("no warning: {stderr}"));
    assert!(
        warning.contains("held ids this run never added (3 distinct"),
        "{warning}"
    );
    for id in ["invented-0", "invented-1", "invented-2"] {
        assert!(warning.contains(id), "{warning}");
    }
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(
        md.contains("### ⚠️ Warnings") && md.contains("invented-0"),
        "{md}"
    );

    let doctor = cli(&["doctor", "--url", &provider.url]).output().unwrap();
    let text = String::from_utf8_lossy(&doctor.stdout).into_owned()
        + &String::from_utf8_lossy(&doctor.stderr);
    let line = text
        .lines()
        .find(|l| l.contains("reset-clears"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("with ids never added: \"invented-"), "{line}");
}

#[test]
fn compat_on_a_system_whose_searches_all_fail_is_a_failed_run_that_keeps_the_good_report() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let good = out.join("pmb/retrieval-report-toy-compat.json");
    {
        let healthy = Provider::start(0, &dir.path().join("good.log"), &[]);
        let (code, stderr) = run(&healthy.url, &out, &["--compat", "pmb"]);
        assert_eq!(code, Some(0), "{stderr}");
    }
    let before = std::fs::read(&good).unwrap();
    let broken = Provider::start(0, &dir.path().join("bad.log"), &["--search-status", "500"]);
    let (code, stderr) = run(&broken.url, &out, &["--compat", "pmb"]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(
        stderr.contains("72 of 72 /search calls failed (more than 5%)"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(&good).unwrap(),
        before,
        "the good report is untouched"
    );
    // Upstream's numbers are kept, beside it.
    let failed: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.join("pmb/failed/retrieval-report-toy-compat.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(failed["cases"].as_array().unwrap().len(), 77);
}

#[test]
fn a_seeding_failure_is_one_error_naming_the_belief() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("p.log");
    let provider = Provider::start(0, &log, &["--fail-add", "b-kubernetes-entity"]);
    let (code, stderr) = run(&provider.url, &dir.path().join("out"), &["--retries", "0"]);
    assert_eq!(code, Some(3), "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].contains("belief b-kubernetes-entity ("),
        "{}",
        errors[0]
    );
    assert!(errors[0].contains("HTTP 500"), "{}", errors[0]);
    assert!(errors[0].contains("tenure-eval doctor"), "{}", errors[0]);
    // No case was searched on a store seeded in part.
    let searched = crate::common::provider::searches(&log);
    assert_eq!(searched, Vec::<String>::new());
}

/// A custom corpus whose beliefs belong to another user scores 0 everywhere: a run says why,
/// even with --quiet, as `validate` does (an audit found such a run silent).
#[test]
fn a_run_on_a_corpus_of_another_user_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let seed = std::fs::read_to_string(crate::common::repo("seeds/pmb/beliefs.seed.json")).unwrap();
    let corpus = dir.path().join("beliefs.json");
    std::fs::write(&corpus, seed.replace("\"test-user\"", "\"alice\"")).unwrap();
    let out = cli(&["static", "--quiet", "--corpus"])
        .arg(&corpus)
        .args(["--cases", "cases/pmb/retrieval.cases.json", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no belief belongs to \"test-user\""),
        "{stderr}"
    );
}
