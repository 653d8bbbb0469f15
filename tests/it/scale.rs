//! `tenure-eval scale`: a store no larger than the suite is the suite (77/77, precision 1);
//! grown stores are generated deterministically (same seed, same outcomes) and searched.

use crate::common::tenure_eval_ok;
use serde_json::Value;

fn rows(sizes: &str, seed: &str) -> Vec<Value> {
    let out = tenure_eval_ok(
        &[
            "scale",
            "--suite",
            "pmb",
            "--sizes",
            sizes,
            "--seed",
            seed,
            "--queries",
            "50",
            "--format",
            "json",
            "--quiet",
        ],
        &[],
    );
    serde_json::from_slice::<Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// The fields that are not measurements.
fn outcome(row: &Value) -> Value {
    let mut row = row.clone();
    for key in [
        "buildMs",
        "searchP50Us",
        "searchP95Us",
        "caseP50Ms",
        "peakRssMib",
    ] {
        assert!(row.as_object_mut().unwrap().remove(key).is_some(), "{key}");
    }
    row
}

#[test]
fn the_suite_alone_reproduces_bm25_and_grown_stores_are_deterministic() {
    let a = rows("35,3k", "7");
    assert_eq!(a.len(), 2);
    // 35 beliefs: the pmb corpus itself, nothing generated.
    assert_eq!(a[0]["beliefs"], 35);
    assert_eq!(
        (a[0]["passed"].as_u64(), a[0]["cases"].as_u64()),
        (Some(77), Some(77))
    );
    assert_eq!(a[0]["precision"], 1.0);
    assert_eq!(a[1]["beliefs"], 3000);
    assert_eq!(a[1]["queries"], 50);
    assert_eq!(a[1]["recall"], 1.0);
    if cfg!(target_os = "linux") {
        assert!(a[1]["peakRssMib"].as_f64().unwrap() > 1.0);
    }
    // Same seed, same store, same outcome; another seed, another store.
    let b = rows("3k", "7");
    assert_eq!(outcome(&a[1]), outcome(&b[0]));
    let c = rows("3k", "8");
    assert_eq!(c[0]["beliefs"], 3000);
    assert!(c[0]["passed"].as_u64().unwrap() <= 77);
}

#[test]
fn a_long_run_repeats_the_cases_under_fresh_ids_into_a_streamed_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = tenure_eval_ok(
        &[
            "scale",
            "--suite",
            "pmb",
            "--sizes",
            "35",
            "--case-count",
            "1000",
            "--format",
            "json",
            "--quiet",
            "--out",
            dir.path().to_str().unwrap(),
        ],
        &[],
    );
    let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
    // 1000 = 12 rounds of 77 and 76 more; the store is the suite, so every case passes.
    assert_eq!(rows[0]["cases"], 1000);
    assert_eq!(rows[0]["passed"], 1000);
    let report: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("scale-35.json")).unwrap()).unwrap();
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 1000);
    let mut ids: Vec<&str> = cases
        .iter()
        .map(|c| c["caseId"].as_str().unwrap())
        .collect();
    assert_eq!(ids[77], format!("{}~1", ids[0]));
    assert_eq!(ids[999], format!("{}~12", ids[75]));
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 1000);
    // Each repeat is judged as its original: the same rank metrics, round after round.
    assert_eq!(cases[3]["rankMetrics"], cases[3 + 77 * 5]["rankMetrics"]);
    assert_eq!(report["retrieval"]["totalCases"], 1000);
    assert!(
        report["retrieval"]["rankMetrics"]["queries"]
            .as_u64()
            .unwrap()
            > 0
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// A small study (`scale --suite pmb` at 35 and 2,000 beliefs, 20 queries, quietly) with
/// `more` arguments: what the figure tests run.
pub fn small_scale(more: &[&str]) {
    let mut args = vec![
        "scale",
        "--suite",
        "pmb",
        "--sizes",
        "35,2k",
        "--queries",
        "20",
        "--quiet",
    ];
    args.extend_from_slice(more);
    tenure_eval_ok(&args, &[]);
}

#[test]
fn the_study_draws_its_figure() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("figs/scale.svg");
    small_scale(&["--plot", svg.to_str().unwrap()]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..80.min(text.len())]);
    // Two sizes, a point each on four lines (p50, p95, build, precision).
    assert_eq!(text.matches("<circle").count(), 8);
    for label in ["p50", "p95", "build", "precision"] {
        assert!(text.lines().any(|l| l.trim() == label), "{label}");
    }
    assert!(text.contains("Suite pmb planted in synthetic stores"));
    // Store sizes on a log axis, in decades, written short.
    for tick in ["10", "100", "1k", "10k"] {
        assert!(text.lines().any(|l| l.trim() == tick), "{tick}");
    }
}

/// `scale --shard K/N`: sizes dealt by position; `merge` of the shards' --out folders gives the
/// unsharded study's rows in --sizes order (measured fields aside); mixed settings, a missing shard and a shard twice are refused (exit 2).
#[test]
fn a_scale_study_in_shards_merges_into_the_whole_study() {
    let tmp = tempfile::tempdir().unwrap();
    let base = [
        "scale",
        "--suite",
        "pmb",
        "--sizes",
        "1k,35,2k",
        "--seed",
        "7",
        "--queries",
        "50",
        "--format",
        "json",
        "--quiet",
    ];
    let whole = rows("1k,35,2k", "7");
    let shard = |k: &str, extra: &[&str]| -> std::path::PathBuf {
        let dir = tmp
            .path()
            .join(format!("{k}{}", extra.join("")).replace('/', "of"));
        let dir_text = dir.to_str().unwrap().to_string();
        let mut args: Vec<&str> = base.to_vec();
        args.extend(extra);
        args.extend(["--shard", k, "--out", &dir_text]);
        let out = tenure_eval_ok(&args, &[]);
        let printed: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
        // Shard 1 of 2 measures the sizes at positions 0 and 2; shard 2, position 1.
        let beliefs: Vec<u64> = printed
            .iter()
            .map(|r| r["beliefs"].as_u64().unwrap())
            .collect();
        match k {
            "1/2" => assert_eq!(beliefs, [1000, 2000]),
            _ => assert_eq!(beliefs, [35]),
        }
        assert!(dir.join("scale-shard.json").is_file());
        dir
    };
    let (one, two) = (shard("1/2", &[]), shard("2/2", &[]));
    let merge = |dirs: &[&std::path::Path]| {
        let mut args = vec!["merge"];
        args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
        crate::common::tenure_eval(&args)
    };
    let merged = merge(&[&two, &one]);
    assert!(
        merged.status.success(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    let merged: Vec<Value> = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(merged.len(), 3);
    let outcomes = |rows: &[Value]| rows.iter().map(outcome).collect::<Vec<_>>();
    assert_eq!(outcomes(&merged), outcomes(&whole));

    let refused = |dirs: &[&std::path::Path], says: &str| {
        let out = merge(dirs);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
    };
    refused(&[&one], "shard 2/2 missing");
    refused(&[&one, &two, &one], "shard 1/2 given twice");
    let other_seed = {
        let dir = tmp.path().join("seed8");
        let dir_text = dir.to_str().unwrap().to_string();
        let mut args: Vec<&str> = base.to_vec();
        args[6] = "8";
        args.extend(["--shard", "2/2", "--out", &dir_text]);
        tenure_eval_ok(&args, &[]);
        dir
    };
    refused(&[&one, &other_seed], "seed: 7 against 8");
    // A row that is not the study's names its file and JSON path.
    let file = two.join("scale-shard.json");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replacen("\"segments\": 1", "\"segments\": \"one\"", 1),
    )
    .unwrap();
    refused(&[&one, &two], "scale-shard.json: $.rows[0].segments");
}
