//! What a thirteenth audit (output formats, `--explain`, gates) found, each kept closed here:
//! `history --fail-on-regression` in CSV or LaTeX failing with nothing said of why, `--explain`
//! taking session flags that change nothing in a static case's account, `--explain` searching
//! otherwise than the run (pinned facts kept; a blank query searched), a `|` shifting markdown
//! columns, a baseline of another suite judging a run, JUnit and the step summary counting new
//! failures otherwise than the gate. (Gate values that could never fail: `gates.rs`.)

use crate::common::{refused, tenure_eval_ok, tenure_eval_with};
use std::path::Path;

/// CSV and LaTeX hold the history's tables only; the verdicts go to stderr, so a CI job that
/// `--fail-on-regression` fails says which series regressed and by which cases.
#[test]
fn a_regression_failed_in_csv_or_latex_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let (out, history) = (dir.path().join("r"), dir.path().join("h"));
    for extra in [&[][..], &["--min-score", "12"]] {
        let args = [
            &["run", "--suite", "pmb", "--label", "sys", "--quiet"][..],
            extra,
            &["--out"],
        ]
        .concat();
        tenure_eval_ok(&args, &[&out, Path::new("--history"), &history]);
    }
    for format in ["csv", "latex", "json"] {
        let o = tenure_eval_with(
            &["history", "--fail-on-regression", "--format", format],
            &[&history],
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{format}: {stderr}");
        assert!(
            stderr.contains("sys · pmb static: REGRESSION from run 1 to run 2"),
            "{format}: {stderr}"
        );
        assert!(stderr.contains("newly failing: "), "{format}: {stderr}");
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(
            !stdout.contains("REGRESSION from"),
            "{format}: the data stay data"
        );
    }
}

/// `--explain` accounts for one static case: the session flags (revisitation reads earlier
/// turns) gave the same account, exit 0, where `static` alone refuses them.
#[test]
fn explain_refuses_session_flags() {
    for flag in ["--revisit-rate", "--revisit-cap", "--revisit-threshold"] {
        refused(
            &[
                "static",
                "--suite",
                "pmb",
                "--explain",
                "happy-writing-scope",
                "--backend",
                "composite",
                "--model",
                "hashed:64",
                flag,
                "0.5",
            ],
            &format!(
                "--explain prints one case's account and writes no report; {flag} does not apply"
            ),
        );
    }
}

/// `--explain` makes the run's search: on pmb (HEAD) the case's pinned facts are left out of it,
/// so every case's explained hits are the report's search hits, in order, with its scores (it
/// listed pinned facts as hits: 67 of 77 cases under rrf had them, 193 scores differed).
#[test]
fn explain_makes_the_runs_search_case_by_case() {
    let dir = tempfile::tempdir().unwrap();
    let backend = ["--suite", "pmb", "--backend", "rrf", "--model", "hashed:64"];
    tenure_eval_ok(
        &[&["static"][..], &backend, &["--quiet", "--out"]].concat(),
        &[dir.path()],
    );
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(
            dir.path()
                .join("pmb/hashed-bow-64-retrieval-report-rrf.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let mut compared = 0;
    for case in report["cases"].as_array().unwrap() {
        let id = case["caseId"].as_str().unwrap();
        let explained = tenure_eval_ok(
            &[&["static"][..], &backend, &["--explain", id, "--top", "50"]].concat(),
            &[],
        );
        // "- `ID` SCORE: ..." per hit.
        let hits: Vec<(String, String)> = String::from_utf8_lossy(&explained.stdout)
            .lines()
            .filter_map(|l| l.strip_prefix("- `"))
            .map(|l| {
                let (id, rest) = l.split_once("` ").unwrap();
                (
                    id.to_string(),
                    rest.split(':').next().unwrap().trim().to_string(),
                )
            })
            .collect();
        // The report's searchScores: the search's hits, then HEAD's relation expansions.
        let ran: Vec<(String, String)> = case["searchScores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["id"].as_str().unwrap().to_string(),
                    format!("{:.3}", s["exactScore"].as_f64().unwrap()),
                )
            })
            .collect();
        let n = hits.len().min(ran.len());
        assert_eq!(hits[..n], ran[..n], "{id}");
        for pinned in case["pinnedBeliefs"].as_array().unwrap() {
            assert!(
                !hits.iter().any(|(h, _)| h == pinned.as_str().unwrap()),
                "{id}: pinned {pinned}"
            );
        }
        compared += n;
    }
    assert!(compared > 200, "{compared} hits compared");
}

/// A markdown table escapes `|` in a cell: a label `mine|v2` shifted every column after it in
/// the run table (and the step summary). Every row has the header's columns.
#[test]
fn a_pipe_in_a_label_stays_in_its_markdown_cell() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.md");
    let out = tenure_eval_ok(
        &[
            "run",
            "--suite",
            "pmb",
            "--label",
            "mine|v2",
            "--quiet",
            "--summary-md",
        ],
        &[&summary, Path::new("--out"), &dir.path().join("r")],
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned()
        + &std::fs::read_to_string(&summary).unwrap();
    // Columns: the `|` not escaped by a backslash.
    let columns = |line: &str| {
        line.match_indices('|')
            .filter(|(i, _)| *i == 0 || &line[i - 1..*i] != "\\")
            .count()
    };
    let runs: Vec<&str> = text.lines().filter(|l| l.starts_with("| pmb")).collect();
    assert!(
        runs.len() >= 4,
        "the run table's rows and the summary's: {text}"
    );
    // The run table's 11 columns: 12 bars in every row.
    assert!(runs.iter().all(|r| columns(r) == 12), "{text}");
    assert!(runs.iter().all(|r| r.contains("mine\\|v2")), "{text}");
}

/// The gates pair cases by id, as `compare` does, and `compare` refuses runs of different
/// suites: a paper run's report judged a pmb run in silence (both gates "passed"). It is now
/// refused before any work, naming both suites.
#[test]
fn a_baseline_of_another_suite_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let paper = dir.path().join("paper");
    tenure_eval_ok(
        &["static", "--suite", "paper", "--quiet", "--out"],
        &[&paper],
    );
    let baseline = std::fs::read_dir(paper.join("paper"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.extension().is_some_and(|e| e == "json")
                && !p.to_string_lossy().ends_with("manifest.json")
        })
        .unwrap();
    let out = dir.path().join("pmb");
    let run = tenure_eval_with(
        &[
            "static",
            "--suite",
            "pmb",
            "--quiet",
            "--fail-on",
            "new-failures",
            "--baseline",
        ],
        &[&baseline, Path::new("--out"), &out],
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the baseline is a run of suite paper, and this run is of pmb"),
        "{stderr}"
    );
    assert!(!out.exists(), "refused before any work");
}

/// JUnit and the step summary count new failures as the gate does: a failing case the baseline
/// lacks is not compared (they called it new, the gate did not: JUnit red, the job green), and
/// a first run without a baseline lists no failure as new and marks its skipped gate skipped.
#[test]
fn junit_and_the_summary_count_new_failures_as_the_gate_does() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let base = ["static", "--suite", "pmb", "--label", "sys", "--quiet"];
    tenure_eval_ok(&[&base[..], &["--out"]].concat(), &[&at("a")]);
    tenure_eval_ok(
        &[&base[..], &["--min-score", "12", "--out"]].concat(),
        &[&at("c")],
    );
    let report = |dir: &str| -> serde_json::Value {
        serde_json::from_slice(
            &std::fs::read(at(dir).join("pmb/retrieval-report-sys.json")).unwrap(),
        )
        .unwrap()
    };
    let failing: Vec<String> = report("c")["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["passed"] == false)
        .map(|c| c["caseId"].as_str().unwrap().to_string())
        .collect();
    assert!(failing.len() > 10, "{failing:?}");
    // The baseline: the passing run without 7 of the cases that fail at --min-score 12.
    let dropped: Vec<&String> = failing.iter().take(7).collect();
    let mut baseline = report("a");
    baseline["cases"]
        .as_array_mut()
        .unwrap()
        .retain(|c| !dropped.iter().any(|d| c["caseId"] == d.as_str()));
    let baseline_path = at("baseline.json");
    std::fs::write(&baseline_path, serde_json::to_vec(&baseline).unwrap()).unwrap();
    let (junit, summary) = (at("j.xml"), at("s.md"));
    let gated = |baseline: &Path, extra: &[&str]| {
        tenure_eval_with(
            &[
                &base[..],
                &["--min-score", "12", "--fail-on", "new-failures"],
                extra,
                &["--junit"],
            ]
            .concat(),
            &[
                &junit,
                Path::new("--summary-md"),
                &summary,
                Path::new("--baseline"),
                baseline,
                Path::new("--out"),
                &at("g"),
            ],
        )
    };
    let new = failing.len() - 7;
    let o = gated(&baseline_path, &[]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(
        xml.contains(&format!("failures=\"{}\"", new + 1)),
        "the new failures and the gate: {xml}"
    );
    assert_eq!(
        xml.matches("not in the baseline: not compared").count(),
        7,
        "{xml}"
    );
    assert!(md.contains(&format!("### New failures ({new})")), "{md}");
    assert!(
        md.contains("7 failing cases without a baseline to compare with"),
        "{md}"
    );

    // A first run: no baseline yet.
    let o = gated(&at("missing.json"), &["--baseline-missing", "ok"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(!md.contains("New failures"), "{md}");
    assert!(xml.contains("failures=\"0\""), "{xml}");
    assert!(
        xml.contains(&format!("skipped=\"{}\"", failing.len() + 1)),
        "every failure and the gate: {xml}"
    );
}

/// `models` keeps its reports in a folder of its own: a shared `[defaults] out` put them over a
/// run's (the run's report replaced by one of other measures, exit 0). It is said and left;
/// `[models] out` moves them.
#[test]
fn models_does_not_take_the_shared_out_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tenure-eval.toml"),
        "[defaults]\nout = \"R\"\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        let out = crate::common::cli(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    run(&["run", "--suite", "pmb", "--backend", "bm25", "--quiet"]);
    let report = dir.path().join("R/pmb/retrieval-report-tenure.json");
    let before = std::fs::read(&report).unwrap();
    let said = run(&[
        "models",
        "--suite",
        "pmb",
        "--model",
        "hashed:64",
        "--quiet",
    ]);
    assert!(
        said.contains("[defaults] out: not used by `models`"),
        "{said}"
    );
    assert_eq!(
        std::fs::read(&report).unwrap(),
        before,
        "the run's report is its own"
    );
    assert!(dir
        .path()
        .join("reports/models/pmb/retrieval-report-tenure.json")
        .is_file());
}

/// A session run in which no turn has a precision (it retrieved nothing) has no mean of
/// 1 − precision: `compare` says "–", as the run table does, not 0.0000, the best value
/// (PrecisionMemBench's tables keep upstream's 0.0000, with its footnote's meaning).
#[test]
fn compare_says_no_precision_drift_where_no_turn_has_a_precision() {
    let dir = tempfile::tempdir().unwrap();
    let report = crate::common::pmb_session(dir.path());
    let mut empty: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    for turn in empty["cases"].as_array_mut().unwrap() {
        turn["retrievalPrecision"] = serde_json::Value::Null;
        turn["precisionDriftScore"] = 0.0.into();
    }
    let edited = dir.path().join("empty.json");
    std::fs::write(&edited, serde_json::to_vec(&empty).unwrap()).unwrap();
    let out = tenure_eval_ok(&["compare"], &[&report, &edited]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("- mean drift, 1 − precision (PrecisionMemBench): 0.0000 → –"),
        "{text}"
    );
}

/// `--max-precision-drop` compares the precision of the cases the baseline measured, a case of
/// the run without one counting 0: a paper run that lost 33 of its cases kept a mean of 1.0
/// over the few left with a precision, and passed.
#[test]
fn max_precision_drop_compares_the_baselines_cases() {
    let dir = tempfile::tempdir().unwrap();
    let base = ["static", "--suite", "paper", "--label", "sys", "--quiet"];
    tenure_eval_ok(
        &[&base[..], &["--out"]].concat(),
        &[&dir.path().join("base")],
    );
    let baseline = dir.path().join("base/paper/retrieval-report-sys.json");
    let o = tenure_eval_with(
        &[
            &base[..],
            &[
                "--min-score",
                "25",
                "--max-precision-drop",
                "0.05",
                "--baseline",
            ],
        ]
        .concat(),
        &[&baseline, Path::new("--out"), &dir.path().join("new")],
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("gate max-precision-drop FAILED"),
        "{stderr}"
    );
    assert!(stderr.contains("vs baseline 1.0000"), "{stderr}");
}

/// A `[defaults] min-active-passes` is for the commands that run static cases: `session` says
/// so, naming the file's line, and runs (it was exit 2 without naming the file). On the
/// command line it is still refused.
#[test]
fn session_leaves_a_default_static_gate_saying_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tenure-eval.toml"),
        "[defaults]\nmin-active-passes = 40\n",
    )
    .unwrap();
    let session = |extra: &[&str]| {
        let args = [
            &["session", "--suite", "pmb", "--quiet", "--out", "o"][..],
            extra,
        ]
        .concat();
        crate::common::cli(&args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let o = session(&[]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("tenure-eval.toml line 2, [defaults] min-active-passes = 40: not used"),
        "{stderr}"
    );
    let o = session(&["--min-active-passes", "3"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `compare`'s largest score changes read a relation expansion's placeholder 0 as a score: a
/// belief the search dropped at `--min-score 8` and an expansion added back read "7.69 → 0.00".
/// A score of 0 is no score: "–".
#[test]
fn an_expansions_placeholder_is_no_score_in_compare() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    tenure_eval_ok(&["static", "--suite", "pmb", "--quiet", "--out"], &[&a]);
    tenure_eval_ok(
        &[
            "static",
            "--suite",
            "pmb",
            "--min-score",
            "8",
            "--quiet",
            "--out",
        ],
        &[&b],
    );
    let out = tenure_eval_ok(
        &["compare"],
        &[
            &a.join("pmb/retrieval-report-tenure.json"),
            &b.join("pmb/retrieval-report-tenure-min8.json"),
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let row = text
        .lines()
        .find(|l| {
            l.starts_with("| relation-does-not-appear-as-entity") && l.contains("b-redis-code")
        })
        .unwrap_or_else(|| panic!("{text}"));
    assert!(row.contains("| 7.69 | –"), "{row}");
    assert!(!text.contains("| 0.00 "), "{text}");
}
