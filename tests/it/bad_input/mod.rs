//! Bad input: exit code 2, a message naming the file and the JSON path (or line), what was
//! expected, no panic and no report written.

use crate::common::{read_json, tenure_eval_with};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Output;

mod runs;
mod sessions;
mod settings;
mod shapes;

struct Files {
    dir: tempfile::TempDir,
}

impl Files {
    fn new() -> Files {
        Files {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
    fn json(&self, name: &str, value: &Value) -> PathBuf {
        self.write(
            name,
            serde_json::to_string_pretty(value).unwrap().as_bytes(),
        )
    }
}

fn corpus() -> Value {
    read_json("seeds/pmb/beliefs.seed.json")
}
fn cases() -> Value {
    read_json("cases/pmb/retrieval.cases.json")
}
fn sessions() -> Value {
    read_json("cases/pmb/session-retrieval.cases.json")
}

fn validate(corpus: &Path, cases: &Path, sessions: Option<&Path>) -> Output {
    let mut cmd = crate::common::cli(&[]);
    cmd.arg("validate")
        .arg("--corpus")
        .arg(corpus)
        .arg("--cases")
        .arg(cases);
    if let Some(s) = sessions {
        cmd.arg("--sessions").arg(s);
    }
    cmd.output().unwrap()
}

/// Exit 2, one `error:` line naming `file` and containing every `needle`.
fn assert_input_error(out: &Output, file: &Path, needles: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(
        stderr.contains(&file.display().to_string()),
        "file not named: {stderr}"
    );
    for needle in needles {
        assert!(stderr.contains(needle), "{needle:?} not in: {stderr}");
    }
}

#[test]
fn malformed_json_names_line_and_column() {
    let f = Files::new();
    let bad = f.write(
        "cases.json",
        b"[\n  {\"caseId\": \"x\",\n  \"scope\": [}\n]",
    );
    let out = validate(&f.json("corpus.json", &corpus()), &bad, None);
    assert_input_error(&out, &bad, &["line 3, column", "malformed JSON"]);
}

#[test]
fn trailing_characters_after_the_document() {
    let f = Files::new();
    let mut text = serde_json::to_string(&cases()).unwrap();
    text.push_str("\n]");
    let bad = f.write("cases.json", text.as_bytes());
    let out = validate(&f.json("corpus.json", &corpus()), &bad, None);
    assert_input_error(&out, &bad, &["line 2, column 1", "trailing characters"]);
}

#[test]
fn wrong_type_names_the_json_path() {
    let f = Files::new();
    let mut c = cases();
    c[3]["scope"] = json!("domain:code");
    let bad = f.json("cases.json", &c);
    let out = validate(&f.json("corpus.json", &corpus()), &bad, None);
    assert_input_error(
        &out,
        &bad,
        &[
            "$[3].scope",
            "invalid type: string \"domain:code\", expected a sequence",
        ],
    );
}

#[test]
fn a_number_where_a_type_name_belongs_names_the_json_path_not_malformed_json() {
    // serde_json calls this a syntax error ("expected value"); the file is well-formed.
    let f = Files::new();
    let mut b = corpus();
    b[3]["type"] = json!(3);
    let bad = f.json("corpus.json", &b);
    let out = validate(&bad, &f.json("cases.json", &cases()), None);
    assert_input_error(&out, &bad, &["$[3].type", "a value of the wrong type"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("malformed JSON"));
}

#[test]
fn unknown_assertion_key_is_rejected() {
    let f = Files::new();
    let mut c = cases();
    c[5]["expect"]["relevantBeliefs"]["shouldOnlyIncude"] = json!([]);
    let bad = f.json("cases.json", &c);
    let out = validate(&f.json("corpus.json", &corpus()), &bad, None);
    assert_input_error(
        &out,
        &bad,
        &[
            "$[5].expect.relevantBeliefs.shouldOnlyIncude",
            "unknown field `shouldOnlyIncude`",
            "expected one of",
        ],
    );
}

#[test]
fn unknown_assertion_group_is_rejected() {
    let f = Files::new();
    let mut c = cases();
    c[0]["expect"]["relevantBelief"] = json!({"mustInclude": []});
    let bad = f.json("cases.json", &c);
    let out = validate(&f.json("corpus.json", &corpus()), &bad, None);
    assert_input_error(
        &out,
        &bad,
        &[
            "$[0].expect.relevantBelief",
            "unknown field `relevantBelief`",
        ],
    );
}

#[test]
fn unknown_budget_key_is_rejected() {
    let f = Files::new();
    let mut c = cases();
    c[1]["budget"] = json!({"maxBelief": 2});
    let bad = f.json("cases.json", &c);
    let out = validate(&f.json("corpus.json", &corpus()), &bad, None);
    assert_input_error(
        &out,
        &bad,
        &["$[1].budget.maxBelief", "unknown field `maxBelief`"],
    );
}

#[test]
fn duplicate_belief_id() {
    let f = Files::new();
    let mut b = corpus();
    b[7]["_id"] = b[2]["_id"].clone();
    let bad = f.json("corpus.json", &b);
    let out = validate(&bad, &f.json("cases.json", &cases()), None);
    assert_input_error(
        &out,
        &bad,
        &["$[7]._id", "duplicate belief id", "first at $[2]"],
    );
}

#[test]
fn duplicate_case_id() {
    let f = Files::new();
    let mut c = cases();
    c[9]["caseId"] = c[4]["caseId"].clone();
    let bad = f.json("cases.json", &c);
    let out = validate(&f.json("corpus.json", &corpus()), &bad, None);
    assert_input_error(
        &out,
        &bad,
        &["$[9].caseId", "duplicate case id", "first at $[4]"],
    );
}

#[test]
fn assertion_naming_a_belief_absent_from_the_corpus() {
    let f = Files::new();
    let mut c = cases();
    c[2]["expect"]["pinnedFacts"] = json!({"mustInclude": ["b-db-decision", "b-no-such-belief"]});
    let bad = f.json("cases.json", &c);
    let out = validate(&f.json("corpus.json", &corpus()), &bad, None);
    assert_input_error(
        &out,
        &bad,
        &[
            "$[2].expect.pinnedFacts.mustInclude[1]",
            "\"b-no-such-belief\" is not in the corpus",
        ],
    );
}

#[test]
fn empty_corpus() {
    let f = Files::new();
    let bad = f.json("corpus.json", &json!([]));
    let out = validate(&bad, &f.json("cases.json", &cases()), None);
    assert_input_error(&out, &bad, &["$", "empty corpus"]);
}

#[test]
fn missing_file() {
    let f = Files::new();
    let missing = f.dir.path().join("nope.json");
    let out = validate(&f.json("corpus.json", &corpus()), &missing, None);
    assert_input_error(
        &out,
        &missing,
        &["file not found", "expected a readable JSON file"],
    );
}

#[test]
fn unreadable_path_is_a_directory() {
    let f = Files::new();
    let out = validate(f.dir.path(), &f.json("cases.json", &cases()), None);
    assert_input_error(&out, f.dir.path(), &["cannot read file"]);
}

#[test]
fn non_utf8_names_the_byte_and_line() {
    let f = Files::new();
    let bad = f.write("corpus.json", b"[\n  {\"_id\": \"b-\xff\"}\n]");
    let out = validate(&bad, &f.json("cases.json", &cases()), None);
    assert_input_error(
        &out,
        &bad,
        &["byte 15 (line 2, column 14)", "invalid UTF-8"],
    );
}

#[test]
fn unknown_belief_type() {
    let f = Files::new();
    let mut b = corpus();
    b[4]["type"] = json!("fact");
    let bad = f.json("corpus.json", &b);
    let out = validate(&bad, &f.json("cases.json", &cases()), None);
    assert_input_error(
        &out,
        &bad,
        &["$[4].type", "unknown variant `fact`", "expected one of"],
    );
}

#[test]
fn malformed_date() {
    let f = Files::new();
    let mut b = corpus();
    b[0]["last_reinforced_at"] = json!("yesterday");
    let bad = f.json("corpus.json", &b);
    let out = validate(&bad, &f.json("cases.json", &cases()), None);
    assert_input_error(
        &out,
        &bad,
        &["$[0].last_reinforced_at", "expected an ISO 8601 date-time"],
    );
}

#[test]
fn missing_required_field() {
    let f = Files::new();
    let mut c = cases();
    c[6].as_object_mut().unwrap().remove("query");
    let bad = f.json("cases.json", &c);
    let out = validate(&f.json("corpus.json", &corpus()), &bad, None);
    assert_input_error(&out, &bad, &["$[6]", "missing field `query`"]);
}

/// Validate the pmb suite with its session file changed by `mutate`.
fn session_error(mutate: impl FnOnce(&mut Value), needles: &[&str]) {
    let f = Files::new();
    let mut s = sessions();
    mutate(&mut s);
    let bad = f.json("sessions.json", &s);
    let out = validate(
        &f.json("corpus.json", &corpus()),
        &f.json("cases.json", &cases()),
        Some(&bad),
    );
    assert_input_error(&out, &bad, needles);
}
