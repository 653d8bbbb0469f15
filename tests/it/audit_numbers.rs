//! What the third audit for "no wrong number with exit 0" found, each kept closed here: a
//! setting that measures nothing or cannot be trusted is refused (exit 2), naming it; a figure
//! of nothing is printed as "-", never as 0; a hand-edited aggregate is caught by `verify`; a
//! page of part of a run, or of runs on other files, says so or is refused.

use crate::common::{refused, tenure_eval_ok, tenure_eval_with};
use serde_json::Value;
use std::path::Path;

/// A BM25 run of pmb's static cases, quietly (with `--out` and more after it).
const PMB_BM25: [&str; 6] = ["static", "--suite", "pmb", "--backend", "bm25", "--quiet"];

#[test]
fn settings_that_cannot_be_trusted_are_refused_by_name() {
    let cosine = [
        "static",
        "--suite",
        "pmb",
        "--backend",
        "cosine",
        "--model",
        "hashed",
    ];
    // NaN, or a floor above 1, dropped every hit with exit 0.
    for floor in ["NaN", "2", "-1.5"] {
        let floor = format!("--cosine-floor={floor}");
        let args = [&cosine[..], &[floor.as_str()]].concat();
        refused(&args, "is not a cosine similarity in [-1, 1]");
    }
    let spreading = [
        "static",
        "--suite",
        "pmb",
        "--backend",
        "spreading",
        "--model",
        "hashed",
    ];
    refused(
        &[&spreading[..], &["--edge-threshold", "inf"]].concat(),
        "--edge-threshold",
    );
    // The flywheel: infinity changed the run yet was recorded as null; NaN scored nothing;
    // no session measured nothing and printed zeros.
    let flywheel = [
        "flywheel",
        "--quiet",
        "--sessions",
        "2",
        "--initial-beliefs",
        "20",
    ];
    for (flag, value, says) in [
        ("--zipf", "inf", "--zipf inf: expected a finite number"),
        (
            "--topic-skew",
            "inf",
            "--topic-skew inf: expected a finite number",
        ),
        (
            "--min-score",
            "NaN",
            "--min-score NaN: expected a finite number",
        ),
    ] {
        refused(&[&flywheel[..], &[flag, value]].concat(), says);
    }
    for (flag, says) in [
        ("--sessions", "--sessions and"),
        ("--references", "--references must be"),
    ] {
        refused(&["flywheel", "--quiet", flag, "0"], says);
    }
    refused(
        &[
            "flywheel",
            "--vector",
            "--model",
            "hashed",
            "--vector-queries",
            "0",
        ],
        "--vector-queries",
    );
    refused(
        &[
            "flywheel", "--vector", "--model", "hashed", "--floors", "1.5",
        ],
        "is not a number in [0, 1]",
    );
    // A repeat of a run taking its passed cases from the journal is no repeat.
    let args = ["run", "--suite", "pmb", "--repeat", "2", "--rerun-failed"];
    refused(&args, "cannot be used with '--rerun-failed'");
    // A floor given twice ran twice, one report over the other.
    refused(
        &[&cosine[..], &["--cosine-floor", "0.5,0.5"]].concat(),
        "--cosine-floor 0.5 is given twice",
    );
    // A model given twice ran twice, and models adjusted its tests over both rows.
    refused(
        &[
            "models", "--suite", "pmb", "--model", "hashed", "--model", "hashed",
        ],
        "--model hashed is given twice",
    );
}

/// `verify` recomputes the rank measures' means of the summary too, and a manifest whose input
/// list was emptied is not verified (nothing of its inputs would be checked).
#[test]
fn verify_catches_an_edited_rank_mean_and_an_emptied_input_list() {
    let dir = tempfile::tempdir().unwrap();
    tenure_eval_ok(&[&PMB_BM25[..], &["--out"]].concat(), &[dir.path()]);
    let report = dir.path().join("pmb/retrieval-report-tenure.json");
    assert!(tenure_eval_with(&["verify"], &[&report]).status.success());
    let value: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let edited = |name: &str, edit: &dyn Fn(&mut Value)| {
        let mut v = value.clone();
        edit(&mut v);
        let path = dir.path().join(name);
        std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
        let out = tenure_eval_with(&["verify"], &[&path]);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (code, said) = edited("rr.json", &|v| {
        v["retrieval"]["rankMetrics"]["means"]["RR"] = 0.5.into();
    });
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("retrieval.rankMetrics.means.RR is 0.5"),
        "{said}"
    );
    let (code, said) = edited("noinputs.json", &|v| {
        v["manifest"]["inputs"] = serde_json::json!([]);
    });
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("manifest.inputs is empty"), "{said}");
}

/// A page of a shard's report says it holds part of a run; a page of runs on different files
/// is refused, as `compare` refuses them; a page or a comparison against a suite named is
/// refused for a run on other files than the suite's.
#[test]
fn a_page_says_a_shard_is_part_of_a_run_and_refuses_runs_on_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name);
    let out = |name: &str| d(name).to_str().unwrap().to_string();
    tenure_eval_ok(
        &[&PMB_BM25[..], &["--shard", "1/3", "--out"]].concat(),
        &[&d("shard")],
    );
    let shard = d("shard/pmb/retrieval-report-tenure.json");
    tenure_eval_ok(&["html", "--quiet", "--out", &out("s.html")], &[&shard]);
    let page = std::fs::read_to_string(d("s.html")).unwrap();
    assert!(
        page.contains("\"part\":\"shard 1/3 of a run\""),
        "the page's data"
    );
    if let Some(b) = crate::common::browser::browser_or_skip() {
        b.goto(&crate::common::browser::Browser::file_url(&d("s.html"), ""));
        let note = b.wait("const p = document.querySelector('.part'); return p && p.textContent;");
        assert!(
            note.as_str()
                .unwrap()
                .starts_with("Part of a run: retrieval-report-tenure.json is shard 1/3"),
            "{note}"
        );
    }
    // Two runs of a custom suite, one on a corpus with a belief's content edited.
    let mut beliefs: Vec<Value> = serde_json::from_slice(
        &std::fs::read(crate::common::repo("seeds/pmb/beliefs.seed.json")).unwrap(),
    )
    .unwrap();
    std::fs::write(d("a.json"), serde_json::to_vec(&beliefs).unwrap()).unwrap();
    beliefs[0]["content"] = "edited".into();
    std::fs::write(d("b.json"), serde_json::to_vec(&beliefs).unwrap()).unwrap();
    let cases = crate::common::repo("cases/pmb/retrieval.cases.json");
    for corpus in ["a", "b"] {
        tenure_eval_ok(
            &[
                "static",
                "--backend",
                "bm25",
                "--quiet",
                "--corpus",
                &out(&format!("{corpus}.json")),
            ],
            &[
                Path::new("--cases"),
                &cases,
                Path::new("--out"),
                &d(&format!("run-{corpus}")),
            ],
        );
    }
    let report = |corpus: &str| d(&format!("run-{corpus}/custom/retrieval-report-tenure.json"));
    let page = out("two.html");
    let two = tenure_eval_with(
        &["html", "--quiet", "--out", &page],
        &[&report("a"), &report("b")],
    );
    let stderr = String::from_utf8_lossy(&two.stderr);
    assert_eq!(two.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("these runs read different files"),
        "{stderr}"
    );
    // Named against the first corpus, the run on the second is of other files.
    let against = tenure_eval_with(
        &[
            "html",
            "--quiet",
            "--out",
            &page,
            "--corpus",
            &out("a.json"),
        ],
        &[Path::new("--cases"), &cases, &report("b")],
    );
    let stderr = String::from_utf8_lossy(&against.stderr);
    assert_eq!(against.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is not among the files given"), "{stderr}");
    assert!(!Path::new(&page).exists(), "no page written");
    // `compare` with the suite named re-scores by its gold: the same refusal.
    let compared = tenure_eval_with(
        &["compare", "--corpus", &out("a.json")],
        &[Path::new("--cases"), &cases, &report("a"), &report("b")],
    );
    let stderr = String::from_utf8_lossy(&compared.stderr);
    assert_eq!(compared.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is not among the files given"), "{stderr}");
}

/// LoCoMo-Plus's users ask one question each: the learning half is empty, and the study's
/// "learned" rows were the none rows, printed as measured.
#[test]
fn alias_learning_refuses_a_suite_with_nothing_to_learn_from() {
    use crate::common::needs::{data_file, locomo_file, needs, Need};
    if !needs(&[Need::Locomo, Need::LocomoPlus]) {
        return;
    }
    let plus = data_file("locomo-plus/locomo_plus.json");
    refused(
        &[
            "alias-learning",
            "--suite",
            "locomo-plus",
            "--data",
            plus.to_str().unwrap(),
            "--locomo",
            locomo_file().to_str().unwrap(),
        ],
        "the learning half is empty",
    );
}

/// A belief's confidence is a probability: 1e308 was read as 1, and -5 dropped the belief from
/// the composite scorer's context, in silence.
#[test]
fn a_confidence_outside_0_1_is_refused_naming_its_belief() {
    let dir = tempfile::tempdir().unwrap();
    let cases = crate::common::repo("cases/pmb/retrieval.cases.json");
    for bad in [1e308, -5.0] {
        let mut beliefs: Vec<Value> = serde_json::from_slice(
            &std::fs::read(crate::common::repo("seeds/pmb/beliefs.seed.json")).unwrap(),
        )
        .unwrap();
        beliefs[3]["confidence"] = bad.into();
        let corpus = dir.path().join("beliefs.json");
        std::fs::write(&corpus, serde_json::to_vec(&beliefs).unwrap()).unwrap();
        let out = tenure_eval_with(
            &["validate"],
            &[Path::new("--corpus"), &corpus, Path::new("--cases"), &cases],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("$[3].confidence")
                && stderr.contains("expected a confidence in [0, 1]"),
            "{stderr}"
        );
    }
}
