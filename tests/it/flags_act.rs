//! Every flag acts or is refused (issue 45): flags a command would take and then ignore are
//! exit 2, naming the flag, and a command's reports never go where another command's are.

use crate::common::{cli, repo, tenure_eval};
use serde_json::Value;

fn refused(args: &[&str], flag: &str) {
    let out = tenure_eval(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(flag), "{args:?} names {flag}: {stderr}");
}

/// `merge` has its own flags: none of `run`'s backend, explain or repeat flags, which it
/// took and ignored (exit 0, nothing merged for `--explain`).
#[test]
fn merge_takes_only_what_a_merge_uses() {
    let dir = tempfile::tempdir().unwrap();
    let shard = dir.path().to_str().unwrap();
    for (flag, value) in [
        ("--explain", "some-case"),
        ("--lambda", "2"),
        ("--hnsw-m", "8"),
        ("--repeat", "3"),
        ("--backend", "bm25"),
        ("--concurrency", "4"),
        ("--url", "http://127.0.0.1:9"),
    ] {
        refused(&["merge", shard, "--suite", "pmb", flag, value], flag);
    }
    let help = tenure_eval(&["merge", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    for flag in [
        "--suite",
        "--out",
        "--fail-on",
        "--junit",
        "--html",
        "--history",
    ] {
        assert!(help.contains(flag), "merge --help lists {flag}: {help}");
    }
    assert!(
        !help.contains("--lambda") && !help.contains("--model"),
        "{help}"
    );
}

/// A replay re-scores the recording's backends: every backend, remote-call and memory-system
/// flag is refused by name, before the recording is read.
#[test]
fn a_replay_refuses_every_backend_flag_by_name() {
    for (flag, value) in [
        ("--lambda", "2"),
        ("--hnsw-m", "8"),
        ("--cosine-floor", "0.5"),
        ("--rrf-k", "30"),
        ("--concurrency", "4"),
        ("--timeout", "5"),
        ("--compat", "pmb"),
        ("--model", "hashed"),
        ("--label", "x"),
    ] {
        refused(
            &[
                "static",
                "--suite",
                "pmb",
                "--replay",
                "no-such-dir",
                flag,
                value,
            ],
            flag,
        );
    }
}

/// `models` fuses its reference with each model: a `--fuse` list would be ignored, and its
/// reference is a lexical backend.
#[test]
fn models_refuses_fuse_and_a_reference_that_is_not_lexical() {
    refused(
        &[
            "models",
            "--suite",
            "pmb",
            "--fusion",
            "rrf",
            "--fuse",
            "bm25-text,cosine",
        ],
        "--fuse",
    );
    refused(
        &["models", "--suite", "pmb", "--reference", "cosine"],
        "--reference",
    );
}

/// `models` writes into a folder of its own (reports/models/SUITE by default), and its
/// reference row is the lexical backend the suite's items can be matched by: BM25 on text,
/// alias-BM25 where items carry aliases; `--reference` chooses.
#[test]
fn models_writes_its_own_folder_and_its_reference_follows_the_suite() {
    let dir = tempfile::tempdir().unwrap();
    let data = repo("tests/data/longmemeval-sample.json");
    let models = |extra: &[&str]| -> Value {
        let out = cli(&[
            &[
                "models",
                "--suite",
                "longmemeval",
                "--model",
                "hashed",
                "--no-chance",
            ][..],
            &["--quiet", "--format", "json"],
            extra,
        ]
        .concat())
        .arg("--data")
        .arg(&data)
        .current_dir(dir.path())
        .output()
        .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let rows = models(&[]);
    assert_eq!(rows[0]["backend"], "bm25-text", "{rows}");
    let folder = dir.path().join("reports/models/longmemeval");
    let written: Vec<String> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        written.iter().any(|f| f.starts_with("hashed-")),
        "{written:?}"
    );
    assert!(
        !dir.path().join("reports/longmemeval").exists(),
        "nothing in run's folder"
    );
    let rows = models(&["--reference", "bm25"]);
    assert_eq!(rows[0]["backend"], "bm25", "{rows}");
    // The reference's settings are in its name, as `run` labels them (it read plain `bm25`).
    let rows = models(&["--reference", "bm25", "--min-score", "8"]);
    assert_eq!(rows[0]["backend"], "bm25-min8", "{rows}");
}
