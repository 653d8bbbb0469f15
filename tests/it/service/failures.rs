//! A service that fails (exit 3, no store left behind), configuration errors (exit 2), and
//! Ollama's own name for MiniLM getting a store of its own.

use super::*;

/// What the binary says and does when the service misbehaves in `fault`.
fn faulty(model: &Path, python: &Path, fault: &str, api: &str) -> (i32, String, bool) {
    let server = Server::start(model, python, &["--fault", fault, "--name", SERVED]);
    let stores = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let spec = format!("{api}:{SERVED}@{}", server.url);
    // A short timeout only where the fault is slowness: real batches take seconds on a busy
    // machine.
    let timeout = if fault == "slow" { "2" } else { "120" };
    let run = run(
        "paper",
        &spec,
        stores.path(),
        out.path(),
        &["--retries", "2", "--timeout", timeout],
    );
    let stored = stores.path().join(format!("{api}-{SERVED}")).exists();
    (
        run.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&run.stderr).into_owned(),
        stored,
    )
}

#[test]
fn service_failures_are_clear_exit_3_and_leave_no_store() {
    let Some((model, python)) = setup() else {
        return;
    };
    for (fault, api, expect) in [
        (
            "500",
            "ollama",
            "HTTP 500: Internal Server Error (after 3 attempts)",
        ),
        ("not-json", "ollama", "the answer is not JSON"),
        ("truncated", "openai", "the answer is not JSON"),
        ("wrong-count", "ollama", "vectors for"),
        (
            "wrong-dim",
            "openai",
            "a 383-dimensional vector, expected 384",
        ),
        ("zero", "ollama", "a zero or non-finite vector"),
        ("nan", "openai", "expected an array of numbers"),
        ("slow", "ollama", "timed out"),
    ] {
        let (code, stderr, stored) = faulty(&model, &python, fault, api);
        assert_eq!(code, 3, "{fault}: {stderr}");
        assert!(stderr.contains(expect), "{fault}: {stderr}");
        assert!(
            stderr.contains(SERVED),
            "{fault}: names the model: {stderr}"
        );
        assert!(!stored, "{fault}: a store was written");
    }
    // A transient 503 is retried and the run succeeds.
    let (code, stderr, stored) = faulty(&model, &python, "503-once", "ollama");
    assert_eq!(code, 0, "{stderr}");
    assert!(stored);
}

#[test]
fn configuration_errors_are_exit_2() {
    let Some((model, python)) = setup() else {
        return;
    };
    let server = Server::start(
        &model,
        &python,
        &["--api-key", "sk-right", "--name", SERVED],
    );
    let stores = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    // A malformed spec, an API key variable that is not set.
    let bad = run("paper", "ollama:", stores.path(), out.path(), &[]);
    assert_eq!(bad.status.code(), Some(2));
    let spec = format!("openai:{SERVED}@{}", server.url);
    let unset = run(
        "paper",
        &spec,
        stores.path(),
        out.path(),
        &["--api-key-env", "TENURE_EVAL_TEST_NO_SUCH_KEY"],
    );
    assert_eq!(unset.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unset.stderr).contains("TENURE_EVAL_TEST_NO_SUCH_KEY"));
    // A wrong key is the service's refusal: exit 3, with its message.
    let wrong = crate::common::cli(&[])
        .args([
            "run",
            "--suite",
            "paper",
            "--backend",
            "cosine",
            "--quiet",
            "--model",
            &spec,
        ])
        .args(["--store-dir", stores.path().to_str().unwrap()])
        .args([
            "--out",
            out.path().to_str().unwrap(),
            "--api-key-env",
            "TEST_KEY",
        ])
        .env("TEST_KEY", "sk-wrong")
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("HTTP 401"));
    // A store made by another served model (here named on purpose with --store-name: by
    // default each API's store has its own name) is refused unless --refresh.
    let made = crate::common::cli(&[])
        .args(["embed", "--suite", "paper", "--quiet", "--model", &spec])
        .args([
            "--store-dir",
            stores.path().to_str().unwrap(),
            "--api-key-env",
            "TEST_KEY",
        ])
        .env("TEST_KEY", "sk-right")
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let other = Server::start(
        &model,
        &python,
        &["--digest", "sha256:another", "--name", SERVED],
    );
    let again = format!("ollama:{SERVED}@{}", other.url);
    let refused = run(
        "pmb",
        &again,
        stores.path(),
        out.path(),
        &["--store-name", "openai-minilm"],
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("was made by openai"));
    let refresh = tenure_eval(&[
        "embed",
        "--suite",
        "pmb",
        "--quiet",
        "--refresh",
        "--model",
        &again,
        "--store-name",
        "openai-minilm",
        "--store-dir",
        stores.path().to_str().unwrap(),
    ]);
    assert!(
        refresh.status.success(),
        "{}",
        String::from_utf8_lossy(&refresh.stderr)
    );
}

/// Ollama's own name for MiniLM (`all-minilm:l6-v2`) against a served MiniLM: its store is
/// `ollama-all-minilm-l6-v2` under the given --store-dir, never the built-in
/// `all-minilm-l6-v2` (an ONNX store, which it used to collide with), and the run gives the
/// built-in store's cases and scores.
#[test]
fn ollamas_name_for_minilm_gets_its_own_store_and_the_builtin_stores_results() {
    let Some((model, python)) = setup() else {
        return;
    };
    let server = Server::start(&model, &python, &["--name", "all-minilm:l6-v2"]);
    let (stores, a, b) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let spec = format!("ollama:all-minilm:l6-v2@{}", server.url);
    let out = run("pmb", &spec, stores.path(), a.path(), &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written: Vec<String> = std::fs::read_dir(stores.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(written, ["ollama-all-minilm-l6-v2"]);
    let builtin = crate::common::tenure_eval(&[
        "run",
        "--suite",
        "pmb",
        "--backend",
        "cosine",
        "--quiet",
        "--model",
        FP32,
        "--out",
        b.path().to_str().unwrap(),
    ]);
    assert!(builtin.status.success());
    let (ours, theirs) = (
        report_files(&a.path().join("pmb")),
        report_files(&b.path().join("pmb")),
    );
    assert_eq!(ours.len(), 2);
    assert_eq!(theirs.len(), 2);
    for (x, y) in ours.iter().zip(&theirs) {
        let (xv, yv) = comparable_pair(x, y);
        for key in ["cases", "retrieval"] {
            assert_eq!(xv.get(key), yv.get(key), "{} {key}", x.display());
        }
        if let (Some(x), Some(y)) = (xv.as_array(), yv.as_array()) {
            assert_eq!(x, y);
        }
    }
    // The served store's name is no built-in name; naming a built-in store's folder as
    // --store-dir finds nothing built in: the error names the one place looked at.
    let missing = run("pmb", FP32, stores.path(), a.path(), &[]);
    assert_eq!(missing.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(
        stderr.contains("only there: --store-dir was given")
            && stderr.contains("stores there: ollama-all-minilm-l6-v2"),
        "{stderr}"
    );
}
