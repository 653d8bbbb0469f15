//! What an eighth audit (the commands earlier audits left: scale, flywheel, serve, doctor)
//! found, each kept closed here: the scale study's reports taken for runs of the suite, scale
//! over items without aliases, sizes that overflowed, the flywheel's sweep ignoring `--off`,
//! its claims hanging on the order of `--sizes`, stale files beside a new manifest, flags the
//! vector study ignored, a request log that emptied a report, and zero workers or timeouts.

use crate::common::{refused, tenure_eval, tenure_eval_ok};
use serde_json::Value;
use std::path::Path;

use crate::common::json_at as json;

#[test]
fn the_scale_studys_reports_are_no_runs_of_the_suite() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sc");
    let args = [
        "scale",
        "--sizes",
        "500",
        "--queries",
        "5",
        "--quiet",
        "--out",
    ];
    tenure_eval_ok(&args, &[&out]);
    let report = out.join("scale-500.json");
    let report = report.to_str().unwrap();
    // Its cases ran over a synthetic store: verify, tables and compare took it for pmb's run.
    let said = "pmb-scale: the scale study's report";
    refused(&["verify", report], said);
    refused(&["tables", report], said);
    assert_eq!(json(Path::new(report))["manifest"]["suite"], "pmb-scale");
    // A page of its cases is still drawn (docs/html.md measures one), against the suite planted.
    let page = dir.path().join("p.html");
    tenure_eval_ok(&["html", "--quiet", "--out"], &[&page, Path::new(report)]);
}

#[test]
fn scale_refuses_items_without_aliases_and_sizes_beyond_counting() {
    let args = [
        "scale",
        "--suite",
        "longmemeval",
        "--data",
        "tests/data/longmemeval-sample.json",
    ];
    refused(
        &[&args[..], &["--sizes", "1k"]].concat(),
        "scale measures alias-BM25 (the paper's system)",
    );
    refused(
        &["scale", "--sizes", "18446744073709551m"],
        "more beliefs than this machine can count",
    );
    // The vector study plants no suite and draws its own seeds and queries.
    refused(
        &["scale", "--vectors", "--sizes", "1k", "--seed", "5"],
        "--seed: --vectors draws its vectors and queries from fixed seeds",
    );
    refused(
        &["scale", "--vectors", "--sizes", "1k", "--suite", "paper"],
        "--vectors measures synthetic vectors alone and plants no suite",
    );
}

#[test]
fn the_flywheels_sweep_runs_the_mechanisms_its_variants_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fw");
    let args = [
        "flywheel",
        "--sessions",
        "5",
        "--references",
        "20",
        "--initial-beliefs",
        "30",
        "--variants",
        "all",
        "--off",
        "capture-hit,capture-miss",
        "--sweep",
        "collision=0.05",
        "--quiet",
        "--out",
    ];
    tenure_eval_ok(&args, &[&out]);
    // At the variant's own collision rate, the sweep's row is the variant's run.
    let row = &json(&out.join("sensitivity.json"))[0];
    let sessions = json(&out.join("sessions-all.json"));
    let sessions = sessions.as_array().unwrap();
    let least = sessions
        .iter()
        .filter_map(|s| s["precision"].as_f64())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(row["minPrecision"].as_f64().unwrap(), least);
    assert_eq!(row["coverageFirst"], sessions[0]["coverage"]);
    // The claims say which mechanisms `all` ran without.
    let claims = std::fs::read_to_string(out.join("claims.md")).unwrap();
    assert!(
        claims
            .contains("Mechanisms off in every variant, `all` included: capture-hit, capture-miss"),
        "{claims}"
    );
    // A later study into the same folder leaves none of this one's files beside its manifest.
    let again = [
        "flywheel",
        "--sessions",
        "3",
        "--variants",
        "no-union",
        "--quiet",
        "--out",
    ];
    tenure_eval_ok(&again, &[&out]);
    assert!(!out.join("sensitivity.json").exists());
    assert!(!out.join("sessions-all.json").exists());
    assert!(out.join("sessions-no-union.json").exists());
    // A folder no flywheel study wrote keeps what it holds.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("vector.json"), "{}").unwrap();
    tenure_eval_ok(&again, &[&other]);
    assert!(other.join("vector.json").exists());
}

#[test]
fn the_vector_claims_do_not_hang_on_the_order_of_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let claims = |sizes: &str, out: &str| -> Value {
        let out = dir.path().join(out);
        let args = [
            "flywheel",
            "--sessions",
            "2",
            "--vector",
            "--model",
            "hashed",
            "--sizes",
            sizes,
            "--quiet",
            "--out",
        ];
        tenure_eval_ok(&args, &[&out]);
        json(&out.join("claims.json"))
    };
    let verdicts = |c: &Value| -> Vec<Value> {
        let c = c.as_array().unwrap().iter();
        c.filter(|c| c["id"] == "C3" || c["id"] == "C4")
            .cloned()
            .collect()
    };
    assert_eq!(
        verdicts(&claims("10,50", "a")),
        verdicts(&claims("50,10", "b"))
    );
    // One size has nothing to grow.
    let one = claims("50", "c");
    let c3 = one
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "C3")
        .unwrap();
    assert!(
        c3["measured"]
            .as_str()
            .unwrap()
            .starts_with("not measured: one store size"),
        "{c3}"
    );
    refused(
        &["flywheel", "--vector", "--sizes", "10,10"],
        "--sizes: 10 is given twice",
    );
}

#[test]
fn serve_and_doctor_refuse_what_they_would_not_do() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    std::fs::write(&report, "[]").unwrap();
    refused(
        &[
            "serve",
            "--port",
            "0",
            "--request-log",
            report.to_str().unwrap(),
        ],
        "is not a request log",
    );
    assert_eq!(std::fs::read(&report).unwrap(), b"[]");
    // Bytes that are no text at all are no log either (read as text, they were emptied).
    let binary = dir.path().join("bin.dat");
    std::fs::write(&binary, [0xff, 0xfe, 0, 1, 2]).unwrap();
    refused(
        &[
            "serve",
            "--port",
            "0",
            "--request-log",
            binary.to_str().unwrap(),
        ],
        "is not a request log",
    );
    assert_eq!(std::fs::read(&binary).unwrap().len(), 5);
    refused(
        &["serve", "--workers", "0"],
        "invalid value '0' for '--workers",
    );
    let doctor = tenure_eval(&["doctor", "--url", "http://127.0.0.1:9", "--timeout", "0"]);
    assert_eq!(doctor.status.code(), Some(2));
}

#[test]
fn verify_checks_the_errored_count_and_the_rank_blocks_queries() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "run",
        "--suite",
        "longmemeval",
        "--data",
        "tests/data/longmemeval-sample.json",
    ];
    let args = [&args[..], &["--backend", "bm25-text", "--quiet", "--out"]].concat();
    tenure_eval_ok(&args, &[dir.path()]);
    let report = dir
        .path()
        .join("longmemeval/retrieval-report-bm25-text.json");
    tenure_eval_ok(&["verify"], &[&report]);
    for (key, edit, said) in [
        (
            "errored",
            3,
            "retrieval.errored is 3 but the per-case rows give 0",
        ),
        (
            "queries",
            2,
            "retrieval.rankMetrics.queries is 2 but the per-case rows give 3",
        ),
    ] {
        let mut body = json(&report);
        match key {
            "errored" => body["retrieval"]["errored"] = edit.into(),
            _ => body["retrieval"]["rankMetrics"]["queries"] = edit.into(),
        }
        let edited = dir.path().join(format!("{key}.json"));
        std::fs::write(&edited, serde_json::to_vec(&body).unwrap()).unwrap();
        let out = tenure_eval(&["verify", edited.to_str().unwrap()]);
        let said_out = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{said_out}");
        assert!(said_out.contains(said), "{said_out}");
    }
}

#[test]
fn validate_says_which_cases_can_never_pass() {
    let dir = tempfile::tempdir().unwrap();
    let mut cases = crate::common::read_json("cases/pmb/retrieval.cases.json");
    let template = cases[0].clone();
    let make = |id: &str, relevant: Value, budget: Option<i64>| {
        let mut c = template.clone();
        c["caseId"] = id.into();
        c["expect"] = serde_json::json!({ "relevantBeliefs": relevant });
        if let Some(n) = budget {
            c["budget"] = serde_json::json!({ "maxBeliefs": n });
        }
        c
    };
    let (a, b) = ("b-ts-pref", "b-fastify-pref");
    *cases.as_array_mut().unwrap() = vec![
        make(
            "both",
            serde_json::json!({"mustInclude": [a], "mustExclude": [a]}),
            None,
        ),
        make(
            "max",
            serde_json::json!({"mustInclude": [a, b], "maxCount": 1}),
            None,
        ),
        make(
            "minmax",
            serde_json::json!({"minCount": 5, "maxCount": 2}),
            None,
        ),
        make("budget", serde_json::json!({"mustInclude": [a]}), Some(0)),
        make("self", serde_json::json!({"orderedBefore": [[a, a]]}), None),
        // pmb's sessions create this belief at turn 4; the static cases never see it.
        make(
            "unseeded",
            serde_json::json!({"mustInclude": ["b-ci-parallel-decision"]}),
            None,
        ),
        make("fine", serde_json::json!({"mustInclude": [a]}), None),
        // A pinned id is met by the pinned tier, which maxCount does not count.
        make(
            "pinned",
            serde_json::json!({"mustInclude": ["b-db-decision"], "maxCount": 0}),
            None,
        ),
    ];
    let file = dir.path().join("cases.json");
    std::fs::write(&file, serde_json::to_vec(&cases).unwrap()).unwrap();
    let corpus = crate::common::repo("seeds/pmb/beliefs.seed.json");
    let sessions = crate::common::repo("cases/pmb/session-retrieval.cases.json");
    let args = [
        "validate",
        "--corpus",
        corpus.to_str().unwrap(),
        "--cases",
        file.to_str().unwrap(),
        "--sessions",
        sessions.to_str().unwrap(),
    ];
    let out = tenure_eval_ok(&args, &[]);
    let said =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    for (case, why) in [
        (
            "both",
            "\"b-ts-pref\" is in both mustInclude and mustExclude",
        ),
        (
            "max",
            "maxCount 1 is below its 2 mustInclude of the relevant tier",
        ),
        ("minmax", "minCount 5 is above maxCount 2"),
        (
            "budget",
            "a budget of 0 beliefs holds fewer than its 1 mustInclude",
        ),
        ("self", "orderedBefore puts \"b-ts-pref\" before itself"),
        (
            "unseeded",
            "\"b-ci-parallel-decision\" is created by a session only, and static cases run on the seed corpus",
        ),
    ] {
        assert!(
            said.contains(&format!("case {case:?} can never pass ({why})")),
            "{case}: {said}"
        );
    }
    assert!(!said.contains("case \"fine\" can never pass"), "{said}");
    assert!(!said.contains("case \"pinned\" can never pass"), "{said}");
}

#[test]
fn cache_list_counts_what_a_store_holds_and_only_stores() {
    let dir = tempfile::tempdir().unwrap();
    let stores = dir.path().join("embeddings");
    let args = [
        "embed",
        "--suite",
        "paper",
        "--model",
        "hashed",
        "--quiet",
        "--store-dir",
    ];
    tenure_eval_ok(&args, &[&stores]);
    // Five megabytes in a folder inside the store: it was listed at 0.1 MB.
    let store = stores.join("hashed-bow-384");
    std::fs::create_dir(store.join("extra")).unwrap();
    std::fs::write(store.join("extra/big"), vec![0u8; 5_000_000]).unwrap();
    // A manifest alone holds no vectors: it was listed as a store.
    std::fs::create_dir(stores.join("lonely")).unwrap();
    std::fs::copy(
        store.join("manifest.json"),
        stores.join("lonely/manifest.json"),
    )
    .unwrap();
    let out = crate::common::cli(&["cache", "list"])
        .env("TENURE_EVAL_CACHE", dir.path())
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{listed}");
    assert!(listed.contains("(1 store)\n"), "{listed}");
    assert!(listed.contains("5.2 MB"), "{listed}");
    assert!(
        listed.contains("no vectors.npy beside its manifest"),
        "{listed}"
    );
}

#[test]
fn a_config_file_cannot_set_a_hidden_flag_and_seeding_stays_under_the_ceiling() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("tenure-eval.toml");
    std::fs::write(&config, "[scale]\none = 100\n").unwrap();
    // `--one` is how `scale` calls a size's own process: from a file it turned `scale` into one.
    refused(
        &[
            "--config",
            config.to_str().unwrap(),
            "scale",
            "--sizes",
            "100",
        ],
        "`one` is not a flag of `scale`",
    );
    std::fs::write(&config, "[defaults]\none = 100\n").unwrap();
    refused(
        &[
            "--config",
            config.to_str().unwrap(),
            "validate",
            "--suite",
            "paper",
        ],
        "`one` is not a flag of any command",
    );
    let args = [
        "flywheel",
        "--ceiling",
        "3",
        "--seed-min",
        "8",
        "--seed-max",
        "8",
    ];
    refused(&args, "--seed-max 8 is above --ceiling 3");
    // Without seeding nothing starts above the ceiling.
    let args = [
        "flywheel",
        "--off",
        "seeding",
        "--ceiling",
        "3",
        "--sessions",
        "2",
        "--quiet",
    ];
    tenure_eval_ok(&args, &[]);
}

#[test]
fn the_flywheels_sweep_is_one_per_parameter_and_c7_says_when_drift_was_not_swept() {
    refused(
        &[
            "flywheel",
            "--sweep",
            "collision=0.1",
            "--sweep",
            "drift=0.1",
            "--sweep",
            "collision=0.2",
        ],
        "--sweep collision is given twice",
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fw");
    let args = [
        "flywheel",
        "--sessions",
        "2",
        "--sweep",
        "collision=0.1",
        "--quiet",
        "--out",
    ];
    tenure_eval_ok(&args, &[&out]);
    let claims = json(&out.join("claims.json"));
    let c7 = claims
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "C7")
        .unwrap();
    let measured = c7["measured"].as_str().unwrap();
    assert!(
        measured.contains("run with --sensitivity (or --sweep drift="),
        "{measured}"
    );
    // A runtime for a model that needs none was taken and ignored.
    refused(
        &[
            "flywheel",
            "--vector",
            "--model",
            "hashed:64",
            "--ort-lib",
            "Cargo.toml",
        ],
        "--ort-lib applies to a model folder",
    );
}

#[test]
fn a_paper_layout_session_report_verifies_without_turn_precisions() {
    // The paper's layout writes each turn's drift but no precision: every turn was called a
    // mismatch of its drift against a null precision.
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "run",
        "--suite",
        "paper",
        "--backend",
        "recent",
        "--quiet",
        "--out",
    ];
    tenure_eval_ok(&args, &[dir.path()]);
    let report = dir
        .path()
        .join("paper/session-retrieval-report-recent.json");
    tenure_eval_ok(&["verify"], &[&report]);
}
