//! Same inputs, byte-identical reports apart from measured fields.

use crate::common::{repo, strip_measurements};
use serde_json::Value;

fn run_cli(suite: &str, out: &std::path::Path) {
    let status = crate::common::cli(&[])
        .args([
            "run",
            "--suite",
            suite,
            "--backend",
            "bm25,cosine",
            "--quiet",
            "--out",
        ])
        .arg(out)
        .current_dir(repo(""))
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn two_runs_write_identical_reports() {
    for (suite, files) in [
        (
            "pmb",
            vec![
                "retrieval-report-tenure.json",
                "all-minilm-l6-v2-retrieval-report-vector.json",
                "all-minilm-l6-v2-session-retrieval-report-vector.json",
            ],
        ),
        (
            "paper",
            vec![
                "retrieval-report.json",
                "retrieval-report.manifest.json",
                "all-minilm-l6-v2-retrieval-report-vector.json",
                "all-minilm-l6-v2-session-retrieval-report-vector.json",
            ],
        ),
    ] {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        run_cli(suite, a.path());
        run_cli(suite, b.path());
        for file in files {
            let read =
                |dir: &tempfile::TempDir| std::fs::read(dir.path().join(suite).join(file)).unwrap();
            let (bytes_a, bytes_b) = (read(&a), read(&b));
            let mut va: Value = serde_json::from_slice(&bytes_a).unwrap();
            let mut vb: Value = serde_json::from_slice(&bytes_b).unwrap();
            strip_measurements(&mut va);
            strip_measurements(&mut vb);
            assert_eq!(
                serde_json::to_vec_pretty(&va).unwrap(),
                serde_json::to_vec_pretty(&vb).unwrap(),
                "{suite}/{file} differs between runs"
            );
            // Measured fields are the only difference: line counts agree byte-for-byte layout.
            assert_eq!(
                bytes_a.iter().filter(|&&c| c == b'\n').count(),
                bytes_b.iter().filter(|&&c| c == b'\n').count()
            );
        }
        // No temporary file is left behind by the atomic writes.
        let leftovers: Vec<_> = std::fs::read_dir(a.path().join(suite))
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
    }
}
