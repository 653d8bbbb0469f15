//! What the third audit for "no wrong number with exit 0" found, each kept closed here: a
//! setting that measures nothing or cannot be trusted is refused (exit 2), naming it; a figure
//! of nothing is printed as "-", never as 0; a hand-edited aggregate is caught by `verify`; a
//! page of part of a run, or of runs on other files, says so or is refused.

use crate::common::{tenure_eval, tenure_eval_ok, tenure_eval_with};
use serde_json::Value;
use std::path::Path;

/// A BM25 run of pmb's static cases, quietly (with `--out` and more after it).
const PMB_BM25: [&str; 6] = ["static", "--suite", "pmb", "--backend", "bm25", "--quiet"];

/// `args` is exit 2 and says `says`.
fn refused(args: &[&str], says: &str) {
    let out = tenure_eval(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(says), "{args:?}: {stderr}");
}

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

/// Figure 2 from a session run whose backend failed on turns: an errored turn has no lists, and
/// its drift was drawn as 0, the best a system can do. Refused, naming the turn's path.
#[test]
fn the_drift_figure_refuses_a_run_with_errored_turns() {
    use crate::common::needs::{needs, Need};
    use crate::common::provider::{toy, Provider};
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let provider = Provider::start(0, &dir.path().join("p.log"), &["--search-status", "500"]);
    let out = dir.path().join("out");
    let extra = ["--retries", "0", "--max-errors", "100"];
    let run = toy("session", &provider.url, &out, &extra)
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let failed = out.join("pmb/failed/session-retrieval-report-toy.json");
    let svg = dir.path().join("drift.svg");
    let drawn = tenure_eval_with(&["plot", "--out", svg.to_str().unwrap()], &[&failed]);
    let stderr = String::from_utf8_lossy(&drawn.stderr);
    assert_eq!(drawn.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("$.cases[0].error") && stderr.contains("turns"),
        "{stderr}"
    );
    assert!(!svg.exists());
}

/// In compat mode a failed search reads as no results (upstream's client does so), and a pass
/// where most calls failed is a failed run: its report, in failed/, now says why in
/// `manifest.unhealthy`, and `tables` and the studies refuse it as a run (they read it as one).
#[test]
fn a_compat_run_whose_system_failed_its_calls_is_not_read_as_a_run() {
    use crate::common::needs::{needs, Need};
    use crate::common::provider::{static_toy, Provider};
    if !needs(&[Need::Python3]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let provider = Provider::start(0, &dir.path().join("p.log"), &["--search-status", "500"]);
    let out = dir.path().join("out");
    let extra = ["--compat", "pmb", "--retries", "0", "--max-errors", "100"];
    let run = static_toy(&provider.url, &out, &extra).output().unwrap();
    assert_eq!(
        run.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let failed: Vec<_> = std::fs::read_dir(out.join("pmb/failed"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
    let report: Value = serde_json::from_slice(&std::fs::read(&failed[0]).unwrap()).unwrap();
    assert!(
        report["manifest"]["unhealthy"].is_string(),
        "{}",
        report["manifest"]
    );
    let tables = tenure_eval_with(&["tables"], &[&failed[0]]);
    let stderr = String::from_utf8_lossy(&tables.stderr);
    assert_eq!(tables.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("$.manifest.unhealthy"), "{stderr}");
    // The page shows it, and says it is a failed run.
    let page = dir.path().join("page.html");
    tenure_eval_ok(
        &["html", "--quiet", "--out", page.to_str().unwrap()],
        &[&failed[0]],
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"unhealthy\":"), "the page's data");
    if let Some(b) = crate::common::browser::browser_or_skip() {
        b.goto(&crate::common::browser::Browser::file_url(&page, ""));
        let alert = b.wait("const p = [...document.querySelectorAll('p[role=alert]')].find((p) => p.textContent.startsWith('Failed run')); return p && p.textContent;");
        assert!(
            alert.as_str().unwrap().contains("scored as empty answers"),
            "{alert}"
        );
    }
}

/// From the fourth audit: `run --explain --top 0` said "no belief ... matches any query term" of a
/// case whose first belief scores 7.67; `models`' note said its chance test ran over the suite's
/// 77 cases where nDCG@10 is defined on 43 (the cases with gold); `serve` served alias-BM25 over
/// LoCoMo's items, which have no aliases, so a run against it read 0 everywhere, in silence.
#[test]
fn explain_top_0_refused_the_chance_test_counts_its_cases_and_serve_chooses_as_run() {
    refused(
        &[
            "run",
            "--explain",
            "happy-alias-match-kubernetes",
            "--top",
            "0",
        ],
        "--top",
    );
    // A draw of no statement wrote an empty file with exit 0.
    let draw = [
        "temporal", "draw", "--locomo", "x.json", "--part", "dev", "--n", "0",
    ];
    refused(&draw, "invalid value '0' for '--n <N>'");
    let dir = tempfile::tempdir().unwrap();
    let out = tenure_eval_with(
        &[
            "models", "--suite", "pmb", "--model", "hashed", "--quiet", "--out",
        ],
        &[dir.path()],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("over 43 cases, paired randomisation test"),
        "{text}"
    );
    use crate::common::needs::{locomo_file, needs, Need};
    if !needs(&[Need::Locomo]) {
        return;
    }
    let data = locomo_file();
    let data = data.to_str().unwrap();
    // What the server says on stderr once it serves (it prints its URL, then what it serves).
    let served = |extra: &[&str]| {
        let log = dir.path().join("serve.err");
        let mut child = crate::common::cli(&["serve", "--port", "0", "--suite", "locomo"])
            .args(["--data", data])
            .args(extra)
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        let mut said = String::new();
        while !said.contains("serving ") && start.elapsed() < std::time::Duration::from_secs(60) {
            std::thread::sleep(std::time::Duration::from_millis(50));
            said = std::fs::read_to_string(&log).unwrap_or_default();
        }
        child.kill().unwrap();
        child.wait().unwrap();
        said
    };
    let stderr = served(&[]);
    assert!(
        stderr.contains("serving bm25-text over suite locomo"),
        "{stderr}"
    );
    let stderr = served(&["--backend", "bm25"]);
    assert!(
        stderr.contains("warning: alias-BM25 (--backend bm25) matches"),
        "{stderr}"
    );
}

/// A store linked into the user cache: `cache prune` removes the link, leaves the store it
/// names, and says so (it said "removed … (0.0 MB)" of the target's size, freeing nothing).
#[test]
fn pruning_a_linked_store_says_the_store_is_left() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("elsewhere");
    std::fs::create_dir(&store).unwrap();
    std::fs::write(store.join("manifest.json"), b"{}").unwrap();
    std::fs::write(store.join("vectors.bin"), vec![0u8; 4096]).unwrap();
    let cache = dir.path().join("cache");
    std::fs::create_dir_all(cache.join("embeddings")).unwrap();
    std::os::unix::fs::symlink(&store, cache.join("embeddings/linked")).unwrap();
    let out = crate::common::cli(&["cache", "prune", "linked"])
        .env("TENURE_EVAL_CACHE", &cache)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("removed the link") && stderr.contains("is left"),
        "{stderr}"
    );
    assert!(!cache.join("embeddings/linked").exists());
    assert!(
        store.join("vectors.bin").is_file(),
        "the store it named is left"
    );
}
