//! `verify` passes untouched reports and catches a tampered aggregate, a tampered row and a
//! tampered input file, naming each (exit 1).

use crate::common::{read_json, tenure_eval_with};
use serde_json::{json, Value};
use std::path::Path;

fn edit(path: &Path, change: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    change(&mut v);
    std::fs::write(path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
}

#[test]
fn verify_catches_tampered_aggregates_rows_and_inputs() {
    let dir = tempfile::tempdir().unwrap();
    // A custom suite, so that its input files live on disk where they can be tampered with.
    let corpus = dir.path().join("beliefs.json");
    let cases = dir.path().join("cases.json");
    std::fs::write(
        &corpus,
        serde_json::to_vec(&read_json("seeds/pmb/beliefs.seed.json")).unwrap(),
    )
    .unwrap();
    std::fs::write(
        &cases,
        serde_json::to_vec(&read_json("cases/pmb/retrieval.cases.json")).unwrap(),
    )
    .unwrap();
    let out_dir = dir.path().join("reports");
    let out = tenure_eval_with(
        &["static", "--quiet", "--corpus"],
        &[
            &corpus,
            Path::new("--cases"),
            &cases,
            Path::new("--out"),
            &out_dir,
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = out_dir.join("custom/retrieval-report-tenure.json");

    let out = tenure_eval_with(&["verify"], &[&report]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    // A tampered aggregate.
    let tampered = dir.path().join("aggregate.json");
    std::fs::copy(&report, &tampered).unwrap();
    edit(&tampered, |v| v["retrieval"]["meanPrecision"] = json!(0.9));
    let out = tenure_eval_with(&["verify"], &[&tampered]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.contains("retrieval.meanPrecision is 0.9 but the per-case rows give 1.0"),
        "{stdout}"
    );

    // A tampered row: a failing case that claims to pass.
    let tampered = dir.path().join("row.json");
    std::fs::copy(&report, &tampered).unwrap();
    edit(&tampered, |v| {
        v["cases"][3]["failures"] = json!(["missing expected belief: b-x"])
    });
    let out = tenure_eval_with(&["verify"], &[&tampered]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.contains("$.cases[3].passed is true but it lists 1 failures"),
        "{stdout}"
    );

    // A tampered input file.
    let mut beliefs = read_json("seeds/pmb/beliefs.seed.json");
    beliefs[0]["aliases"] = json!(["verbosity"]);
    std::fs::write(&corpus, serde_json::to_vec(&beliefs).unwrap()).unwrap();
    let out = tenure_eval_with(&["verify"], &[&report]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.contains(&format!("input {} has sha256", corpus.display()))
            && stdout.contains("the manifest records"),
        "{stdout}"
    );
}

#[test]
fn verify_of_builtin_suite_reports_checks_the_compiled_in_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let out = tenure_eval_with(
        &["run", "--suite", "paper", "--quiet", "--out"],
        &[dir.path()],
    );
    assert!(out.status.success());
    let paper = dir.path().join("paper");
    let out = tenure_eval_with(
        &["verify"],
        &[
            &paper.join("retrieval-report.json"),
            &paper.join("session-retrieval-report.json"),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A sidecar manifest with a wrong hash is caught.
    edit(&paper.join("retrieval-report.manifest.json"), |m| {
        m["inputs"][0]["sha256"] = json!("00")
    });
    let out = tenure_eval_with(&["verify"], &[&paper.join("retrieval-report.json")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout)
        .contains("input seeds/paper/beliefs.seed.json has sha256"));
}

#[test]
fn no_inputs_checks_a_published_report_without_a_manifest() {
    let published = "tests/golden/pmb-baseline/retrieval-report-tenure.json";
    let with_inputs = crate::common::tenure_eval(&["verify", published]);
    assert_eq!(with_inputs.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&with_inputs.stdout).contains("no manifest"));
    let out = crate::common::tenure_eval(&["verify", "--no-inputs", published]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("verified"));
    // Its aggregates are still checked: mem0's hand-edited categories are found.
    let mem0 = "tests/golden/pmb-baseline/retrieval-report-mem0.json";
    let out = crate::common::tenure_eval(&["verify", "--no-inputs", mem0]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("retrieval.categories"));
}
