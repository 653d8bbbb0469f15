//! Runs that survive (issue 33): a run against a memory system that crashes, or a tenure-eval
//! killed with SIGKILL, is continued by `--resume` to the report an uninterrupted run writes,
//! without sending a finished case again; a recording re-scores with the system gone; a run
//! stopped by `--max-errors` still leaves JUnit, the summary and the page. The memory system is
//! `provider.py`, a real process on 127.0.0.1 (needs python3).

use crate::common::needs::{needs, Need};
use crate::common::provider::{case_searches as searches, static_toy, wait_for_cases, Provider};
use crate::common::{cli, strip_measurements};
use serde_json::Value;
use std::path::Path;

/// `tenure-eval static --suite pmb --backend http --url URL --name toy --out OUT EXTRA...`.
fn run(url: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    static_toy(url, out, extra).output().unwrap()
}

/// A report with its measured fields (times, the system's counters) and the system's URL (its
/// port differs between the runs compared) taken out.
fn report(path: &Path) -> Value {
    let mut v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    strip_measurements(&mut v);
    v["manifest"]["backendSettings"]["url"] = Value::Null;
    v["manifest"]["backendStats"] = Value::Null;
    for belief in v["ingestion"]["perBelief"]
        .as_array_mut()
        .into_iter()
        .flatten()
    {
        belief["latencyMs"] = Value::Null;
    }
    for key in ["p50Ms", "p95Ms"] {
        v["manifest"]["searchLatency"][key] = Value::Null;
    }
    v
}

/// The first JSON path where two reports differ (a readable failure for reports of 77 cases).
fn same(a: &Value, b: &Value) {
    fn walk(path: String, a: &Value, b: &Value) -> Option<String> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => x.keys().chain(y.keys()).find_map(|k| {
                let null = Value::Null;
                walk(
                    format!("{path}.{k}"),
                    x.get(k).unwrap_or(&null),
                    y.get(k).unwrap_or(&null),
                )
            }),
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
                .iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (p, q))| walk(format!("{path}[{i}]"), p, q)),
            _ if a == b => None,
            _ => Some(format!("{path}: {a} vs {b}")),
        }
    }
    if let Some(d) = walk("$".into(), a, b) {
        panic!("reports differ at {}", &d[..d.len().min(400)]);
    }
}

/// `--resume` the run in `dir/out` against `url`: it completes and its report is `expected`;
/// the case searches the provider logged in `log` over every run, and those of the
/// uninterrupted run, for the caller to judge.
fn resume(url: &str, dir: &Path, log: &Path, expected: &Value) -> (Vec<String>, Vec<String>) {
    let out = dir.join("out");
    let resumed = run(url, &out, &["--resume"]);
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    // It says what it took from the journal and what it sent, and the two make the whole run.
    let said = stderr(&resumed);
    let line = said
        .lines()
        .find(|l| l.starts_with("resumed "))
        .unwrap_or_else(|| panic!("{said}"));
    let numbers: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    let (taken, total, sent) = (numbers[0], numbers[1], numbers[numbers.len() - 1]);
    assert!(taken > 0 && taken + sent == total, "{line}");
    assert!(
        line.contains("cases taken from") && line.ends_with("sent to the system"),
        "{line}"
    );
    same(
        &report(&out.join("pmb/retrieval-report-toy.json")),
        expected,
    );
    (searches(log), searches(&dir.join("clean.log")))
}

/// An uninterrupted run's report, against a fresh provider.
fn uninterrupted(dir: &Path) -> Value {
    let provider = Provider::start(0, &dir.join("clean.log"), &[]);
    let out = dir.join("clean");
    let done = run(&provider.url, &out, &[]);
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    report(&out.join("pmb/retrieval-report-toy.json"))
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_run_whose_system_crashes_is_resumed_without_sending_a_finished_case_again() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let expected = uninterrupted(dir.path());
    let log = dir.path().join("provider.log");
    let out = dir.path().join("out");
    let mut provider = Provider::start(0, &log, &["--die-after-searches", "30"]);
    let first = run(
        &provider.url,
        &out,
        &["--max-errors", "0", "--retries", "0"],
    );
    provider.wait_dead();
    assert_eq!(first.status.code(), Some(3), "{}", stderr(&first));
    assert!(stderr(&first).contains("--resume"), "{}", stderr(&first));
    // What it measured is kept: a partial report in failed/, saying where it stopped.
    // The partial report holds every case up to the one the system failed on (no other
    // case has an error), and names that case.
    let partial = report(&out.join("pmb/failed/retrieval-report-toy.json"));
    let cases = partial["cases"].as_array().unwrap();
    let last = cases.last().unwrap();
    assert!(last["error"].is_object(), "{last}");
    assert_eq!(cases.iter().filter(|c| c["error"].is_object()).count(), 1);
    assert_eq!(partial["manifest"]["stopped"]["at"], last["caseId"]);
    for (got, want) in cases.iter().zip(expected["cases"].as_array().unwrap()) {
        assert_eq!(got["caseId"], want["caseId"]);
    }
    assert!(!out.join("pmb/retrieval-report-toy.json").exists());

    // Started again on the same port, empty: --resume seeds it and sends the other 47.
    let again = Provider::start(provider.port, &log, &[]);
    let (sent, clean) = resume(&again.url, dir.path(), &log, &expected);
    assert!(!out.join("pmb/failed/retrieval-report-toy.json").exists());
    assert_eq!(sent.len(), clean.len(), "no case sent twice: {sent:?}");
    assert_eq!(sent, clean, "the same searches, in file order, once each");

    // Resuming a finished run sends nothing: every case comes from the journal, and the
    // report is rewritten the same.
    let before = searches(&log).len();
    let done = run(&again.url, &out, &["--resume"]);
    assert_eq!(done.status.code(), Some(0), "{}", stderr(&done));
    assert!(
        stderr(&done).contains(": 77 of 77 cases taken from "),
        "{}",
        stderr(&done)
    );
    assert!(
        stderr(&done).contains(", 0 sent to the system"),
        "{}",
        stderr(&done)
    );
    assert_eq!(searches(&log).len(), before, "nothing sent again");
    same(
        &report(&out.join("pmb/retrieval-report-toy.json")),
        &expected,
    );
    // Another run's settings are named (a static run's: --settle-ms, a session flag, is refused).
    let other = run(&again.url, &out, &["--rerun-errored", "--no-reseed"]);
    assert_eq!(other.status.code(), Some(2), "{}", stderr(&other));
    assert!(
        stderr(&other).contains(
            "is this system's with other settings (settings.reseed: journal true, now false)"
        ),
        "{}",
        stderr(&other)
    );
}

#[test]
fn a_tenure_eval_killed_with_sigkill_is_resumed_losing_at_most_the_case_in_flight() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let expected = uninterrupted(dir.path());
    let log = dir.path().join("provider.log");
    let out = dir.path().join("out");
    let provider = Provider::start(0, &log, &["--delay-ms", "40"]);
    let mut child = static_toy(&provider.url, &out, &[]).spawn().unwrap();
    wait_for_cases(&out.join(".journal/pmb/retrieval-report-toy.jsonl"), 20);
    // SIGKILL: no handler runs.
    child.kill().unwrap();
    child.wait().unwrap();
    // Every journaled case that searched was sent, and at most one more (the case in flight;
    // the cases that search nothing, budget 0 and the like, are journaled without a call).
    let journal =
        std::fs::read_to_string(out.join(".journal/pmb/retrieval-report-toy.jsonl")).unwrap();
    let journaled = journal
        .lines()
        .filter(|l| l.contains("\"calls\":["))
        .count();
    let before = searches(&log).len();
    assert!(journaled >= 15, "{journaled}");
    assert!(
        (journaled..=journaled + 1).contains(&before),
        "{before} sent, {journaled} journaled"
    );

    let (sent, clean) = resume(&provider.url, dir.path(), &log, &expected);
    assert!(
        sent.len() <= clean.len() + 1,
        "only the case in flight may be sent twice: {} searches for {} cases",
        sent.len(),
        clean.len()
    );
}

#[test]
fn a_recording_replays_to_the_same_report_with_the_system_gone_and_other_metrics() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("provider.log");
    let out = dir.path().join("out");
    let recording = dir.path().join("recording");
    let rec = recording.display().to_string();
    {
        let provider = Provider::start(0, &log, &[]);
        let recorded = run(&provider.url, &out, &["--record", &rec]);
        assert_eq!(recorded.status.code(), Some(0), "{}", stderr(&recorded));
    }
    let replayed_out = dir.path().join("replayed");
    let outs = replayed_out.display().to_string();
    let replay = cli(&[
        "static",
        "--suite",
        "pmb",
        "--replay",
        &rec,
        "--out",
        &outs,
        "--quiet",
        "--metrics",
        "P@1,R@5",
    ])
    .output()
    .unwrap();
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
    let mut a = report(&out.join("pmb/retrieval-report-toy.json"));
    let mut b = report(&replayed_out.join("pmb/retrieval-report-toy.json"));
    assert_eq!(
        b["retrieval"]["rankMetrics"]["means"]
            .as_object()
            .map(|m| m.len()),
        Some(2)
    );
    for r in [&mut a, &mut b] {
        r["retrieval"]["rankMetrics"] = Value::Null;
        for case in r["cases"].as_array_mut().unwrap() {
            case["rankMetrics"] = Value::Null;
        }
    }
    same(&a, &b);
    // A recording is of its suite: another suite's is refused before anything runs.
    let other = cli(&[
        "static", "--suite", "paper", "--replay", &rec, "--out", &outs,
    ])
    .output()
    .unwrap();
    assert_eq!(other.status.code(), Some(2));
    assert!(
        stderr(&other).contains("not the suite given"),
        "{}",
        stderr(&other)
    );
}

#[test]
fn a_run_stopped_by_max_errors_still_writes_junit_the_summary_and_the_page() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let provider = Provider::start(0, &dir.path().join("p.log"), &["--search-status", "500"]);
    let out = dir.path().join("out");
    let (junit, summary, page) = (
        dir.path().join("junit.xml"),
        dir.path().join("summary.md"),
        dir.path().join("page.html"),
    );
    let [j, s, p] = [&junit, &summary, &page].map(|p| p.display().to_string());
    let stopped = run(
        &provider.url,
        &out,
        &[
            "--retries",
            "0",
            "--max-errors",
            "2",
            "--junit",
            &j,
            "--summary-md",
            &s,
            "--html",
            &p,
        ],
    );
    assert_eq!(stopped.status.code(), Some(3), "{}", stderr(&stopped));
    assert!(
        stderr(&stopped).contains("stopped after 3 errors (--max-errors 2)"),
        "{}",
        stderr(&stopped)
    );

    // JUnit: the three errored cases as errors, and the stop as an <error> case naming it.
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<error").count(), 4, "{xml}");
    assert!(xml.contains("name=\"run stopped\""), "{xml}");
    assert!(xml.contains("type=\"stopped\""), "{xml}");
    assert!(xml.contains("stopped after"), "{xml}");
    assert!(xml.contains("--max-errors 2"), "{xml}");
    // The summary says so first.
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.contains("### ❌ Run stopped"), "{md}");
    assert!(md.contains("--max-errors 2"), "{md}");
    // The page holds the partial report and the stop.
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("\"stopped\":\"stopped after "),
        "the page's data"
    );
    if let Some(b) = crate::common::browser::browser_or_skip() {
        b.goto(&crate::common::browser::Browser::file_url(&page, ""));
        let banner =
            b.wait("const s = document.querySelector('.stopped'); return s && s.textContent;");
        let banner = banner.as_str().unwrap();
        assert!(
            banner.starts_with("Run stopped: retrieval-report-toy.json stopped after "),
            "{banner}"
        );
    }
    // The stopped report is not the suite's whole run: exported as one (`trec`), its few
    // cases would stand for the suite's (an audit found it taken with exit 0). Refused.
    let failed = out.join("pmb/failed/retrieval-report-toy.json");
    assert!(failed.exists());
    let exported = cli(&["trec", "--suite", "pmb", "--out"])
        .arg(dir.path())
        .arg(&failed)
        .output()
        .unwrap();
    assert_eq!(exported.status.code(), Some(2), "{}", stderr(&exported));
    assert!(
        stderr(&exported).contains("stopped before its end"),
        "{}",
        stderr(&exported)
    );
}

#[test]
fn a_gate_usage_error_exits_2_before_any_request() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("p.log");
    let provider = Provider::start(0, &log, &[]);
    let out = dir.path().join("out");
    // A gate that needs a baseline, without one.
    let o = run(&provider.url, &out, &["--fail-on", "new-failures"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // A session report as the baseline of a command that writes static reports only.
    let session =
        crate::common::repo("tests/golden/pmb-baseline/session-retrieval-report-tenure.json");
    let session = session.display().to_string();
    let o = run(
        &provider.url,
        &out,
        &["--fail-on", "new-failures", "--baseline", &session],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is a session report"), "{}", stderr(&o));
    assert_eq!(
        crate::common::provider::requests(&log),
        Vec::<Value>::new(),
        "nothing sent"
    );
    assert!(!out.exists(), "nothing written");
}

#[test]
fn ctrl_c_stops_after_the_case_in_flight_writes_what_it_measured_and_resume_completes() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let expected = uninterrupted(dir.path());
    let log = dir.path().join("provider.log");
    let out = dir.path().join("out");
    let provider = Provider::start(0, &log, &["--delay-ms", "40"]);
    let junit = dir.path().join("junit.xml");
    let child = static_toy(&provider.url, &out, &["--junit", junit.to_str().unwrap()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let journal = out.join(".journal/pmb/retrieval-report-toy.jsonl");
    wait_for_cases(&journal, 10);
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let done = child.wait_with_output().unwrap();
    let said = stderr(&done);
    assert_eq!(done.status.code(), Some(130), "{said}");
    assert!(
        said.contains("stopping after the cases in flight"),
        "{said}"
    );
    assert!(
        said.contains("run the same command with --resume"),
        "{said}"
    );
    // The journal ends with the stop; the partial report and JUnit say where.
    let last = std::fs::read_to_string(&journal).unwrap();
    assert!(
        last.lines().last().unwrap().starts_with("{\"stopped\":"),
        "{last}"
    );
    let partial = report(&out.join("pmb/failed/retrieval-report-toy.json"));
    assert_eq!(partial["manifest"]["stopped"]["reason"], "interrupted");
    let n = partial["cases"].as_array().unwrap().len();
    assert!((10..77).contains(&n), "{n}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("stopped after") && xml.contains("interrupted"),
        "{xml}"
    );

    let (sent, clean) = resume(&provider.url, dir.path(), &log, &expected);
    assert_eq!(
        sent, clean,
        "the case in flight finished: nothing is sent twice"
    );
}

/// `run` (static, then sessions) stopped in its static pass: `--resume` continues the static
/// pass and runs the session pass, which had not begun, from its start; both reports equal an
/// uninterrupted run's.
#[test]
fn a_run_stopped_before_its_session_pass_resumes_both_passes() {
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let whole = |url: &str, out: &Path, extra: &[&str]| {
        crate::common::provider::toy("run", url, out, extra)
            .output()
            .unwrap()
    };
    let clean = dir.path().join("clean");
    {
        let provider = Provider::start(0, &dir.path().join("clean.log"), &[]);
        let o = whole(&provider.url, &clean, &[]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let log = dir.path().join("p.log");
    let out = dir.path().join("out");
    let mut provider = Provider::start(0, &log, &["--die-after-searches", "30"]);
    let first = whole(
        &provider.url,
        &out,
        &["--max-errors", "0", "--retries", "0"],
    );
    provider.wait_dead();
    assert_eq!(first.status.code(), Some(3), "{}", stderr(&first));
    assert!(!out
        .join(".journal/pmb/session-retrieval-report-toy.jsonl")
        .exists());
    let again = Provider::start(provider.port, &log, &[]);
    let resumed = whole(&again.url, &out, &["--resume"]);
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    for file in [
        "retrieval-report-toy.json",
        "session-retrieval-report-toy.json",
    ] {
        same(
            &report(&out.join("pmb").join(file)),
            &report(&clean.join("pmb").join(file)),
        );
    }
}
