//! What a nineteenth audit (the commands that read reports) found, each kept closed here: the
//! page written over what it reads, a history holding a run twice (its last change compared a
//! run with itself), second looks and repeated runs shown as one clean run's figures, and a
//! summary its rows contradict said only by `tables`, and not with `--quiet`.

use crate::common::cli;
use std::path::Path;

fn run(dir: &Path, args: &[&str]) {
    let o = cli(&[&["run", "--suite", "pmb", "--quiet"][..], args].concat())
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `tenure-eval ARGS` from `dir`: exit code and stderr.
fn read(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let o = cli(args).current_dir(dir).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn the_page_never_replaces_what_it_reads_and_a_history_holds_each_run_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run(
        d,
        &[
            "--backend",
            "bm25",
            "--label",
            "sys",
            "--out",
            "h",
            "--history",
            "hist",
        ],
    );
    run(
        d,
        &[
            "--backend",
            "bm25-text",
            "--label",
            "sys",
            "--out",
            "h",
            "--history",
            "hist",
        ],
    );
    let report = "h/pmb/retrieval-report-sys.json";
    let before = std::fs::read(d.join(report)).unwrap();
    let (code, stderr) = read(d, &["html", report, "--out", report]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("which the page reads"), "{stderr}");
    assert_eq!(
        std::fs::read(d.join(report)).unwrap(),
        before,
        "the report is untouched"
    );
    let (code, stderr) = read(
        d,
        &[
            "html",
            report,
            "--history",
            "hist",
            "--out",
            "hist/history.jsonl",
        ],
    );
    assert_eq!(code, Some(2), "{stderr}");
    // The regression the gate sees, then hidden by the last run appended twice.
    let (code, _) = read(d, &["history", "hist", "--fail-on-regression"]);
    assert_eq!(code, Some(1), "bm25 to bm25-text is a regression");
    let file = d.join("hist/history.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    let last_static = text
        .lines()
        .rfind(|l| l.contains("\"kind\":\"static\""))
        .unwrap()
        .to_string();
    std::fs::write(&file, format!("{text}{last_static}\n")).unwrap();
    let (code, stderr) = read(d, &["history", "hist", "--fail-on-regression"]);
    assert_eq!(code, Some(2), "{stderr}");
    let lines = text.lines().count();
    let first = text.lines().position(|l| l == last_static).unwrap() + 1;
    assert!(
        stderr.contains(&format!(
            "history.jsonl: line {}: the run of line {first} again",
            lines + 1
        )),
        "{stderr}"
    );
}

/// A second look and a repeated run are said by every reader, even with `--quiet`; so is a
/// summary its rows contradict (`compare` said nothing of a report whose rows were edited).
#[test]
fn readers_say_what_makes_a_reports_figures_other_than_one_clean_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run(d, &["--backend", "bm25-text", "--out", "r"]);
    let first = d.join("first.json");
    std::fs::copy(d.join("r/pmb/retrieval-report-bm25-text.json"), &first).unwrap();
    run(
        d,
        &["--backend", "bm25-text", "--out", "r", "--rerun-failed"],
    );
    run(
        d,
        &["--backend", "bm25-text", "--out", "p", "--repeat", "2"],
    );
    let (code, stderr) = read(
        d,
        &["tables", "--quiet", "r/pmb/retrieval-report-bm25-text.json"],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("is a second look (--rerun-failed): 48 cases sent again, 29 taken"),
        "{stderr}"
    );
    let (code, stderr) = read(
        d,
        &[
            "compare",
            "first.json",
            "p/pmb/retrieval-report-bm25-text.json",
        ],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("is a repeated run (2 repeats)"), "{stderr}");
    // Every precision set to 1 in the rows, the summary left: compare's difference is the rows',
    // and it says the summary disagrees.
    let mut body: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&first).unwrap()).unwrap();
    for case in body["cases"].as_array_mut().unwrap() {
        if case["retrievalPrecision"].is_number() {
            case["retrievalPrecision"] = 1.0.into();
        }
    }
    std::fs::write(d.join("edited.json"), serde_json::to_vec(&body).unwrap()).unwrap();
    let (code, stderr) = read(d, &["compare", "first.json", "edited.json"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("edited.json: retrieval.meanPrecision is")
            && stderr.contains("but the per-case rows give 1.0; figures here come from the rows"),
        "{stderr}"
    );
}

/// A row that contradicts itself is said by every reader, as `verify` says it: a turn's drift
/// set to 0 beside its precision was drawn and tabled as measured, and a row flipped to passed
/// with a failure still listed counted as a fail→pass flip in `compare`.
#[test]
fn readers_say_a_row_that_contradicts_itself() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run(d, &["--backend", "bm25-text", "--out", "r"]);
    let edit = |file: &str, to: &str, change: &dyn Fn(&mut serde_json::Value)| {
        let mut body: serde_json::Value =
            serde_json::from_slice(&std::fs::read(d.join(file)).unwrap()).unwrap();
        change(&mut body["cases"]);
        std::fs::write(d.join(to), serde_json::to_vec(&body).unwrap()).unwrap();
    };
    edit(
        "r/pmb/session-retrieval-report-bm25-text.json",
        "drift.json",
        &|cases| {
            for case in cases.as_array_mut().unwrap() {
                case["precisionDriftScore"] = 0.0.into();
            }
        },
    );
    let (code, stderr) = read(d, &["tables", "--quiet", "drift.json"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr
            .contains("drift.json: $.cases[0].precisionDriftScore is 0 but its retrievalPrecision"),
        "{stderr}"
    );
    edit(
        "r/pmb/retrieval-report-bm25-text.json",
        "passed.json",
        &|cases| {
            let failing = (cases.as_array_mut().unwrap().iter_mut())
                .find(|c| c["passed"] == false)
                .unwrap();
            failing["passed"] = true.into();
        },
    );
    let (code, stderr) = read(
        d,
        &[
            "compare",
            "r/pmb/retrieval-report-bm25-text.json",
            "passed.json",
        ],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("passed.json: $.cases[")
            && stderr.contains("].passed is true but it lists"),
        "{stderr}"
    );
}
