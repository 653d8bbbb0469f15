//! What a review of the third audit's fixes and a fourth audit for "no wrong number with exit
//! 0" found, each kept closed here: a figure drawn from errored turns, a compat-mode run whose
//! system failed its calls read as a run, `--explain --top 0`, the chance test's case count,
//! `serve`'s default backend over items without aliases, a linked store's prune.

use crate::common::{refused, tenure_eval_ok, tenure_eval_with};
use serde_json::Value;

/// Figure 2 from a session run whose backend failed on turns: an errored turn has no lists, and
/// its drift was drawn as 0, the best a system can do. Refused, naming the turn's path.
#[test]
fn the_drift_figure_refuses_a_run_with_errored_turns() {
    use crate::common::provider::{faulty, toy};
    let Some((dir, provider)) = faulty(&["--search-status", "500"]) else {
        return;
    };
    let out = dir.path().join("out");
    let extra = ["--retries", "0", "--max-errors", "100"];
    crate::common::exits(&mut toy("session", &provider.url, &out, &extra), 3);
    let failed = out.join("pmb/failed/session-retrieval-report-toy.json");
    // An errored turn's drift is of nothing: null, never 0.0.
    let report: Value = serde_json::from_slice(&std::fs::read(&failed).unwrap()).unwrap();
    let turns = report["cases"].as_array().unwrap();
    assert!(turns
        .iter()
        .all(|t| t["driftScore"].is_null() && t["precisionDriftScore"].is_null()));
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
    use crate::common::provider::{faulty, static_toy};
    let Some((dir, provider)) = faulty(&["--search-status", "500"]) else {
        return;
    };
    let out = dir.path().join("out");
    let (junit, summary) = (dir.path().join("j.xml"), dir.path().join("s.md"));
    let (j, s) = (junit.to_str().unwrap(), summary.to_str().unwrap());
    let extra = [
        "--compat",
        "pmb",
        "--max-errors",
        "100",
        "--junit",
        j,
        "--summary-md",
        s,
    ];
    crate::common::exits(&mut static_toy(&provider.url, &out, &extra), 3);
    // CI's files say it too: the JUnit had no error, the summary only a warning.
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("name=\"run failed\"") && xml.contains("type=\"unhealthy\""),
        "{xml}"
    );
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.contains("### ❌ Run failed"), "{md}");
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
    // Its manifest (`{}`) is no store's: `cache list` says so, where it listed a store of
    // 0.0 MB.
    let out = crate::common::cli(&["cache", "list"])
        .env("TENURE_EVAL_CACHE", &cache)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("linked") && stdout.contains("not a store: "),
        "{stdout}"
    );
    assert!(stdout.contains("manifest.json"), "names the file: {stdout}");
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

/// LoCoMo-Plus's splice is part of the suite: another `--splice-seed` puts each cue in another
/// conversation with the same files, and runs on two splices were merged and compared as one.
/// The suite is named by a seed other than the default (`locomo-plus-seed7`), so the suite
/// checks of `merge`, `compare` and the studies tell them apart.
#[test]
fn a_splice_seed_names_the_suite() {
    use crate::common::needs::{data_file, locomo_file, needs, Need};
    if !needs(&[Need::Locomo, Need::LocomoPlus]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (plus, locomo) = (data_file("locomo-plus/locomo_plus.json"), locomo_file());
    let suite_of = |seed: &[&str]| -> String {
        let out = dir.path().join(format!("out{}", seed.len()));
        let args = [
            &[
                "run",
                "--suite",
                "locomo-plus",
                "--backend",
                "bm25-text",
                "--quiet",
                "--limit",
                "2",
            ][..],
            seed,
        ]
        .concat();
        let paths = [
            std::path::Path::new("--data"),
            &plus,
            std::path::Path::new("--locomo"),
            &locomo,
            std::path::Path::new("--out"),
            &out,
        ];
        tenure_eval_ok(&args, &paths);
        let folder = (std::fs::read_dir(&out).unwrap())
            .map(|e| e.unwrap().path())
            .find(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
            .unwrap();
        let report: Value = serde_json::from_slice(
            &std::fs::read(folder.join("retrieval-report-bm25-text.json")).unwrap(),
        )
        .unwrap();
        report["manifest"]["suite"].as_str().unwrap().to_string()
    };
    assert_eq!(suite_of(&[]), "locomo-plus-selected");
    assert_eq!(
        suite_of(&["--splice-seed", "7"]),
        "locomo-plus-seed7-selected"
    );
}

/// `verify` checks a turn's `precisionDriftScore` against its precision (1 − precision, 0 where
/// precision is null): a drift edited beside a null precision, or beside a precision, was
/// verified before.
#[test]
fn verify_checks_a_turns_precision_drift_against_its_precision() {
    let dir = tempfile::tempdir().unwrap();
    let report = crate::common::pmb_session(dir.path());
    assert!(tenure_eval_with(&["verify"], &[&report]).status.success());
    let value: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let turns = value["cases"].as_array().unwrap();
    let at = |null: bool| {
        turns
            .iter()
            .position(|t| t["retrievalPrecision"].is_null() == null)
            .unwrap()
    };
    for (name, i) in [("null.json", at(true)), ("some.json", at(false))] {
        let mut v = value.clone();
        v["cases"][i]["precisionDriftScore"] = 0.5.into();
        let path = dir.path().join(name);
        std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
        let out = tenure_eval_with(&["verify"], &[&path]);
        let said = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{said}");
        let expected =
            format!("$.cases[{i}].precisionDriftScore is 0.5 but its retrievalPrecision");
        assert!(said.contains(&expected), "{said}");
    }
}
