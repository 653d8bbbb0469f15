//! LoCoMo's released file as a suite (`--suite locomo --data FILE`, docs/locomo.md), on the real
//! file nobody here wrote: every question is scored or excluded with its reason, no question
//! ever retrieves another conversation's turn, every evidence anomaly is listed, the TREC
//! export gives ir_measures the report's values, and a damaged file is exit 2 naming its JSON
//! path.

use crate::common::needs::{locomo_file, needs, Need};
use crate::common::rank_reference::rank_reference;
use crate::common::{shared_run, spawn_serve, tenure_eval, tenure_eval_ok};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// One run of bm25 and bm25-text over the turns, shared by the tests that read its reports
/// (in this process or another: `shared_run`).
fn reports() -> PathBuf {
    let data = locomo_file();
    let dir = shared_run("locomo-turns", &data.display().to_string(), |dir| {
        tenure_eval_ok(
            &[
                "run",
                "--suite",
                "locomo",
                "--backend",
                "bm25,bm25-text",
                "--quiet",
                "--data",
            ],
            &[&data, Path::new("--out"), dir],
        );
    });
    dir.join("locomo")
}

/// One run of bm25-text over whole sessions, shared the same way: its report.
fn sessions_report() -> PathBuf {
    let data = locomo_file();
    let dir = shared_run("locomo-sessions", &data.display().to_string(), |dir| {
        tenure_eval_ok(
            &[
                "run",
                "--suite",
                "locomo",
                "--unit",
                "sessions",
                "--backend",
                "bm25-text",
                "--quiet",
            ],
            &[Path::new("--data"), &data, Path::new("--out"), dir],
        );
    });
    dir.join("locomo-sessions/retrieval-report-bm25-text.json")
}

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn every_question_is_scored_or_excluded_with_its_reason() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let folder = reports();
    for file in [
        "retrieval-report-tenure.json",
        "retrieval-report-bm25-text.json",
    ] {
        let report = read(&folder.join(file));
        let cases = report["cases"].as_array().unwrap();
        let manifest = &report["manifest"];
        let excluded = manifest["excluded"].as_array().unwrap();
        // 1,986 questions in the released file: 1,982 cases and 4 without any evidence.
        assert_eq!((cases.len(), excluded.len()), (1982, 4), "{file}");
        assert!(excluded.iter().all(|e| e["reason"] == "no evidence"));
        assert_eq!(manifest["releasedInput"], true);
        let categories: std::collections::BTreeMap<String, usize> =
            cases.iter().fold(Default::default(), |mut m, c| {
                *m.entry(c["category"].as_str().unwrap().to_string())
                    .or_default() += 1;
                m
            });
        assert_eq!(
            categories.into_iter().collect::<Vec<_>>(),
            [
                ("adversarial".to_string(), 446),
                ("multi-hop".to_string(), 282),
                ("open-domain".to_string(), 92),
                ("single-hop".to_string(), 841),
                ("temporal".to_string(), 321),
            ]
        );
        // The measures LoCoMo's runs report by default, over every case with gold.
        let means = &report["retrieval"]["rankMetrics"];
        assert_eq!(means["queries"], 1982);
        let names: Vec<&String> = means["means"].as_object().unwrap().keys().collect();
        assert_eq!(
            names,
            ["R@1", "R@5", "R@10", "R@25", "R@50", "nDCG@10", "RR"]
        );
    }
    // Alias-BM25 indexes each name as one whole term (spec §C.1): a turn's sentence never
    // equals a query word, so it retrieves nothing; plain BM25 over the words does.
    let alias = read(&folder.join("retrieval-report-tenure.json"));
    assert_eq!(alias["retrieval"]["rankMetrics"]["means"]["R@50"], 0.0);
    let plain = read(&folder.join("retrieval-report-bm25-text.json"));
    let r10 = plain["retrieval"]["rankMetrics"]["means"]["R@10"]
        .as_f64()
        .unwrap();
    assert!(r10 > 0.5, "bm25-text R@10 {r10}");
}

/// Each case's hits, from the report.
fn hits(case: &Value) -> Vec<&str> {
    case["relevantBeliefs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect()
}

#[test]
fn no_question_retrieves_another_conversations_turn() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let folder = reports();
    let report = read(&folder.join("retrieval-report-bm25-text.json"));
    let mut retrieved = 0;
    for case in report["cases"].as_array().unwrap() {
        let id = case["caseId"].as_str().unwrap();
        let conversation = id.split('/').next().unwrap();
        for hit in hits(case) {
            assert!(
                hit.starts_with(&format!("{conversation}/D")),
                "{id} retrieved {hit}"
            );
            retrieved += 1;
        }
    }
    // Not vacuous: the contexts are 50 deep.
    assert!(retrieved > 1982 * 40, "{retrieved}");
}

#[test]
fn sessions_as_items_are_judged_by_the_sessions_of_the_evidence() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let report = read(&sessions_report());
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 1982);
    for case in cases {
        let id = case["caseId"].as_str().unwrap();
        let conversation = id.split('/').next().unwrap();
        for hit in hits(case) {
            assert!(
                hit.starts_with(&format!("{conversation}/S")),
                "{id} retrieved {hit}"
            );
        }
    }
    // conv-26/q37's evidence "D8:6; D9:17" is split: its gold is sessions 8 and 9, so a case
    // passes only with both in its top 10.
    let q37 = cases.iter().find(|c| c["caseId"] == "conv-26/q37").unwrap();
    let top: Vec<&str> = hits(q37).into_iter().take(10).collect();
    let both = top.contains(&"conv-26/S8") && top.contains(&"conv-26/S9");
    assert_eq!(q37["passed"], both, "{top:?}");
}

#[test]
fn validate_lists_every_evidence_anomaly() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let data = locomo_file();
    let out = tenure_eval_ok(&["validate", "--suite", "locomo", "--data"], &[&data]);
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "locomo: ok (head profile) — 5882 beliefs, 1982 static cases",
        "locomo: 9 input anomalies",
        "  conv-26/q37: \"D8:6; D9:17\" split into D8:6, D9:17",
        "  conv-42/q58: \"D10:19\" dropped: no such turn in the conversation",
        "  conv-42/q88: \"D\" dropped: not a dialog id",
        "  conv-43/q18: \"D:11:26\" fixed to D11:26",
        "  conv-47/q38: \"D4:36\" dropped: no such turn in the conversation",
        "  conv-49/q31: \"D9:1 D4:4 D4:6\" split into D9:1, D4:4, D4:6",
        "  conv-50/q69: \"D30:05\" fixed to D30:5",
        "locomo: 4 questions not scored",
        "  conv-50/q42: no evidence",
    ] {
        assert!(text.contains(line), "{line:?} not in:\n{text}");
    }
    assert_eq!(
        text.lines().filter(|l| l.starts_with("  conv-")).count(),
        9 + 4
    );
}

#[test]
fn a_damaged_or_changed_file_is_named_by_its_json_path() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let data = locomo_file();
    let bytes = std::fs::read(&data).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut released: Value = serde_json::from_slice(&bytes).unwrap();
    let write = |name: &str, value: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, value).unwrap();
        path
    };
    let truncated = write("truncated.json", &bytes[..bytes.len() / 3]);
    let mut reshaped = released.clone();
    reshaped[3]["qa"][5]["evidence"] = json!("D1:1");
    let reshaped = write("reshaped.json", &serde_json::to_vec(&reshaped).unwrap());
    let mut dated = released.clone();
    dated[1]["conversation"]["session_2_date_time"] = json!("yesterday");
    let dated = write("dated.json", &serde_json::to_vec(&dated).unwrap());
    for (file, expect) in [
        (&truncated, "malformed JSON"),
        (
            &reshaped,
            "$[3].qa[5].evidence: invalid type: string \"D1:1\", expected a sequence",
        ),
        (
            &dated,
            "$[1].conversation.session_2_date_time: \"yesterday\": expected a date",
        ),
    ] {
        let out = tenure_eval(&[
            "validate",
            "--suite",
            "locomo",
            "--data",
            file.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(file.to_str().unwrap()) && stderr.contains(expect),
            "{stderr}"
        );
    }
    // A file that is not the released one runs, and says so.
    released[0]["qa"][0]["question"] = json!("When did Caroline go to the support group?");
    let changed = write("changed.json", &serde_json::to_vec(&released).unwrap());
    let out = tenure_eval_ok(&["validate", "--suite", "locomo", "--data"], &[&changed]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not the released locomo10.json's"));
}

#[test]
fn the_trec_export_gives_ir_measures_the_reports_values() {
    if !needs(&[Need::Locomo, Need::Python]) {
        return;
    }
    let folder = reports();
    let file = folder.join("retrieval-report-bm25-text.json");
    let report = read(&file);
    let trec = tempfile::tempdir().unwrap();
    let data = locomo_file();
    tenure_eval_ok(
        &[
            "trec",
            file.to_str().unwrap(),
            "--suite",
            "locomo",
            "--data",
        ],
        &[&data, Path::new("--out"), trec.path()],
    );
    let run = trec.path().join("retrieval-report-bm25-text.run");
    let qrels = trec.path().join("retrieval-report-bm25-text.qrels");
    // The qrels hold every resolvable evidence turn: the gold of every case.
    let qrels_text = std::fs::read_to_string(&qrels).unwrap();
    let gold: usize = (report["cases"].as_array().unwrap().iter())
        .map(|c| c["caseId"].as_str().unwrap())
        .map(|id| {
            qrels_text
                .lines()
                .filter(|l| l.starts_with(&format!("{id} ")))
                .count()
        })
        .sum();
    assert_eq!(gold, qrels_text.lines().count());
    assert!(
        qrels_text.contains("conv-43/q18 0 conv-43/D11:26 1"),
        "the fixed typo is gold"
    );
    let measures = ["R@1", "R@5", "R@10", "R@25", "R@50", "nDCG@10", "RR"];
    let tool = rank_reference(
        &json!({"op": "measures", "run": run, "qrels": qrels, "measures": measures}),
    )["values"]
        .clone();
    let mut compared = 0;
    for case in report["cases"].as_array().unwrap() {
        let id = case["caseId"].as_str().unwrap();
        for m in measures {
            let ours = case["rankMetrics"][m].as_f64().unwrap();
            // A question whose context is empty is not in the run: trec_eval -c gives it 0.
            let theirs = tool.get(id).map_or(0.0, |v| v[m].as_f64().unwrap());
            assert!(
                (ours - theirs).abs() <= 1e-9,
                "{id} {m}: ours {ours}, ir_measures {theirs}"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 1982 * measures.len());
}

/// `serve` is a memory system over HTTP: LoCoMo through it, in both client modes, gives the
/// report of the backend it serves, case for case, every conversation seeded as its own user.
#[test]
fn a_provider_over_http_equals_the_backend_it_serves() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let data = locomo_file();
    let data_arg = data.to_str().unwrap();
    let (mut child, url) = spawn_serve(&[
        "--suite",
        "locomo",
        "--data",
        data_arg,
        "--backend",
        "bm25-text",
        "--port",
        "0",
        "--latency-ms",
        "5",
        "--quiet",
    ]);
    let folder = reports();
    let inproc = read(&folder.join("retrieval-report-bm25-text.json"));
    let dir = tempfile::tempdir().unwrap();
    for mode in [&[][..], &["--compat", "pmb"]] {
        let args = [
            &[
                "run",
                "--suite",
                "locomo",
                "--data",
                data_arg,
                "--backend",
                "http",
                "--url",
                &url,
            ][..],
            &[
                "--concurrency",
                "8",
                "--quiet",
                "--out",
                dir.path().to_str().unwrap(),
            ],
            mode,
        ]
        .concat();
        tenure_eval_ok(&args, &[]);
        let name = if mode.is_empty() {
            "http"
        } else {
            "http-compat"
        };
        let report = read(
            &dir.path()
                .join(format!("locomo/retrieval-report-{name}.json")),
        );
        let (ours, theirs) = (
            inproc["cases"].as_array().unwrap(),
            report["cases"].as_array().unwrap(),
        );
        assert_eq!(ours.len(), theirs.len());
        for (a, b) in ours.iter().zip(theirs) {
            assert_eq!(a["caseId"], b["caseId"]);
            assert_eq!(
                a["relevantBeliefs"], b["relevantBeliefs"],
                "{name} {}",
                a["caseId"]
            );
            assert_eq!(a["passed"], b["passed"]);
        }
        assert_eq!(report["manifest"]["backendStats"]["requests"]["add"], 5882);
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// `tenure-eval locomo`'s recall accuracy is LoCoMo's: its evaluation code's two expressions,
/// run by Python on each report's rankings (scripts/locomo_recall_reference.py), give the same
/// mean per category at every depth, for turns and for sessions.
#[test]
fn locomos_recall_accuracy_is_its_evaluation_codes() {
    if !needs(&[Need::Locomo, Need::Python3]) {
        return;
    }
    let data = locomo_file();
    let folder = reports();
    let files = [
        folder.join("retrieval-report-bm25-text.json"),
        folder.join("retrieval-report-tenure.json"),
        sessions_report(),
    ];
    let args = [&["locomo", "--format", "json", "--data"][..]].concat();
    let mut paths: Vec<&Path> = vec![&data];
    paths.extend(files.iter().map(PathBuf::as_path));
    let out = tenure_eval_ok(&args, &paths);
    let ours: Value = serde_json::from_slice(&out.stdout).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/locomo_recall_reference.py");
    for (run, file) in ours.as_array().unwrap().iter().zip(&files) {
        for (d, k) in [1, 5, 10, 25, 50].iter().enumerate() {
            let reference = std::process::Command::new("python3")
                .arg(&script)
                .args([&data, file])
                .arg(k.to_string())
                .output()
                .unwrap();
            assert!(
                reference.status.success(),
                "{}",
                String::from_utf8_lossy(&reference.stderr)
            );
            let theirs: Value = serde_json::from_slice(&reference.stdout).unwrap();
            for cell in run["cells"].as_array().unwrap() {
                let group = cell["group"].as_str().unwrap();
                let Some(t) = theirs.get(group) else {
                    assert_eq!(group, "all (1-4)");
                    continue;
                };
                let v = cell["recallAccuracy"][d].as_f64().unwrap();
                let t = t.as_f64().unwrap();
                assert!(
                    (v - t).abs() < 1e-12,
                    "{} {group} acc@{k}: ours {v}, LoCoMo's {t}",
                    file.display()
                );
            }
        }
    }
    // Per conversation: ten of them, in file order, adding up to the "all" cell (counts, and
    // the weighted means of the recall accuracy and of every rank measure).
    for run in ours.as_array().unwrap() {
        let convs = run["conversations"].as_array().unwrap();
        assert_eq!(convs.len(), 10);
        assert_eq!(convs[0]["group"], "conv-26");
        let all = &run["cells"][6];
        let sum = |key: &str| convs.iter().map(|c| c[key].as_u64().unwrap()).sum::<u64>();
        for key in ["cases", "passed", "questions"] {
            assert_eq!(sum(key), all[key].as_u64().unwrap(), "{key}");
        }
        let weighted = |value: &dyn Fn(&Value) -> f64, weight: &str| {
            convs
                .iter()
                .map(|c| value(c) * c[weight].as_f64().unwrap())
                .sum::<f64>()
                / all[weight].as_f64().unwrap()
        };
        // The JSON names its arrays: acc@10 is the third depth, and every rank value named.
        assert_eq!(run["recallDepths"], serde_json::json!([1, 5, 10, 25, 50]));
        assert_eq!(
            run["rankMeasures"].as_array().unwrap().len(),
            all["rank"].as_array().unwrap().len()
        );
        let acc10 = weighted(&|c| c["recallAccuracy"][2].as_f64().unwrap(), "questions");
        assert!((acc10 - all["recallAccuracy"][2].as_f64().unwrap()).abs() < 1e-9);
        for m in 0..all["rank"].as_array().unwrap().len() {
            let mean = weighted(&|c| c["rank"][m].as_f64().unwrap(), "cases");
            assert!(
                (mean - all["rank"][m].as_f64().unwrap()).abs() < 1e-9,
                "measure {m}"
            );
        }
    }
    // And the markdown has the table.
    let text = tenure_eval_ok(&["locomo", "--data"], &[&data, &files[0]]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("### LoCoMo by conversation"));
    // Alias-BM25 retrieves nothing: only the 4 questions without evidence count (1 each).
    let alias_all = &ours[1]["cells"][6];
    assert_eq!(alias_all["group"], "all");
    assert_eq!(
        alias_all["recallAccuracy"][4].as_f64().unwrap(),
        4.0 / 1986.0
    );
}

/// Cosine over a store that lacks LoCoMo's texts stops before any work (exit 2) and says the
/// command that fills it, with the flags that name this suite.
#[test]
fn missing_vectors_name_the_embed_command_for_this_file() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let data = locomo_file();
    let data_arg = data.to_str().unwrap();
    let out = tenure_eval(&[
        "run",
        "--suite",
        "locomo",
        "--data",
        data_arg,
        "--unit",
        "sessions",
        "--backend",
        "cosine",
        "--quiet",
        "--out",
        "/nonexistent/never-written",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let fill =
        format!("tenure-eval embed --model DIR --suite locomo --data {data_arg} --unit sessions");
    assert!(stderr.contains(&fill), "{stderr}");
}

/// Cosine with MiniLM in process on LoCoMo: `embed --suite locomo --data` fills a store with
/// every turn and question of one conversation (conv-26, cut from the released file), then
/// `run --backend bm25,cosine` over that store exits 0 with every question of it; a second
/// `embed` finds nothing left to compute.
#[test]
fn cosine_runs_on_a_conversation_embedded_in_process() {
    if !needs(&[Need::Locomo, Need::Onnx]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let released: Value = read(&locomo_file());
    let one = dir.path().join("conv-26.json");
    std::fs::write(&one, serde_json::to_vec(&json!([released[0]])).unwrap()).unwrap();
    let model = crate::common::needs::env_path("TENURE_EVAL_MODELS")
        .unwrap()
        .join("all-minilm-l6-v2");
    let store = dir.path().join("stores");
    let embed = || {
        let base = ["embed", "--suite", "locomo", "--data"];
        let paths: [&Path; 5] = [
            &one,
            Path::new("--model"),
            &model,
            Path::new("--store-dir"),
            &store,
        ];
        String::from_utf8(tenure_eval_ok(&base, &paths).stderr).unwrap()
    };
    // conv-26's 419 turns and the questions of its 197 cases, each text once.
    let first = embed();
    let needed: usize = first
        .split(" texts needed")
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{first}"));
    assert!((419..=616).contains(&needed), "{first}");
    assert!(
        first.contains(&format!("{needed} texts needed, {needed} embedded in")),
        "{first}"
    );
    let again = embed();
    assert!(
        again.contains(&format!("{needed} texts needed, 0 embedded in"))
            && again.contains(&format!("{needed} already stored")),
        "{again}"
    );
    let out = dir.path().join("reports");
    tenure_eval_ok(
        &[
            "run",
            "--suite",
            "locomo",
            "--backend",
            "bm25,cosine",
            "--model",
            "all-minilm-l6-v2",
            "--quiet",
            "--data",
        ],
        &[
            &one,
            Path::new("--store-dir"),
            &store,
            Path::new("--out"),
            &out,
        ],
    );
    let cosine = read(&out.join("locomo/all-minilm-l6-v2-retrieval-report-vector.json"));
    let cases = cosine["cases"].as_array().unwrap();
    // conv-26 asks 199 questions; q30 and q46 have no evidence.
    assert_eq!(
        (
            cases.len(),
            cosine["manifest"]["excluded"].as_array().unwrap().len()
        ),
        (197, 2)
    );
    assert_eq!(
        cosine["manifest"]["releasedInput"], false,
        "a cut of the released file"
    );
    let found = cases
        .iter()
        .filter(|c| c["rankMetrics"]["R@50"].as_f64().unwrap() > 0.0)
        .count();
    assert!(
        found > 100,
        "cosine found evidence for {found} of 197 questions"
    );
}
