//! What a sixth audit (the benchmark studies, `trec`, `compare`, `embed`) found, each kept
//! closed here: reports whose rows are not one whole run's (a case twice, the passed half, none)
//! measured by the studies; a report of another unit exported or compared against the suite
//! named, because one file serves every unit.

use crate::common::{refused, repo, strs, tenure_eval_ok};
use serde_json::Value;
use std::path::Path;

const SAMPLE: &str = "tests/data/longmemeval-sample.json";

/// A LongMemEval run of `unit` (`turns` or `sessions`) on the sample file into `out`; its
/// report's path.
fn lme_run(out: &Path, unit: &str) -> std::path::PathBuf {
    let args = [
        "run",
        "--suite",
        "longmemeval",
        "--data",
        SAMPLE,
        "--unit",
        unit,
        "--backend",
        "bm25-text",
        "--quiet",
        "--out",
    ];
    tenure_eval_ok(&args, &[out]);
    let folder = if unit == "turns" {
        "longmemeval"
    } else {
        "longmemeval-sessions"
    };
    out.join(folder).join("retrieval-report-bm25-text.json")
}

/// A bm25-text run of the BEAM folder `data` with `extra` flags into `dir/reports`; the folder
/// its reports are in.
fn beam_run(dir: &Path, data: &Path, extra: &[&str]) -> std::path::PathBuf {
    let out = dir.join("reports");
    let args = [
        "run",
        "--suite",
        "beam",
        "--backend",
        "bm25-text",
        "--quiet",
    ];
    let flags: Vec<&Path> = [&args[..], extra]
        .concat()
        .into_iter()
        .map(Path::new)
        .collect();
    let paths = [
        &flags[..],
        &[Path::new("--data"), data, Path::new("--out"), &out],
    ]
    .concat();
    tenure_eval_ok(&[], &paths);
    out
}

/// `report` rewritten into `dir/name` by `edit`; its path as a string.
fn edited(report: &Path, dir: &Path, name: &str, edit: &dyn Fn(&mut Vec<Value>)) -> String {
    let mut v: Value = serde_json::from_slice(&std::fs::read(report).unwrap()).unwrap();
    edit(v["cases"].as_array_mut().unwrap());
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
    path.to_str().unwrap().to_string()
}

/// A study takes a whole run's rows: a case twice, the passed cases only, or none were
/// measured (R@10 1.000 of the passed half, exit 0). Each is refused, naming where.
#[test]
fn a_study_refuses_rows_that_are_not_one_whole_runs() {
    let dir = tempfile::tempdir().unwrap();
    let report = lme_run(dir.path(), "turns");
    let study = |file: &str, says: &str| {
        refused(&["longmemeval", "--quiet", "--data", SAMPLE, file], says);
    };
    let twice = edited(&report, dir.path(), "twice.json", &|c| c.push(c[0].clone()));
    study(&twice, "is in the report twice (first at $.cases[0])");
    let half = edited(&report, dir.path(), "half.json", &|c| c.truncate(1));
    study(&half, "lacks 2 of longmemeval's 3 cases");
    let none = edited(&report, dir.path(), "none.json", &|c| c.clear());
    study(&none, "lacks 3 of longmemeval's 3 cases");
    // The whole run is measured.
    let read = repo(report.to_str().unwrap());
    tenure_eval_ok(&["longmemeval", "--quiet", "--data", SAMPLE], &[&read]);
}

/// One data file serves every unit, so the files alone took a turns run's report for a
/// sessions suite: `trec` wrote a run whose ids share none with its qrels, and `compare`
/// printed every measure as 0.0000, exit 0. The suite's label now decides.
#[test]
fn trec_and_compare_refuse_a_report_of_another_unit() {
    let dir = tempfile::tempdir().unwrap();
    let turns = lme_run(dir.path(), "turns");
    let turns = turns.to_str().unwrap();
    let out = dir.path().join("t").to_str().unwrap().to_string();
    let said = "the report is of suite longmemeval, not longmemeval-sessions";
    let sessions = [
        "--suite",
        "longmemeval",
        "--data",
        SAMPLE,
        "--unit",
        "sessions",
    ];
    refused(
        &[&["trec", turns], &sessions[..], &["--out", &out]].concat(),
        said,
    );
    refused(&[&["compare", turns, turns], &sessions[..]].concat(), said);
    // Against its own unit it is exported.
    let own = [
        "trec",
        turns,
        "--suite",
        "longmemeval",
        "--data",
        SAMPLE,
        "--out",
        &out,
    ];
    tenure_eval_ok(&own, &[]);
}

/// Where BEAM names one message as both a knowledge update's original and its update, the
/// message keeps the update's grade and no original is left: the question was counted
/// "updated first" whenever the message was retrieved (two of 100K's 39, at ranks 4 and 7).
/// It is left out of the share, as an update that names no message is.
#[test]
fn an_update_whose_original_is_the_same_message_is_not_ordered() {
    let dir = tempfile::tempdir().unwrap();
    let data = crate::beam::sample(dir.path());
    let questions = data.join("100K/1/probing_questions/probing_questions.json");
    let mut q: Value = serde_json::from_slice(&std::fs::read(&questions).unwrap()).unwrap();
    let same = serde_json::json!({"question": "What is the dashboard API response time now?",
        "source_chat_ids": {"original_info": [6], "updated_info": [6]}});
    q["knowledge_update"].as_array_mut().unwrap().push(same);
    std::fs::write(&questions, serde_json::to_vec(&q).unwrap()).unwrap();
    let out = beam_run(dir.path(), &data, &[]);
    let file = out.join("beam/retrieval-report-bm25-text.json");
    let report: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let case = (report["cases"].as_array().unwrap().iter())
        .find(|c| c["caseId"] == "100K-1/knowledge_update/2")
        .unwrap();
    assert!(
        case["relevantBeliefs"]
            .as_array()
            .unwrap()
            .contains(&"100K-1/m6".into()),
        "the message is retrieved: it was counted as ordered"
    );
    let study = tenure_eval_ok(&["beam", "--format", "json", "--data"], &[&data, &file]);
    let results: Value = serde_json::from_slice(&study.stdout).unwrap();
    let cell = (results[0]["cells"].as_array().unwrap().iter())
        .find(|c| c["tier"] == "100K" && c["ability"] == "knowledge_update")
        .unwrap();
    assert_eq!(cell["cases"], 3);
    // Of the three updates, one names an id of no message and one names one message twice:
    // one is ordered.
    assert_eq!(cell["updateOrder"][1], 1, "{cell}");
}

/// `embed --import-vectors` into MiniLM's store replaced its vectors and kept its identity: a
/// run read random vectors as MiniLM's (nDCG@10 0.983 to 0.393), exit 0. Now a store a model
/// computed takes no import; another vector for a text a store holds is refused unless
/// `--refresh` (which it ignored); one text twice in a file with two vectors is refused.
#[test]
fn an_import_never_passes_its_vectors_off_as_a_models() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    tenure_eval_ok(
        &[
            "embed",
            "--export-texts",
            "--suite",
            "pmb",
            "--out",
            &p("all.jsonl"),
        ],
        &[],
    );
    let lines: Vec<Value> = std::fs::read_to_string(p("all.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let file = |name: &str, picked: &[(usize, f32)]| {
        let body: String = (picked.iter())
            .map(|(i, x)| {
                let mut l = lines[*i].clone();
                l["vector"] = Value::from(vec![*x; 384]);
                format!("{l}\n")
            })
            .collect();
        std::fs::write(p(name), body).unwrap();
        p(name)
    };
    let stores = p("stores");
    let import = |model: &str, file: &str, extra: &[&str]| -> Vec<String> {
        let args = [
            "embed",
            "--suite",
            "pmb",
            "--store-dir",
            &stores,
            "--model",
            model,
        ];
        let all = [&args[..], &["--import-vectors", file], extra].concat();
        all.into_iter().map(str::to_string).collect()
    };
    let a = file("a.jsonl", &[(0, 0.5), (1, 0.5)]);
    // MiniLM's store (built in: found, from a folder with no stores, when none is given) is
    // a model's.
    let args = [
        "embed",
        "--suite",
        "pmb",
        "--model",
        "all-minilm-l6-v2",
        "--import-vectors",
    ];
    let out = crate::common::cli(&args)
        .arg(&a)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("store all-minilm-l6-v2 holds vectors computed by its model"),
        "{said}"
    );
    tenure_eval_ok(&strs(&import("mine", &a, &[])), &[]);
    let b = file("b.jsonl", &[(0, 0.25)]);
    refused(&strs(&import("mine", &b, &[])), "holds another vector for");
    let out = tenure_eval_ok(&strs(&import("mine", &b, &["--refresh"])), &[]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("0 vectors new, 1 replaced (--refresh), 2 in all"),
        "{said}"
    );
    let twice = file("twice.jsonl", &[(2, 0.5), (2, 0.75)]);
    refused(
        &strs(&import("other", &twice, &[])),
        "again, with another vector",
    );
}

/// `beam` named a selection's report by its suite label (`Some("beam-selected"): expected a
/// report of a run on --suite beam`); it is named as a selection's, as `locomo` names it.
#[test]
fn beam_names_a_selections_report_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = crate::beam::sample(dir.path());
    let out = beam_run(dir.path(), &data, &["--limit", "2"]);
    let file = out.join("beam-selected/retrieval-report-bm25-text.json");
    let data = data.to_str().unwrap();
    refused(
        &["beam", "--data", data, file.to_str().unwrap()],
        "the report of a run that chose some cases",
    );
}

/// A review's findings on the fixes above: `beam` on a one-tier run without `--tier` names the
/// flag (it said only "lacks 629 cases"); `--import-upstream` replaced a vector the store held
/// in silence, as `--import-vectors` did; `html` of a selection's report without `--suite` read
/// `pmb-selected` as a suite's name.
#[test]
fn the_review_of_the_sixth_audits_fixes() {
    let dir = tempfile::tempdir().unwrap();
    let data = crate::beam::sample(dir.path());
    let copy = data.join("500K/1");
    std::fs::create_dir_all(copy.join("probing_questions")).unwrap();
    for file in ["chat.json", "probing_questions/probing_questions.json"] {
        std::fs::copy(data.join("100K/2").join(file), copy.join(file)).unwrap();
    }
    let out = beam_run(dir.path(), &data, &["--tier", "100K"]);
    let file = out.join("beam/retrieval-report-bm25-text.json");
    let (data, file) = (data.to_str().unwrap(), file.to_str().unwrap());
    refused(
        &["beam", "--data", data, file],
        "a run on tier 100K of the 100K, 500K given",
    );
    tenure_eval_ok(
        &["beam", "--quiet", "--tier", "100K", "--data", data, file],
        &[],
    );

    let seed = repo("embeddings/upstream-nomic-embed-text/pmb/beliefs.seed.embedded.json");
    let mut beliefs: Vec<Value> = serde_json::from_slice(&std::fs::read(&seed).unwrap()).unwrap();
    let stores = dir.path().join("stores");
    let upstream = |beliefs: &[Value], extra: &[&str]| -> std::process::Output {
        let path = dir.path().join("up.json");
        std::fs::write(&path, serde_json::to_vec(beliefs).unwrap()).unwrap();
        let args = [
            "embed",
            "--suite",
            "pmb",
            "--model",
            "up",
            "--import-upstream",
        ];
        crate::common::cli(&args)
            .arg(&path)
            .arg("--store-dir")
            .arg(&stores)
            .args(extra)
            .output()
            .unwrap()
    };
    assert!(upstream(&beliefs, &[]).status.success());
    let n = beliefs[0]["embedding"].as_array().unwrap().len();
    beliefs[0]["embedding"] = Value::from(vec![0.25f32; n]);
    let o = upstream(&beliefs, &[]);
    let said = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{said}");
    assert!(
        said.contains("$[0].embedding") && said.contains("--refresh replaces"),
        "{said}"
    );
    assert!(upstream(&beliefs, &["--refresh"]).status.success());

    let pmb = dir.path().join("sel");
    let args = [
        "static",
        "--suite",
        "pmb",
        "--backend",
        "bm25",
        "--quiet",
        "--limit",
        "3",
    ];
    tenure_eval_ok(&args, &[Path::new("--out"), &pmb]);
    let report = pmb.join("pmb-selected/retrieval-report-tenure.json");
    let page = dir.path().join("sel.html");
    tenure_eval_ok(&["html", "--quiet", "--out"], &[&page, &report]);
}
