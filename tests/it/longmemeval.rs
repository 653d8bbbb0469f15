//! LongMemEval as a suite (`--suite longmemeval --data FILE`, docs/longmemeval.md). Its data is
//! hosted where these machines cannot reach, so the importer is tested on
//! `tests/data/longmemeval-sample.json`, a small file written for this project in its README's
//! documented format: three scored questions (single-session-user, multi-session,
//! knowledge-update), one abstention question, and an answer session with no marked user turn.
//! The metrics are checked against values worked by hand from src/retrieval/eval_utils.py.

use crate::common::{repo, tenure_eval, tenure_eval_ok};
use serde_json::Value;
use std::path::Path;

fn sample() -> std::path::PathBuf {
    repo("tests/data/longmemeval-sample.json")
}

/// `run --unit UNIT --backend bm25-text` into `dir`; the report.
fn run(dir: &Path, unit: &str) -> Value {
    let data = sample();
    tenure_eval_ok(
        &[
            "run",
            "--suite",
            "longmemeval",
            "--unit",
            unit,
            "--backend",
            "bm25-text",
            "--quiet",
        ],
        &[Path::new("--data"), &data, Path::new("--out"), dir],
    );
    let suite = if unit == "turns" {
        "longmemeval"
    } else {
        "longmemeval-sessions"
    };
    let file = dir.join(suite).join("retrieval-report-bm25-text.json");
    serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap()
}

fn rankings(report: &Value) -> Vec<(String, Vec<String>)> {
    (report["cases"].as_array().unwrap().iter())
        .map(|c| {
            let ids = c["relevantBeliefs"].as_array().unwrap();
            let ids = ids
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            (c["caseId"].as_str().unwrap().to_string(), ids)
        })
        .collect()
}

/// The `all` cell of `level` in `longmemeval --format json` of `report`'s folder.
fn cell(dir: &Path, suite: &str, level: &str, group: &str) -> Value {
    let data = sample();
    let report = dir.join(suite).join("retrieval-report-bm25-text.json");
    let out = tenure_eval_ok(
        &["longmemeval", "--format", "json", "--data"],
        &[&data, &report],
    );
    let runs: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cells = runs[0]["cells"].as_array().unwrap();
    cells
        .iter()
        .find(|c| c["level"] == level && c["group"] == group)
        .unwrap()
        .clone()
}

fn at(c: &Value, measure: &str, k: usize) -> f64 {
    let d = [1, 3, 5, 10, 30, 50].iter().position(|x| *x == k).unwrap();
    c[measure][d].as_f64().unwrap()
}

#[test]
fn the_importer_follows_longmemevals_retrieval_code() {
    let data = sample();
    let out = tenure_eval_ok(
        &[
            "validate",
            "--suite",
            "longmemeval",
            "--unit",
            "sessions",
            "--data",
        ],
        &[&data],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // 10 sessions in the haystacks; 3 cases; the abstention question excluded; the answer
    // session without a marked user turn said and not gold.
    assert!(
        text.contains("longmemeval-sessions: ok (head profile) — 10 beliefs, 3 static cases"),
        "{text}"
    );
    assert!(text.contains("  q3_abs: abstention question"), "{text}");
    assert!(
        text.contains("  q4: \"answer_q4_old\" answer session without a marked user turn"),
        "{text}"
    );
    // Turns: only the user's turns are items, numbered among all the session's turns.
    let out = tenure_eval_ok(&["validate", "--suite", "longmemeval", "--data"], &[&data]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("— 11 beliefs, 3 static cases"));
    let dir = tempfile::tempdir().unwrap();
    let report = run(dir.path(), "turns");
    let q1 = &rankings(&report)[0];
    assert_eq!(q1.0, "q1");
    assert!(
        q1.1.iter().all(|id| id.starts_with("q1/")),
        "each question its own haystack"
    );
    assert!(
        q1.1.contains(&"q1/answer_q1_1_1".to_string()) && !q1.1.iter().any(|id| id.ends_with("_2"))
    );
    let gold = report["cases"][0]["failures"]
        .as_array()
        .unwrap()
        .is_empty();
    assert!(
        gold,
        "q1's gold turn answer_q1_1_1 is retrieved in its top 10"
    );
    // A damaged file names its JSON path.
    let bad = dir.path().join("bad.json");
    let mut v: Value = serde_json::from_slice(&std::fs::read(&data).unwrap()).unwrap();
    v[1]["haystack_dates"].as_array_mut().unwrap().pop();
    std::fs::write(&bad, serde_json::to_vec(&v).unwrap()).unwrap();
    let out = tenure_eval(&[
        "validate",
        "--suite",
        "longmemeval",
        "--data",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("$[1].haystack_dates: 2 entries; expected one per haystack session id (3)"));
}

#[test]
fn its_metrics_are_eval_utils_definitions() {
    let dir = tempfile::tempdir().unwrap();
    let report = run(dir.path(), "sessions");
    // The rankings the values below are worked from.
    let ids = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        rankings(&report),
        [
            ("q1".into(), ids(&["q1/sharegpt_q1_2", "q1/answer_q1_1"])),
            (
                "q2".into(),
                ids(&["q2/answer_q2_a", "q2/answer_q2_b", "q2/sharegpt_q2_c"])
            ),
            (
                "q4".into(),
                ids(&["q4/answer_q4_new", "q4/answer_q4_old", "q4/sharegpt_q4_c"])
            ),
        ]
    );
    let all = cell(dir.path(), "longmemeval-sessions", "session", "all");
    // k = 1: q1 misses (its distractor is first), q2 finds one of two, q4 finds its one.
    assert_eq!(at(&all, "recallAny", 1), 2.0 / 3.0);
    assert_eq!(at(&all, "recallAll", 1), 1.0 / 3.0);
    assert_eq!(at(&all, "ndcgAny", 1), 2.0 / 3.0);
    // k = 3: eval_utils' dcg does not discount the second rank (log2 2 = 1), so q1's gold in
    // second place scores 1, as q2's two gold sessions in the first two places do.
    assert_eq!(at(&all, "recallAll", 3), 1.0);
    assert_eq!(at(&all, "ndcgAny", 3), 1.0);
    // Turns, read at session level (evaluate_retrieval_turn2session): q1's answer session has two
    // user turns, so its ideal DCG at k = 5 is dcg(1, 1) = 2 and the ranking's is dcg(0, 1) = 1.
    run(dir.path(), "turns");
    let q1 = cell(dir.path(), "longmemeval", "session", "single-session-user");
    assert_eq!(at(&q1, "ndcgAny", 5), 0.5);
    let q1_turns = cell(dir.path(), "longmemeval", "turn", "single-session-user");
    assert_eq!(at(&q1_turns, "ndcgAny", 5), 1.0);
    assert_eq!(at(&q1_turns, "recallAll", 1), 0.0);
}
