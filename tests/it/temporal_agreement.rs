//! Two labellings of one set compared (`temporal eval FILE --predicted SECOND`), and what
//! the comparison refuses: the second annotators' files score as the first's predictions, with
//! Cohen's κ recomputed here; a file of given predictions is scored as the first file, never
//! as the second.

use crate::temporal::{eval_json, tenure_eval};

/// The second annotator's labels (docs/temporal.md, "Agreement"): the same ids in the same
/// order as the first's, and `eval --predicted` scores one against the other with no text
/// read: accuracy is the share of equal classes, and Cohen's κ is recomputed here from the two
/// files' class shares. An id in one file only is exit 2 naming it.
#[test]
fn a_second_labelling_is_scored_as_the_predictions() {
    let read = |f: &str| -> Vec<(String, String)> {
        std::fs::read_to_string(crate::common::repo(f))
            .unwrap()
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (
                    v["id"].as_str().unwrap().into(),
                    v["class"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    for set in ["locomo-test", "beam-test", "livechat-test", "slack-test"] {
        let first = format!("cases/temporal/{set}.labels.jsonl");
        let second = format!("cases/temporal/{set}.second.labels.jsonl");
        let (a, b) = (read(&first), read(&second));
        let ids = |v: &[(String, String)]| v.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>();
        assert_eq!(
            ids(&a),
            ids(&b),
            "{second} labels {first}'s statements, in order"
        );
        let e = eval_json(&[&first, "--predicted", &second]);
        let n = a.len() as f64;
        let agree = a.iter().zip(&b).filter(|(x, y)| x.1 == y.1).count() as f64;
        let share =
            |v: &[(String, String)], c: &str| v.iter().filter(|(_, k)| k == c).count() as f64 / n;
        let chance: f64 = ["forward_open", "current_state", "closed", "correction"]
            .iter()
            .map(|c| share(&a, c) * share(&b, c))
            .sum();
        let kappa = (agree / n - chance) / (1.0 - chance);
        assert!(
            (e["accuracy"].as_f64().unwrap() - agree / n).abs() < 1e-12,
            "{set}"
        );
        assert!(
            (e["kappa"].as_f64().unwrap() - kappa).abs() < 1e-12,
            "{set}: {kappa}"
        );
        let k = &e["intervals"]["kappa"];
        assert!(k["low"].as_f64().unwrap() <= kappa && kappa <= k["high"].as_f64().unwrap());
        // No statement was classified, so no weights are named.
        assert!(e["model"].is_null(), "{set}: {}", e["model"]);
    }
    let out = tenure_eval(
        &[
            "temporal",
            "eval",
            "cases/temporal/livechat-test.labels.jsonl",
            "--predicted",
            "cases/temporal/beam-test.second.labels.jsonl",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("beam-test.second.labels.jsonl") && stderr.contains("docker/L1152/s4"),
        "{stderr}"
    );
    // A file whose lines carry predictions of their own would have them replaced: refused.
    let own = r#"{"id": "a", "text": "x", "class": "closed", "predicted": "closed"}"#;
    let out = tenure_eval(
        &[
            "temporal",
            "eval",
            "-",
            "--predicted",
            "cases/temporal/beam-test.second.labels.jsonl",
        ],
        Some(own),
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("<stdin>") && stderr.contains("\"predicted\""),
        "{stderr}"
    );
    // SECOND's classes are the predictions: a SECOND whose lines carry "predicted" (the
    // training script's files) would be scored by its gold classes, agreeing with FIRST at
    // 1.000. Refused, naming it.
    let dir = tempfile::tempdir().unwrap();
    let cv = dir.path().join("cv.jsonl");
    let first = "cases/temporal/livechat-test.labels.jsonl";
    let with_predictions: String = read(first)
        .iter()
        .map(|(id, class)| {
            format!("{{\"id\": \"{id}\", \"class\": \"{class}\", \"predicted\": \"closed\"}}\n")
        })
        .collect();
    std::fs::write(&cv, with_predictions).unwrap();
    let out = tenure_eval(
        &[
            "temporal",
            "eval",
            first,
            "--predicted",
            cv.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cv.jsonl") && stderr.contains("\"predicted\""),
        "{stderr}"
    );
    // The same file is scored as the first file, by its given predictions.
    let e = eval_json(&[cv.to_str().unwrap()]);
    assert_eq!(e["given"], 160);
    assert_eq!(e["perClass"]["closed"]["recall"], 1.0);
    // `classify` and `features` classify texts: a line with a given prediction (and no text)
    // would be classified as the empty string. Refused.
    for command in ["classify", "features"] {
        let out = tenure_eval(
            &["temporal", command, "-"],
            Some(r#"{"id": "a", "predicted": "closed"}"#),
        );
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(out.stdout.is_empty(), "{command}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("<stdin>: id \"a\"") && stderr.contains(command),
            "{command}: {stderr}"
        );
    }
}

/// A figure of nothing is null in the JSON and "–" in the table (precision of a class never
/// predicted, recall of one never labelled, both of one neither), and a labelled class's F1
/// interval is over the resamples where it is defined: fifteen `forward_open` statements and
/// one `closed`, every one predicted right, gave `closed` an interval from 0.000 (the resamples
/// that drew no `closed` counted as F1 0). Found by an audit.
#[test]
fn figures_of_nothing_are_null_and_a_perfect_rare_class_has_a_perfect_interval() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = String::new();
    for i in 0..15 {
        lines += &format!("{{\"id\": \"f{i}\", \"class\": \"forward_open\"}}\n");
    }
    lines += "{\"id\": \"c0\", \"class\": \"closed\"}\n";
    let (gold, same) = (dir.path().join("gold.jsonl"), dir.path().join("same.jsonl"));
    std::fs::write(&gold, &lines).unwrap();
    std::fs::write(&same, &lines).unwrap();
    // The same file but the closed statement predicted current_state.
    let other = dir.path().join("other.jsonl");
    std::fs::write(
        &other,
        lines.replace(
            "\"c0\", \"class\": \"closed\"",
            "\"c0\", \"class\": \"current_state\"",
        ),
    )
    .unwrap();
    let eval = |predicted: &std::path::Path, format: &str| {
        let out = crate::common::tenure_eval_with(
            &["temporal", "eval", "--format", format],
            &[&gold, std::path::Path::new("--predicted"), predicted],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let json: serde_json::Value = serde_json::from_str(&eval(&same, "json")).unwrap();
    let per_class = &json["perClass"];
    assert!(
        per_class["correction"]["precision"].is_null(),
        "{per_class}"
    );
    assert!(per_class["correction"]["f1"].is_null(), "{per_class}");
    assert_eq!(per_class["closed"]["f1"], 1.0);
    let table = eval(&same, "markdown");
    let closed = table.lines().find(|l| l.starts_with("| closed")).unwrap();
    assert!(closed.contains("1.000–1.000"), "{closed}");
    // current_state predicted once, never labelled: precision 0, recall "–"; closed labelled,
    // never predicted: precision "–", recall 0.
    let table = eval(&other, "markdown");
    let row = |class: &str| -> Vec<String> {
        let line = table
            .lines()
            .find(|l| l.starts_with(&format!("| {class} ")))
            .unwrap();
        line.split('|').map(|c| c.trim().to_string()).collect()
    };
    assert_eq!(row("current_state")[2..4], ["0.000", "–"], "{table}");
    assert_eq!(row("closed")[2..4], ["–", "0.000"], "{table}");
}
