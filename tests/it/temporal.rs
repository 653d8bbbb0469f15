//! `tenure-eval temporal`: the classifier's command line on the built-in corpus and on
//! statements the test writes, one per marker class of spec context-scorer §5.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn tenure_eval(args: &[&str], stdin: Option<&str>) -> Output {
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

#[test]
fn eval_on_the_built_in_corpus_prints_the_per_class_table() {
    let out = tenure_eval(
        &[
            "temporal",
            "eval",
            "cases/temporal/statements.jsonl",
            "--format",
            "json",
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let e: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
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
    assert_eq!(rows[0], ["class", "precision", "recall", "F1", "support"]);
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
         now\tcurrent_state\t-\n\
         old\tclosed\tsuperseded:used to\n\
         fix\tcorrection\tcorrection:i was wrong\n"
    );
    let json = tenure_eval(
        &["temporal", "classify", "-", "--format", "json"],
        Some(&lines),
    );
    let rows: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(rows[1]["class"], "current_state");
    assert_eq!(rows[1]["marker"], serde_json::Value::Null);
    assert_eq!(rows[1]["source"], "default");
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
