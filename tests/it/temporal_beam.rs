//! The TemporalClassifier's BEAM statements (issue 47 #5): the committed labels are the
//! statements the documented rule draws from BEAM's released files, in the drawn order, and
//! the rule's parts and strata hold (docs/temporal.md, "Real utterances from BEAM").

use crate::common::needs::{data_file, needs, Need};
use crate::common::{jsonl_ids, tenure_eval_ok};
use std::collections::HashSet;

#[test]
fn the_committed_beam_labels_are_the_drawn_statements() {
    if !needs(&[Need::Beam]) {
        return;
    }
    let beam = data_file("beam");
    for (part, file) in [
        ("test", "cases/temporal/beam-test.labels.jsonl"),
        ("dev", "cases/temporal/beam-dev.labels.jsonl"),
    ] {
        let out = tenure_eval_ok(
            &["temporal", "draw", "--part", part, "--n", "160", "--beam"],
            &[&beam],
        );
        let drawn = jsonl_ids(&out.stdout);
        let labelled = jsonl_ids(&std::fs::read(crate::common::repo(file)).unwrap());
        assert_eq!(drawn, labelled, "{file} is the --part {part} draw");
        // Rule 3: dev is chats 1-10, test chats 11-20.
        let chats: HashSet<u32> = drawn
            .iter()
            .map(|id| id.split('/').next().unwrap()[5..].parse().unwrap())
            .collect();
        assert!(
            chats.iter().all(|c| (*c <= 10) == (part == "dev")),
            "{part}: {chats:?}"
        );
        // The texts come back from the ids, each a statement of the prose (no code fence).
        let out = tenure_eval_ok(
            &["temporal", "classify", "--format", "json", "--beam"],
            &[&beam, &crate::common::repo(file)],
        );
        let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(rows.as_array().unwrap().len(), 160);
    }
    // A larger draw extends a smaller one (rule 4).
    let draw = |n: &str| {
        let out = tenure_eval_ok(
            &["temporal", "draw", "--part", "test", "--n", n, "--beam"],
            &[&beam],
        );
        jsonl_ids(&out.stdout)
    };
    assert_eq!(draw("40")[..], draw("160")[..40]);
}
