//! The TemporalClassifier's Slack statements (issue 47 #5, a source no rule or model was
//! developed on): the committed labels are the statements the documented rule draws from the
//! Slack chats' released files, in the drawn order; the set is held out whole, so `--part` is
//! refused with it (docs/temporal.md, "Slack: a source never seen"); the fresh sets are the
//! same draw's 161st to 320th, 321st to 480th and 481st to 640th statements.

use crate::common::needs::{data_file, needs, Need};
use crate::common::{jsonl_ids, tenure_eval, tenure_eval_ok};

#[test]
fn the_committed_slack_labels_are_the_drawn_statements() {
    if !needs(&[Need::Slack]) {
        return;
    }
    let dir = data_file("slack");
    let draw = |n: &str| {
        let out = tenure_eval_ok(&["temporal", "draw", "--n", n, "--slack"], &[&dir]);
        jsonl_ids(&out.stdout)
    };
    // The first set is the first 160; the fresh sets (docs/temporal.md, "Fresh held-out
    // statements", "The fifth attempt", "The sixth attempt") the next three 160s.
    let drawn = draw("640");
    for (labels, part) in [
        ("slack-test.labels.jsonl", &drawn[..160]),
        ("slack-test.second.labels.jsonl", &drawn[..160]),
        ("slack-test2.labels.jsonl", &drawn[160..320]),
        ("slack-test2.second.labels.jsonl", &drawn[160..320]),
        ("slack-test3.labels.jsonl", &drawn[320..480]),
        ("slack-test3.second.labels.jsonl", &drawn[320..480]),
        ("slack-test4.labels.jsonl", &drawn[480..]),
        ("slack-test4.second.labels.jsonl", &drawn[480..]),
    ] {
        let file = crate::common::repo(&format!("cases/temporal/{labels}"));
        assert_eq!(part, jsonl_ids(&std::fs::read(&file).unwrap()), "{labels}");
    }
    let drawn = &drawn[..160];
    // Rule 4: a larger draw extends a smaller one; every channel of rule 1 is drawn from.
    assert_eq!(draw("40")[..], drawn[..40]);
    let channels: std::collections::BTreeSet<&str> = drawn
        .iter()
        .map(|id| id.split('/').next().unwrap())
        .collect();
    assert_eq!(channels.len(), 3, "{channels:?}");
    // The texts come back from the ids, and each is a sentence of its message's prose.
    let file = crate::common::repo("cases/temporal/slack-test.labels.jsonl");
    let out = tenure_eval_ok(
        &["temporal", "classify", "--format", "json", "--slack"],
        &[&dir, &file],
    );
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 160);
    let dir = dir.display().to_string();
    let out = tenure_eval(&[
        "temporal", "draw", "--n", "3", "--part", "test", "--slack", &dir,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--part"));
}

#[test]
fn a_folder_that_is_not_the_slack_chats_is_exit_2_naming_the_file_it_lacks() {
    let empty = tempfile::tempdir().unwrap();
    let dir = empty.path().display().to_string();
    let out = tenure_eval(&["temporal", "draw", "--n", "3", "--slack", &dir]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "{dir}/clojurians/2019/merged-clojurians-clojure.xml"
        )) && stderr.contains("data/ folder"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}
