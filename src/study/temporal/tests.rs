//! Known answers of the statements file reader and the evaluation: a known confusion, and
//! malformed lines named by their line.

use super::{evaluate, parse_statements};
use crate::temporal::TemporalClass;
use std::path::Path;

#[test]
fn evaluation_counts_a_known_confusion() {
    let lines = [
        r#"{"id":"a","text":"From now on we squash-merge.","class":"forward_open"}"#,
        r#"{"id":"b","text":"We used to use Jenkins.","class":"closed"}"#,
        r#"{"id":"c","text":"Actually, it is port 80.","class":"correction"}"#,
        r#"{"id":"d","text":"The disk is full.","class":"current_state"}"#,
        r#"{"id":"e","text":"The disk is full again.","class":"closed"}"#,
    ]
    .join("\n");
    let statements = parse_statements(Path::new("t.jsonl"), lines.as_bytes()).unwrap();
    let e = evaluate(Path::new("t.jsonl"), &statements, None).unwrap();
    assert_eq!((e.total, e.correct), (5, 4));
    let closed = e.per_class[&TemporalClass::Closed];
    assert_eq!(
        (closed.precision, closed.recall, closed.support),
        (1.0, 0.5, 2)
    );
    let current = e.per_class[&TemporalClass::CurrentState];
    assert_eq!((current.precision, current.recall), (0.5, 1.0));
    assert_eq!(
        e.confusion[&TemporalClass::Closed][&TemporalClass::CurrentState],
        1
    );
    assert_eq!(e.misclassified.len(), 1);
    assert_eq!(e.misclassified[0].id, "e");
    let f1_closed = 2.0 * 0.5 / 1.5;
    assert!((e.macro_f1 - (1.0 + f1_closed + f1_closed + 1.0) / 4.0).abs() < 1e-12);
    let json = serde_json::to_value(&e).unwrap();
    assert_eq!(json["perClass"]["closed"]["support"], 2);
    assert!(json["macroF1"].is_number());
    assert_eq!(json["confusion"]["closed"]["current_state"], 1);
}

#[test]
fn malformed_lines_name_the_line() {
    let path = Path::new("s.jsonl");
    let err = |text: &str| {
        parse_statements(path, text.as_bytes())
            .unwrap_err()
            .to_string()
    };
    let good = r#"{"id":"a","text":"x"}"#;
    assert!(err(&format!("{good}\n{{\"id\":\"b\"")).contains("s.jsonl: line 2:"));
    assert!(err(&format!(
        "{good}\n\n{{\"id\":\"b\",\"text\":\"y\",\"class\":\"past\"}}"
    ))
    .contains("line 3"));
    assert!(err(&format!("{good}\n{good}")).contains("duplicate id \"a\" (first on line 1)"));
    assert!(err(r#"{"id":"a","text":"x","klass":"closed"}"#).contains("unknown field"));
}

#[test]
fn macro_averages_skip_a_class_neither_labelled_nor_predicted() {
    let lines = [
        r#"{"id":"a","text":"From now on we squash-merge.","class":"forward_open"}"#,
        r#"{"id":"b","text":"Your support means a lot to me.","class":"current_state"}"#,
        r#"{"id":"c","text":"Your support means a lot.","class":"closed"}"#,
    ]
    .join("\n");
    let statements = parse_statements(Path::new("t.jsonl"), lines.as_bytes()).unwrap();
    let e = evaluate(Path::new("t.jsonl"), &statements, None).unwrap();
    // No correction labelled or predicted: the mean runs over three classes. c is predicted
    // current_state, so closed is missed (F1 0) and current_state has precision 1/2.
    let f1_current = 2.0 * 0.5 / 1.5;
    assert!((e.macro_f1 - (1.0 + f1_current + 0.0) / 3.0).abs() < 1e-12);
    // A correction predicted but never labelled counts, with F1 0.
    let lines = r#"{"id":"a","text":"Actually, it is port 80.","class":"current_state"}"#;
    let statements = parse_statements(Path::new("t.jsonl"), lines.as_bytes()).unwrap();
    let e = evaluate(Path::new("t.jsonl"), &statements, None).unwrap();
    assert_eq!(e.macro_f1, 0.0);
    assert_eq!(e.macro_recall, 0.0);
}
