//! Every command that reads a benchmark's files says so when they are not the benchmark's
//! release (issue: no wrong number with exit 0): the list of commands is generated from
//! `tenure-eval --help` (each whose `--help` offers `--data`), so a new command that reads
//! benchmark files is held to the rule or this test names it. Each is run on BEAM's layout in a
//! small folder written here (not BEAM's released bytes) and must say "not the benchmark's
//! released files" on stderr, once (a study whose sizes run in child processes included).

use crate::common::needs::{locomo_file, needs, Need};
use crate::common::{cli, tenure_eval, tenure_eval_ok};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;

const SAID: &str = "not the benchmark's released files";

/// The commands whose `--help` offers `--data`.
fn commands_reading_data() -> Vec<String> {
    crate::common::commands()
        .into_iter()
        .filter(|c| {
            let help = tenure_eval(&[c, "--help"]).stdout;
            String::from_utf8_lossy(&help).contains("--data <")
        })
        .collect()
}

/// `serve` runs until stopped: start it, read stderr until it listens, stop it.
fn serve_says(data: &Path) -> String {
    let mut child = cli(&[
        "serve",
        "--suite",
        "beam",
        "--backend",
        "bm25-text",
        "--port",
        "0",
        "--data",
    ])
    .arg(data)
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let mut said = String::new();
    for line in BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        said.push_str(&line);
        said.push('\n');
        if line.contains("listening") || line.contains("serving") || line.contains("error") {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    said
}

#[test]
fn every_command_that_reads_benchmark_files_says_when_they_are_not_the_release() {
    let dir = tempfile::tempdir().unwrap();
    let data = crate::beam::sample(dir.path());
    let d = data.to_str().unwrap();
    let out = dir.path().join("out");
    let o = |name: &str| out.join(name).display().to_string();
    // A report and a shard folder of a run on the same files, for the commands that read them.
    // Every command reads the small folder as `--suite beam --data DIR`: ARGS around that.
    let on_beam = |head: &[&str], tail: &[&str]| -> Vec<String> {
        let beam = ["--suite", "beam", "--data", d];
        [head, &beam[..], tail]
            .concat()
            .into_iter()
            .map(String::from)
            .collect()
    };
    let run = |tail: &[&str]| {
        let args = on_beam(
            &["run"],
            &[&["--backend", "bm25-text", "--quiet"][..], tail].concat(),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        tenure_eval_ok(&args, &[]);
    };
    // A report and a shard folder of a run on the same files, for the commands that read them.
    run(&["--out", &o("r")]);
    run(&["--shard", "1/1", "--out", &o("shard")]);
    let report = o("r/beam/retrieval-report-bm25-text.json");
    let locomo_copy = dir.path().join("locomo-copy.json");
    let args = on_beam(&["trec", &report], &["--out", &o("exported")]);
    tenure_eval_ok(&args.iter().map(String::as_str).collect::<Vec<_>>(), &[]);
    let trec_run = o("exported/retrieval-report-bm25-text.run");

    let commands = commands_reading_data();
    assert!(commands.len() >= 10, "{commands:?}");
    for command in &commands {
        let args: Vec<String> = match command.as_str() {
            "run" | "static" | "session" => on_beam(
                &[command],
                &["--backend", "bm25-text", "--out", &o(command)],
            ),
            "validate" | "alias-learning" => on_beam(&[command], &[]),
            "embed" => on_beam(&["embed"], &["--export-texts", "--out", &o("texts.jsonl")]),
            "models" => on_beam(&["models"], &["--model", "hashed", "--out", &o("models")]),
            "scale" => on_beam(&["scale"], &["--sizes", "1k"]),
            "beam" => vec!["beam".into(), report.clone(), "--data".into(), d.into()],
            "trec" => on_beam(&["trec", &report], &["--out", &o("trec")]),
            "compare" => on_beam(&["compare", &report, &report], &[]),
            "tables" => on_beam(&["tables", &report, "--trec-run", &trec_run], &[]),
            "html" => on_beam(&["html", &report], &["--out", &o("page.html")]),
            "merge" => on_beam(&["merge", &o("shard")], &["--out", &o("merged")]),
            "serve" => {
                let said = serve_says(&data);
                assert!(said.contains(SAID), "serve said:\n{said}");
                continue;
            }
            // LoCoMo's file, re-serialised (the same data, other bytes), when this machine has it.
            "locomo" => {
                if !needs(&[Need::Locomo]) {
                    continue;
                }
                let value: serde_json::Value =
                    serde_json::from_slice(&std::fs::read(locomo_file()).unwrap()).unwrap();
                std::fs::write(&locomo_copy, serde_json::to_vec(&value).unwrap()).unwrap();
                let copy = locomo_copy.display().to_string();
                tenure_eval_ok(
                    &[
                        "run",
                        "--suite",
                        "locomo",
                        "--data",
                        &copy,
                        "--backend",
                        "bm25-text",
                        "--quiet",
                        "--out",
                        &o("locomo"),
                    ],
                    &[],
                );
                vec![
                    "locomo".into(),
                    o("locomo/locomo/retrieval-report-bm25-text.json"),
                    "--data".into(),
                    copy,
                ]
            }
            // LongMemEval's released bytes are not known here (its files are hosted where these
            // machines cannot reach): no command can tell a copy from the release.
            "longmemeval" => continue,
            other => panic!("{other} reads --data: add it to this test"),
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = tenure_eval(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        // BEAM has no session cases: `session` refuses it (exit 2), having said what it read;
        // `scale` measures alias-BM25, and refuses BEAM's items, which have no aliases.
        let code = if command == "session" || command == "scale" {
            2
        } else {
            0
        };
        assert_eq!(run.status.code(), Some(code), "{args:?}: {stderr}");
        assert_eq!(
            stderr.matches(SAID).count(),
            1,
            "{args:?} says it once:\n{stderr}"
        );
    }
}
