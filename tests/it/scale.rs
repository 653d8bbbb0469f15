//! `tenure-eval scale`: a store of the suite's size is the suite (77/77, precision 1, nothing
//! generated to search); grown stores are generated deterministically (same seed, same
//! outcomes) and searched; a smaller size is refused.

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
    // No generated belief to search: no query, and no latency (never a 0 µs measured).
    assert_eq!(a[0]["queries"], 0);
    assert!(a[0]["searchP50Us"].is_null() && a[0]["searchP95Us"].is_null());
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
    // 1000 = 12 rounds of 77 and 76 more: said, as the pass rate weights those 76 more.
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "warning: --case-count 1000 is not a multiple of pmb's 77 static cases: the first 76 \
             run 13 times and the others 12"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The store is the suite, so every case passes.
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
    // Fewer than the suite's cases ran the first ones alone, reported as the suite's
    // precision (10/10 where the whole suite fails 3): refused.
    let o = crate::common::cli(&[
        "scale",
        "--suite",
        "pmb",
        "--sizes",
        "1k",
        "--case-count",
        "10",
    ])
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--case-count 10 is fewer than pmb's 77 static cases"),
        "{stderr}"
    );
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
    // Two sizes, a point each on four lines (p50, p95, build, precision), but for the search
    // latency of the suite alone (35 beliefs, none generated to search: no query, no point).
    assert_eq!(text.matches("<circle").count(), 6);
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
    // A row of another size than its place deals it merged as that place's size (two rows of
    // 1,000 beliefs and none of 35): refused, naming the file and the row.
    std::fs::write(
        &file,
        text.replacen("\"beliefs\": 35", "\"beliefs\": 1000", 1),
    )
    .unwrap();
    refused(
        &[&one, &two],
        "scale-shard.json: $.rows[0].beliefs: 1000; expected 35",
    );
}

/// What an audit found measured wrongly with exit 0: a size below the suite's run at the
/// suite's size, `--queries 0` printing a search latency of 0 µs, and the vector study's
/// recall@10 divided by 10 in a store of fewer vectors (0.5 for 5 of 5 found).
#[test]
fn sizes_and_counts_that_measure_nothing_are_refused_and_small_stores_measured_as_they_are() {
    for (args, says) in [
        (
            &["scale", "--suite", "pmb", "--sizes", "10"][..],
            "--sizes 10: a size is the store's whole size",
        ),
        (
            &["scale", "--suite", "pmb", "--sizes", "1k", "--queries", "0"],
            "--queries",
        ),
    ] {
        let out = crate::common::tenure_eval(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let cache = tempfile::tempdir().unwrap();
    let out = tenure_eval_ok(
        &[
            "scale",
            "--vectors",
            "--sizes",
            "5,20",
            "--format",
            "json",
            "--quiet",
            "--index-cache",
        ],
        &[cache.path()],
    );
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rows[0]["vectors"], 5);
    // Exact search of 5 vectors returns all 5; the graph finds them all.
    assert_eq!(rows[0]["recallAt10"], 1.0, "{}", rows[0]);
    assert!(rows[1]["recallAt10"].as_f64().unwrap() > 0.9, "{}", rows[1]);
}
