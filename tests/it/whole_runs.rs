//! The studies read a report's rows against the benchmark's files given them (`locomo`,
//! `beam`, `longmemeval`, `trec`): a report that is not a whole, finished run on those very
//! files is refused, named (exit 2), never measured as one. An audit found a shard's report
//! and a run on an altered copy of LoCoMo each measured against the released file with exit 0
//! (the altered run's gold, read from its rows, made every figure 1.000).

use crate::common::needs::{locomo_file, needs, Need};
use crate::common::{tenure_eval, tenure_eval_ok};
use std::path::Path;

#[test]
fn a_shard_or_a_run_on_other_files_is_not_measured_as_a_whole_run_on_these() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let released = locomo_file();
    let dir = tempfile::tempdir().unwrap();
    // An altered copy: one character of one turn changed.
    let text = std::fs::read_to_string(&released).unwrap();
    let at = text.find("\"text\": \"").unwrap() + 9;
    let mut altered = text.clone();
    altered.replace_range(at..at + 1, "#");
    assert_ne!(altered, text);
    let copy = dir.path().join("locomo10.json");
    std::fs::write(&copy, altered).unwrap();
    let run = |data: &Path, out: &str, extra: &[&str]| {
        let out = dir.path().join(out);
        let args = [
            &[
                "run",
                "--suite",
                "locomo",
                "--backend",
                "bm25-text",
                "--quiet",
            ],
            extra,
        ]
        .concat();
        tenure_eval_ok(
            &args,
            &[Path::new("--data"), data, Path::new("--out"), &out],
        );
        out.join("locomo/retrieval-report-bm25-text.json")
    };
    let whole = run(&released, "whole", &[]);
    let on_copy = run(&copy, "copy", &[]);
    let shard = run(&released, "shard", &["--shard", "1/3"]);
    let measure = |report: &Path| {
        tenure_eval(&[
            "locomo",
            report.to_str().unwrap(),
            "--data",
            released.to_str().unwrap(),
            "--quiet",
        ])
    };
    assert!(measure(&whole).status.success());
    for (report, says) in [
        (&on_copy, "is not among the files given"),
        (&shard, "the report of shard 1/3"),
    ] {
        let out = measure(report);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{says}: {stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert!(out.stdout.is_empty());
    }
    // `compare` pairs the two runs' cases by id: their gold differs, so it refuses.
    let out = tenure_eval(&[
        "compare",
        whole.to_str().unwrap(),
        on_copy.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("these runs read different files"));
    // The run on the copy is measured against the copy.
    let out = tenure_eval(&[
        "locomo",
        on_copy.to_str().unwrap(),
        "--data",
        copy.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
