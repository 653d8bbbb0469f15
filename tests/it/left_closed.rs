//! What the last session notes found and left, each kept closed here: a manifest naming a store
//! never written, a label too long for a file, a report and a TREC run of one name read as one,
//! session flags taken where no session runs, a fusion depth that cut nothing, an empty
//! TREC run written in silence, a missing run file called JSON, a copy of a report taken for a second run,
//! an audit file read as a report, a tenure-eval manifest without its inputs (or with none),
//! `html`'s floor of resamples that ignored Holm's family, and sizes no machine holds (an abort
//! and ten minutes of a full memory).

use crate::common::{exits, refused, repo, tenure_eval_into, tenure_eval_ok};
use std::path::Path;

const SAMPLE: &str = "tests/data/longmemeval-sample.json";

use crate::common::json_at as json;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A bm25-text run of LongMemEval's sample into `out`; its report.
fn sample_run(out: &Path) -> std::path::PathBuf {
    let args = ["run", "--suite", "longmemeval", "--data", SAMPLE];
    let args = [&args[..], &["--backend", "bm25-text", "--quiet", "--out"]].concat();
    tenure_eval_ok(&args, &[out]);
    out.join("longmemeval/retrieval-report-bm25-text.json")
}

/// The store a paper run with `--model MODEL --store-dir DIR/st` records; `DIR/st` is never
/// made.
fn recorded_store(model: &str, file: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let stores = dir.path().join("st");
    let args = [
        "run",
        "--suite",
        "paper",
        "--backend",
        "cosine",
        "--model",
        model,
    ];
    let args = [&args[..], &["--quiet", "--store-dir"]].concat();
    tenure_eval_ok(&args, &[&stores, Path::new("--out"), dir.path()]);
    assert!(!stores.exists(), "no store is written");
    let manifest = json(&dir.path().join("paper").join(file));
    manifest["backendSettings"]["store"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn vectors_computed_in_memory_are_recorded_as_such_not_as_a_store_never_written() {
    // A built-in model with no store in `--store-dir` (`embed` can write one there).
    let store = recorded_store(
        "hashed",
        "hashed-bow-384-retrieval-report-vector.manifest.json",
    );
    assert!(
        store.starts_with("computed in memory (97 vectors; no store at "),
        "{store}"
    );
    assert!(
        store.ends_with("st/hashed-bow-384, none written)"),
        "{store}"
    );
    // A model folder with no store in `--store-dir` embeds in memory: it named `st/…`.
    if !crate::common::needs::needs(&[crate::common::needs::Need::Onnx]) {
        return;
    }
    let models = crate::common::needs::env_path("TENURE_EVAL_MODELS").unwrap();
    let folder = models.join("all-minilm-l6-v2");
    let store = recorded_store(
        folder.to_str().unwrap(),
        "all-minilm-l6-v2-retrieval-report-vector.manifest.json",
    );
    assert!(store.starts_with("computed in memory ("), "{store}");
    assert!(
        store.ends_with("st/all-minilm-l6-v2, none written)"),
        "{store}"
    );
}

#[test]
fn an_extreme_value_names_a_run_in_exponent_form() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "run",
        "--suite",
        "paper",
        "--backend",
        "recent",
        "--lambda",
        "1e308",
    ];
    tenure_eval_into(&args, dir.path());
    assert!(dir
        .path()
        .join("paper/retrieval-report-recent-l1e308.json")
        .exists());
}

#[test]
fn tables_tells_a_report_from_a_trec_run_of_the_same_name() {
    let dir = tempfile::tempdir().unwrap();
    let report = sample_run(dir.path());
    let data = ["--suite", "longmemeval", "--data", SAMPLE];
    tenure_eval_ok(&[&["trec"][..], &data].concat(), &[&report]);
    let run = report.with_extension("run");
    let args = [
        &["tables", "--trec-run"][..],
        &[run.to_str().unwrap()],
        &data,
    ]
    .concat();
    let out = tenure_eval_ok(&args, &[&report]);
    let text = String::from_utf8_lossy(&out.stdout);
    // The two rows are the same run's figures, each named by its file.
    assert!(
        text.contains("bm25-text · retrieval-report-bm25-text.json | static | 3"),
        "{text}"
    );
    assert!(
        text.contains("bm25-text · retrieval-report-bm25-text.run  | static | 3"),
        "{text}"
    );
}

#[test]
fn the_session_flags_are_refused_where_no_session_runs() {
    // A benchmark's questions are static cases only: `run` took the revisitation flags and
    // named its report by them.
    let args = [
        "run",
        "--suite",
        "longmemeval",
        "--data",
        SAMPLE,
        "--backend",
        "composite",
    ];
    refused(
        &[&args[..], &["--model", "hashed", "--revisit-rate", "0.3"]].concat(),
        "--revisit-rate acts on a session's earlier turns, and longmemeval has no sessions",
    );
    refused(
        &[
            "static",
            "--suite",
            "paper",
            "--backend",
            "composite",
            "--model",
            "hashed",
            "--revisit-cap",
            "0.2",
        ],
        "--revisit-cap acts on a session's earlier turns, and `static` runs no session",
    );
}

#[test]
fn one_fusion_depth_below_the_limit_cuts_every_fused_backend() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "static",
        "--suite",
        "paper",
        "--backend",
        "rrf",
        "--model",
        "hashed",
    ];
    let run = |extra: &[&str], out: &str| {
        tenure_eval_ok(
            &[&args[..], extra, &["--quiet", "--out"]].concat(),
            &[&dir.path().join(out)],
        );
    };
    run(&["--fusion-depth", "1"], "one");
    run(&[], "all");
    let retrieved = |out: &str, file: &str| -> Vec<usize> {
        let report = json(&dir.path().join(out).join("paper").join(file));
        let entries = report.as_array().unwrap().iter();
        entries
            .map(|e| e["relevantBeliefs"].as_array().unwrap().len())
            .collect()
    };
    let one = retrieved("one", "hashed-bow-384-retrieval-report-rrf-depth1.json");
    let all = retrieved("all", "hashed-bow-384-retrieval-report-rrf.json");
    // Each of the two fused backends gives its first hit: at most two beliefs a case.
    assert!(one.iter().all(|n| *n <= 2), "{one:?}");
    assert!(all.iter().any(|n| *n > 2), "{all:?}");
}

#[test]
fn trec_says_when_a_report_ranks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "run",
        "--suite",
        "longmemeval",
        "--data",
        SAMPLE,
        "--backend",
        "bm25",
    ];
    tenure_eval_into(&args, dir.path());
    // Alias-BM25 on turns without aliases ranks nothing: the run is written (a measured
    // answer, 0 everywhere) and said, since `--trec-run` refuses reading an empty one.
    let report = dir.path().join("longmemeval/retrieval-report-tenure.json");
    let args = ["trec", "--suite", "longmemeval", "--data", SAMPLE];
    let out = tenure_eval_ok(&args, &[&report]);
    let said = stderr(&out);
    assert!(
        said.contains("ranks nothing for any of its 3 queries: the run file is empty"),
        "{said}"
    );
    assert_eq!(
        std::fs::read(report.with_extension("run")).unwrap().len(),
        0
    );
    let args = [
        "tables",
        "--suite",
        "longmemeval",
        "--data",
        SAMPLE,
        "--trec-run",
    ];
    refused(
        &[&args[..], &[report.with_extension("run").to_str().unwrap()]].concat(),
        "an empty TREC run",
    );
    // A report that ranks something is not said to rank nothing.
    let out = tenure_eval_ok(
        &["trec", "--suite", "longmemeval", "--data", SAMPLE],
        &[&sample_run(dir.path())],
    );
    assert!(!stderr(&out).contains("ranks nothing"), "{}", stderr(&out));
}

#[test]
fn a_missing_trec_run_is_named_as_one() {
    // Whatever its name says: Pyserini names runs `run.<collection>.<model>`.
    for name in ["nowhere.run", "run.trec-covid.bm25"] {
        refused(
            &["tables", "--trec-run", name, "--suite", "paper"],
            &format!("{name}: file: file not found; expected a readable TREC run file"),
        );
    }
}

#[test]
fn a_copy_of_a_report_is_said_to_be_one() {
    let dir = tempfile::tempdir().unwrap();
    let report = sample_run(dir.path());
    let copy = dir.path().join("copy.json");
    std::fs::copy(&report, &copy).unwrap();
    let out = tenure_eval_ok(&["tables", "--quiet"], &[&report, &copy]);
    let said = stderr(&out);
    assert!(said.contains("copy.json holds the same bytes as"), "{said}");
    // Two runs that happen to agree are not copies: another backend's report is not said.
    let other = dir.path().join("other");
    let args = [
        "run",
        "--suite",
        "longmemeval",
        "--data",
        SAMPLE,
        "--backend",
        "bm25",
    ];
    tenure_eval_into(&args, &other);
    let out = tenure_eval_ok(
        &["tables", "--quiet"],
        &[
            &report,
            &other.join("longmemeval/retrieval-report-tenure.json"),
        ],
    );
    assert!(!stderr(&out).contains("the same bytes"), "{}", stderr(&out));
    // `plot --case` reads its two reports itself: a copy of a paper-layout report without its
    // sidecar (the usual `cp`) is said there too.
    tenure_eval_into(
        &["static", "--suite", "paper", "--backend", "bm25"],
        dir.path(),
    );
    let bm25 = dir.path().join("paper/retrieval-report.json");
    let bare = dir.path().join("bare.json");
    std::fs::copy(&bm25, &bare).unwrap();
    let svg = dir.path().join("f.svg");
    let args = [
        "plot",
        "--case",
        "alias-kube-resolves",
        "--out",
        svg.to_str().unwrap(),
    ];
    let out = tenure_eval_ok(&args, &[&bm25, &bare]);
    assert!(
        stderr(&out).contains("bare.json holds the same bytes as"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_audit_file_given_as_a_report_names_how_corrections_are_given() {
    let dir = tempfile::tempdir().unwrap();
    let audit = |name: &str| {
        let path = dir.path().join(name);
        let entry = r#"[{"question_id": "locomo_0_qa0", "question": "When?", "error_type": "HALLUCINATION"}]"#;
        std::fs::write(&path, entry).unwrap();
        path
    };
    let (a, b) = (audit("errors_conv_0.json"), audit("errors_conv_1.json"));
    let report = sample_run(dir.path());
    let args = ["locomo", "--data", "locomo10.json", "--corrections"];
    let paths = [a.as_path(), b.as_path(), report.as_path()];
    let out = exits(crate::common::cli(&args).args(paths), 2);
    let said = stderr(&out);
    assert!(
        said.contains("errors_conv_1.json is one of the locomo-audit's files, given as a report"),
        "{said}"
    );
    assert!(said.contains("--corrections A --corrections B"), "{said}");
}

#[test]
fn a_tenure_eval_manifest_without_its_inputs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let report = sample_run(dir.path());
    let mut body = json(&report);
    body["manifest"]
        .as_object_mut()
        .unwrap()
        .remove("inputs")
        .unwrap();
    let edited = dir.path().join("edited.json");
    std::fs::write(&edited, serde_json::to_vec(&body).unwrap()).unwrap();
    let args = [
        "trec",
        edited.to_str().unwrap(),
        "--suite",
        "longmemeval",
        "--data",
        SAMPLE,
    ];
    refused(
        &args,
        "$.manifest.inputs: missing: tenure-eval records the files each run read",
    );
    // An empty list recorded no file, and passed any suite's files.
    body["manifest"]["inputs"] = serde_json::json!([]);
    std::fs::write(&edited, serde_json::to_vec(&body).unwrap()).unwrap();
    refused(&args, "$.manifest.inputs: empty: the run read none of");
    // The report as written passes.
    tenure_eval_ok(
        &["trec", "--suite", "longmemeval", "--data", SAMPLE],
        &[&report],
    );
}

#[test]
fn html_counts_holms_family_over_every_pair_of_one_kind() {
    // The published baseline: 15 reports of one kind, 105 pairs. At α 0.05 a sampled test
    // needs 2,100 patterns for its least adjusted p to reach α; 1,000 never could.
    let golden = repo("tests/golden/pmb-baseline");
    let page = tempfile::tempdir().unwrap().path().join("p.html");
    let args = [
        "html",
        "--resamples",
        "1000",
        "--out",
        page.to_str().unwrap(),
        golden.to_str().unwrap(),
    ];
    refused(&args, "in a family of 105 tests");
}

#[test]
fn a_store_written_between_two_passes_of_the_same_vectors_is_no_other_run() {
    // The first pass computes hashed vectors in memory; `embed` then writes the same vectors
    // to a store there, and the second look reads them from it: the same vectors, compared by
    // their sha256, not by where they were read.
    let dir = tempfile::tempdir().unwrap();
    let stores = dir.path().join("st");
    let st = stores.to_str().unwrap();
    let run = [
        "static",
        "--suite",
        "paper",
        "--backend",
        "cosine",
        "--model",
        "hashed",
    ];
    let run = [&run[..], &["--store-dir", st]].concat();
    tenure_eval_into(&run, dir.path());
    let embed = [
        "embed",
        "--suite",
        "paper",
        "--model",
        "hashed",
        "--quiet",
        "--store-dir",
        st,
    ];
    tenure_eval_ok(&embed, &[]);
    tenure_eval_into(&[&run[..], &["--rerun-failed"]].concat(), dir.path());
    let manifest = json(
        &dir.path()
            .join("paper/hashed-bow-384-retrieval-report-vector.manifest.json"),
    );
    let store = manifest["backendSettings"]["store"].as_str().unwrap();
    assert!(store.ends_with("st/hashed-bow-384"), "{store}");
}

#[test]
fn a_threshold_beyond_a_32_bit_score_and_an_out_named_as_a_file_are_refused() {
    // 1e300 became f32 infinity: every hit dropped, the run named `floorinf` / `mininf`.
    let paper = ["static", "--suite", "paper", "--backend"];
    refused(
        &[
            &paper[..],
            &["rrf", "--model", "hashed", "--fusion-floor", "0,1e300"],
        ]
        .concat(),
        "\"1e300\" is beyond a 32-bit score",
    );
    refused(
        &[&paper[..], &["bm25", "--min-score", "1e300"]].concat(),
        "\"1e300\" is beyond a 32-bit score",
    );
    // `--out r.json` made a folder of that name holding the reports.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    let args = [
        "run",
        "--suite",
        "paper",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    refused(&args, "names a file; --out is the folder the reports go to");
    assert!(!out.exists());
    // A folder of that name already there is a folder.
    std::fs::create_dir(&out).unwrap();
    tenure_eval_ok(&args, &[]);
    assert!(out.join("paper").is_dir());
}

/// `tenure-eval ARGS` in a shell whose address space is capped at 4 GiB: a regression of the
/// memory check fails at once instead of filling the machine's memory as scale did.
fn capped(args: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let mut command = std::process::Command::new("sh");
    command
        .args(["-c", "ulimit -v 4194304; exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_tenure-eval"))
        .args(args)
        .current_dir(dir.path());
    exits(&mut command, 3)
}

#[test]
fn sizes_no_machine_holds_are_a_runtime_error_not_an_abort() {
    // The beliefs' own bytes against the machine's memory and swap: the message says both
    // (only the check says "they need"; the capped allocator alone would say less).
    for (args, says) in [
        (
            &["flywheel", "--quiet", "--vector", "--model", "hashed:64", "--sizes", "100000000000000"][..],
            "backend flywheel: the vector side's store: 100000000000000 beliefs do not fit in this machine's memory (they need",
        ),
        (
            &["flywheel", "--quiet", "--initial-beliefs", "100000000000000"][..],
            "100000000000100 beliefs do not fit in this machine's memory (they need",
        ),
        (
            &["flywheel", "--quiet", "--references", "10000000000", "--sessions", "100000"][..],
            "1000000000000000 references do not fit in this machine's memory (they need",
        ),
        (
            &["scale", "--quiet", "--sizes", "100000000000"][..],
            "backend scale: 100000000000 beliefs do not fit in this machine's memory (they need",
        ),
    ] {
        let said = stderr(&capped(args));
        assert!(said.contains(says), "{args:?}: {said}");
        assert!(!said.contains("panicked") && !said.contains("backtrace"), "{said}");
    }
}
