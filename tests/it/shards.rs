//! Sharded runs (issue 35): a run in 3 shards (`--shard K/N`), merged, equals the unsharded run
//! on pmb (static and sessions, whose shards replay the other shards' mutations) and on LoCoMo;
//! `merge` refuses shards of different settings, a missing shard and a shard given twice.

use crate::common::cli;
use crate::common::needs::{locomo_file, needs, Need};
use crate::common::strip_measurements;
use serde_json::Value;
use std::path::Path;

fn run(args: &[&str], out: &Path) -> std::process::Output {
    cli(args)
        .arg("--quiet")
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

fn ok(o: std::process::Output) {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn report(path: &Path) -> Value {
    let mut v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    strip_measurements(&mut v);
    v
}

/// Run `args` whole and in 3 shards, merge, and compare each report named in `files`. The
/// folder is returned for more checks, and removed when the caller drops it.
fn sharded_equals_whole(args: &[&str], suite: &str, files: &[&str]) -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    ok(run(args, &dir.join("whole")));
    let mut shards = Vec::new();
    for k in 1..=3 {
        let out = dir.join(format!("shard{k}"));
        let mut sharded = args.to_vec();
        let spec = format!("{k}/3");
        sharded.extend(["--shard", &spec]);
        ok(run(&sharded, &out));
        shards.push(out);
    }
    let mut merge = vec!["merge"];
    let names: Vec<String> = shards.iter().map(|s| s.display().to_string()).collect();
    merge.extend(names.iter().map(String::as_str));
    merge.extend(
        args[1..]
            .iter()
            .filter(|a| !a.starts_with("--backend") && !a.starts_with("bm25")),
    );
    let junit = dir.join("junit.xml");
    merge.extend(["--junit", junit.to_str().unwrap()]);
    ok(run(&merge, &dir.join("merged")));
    let mut sizes = 0;
    for file in files {
        let whole = report(&dir.join("whole").join(suite).join(file));
        assert_eq!(
            report(&dir.join("merged").join(suite).join(file)),
            whole,
            "{file}"
        );
        for k in 1..=3 {
            let part = report(&dir.join(format!("shard{k}")).join(suite).join(file));
            assert_eq!(
                part["manifest"]["shard"],
                serde_json::json!({"k": k, "n": 3})
            );
            sizes += part["cases"].as_array().map_or(0, Vec::len);
        }
        assert!(whole["manifest"].get("shard").is_none());
    }
    let whole_cases: usize = files
        .iter()
        .map(|f| {
            report(&dir.join("whole").join(suite).join(f))["cases"]
                .as_array()
                .map_or(0, Vec::len)
        })
        .sum();
    assert_eq!(sizes, whole_cases, "the shards partition the cases");
    assert!(std::fs::read_to_string(&junit)
        .unwrap()
        .contains("<testsuites"));
    temp
}

#[test]
fn pmb_in_three_shards_merged_equals_the_whole_run_sessions_included() {
    let temp = sharded_equals_whole(
        &["run", "--suite", "pmb"],
        "pmb",
        &[
            "retrieval-report-tenure.json",
            "session-retrieval-report-tenure.json",
        ],
    );
    let dir = temp.path();
    // Refusals, each before anything is written.
    let refused = |shards: &[&str], said: &str| {
        let mut args = vec!["merge".to_string()];
        args.extend(shards.iter().map(|s| dir.join(s).display().to_string()));
        args.extend(["--suite".into(), "pmb".into()]);
        let out = dir.join("refused");
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&a, &out);
        let e = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{shards:?}: {e}");
        assert!(e.contains(said), "{shards:?}: expected {said:?} in {e}");
        assert!(!out.exists(), "nothing written");
    };
    refused(&["shard1", "shard2"], "shard 3/3 missing");
    refused(
        &["shard1", "shard2", "shard2", "shard3"],
        "shard 2/3 given twice",
    );
    refused(
        &["whole", "shard1", "shard2", "shard3"],
        "is a whole run's journal, not a shard's",
    );
    // A shard run with another setting: named.
    ok(run(
        &[
            "run",
            "--suite",
            "pmb",
            "--shard",
            "2/3",
            "--min-score",
            "2",
        ],
        &dir.join("other2"),
    ));
    refused(
        &["shard1", "other2", "shard3"],
        "are shards of different runs (settings.minScore",
    );
}

#[test]
fn locomo_in_three_shards_merged_equals_the_whole_run() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let data = locomo_file().display().to_string();
    sharded_equals_whole(
        &[
            "static",
            "--suite",
            "locomo",
            "--data",
            &data,
            "--backend",
            "bm25-text",
        ],
        "locomo",
        &["retrieval-report-bm25-text.json"],
    );
}

/// `models --shard K/N`: every model's passes are sharded the same way, and `merge` gives the
/// unsharded `models` run's reports, BM25's and each model's (the committed MiniLM store), and
/// its table: each row tested against chance over every case. Without `--out` the merged
/// reports go where `models` puts them (reports/models), never over a `run`'s; the shards'
/// measures are the table's (`--metrics` is refused), and shards of other measures are not
/// merged.
#[test]
fn models_in_two_shards_merged_equals_the_whole_models_run() {
    let dir = tempfile::tempdir().unwrap();
    let models = |out: &str, shard: Option<&str>, metrics: &str| {
        let mut args = vec![
            "models",
            "--suite",
            "pmb",
            "--model",
            "all-minilm-l6-v2",
            "--metrics",
            metrics,
        ];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        let o = run(&args, &dir.path().join(out));
        ok(o.clone());
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let whole = models("whole", None, "R@5,nDCG@10");
    models("s1", Some("1/2"), "R@5,nDCG@10");
    models("s2", Some("2/2"), "R@5,nDCG@10");
    let merge = |shards: &[&str], extra: &[&str]| {
        let mut c = cli(&["merge"]);
        c.current_dir(dir.path())
            .args(shards)
            .args(["--suite", "pmb", "--quiet"])
            .args(extra);
        c.output().unwrap()
    };
    let o = merge(&["s1", "s2"], &[]);
    ok(o.clone());
    // The table, but for the measured latency columns (the last two).
    let unmeasured = |table: &str| -> Vec<String> {
        (table.lines())
            .map(|l| match l.starts_with('|') {
                true => l.split('|').collect::<Vec<_>>()[..l.split('|').count() - 3].join("|"),
                false => l.to_string(),
            })
            .collect()
    };
    let merged = String::from_utf8_lossy(&o.stdout);
    assert!(
        merged.contains("R@5") && merged.contains("vs chance"),
        "{merged}"
    );
    assert_eq!(unmeasured(&merged), unmeasured(&whole));
    for file in [
        "retrieval-report-tenure.json",
        "session-retrieval-report-tenure.json",
        "all-minilm-l6-v2-retrieval-report-vector.json",
        "all-minilm-l6-v2-session-retrieval-report-vector.json",
        "random-384-retrieval-report-vector.json",
    ] {
        assert_eq!(
            report(&dir.path().join("reports/models/pmb").join(file)),
            report(&dir.path().join("whole/pmb").join(file)),
            "{file}"
        );
    }
    assert!(!dir.path().join("reports/pmb").exists(), "a run's folder");
    let refused = |o: std::process::Output, says: &str| {
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
    };
    refused(
        merge(&["s1", "s2"], &["--metrics", "RR"]),
        "--metrics does not apply to `models` shards",
    );
    models("s2-rr", Some("2/2"), "RR");
    refused(
        merge(&["s1", "s2-rr"], &[]),
        "are `models` shards of different tables (measures: [\"R@5\",\"nDCG@10\"] against [\"RR\"])",
    );
}

/// A shard's report says so where it is read (its table, its manifest), and `verify` and
/// `tables` refuse it as a whole run (exit 2, naming the file and `$.manifest.shard`): its
/// means are one shard's (issue 45).
#[test]
fn a_shards_report_is_not_taken_for_a_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = cli(&["static", "--suite", "pmb", "--shard", "1/2", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    ok(out.clone());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("shard 1/2, its cases only"), "{stdout}");
    let path = dir.path().join("pmb/retrieval-report-tenure.json");
    assert_eq!(
        report(&path)["manifest"]["shard"],
        serde_json::json!({"k": 1, "n": 2})
    );
    for command in ["verify", "tables"] {
        let o = cli(&[command]).arg(&path).output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{command}: {stderr}");
        assert!(
            stderr.contains("$.manifest.shard")
                && stderr.contains("shard 1/2")
                && stderr.contains("retrieval-report-tenure.json"),
            "{command}: {stderr}"
        );
    }
}
