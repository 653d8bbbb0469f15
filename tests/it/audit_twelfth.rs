//! What a twelfth audit found, each kept closed here: a turn's `driftScore` (what Figure 2 and
//! the tables read) edited in a report that `verify` still called verified; a composite run
//! resumed, sharded or looked at again that answered otherwise than uninterrupted; a journal of
//! another selection lending its answers by place; flags a session, a kept store or a server
//! ignored; a history that counted one measurement twice, or a replay, a second look or
//! repeats as one, or a merge given twice as two; answers the client could not read, scored as
//! a good run.

use crate::common::needs::{data_file, locomo_file, needs, Need};
use crate::common::{
    pmb_session, read_json, refused, strip_measurements, tenure_eval_ok, tenure_eval_with,
};
use serde_json::Value;
use std::path::Path;

/// Write `value` to `name` in `dir` and `verify` it (the report alone: no manifest beside it).
fn verify_edited(dir: &std::path::Path, name: &str, value: &Value) -> (Option<i32>, String) {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(value).unwrap()).unwrap();
    let out = tenure_eval_with(&["verify", "--no-inputs"], &[&path]);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// `driftScore` means what its writer meant: in a report of ours the paper's noise share (with
/// PrecisionMemBench's 1 − precision beside it as `precisionDriftScore`), in PrecisionMemBench's
/// own reports 1 − precision, 0 where precision is null. `verify` checks each by its rule; the
/// published session reports, read as they are, still verify.
#[test]
fn verify_checks_a_turns_drift_by_the_rule_of_the_report_that_wrote_it() {
    let dir = tempfile::tempdir().unwrap();
    let ours: Value =
        serde_json::from_slice(&std::fs::read(pmb_session(dir.path())).unwrap()).unwrap();
    let (code, said) = verify_edited(dir.path(), "ours.json", &ours);
    assert_eq!(code, Some(0), "{said}");
    // A turn with nothing of noise: its noise share is 0, whatever its precision.
    let i = ours["cases"]
        .as_array()
        .unwrap()
        .iter()
        .position(|t| t["noiseBeliefIds"].as_array().unwrap().is_empty())
        .unwrap();
    let mut edited = ours.clone();
    edited["cases"][i]["driftScore"] = 0.3.into();
    let (code, said) = verify_edited(dir.path(), "ours-edited.json", &edited);
    assert_eq!(code, Some(1), "{said}");
    let expected = format!("$.cases[{i}].driftScore is 0.3 but the noise share of its lists");
    assert!(said.contains(&expected), "{said}");

    // PrecisionMemBench's published report of mem0 (a golden copy).
    let theirs = read_json("tests/golden/pmb-baseline/session-retrieval-report-mem0.json");
    let (code, said) = verify_edited(dir.path(), "mem0.json", &theirs);
    assert_eq!(code, Some(0), "{said}");
    let turn = &theirs["cases"][3];
    let precision = turn["retrievalPrecision"].as_f64().unwrap();
    assert!((turn["driftScore"].as_f64().unwrap() - (1.0 - precision)).abs() < 1e-12);
    let mut edited = theirs.clone();
    edited["cases"][3]["driftScore"] = 0.5.into();
    let (code, said) = verify_edited(dir.path(), "mem0-edited.json", &edited);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("$.cases[3].driftScore is 0.5 but 1 − its retrievalPrecision (0 when null)"),
        "{said}"
    );
}

/// A report without what is measured (times, counters) and without a second look's record.
fn measured_out(path: &Path) -> Value {
    let mut v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    strip_measurements(&mut v);
    fn walk(v: &mut Value) {
        match v {
            Value::Object(map) => {
                for key in ["searchMs", "backendStats", "rerunFailed"] {
                    map.remove(key);
                }
                map.values_mut().for_each(walk);
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut v);
    v
}

/// The composite scorer remembers each turn's query (its revisitation signal), so a turn not
/// searched live must still be searched for that memory: a run resumed after five turns, a run
/// in two shards merged, and a second look at the failed turns each answer as the uninterrupted
/// run does. Before, they read other precisions (hashed vectors here, so that the revisitation
/// threshold of 0.2 is reached without the ONNX model; with MiniLM, 0.488 for 0.348).
#[test]
fn a_composite_run_resumed_sharded_or_looked_at_again_answers_as_uninterrupted() {
    let dir = tempfile::tempdir().unwrap();
    let run = |out: &str, extra: &[&str]| {
        let args = [
            &[
                "session",
                "--suite",
                "bitemporal",
                "--backend",
                "composite",
                "--model",
                "hashed:256",
                "--revisit-threshold",
                "0.2",
                "--quiet",
            ][..],
            extra,
            &["--out"],
        ]
        .concat();
        tenure_eval_ok(&args, &[&dir.path().join(out)]);
    };
    let name = "hashed-bow-256-session-retrieval-report-composite-rt0.2";
    let report = |out: &str| dir.path().join(out).join(format!("bitemporal/{name}.json"));
    run("full", &[]);
    let full = measured_out(&report("full"));
    assert!(
        full["retrieval"]["totalPassed"].as_u64().unwrap() < 64,
        "some turn fails"
    );

    // A run killed after five turns: its journal's header, build and first five turns.
    let journal = format!(".journal/bitemporal/{name}.jsonl");
    let text = std::fs::read_to_string(dir.path().join("full").join(&journal)).unwrap();
    let cut: Vec<&str> = text.lines().take(7).collect();
    assert!(cut[6].starts_with("{\"case\":{\"i\":4,"), "{}", cut[6]);
    let killed = dir.path().join("killed").join(&journal);
    std::fs::create_dir_all(killed.parent().unwrap()).unwrap();
    std::fs::write(&killed, cut.join("\n") + "\n").unwrap();
    run("killed", &["--resume"]);
    assert_eq!(measured_out(&report("killed")), full, "resumed");

    for k in ["1/2", "2/2"] {
        run(&format!("shard{}", &k[..1]), &["--shard", k]);
    }
    let (s1, s2, merged) = (
        dir.path().join("shard1"),
        dir.path().join("shard2"),
        dir.path().join("merged"),
    );
    tenure_eval_ok(
        &["merge", "--suite", "bitemporal", "--quiet"],
        &[&s1, &s2, Path::new("--out"), &merged],
    );
    assert_eq!(measured_out(&report("merged")), full, "merged");

    copy_dir(&dir.path().join("full"), &dir.path().join("second"));
    run("second", &["--rerun-failed"]);
    assert_eq!(measured_out(&report("second")), full, "second look");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A journal keys its cases by place, so a journal of another selection of the same size lent
/// one case's answers to another (a failing case read 1/1 passed; two categories of six cases
/// each ran as "the backend failed", exit 3). Each case's id is now checked against the
/// journal's: a replay, a resume and a second look of another selection are exit 2, naming both.
#[test]
fn a_journal_of_another_selection_of_the_same_size_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let static_pmb = ["static", "--suite", "pmb", "--quiet"];
    let design = ["--category", "Design boundary cases"];
    let routing = ["--category", "Type routing and open questions"];
    let rec = at("rec");
    tenure_eval_ok(
        &[&static_pmb[..], &design, &["--record"]].concat(),
        &[&rec, Path::new("--out"), &at("a")],
    );
    let said = "the journal's case 0 is edge-empty-query, this run's is \
                happy-stack-repository-layer: a journal of another selection";
    let replay = tenure_eval_with(
        &[&static_pmb[..], &routing, &["--replay"]].concat(),
        &[&rec, Path::new("--out"), &at("b")],
    );
    let stderr = String::from_utf8_lossy(&replay.stderr);
    assert_eq!(replay.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(said), "{stderr}");
    let out = at("c");
    tenure_eval_ok(&[&static_pmb[..], &design, &["--out"]].concat(), &[&out]);
    for again in ["--rerun-failed", "--resume"] {
        if again == "--resume" {
            // A run killed before its end line.
            let journal = out.join(".journal/pmb-selected/retrieval-report-tenure.jsonl");
            let text = std::fs::read_to_string(&journal).unwrap();
            let kept: String = text
                .lines()
                .filter(|l| !l.starts_with("{\"end\""))
                .map(|l| format!("{l}\n"))
                .collect();
            std::fs::write(&journal, kept).unwrap();
        }
        let journal = out.join(".journal/pmb-selected/retrieval-report-tenure.jsonl");
        let before = std::fs::read(&journal).unwrap();
        let run = tenure_eval_with(
            &[&static_pmb[..], &routing, &[again, "--out"]].concat(),
            &[&out],
        );
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{again}: {stderr}");
        assert!(stderr.contains(said), "{again}: {stderr}");
        // Refused before anything is written to the journal.
        assert_eq!(std::fs::read(&journal).unwrap(), before, "{again}");
    }
}

/// Flags the command would ignore are refused, naming why: a memory system's sessions run one
/// turn at a time (`--concurrency 4` changed nothing), `--no-reseed` seeds nothing (the manifest
/// recorded a seeding delay and a wait as applied), and `serve` serves the same items with or
/// without LoCoMo's corrected gold.
#[test]
fn flags_a_session_a_kept_store_or_a_server_would_ignore_are_refused() {
    let http = [
        "--backend",
        "http",
        "--url",
        "http://127.0.0.1:9",
        "--quiet",
    ];
    let session = [&["session", "--suite", "pmb"][..], &http].concat();
    refused(
        &[&session[..], &["--concurrency", "4"]].concat(),
        "--concurrency applies to static cases (sessions run one turn at a time)",
    );
    for (flag, value) in [("--seed-delay-ms", Some("5")), ("--wait-after-seed", None)] {
        let args = [&session[..], &["--no-reseed", flag], value.as_slice()].concat();
        refused(&args, "--no-reseed seeds nothing");
    }
}

/// `serve` serves the same items with or without LoCoMo's corrected gold: `--corrections` is
/// refused there.
#[test]
fn serve_refuses_corrections_it_would_not_read() {
    if !needs(&[Need::Locomo, Need::LocomoAudit]) {
        return;
    }
    let (locomo, audit) = (locomo_file(), data_file("locomo-audit"));
    let (locomo, audit) = (locomo.to_str().unwrap(), audit.to_str().unwrap());
    refused(
        &[
            "serve",
            "--suite",
            "locomo",
            "--data",
            locomo,
            "--corrections",
            audit,
            "--quiet",
        ],
        "--corrections changes LoCoMo's gold evidence, which a served memory system never reads",
    );
}

/// A history holds each measurement once. A resume of a finished run takes every case from its
/// journal, so it is not appended again (a copy hid the regression the history had flagged);
/// a replay, a second look and repeats are no one measurement of the system, and `--history`
/// with them is refused.
#[test]
fn a_history_holds_each_measurement_once() {
    let dir = tempfile::tempdir().unwrap();
    let (out, history) = (dir.path().join("r"), dir.path().join("h"));
    // A replay takes neither `--backend` nor `--label`: it re-scores the recording's runs.
    let run = |backend: &str, extra: &[&str]| {
        let chosen = ["--label", "sys", "--backend", backend];
        let chosen = if backend.is_empty() {
            &[][..]
        } else {
            &chosen[..]
        };
        let args = [&["static", "--suite", "pmb"][..], chosen, extra, &["--out"]].concat();
        tenure_eval_with(&args, &[&out, Path::new("--history"), &history])
    };
    let lines = || {
        std::fs::read_to_string(history.join("history.jsonl"))
            .unwrap()
            .lines()
            .count()
    };
    assert!(run("bm25", &[]).status.success());
    assert!(run("bm25-text", &[]).status.success());
    let regression = || tenure_eval_with(&["history", "--fail-on-regression"], &[&history]);
    assert_eq!(
        regression().status.code(),
        Some(1),
        "the planted regression"
    );
    let resumed = run("bm25-text", &["--resume"]);
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{stderr}");
    assert!(
        stderr.contains("1 run(s) not appended again: the history holds them"),
        "{stderr}"
    );
    assert_eq!(lines(), 2);
    assert_eq!(
        regression().status.code(),
        Some(1),
        "still flagged after the resume"
    );

    let recording = out.join(".journal/pmb");
    let recording = recording.to_str().unwrap();
    for (backend, extra, what) in [
        ("", &["--replay", recording][..], "this is a replay"),
        ("bm25-text", &["--rerun-failed"], "this is a second look"),
        (
            "bm25-text",
            &["--repeat", "2"],
            "this is several measurements (--repeat)",
        ),
    ] {
        let refused = run(backend, extra);
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert_eq!(refused.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(
            stderr.contains(&format!("--history records whole runs, and {what}")),
            "{stderr}"
        );
    }
    assert_eq!(lines(), 2);
}

/// A careful run of a system whose answers the client cannot read is a failed run (exit 3, the
/// report in `failed/`), said: results without an id (the benchmark id as `beliefId`, or bare
/// strings) were dropped in silence, and a system answering no result to any search scored
/// 34/77 on pmb, more than a working one. A system whose answers carry ids still makes a good
/// run.
#[test]
fn answers_the_client_cannot_read_make_a_failed_run() {
    use crate::common::memory_server::{json, MemoryServer, Received};
    use serde_json::json as j;
    let answering = |results: fn(usize) -> Value| {
        MemoryServer::start(move |r: &Received, n| match r.path.as_str() {
            "/search" => json(j!({ "results": results(n) })),
            _ => json(j!({"status": "ok"})),
        })
    };
    let run = |server: &MemoryServer| {
        crate::common::http_run(
            "static",
            &["--suite", "pmb"],
            "pmb",
            &server.url,
            "sys",
            &[],
        )
    };
    let readable = answering(|_| j!([{"id": "b-redis-code"}]));
    let good = run(&readable);
    assert_eq!(good.code, 0, "{}", good.stderr);
    assert!(good.report.is_some());
    for (results, said) in [
        (
            (|_| j!([{"beliefId": "b-redis-code"}])) as fn(usize) -> Value,
            "results had no id (neither a top-level `id` nor `metadata.beliefId`",
        ),
        (
            |_| j!(["b-redis-code", "b-db-decision"]),
            "results had no id",
        ),
        (
            |_| j!([]),
            "searches answered no result: the system holds or returns nothing",
        ),
    ] {
        let server = answering(results);
        let failed = run(&server);
        assert_eq!(failed.code, 3, "{}", failed.stderr);
        assert!(failed.stderr.contains(said), "{}", failed.stderr);
        assert!(
            failed.stderr.contains("the report went to failed/"),
            "{}",
            failed.stderr
        );
    }
}

/// A recording holds one run's answers, and a replay of a `--repeat N` recording wrote the last
/// repeat as a clean single run (its repeats block and flaky cases gone): `--record` with
/// `--repeat` is refused.
#[test]
fn a_repeated_run_is_not_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("rec");
    let out = dir.path().join("out");
    let run = tenure_eval_with(
        &[
            "static", "--suite", "pmb", "--repeat", "2", "--quiet", "--record",
        ],
        &[&rec, Path::new("--out"), &out],
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("'--repeat <N>' cannot be used with '--record <DIR>'"),
        "{stderr}"
    );
    assert!(!rec.exists() && !out.exists());
}

/// A merge is dated by its first shard's start, not by when it was made, so `merge --history`
/// given twice holds the merged run once (the copy read as "no regression"); a replay is dated
/// by the run it re-scores.
#[test]
fn a_merge_given_twice_is_one_run_of_the_history_and_a_replay_keeps_its_runs_date() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let started = |path: std::path::PathBuf| -> String {
        let v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        v["manifest"]["startedAt"].as_str().unwrap().to_string()
    };
    let report = "pmb/retrieval-report-tenure.json";
    for k in ["1", "2"] {
        tenure_eval_ok(
            &[
                "static",
                "--suite",
                "pmb",
                "--quiet",
                "--shard",
                &format!("{k}/2"),
                "--out",
            ],
            &[&at(&format!("s{k}"))],
        );
    }
    let first = started(at("s1").join(report)).min(started(at("s2").join(report)));
    let history = at("h");
    for out in ["m1", "m2"] {
        let merged = tenure_eval_with(
            &["merge", "--suite", "pmb"],
            &[
                &at("s1"),
                &at("s2"),
                Path::new("--out"),
                &at(out),
                Path::new("--history"),
                &history,
            ],
        );
        let stderr = String::from_utf8_lossy(&merged.stderr);
        assert!(merged.status.success(), "{stderr}");
        assert_eq!(
            started(at(out).join(report)),
            first,
            "dated by its first shard"
        );
        if out == "m2" {
            assert!(
                stderr.contains("1 run(s) not appended again: the history holds them"),
                "{stderr}"
            );
        }
    }
    let lines = std::fs::read_to_string(history.join("history.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 1, "{lines}");

    let (rec, live, replayed) = (at("rec"), at("live"), at("replayed"));
    tenure_eval_ok(
        &["static", "--suite", "pmb", "--quiet", "--record"],
        &[&rec, Path::new("--out"), &live],
    );
    tenure_eval_ok(
        &["static", "--suite", "pmb", "--quiet", "--replay"],
        &[&rec, Path::new("--out"), &replayed],
    );
    assert_eq!(started(replayed.join(report)), started(live.join(report)));
}
