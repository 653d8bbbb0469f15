//! The studies read a report's rows against the benchmark's files given them (`locomo`,
//! `beam`, `longmemeval`, `trec`; all through one check, `LoadedReport::whole_run_on`, tried
//! here through `locomo` and `trec`, and a stopped run's report in `journal`): a report that
//! is not a whole, finished run on those very files is refused, named (exit 2), never
//! measured as one. An audit found a shard's report
//! and a run on an altered copy of LoCoMo each measured against the released file with exit 0
//! (the altered run's gold, read from its rows, made every figure 1.000).

use crate::common::needs::{locomo_file, needs, Need};
use crate::common::{tenure_eval, tenure_eval_ok, tenure_eval_with};
use std::path::Path;

/// A plain-BM25 run of LoCoMo (with `--data`, `--out` and more after it).
const LOCOMO_RUN: [&str; 6] = [
    "run",
    "--suite",
    "locomo",
    "--backend",
    "bm25-text",
    "--quiet",
];

#[test]
fn a_shard_or_a_run_on_other_files_is_not_measured_as_a_whole_run_on_these() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let released = locomo_file();
    let dir = tempfile::tempdir().unwrap();
    // An altered copy: one character of one turn changed.
    let text = std::fs::read_to_string(&released).unwrap();
    let at = text.find("\"text\": \"").unwrap() + 9;
    let mut altered = text.clone();
    altered.replace_range(at..at + 1, "#");
    assert_ne!(altered, text);
    let copy = dir.path().join("locomo10.json");
    std::fs::write(&copy, altered).unwrap();
    let run = |data: &Path, out: &str, extra: &[&str]| {
        let out = dir.path().join(out);
        let args = [&LOCOMO_RUN[..], extra].concat();
        tenure_eval_ok(
            &args,
            &[Path::new("--data"), data, Path::new("--out"), &out],
        );
        out.join("locomo/retrieval-report-bm25-text.json")
    };
    let whole = run(&released, "whole", &[]);
    let on_copy = run(&copy, "copy", &[]);
    let shard = run(&released, "shard", &["--shard", "1/3"]);
    let measure = |report: &Path| {
        tenure_eval(&[
            "locomo",
            report.to_str().unwrap(),
            "--data",
            released.to_str().unwrap(),
            "--quiet",
        ])
    };
    assert!(measure(&whole).status.success());
    for (report, says) in [
        (&on_copy, "is not among the files given"),
        (&shard, "the report of shard 1/3"),
    ] {
        let out = measure(report);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{says}: {stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert!(out.stdout.is_empty());
    }
    // `compare` pairs the two runs' cases by id: their gold differs, so it refuses.
    let out = tenure_eval(&[
        "compare",
        whole.to_str().unwrap(),
        on_copy.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("these runs read different files"));
    // The run on the copy is measured against the copy.
    let out = tenure_eval(&[
        "locomo",
        on_copy.to_str().unwrap(),
        "--data",
        copy.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Through `trec`, on the built-in suite (no benchmark file needed): a shard's report is
/// refused, and a whole run's exported.
#[test]
fn trec_exports_a_whole_run_and_refuses_a_shard() {
    let dir = tempfile::tempdir().unwrap();
    for (out, extra) in [("whole", None), ("shard", Some("1/3"))] {
        let mut args = vec!["run", "--suite", "pmb", "--quiet"];
        if let Some(k) = extra {
            args.extend(["--shard", k]);
        }
        tenure_eval_ok(&args, &[Path::new("--out"), &dir.path().join(out)]);
        let report = dir
            .path()
            .join(out)
            .join("pmb/retrieval-report-tenure.json");
        let exported = tenure_eval(&[
            "trec",
            "--suite",
            "pmb",
            "--out",
            dir.path().to_str().unwrap(),
            report.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&exported.stderr);
        match extra {
            None => assert!(exported.status.success(), "{stderr}"),
            Some(_) => {
                assert_eq!(exported.status.code(), Some(2), "{stderr}");
                assert!(stderr.contains("the report of shard 1/3"), "{stderr}");
            }
        }
    }
}

/// LoCoMo with the audit's corrections: the run must have read the very overlay given, not
/// fewer files of it (its gold differs).
#[test]
fn a_run_with_another_overlay_of_corrections_is_refused() {
    if !needs(&[Need::Locomo, Need::LocomoAudit]) {
        return;
    }
    let data = locomo_file();
    let audit = crate::common::needs::data_file("locomo-audit");
    let (zero, one) = (
        audit.join("errors_conv_0.json"),
        audit.join("errors_conv_1.json"),
    );
    let dir = tempfile::tempdir().unwrap();
    let args = LOCOMO_RUN;
    let paths = [
        Path::new("--data"),
        &data,
        Path::new("--corrections"),
        &zero,
        Path::new("--out"),
        dir.path(),
    ];
    tenure_eval_ok(&args, &paths);
    let report = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path().join("retrieval-report-bm25-text.json"))
        .find(|p| p.exists())
        .unwrap();
    let measure = |overlay: &[&Path]| {
        let mut args = vec!["locomo", "--quiet", "--data", data.to_str().unwrap()];
        for file in overlay {
            args.extend(["--corrections", file.to_str().unwrap()]);
        }
        args.push(report.to_str().unwrap());
        tenure_eval(&args)
    };
    assert!(measure(&[&zero]).status.success());
    let out = measure(&[&zero, &one]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the run did not read one of the files given"),
        "{stderr}"
    );
    // A page against the suite with more corrections is refused the same way (other gold).
    let page = dir.path().join("page.html");
    let shown = tenure_eval_with(
        &["html", "--quiet", "--suite", "locomo"],
        &[
            Path::new("--data"),
            &data,
            Path::new("--corrections"),
            &zero,
            Path::new("--corrections"),
            &one,
            Path::new("--out"),
            &page,
            &report,
        ],
    );
    let stderr = String::from_utf8_lossy(&shown.stderr);
    assert_eq!(shown.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("a file of the corrections given"),
        "{stderr}"
    );
    assert!(!page.exists());
}

/// A run that reached its end with cases the backend failed on (its report in `failed/`) is no
/// measurement of those cases: `tables`, `compare`, `plot` and the studies refuse it, naming the
/// first errored entry's JSON path. An audit found each reading the errored rows as misses,
/// with exit 0; `tables` reading a stopped run's first cases as the suite's; and `run
/// --history` appending such a run to the series as a measurement.
#[test]
fn a_failed_runs_report_is_not_scored_as_a_run() {
    use crate::common::provider::{faulty, static_toy};
    let Some((dir, provider)) = faulty(&["--search-status", "500"]) else {
        return;
    };
    let out = dir.path().join("out");
    let history = dir.path().join("history");
    let failed_run = static_toy(
        &provider.url,
        &out,
        &[
            "--retries",
            "0",
            "--max-errors",
            "100",
            "--history",
            history.to_str().unwrap(),
        ],
    )
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&failed_run.stderr);
    assert_eq!(failed_run.status.code(), Some(3), "{stderr}");
    let failed = out.join("pmb/failed/retrieval-report-toy.json");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&failed).unwrap()).unwrap();
    assert!(report["manifest"]["stopped"].is_null(), "it ran to its end");
    // Nor is it a point of the run history.
    let series = std::fs::read_to_string(history.join("history.jsonl")).unwrap_or_default();
    assert_eq!(series, "", "not appended to the history");
    let first = report["cases"][0]["caseId"].as_str().unwrap().to_string();
    assert!(report["cases"][0]["error"].is_object());
    // An errored case has no ranking: no rank measures (they read 0.0), and the summary's
    // means are of nothing (they read 0.0 over 43 "queries", every one errored).
    let cases = report["cases"].as_array().unwrap();
    let errored: Vec<&serde_json::Value> =
        cases.iter().filter(|c| c["error"].is_object()).collect();
    assert!(errored.len() >= 70, "{}", errored.len());
    assert!(
        errored.iter().all(|c| c["rankMetrics"].is_null()),
        "{}",
        errored[0]
    );
    let block = &report["retrieval"]["rankMetrics"];
    assert_eq!(block["queries"], 0, "{block}");
    assert!(block["means"]["nDCG@10"].is_null(), "{block}");
    let good_out = dir.path().join("good");
    tenure_eval_ok(
        &["static", "--suite", "pmb", "--backend", "bm25", "--quiet"],
        &[Path::new("--out"), &good_out],
    );
    let good = good_out.join("pmb/retrieval-report-tenure.json");
    let (f, g) = (failed.to_str().unwrap(), good.to_str().unwrap());
    let svg = dir.path().join("f.svg");
    let svg = svg.to_str().unwrap();
    for args in [
        &["tables", f][..],
        &["compare", g, f],
        &[
            "trec",
            "--suite",
            "pmb",
            "--out",
            dir.path().to_str().unwrap(),
            f,
        ],
        &["plot", "--case", &first, g, f, "--out", svg],
    ] {
        let output = tenure_eval(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(f), "{args:?} names the file: {stderr}");
        assert!(
            stderr.contains("$.cases[0].error") && stderr.contains("the backend failed on"),
            "{args:?}: {stderr}"
        );
    }
    assert!(!Path::new(svg).exists(), "no figure drawn");
    // A run stopped by its errors: its first cases are not the suite's, for `tables` too.
    let stopped_out = dir.path().join("stopped");
    let stopped = static_toy(
        &provider.url,
        &stopped_out,
        &["--retries", "0", "--max-errors", "2"],
    )
    .output()
    .unwrap();
    assert_eq!(stopped.status.code(), Some(3));
    let partial = stopped_out.join("pmb/failed/retrieval-report-toy.json");
    let output = tenure_eval(&["tables", partial.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("stopped before its end"), "{stderr}");
    // The good report alone is read as before.
    assert!(tenure_eval(&["tables", g]).status.success());
}

/// A baseline is what new failures are counted against: a failed run's report (its errored
/// cases counted as failed before, so a new failure there passed `--fail-on new-failures`) or a
/// stopped run's is refused, named.
#[test]
fn a_failed_or_stopped_report_is_no_baseline() {
    use crate::common::provider::{faulty, static_toy};
    let Some((dir, provider)) = faulty(&["--search-status", "500"]) else {
        return;
    };
    let mut reports = Vec::new();
    for (name, max_errors) in [("errored", "100"), ("stopped", "2")] {
        let out = dir.path().join(name);
        let extra = ["--retries", "0", "--max-errors", max_errors];
        let run = static_toy(&provider.url, &out, &extra).output().unwrap();
        assert_eq!(run.status.code(), Some(3));
        reports.push(out.join("pmb/failed/retrieval-report-toy.json"));
    }
    for (baseline, says) in reports
        .iter()
        .zip(["$.cases[0].error", "$.manifest.stopped"])
    {
        let gated = tenure_eval_with(
            &["static", "--suite", "pmb", "--backend", "bm25", "--quiet"],
            &[
                Path::new("--out"),
                &dir.path().join("gated"),
                Path::new("--fail-on"),
                Path::new("new-failures"),
                Path::new("--baseline"),
                baseline,
            ],
        );
        let stderr = String::from_utf8_lossy(&gated.stderr);
        assert_eq!(gated.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
    }
}
