//! The classifier's training script run as documented, and its output compared with the
//! committed weights: the retrain tests of the lexical model (`temporal`) and the embedded one
//! (`temporal_embedded`).

use crate::common::needs::{data_file, locomo_file};
use crate::common::{read_json, repo, tenure_eval_ok};
use std::process::Command;

/// What a retrain wrote: its weights, the committed ones, and the prefix of its `--fitted`
/// predictions (their files live as long as this does).
pub struct Retrained {
    pub rebuilt: serde_json::Value,
    pub committed: serde_json::Value,
    pub fitted: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

/// Run the training script at the committed file's own C and software weight (the grid's
/// eight settings cost the test gate a minute; that the grid still chooses them is
/// scripts/temporal-results.sh's to check) with `extra` arguments, into a temporary file with
/// its `--fitted` predictions, and return it beside the committed file `committed` (a path in
/// the repository), after checking that the two agree on what the training read and what its
/// cross-validation scored.
pub fn retrain(extra: &[&std::ffi::OsStr], committed: &str) -> Retrained {
    let committed = read_json(committed);
    let (c, w) = (
        committed["C"].to_string(),
        committed["seWeight"].to_string(),
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("model.json");
    let fitted = dir.path().join("fit");
    let run = Command::new(std::env::var_os("TENURE_EVAL_PYTHON").unwrap())
        .args(["scripts/train-temporal.py", "--locomo"])
        .arg(locomo_file())
        .arg("--beam")
        .arg(data_file("beam"))
        .arg("--livechat")
        .args(extra)
        .args(["--c", &c, "--se-weight", &w, "--fitted"])
        .arg(&fitted)
        .args(["--binary", env!("CARGO_BIN_EXE_tenure-eval"), "--out"])
        .arg(&out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // `read_json` reads a path in the repository, or an absolute one as it is.
    let rebuilt = read_json(out.to_str().unwrap());
    for key in ["trainedOn", "crossValidatedMacroF1", "classes"] {
        assert_eq!(rebuilt[key], committed[key], "{key}");
    }
    Retrained {
        rebuilt,
        committed,
        fitted,
        _dir: dir,
    }
}

/// Two weight tables (objects of arrays, or arrays of arrays) hold the same keys and every
/// weight within 1e-5.
pub fn same_weights(a: &serde_json::Value, b: &serde_json::Value) {
    let rows = |v: &serde_json::Value| -> Vec<(String, Vec<f64>)> {
        let row = |w: &serde_json::Value| -> Vec<f64> {
            w.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        };
        match v {
            serde_json::Value::Object(m) => m.iter().map(|(k, w)| (k.clone(), row(w))).collect(),
            _ => v
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
                .map(|(i, w)| (i.to_string(), row(w)))
                .collect(),
        }
    };
    let (a, b) = (rows(a), rows(b));
    assert_eq!(
        a.iter().map(|r| &r.0).collect::<Vec<_>>(),
        b.iter().map(|r| &r.0).collect::<Vec<_>>()
    );
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert_eq!(x.len(), y.len(), "{name}");
        for (x, y) in x.iter().zip(y) {
            assert!((x - y).abs() <= 1e-5, "{name}: {x} rebuilt, {y} committed");
        }
    }
}

/// The harness's classifier with the committed weights (and `extra` arguments, such as the
/// embedder) says what scikit-learn's fitted model said, statement for statement, on the 640
/// LoCoMo dev statements: `fitted` is the prefix given to the training script's `--fitted`.
pub fn classifies_as_fitted(fitted: &std::path::Path, extra: &[&std::path::Path]) {
    let (locomo, labels) = (
        locomo_file(),
        repo("cases/temporal/locomo-dev.labels.jsonl"),
    );
    let mut args: Vec<&std::path::Path> = vec![&locomo, &labels];
    args.extend(extra);
    let out = tenure_eval_ok(
        &["temporal", "classify", "--format", "json", "--locomo"],
        &args,
    );
    let ours: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let theirs = format!("{}.locomo-dev.jsonl", fitted.display());
    let theirs = std::fs::read_to_string(theirs).unwrap();
    let theirs: Vec<serde_json::Value> = theirs
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(ours.len(), 640);
    assert_eq!(theirs.len(), 640);
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!((&a["id"], &a["class"]), (&b["id"], &b["predicted"]));
    }
}
