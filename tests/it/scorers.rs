//! The context scorers through the binary: every hit's `score` is recomputed from the
//! `signals` the report writes (product of the multiplicative signals that are on, plus the
//! boosts that are on), its tier from the manifest's thresholds, and the reports pass
//! `verify`. Composite and spreading contexts hold only Verbatim and Compressed beliefs.

use crate::common::{tenure_eval_into, tenure_eval_ok};
use serde_json::Value;
use std::path::Path;

const MULTIPLIED: [&str; 4] = ["recency", "relevance", "confidence", "currency"];
const ADDED: [&str; 4] = ["primacy", "revisitation", "temporalValidity", "spread"];

/// Check every signals-bearing hit of the report at `path`; return how many were checked.
fn recompute(path: &Path) -> usize {
    let report: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let settings = &report["manifest"]["backendSettings"];
    let thresholds = settings["params"]["thresholds"]
        .as_object()
        .or(settings["thresholds"].as_object())
        .cloned();
    let bitemporal = settings["params"]["bitemporal"].as_bool() == Some(true);
    let mut checked = 0;
    for entry in report["cases"].as_array().unwrap() {
        for hit in entry["searchScores"].as_array().unwrap() {
            let Some(s) = hit.get("signals") else {
                // A relation expansion: no search score.
                assert_eq!(hit["score"], 0.0, "{}: {hit}", path.display());
                continue;
            };
            let on = |k: &str| s[k].as_f64();
            let product: f64 = MULTIPLIED.iter().filter_map(|k| on(k)).product();
            let boosts: f64 = ADDED.iter().filter_map(|k| on(k)).sum();
            let score = s["score"].as_f64().unwrap();
            assert!(
                (s["product"].as_f64().unwrap() - product).abs() < 1e-12,
                "{hit}"
            );
            assert!((product + boosts - score).abs() < 1e-12, "{hit}");
            // The ranked float32, written as its shortest decimal, is the score's.
            let exact = hit["exactScore"].as_f64().unwrap();
            let shortest: f64 = format!("{}", score as f32).parse().unwrap();
            assert_eq!(exact, shortest, "{hit}");
            assert!(
                (hit["score"].as_f64().unwrap() - exact).abs() <= 0.0005,
                "{hit}"
            );
            assert_eq!(s["temporalValidity"].is_null(), !bitemporal, "{hit}");
            if let Some(t) = &thresholds {
                let tier = s["tier"].as_str().unwrap();
                let at = |k: &str| t[k].as_f64().unwrap();
                let expected = if score >= at("verbatim") {
                    "verbatim"
                } else if score >= at("compressed") {
                    "compressed"
                } else if score >= at("archived") {
                    "archived"
                } else {
                    "forgotten"
                };
                // In the context: Verbatim or Compressed only (a forward-open belief's floor
                // lifts Forgotten to Archived, which is still out).
                assert_eq!(tier, expected, "{hit}");
                assert!(matches!(tier, "verbatim" | "compressed"), "{hit}");
            } else {
                assert!(s["tier"].is_null());
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_hits_score_is_recomputed_from_its_signals() {
    let dir = tempfile::tempdir().unwrap();
    for extra in [&[][..], &["--bitemporal"][..]] {
        let args = [
            &[
                "run",
                "--suite",
                "pmb",
                "--backend",
                "composite,spreading,recent",
            ][..],
            extra,
        ]
        .concat();
        tenure_eval_into(&args, dir.path());
    }
    let mut counts = Vec::new();
    let mut reports: Vec<_> = std::fs::read_dir(dir.path().join("pmb"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with(".manifest.json"))
        .collect();
    reports.sort();
    for path in &reports {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        counts.push((name, recompute(path)));
        let out = tenure_eval_ok(&["verify"], &[path]);
        assert!(String::from_utf8_lossy(&out.stdout).contains("verified"));
    }
    let names: Vec<&str> = counts.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "all-minilm-l6-v2-retrieval-report-composite.json",
            "all-minilm-l6-v2-retrieval-report-spreading.json",
            "all-minilm-l6-v2-session-retrieval-report-composite.json",
            "all-minilm-l6-v2-session-retrieval-report-spreading.json",
            "all-minilm-l6-v2.bitemporal-retrieval-report-composite.json",
            "all-minilm-l6-v2.bitemporal-session-retrieval-report-composite.json",
            "retrieval-report-recent.json",
            "session-retrieval-report-recent.json",
        ]
    );
    // Static reports have hits to check in every backend.
    for (name, n) in &counts {
        if !name.contains("session") {
            assert!(*n > 0, "{name}: no hit with signals");
        }
    }
}
