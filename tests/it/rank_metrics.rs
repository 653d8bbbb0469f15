//! Rank-aware metrics agree with ir_measures (pytrec_eval, i.e. trec_eval's code) on the TREC
//! files `tenure-eval trec` exports: every case of both suites, static and session, for BM25
//! and MiniLM cosine runs, every measure to 1e-9; the published reports of other systems too
//! (empty answers, no scores); and a run whose ties trec_eval would reorder if the export let it.

use crate::common::needs::{needs, Need};
use crate::common::rank_reference::rank_reference;
use crate::common::{repo, tenure_eval_into, tenure_eval_ok};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use tenure_eval::eval::qrels::{case_scores, Qrels};
use tenure_eval::eval::rank::parse_measures;
use tenure_eval::report::rank_block::entry_ranking;

const MEASURES: &str = "P@1,P@5,P@10,R@1,R@5,R@10,nDCG,nDCG@3,nDCG@10,RR,RR@3,AP,AP@5";

fn entries(report: &Value) -> Vec<Value> {
    report
        .get("cases")
        .unwrap_or(report)
        .as_array()
        .unwrap()
        .clone()
}

fn qid(entry: &Value) -> String {
    let case = entry["caseId"].as_str().unwrap();
    match entry.get("turnIndex").and_then(Value::as_i64) {
        Some(t) => format!("{case}:{t}"),
        None => case.to_string(),
    }
}

/// Export `report` to TREC files in `dir`; ir_measures' per-query values on them.
fn tool_values(report: &Path, suite: &str, dir: &Path) -> Value {
    tenure_eval_ok(
        &["trec", report.to_str().unwrap(), "--suite", suite, "--out"],
        &[dir],
    );
    let stem = report.file_stem().unwrap().to_string_lossy().into_owned();
    let run = dir.join(format!("{stem}.run"));
    let qrels = dir.join(format!("{stem}.qrels"));
    let measures: Vec<&str> = MEASURES.split(',').collect();
    rank_reference(&json!({"op": "measures", "run": run, "qrels": qrels, "measures": measures}))
        ["values"]
        .clone()
}

/// What was compared: (values equal to the tool's, queries without gold).
#[derive(Debug, Default, PartialEq)]
struct Tally {
    compared: usize,
    scored_by_tool_when_empty: usize,
    no_gold: usize,
    empty_answers: usize,
}

/// Each entry's values (`ours(entry)`) against the tool's, by the export's rules: a query the
/// tool scored matches to 1e-9; a query it did not score either has no gold (ours null) or
/// returned nothing (ours 0, what trec_eval -c gives).
fn check(ours: impl Fn(&Value) -> Vec<Option<f64>>, report: &Value, tool: &Value) -> Tally {
    let names: Vec<&str> = MEASURES.split(',').collect();
    let mut tally = Tally::default();
    for entry in entries(report) {
        let q = qid(&entry);
        let values = ours(&entry);
        match tool.get(&q) {
            Some(theirs) => {
                if entry_ranking(&entry).is_empty() {
                    tally.empty_answers += 1;
                    tally.scored_by_tool_when_empty += 1;
                }
                for (name, v) in names.iter().zip(&values) {
                    let t = theirs[name].as_f64().unwrap();
                    let v = v.unwrap_or_else(|| panic!("{q} {name}: null, the tool says {t}"));
                    assert!(
                        (v - t).abs() <= 1e-9,
                        "{q} {name}: ours {v}, ir_measures {t}"
                    );
                    tally.compared += 1;
                }
            }
            None if values.iter().all(Option::is_none) => tally.no_gold += 1,
            None => {
                assert!(
                    entry_ranking(&entry).is_empty(),
                    "{q}: not scored by the tool"
                );
                assert!(values.iter().all(|v| *v == Some(0.0)), "{q}: {values:?}");
                tally.empty_answers += 1;
            }
        }
    }
    tally
}

/// The values a report carries in its `rankMetrics` blocks, in MEASURES order.
fn from_block(entry: &Value) -> Vec<Option<f64>> {
    MEASURES
        .split(',')
        .map(|m| entry["rankMetrics"][m].as_f64())
        .collect()
}

fn report_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".json") && !name.ends_with(".manifest.json")
        })
        .collect();
    files.sort();
    files
}

#[test]
fn our_rank_metrics_equal_ir_measures_on_every_case_of_both_suites() {
    if !needs(&[Need::Python]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (suite, gold_static, gold_turns) in [("pmb", 43, 11), ("paper", 33, 10)] {
        tenure_eval_into(
            &[
                "run",
                "--suite",
                suite,
                "--backend",
                "bm25,cosine",
                "--model",
                "all-minilm-l6-v2",
                "--metrics",
                MEASURES,
            ],
            dir.path(),
        );
        let files = report_files(&dir.path().join(suite));
        assert_eq!(files.len(), 4, "{files:?}");
        for file in files {
            let report: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
            let trec = tempfile::tempdir().unwrap();
            let tool = tool_values(&file, suite, trec.path());
            let tally = check(from_block, &report, &tool);
            let session = entries(&report)[0].get("turnIndex").is_some();
            let gold = if session { gold_turns } else { gold_static };
            assert_eq!(tally.compared, gold * 13, "{}: {tally:?}", file.display());
            assert_eq!(tally.compared / 13 + tally.no_gold, entries(&report).len());
            // The summary's means are the means over the queries with gold.
            if let Some(summary) = report.get("retrieval") {
                assert_eq!(summary["rankMetrics"]["queries"], gold);
                let col: Vec<f64> = entries(&report)
                    .iter()
                    .filter_map(|e| e["rankMetrics"]["nDCG@10"].as_f64())
                    .collect();
                let mean = col.iter().sum::<f64>() / col.len() as f64;
                assert_eq!(summary["rankMetrics"]["means"]["nDCG@10"], mean);
            }
        }
    }
}

#[test]
fn published_reports_of_other_systems_agree_with_ir_measures() {
    if !needs(&[Need::Python]) {
        return;
    }
    let suite = crate::common::builtin("pmb");
    let qrels = Qrels::of(&suite);
    let measures = parse_measures(MEASURES).unwrap();
    let mut empty_answers = 0;
    let (mut skipped_by_tool, mut compared) = (0, 0);
    for name in [
        "a-mem",
        "agentmemory",
        "atomicmemory",
        "cognee",
        "gbrain",
        "hindsight",
        "mem0",
        "open-knowledge-format",
        "supermemory",
        "vector",
        "yourmemory",
        "zep",
    ] {
        for kind in ["retrieval", "session-retrieval"] {
            let path = repo(&format!(
                "tests/golden/pmb-baseline/{kind}-report-{name}.json"
            ));
            let report: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let trec = tempfile::tempdir().unwrap();
            let tool = tool_values(&path, "pmb", trec.path());
            let ours = |entry: &Value| {
                let turn = entry.get("turnIndex").and_then(Value::as_i64);
                let j = qrels.get(entry["caseId"].as_str().unwrap(), turn).unwrap();
                case_scores(&measures, &entry_ranking(entry), j)
            };
            let tally = check(ours, &report, &tool);
            assert!(tally.compared > 0, "{name} {kind}");
            empty_answers += tally.empty_answers;
            skipped_by_tool += tally.empty_answers - tally.scored_by_tool_when_empty;
            compared += tally.compared;
        }
    }
    // Queries with gold that a system answered with nothing (gbrain 34 + 11, cognee 3,
    // open-knowledge-format 3 + 5, yourmemory 4): 0 on every measure in ours.
    // ir_measures scores them 0 too (it reads every query of the qrels, as trec_eval -c does):
    // none is skipped, so its means are ours.
    assert_eq!((empty_answers, skipped_by_tool, compared), (60, 0, 8424));
}

#[test]
fn ties_are_exported_in_our_order_and_the_tool_keeps_it() {
    if !needs(&[Need::Python]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    tenure_eval_into(
        &["static", "--suite", "pmb", "--metrics", MEASURES],
        dir.path(),
    );
    let path = dir.path().join("pmb/retrieval-report-tenure.json");
    let mut report: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    // A case whose answer is made a three-way tie, in ascending id order (trec_eval breaks
    // ties by descending id): only the last is gold, so RR is 1/3 in our order and 1 in theirs.
    let entry = report["cases"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e["caseId"] == "happy-alias-match-kubernetes")
        .unwrap();
    entry["relevantBeliefs"] = json!(["b-a-first", "b-b-second", "b-kubernetes-entity"]);
    entry["searchScores"] = json!([
        {"id": "b-a-first", "score": 5.0, "exactScore": 5.0},
        {"id": "b-b-second", "score": 5.0, "exactScore": 5.0},
        {"id": "b-kubernetes-entity", "score": 5.0, "exactScore": 5.0}
    ]);
    std::fs::write(&path, serde_json::to_vec(&report).unwrap()).unwrap();
    let tool = tool_values(&path, "pmb", dir.path());
    let rr = tool["happy-alias-match-kubernetes"]["RR"].as_f64().unwrap();
    assert_eq!(rr, 1.0 / 3.0);
    let run = std::fs::read_to_string(dir.path().join("retrieval-report-tenure.run")).unwrap();
    assert!(run.contains(
        "happy-alias-match-kubernetes Q0 b-a-first 1 5 bm25\n\
         happy-alias-match-kubernetes Q0 b-b-second 2 4.9999995 bm25\n\
         happy-alias-match-kubernetes Q0 b-kubernetes-entity 3 4.999999 bm25\n"
    ));
}
