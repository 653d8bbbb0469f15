//! Choosing cases (`run --case --category --limit`): the cases kept are the ones named, each
//! scored as in a whole run; the reports go to SUITE-selected/ with the selection in their
//! manifest, never over a whole run's; `tables` and `verify` refuse them as whole runs; a
//! pattern or category that matches nothing is exit 2 naming it.

use crate::common::{tenure_eval, tenure_eval_ok};
use serde_json::Value;
use std::path::Path;

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_selection_runs_those_cases_as_a_whole_run_does_and_says_so_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).display().to_string();
    tenure_eval_ok(
        &[
            "static",
            "--suite",
            "pmb",
            "--quiet",
            "--out",
            &out("whole"),
        ],
        &[],
    );
    let whole = read(&dir.path().join("whole/pmb/retrieval-report-tenure.json"));
    let o = tenure_eval_ok(
        &[
            "static",
            "--suite",
            "pmb",
            "--case",
            "happy-*",
            "--limit",
            "3",
            "--out",
            &out("some"),
        ],
        &[],
    );
    assert!(
        stderr(&o).contains("3 of 77 static cases"),
        "{}",
        stderr(&o)
    );
    assert!(
        !dir.path().join("some/pmb").exists(),
        "never the whole run's folder"
    );
    let file = dir
        .path()
        .join("some/pmb-selected/retrieval-report-tenure.json");
    let some = read(&file);
    assert_eq!(some["manifest"]["suite"], "pmb-selected");
    assert_eq!(some["manifest"]["selection"]["cases"][0], "happy-*");
    assert_eq!(some["manifest"]["selection"]["limit"], 3);
    let cases = some["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 3);
    let happy: Vec<&Value> = whole["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["caseId"].as_str().unwrap().starts_with("happy-"))
        .take(3)
        .collect();
    for (got, want) in cases.iter().zip(happy) {
        assert_eq!(got["caseId"], want["caseId"]);
        assert_eq!(got["relevantBeliefs"], want["relevantBeliefs"]);
        assert_eq!(got["passed"], want["passed"]);
    }
    // Not a whole run: tables and verify refuse it, naming the field.
    for command in ["tables", "verify"] {
        let o = tenure_eval(&[command, file.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{command}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("$.manifest.selection"),
            "{command}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_pattern_or_category_that_matches_nothing_is_exit_2_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let o = tenure_eval(&[
        "static", "--suite", "pmb", "--case", "nosuch-*", "--out", out,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--case nosuch-*: matches no case of pmb"),
        "{}",
        stderr(&o)
    );
    let o = tenure_eval(&[
        "static",
        "--suite",
        "pmb",
        "--category",
        "nosuch",
        "--out",
        out,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--category nosuch: no case of pmb has it; its categories:"),
        "{}",
        stderr(&o)
    );
    let o = tenure_eval(&["static", "--suite", "pmb", "--limit", "0", "--out", out]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("keeps no case"), "{}", stderr(&o));
    // A selection of session cases only, run by `static`: a report of 0 static cases would
    // pass every gate (found by an audit). Refused; `run` runs the sessions with a note.
    let o = tenure_eval(&[
        "static",
        "--suite",
        "pmb",
        "--case",
        "session-*",
        "--fail-on",
        "any-failure",
        "--out",
        out,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("suite pmb-selected has no static cases in the selection"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_dir(out).unwrap().count(),
        0,
        "nothing written"
    );
}
