//! `tenure-eval temporal`: the classifier's command line on the built-in corpus and on
//! statements the test writes, one per marker class of spec context-scorer §5; the
//! real-utterance test set drawn from LoCoMo, measured; the learned model rebuilt from its
//! committed data by its documented command.

use crate::common::needs::{locomo_file, needs, Need};

use sha2::Digest;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The binary with `args`, `stdin` written to it.
pub(crate) fn tenure_eval(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tenure-eval"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

/// `temporal eval ARGS --format json`, which must succeed, as JSON.
pub(crate) fn eval_json(args: &[&str]) -> serde_json::Value {
    let args = [&["temporal", "eval"][..], args, &["--format", "json"][..]].concat();
    let out = tenure_eval(&args, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn eval_on_the_built_in_corpus_prints_the_per_class_table() {
    let e = eval_json(&["cases/temporal/statements.jsonl"]);
    // The evaluation names the weights that classified: the committed file's sha256.
    let weights = std::fs::read(crate::common::repo("src/temporal/model.json")).unwrap();
    let sha: String = sha2::Sha256::digest(&weights)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(e["model"], serde_json::json!(sha));
    let mut total = 0;
    for class in ["forward_open", "current_state", "closed", "correction"] {
        let scores = &e["perClass"][class];
        let support = scores["support"].as_u64().unwrap();
        assert!(support >= 50, "{class}: {support} statements");
        total += support;
        for key in ["precision", "recall", "f1"] {
            let v = scores[key].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&v), "{class}.{key} = {v}");
        }
        let row: u64 = e["confusion"][class]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(row, support, "confusion row {class}");
    }
    assert!(total >= 300);
    let misses = e["misclassified"].as_array().unwrap().len() as u64;
    assert_eq!(e["correct"].as_u64().unwrap() + misses, total);
    let macro_f1 = e["macroF1"].as_f64().unwrap();
    let mean: f64 = ["forward_open", "current_state", "closed", "correction"]
        .iter()
        .map(|c| e["perClass"][c]["f1"].as_f64().unwrap())
        .sum::<f64>()
        / 4.0;
    assert!((macro_f1 - mean).abs() < 1e-12);

    let md = tenure_eval(
        &["temporal", "eval", "cases/temporal/statements.jsonl"],
        None,
    );
    let text = String::from_utf8(md.stdout).unwrap();
    // The tables are render::Table's: each markdown row's cells, trimmed.
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    assert!(text.starts_with("### Per class (accuracy "), "{text}");
    assert_eq!(
        rows[0],
        ["class", "precision", "recall", "F1", "F1 95% CI", "support"]
    );
    let confusion = [
        "gold \\ predicted",
        "forward_open",
        "current_state",
        "closed",
        "correction",
    ];
    assert!(rows.iter().any(|r| r[..] == confusion[..]), "{text}");
    let macro_row = rows.iter().find(|r| r[0] == "macro").unwrap();
    assert_eq!(macro_row[3], format!("{macro_f1:.3}"));
    // The same tables as CSV and LaTeX, through the one renderer.
    for (format, class) in [("csv", "forward_open"), ("latex", "forward\\_open")] {
        let out = tenure_eval(
            &[
                "temporal",
                "eval",
                "cases/temporal/statements.jsonl",
                "--format",
                format,
            ],
            None,
        );
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stdout).contains(class));
    }
}

#[test]
fn a_statement_with_each_marker_class_is_classified_as_that_class() {
    let lines = [
        r#"{"id":"fwd","text":"Going forward, every service exposes /metrics."}"#,
        r#"{"id":"now","text":"The queue depth is about 300 messages."}"#,
        r#"{"id":"old","text":"We used to run the queue on RabbitMQ."}"#,
        r#"{"id":"fix","text":"I was wrong earlier: the queue is SQS."}"#,
    ]
    .join("\n");
    let out = tenure_eval(&["temporal", "classify", "-"], Some(&lines));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "id\tclass\tmarker\n\
         fwd\tforward_open\tfuture:going forward\n\
         now\tcurrent_state\tmodel:rule=none\n\
         old\tclosed\tsuperseded:used to\n\
         fix\tcorrection\tcorrection:i was wrong\n"
    );
    let json = tenure_eval(
        &["temporal", "classify", "-", "--format", "json"],
        Some(&lines),
    );
    let rows: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(rows[1]["class"], "current_state");
    assert_eq!(rows[1]["marker"], "model:rule=none");
    assert_eq!(rows[1]["source"], "model");
}

#[test]
fn a_malformed_line_exits_2_naming_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    std::fs::write(&path, "{\"id\":\"a\",\"text\":\"x\",\"class\":\"closed\"}\n{\"id\":\"b\",\"text\":\"y\",\"class\":\"later\"}\n").unwrap();
    let out = tenure_eval(&["temporal", "eval", path.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("s.jsonl: line 2:") && err.contains("unknown variant `later`"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    let unlabelled = tenure_eval(&["temporal", "eval", "-"], Some(r#"{"id":"a","text":"x"}"#));
    assert_eq!(unlabelled.status.code(), Some(2));
    assert!(String::from_utf8(unlabelled.stderr)
        .unwrap()
        .contains("<stdin>: id \"a\": no \"class\""));
}

/// The held-out LoCoMo statements (labelled before the classifier changed, docs/temporal.md):
/// every id names a sentence the draw rule draws, and the classifier's macro F1 on them is at
/// least the issue's target, 0.80.
#[test]
fn the_locomo_test_set_is_the_drawn_one_and_scores_at_least_0_80() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let locomo = locomo_file();
    let locomo = locomo.to_str().unwrap();
    let labels = "cases/temporal/locomo-test.labels.jsonl";
    // The test set is the first 320 of the draw; the fresh sets (docs/temporal.md, "Fresh
    // held-out statements", "The sixth attempt") the 321st to 480th and 481st to 640th.
    let drawn = tenure_eval(
        &[
            "temporal", "draw", "--locomo", locomo, "--part", "test", "--n", "640",
        ],
        None,
    );
    assert!(
        drawn.status.success(),
        "{}",
        String::from_utf8_lossy(&drawn.stderr)
    );
    let ids = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let committed = |file: &str| {
        ids(
            &std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
                .unwrap(),
        )
    };
    let drawn = ids(&String::from_utf8(drawn.stdout).unwrap());
    assert_eq!(drawn[..320], committed(labels));
    for fresh in [
        "cases/temporal/locomo-test2.labels.jsonl",
        "cases/temporal/locomo-test2.second.labels.jsonl",
    ] {
        assert_eq!(drawn[320..480], committed(fresh), "{fresh}");
    }
    assert_eq!(
        drawn[480..],
        committed("cases/temporal/locomo-test3.labels.jsonl")
    );

    let e = eval_json(&[labels, "--locomo", locomo]);
    assert_eq!(e["total"], 320);
    assert_eq!(e["perClass"]["correction"]["support"], 0);
    let macro_f1 = e["macroF1"].as_f64().unwrap();
    assert!(
        macro_f1 >= 0.80,
        "macro F1 on the LoCoMo test set: {macro_f1}"
    );
    // The macro runs over the classes labelled or predicted: three here unless a correction
    // is predicted.
    let classes: Vec<&str> = ["forward_open", "current_state", "closed", "correction"]
        .into_iter()
        .filter(|c| {
            e["perClass"][c]["support"].as_u64().unwrap() > 0
                || e["confusion"]
                    .as_object()
                    .unwrap()
                    .values()
                    .any(|row| row[c].as_u64().unwrap() > 0)
        })
        .collect();
    let mean = classes
        .iter()
        .map(|c| e["perClass"][c]["f1"].as_f64().unwrap())
        .sum::<f64>()
        / classes.len() as f64;
    assert!((macro_f1 - mean).abs() < 1e-12);

    // Without --locomo, a labels file without texts is an input error naming it.
    let bare = tenure_eval(&["temporal", "eval", labels], None);
    assert_eq!(bare.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bare.stderr).contains("--locomo"));
}

/// `scripts/train-temporal.py`, the documented command at the committed file's own C and
/// software weight, rebuilds the compiled-in weights from the committed labels: the same
/// cross-validated figures, every weight within 1e-5 (lbfgs on another CPU may differ in the
/// last digits), and the harness's classifier says what scikit-learn's fitted model says.
///
/// The grid's eight settings cost the test gate a minute, so that the grid still chooses the
/// committed setting is checked only by `scripts/temporal-results.sh` (which stops when it
/// does not), run by hand with every source: a change that would move the grid's choice is
/// caught there, not here.
#[test]
fn the_learned_model_is_rebuilt_from_committed_data() {
    // Trained on BEAM's dev statements too, so it needs BEAM's files; LiveChat's dev statements
    // carry their texts (MIT), so LiveChat's files are not needed.
    if !needs(&[Need::Python, Need::Locomo, Need::Beam]) {
        return;
    }
    let r = crate::common::train::retrain(&[], "src/temporal/model.json");
    crate::common::train::same_weights(&r.rebuilt["weights"], &r.committed["weights"]);
    crate::common::train::classifies_as_fitted(&r.fitted, &[]);
}
