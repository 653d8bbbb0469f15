//! BEAM as a suite (`--suite beam --data DIR`, docs/beam.md): on a small folder written here in
//! BEAM's layout and format (every shape its evidence takes, the generator's marker, a batch
//! without its time anchor, ids of no message, a second chat to keep apart), and on the
//! released tiers when the data folder holds them: every question scored or excluded with its
//! reason, no question retrieving another chat's message, graded gold in the TREC export that
//! ir_measures scores as the report does, and the knowledge-update order re-derived from the
//! rankings.

use crate::common::needs::{data_file, needs, Need};
use crate::common::rank_reference::rank_reference;
use crate::common::{exits, repo, shared_run, tenure_eval, tenure_eval_ok};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use tenure_eval::suite::beam::BeamSource;
use tenure_eval::suite::{Suite, SuiteSource};

/// A message of BEAM's chat.json.
fn msg(role: &str, id: u64, content: &str) -> Value {
    json!({"role": role, "id": id, "content": content})
}

/// Chat 1 of the small folder: three batches, the third without an anchor.
fn chat_one() -> Value {
    let mut first = msg(
        "user",
        0,
        "I plan a budget tracker in Flask with a dashboard ->-> 1,1",
    );
    first["time_anchor"] = json!("March-15-2024");
    first["index"] = json!("1,1");
    first["question_type"] = json!("main_question");
    let mut second_batch = msg("user", 4, "We deploy the tracker on Heroku ->-> 2,1");
    second_batch["time_anchor"] = json!("April-02-2024");
    json!([
        {"batch_number": 1, "time_anchor": null, "turns": [
            [first, msg("assistant", 1, "Flask suits a budget tracker.")],
            [msg("user", 2, "The dashboard API responds in 400ms ->-> 1,2"),
             msg("assistant", 3, "That is slow for a dashboard.")],
        ]},
        {"batch_number": 2, "time_anchor": null, "turns": [
            [second_batch, msg("assistant", 5, "Heroku deploys from git. ->-> 2,1")],
            [msg("user", 6, "Caching cut the dashboard API to 250ms ->-> 2,2"),
             msg("assistant", 7, "A good improvement.")],
        ]},
        {"batch_number": 3, "time_anchor": null, "turns": [
            [msg("user", 8, "I have never written Flask routes"), msg("assistant", 9, "Noted.")],
        ]},
    ])
}

/// Chat 1's questions: every evidence shape, ids of no message, the abstention kind.
fn questions_one() -> Value {
    json!({
        "abstention": [{"question": "What did user feedback change?"}],
        "knowledge_update": [
            {"question": "What is the dashboard API response time?",
             "source_chat_ids": {"original_info": [2], "updated_info": [6]}},
            {"question": "Where do we deploy the tracker?",
             "source_chat_ids": "{'original_info': [4], 'updated_info': [999]}"},
        ],
        "event_ordering": [
            {"question": "In what order did I mention Flask, the API and caching?",
             "source_chat_ids": [[0, 2], 4, [6]]},
        ],
        "information_extraction": [
            {"question": "How fast is the dashboard API after caching?", "source_chat_ids": "[6]"},
        ],
        "summarization": [{"question": "Summarise the project.", "source_chat_ids": []}],
        "contradiction_resolution": [
            {"question": "Have I written Flask routes?",
             "source_chat_ids": {"first_statement": [8], "second_statement": ["m3"]}},
        ],
    })
}

/// Chat 2: the same words, another user.
fn chat_two() -> Value {
    let mut first = msg(
        "user",
        0,
        "My dashboard API for the Flask tracker takes 300ms",
    );
    first["time_anchor"] = json!("May-01-2024");
    json!([{"batch_number": 1, "time_anchor": null, "turns": [
        [first, msg("assistant", 1, "Caching would help the dashboard.")],
    ]}])
}

/// Write `value` as JSON to `path`, creating its folder.
fn write(path: &Path, value: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(value).unwrap()).unwrap();
}

/// The small folder, in `dir`: `100K/1` and `100K/2`.
pub(crate) fn sample(dir: &Path) -> PathBuf {
    let root = dir.join("chats");
    write(&root.join("100K/1/chat.json"), &chat_one());
    write(
        &root.join("100K/1/probing_questions/probing_questions.json"),
        &questions_one(),
    );
    write(&root.join("100K/2/chat.json"), &chat_two());
    write(
        &root.join("100K/2/probing_questions/probing_questions.json"),
        &json!({"information_extraction": [
            {"question": "How fast is my dashboard API?", "source_chat_ids": [0]}]}),
    );
    root
}

fn load(data: &Path, tiers: &[&str]) -> Suite {
    Suite::load(&SuiteSource::Beam(BeamSource {
        data: data.to_path_buf(),
        tiers: tiers.iter().map(|t| t.to_string()).collect(),
    }))
    .unwrap()
}

#[test]
fn the_small_folder_maps_messages_questions_and_every_evidence_shape() {
    let dir = tempfile::tempdir().unwrap();
    let suite = load(&sample(dir.path()), &[]);
    assert_eq!(suite.corpus.len(), 12);
    let m0 = &suite.corpus[0];
    assert_eq!(m0.id, "100K-1/m0");
    assert_eq!(m0.user_id, "100K-1");
    assert_eq!(m0.subtype.as_deref(), Some("user"));
    // The marker is cut from user messages and from the assistant reply that echoed it.
    assert_eq!(
        m0.canonical_name,
        "I plan a budget tracker in Flask with a dashboard"
    );
    assert_eq!(suite.corpus[5].canonical_name, "Heroku deploys from git.");
    assert!(suite
        .corpus
        .iter()
        .all(|b| !b.canonical_name.contains("->->")));
    // Times: the batch's anchor plus the id in ms; the batch without one takes the one before.
    let day = |b: usize| suite.corpus[b].created_at.unwrap();
    assert_eq!(day(0), 1_710_460_800_000);
    assert_eq!(day(3), 1_710_460_800_003);
    assert_eq!(day(4), 1_712_016_000_004);
    assert_eq!(day(8), 1_712_016_000_008);
    let ids: Vec<&str> = suite.cases.iter().map(|c| c.case_id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "100K-1/knowledge_update/0",
            "100K-1/knowledge_update/1",
            "100K-1/event_ordering/0",
            "100K-1/information_extraction/0",
            "100K-1/contradiction_resolution/0",
            "100K-2/information_extraction/0",
        ]
    );
    let grades = |k: usize| suite.cases[k].grades.clone();
    let g = |id: &str, grade: u32| (id.to_string(), grade);
    assert_eq!(grades(0), [g("100K-1/m2", 1), g("100K-1/m6", 2)]);
    assert_eq!(grades(1), [g("100K-1/m4", 1)]);
    assert_eq!(
        grades(2),
        [
            g("100K-1/m0", 1),
            g("100K-1/m2", 1),
            g("100K-1/m4", 1),
            g("100K-1/m6", 1)
        ]
    );
    assert_eq!(grades(3), [g("100K-1/m6", 1)]);
    assert_eq!(grades(4), [g("100K-1/m8", 1)]);
    let excluded: Vec<(&str, &str)> = (suite.excluded.iter())
        .map(|e| (e.case.as_str(), e.reason.as_str()))
        .collect();
    assert_eq!(
        excluded,
        [
            (
                "100K-1/abstention/0",
                "abstention question: BEAM gives it no evidence by design"
            ),
            ("100K-1/summarization/0", "source_chat_ids is empty"),
        ]
    );
    let anomalies: Vec<(&str, &str)> = (suite.anomalies.iter())
        .map(|a| (a.case.as_str(), a.raw.as_str()))
        .collect();
    assert_eq!(
        anomalies,
        [
            ("100K-1", "batch 2"),
            ("100K-1/knowledge_update/1", "999"),
            ("100K-1/contradiction_resolution/0", "m3"),
        ]
    );
    // Not BEAM's released bytes: said, and recorded.
    assert_eq!(suite.released, Some(false));
    assert_eq!(suite.inputs.len(), 4);
    assert_eq!(suite.inputs[0].path, "100K/1/chat.json");
}

#[test]
fn a_run_keeps_chats_apart_and_the_study_orders_knowledge_updates_by_the_rankings() {
    let dir = tempfile::tempdir().unwrap();
    let data = sample(dir.path());
    let out = dir.path().join("reports");
    let run = tenure_eval_ok(
        &["run", "--suite", "beam", "--backend", "bm25-text", "--data"],
        &[&data, Path::new("--out"), &out],
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("not the benchmark's released files"),
        "{stderr}"
    );
    let file = out.join("beam/retrieval-report-bm25-text.json");
    let report: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(report["manifest"]["releasedInput"], false);
    assert_eq!(report["manifest"]["excluded"].as_array().unwrap().len(), 2);
    let mut rankings = std::collections::HashMap::new();
    for case in report["cases"].as_array().unwrap() {
        let id = case["caseId"].as_str().unwrap();
        let user = id.split('/').next().unwrap();
        let hits: Vec<String> = (case["relevantBeliefs"].as_array().unwrap().iter())
            .map(|h| h.as_str().unwrap().to_string())
            .collect();
        assert!(
            hits.iter().all(|h| h.starts_with(&format!("{user}/"))),
            "{id}: {hits:?}"
        );
        rankings.insert(id.to_string(), hits);
    }
    // The study's order, re-derived: the update (m6) above every original retrieved (m2).
    let ranking = &rankings["100K-1/knowledge_update/0"];
    let at = |id: &str| ranking.iter().position(|h| h == id);
    let expected = match (at("100K-1/m6"), at("100K-1/m2")) {
        (Some(u), Some(o)) => u < o,
        (Some(_), None) => true,
        (None, _) => false,
    };
    let study = tenure_eval_ok(&["beam", "--format", "json", "--data"], &[&data, &file]);
    let results: Value = serde_json::from_slice(&study.stdout).unwrap();
    let cells = results[0]["cells"].as_array().unwrap();
    let cell = |tier: &str, ability: &str| {
        cells
            .iter()
            .find(|c| c["tier"] == tier && c["ability"] == ability)
            .unwrap()
    };
    // Only the first update names one that exists: the second's is an id of no message.
    assert_eq!(
        cell("100K", "knowledge_update")["updateOrder"],
        json!([usize::from(expected), 1])
    );
    assert_eq!(cell("all", "all")["cases"], 6);
    assert_eq!(cell("100K", "event_ordering")["updateOrder"], Value::Null);
}

#[test]
fn tiers_are_chosen_by_name_and_flags_of_other_suites_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = sample(dir.path());
    let out = tenure_eval(&[
        "validate",
        "--suite",
        "beam",
        "--tier",
        "1M",
        "--data",
        data.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--tier 1M") && err.contains("it holds 100K"),
        "{err}"
    );
    // One tier's folder given instead of the chats folder: the hint says which to give.
    let out = tenure_eval(&[
        "validate",
        "--suite",
        "beam",
        "--data",
        data.join("100K").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give its parent"));
    let out = tenure_eval(&["validate", "--suite", "pmb", "--tier", "100K"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--tier is read by --suite beam only"), "{err}");
}

#[test]
fn damaged_files_are_exit_2_naming_the_file_and_the_json_path() {
    let dir = tempfile::tempdir().unwrap();
    let data = sample(dir.path());
    let chat = data.join("100K/1/chat.json");
    let expect = |needle: &str| {
        let out = tenure_eval(&[
            "validate",
            "--suite",
            "beam",
            "--data",
            data.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("100K/1/chat.json") && err.contains(needle),
            "{needle}: {err}"
        );
    };
    let bytes = std::fs::read(&chat).unwrap();
    std::fs::write(&chat, &bytes[..bytes.len() / 2]).unwrap();
    expect("line");
    let mut wrong = chat_one();
    wrong[0]["turns"] = json!({"0": []});
    write(&chat, &wrong);
    expect("$[0].turns");
    let mut bad_date = chat_one();
    bad_date[0]["turns"][0][0]["time_anchor"] = json!("February-31-2024");
    write(&chat, &bad_date);
    expect("$[0].turns[0][0].time_anchor");
    let mut twice = chat_one();
    twice[1]["turns"][0][0]["id"] = json!(0);
    write(&chat, &twice);
    expect("$[1].turns[0][0].id");
}

/// One bm25-text run over both released tiers, shared by the tests that read it.
fn released_report() -> PathBuf {
    let data = data_file("beam");
    let dir = shared_run("beam-released", &data.display().to_string(), |dir| {
        tenure_eval_ok(
            &[
                "run",
                "--suite",
                "beam",
                "--backend",
                "bm25-text",
                "--quiet",
                "--data",
            ],
            &[&data, Path::new("--out"), dir],
        );
    });
    dir.join("beam/retrieval-report-bm25-text.json")
}

/// The shared run's TREC export (run and qrels) in a folder of its own.
fn released_trec() -> tempfile::TempDir {
    let trec = tempfile::tempdir().unwrap();
    tenure_eval_ok(
        &[
            "trec",
            released_report().to_str().unwrap(),
            "--suite",
            "beam",
            "--data",
        ],
        &[&data_file("beam"), Path::new("--out"), trec.path()],
    );
    trec
}

#[test]
fn the_released_tiers_are_scored_or_excluded_and_kept_apart() {
    if !needs(&[Need::Beam]) {
        return;
    }
    let report: Value = serde_json::from_slice(&std::fs::read(released_report()).unwrap()).unwrap();
    let manifest = &report["manifest"];
    assert_eq!(manifest["releasedInput"], true);
    assert_eq!(manifest["inputs"].as_array().unwrap().len(), 110);
    let cases = report["cases"].as_array().unwrap();
    let excluded = manifest["excluded"].as_array().unwrap();
    // 1,100 questions: 110 abstention, one knowledge update without source_chat_ids, five with
    // an empty list; every id BEAM names is a message of its chat.
    assert_eq!((cases.len(), excluded.len()), (984, 116));
    assert!(
        manifest.get("anomalies").is_none(),
        "{}",
        manifest["anomalies"]
    );
    for case in cases {
        let id = case["caseId"].as_str().unwrap();
        let user = id.split('/').next().unwrap();
        for hit in case["relevantBeliefs"].as_array().unwrap() {
            assert!(
                hit.as_str().unwrap().starts_with(&format!("{user}/")),
                "{id}: {hit}"
            );
        }
    }
}

#[test]
fn the_released_tiers_trec_export_gives_ir_measures_the_reports_values() {
    if !needs(&[Need::Beam, Need::Python]) {
        return;
    }
    let file = released_report();
    let report: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let trec = released_trec();
    let run = trec.path().join("retrieval-report-bm25-text.run");
    let qrels = trec.path().join("retrieval-report-bm25-text.qrels");
    let qrels_text = std::fs::read_to_string(&qrels).unwrap();
    // BEAM's first knowledge update, graded: the update 2, its original 1.
    assert!(
        qrels_text.contains("100K-1/knowledge_update/0 0 100K-1/m114 2"),
        "graded"
    );
    assert!(qrels_text.contains("100K-1/knowledge_update/0 0 100K-1/m86 1"));
    let measures = ["R@1", "R@5", "R@10", "R@50", "nDCG@10", "RR"];
    let tool = rank_reference(
        &json!({"op": "measures", "run": run, "qrels": qrels, "measures": measures}),
    )["values"]
        .clone();
    let mut compared = 0;
    for case in report["cases"].as_array().unwrap() {
        let id = case["caseId"].as_str().unwrap();
        for m in measures {
            let ours = case["rankMetrics"][m].as_f64().unwrap();
            let theirs = tool.get(id).map_or(0.0, |v| v[m].as_f64().unwrap());
            assert!(
                (ours - theirs).abs() <= 1e-9,
                "{id} {m}: ours {ours}, ir_measures {theirs}"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 984 * measures.len());
}

/// `scripts/supersession_order.py`'s rule (docs/results.md, "Supersession on BEAM's knowledge
/// updates") on a hand-made list: a later result alike to an earlier one is placed right above
/// it, a result alike to none keeps BM25's place, theta 0 is the first 10 in time order, and
/// nothing below the tenth place moves.
#[test]
fn the_query_time_supersession_rule_places_a_later_alike_result_above_the_earlier() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let program = r#"
import sys
sys.path.insert(0, sys.argv[1])
from supersession_order import reorder
place = {"old": 0, "other": 1, "new": 2, "newest": 3}
weighted = {"old": {"api": 1.0, "400ms": 1.0}, "new": {"api": 1.0, "250ms": 1.0},
            "other": {"sprint": 1.0}, "newest": {"sprint": 1.0, "march": 1.0}}
ranked = ["old", "other", "new"] + [f"x{i}" for i in range(7)] + ["newest"]
for d in ranked[3:10]:
    place[d], weighted[d] = -1, {}
print(reorder(ranked, place, weighted, 0.3)[:3], reorder(ranked, place, weighted, 0.5)[:3],
      reorder(ranked, place, weighted, 0)[:3], reorder(ranked, place, weighted, 0)[10])
"#;
    let out = exits(
        std::process::Command::new("python3")
            .args(["-c", program])
            .arg(repo("scripts")),
        0,
    );
    // Alike at 1/3: "new" goes above "old" at theta 0.3, not at 0.5; in time order "new"
    // (place 2) leads, "other" (1) and "old" (0) follow; "newest", eleventh, stays there.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "['new', 'old', 'other'] ['old', 'other', 'new'] ['new', 'other', 'old'] newest"
    );
}

/// The script's measure is the harness's: its plain row on the released tiers gives, per tier,
/// the knowledge updates first and nDCG@10 that `tenure-eval beam` reports for the same run,
/// and its time order puts first as many as the ceiling of any reordering of the first 10.
#[test]
fn the_query_time_supersession_script_measures_as_the_harness_does() {
    if !needs(&[Need::Beam, Need::Python3]) {
        return;
    }
    let file = released_report();
    let data = data_file("beam");
    let trec = released_trec();
    let out = exits(
        std::process::Command::new("python3")
            .arg(repo("scripts/supersession_order.py"))
            .arg(trec.path().join("retrieval-report-bm25-text"))
            .arg(&data),
        0,
    );
    let table = String::from_utf8(out.stdout).unwrap();
    let row = |name: &str| -> Vec<String> {
        let line = table
            .lines()
            .find(|l| l.starts_with(&format!("| {name} |")))
            .unwrap_or_else(|| panic!("no row {name} in\n{table}"));
        line.split('|').map(|c| c.trim().to_string()).collect()
    };
    let beam = tenure_eval_ok(
        &[
            "beam",
            file.to_str().unwrap(),
            "--format",
            "json",
            "--quiet",
            "--data",
        ],
        &[&data],
    );
    let runs: Value = serde_json::from_slice(&beam.stdout).unwrap();
    let plain = row("plain bm25-text");
    for (tier, at) in [("100K", 2), ("500K", 5)] {
        let cell = runs[0]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["tier"] == tier && c["ability"] == "all")
            .unwrap();
        let (k, n) = (
            cell["updateOrder"][0].as_u64().unwrap(),
            cell["updateOrder"][1].as_u64().unwrap(),
        );
        assert!(
            plain[at].starts_with(&format!("{k}/{n} ")),
            "{tier}: {}",
            plain[at]
        );
        // The JSON names its rank values.
        let at_ndcg = (runs[0]["rankMeasures"].as_array().unwrap().iter())
            .position(|m| m == "nDCG@10")
            .unwrap();
        let ndcg = cell["rank"][at_ndcg].as_f64().unwrap();
        assert_eq!(plain[at + 1], format!("{ndcg:.3}"), "{tier} nDCG@10");
    }
    // The ceiling (benchmark-results.sh): 71 of the 99 updates, reached by a sort by time.
    let time = row("time order (theta 0: the prior's limit)");
    let first = |cell: &str| cell.split('/').next().unwrap().parse::<u32>().unwrap();
    assert_eq!(first(&time[2]) + first(&time[5]), 71, "{table}");
}
