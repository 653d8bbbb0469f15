//! LoCoMo-Plus (`--suite locomo-plus`, docs/locomo-plus.md) and the Temporal Memory Dataset
//! (`--suite temporal-memory`, docs/temporal-memory.md): each loader on small files written
//! here in the benchmark's format (the splice's placement by time gap, the seeded choice, the
//! dataset's paraphrase shapes, a repeated paraphrase, an id of no response, a weekday that is
//! not the date's), and on the released files when the data folder holds them: every question
//! scored or excluded, none retrieving another user's item.

use crate::common::needs::{data_file, locomo_file, needs, Need};
use crate::common::{tenure_eval, tenure_eval_ok};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use tenure_eval::suite::locomo_plus::LocomoPlusSource;
use tenure_eval::suite::temporal_memory::TemporalMemorySource;
use tenure_eval::suite::{Suite, SuiteSource};

fn write(path: &Path, value: &Value) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(value).unwrap()).unwrap();
    path.to_path_buf()
}

/// A LoCoMo file of two conversations, sessions on 1 March and 1 May 2023.
fn small_locomo(dir: &Path) -> PathBuf {
    let conversation = |a: &str, b: &str| {
        json!({
            "speaker_a": a, "speaker_b": b,
            "session_1_date_time": "1:00 pm on 1 March, 2023",
            "session_1": [{"speaker": a, "dia_id": "D1:1", "text": "I started pottery classes."},
                          {"speaker": b, "dia_id": "D1:2", "text": "How fun!"}],
            "session_2_date_time": "1:00 pm on 1 May, 2023",
            "session_2": [{"speaker": a, "dia_id": "D2:1", "text": "My garden is blooming."}],
        })
    };
    write(
        &dir.join("locomo10.json"),
        &json!([
            {"sample_id": "conv-1", "conversation": conversation("Ann", "Bob"), "qa": []},
            {"sample_id": "conv-2", "conversation": conversation("Cat", "Dan"), "qa": []},
        ]),
    )
}

fn plus_item(cue: &str, gap: &str) -> Value {
    json!({"relation_type": "causal", "cue_dialogue": cue,
           "trigger_query": "A: I am so tired of late nights lately.", "time_gap": gap,
           "model_name": "x", "scores": {}, "ranks": {}, "final_similarity_score": 0.5})
}

fn load_plus(data: &Path, locomo: &Path, seed: u64) -> Suite {
    Suite::load(&SuiteSource::LocomoPlus(LocomoPlusSource {
        data: data.to_path_buf(),
        locomo: locomo.to_path_buf(),
        seed,
    }))
    .unwrap()
}

#[test]
fn a_cue_is_spliced_where_its_time_gap_puts_it_and_the_trigger_asks_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let locomo = small_locomo(dir.path());
    let data = write(
        &dir.path().join("locomo_plus.json"),
        &json!([
            // The trigger is asked on 8 May; two months (60 days) before is 9 March: after
            // session 1 (1 March), before session 2 (1 May).
            plus_item(
                "A: I took a night shift at work.\nB: That sounds hard.",
                "two months later"
            ),
            // No number of days: just before the trigger, after every session; a literal \n.
            plus_item("A: I adopted a puppy.\\nB: Cute!", "several months later"),
            // B on A's line.
            plus_item("A: I sold my car. B: Bold move.", "a year later"),
        ]),
    );
    let suite = load_plus(&data, &locomo, 7);
    let ids = |user: &str| -> Vec<String> {
        (suite.corpus.iter())
            .filter(|b| b.user_id == user)
            .map(|b| b.id.split_once('/').unwrap().1.to_string())
            .collect()
    };
    assert_eq!(ids("plus-0"), ["D1:1", "D1:2", "C1", "C2", "D2:1"]);
    assert_eq!(ids("plus-1"), ["D1:1", "D1:2", "D2:1", "C1", "C2"]);
    let cue = suite.corpus.iter().find(|b| b.id == "plus-0/C1").unwrap();
    // 2023-05-08T13:00Z (last session + 7 days) − 60 days = 2023-03-09T13:00Z.
    assert_eq!(cue.created_at, Some(1_678_366_800_000));
    assert!(cue
        .canonical_name
        .ends_with(" said, \"I took a night shift at work.\""));
    let case = &suite.cases[0];
    assert_eq!(case.case_id, "plus-0/trigger");
    assert_eq!(case.query, "I am so tired of late nights lately.");
    assert_eq!(case.category.as_deref(), Some("causal"));
    let gold = &case.expect.relevant_beliefs.as_ref().unwrap().must_include;
    assert_eq!(gold, &["plus-0/C1", "plus-0/C2"]);
    let outcomes: Vec<&str> = suite.anomalies.iter().map(|a| a.outcome.as_str()).collect();
    assert_eq!(outcomes.len(), 3, "{outcomes:?}");
    assert!(outcomes[0].starts_with("names no number") && outcomes[1].starts_with("a literal"));
    assert!(outcomes[2].starts_with("A and B on one line"));
    let b_line = suite.corpus.iter().find(|b| b.id == "plus-2/C2").unwrap();
    assert!(
        b_line.canonical_name.ends_with(" said, \"Bold move.\""),
        "{}",
        b_line.canonical_name
    );
    // The seed picks each item's conversation: the same seed the same splice, every time.
    let again = load_plus(&data, &locomo, 7);
    assert_eq!(
        (suite.corpus.iter())
            .map(|b| &b.canonical_name)
            .collect::<Vec<_>>(),
        (again.corpus.iter())
            .map(|b| &b.canonical_name)
            .collect::<Vec<_>>()
    );
    let speakers = |s: &Suite| -> Vec<String> {
        (0..3)
            .map(|n| {
                let c1 = s
                    .corpus
                    .iter()
                    .find(|b| b.id == format!("plus-{n}/C1"))
                    .unwrap();
                c1.canonical_name.split(' ').next().unwrap().to_string()
            })
            .collect()
    };
    let seeds: std::collections::BTreeSet<Vec<String>> = (0..8)
        .map(|seed| speakers(&load_plus(&data, &locomo, seed)))
        .collect();
    assert!(
        seeds.len() > 1,
        "the seed changes which conversation an item goes into"
    );
    let bad = write(
        &dir.path().join("bad.json"),
        &json!([{"relation_type": "causal"}]),
    );
    let out = tenure_eval(&[
        "validate",
        "--suite",
        "locomo-plus",
        "--data",
        bad.to_str().unwrap(),
        "--locomo",
        locomo.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bad.json") && err.contains("$[0]") && err.contains("cue_dialogue"),
        "{err}"
    );
    let out = tenure_eval(&[
        "validate",
        "--suite",
        "locomo-plus",
        "--data",
        data.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--locomo locomo10.json"));
}

/// A small Temporal Memory Dataset folder: log 26, two sessions of two responses each.
fn small_temporal(dir: &Path) -> PathBuf {
    let root = dir.join("tmd");
    let response = |n: u32, s: u32, t: &str, at: &str| {
        json!({"speaker": if n.is_multiple_of(2) { "Caroline" } else { "Melanie" }, "dia_id": format!("D{s}:{}", n % 2 + 1),
               "text": t, "date_time": at, "response_number": n.to_string()})
    };
    write(
        &root.join("ConversationData/26.json"),
        &json!({
            "speaker_a": "Caroline", "speaker_b": "Melanie",
            "session_1_date_time": "1:56 AM on 8 May, 2023",
            "session_1": [response(0, 1, "I went to a support group.", "01:56:04 AM on Monday 08 May, 2023"),
                          response(1, 1, "That is brave.", "01:56:30 AM on Monday 08 May, 2023")],
            "session_2_date_time": "1:00 PM on 25 May, 2023",
            "session_2": [response(2, 2, "I ran a charity race.", "01:00:00 PM on Thursday 25 May, 2023"),
                          response(3, 2, "Well done!", "01:00:40 PM on Thursday 25 May, 2023")],
        }),
    );
    let q = |questions: Value, docs: Value| json!({"questions": questions, "relevant_docs": docs});
    write(
        &root.join("TestData/time_qs/test_dates.json"),
        &json!({"file_indexes": [26], "file_26": [
            q(json!(["What did we discuss on May 8th?", "What did we discuss on May 8th?",
                     "Tell me what we talked about on May 8th."]), json!([0, 1])),
            q(json!(["What did we discuss on May 26th?"]), json!([9])),
        ]}),
    );
    write(
        &root.join("TestData/ambiguous_time_qs/test_dates.json"),
        &json!({"file_indexes": [26], "file_26": [q(
            json!([[{"speaker": "Caroline", "text": "We talked on May 25th."},
                    {"speaker": "Melanie", "text": "What was it about?"}]]), json!([2, 3]))]}),
    );
    write(
        &root.join("TestData/content_time_qs/content_time_qs.json"),
        &json!({"file_indexes": [26], "file_26": [q(json!(["What race did I run in late May?"]), json!([2]))]}),
    );
    root
}

#[test]
fn the_temporal_memory_dataset_maps_responses_and_paraphrases() {
    let dir = tempfile::tempdir().unwrap();
    let data = small_temporal(dir.path());
    let suite = Suite::load(&SuiteSource::TemporalMemory(TemporalMemorySource {
        data: data.clone(),
    }))
    .unwrap();
    assert_eq!(suite.corpus.len(), 4);
    assert_eq!(suite.corpus[2].id, "log-26/r2");
    assert_eq!(
        suite.corpus[2].canonical_name,
        "Caroline said, \"I ran a charity race.\""
    );
    assert_eq!(suite.corpus[2].created_at, Some(1_685_019_600_000));
    let ids: Vec<&str> = suite.cases.iter().map(|c| c.case_id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "log-26/time/dates/0/0",
            "log-26/time/dates/0/2",
            "log-26/ambiguous-time/dates/0/0",
            "log-26/time-content/0/0",
        ]
    );
    assert_eq!(
        suite.cases[2].query,
        "We talked on May 25th.\nWhat was it about?"
    );
    assert_eq!(suite.cases[3].category.as_deref(), Some("time-content"));
    let anomalies: Vec<(&str, &str)> = (suite.anomalies.iter())
        .map(|a| (a.case.as_str(), a.raw.as_str()))
        .collect();
    assert_eq!(
        anomalies,
        [
            ("log-26/time/dates/0/1", "What did we discuss on May 8th?"),
            ("log-26/time/dates/1", "9")
        ]
    );
    assert_eq!(suite.excluded[0].case, "log-26/time/dates/1/0");
    // A weekday that is not the date's: exit 2 naming the log and the JSON path.
    let log = data.join("ConversationData/26.json");
    let text = std::fs::read_to_string(&log)
        .unwrap()
        .replace("Thursday 25", "Friday 25");
    std::fs::write(&log, text).unwrap();
    let out = tenure_eval(&[
        "validate",
        "--suite",
        "temporal-memory",
        "--data",
        data.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("26.json") && err.contains("$.session_2[0].date_time"),
        "{err}"
    );
}

/// Every case's hits in `report` belong to its own user.
fn kept_apart(report: &Value) -> usize {
    let mut hits = 0;
    for case in report["cases"].as_array().unwrap() {
        let id = case["caseId"].as_str().unwrap();
        let user = id.split('/').next().unwrap();
        for hit in case["relevantBeliefs"].as_array().unwrap() {
            assert!(
                hit.as_str().unwrap().starts_with(&format!("{user}/")),
                "{id}: {hit}"
            );
            hits += 1;
        }
    }
    hits
}

#[test]
fn the_released_locomo_plus_is_spliced_scored_and_kept_apart() {
    if !needs(&[Need::Locomo, Need::LocomoPlus]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = data_file("locomo-plus/locomo_plus.json");
    tenure_eval_ok(
        &[
            "run",
            "--suite",
            "locomo-plus",
            "--backend",
            "bm25-text",
            "--quiet",
            "--data",
        ],
        &[
            &data,
            Path::new("--locomo"),
            &locomo_file(),
            Path::new("--out"),
            dir.path(),
        ],
    );
    let report: Value = serde_json::from_slice(
        &std::fs::read(
            dir.path()
                .join("locomo-plus/retrieval-report-bm25-text.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(report["manifest"]["releasedInput"], true);
    assert_eq!(report["cases"].as_array().unwrap().len(), 401);
    let anomalies = report["manifest"]["anomalies"].as_array().unwrap();
    let count = |start: &str| {
        (anomalies.iter())
            .filter(|a| a["outcome"].as_str().unwrap().starts_with(start))
            .count()
    };
    // 44 cues are not two lines: 31 write a literal \n, 13 put B on A's line.
    assert_eq!(
        (
            count("a literal"),
            count("A and B on one line"),
            count("names no number")
        ),
        (31, 13, 15)
    );
    assert!(kept_apart(&report) > 0);
}

#[test]
fn the_released_temporal_memory_dataset_is_scored_and_kept_apart() {
    if !needs(&[Need::TemporalMemory]) {
        return;
    }
    let data = data_file("zyphra-temporal");
    let suite = Suite::load(&SuiteSource::TemporalMemory(TemporalMemorySource {
        data: data.clone(),
    }))
    .unwrap();
    assert_eq!(suite.corpus.len(), 7463);
    assert_eq!(suite.released, Some(true));
    // Every paraphrase is a case, a repeat (an anomaly) or excluded.
    let mut paraphrases = 0;
    for folder in ["time_qs", "ambiguous_time_qs", "content_time_qs"] {
        for entry in std::fs::read_dir(data.join("TestData").join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == "json") {
                let file: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
                for (key, list) in file.as_object().unwrap() {
                    if key.starts_with("file_") && key != "file_indexes" {
                        for q in list.as_array().unwrap() {
                            paraphrases += q["questions"].as_array().unwrap().len();
                        }
                    }
                }
            }
        }
    }
    let repeats = suite
        .anomalies
        .iter()
        .filter(|a| a.outcome.starts_with("repeats"))
        .count();
    assert_eq!(
        suite.cases.len() + repeats + suite.excluded.len(),
        paraphrases
    );
    assert_eq!(paraphrases, 11_612 + 8_526 + 177);
    let dir = tempfile::tempdir().unwrap();
    tenure_eval_ok(
        &[
            "run",
            "--suite",
            "temporal-memory",
            "--backend",
            "bm25-text",
            "--quiet",
            "--data",
        ],
        &[&data, Path::new("--out"), dir.path()],
    );
    let report: Value = serde_json::from_slice(
        &std::fs::read(
            dir.path()
                .join("temporal-memory/retrieval-report-bm25-text.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(report["cases"].as_array().unwrap().len(), suite.cases.len());
    assert!(kept_apart(&report) > 0);
}
