//! Bad input: exit code 2, a message naming the file and the JSON path (or line), what was
//! expected, no panic and no report written.

use crate::common::{read_json, tenure_eval_with};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Output;

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

#[test]
fn session_unknown_turn_label() {
    session_error(
        |s| s[0]["turns"][2]["label"] = json!("digression"),
        &[
            "$[0].turns[2].label",
            "unknown variant `digression`",
            "establishes_topic",
        ],
    );
}

#[test]
fn session_turn_indexes_must_increase() {
    session_error(
        |s| s[0]["turns"][5]["turnIndex"] = json!(3),
        &[
            "$[0].turns[5].turnIndex",
            "turnIndex 3 after 4",
            "strictly increasing",
        ],
    );
}

#[test]
fn session_update_of_a_belief_that_does_not_exist() {
    session_error(
        |s| s[0]["turns"][9]["updateBeliefAtTurn"]["beliefId"] = json!("b-redis-cache"),
        &[
            "$[0].turns[9].updateBeliefAtTurn.beliefId",
            "\"b-redis-cache\" does not exist",
        ],
    );
}

#[test]
fn session_create_of_an_existing_belief() {
    session_error(
        |s| s[0]["turns"][4]["createBeliefAtTurn"]["_id"] = json!("b-redis-code"),
        &[
            "$[0].turns[4].createBeliefAtTurn._id",
            "\"b-redis-code\" already exists",
        ],
    );
}

#[test]
fn session_update_before_the_create_it_needs() {
    // Turn 4 creates b-ci-parallel-decision; updating it at turn 2 is an error.
    session_error(
        |s| {
            s[0]["turns"][2]["updateBeliefAtTurn"] =
                json!({"beliefId": "b-ci-parallel-decision", "addAliases": ["x"]});
        },
        &[
            "$[0].turns[2].updateBeliefAtTurn.beliefId",
            "\"b-ci-parallel-decision\" does not exist at this point",
        ],
    );
}

#[test]
fn session_noise_check_naming_an_unknown_belief() {
    session_error(
        |s| s[1]["turns"][0]["expect"]["noiseCheck"]["mustNotSurface"] = json!(["b-nope"]),
        &[
            "$[1].turns[0].expect.noiseCheck.mustNotSurface[0]",
            "\"b-nope\" is not in the corpus",
        ],
    );
}

#[test]
fn static_run_on_bad_input_writes_no_report() {
    let f = Files::new();
    let mut c = cases();
    c[0]["expect"]["openQuestions"] = json!({"mustInclude": "b-auth-open-q"});
    let bad = f.json("cases.json", &c);
    let out_dir = f.dir.path().join("reports");
    let corpus = f.json("corpus.json", &corpus());
    let out = tenure_eval_with(&["static", "--corpus"], &[&corpus]);
    assert_eq!(out.status.code(), Some(2)); // --cases missing: usage error
    let mut cmd = crate::common::cli(&[]);
    let out = cmd
        .arg("static")
        .arg("--corpus")
        .arg(&corpus)
        .arg("--cases")
        .arg(&bad)
        .arg("--out")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_input_error(
        &out,
        &bad,
        &[
            "$[0].expect.openQuestions.mustInclude",
            "expected a sequence",
        ],
    );
    assert!(!out_dir.exists());
}

#[test]
fn unknown_builtin_suite_is_a_usage_error() {
    let out = tenure_eval_with(&["static", "--suite", "nope", "--out", "/nonexistent"], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("unknown suite \"nope\"; expected one of paper, pmb"),
        "{stderr}"
    );
}

#[test]
fn valid_custom_suite_validates_with_warnings() {
    let f = Files::new();
    let out = validate(
        &f.json("corpus.json", &corpus()),
        &f.json("cases.json", &cases()),
        Some(&f.json("sessions.json", &sessions())),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("35 beliefs, 77 static cases, 2 session cases (12 turns), 3 warnings"),
        "{stdout}"
    );
}

#[test]
fn session_without_session_cases_is_a_usage_error_and_run_does_the_static_half() {
    let f = Files::new();
    let (corpus, cases) = (
        f.json("corpus.json", &corpus()),
        f.json("cases.json", &cases()),
    );
    let out_dir = f.dir.path().join("reports");
    let run = |command: &str| {
        crate::common::cli(&[])
            .args([command, "--corpus"])
            .arg(&corpus)
            .arg("--cases")
            .arg(&cases)
            .arg("--out")
            .arg(&out_dir)
            .output()
            .unwrap()
    };
    let out = run("session");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no session cases"));
    assert!(
        !out_dir.exists(),
        "nothing may be written before a usage error"
    );
    let out = run("run");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out_dir.join("custom/retrieval-report-tenure.json").exists());
    assert!(!out_dir
        .join("custom/session-retrieval-report-tenure.json")
        .exists());
}

/// Every object position in the pmb suite's three files (each belief, case, assertion group,
/// session, turn, mutation...), written as an array of its values, is refused with the JSON
/// path of that position; serde alone would take each by position.
#[test]
fn every_object_written_as_an_array_is_refused_where_it_stands() {
    use tenure_eval::profile::Profile;
    use tenure_eval::suite::{Suite, SuiteSource};
    fn object_paths(
        v: &Value,
        at: String,
        out: &mut Vec<(String, Vec<PathIndex>)>,
        trail: Vec<PathIndex>,
    ) {
        match v {
            Value::Object(m) => {
                if !trail.is_empty() {
                    out.push((at.clone(), trail.clone()));
                }
                for (k, x) in m {
                    let mut t = trail.clone();
                    t.push(PathIndex::Key(k.clone()));
                    object_paths(x, format!("{at}.{k}"), out, t);
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    let mut t = trail.clone();
                    t.push(PathIndex::At(i));
                    object_paths(x, format!("{at}[{i}]"), out, t);
                }
            }
            _ => {}
        }
    }
    #[derive(Clone)]
    enum PathIndex {
        Key(String),
        At(usize),
    }
    fn slot<'a>(v: &'a mut Value, trail: &[PathIndex]) -> &'a mut Value {
        trail.iter().fold(v, |v, p| match p {
            PathIndex::Key(k) => &mut v[k.as_str()],
            PathIndex::At(i) => &mut v[*i],
        })
    }

    let files = Files::new();
    let originals = [corpus(), cases(), sessions()];
    const NAMES: [&str; 3] = ["corpus.json", "cases.json", "sessions.json"];
    let (mut checked, mut ignored) = (0, 0);
    for which in 0..3 {
        for (doc, name) in originals.iter().zip(NAMES) {
            files.json(name, doc);
        }
        let mut positions = Vec::new();
        object_paths(&originals[which], "$".into(), &mut positions, Vec::new());
        for (at, trail) in positions {
            let load = |replace: &dyn Fn(&Value) -> Value| {
                let mut doc = originals[which].clone();
                let target = slot(&mut doc, &trail);
                *target = replace(target);
                files.json(NAMES[which], &doc);
                Suite::load(&SuiteSource::Custom {
                    corpus: files.dir.path().join(NAMES[0]),
                    cases: files.dir.path().join(NAMES[1]),
                    sessions: Some(files.dir.path().join(NAMES[2])),
                    profile: Profile::Head,
                })
            };
            // A position the loader reads refuses a number; one it ignores (a belief's
            // `provenance`) takes anything.
            if load(&|_| json!(42)).is_ok() {
                ignored += 1;
                continue;
            }
            let error = load(&|v| Value::Array(v.as_object().unwrap().values().cloned().collect()))
                .err()
                .unwrap_or_else(|| panic!("{}: {at} as an array loads", NAMES[which]));
            let message = error.to_string();
            assert!(
                message.contains(&format!("{}: {at} ", NAMES[which]))
                    && message.contains("sequence"),
                "{at}: {message}"
            );
            checked += 1;
        }
    }
    assert!(
        checked > 300 && ignored < 50,
        "{checked} object positions read, {ignored} ignored"
    );
}

/// A misspelt session assertion key is an error naming the key and the expected ones, as in
/// static cases; the keys upstream's own files hold stay warnings, `_` keys are notes.
#[test]
fn session_unknown_assertion_keys_are_errors() {
    session_error(
        |s| {
            s[0]["turns"][1]["expect"]["relevantBeliefs"]["mustIncude"] = json!(["b-redis-code"]);
        },
        &[
            "$[0].turns[1].expect.relevantBeliefs.mustIncude",
            "unknown assertion key `mustIncude`, expected one of `shouldOnlyInclude`, `mustInclude`, `mustExclude`",
        ],
    );
    session_error(
        |s| s[1]["turns"][0]["expect"]["pinnedFact"] = json!({"mustInclude": []}),
        &[
            "$[1].turns[0].expect.pinnedFact",
            "expected one of `relevantBeliefs`, `pinnedFacts`",
        ],
    );
    let f = Files::new();
    let mut s = sessions();
    s[0]["turns"][2]["expect"]["_why"] = json!("a note");
    let out = validate(
        &f.json("corpus.json", &corpus()),
        &f.json("cases.json", &cases()),
        Some(&f.json("sessions.json", &s)),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("3 warnings"));
}

/// `{}` where assertions belong (a case's `expect`, a group in it, a turn's) is an input error:
/// such a case would pass whatever is retrieved. A group of only empty lists loads with a
/// warning (upstream's recency-tiebreak-reinforcement is one).
#[test]
fn empty_assertions_are_errors_and_vacuous_ones_warnings() {
    let f = Files::new();
    let (corpus, sessions_file) = (
        f.json("corpus.json", &corpus()),
        f.json("sessions.json", &sessions()),
    );
    for (mutate, at, says) in [
        (
            Box::new(|c: &mut Value| c[3]["expect"] = json!({})) as Box<dyn Fn(&mut Value)>,
            "$[3].expect: ",
            "no assertion; expected at least one of relevantBeliefs",
        ),
        (
            Box::new(|c: &mut Value| c[3]["expect"]["relevantBeliefs"] = json!({})),
            "$[3].expect.relevantBeliefs: ",
            "empty assertion group",
        ),
        (
            Box::new(|c: &mut Value| c[3]["expect"] = json!([])),
            "$[3].expect (line ",
            "invalid type: sequence, expected a JSON object (struct Expect)",
        ),
    ] {
        let mut c = cases();
        mutate(&mut c);
        let bad = f.json("cases.json", &c);
        let out = validate(&corpus, &bad, Some(&sessions_file));
        assert_input_error(&out, &bad, &[at, says]);
    }
    session_error(
        |s| s[0]["turns"][2]["expect"]["pinnedFacts"] = json!({}),
        &["$[0].turns[2].expect.pinnedFacts", "empty assertion group"],
    );
    // Notes (`_` keys) are not assertions, even when they are objects.
    session_error(
        |s| s[0]["turns"][2]["expect"] = json!({"_note": {}}),
        &[
            "$[0].turns[2].expect: ",
            "no assertion; expected at least one of",
        ],
    );

    // Only empty lists: a warning naming the case.
    let mut c = cases();
    c[3]["expect"] = json!({"pinnedFacts": {"mustInclude": []}});
    let id = c[3]["caseId"].as_str().unwrap().to_string();
    let out = validate(&corpus, &f.json("cases.json", &c), Some(&sessions_file));
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("$[3].expect ({id}): asserts nothing")),
        "{stderr}"
    );
}

/// Messages that say what is wrong where: a pair with three elements, a sessions file that
/// holds no case (not "give --sessions FILE": one was given), and a file where `--out` needs a
/// folder (not the OS's "File exists" or "Not a directory").
#[test]
fn messages_name_the_real_problem() {
    let f = Files::new();
    let corpus_file = f.json("corpus.json", &corpus());
    let mut c = cases();
    c[0]["expect"]["relevantBeliefs"]["orderedBefore"] =
        json!([["b-redis-code", "b-redis-writing", "b-x"]]);
    let bad = f.json("cases.json", &c);
    assert_input_error(
        &validate(&corpus_file, &bad, None),
        &bad,
        &[
            "$[0].expect.relevantBeliefs.orderedBefore[0] (line ",
            "too many elements; expected an array of fixed length",
        ],
    );

    let cases_file = f.json("cases.json", &cases());
    let empty = f.json("sessions.json", &json!([]));
    let out = tenure_eval_with(
        &["session", "--quiet", "--corpus"],
        &[
            &corpus_file,
            Path::new("--cases"),
            &cases_file,
            Path::new("--sessions"),
            &empty,
        ],
    );
    assert_input_error(
        &out,
        &empty,
        &["$: no session cases; expected an array of at least one session case"],
    );
    session_error(|s| s[1]["turns"] = json!([]), &["$[1].turns: no turns"]);

    let file = f.write("not-a-folder", b"x");
    for out in [file.clone(), file.join("sub")] {
        let run = tenure_eval_with(&["static", "--suite", "pmb", "--quiet", "--out"], &[&out]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(3), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "{} is a file; expected a folder there",
                file.display()
            )),
            "{stderr}"
        );
    }
    std::fs::create_dir(f.dir.path().join("reports")).unwrap();
    let occupied = f.write("reports/pmb", b"x");
    let run = tenure_eval_with(
        &["static", "--suite", "pmb", "--quiet", "--out"],
        &[&f.dir.path().join("reports")],
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains(&format!(
            "{} is a file; expected a folder there",
            occupied.display()
        )),
        "{stderr}"
    );
}

/// A corpus written for another user than the cases' default `test-user` would score 0
/// everywhere: validate says so, naming the corpus's users.
#[test]
fn a_corpus_without_the_default_users_beliefs_warns() {
    let f = Files::new();
    let mut c = corpus();
    for b in c.as_array_mut().unwrap() {
        b["user_id"] = json!("alice");
    }
    let corpus_file = f.json("corpus.json", &c);
    let out = validate(&corpus_file, &f.json("cases.json", &cases()), None);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "{}: no belief belongs to \"test-user\", the user of the 76 cases without `userId`; they will retrieve nothing (the corpus's users: alice)",
            corpus_file.display()
        )),
        "{stderr}"
    );
    // The built-in corpus has test-user's beliefs: no such warning.
    let out = validate(
        &f.json("corpus.json", &corpus()),
        &f.json("cases.json", &cases()),
        None,
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("no belief belongs"));
}

/// A corpus of one belief and a case asking for it by its exact alias.
fn one_belief_suite(f: &Files) -> (PathBuf, PathBuf) {
    let corpus = f.json(
        "one.json",
        &json!([{"_id": "b-only", "user_id": "test-user", "type": "entity",
                 "canonical_name": "zebra_cache", "aliases": ["zebracache"], "scope": [],
                 "content": "The zebracache."}]),
    );
    let cases = f.json(
        "cases.json",
        &json!([{"caseId": "exact-alias", "category": "Alias", "scope": [], "query": "zebracache",
                 "expect": {"relevantBeliefs": {"shouldOnlyInclude": ["b-only"]}}}]),
    );
    (corpus, cases)
}

/// A one-belief corpus finds nothing for its exact alias under the eval's minimum score of 3
/// (its IDF is low); `--min-score` lowers the floor, and the manifest records it.
#[test]
fn min_score_is_a_setting_recorded_in_the_manifest() {
    let f = Files::new();
    let (corpus, cases) = one_belief_suite(&f);
    // The report is named by the run's label: `--min-score` adds its token (report::label).
    let run = |extra: &[&str], file: &str| {
        let out = f.dir.path().join(format!("out{}", extra.len()));
        let mut cmd = crate::common::cli(&[]);
        cmd.args(["static", "--quiet", "--corpus"])
            .arg(&corpus)
            .arg("--cases")
            .arg(&cases)
            .arg("--out")
            .arg(&out)
            .args(extra);
        assert_eq!(cmd.output().unwrap().status.code(), Some(0));
        read_json(out.join("custom").join(file).to_str().unwrap())
    };
    let floor = run(&[], "retrieval-report-tenure.json");
    assert_eq!(floor["cases"][0]["relevantBeliefs"], json!([]));
    assert!(floor["manifest"]["backendSettings"]
        .get("minScore")
        .is_none());
    let lowered = run(
        &["--min-score", "0.1"],
        "retrieval-report-tenure-min0.1.json",
    );
    assert_eq!(lowered["cases"][0]["relevantBeliefs"], json!(["b-only"]));
    assert_eq!(
        lowered["manifest"]["backendSettings"]["minScore"],
        json!(0.1)
    );
}

/// `--explain CASE` shows why a case returned nothing: its best candidates without a floor,
/// marked against it, with the terms that scored them; an unknown case is a usage error.
#[test]
fn explain_shows_the_candidates_below_the_floor() {
    let f = Files::new();
    let (corpus, cases) = one_belief_suite(&f);
    let explain = |extra: &[&str]| {
        let out = crate::common::cli(&[])
            .args(["static", "--corpus"])
            .arg(&corpus)
            .arg("--cases")
            .arg(&cases)
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, text, _) = explain(&["--explain", "exact-alias"]);
    assert_eq!(code, Some(0));
    assert!(
        text.contains("searched as \"zebracache\", user test-user, scopes [], floor 3"),
        "{text}"
    );
    assert!(
        text.contains("- `b-only` 2.30 (below the floor): "),
        "{text}"
    );
    assert!(text.contains("aliases:zebracache 0.65"), "{text}");
    let (_, text, _) = explain(&["--explain", "exact-alias", "--min-score", "2"]);
    assert!(text.contains("- `b-only` 2.30 (kept): "), "{text}");
    let (code, _, stderr) = explain(&["--explain", "exact"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("no static case with that id in suite custom (near: exact-alias)"),
        "{stderr}"
    );
}
