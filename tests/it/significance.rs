//! `compare` of four runs (BM25, MiniLM cosine, RRF, fallback on the pmb static cases): every
//! pair's p-value checked against scipy on the same paired values, Holm's adjustment and the
//! superscripts recomputed from them, and the table's means from the reports' own blocks.

use crate::common::needs::{needs, Need};
use crate::common::rank_reference::RankReference;
use crate::common::{tenure_eval_into, tenure_eval_ok};
use serde_json::{json, Value};

fn read(path: &std::path::Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A run's value of `column` for `entry`, as the table defines it.
fn value(entry: &Value, column: &str) -> Option<f64> {
    match column {
        "precision" => entry["retrievalPrecision"].as_f64(),
        "passed" => Some(if entry["passed"] == true { 1.0 } else { 0.0 }),
        m => entry["rankMetrics"][m].as_f64(),
    }
}

#[test]
fn four_runs_compared_with_significance_that_scipy_confirms() {
    if !needs(&[Need::Python]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    tenure_eval_into(
        &[
            "static",
            "--suite",
            "pmb",
            "--backend",
            "bm25,cosine,rrf,fallback",
            "--model",
            "all-minilm-l6-v2",
        ],
        dir.path(),
    );
    let pmb = dir.path().join("pmb");
    let files = [
        "retrieval-report-tenure.json",
        "all-minilm-l6-v2-retrieval-report-vector.json",
        "all-minilm-l6-v2-retrieval-report-rrf.json",
        "all-minilm-l6-v2-retrieval-report-fallback.json",
    ]
    .map(|f| pmb.join(f));
    let paths: Vec<&str> = files.iter().map(|p| p.to_str().unwrap()).collect();
    let resamples = 20_000;
    let out = tenure_eval_ok(
        &[
            &["compare"][..],
            &paths,
            &["--format", "json", "--seed", "7", "--resamples", "20000"],
        ]
        .concat(),
        &[],
    );
    let table: Value = serde_json::from_slice(&out.stdout).unwrap();
    let reports: Vec<Value> = files.iter().map(|f| read(f)).collect();
    let entries: Vec<&Vec<Value>> = reports
        .iter()
        .map(|r| r["cases"].as_array().unwrap())
        .collect();
    assert_eq!(table["commonCases"], 77);
    let names: Vec<&str> = table["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["measure"].as_str().unwrap())
        .collect();
    // The default measures (the reports' blocks), then the suite's own precision and passes.
    assert_eq!(
        names,
        ["P@5", "R@5", "nDCG@10", "RR", "AP", "precision", "passed"]
    );
    let (mut exact_checked, mut binomial_checked, mut sampled_checked) = (0, 0, 0);
    let mut scipy = RankReference::start();
    for column in table["columns"].as_array().unwrap() {
        let name = column["measure"].as_str().unwrap();
        // Means: over each run's cases with a value.
        for (run, e) in entries.iter().enumerate() {
            let v: Vec<f64> = e.iter().filter_map(|x| value(x, name)).collect();
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            let got = column["means"][run].as_f64().unwrap();
            assert!(
                (got - mean).abs() < 1e-12,
                "{name} run {run}: {got} vs {mean}"
            );
        }
        let pairs = column["pairs"].as_array().unwrap();
        assert_eq!(pairs.len(), 6);
        let mut raw = Vec::new();
        for pair in pairs {
            let (a, b) = (letter(&pair["a"]), letter(&pair["b"]));
            let both: Vec<(f64, f64)> = (0..77)
                .filter_map(|i| Some((value(&entries[a][i], name)?, value(&entries[b][i], name)?)))
                .collect();
            assert_eq!(pair["cases"], both.len());
            let differing: Vec<(f64, f64)> = both.iter().copied().filter(|(x, y)| x != y).collect();
            let p = pair["test"]["p"].as_f64().unwrap();
            let one_size = differing.first().is_some_and(|f| {
                differing
                    .iter()
                    .all(|d| ((d.0 - d.1).abs() - (f.0 - f.1).abs()).abs() < 1e-12)
            });
            let reference = if differing.is_empty() {
                1.0
            } else if one_size {
                binomial_checked += 1;
                let plus = differing.iter().filter(|(x, y)| x > y).count();
                scipy.ask(&json!({"op": "binomial", "plus": plus, "n": differing.len()}))["p"]
                    .as_f64()
                    .unwrap()
            } else if pair["test"]["exact"] == true && differing.len() <= 20 {
                exact_checked += 1;
                scipy.ask(&json!({"op": "permutation", "pairs": differing}))["p"]
                    .as_f64()
                    .unwrap()
            } else {
                // Sampled (or exact beyond what scipy can enumerate): scipy's own sampled
                // answer, within 6 standard errors of the two samples.
                sampled_checked += 1;
                let theirs = scipy.ask(&json!({
                    "op": "permutation_sampled", "pairs": differing,
                    "resamples": resamples, "seed": 7
                }))["p"]
                    .as_f64()
                    .unwrap();
                let se = (theirs.max(1.0 / resamples as f64) / resamples as f64).sqrt();
                assert!(
                    (p - theirs).abs() <= 6.0 * se * 2f64.sqrt(),
                    "{name}: {p} vs scipy {theirs}"
                );
                p
            };
            assert!(
                (p - reference).abs() <= 1e-12,
                "{name} {pair}: {p} vs scipy {reference}"
            );
            raw.push(p);
        }
        // Holm, by its definition: the i-th smallest of k times (k − i), made monotone.
        let mut order: Vec<usize> = (0..raw.len()).collect();
        order.sort_by(|&i, &j| raw[i].total_cmp(&raw[j]).then(i.cmp(&j)));
        let mut running: f64 = 0.0;
        for (rank, &i) in order.iter().enumerate() {
            running = running.max((raw[i] * (raw.len() - rank) as f64).min(1.0));
            let got = pairs[i]["pAdjusted"].as_f64().unwrap();
            assert!(
                (got - running).abs() < 1e-15,
                "{name}: Holm {got} vs {running}"
            );
        }
        // Superscripts: the winner of each pair below α after adjustment.
        for (pair, adjusted) in pairs.iter().map(|p| (p, p["pAdjusted"].as_f64().unwrap())) {
            let (a, b) = (letter(&pair["a"]), letter(&pair["b"]));
            let diff = pair["meanDifference"].as_f64().unwrap();
            let lists = |run: usize, other: &Value| {
                column["beats"][run].as_array().unwrap().contains(other)
            };
            let significant = adjusted < 0.05 && diff != 0.0;
            assert_eq!(
                lists(a, &pair["b"]),
                significant && diff > 0.0,
                "{name} {pair}"
            );
            assert_eq!(
                lists(b, &pair["a"]),
                significant && diff < 0.0,
                "{name} {pair}"
            );
        }
    }
    assert!(exact_checked > 0 && binomial_checked > 0 && sampled_checked > 0);
    // What the table says: BM25 passes significantly more cases than every other run, and its
    // precision beats cosine's and RRF's.
    let passed = &table["columns"][6]["beats"][0];
    assert_eq!(passed, &json!(["b", "c", "d"]));
    assert_eq!(table["columns"][5]["beats"][0], json!(["b", "c"]));

    // The same comparison as LaTeX: a labelled float, booktabs rules, the best mean bold.
    let latex = tenure_eval_ok(
        &[&["compare"][..], &paths, &["--format", "latex"]].concat(),
        &[],
    );
    let latex = String::from_utf8(latex.stdout).unwrap();
    for needle in [
        "\\toprule",
        "\\midrule",
        "\\bottomrule",
        // The runs beaten in parentheses at text size (a superscript would print under 8 pt).
        "\\textbf{77/77}~(bcd)",
        "\\label{tab:compare}",
    ] {
        assert!(latex.contains(needle), "{needle}\n{latex}");
    }
}

fn letter(v: &Value) -> usize {
    usize::from(v.as_str().unwrap().as_bytes()[0] - b'a')
}
