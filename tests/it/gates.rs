//! CI gates: each fails when it should (exit 1) and passes when it should (exit 0); JUnit parses
//! with the right counts; a gate without its baseline is a usage error before any work.

use crate::common::read_json;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Output;

struct Fixture {
    dir: tempfile::TempDir,
    corpus: PathBuf,
    good: PathBuf,
    broken: PathBuf,
}

/// The pmb suite as custom files, and a copy where one case expects the wrong belief.
fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("beliefs.json");
    std::fs::write(
        &corpus,
        serde_json::to_vec(&read_json("seeds/pmb/beliefs.seed.json")).unwrap(),
    )
    .unwrap();
    let mut cases = read_json("cases/pmb/retrieval.cases.json");
    let good = dir.path().join("good.json");
    std::fs::write(&good, serde_json::to_vec(&cases).unwrap()).unwrap();
    let case = cases
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["caseId"] == "happy-alias-match-kubernetes")
        .unwrap();
    case["expect"]["relevantBeliefs"]["shouldOnlyInclude"] = json!(["b-react-entity"]);
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, serde_json::to_vec(&cases).unwrap()).unwrap();
    Fixture {
        dir,
        corpus,
        good,
        broken,
    }
}

impl Fixture {
    fn run(&self, cases: &Path, out: &str, extra: &[&str]) -> (Output, PathBuf) {
        let out_dir = self.dir.path().join(out);
        let output = crate::common::cli(&[])
            .args(["static", "--quiet", "--corpus"])
            .arg(&self.corpus)
            .arg("--cases")
            .arg(cases)
            .arg("--out")
            .arg(&out_dir)
            .args(extra)
            .output()
            .unwrap();
        (output, out_dir.join("custom/retrieval-report-tenure.json"))
    }
}

fn code(o: &Output) -> Option<i32> {
    o.status.code()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn fail_on_any_failure() {
    let f = fixture();
    let (o, _) = f.run(&f.good, "a", &["--fail-on", "any-failure"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let (o, _) = f.run(&f.broken, "b", &[]);
    assert_eq!(
        code(&o),
        Some(0),
        "failed cases are results, not errors, without a gate"
    );
    let (o, report) = f.run(&f.broken, "c", &["--fail-on", "any-failure"]);
    assert_eq!(code(&o), Some(1));
    assert!(
        stderr(&o).contains("gate fail-on any-failure FAILED")
            && stderr(&o).contains("happy-alias-match-kubernetes"),
        "{}",
        stderr(&o)
    );
    assert!(
        report.exists(),
        "the report is written even when a gate fails"
    );
}

#[test]
fn fail_on_new_failures_against_a_baseline() {
    let f = fixture();
    let (_, good_report) = f.run(&f.good, "good", &[]);
    let (_, broken_report) = f.run(&f.broken, "broken", &[]);
    let baseline = |p: &Path| {
        vec![
            "--fail-on".to_string(),
            "new-failures".into(),
            "--baseline".into(),
            p.display().to_string(),
        ]
    };
    let args = baseline(&good_report);
    let (o, _) = f.run(
        &f.broken,
        "x",
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(code(&o), Some(1));
    assert!(
        stderr(&o).contains("newly failing: happy-alias-match-kubernetes"),
        "{}",
        stderr(&o)
    );
    // Failing in the baseline too: not new, and JUnit says so (skipped, not failed).
    let junit = f.dir.path().join("junit.xml");
    let mut args = baseline(&broken_report);
    args.extend(["--junit".to_string(), junit.display().to_string()]);
    let (o, _) = f.run(
        &f.broken,
        "y",
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let xml = std::fs::read_to_string(&junit).unwrap();
    let case = xml
        .split("<testcase ")
        .find(|c| c.contains("name=\"happy-alias-match-kubernetes\""))
        .unwrap();
    assert!(
        case.contains("<skipped message=\"fails in baseline\""),
        "{case}"
    );
    assert!(!xml.contains("<failure"), "{xml}");
}

#[test]
fn a_baseline_judges_only_the_report_of_its_own_label_and_kind() {
    let dir = tempfile::tempdir().unwrap();
    let gated = |command: &str, baseline: &str| {
        crate::common::cli(&[command, "--suite", "pmb", "--fail-on", "new-failures"])
            .arg("--baseline")
            .arg(crate::common::repo(baseline))
            .arg("--out")
            .arg(dir.path())
            .output()
            .unwrap()
    };
    // The CI example of docs/html.md: `run` writes static and session reports, the baseline
    // is a static one. The session report is not compared (a note), the static one is.
    let o = gated(
        "run",
        "tests/golden/pmb-baseline/retrieval-report-tenure.json",
    );
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "gate baseline passed on session-retrieval-report-tenure.json: skipped: no --baseline \
             is a session report of bm25 or named session-retrieval-report-tenure.json"
        ),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("gate fail-on new-failures passed on retrieval-report-tenure.json"));
    // Another system's baseline does not judge this one: mem0 fails cases BM25 passes, and
    // the other way round; compared, BM25 would fail the gate. Nor is it ignored in silence: a
    // baseline that judges no report of the run disarmed the gate (an audit passed a run
    // relabelled by a setting with 57 new failures), so it fails the gate, named.
    let o = gated(
        "static",
        "tests/golden/pmb-baseline/retrieval-report-mem0.json",
    );
    assert_eq!(code(&o), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("skipped: no --baseline is a static report of bm25"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains(
            "(static report of mem0) judges no report of this run (its static reports: bm25)"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn min_active_passes() {
    let f = fixture();
    let (o, _) = f.run(&f.good, "a", &["--min-active-passes", "43"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let (o, _) = f.run(&f.good, "b", &["--min-active-passes", "44"]);
    assert_eq!(code(&o), Some(1));
    assert!(
        stderr(&o).contains("43 active-retrieval passes (minimum 44)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn max_precision_drop() {
    let f = fixture();
    let (_, good_report) = f.run(&f.good, "good", &[]);
    let base = good_report.display().to_string();
    // One of the 43 cases with a precision drops from 1.0 to 0.0: the mean drops by 1/43 = 0.0233.
    let (o, _) = f.run(
        &f.broken,
        "a",
        &["--max-precision-drop", "0.02", "--baseline", &base],
    );
    assert_eq!(code(&o), Some(1));
    assert!(
        stderr(&o).contains("mean precision 0.9767 vs baseline 1.0000: drop 0.0233"),
        "{}",
        stderr(&o)
    );
    let (o, _) = f.run(
        &f.broken,
        "b",
        &["--max-precision-drop", "0.03", "--baseline", &base],
    );
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
}

#[test]
fn gates_that_need_a_baseline_fail_before_any_work() {
    let f = fixture();
    let (o, report) = f.run(&f.good, "a", &["--fail-on", "new-failures"]);
    assert_eq!(code(&o), Some(2));
    assert!(stderr(&o).contains("need --baseline"), "{}", stderr(&o));
    assert!(!report.exists());
}

#[test]
fn junit_and_step_summary() {
    let f = fixture();
    let junit = f.dir.path().join("junit.xml");
    let summary = f.dir.path().join("summary.md");
    let (o, _) = f.run(
        &f.broken,
        "a",
        &[
            "--fail-on",
            "any-failure",
            "--min-active-passes",
            "40",
            "--junit",
            junit.to_str().unwrap(),
            "--summary-md",
            summary.to_str().unwrap(),
        ],
    );
    assert_eq!(code(&o), Some(1));
    let xml = std::fs::read_to_string(&junit).unwrap();
    let parsed = quick_junit::Report::deserialize_from_str(&xml).expect("JUnit output parses");
    assert_eq!(parsed.test_suites.len(), 2);
    let cases = &parsed.test_suites[0];
    assert_eq!((cases.tests, cases.failures), (77, 1));
    let gates = &parsed.test_suites[1];
    assert_eq!((gates.tests, gates.failures), (2, 1));
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(
        md.contains("| custom | bm25    | 77 static | 76/77  |"),
        "{md}"
    );
    assert!(
        md.contains("❌ **fail-on any-failure**") && md.contains("✅ **min-active-passes**"),
        "{md}"
    );
    assert!(md.contains("happy-alias-match-kubernetes: unexpected belief in relevantBeliefs: b-kubernetes-entity"), "{md}");
    assert!(md.contains("### Failing cases (1)"), "{md}");

    // Against a baseline: this change's failures first and listed, known ones as a count.
    let (_, good_report) = f.run(&f.good, "base-good", &[]);
    let (_, broken_report) = f.run(&f.broken, "base-broken", &[]);
    for (baseline, new, known) in [(&good_report, true, false), (&broken_report, false, true)] {
        let (o, _) = f.run(
            &f.broken,
            "b",
            &[
                "--fail-on",
                "new-failures",
                "--baseline",
                baseline.to_str().unwrap(),
                "--summary-md",
                summary.to_str().unwrap(),
            ],
        );
        assert_eq!(code(&o), Some(if new { 1 } else { 0 }), "{}", stderr(&o));
        let md = std::fs::read_to_string(&summary).unwrap();
        assert_eq!(md.contains("### New failures (1)"), new, "{md}");
        assert_eq!(
            md.contains("1 known failures (failing in the baseline too)"),
            known,
            "{md}"
        );
        assert_eq!(md.contains("happy-alias-match-kubernetes"), new, "{md}");
    }
}

#[test]
fn a_baseline_with_cases_the_run_lacks_fails_the_gate() {
    let f = fixture();
    let (_, baseline) = f.run(&f.good, "full", &[]);
    // The run keeps 10 of the 77 cases: nothing in it newly fails, but 67 baseline cases
    // were never checked.
    let mut cases = read_json("cases/pmb/retrieval.cases.json");
    cases.as_array_mut().unwrap().truncate(10);
    let few = f.dir.path().join("few.json");
    std::fs::write(&few, serde_json::to_vec(&cases).unwrap()).unwrap();
    let baseline = baseline.display().to_string();
    let (o, _) = f.run(
        &few,
        "few",
        &["--fail-on", "new-failures", "--baseline", &baseline],
    );
    assert_eq!(code(&o), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("gate baseline coverage FAILED")
            && stderr(&o).contains("67 case(s) of retrieval-report-tenure.json are missing"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn gate_values_that_could_never_fail_are_usage_errors() {
    let f = fixture();
    let (o, _) = f.run(&f.good, "nan", &["--max-precision-drop=NaN"]);
    assert_eq!(code(&o), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a finite number"), "{}", stderr(&o));
    // A thirteenth audit: a drop of 1 and a minimum of 0 passed every run in silence.
    for (args, said) in [
        (&["--max-precision-drop", "1"][..], "1 could never fail"),
        (&["--min-active-passes", "0"], "0 could never fail"),
    ] {
        let (o, _) = f.run(&f.good, "never", args);
        assert_eq!(code(&o), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(said), "{}", stderr(&o));
    }
    let sessions = crate::common::cli(&[])
        .args([
            "session",
            "--suite",
            "pmb",
            "--quiet",
            "--min-active-passes",
            "3",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&sessions), Some(2));
    assert!(stderr(&sessions).contains("judges static reports"));
    let ignored = crate::common::cli(&[])
        .args(["validate", "--suite", "pmb", "--profile", "paper"])
        .output()
        .unwrap();
    assert_eq!(
        code(&ignored),
        Some(2),
        "--profile with --suite was silently ignored"
    );
}

/// Under the run table, each report's failing cases: the first five with their first failure,
/// and how many more; nothing for a report that passed everything.
#[test]
fn the_terminal_shows_failing_cases_under_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::common::cli(&[])
        .args([
            "run",
            "--suite",
            "pmb",
            "--backend",
            "bm25,cosine",
            "--quiet",
            "--out",
        ])
        .arg(dir.path())
        .current_dir(crate::common::repo(""))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let static_report = dir
        .path()
        .join("pmb/all-minilm-l6-v2-retrieval-report-vector.json");
    let listed = format!("failing in {} (66 of 77):\n", static_report.display());
    let at = stdout.find(&listed).unwrap_or_else(|| panic!("{stdout}"));
    let lines: Vec<&str> = stdout[at + listed.len()..].lines().take(6).collect();
    assert_eq!(
        lines[0],
        "  happy-stack-repository-layer: unexpected belief in relevantBeliefs: b-redis-code (+14 more)"
    );
    assert_eq!(lines[5], "  … and 61 more");
    assert!(stdout.contains("(12 of 12):\n  session-drift-noise-10-turns-implicit-redis: turn 0: unexpected relevant belief"));
    // BM25 passes everything: no list for its reports.
    assert!(
        !stdout.contains("retrieval-report-tenure.json ("),
        "{stdout}"
    );
}

#[test]
fn a_first_ci_run_without_its_baseline_file_passes_with_baseline_missing_ok() {
    let f = fixture();
    let missing = f.dir.path().join("main/retrieval-report-tenure.json");
    let missing = missing.to_str().unwrap();
    let gate = ["--fail-on", "new-failures", "--baseline", missing];
    // By default a baseline that is not there is an input error naming it, before any work.
    let (o, report) = f.run(&f.good, "a", &gate);
    assert_eq!(code(&o), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(missing), "{}", stderr(&o));
    assert!(!report.exists());
    // With --baseline-missing ok it runs, says so, and the gate skips (a passing check).
    let junit = f.dir.path().join("junit.xml");
    let (o, report) = f.run(
        &f.broken,
        "b",
        &[
            &gate[..],
            &[
                "--baseline-missing",
                "ok",
                "--junit",
                junit.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--baseline-missing ok"),
        "{}",
        stderr(&o)
    );
    assert!(report.exists());
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("skipped: no --baseline"), "{xml}");
    // Without --baseline it is refused: there is nothing for it to act on.
    let (o, _) = f.run(&f.good, "c", &["--baseline-missing", "ok"]);
    assert_eq!(code(&o), Some(2), "{}", stderr(&o));
}

/// `--rerun-failed` runs again the cases a finished run failed (here one assertion fails) and
/// takes the passed ones from its journal: it says 76 taken and 1 sent, the report is the
/// same but for its manifest's record of the second look; before a finished run it is refused.
#[test]
fn rerun_failed_sends_only_the_failed_cases_again() {
    let f = fixture();
    let (o, report) = f.run(&f.broken, "a", &[]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let first = std::fs::read_to_string(&report).unwrap();
    let (o, _) = f.run(&f.broken, "a", &["--rerun-failed"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(": 76 of 77 cases taken from "),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains(", 1 sent to the system"),
        "{}",
        stderr(&o)
    );
    let again: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let first: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(
        again["retrieval"]["totalPassed"],
        first["retrieval"]["totalPassed"]
    );
    assert_eq!(again["cases"].as_array().unwrap().len(), 77);
    // The manifest says it was a second look (a clean run's has no such record), so its one
    // case sent again cannot pass for a first try's.
    assert_eq!(first["manifest"].get("rerunFailed"), None);
    assert_eq!(
        again["manifest"]["rerunFailed"],
        serde_json::json!({"taken": 76, "sent": 1})
    );
    // Its page says so, above the table.
    let page = f.dir.path().join("rerun.html");
    let out = crate::common::cli(&["html", "--quiet", "--corpus"])
        .arg(&f.corpus)
        .arg("--cases")
        .arg(&f.broken)
        .arg("--out")
        .args([&page, &report])
        .output()
        .unwrap();
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let data = std::fs::read_to_string(&page).unwrap();
    assert!(
        data.contains("\"rerun\":\"76 taken from its journal as passed, 1 sent"),
        "the page's data"
    );
    let said =
        "a --rerun-failed run: 76 taken from its journal as passed, 1 sent to the system again";
    if let Some(b) = crate::common::browser::browser_or_skip() {
        b.goto(&crate::common::browser::Browser::file_url(&page, ""));
        let note = b.wait("const p = document.querySelector('.rerun'); return p && p.textContent;");
        assert!(note.as_str().unwrap().contains(said), "{note}");
    }
    // A later continuation rebuilds the report from the journal, and keeps the record (its
    // rows keep the second try): it was lost before.
    let (o, _) = f.run(&f.broken, "a", &["--rerun-errored"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let later: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(
        later["manifest"]["rerunFailed"],
        again["manifest"]["rerunFailed"]
    );
    // So does a merge of shards, one of them rerun.
    for k in ["1", "2"] {
        let (o, _) = f.run(&f.broken, k, &["--shard", &format!("{k}/2")]);
        assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    }
    let (o, _) = f.run(&f.broken, "1", &["--shard", "1/2", "--rerun-failed"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let shard: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(f.dir.path().join("1/custom/retrieval-report-tenure.json"))
            .unwrap(),
    )
    .unwrap();
    let merged = f.dir.path().join("merged");
    let o = crate::common::cli(&["merge", "--quiet", "--corpus"])
        .arg(&f.corpus)
        .arg("--cases")
        .arg(&f.broken)
        .arg("--out")
        .args([&merged, &f.dir.path().join("1"), &f.dir.path().join("2")])
        .output()
        .unwrap();
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let whole: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(merged.join("custom/retrieval-report-tenure.json")).unwrap(),
    )
    .unwrap();
    assert!(
        shard["manifest"]["rerunFailed"].is_object(),
        "{}",
        shard["manifest"]
    );
    // The merged run's sent are the rerun shard's; every other row, the other shard's too, is
    // a first try: taken + sent is the whole run's 77.
    let sent = shard["manifest"]["rerunFailed"]["sent"].as_u64().unwrap();
    assert_eq!(
        whole["manifest"]["rerunFailed"],
        serde_json::json!({"taken": 77 - sent, "sent": sent})
    );
    // With no finished run's journal there is nothing to take from.
    let (o, _) = f.run(&f.broken, "b", &["--rerun-failed"]);
    assert_eq!(code(&o), Some(2), "{}", stderr(&o));
}

/// A `--rerun-failed` stopped before its end and then resumed keeps its record: the resumed
/// rows hold its second tries (the stop is made by hand, as a Ctrl-C leaves the journal: the
/// second look's cases written, a stop line instead of its end).
#[test]
fn a_second_look_stopped_and_resumed_keeps_its_record() {
    let f = fixture();
    let (o, report) = f.run(&f.broken, "a", &[]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let (o, _) = f.run(&f.broken, "a", &["--rerun-failed"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let journal = f
        .dir
        .path()
        .join("a/.journal/custom/retrieval-report-tenure.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let end = lines.pop().unwrap();
    assert!(end.starts_with("{\"end\""), "{end}");
    lines.push(r#"{"stopped":{"at":"","reason":"interrupted"}}"#);
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    let (o, _) = f.run(&f.broken, "a", &["--resume"]);
    assert_eq!(code(&o), Some(0), "{}", stderr(&o));
    let resumed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(
        resumed["manifest"]["rerunFailed"],
        serde_json::json!({"taken": 76, "sent": 1})
    );
}

/// A second look stopped after five of its cases, then resumed: the resume sends the failed
/// cases it had yet to reach (it kept their first tries, and said so as 0 sent).
#[test]
fn a_resumed_second_look_sends_the_cases_it_had_not_reached() {
    let dir = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        let out = crate::common::cli(&[
            "static",
            "--suite",
            "pmb",
            "--backend",
            "bm25-text",
            "--quiet",
        ])
        .arg("--out")
        .arg(dir.path())
        .args(extra)
        .output()
        .unwrap();
        assert_eq!(code(&out), Some(0), "{}", stderr(&out));
        out
    };
    run(&[]);
    let report = dir.path().join("pmb/retrieval-report-bm25-text.json");
    let first: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let failed = 77 - first["retrieval"]["totalPassed"].as_u64().unwrap() as usize;
    assert!(failed > 10, "{failed}");
    run(&["--rerun-failed"]);
    let journal = dir
        .path()
        .join(".journal/pmb/retrieval-report-bm25-text.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("\"secondLook\":true"))
        .unwrap();
    let mut kept = lines[..at + 6].to_vec();
    kept.push(r#"{"stopped":{"at":"","reason":"interrupted"}}"#);
    std::fs::write(&journal, kept.join("\n") + "\n").unwrap();
    let out = run(&["--resume"]);
    assert!(
        stderr(&out).is_empty() || !stderr(&out).contains(", 0 sent"),
        "{}",
        stderr(&out)
    );
    let resumed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(
        resumed["manifest"]["rerunFailed"],
        serde_json::json!({"taken": 77 - failed, "sent": failed})
    );
}
