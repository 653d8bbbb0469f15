//! Where reports are looked for and how they are grouped: `verify reports/paper/*.json` skips
//! the paper layout's `*.manifest.json` sidecars as `tables` does; reports of different suites
//! given together are named in a warning (`tables`, `plot`), or refused where pairing their
//! cases would be wrong (`compare`).

use crate::common::tenure_eval;
use std::path::PathBuf;

fn files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn verify_skips_sidecars_and_mixed_suites_are_named_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    for suite in ["paper", "pmb"] {
        let run = tenure_eval(&["static", "--suite", suite, "--quiet", "--out", out]);
        assert!(run.status.success());
    }
    let paper = files(&dir.path().join("paper"));
    assert!(paper
        .iter()
        .any(|p| p.to_string_lossy().ends_with(".manifest.json")));
    let args: Vec<&str> = paper.iter().map(|p| p.to_str().unwrap()).collect();
    let verify = tenure_eval(&[&["verify"], &args[..]].concat());
    let (stdout, stderr) = (
        String::from_utf8_lossy(&verify.stdout),
        String::from_utf8_lossy(&verify.stderr),
    );
    assert_eq!(verify.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("retrieval-report.json: verified"),
        "{stdout}"
    );
    assert!(
        stderr.contains(
            "retrieval-report.manifest.json is a report's manifest, not a report; skipped"
        ),
        "{stderr}"
    );

    let paper_static = dir.path().join("paper/retrieval-report.json");
    let pmb_static = dir.path().join("pmb/retrieval-report-tenure.json");
    let (a, b) = (paper_static.to_str().unwrap(), pmb_static.to_str().unwrap());
    let tables = tenure_eval(&["tables", a, b]);
    let stderr = String::from_utf8_lossy(&tables.stderr);
    assert!(tables.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: these reports are of different suites")
            && stderr.contains(&format!("suite paper: {a}"))
            && stderr.contains(&format!("suite pmb: {b}")),
        "{stderr}"
    );
    let compare = tenure_eval(&["compare", a, b]);
    let stderr = String::from_utf8_lossy(&compare.stderr);
    assert_eq!(compare.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("compare pairs cases by id, and these reports are of different suites"),
        "{stderr}"
    );
    // One file given twice stands as two runs: said, even with --quiet.
    let tables = tenure_eval(&["tables", b, b, "--quiet"]);
    let stderr = String::from_utf8_lossy(&tables.stderr);
    assert!(tables.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("warning: {b} is given twice")),
        "{stderr}"
    );
}
