//! The shape of the input: an object written as an array, unknown and empty assertions, and
//! messages that name the real problem rather than a symptom.

use super::*;

/// Every object position in the pmb suite's three files (each belief, case, assertion group,
/// session, turn, mutation...), written as an array of its values, is refused with the JSON
/// path of that position; serde alone would take each by position.
#[test]
fn every_object_written_as_an_array_is_refused_where_it_stands() {
    use tenure_eval::profile::Profile;
    use tenure_eval::suite::{CustomFiles, Suite, SuiteSource};
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
                Suite::load(&SuiteSource::Custom(CustomFiles {
                    corpus: files.dir.path().join(NAMES[0]),
                    cases: files.dir.path().join(NAMES[1]),
                    sessions: Some(files.dir.path().join(NAMES[2])),
                    profile: Profile::Head,
                }))
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
    // A turn without `expect` checks nothing, as `{}` would (an audit found a file of such
    // turns "passed 12/12").
    session_error(
        |s| {
            s[0]["turns"][2].as_object_mut().unwrap().remove("expect");
        },
        &[
            "$[0].turns[2]: ",
            "no \"expect\"; expected one with at least one of",
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
