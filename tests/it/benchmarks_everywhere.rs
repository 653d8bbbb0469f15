//! Each new benchmark through every command that takes a suite (issue: "each benchmark through
//! everything"), on small files written in its format: `validate`, `run` (bm25-text and cosine
//! over the built-in hashed embedder, which needs no model), `trec`, `compare`, `tables`,
//! `html`, `models`, `embed --export-texts`, `serve` with the `http` backend against it,
//! `--shard` and `merge`, and `--resume`. Each step's output is checked for what it must hold:
//! the served system gives the in-process backend's rankings, the shards merge into the whole
//! run, a resumed finished run sends nothing again.

use crate::common::{cli, spawn_serve, strip_measurements};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn ok(args: &[impl AsRef<str>], paths: &[&Path]) -> std::process::Output {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let out = cli(&args).args(paths).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?} {paths:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn read(path: &Path) -> Value {
    let mut v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    strip_measurements(&mut v);
    v
}

fn write(path: &Path, value: &Value) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec(value).unwrap()).unwrap();
    path.to_path_buf()
}

/// Each case's ranking in a report.
fn rankings(report: &Value) -> Vec<(String, Value)> {
    (report["cases"].as_array().unwrap().iter())
        .map(|c| {
            (
                c["caseId"].as_str().unwrap().to_string(),
                c["relevantBeliefs"].clone(),
            )
        })
        .collect()
}

/// A LoCoMo file of one conversation with its observations and summaries.
fn small_locomo(dir: &Path) -> PathBuf {
    let turn = |id: &str, speaker: &str, text: &str| json!({"speaker": speaker, "dia_id": id, "text": text});
    write(
        &dir.join("locomo10.json"),
        &json!([{
            "sample_id": "conv-1",
            "conversation": {
                "speaker_a": "Ann", "speaker_b": "Bob",
                "session_1_date_time": "1:00 pm on 1 March, 2023",
                "session_1": [turn("D1:1", "Ann", "I started pottery classes downtown."),
                              turn("D1:2", "Bob", "That sounds relaxing.")],
                "session_2_date_time": "1:00 pm on 1 May, 2023",
                "session_2": [turn("D2:1", "Ann", "My garden is blooming with tulips."),
                              turn("D2:2", "Bob", "Send me a photo of the tulips!")],
            },
            "observation": {
                "session_1_observation": {"Ann": [["Ann takes pottery classes.", "D1:1"]],
                                          "Bob": [["Bob finds pottery relaxing.", "D1:2"]]},
                "session_2_observation": {"Ann": [["Ann grows tulips in her garden.", "D2:1, D2:2"]]},
            },
            "session_summary": {"session_1_summary": "Ann told Bob about her pottery classes.",
                                "session_2_summary": "Ann's tulips bloomed."},
            "qa": [
                {"question": "What classes did Ann start?", "evidence": ["D1:1"], "category": 4},
                {"question": "What flowers does Ann grow?", "evidence": ["D2:1"], "category": 4},
            ],
        }]),
    )
}

/// Every suite of the small files: its flags and its label.
fn suites(dir: &Path) -> Vec<(Vec<String>, &'static str)> {
    let locomo = small_locomo(dir);
    let beam = dir.join("chats");
    let msg =
        |role: &str, id: u64, content: &str| json!({"role": role, "id": id, "content": content});
    let mut first = msg("user", 0, "My dashboard API responds in 400ms ->-> 1,1");
    first["time_anchor"] = json!("March-15-2024");
    write(
        &beam.join("100K/1/chat.json"),
        &json!([{"batch_number": 1, "time_anchor": null, "turns": [
            [first, msg("assistant", 1, "Caching would help.")],
            [msg("user", 2, "Caching cut the dashboard API to 250ms ->-> 1,2"), msg("assistant", 3, "Good.")],
        ]}]),
    );
    write(
        &beam.join("100K/1/probing_questions/probing_questions.json"),
        &json!({"knowledge_update": [{"question": "How fast is the dashboard API?",
            "source_chat_ids": {"original_info": [0], "updated_info": [2]}}],
            "information_extraction": [{"question": "What would help?", "source_chat_ids": [1]}]}),
    );
    let plus = write(
        &dir.join("locomo_plus.json"),
        &json!([{"relation_type": "causal", "cue_dialogue": "A: I hurt my wrist at pottery.\nB: Ouch.",
                 "trigger_query": "A: I cannot lift the watering can.", "time_gap": "two weeks later"}]),
    );
    let tmd = dir.join("tmd");
    write(
        &tmd.join("ConversationData/26.json"),
        &json!({"session_1_date_time": "1:56 AM on 8 May, 2023", "session_1": [
            {"speaker": "Ann", "dia_id": "D1:1", "text": "I went hiking.",
             "date_time": "01:56:04 AM on Monday 08 May, 2023", "response_number": "0"},
            {"speaker": "Bob", "dia_id": "D1:2", "text": "Where did you hike?",
             "date_time": "01:56:40 AM on Monday 08 May, 2023", "response_number": "1"}]}),
    );
    write(
        &tmd.join("TestData/content_time_qs/content_time_qs.json"),
        &json!({"file_26": [{"questions": ["What did I do on May 8th, hiking?"], "relevant_docs": [0]}]}),
    );
    let s = |p: &Path| p.display().to_string();
    vec![
        (
            vec!["--suite".into(), "beam".into(), "--data".into(), s(&beam)],
            "beam",
        ),
        (
            vec![
                "--suite".into(),
                "locomo".into(),
                "--data".into(),
                s(&locomo),
                "--unit".into(),
                "observations".into(),
            ],
            "locomo-observations",
        ),
        (
            vec![
                "--suite".into(),
                "locomo-plus".into(),
                "--data".into(),
                s(&plus),
                "--locomo".into(),
                s(&locomo),
            ],
            "locomo-plus",
        ),
        (
            vec![
                "--suite".into(),
                "temporal-memory".into(),
                "--data".into(),
                s(&tmd),
            ],
            "temporal-memory",
        ),
    ]
}

#[test]
fn each_new_benchmark_runs_through_every_command() {
    let dir = tempfile::tempdir().unwrap();
    for (flags, label) in suites(dir.path()) {
        let suite: Vec<&str> = flags.iter().map(String::as_str).collect();
        // The command and its flags, the suite's flags, then the rest.
        let with = |head: &[&str], tail: &[&str]| -> Vec<String> {
            (head.iter().chain(&suite).chain(tail))
                .map(|s| s.to_string())
                .collect()
        };
        let p = |path: &Path| path.display().to_string();
        let out = dir.path().join(label);
        ok(&with(&["validate"], &[]), &[]);
        ok(
            &with(
                &["run", "--backend", "bm25-text", "--quiet"],
                &["--out", &p(&out.join("run"))],
            ),
            &[],
        );
        ok(
            &with(
                &["run", "--backend", "cosine", "--model", "hashed", "--quiet"],
                &["--out", &p(&out.join("run"))],
            ),
            &[],
        );
        let bm25 = out
            .join("run")
            .join(label)
            .join("retrieval-report-bm25-text.json");
        let cosine = out
            .join("run")
            .join(label)
            .join("hashed-bow-384-retrieval-report-vector.json");
        assert!(bm25.is_file() && cosine.is_file(), "{label}");
        // TREC files: the qrels hold every case's gold.
        ok(
            &with(
                &["trec", bm25.to_str().unwrap()],
                &["--out", &p(&out.join("trec"))],
            ),
            &[],
        );
        let qrels =
            std::fs::read_to_string(out.join("trec/retrieval-report-bm25-text.qrels")).unwrap();
        assert!(!qrels.is_empty(), "{label}");
        ok(&with(&["compare", &p(&bm25), &p(&cosine)], &[]), &[]);
        ok(
            &["tables", bm25.to_str().unwrap(), cosine.to_str().unwrap()],
            &[],
        );
        ok(
            &with(
                &["html", bm25.to_str().unwrap(), "--quiet"],
                &["--out", &p(&out.join("page.html"))],
            ),
            &[],
        );
        ok(
            &with(
                &["models", "--model", "hashed", "--quiet"],
                &["--out", &p(&out.join("models"))],
            ),
            &[],
        );
        let texts = out.join("texts.jsonl");
        ok(
            &with(
                &["embed", "--export-texts", "--quiet"],
                &["--out", &p(&texts)],
            ),
            &[],
        );
        assert!(
            std::fs::read_to_string(&texts).unwrap().lines().count() > 0,
            "{label}"
        );
        // A served bm25-text is a memory system that ranks as the backend in process.
        let serve = with(&[], &["--backend", "bm25-text", "--port", "0", "--quiet"]);
        let serve: Vec<&str> = serve.iter().map(String::as_str).collect();
        let (mut child, url) = spawn_serve(&serve);
        let served = ok(
            &with(
                &["run", "--backend", "http", "--url", &url, "--quiet"],
                &["--out", &p(&out.join("http"))],
            ),
            &[],
        );
        let _ = child.kill();
        let _ = child.wait();
        drop(served);
        let http = read(
            &out.join("http")
                .join(label)
                .join("retrieval-report-http.json"),
        );
        assert_eq!(rankings(&http), rankings(&read(&bm25)), "{label}: served");
        // Two shards merged are the whole run.
        let mut shards = Vec::new();
        for k in ["1/2", "2/2"] {
            let shard = out.join(format!("shard{}", &k[..1]));
            ok(
                &with(
                    &["run", "--backend", "bm25-text", "--shard", k, "--quiet"],
                    &["--out", &p(&shard)],
                ),
                &[],
            );
            shards.push(shard);
        }
        let mut merge = vec![
            "merge",
            shards[0].to_str().unwrap(),
            shards[1].to_str().unwrap(),
        ];
        merge.extend(suite.iter().copied());
        merge.extend(["--quiet", "--out"]);
        ok(&merge, &[&out.join("merged")]);
        let merged = read(
            &out.join("merged")
                .join(label)
                .join("retrieval-report-bm25-text.json"),
        );
        assert_eq!(rankings(&merged), rankings(&read(&bm25)), "{label}: merged");
        // A finished run resumed sends nothing again and writes the same report.
        ok(
            &with(
                &["run", "--backend", "bm25-text", "--resume", "--quiet"],
                &["--out", &p(&out.join("run"))],
            ),
            &[],
        );
        assert_eq!(
            rankings(&read(&bm25)),
            rankings(&merged),
            "{label}: resumed"
        );
    }
}
