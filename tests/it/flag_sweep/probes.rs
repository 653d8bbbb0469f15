//! What the sweep runs: the fixtures the bases read, each command's base invocation, the value
//! tried for each flag, and the circumstance a flag needs to act in.

use super::tree::{with_flag, Flag};
use crate::common::{cli, needs};
use std::path::PathBuf;

/// What the bases read, made once for every test of this file: reports of bm25 and cosine on
/// pmb and paper, two shards, a history, a TREC run, BEAM's layout with a run on it,
/// LongMemEval's sample with a run on it.
pub(super) struct Fixtures {
    pub(super) dir: PathBuf,
}

pub(super) fn ok(args: &[&str]) {
    let out = cli(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Fixtures {
    pub(super) fn get() -> Fixtures {
        let dir = crate::common::shared_run("flag-sweep", "1", |d| {
            let p = |name: &str| d.join(name).display().to_string();
            let run = |suite: &str, backends: &str, extra: &[&str]| {
                ok(&[
                    &["run", "--suite", suite, "--backend", backends, "--quiet"][..],
                    extra,
                ]
                .concat());
            };
            run("pmb", "bm25,cosine", &["--out", &p("r")]);
            run("paper", "bm25,cosine", &["--out", &p("p")]);
            run("pmb", "bm25", &["--shard", "1/2", "--out", &p("s1")]);
            run("pmb", "bm25", &["--shard", "2/2", "--out", &p("s2")]);
            // A history with a regression: one label, bm25 then cosine.
            for (commit, backend) in [("a1", "bm25"), ("b2", "cosine")] {
                run(
                    "pmb",
                    backend,
                    &[
                        "--out",
                        &p("hr"),
                        "--history",
                        &p("h"),
                        "--commit",
                        commit,
                        "--label",
                        "mine",
                    ],
                );
            }
            ok(&[
                "trec",
                &p("r/pmb/retrieval-report-tenure.json"),
                "--out",
                &p("t"),
            ]);
            crate::beam::sample(d);
            // BEAM's layout with one chat of the two; LongMemEval's sample less a question.
            let one = d.join("chats-one");
            crate::beam::sample(&one);
            std::fs::rename(one.join("chats"), d.join("chats-one-tmp")).unwrap();
            std::fs::remove_dir_all(&one).unwrap();
            std::fs::rename(d.join("chats-one-tmp"), &one).unwrap();
            std::fs::remove_dir_all(one.join("100K/2")).unwrap();
            ok(&[
                "run",
                "--suite",
                "beam",
                "--data",
                &p("chats"),
                "--backend",
                "bm25-text",
                "--quiet",
                "--out",
                &p("br"),
            ]);
            let lme = crate::common::repo("tests/data/longmemeval-sample.json");
            let mut less: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&lme).unwrap()).unwrap();
            less.as_array_mut().unwrap().pop();
            std::fs::write(d.join("lme-less.json"), less.to_string()).unwrap();
            ok(&[
                "run",
                "--suite",
                "longmemeval",
                "--data",
                lme.to_str().unwrap(),
                "--backend",
                "bm25-text",
                "--quiet",
                "--out",
                &p("lr"),
            ]);
        });
        Fixtures { dir }
    }

    pub(super) fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }
}

/// The base invocation of a command: one that succeeds, small; output paths are relative to
/// the fresh folder it runs in. `None`: this machine lacks what it reads (LoCoMo's file).
pub(super) fn base(command: &str, fx: &Fixtures, url: &str) -> Option<Vec<String>> {
    let r = |name: &str| fx.path(&format!("r/pmb/{name}"));
    let (bm25, cosine) = (
        r("retrieval-report-tenure.json"),
        r("all-minilm-l6-v2-retrieval-report-vector.json"),
    );
    let statements = crate::common::repo("cases/temporal/statements.jsonl")
        .display()
        .to_string();
    let locomo =
        || needs::needs(&[needs::Need::Locomo]).then(|| needs::locomo_file().display().to_string());
    let args: Vec<String> = match command {
        "run" | "static" | "session" => vec![command, "--suite", "pmb", "--backend", "bm25"]
            .into_iter()
            .map(String::from)
            .chain(["--out".into(), "out".into()])
            .collect(),
        "validate" => vec!["validate".into(), "--suite".into(), "pmb".into()],
        "verify" => vec!["verify".into(), bm25],
        "claims" => {
            let mut files: Vec<String> = std::fs::read_dir(fx.dir.join("p/paper"))
                .unwrap()
                .map(|e| e.unwrap().path().display().to_string())
                .filter(|p| p.ends_with(".json") && !p.ends_with(".manifest.json"))
                .collect();
            files.sort();
            [vec!["claims".to_string()], files].concat()
        }
        "compare" => vec!["compare".into(), bm25, cosine],
        "tables" => vec!["tables".into(), bm25, cosine],
        "trec" => vec!["trec".into(), bm25, "--out".into(), "out".into()],
        "plot" => vec![
            "plot".into(),
            r("session-retrieval-report-tenure.json"),
            r("all-minilm-l6-v2-session-retrieval-report-vector.json"),
            "--out".into(),
            "fig.svg".into(),
        ],
        "html" => vec![
            "html".into(),
            bm25,
            cosine,
            "--out".into(),
            "page.html".into(),
        ],
        "embed" => [
            "embed",
            "--suite",
            "pmb",
            "--export-texts",
            "--out",
            "texts.jsonl",
        ]
        .map(String::from)
        .to_vec(),
        "models" => [
            "models",
            "--suite",
            "pmb",
            "--model",
            "hashed",
            "--no-chance",
            "--out",
            "out",
        ]
        .map(String::from)
        .to_vec(),
        "serve" => ["serve", "--suite", "pmb", "--backend", "bm25"]
            .map(String::from)
            .to_vec(),
        "doctor" => vec!["doctor".into(), "--url".into(), url.into()],
        "scale" => ["scale", "--sizes", "1k", "--out", "out"]
            .map(String::from)
            .to_vec(),
        "flywheel" => ["flywheel", "--sessions", "3", "--seed", "7", "--out", "out"]
            .map(String::from)
            .to_vec(),
        "temporal classify" | "temporal eval" | "temporal features" => {
            let sub = command.split(' ').nth(1).unwrap();
            vec!["temporal".into(), sub.into(), statements]
        }
        "temporal draw" => [
            "temporal",
            "draw",
            "--locomo",
            &locomo()?,
            "--part",
            "dev",
            "--n",
            "5",
        ]
        .map(String::from)
        .to_vec(),
        "locomo" => {
            let file = locomo()?;
            let dir = crate::common::shared_run("flag-sweep-locomo", "1", |d| {
                let out = d.display().to_string();
                ok(&[
                    "run",
                    "--suite",
                    "locomo",
                    "--data",
                    &file,
                    "--backend",
                    "bm25-text",
                ]
                .into_iter()
                .chain(["--quiet", "--out", &out])
                .collect::<Vec<_>>());
            });
            let report = dir.join("locomo/retrieval-report-bm25-text.json");
            vec![
                "locomo".into(),
                report.display().to_string(),
                "--data".into(),
                file,
            ]
        }
        "beam" => vec![
            "beam".into(),
            fx.path("br/beam/retrieval-report-bm25-text.json"),
            "--data".into(),
            fx.path("chats"),
        ],
        "alias-learning" => vec![
            "alias-learning".into(),
            "--suite".into(),
            "beam".into(),
            "--data".into(),
            fx.path("chats"),
        ],
        "longmemeval" => vec![
            "longmemeval".into(),
            fx.path("lr/longmemeval/retrieval-report-bm25-text.json"),
            "--data".into(),
            crate::common::repo("tests/data/longmemeval-sample.json")
                .display()
                .to_string(),
        ],
        "config" => vec!["config".into(), "run".into()],
        "cache list" => vec!["cache".into(), "list".into()],
        "cache prune" => vec!["cache".into(), "prune".into(), "--all".into()],
        "history" => vec!["history".into(), fx.path("h")],
        "merge" => vec![
            "merge".into(),
            fx.path("s1"),
            fx.path("s2"),
            "--out".into(),
            "out".into(),
        ],
        other => panic!("no base invocation for `{other}`: add one to this test"),
    };
    Some(args)
}

/// The value to try for `flag` of `command` (an enum flag without an entry here takes a
/// possible value other than its default). `None`: no entry, which fails the test naming it.
pub(super) fn value(command: &str, flag: &str, fx: &Fixtures) -> Option<String> {
    let report = fx.path("r/pmb/retrieval-report-tenure.json");
    let v = match (command, flag) {
        (_, "--progress") => "lines".into(),
        ("flywheel", "--sessions") => "4".into(),
        ("flywheel", "--initial-beliefs" | "--growth" | "--references" | "--forms") => "5".into(),
        ("flywheel", "--seed-min" | "--seed-max" | "--ceiling" | "--vector-queries") => "2".into(),
        ("flywheel", "--off") => "seeding".into(),
        ("flywheel", "--variants") => "all,seed-only".into(),
        ("flywheel", "--sweep") => "collision=0,0.3".into(),
        ("flywheel", "--sizes") => "100".into(),
        ("flywheel", "--floors") => "0.6".into(),
        (
            "flywheel",
            "--tool-reuse" | "--zipf" | "--topic-skew" | "--collision" | "--clarify" | "--drift"
            | "--supersede" | "--old-form" | "--merge" | "--second-form",
        ) => "0.45".into(),
        ("beam" | "alias-learning", "--data") => fx.path("chats-one"),
        ("longmemeval", "--data") => fx.path("lme-less.json"),
        ("plot", "--format") => "png".into(),
        (_, "--trec-run") => fx.path("t/retrieval-report-tenure.run"),
        (_, "--table") => "1".into(),
        (_, "--split") => "dev".into(),
        ("temporal draw", "--part") => "test".into(),
        // The base's own labels as the predictions: every statement agrees.
        ("temporal eval", "--predicted") => crate::common::repo("cases/temporal/statements.jsonl")
            .display()
            .to_string(),
        // Paths: a file or folder that exists where one is read, a new name where one is written.
        (_, "--corpus" | "--cases" | "--sessions" | "--topics" | "--qrels" | "--locomo") => {
            fx.path("t/retrieval-report-tenure.qrels")
        }
        (_, "--data" | "--corrections" | "--beam" | "--livechat" | "--slack") => fx.path("chats"),
        (_, "--providers-config" | "--import-upstream" | "--import-vectors" | "--texts") => report,
        (_, "--baseline") => fx.path("r/pmb/all-minilm-l6-v2-retrieval-report-vector.json"),
        (_, "--replay" | "--store-dir" | "--index-cache" | "--inputs-from") => fx.path("r"),
        // A file that is no library: loading it fails (a missing one is refused as it is read).
        (_, "--ort-lib") => crate::common::repo("Cargo.toml").display().to_string(),
        // The model the classifier's embedded weights were trained with: it classifies (where
        // ONNX Runtime is, as in the gate) or adds `embedding` to each line.
        (_, "--embedder") => crate::common::needs::env_path("TENURE_EVAL_MODELS")
            .unwrap_or_else(|| crate::common::repo("models"))
            .join("all-minilm-l6-v2")
            .display()
            .to_string(),
        (_, "--out") if command == "html" => "other.html".into(),
        (_, "--out") if command == "plot" => "other.svg".into(),
        (_, "--out") if command == "embed" => "other.jsonl".into(),
        (_, "--out" | "--record" | "--history" | "--export") => "elsewhere".into(),
        (_, "--junit") => "junit.xml".into(),
        (_, "--summary-md") => "summary.md".into(),
        (_, "--html") => "page.html".into(),
        (_, "--plot") => "figure.svg".into(),
        (_, "--request-log") => "requests.log".into(),
        // Names and ids.
        ("temporal draw", "--seed") => "35".into(),
        (_, "--suite") if command == "alias-learning" => "locomo".into(),
        (_, "--suite") => "paper".into(),
        (_, "--case" | "--explain") if command == "plot" => "pmb-001".into(),
        (_, "--case" | "--explain") => "pmb-001".into(),
        (_, "--category") => "Adversarial".into(),
        (_, "--label" | "--name" | "--store-name" | "--title" | "--commit") => "other".into(),
        (_, "--provider") => "mem0".into(),
        (_, "--url") => "http://127.0.0.1:9".into(),
        (_, "--bind") => "127.0.0.2".into(),
        (_, "--api-key-env") => "NO_SUCH_KEY".into(),
        (_, "--query-prefix") => "query: ".into(),
        (_, "--document-prefix") => "passage: ".into(),
        (_, "--model") if command == "models" => "random".into(),
        (_, "--model") => "hashed".into(),
        (_, "--backend") if command == "doctor" => "cosine".into(),
        (_, "--backend") => "cosine".into(),
        (_, "--reference") => "bm25-text".into(),
        (_, "--fuse") => "bm25,cosine".into(),
        (_, "--metrics") => "RR".into(),
        (_, "--metric") => "recall".into(),
        (_, "--primacy-keywords") => "always".into(),
        (_, "--tier") => "500K".into(),
        (_, "--known-difference") => "C1".into(),
        (_, "--sizes") => "2k".into(),
        (_, "--shard") => "1/2".into(),
        (_, "--source") => "elsewhere".into(),
        // Lists of numbers.
        (_, "--combsum-weights") => "0.3,0.7".into(),
        (_, "--volatility-rates") => "0,0.01,0.1".into(),
        (_, "--tier-thresholds") => "0.8,0.5,0.2".into(),
        // Numbers.
        (_, "--seed" | "--splice-seed") => "8".into(),
        (_, "--limit" | "--top" | "--queries" | "--case-count") => "3".into(),
        (_, "--repeat") => "2".into(),
        (_, "--max-errors") => "5".into(),
        (_, "--port") => "0".into(),
        (_, "--alpha" | "--tolerance") => "0.2".into(),
        (_, "--resamples") => "999".into(),
        (_, "--timeout" | "--retries" | "--concurrency" | "--threads" | "--workers") => "2".into(),
        (_, "--patience-ms" | "--seed-delay-ms" | "--settle-ms" | "--latency-ms") => "7".into(),
        (_, "--batch-size" | "--batch-tokens") => "512".into(),
        (_, "--min-active-passes") => "100".into(),
        (_, "--max-precision-drop") => "0.001".into(),
        (_, "--min-score") => "5".into(),
        (_, "--recency") => "0.5".into(),
        (_, "--recency-window") => "10".into(),
        (_, "--cosine-floor" | "--fusion-floor" | "--edge-threshold") => "0.9".into(),
        (_, "--spread-fraction" | "--revisit-rate" | "--revisit-cap") => "0.3".into(),
        (_, "--revisit-threshold") => "0.9".into(),
        (_, "--hnsw-m" | "--hnsw-ef-construction" | "--hnsw-ef-search" | "--ef-search") => {
            "8".into()
        }
        (_, "--hnsw-dims" | "--hnsw-rerank" | "--fusion-depth") => "4".into(),
        (_, "--rrf-k") => "30".into(),
        (_, "--established-after") => "3".into(),
        (_, "--lambda") => "2".into(),
        (_, "--n") => "6".into(),
        _ => return None,
    };
    Some(v)
}

/// Where a flag acts only in some circumstances, the circumstance: flags set on the base for
/// this flag's probe (and for its reference runs). `--quiet` silences notes, so the base gets
/// one (a paper sidecar among the reports, which is skipped with a note); serve's progress is
/// its corpus being embedded.
pub(super) fn context(
    command: &str,
    flag: &str,
    fx: &Fixtures,
) -> Vec<(&'static str, Option<String>)> {
    let sidecar = fx.path("p/paper/retrieval-report.manifest.json");
    match (command, flag) {
        ("beam" | "longmemeval" | "tables" | "locomo", "--quiet") => vec![("", Some(sidecar))],
        ("flywheel", "--quiet") => vec![("--progress", Some("lines".into()))],
        ("serve", "--progress") => vec![
            ("--backend", Some("cosine".into())),
            ("--model", Some("hashed".into())),
        ],
        _ => Vec::new(),
    }
}

/// `base` with each of `context`'s flags set (a positional argument where the flag is empty).
pub(super) fn in_context(base: &[String], context: &[(&str, Option<String>)]) -> Vec<String> {
    let mut args = base.to_vec();
    for (flag, value) in context {
        if flag.is_empty() {
            args.extend(value.clone());
            continue;
        }
        let flag = Flag {
            name: flag.to_string(),
            takes_value: value.is_some(),
            possible: Vec::new(),
            default: None,
        };
        args = with_flag(&args, &flag, value.as_deref());
    }
    args
}
