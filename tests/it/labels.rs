//! One run label, everywhere (`report::label`), through the binary: runs that differ in a
//! result-changing setting leave distinct files with distinct labels; runs at defaults keep
//! their names; `--label` names files, the run table and `compare` rows; a rerun replaces its
//! own file; a bad `--label` is a usage error.

use crate::common::{spawn_serve, tenure_eval, tenure_eval_ok};
use serde_json::Value;
use std::path::Path;

/// The report files in `dir/pmb`, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("pmb"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A report's manifest.
fn manifest(dir: &Path, file: &str) -> Value {
    let report: Value =
        serde_json::from_slice(&std::fs::read(dir.join("pmb").join(file)).unwrap()).unwrap();
    report["manifest"].clone()
}

/// The report files in `dir/pmb` are `expected`'s, each with its label in the manifest;
/// the manifests.
fn labelled(dir: &Path, expected: &[(&str, &str)]) -> Vec<Value> {
    let names: Vec<&str> = expected.iter().map(|e| e.0).collect();
    assert_eq!(files(dir), names);
    let manifests: Vec<Value> = names.iter().map(|f| manifest(dir, f)).collect();
    for ((file, label), m) in expected.iter().zip(&manifests) {
        assert_eq!(m["runLabel"], *label, "{file}");
    }
    manifests
}

/// The run names of a `compare --format json` runs table.
fn run_names(table: &Value) -> Vec<String> {
    let runs = table["runs"].as_array().unwrap();
    runs.iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect()
}

/// `static --suite pmb ARGS --quiet --out DIR`; stdout.
fn static_run(dir: &Path, args: &[&str]) -> String {
    let all = [
        &["static", "--suite", "pmb"][..],
        args,
        &["--quiet", "--out"],
    ]
    .concat();
    let out = tenure_eval_ok(&all, &[dir]);
    String::from_utf8(out.stdout).unwrap()
}

/// Runs at defaults keep the file names and labels they always had, and record the label.
#[test]
fn default_runs_keep_their_file_names_and_labels() {
    let dir = tempfile::tempdir().unwrap();
    let table = static_run(dir.path(), &["--backend", "bm25,cosine,rrf,fallback"]);
    assert_eq!(
        files(dir.path()),
        [
            "all-minilm-l6-v2-retrieval-report-fallback.json",
            "all-minilm-l6-v2-retrieval-report-rrf.json",
            "all-minilm-l6-v2-retrieval-report-vector.json",
            "retrieval-report-tenure.json",
        ]
    );
    for (file, label) in [
        ("retrieval-report-tenure.json", "bm25"),
        (
            "all-minilm-l6-v2-retrieval-report-vector.json",
            "cosine/all-minilm-l6-v2",
        ),
        (
            "all-minilm-l6-v2-retrieval-report-rrf.json",
            "rrf(bm25+cosine/all-minilm-l6-v2)",
        ),
    ] {
        let m = manifest(dir.path(), file);
        assert_eq!(m["runLabel"], label, "{file}");
        assert!(m.get("runLabelGiven").is_none() && m["backendInfo"].get("tag").is_none());
        assert!(table.contains(&format!("| {label} ")), "{table}");
    }
}

/// `--min-score`, `--index` and a fusion parameter each give a file and a label of their own
/// beside their default-settings twin.
#[test]
fn a_changed_setting_names_its_own_file_and_label() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--backend", "bm25"][..],
        &["--backend", "bm25", "--min-score", "2.5"],
        &["--backend", "cosine"],
        &["--backend", "cosine", "--index", "hnsw", "--hnsw-m", "8"],
        &["--backend", "rrf"],
        &["--backend", "rrf", "--rrf-k", "30"],
        &["--backend", "rrf", "--fusion-floor", "0,0.7"],
    ] {
        static_run(dir.path(), args);
    }
    let expected = [
        (
            "all-minilm-l6-v2-retrieval-report-rrf-floor0,0.7.json",
            "rrf(bm25+cosine/all-minilm-l6-v2)-floor0,0.7",
        ),
        (
            "all-minilm-l6-v2-retrieval-report-rrf-k30.json",
            "rrf(bm25+cosine/all-minilm-l6-v2)-k30",
        ),
        (
            "all-minilm-l6-v2-retrieval-report-rrf.json",
            "rrf(bm25+cosine/all-minilm-l6-v2)",
        ),
        (
            "all-minilm-l6-v2-retrieval-report-vector-hnsw-m8.json",
            "cosine/all-minilm-l6-v2-hnsw-m8",
        ),
        (
            "all-minilm-l6-v2-retrieval-report-vector.json",
            "cosine/all-minilm-l6-v2",
        ),
        ("retrieval-report-tenure-min2.5.json", "bm25-min2.5"),
        ("retrieval-report-tenure.json", "bm25"),
    ];
    labelled(dir.path(), &expected);
    // The three fusion runs: `compare` names each by its own label.
    let pmb = dir.path().join("pmb");
    let reports: Vec<_> = expected[..3].iter().map(|e| pmb.join(e.0)).collect();
    let paths: Vec<&Path> = reports.iter().map(|p| p.as_path()).collect();
    let out = tenure_eval_ok(
        &["compare", "--format", "json", "--resamples", "200"],
        &paths,
    );
    let names = run_names(&serde_json::from_slice(&out.stdout).unwrap());
    assert_eq!(names, ["rrf-floor0,0.7", "rrf-k30", "rrf"]);
    let md = tenure_eval_ok(&["compare", "--resamples", "200"], &paths);
    let md = String::from_utf8(md.stdout).unwrap();
    for name in names {
        assert!(md.contains(&name), "{md}");
    }
}

/// `--label` names the files, the manifest, the run table and `compare` rows; a rerun with the
/// same settings replaces its own files.
#[test]
fn a_given_label_names_everything_and_a_rerun_replaces_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let all = [&["run", "--suite", "pmb"][..], args, &["--quiet", "--out"]].concat();
        String::from_utf8(tenure_eval_ok(&all, &[dir.path()]).stdout).unwrap()
    };
    let junit = dir.path().join("junit.xml");
    let junit_arg = junit.display().to_string();
    let table = run(&["--label", "mine", "--min-score", "2", "--junit", &junit_arg]);
    assert!(table.contains("| mine "), "{table}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("\"retrieval-report-mine.json (mine)\""),
        "{xml}"
    );
    std::fs::remove_file(&junit).unwrap();
    run(&["--label", "mine", "--min-score", "2"]);
    run(&[]);
    let names = [
        "retrieval-report-mine.json",
        "retrieval-report-tenure.json",
        "session-retrieval-report-mine.json",
        "session-retrieval-report-tenure.json",
    ];
    assert_eq!(files(dir.path()), names);
    let m = manifest(dir.path(), names[0]);
    assert_eq!(
        (&m["runLabel"], &m["runLabelGiven"]),
        (&"mine".into(), &true.into())
    );
    assert_eq!(
        m["backendInfo"]["tag"], "min2",
        "the settings are still recorded"
    );
    let pmb = dir.path().join("pmb");
    let (a, b) = (pmb.join(names[1]), pmb.join(names[0]));
    let out = tenure_eval_ok(&["compare", "--format", "json"], &[&a, &b]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(run_names(&v["runsTable"]), ["bm25", "mine"]);
    // Figure 2's legend names each session run by its label.
    let svg = dir.path().join("drift.svg");
    let sessions = [pmb.join(names[3]), pmb.join(names[2])];
    let svg_arg = svg.display().to_string();
    let paths: Vec<&Path> = sessions.iter().map(|p| p.as_path()).collect();
    tenure_eval_ok(&[&["plot"][..], &["--out", &svg_arg]].concat(), &paths);
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(
        svg.contains("\nmine\n") && svg.contains("\nbm25\n"),
        "{svg}"
    );
}

/// Three backends over one model (composite, spreading, cosine) write three reports that
/// read as three names: in `compare`'s runs table and in Figure 2's legend (issue 31; they
/// all read `all-minilm-l6-v2` before).
#[test]
fn backends_over_one_model_are_three_names() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().display().to_string();
    tenure_eval_ok(
        &[
            "run",
            "--suite",
            "pmb",
            "--backend",
            "composite,spreading,cosine",
            "--quiet",
            "--out",
            &out,
        ],
        &[],
    );
    let pmb = dir.path().join("pmb");
    let statics = [
        "all-minilm-l6-v2-retrieval-report-composite.json",
        "all-minilm-l6-v2-retrieval-report-spreading.json",
        "all-minilm-l6-v2-retrieval-report-vector.json",
    ];
    let paths: Vec<std::path::PathBuf> = statics.iter().map(|f| pmb.join(f)).collect();
    let refs: Vec<&Path> = paths.iter().map(|p| p.as_path()).collect();
    let out = tenure_eval_ok(&["compare", "--format", "json"], &refs);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        run_names(&v),
        [
            "composite-all-minilm-l6-v2",
            "spreading-all-minilm-l6-v2",
            "all-minilm-l6-v2"
        ]
    );
    let svg = dir.path().join("drift.svg");
    let sessions: Vec<std::path::PathBuf> = statics
        .iter()
        .map(|f| pmb.join(f.replace("-retrieval", "-session-retrieval")))
        .collect();
    let mut args = vec![
        "plot".to_string(),
        "--out".into(),
        svg.display().to_string(),
    ];
    args.extend(sessions.iter().map(|p| p.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    tenure_eval_ok(&args, &[]);
    let svg = std::fs::read_to_string(&svg).unwrap();
    for name in [
        "composite-all-minilm-l6-v2",
        "spreading-all-minilm-l6-v2",
        "all-minilm-l6-v2",
    ] {
        assert_eq!(
            svg.matches(&format!("\n{name}\n")).count(),
            1,
            "{name} in {svg}"
        );
    }
}

/// A label that cannot name a file or be a TREC field, or one label for two backends: exit 2,
/// naming `--label`, nothing written.
#[test]
fn a_bad_label_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().display().to_string();
    for (label, backends, says) in [
        ("my run", "bm25", "whitespace"),
        ("a/b", "bm25", "path component"),
        ("mine", "bm25,cosine", "names one run"),
    ] {
        let out = tenure_eval(&[
            "static",
            "--suite",
            "pmb",
            "--backend",
            backends,
            "--label",
            label,
            "--out",
            &out_dir,
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{label}: {stderr}");
        assert!(
            stderr.contains("--label") && stderr.contains(says),
            "{stderr}"
        );
    }
    assert!(!dir.path().join("pmb").exists());
}

/// `--compat pmb` and the careful client against one memory system (`serve`): two files, two
/// labels, and the provider's name recorded beside the label.
#[test]
fn compat_and_careful_runs_of_one_system_keep_apart() {
    let (mut child, url) = spawn_serve(&["--suite", "pmb", "--quiet", "--port", "0"]);
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "--backend",
        "http",
        "--url",
        url.as_str(),
        "--name",
        "served",
    ];
    static_run(dir.path(), &base);
    static_run(dir.path(), &[&base[..], &["--compat", "pmb"]].concat());
    let _ = child.kill();
    let _ = child.wait();
    let expected = [
        ("retrieval-report-served-compat.json", "served-compat"),
        ("retrieval-report-served.json", "served"),
    ];
    for m in labelled(dir.path(), &expected) {
        assert_eq!(m["name"], "served", "--name is recorded beside the label");
    }
}
