//! What a seventeenth audit (the benchmarks' loaders on bad input) found, each kept closed
//! here: records a loader dropped, repeated or misread in silence, so that a run's figures came
//! from other records than the file holds. Each is now refused with its file and JSON path or
//! line, or said.

use crate::common::cli;
use crate::common::needs::{data_file, locomo_file, needs, Need};
use serde_json::Value;
use std::path::Path;

/// `validate ARGS`: its exit code, and what it said (stderr, then stdout: its report and the
/// anomalies go to stdout).
fn validate(args: &[&str]) -> (Option<i32>, String) {
    let o = cli(&[&["validate", "--suite"][..], args].concat())
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&o.stderr).into_owned() + &String::from_utf8_lossy(&o.stdout);
    (o.status.code(), said)
}

fn refused(args: &[&str], says: &str) {
    let (code, stderr) = validate(args);
    assert_eq!(code, Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(says), "{args:?}: {stderr}");
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn write(path: &Path, value: &Value) {
    std::fs::write(path, serde_json::to_vec(value).unwrap()).unwrap();
}

/// LongMemEval's sample, edited, at `dir/FILE`.
fn longmemeval(dir: &Path, file: &str, edit: impl Fn(&mut Value)) -> String {
    let mut sample = json(&crate::common::repo("tests/data/longmemeval-sample.json"));
    edit(&mut sample);
    let path = dir.join(file);
    write(&path, &sample);
    path.to_str().unwrap().to_string()
}

/// A key twice in one object kept its last value: a second, empty `"qa"` removed a LoCoMo
/// conversation's 197 questions, and a run passed 913/1785 of what it took for the file.
#[test]
fn a_key_twice_in_a_benchmarks_object_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        std::fs::read_to_string(crate::common::repo("tests/data/longmemeval-sample.json")).unwrap();
    let twice = text.replacen("\"question\":", "\"question\": \"\", \"question\":", 1);
    assert_ne!(twice, text);
    let path = dir.path().join("twice.json");
    std::fs::write(&path, twice).unwrap();
    refused(
        &["longmemeval", "--data", path.to_str().unwrap()],
        "twice.json: $[0] (line 5, column",
    );
    refused(
        &["longmemeval", "--data", path.to_str().unwrap()],
        "the key \"question\" a second time in one object",
    );
    if !needs(&[Need::Locomo]) {
        return;
    }
    let text = std::fs::read_to_string(locomo_file()).unwrap();
    let at = text.find("\"sample_id\": \"conv-26\"").unwrap();
    let path = dir.path().join("locomo.json");
    std::fs::write(&path, format!("{}\"qa\": [], {}", &text[..at], &text[at..])).unwrap();
    refused(
        &["locomo", "--data", path.to_str().unwrap()],
        "the key \"qa\" a second time in one object",
    );
}

/// A test collection's files: judgments of a topic the topics file lacks were read by none, a
/// byte-order mark made the first id another, a blank topic was a case scored 0, and a JSON
/// line written as an array was read by position.
#[test]
fn a_collections_files_keep_every_record_or_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    std::fs::write(
        d("docs.jsonl"),
        "{\"_id\":\"d1\",\"text\":\"the cat sat on the mat\"}\n\
         {\"_id\":\"d2\",\"text\":\"dogs bark at night\"}\n",
    )
    .unwrap();
    std::fs::write(d("topics.tsv"), "q1\tcat mat\nq2\tdogs night\n").unwrap();
    std::fs::write(d("qrels.txt"), "q1 0 d1 1\nq2 0 d2 1\nq9 0 d2 1\n").unwrap();
    let collection = |topics: &str, qrels: &str| {
        [
            "trec",
            "--corpus",
            &d("docs.jsonl"),
            "--topics",
            &d(topics),
            "--qrels",
            &d(qrels),
        ]
        .map(str::to_string)
    };
    let args = collection("topics.tsv", "qrels.txt");
    let (code, stderr) = validate(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr
            .contains("q9: \"1 judgment(s)\" judged in the qrels but no topic of the topics file"),
        "{stderr}"
    );
    std::fs::write(d("bom.txt"), "\u{feff}q1 0 d1 1\n").unwrap();
    std::fs::write(d("blank.tsv"), "q1\t\nq2\tdogs night\n").unwrap();
    std::fs::write(
        d("array.jsonl"),
        "{\"_id\":\"q1\",\"text\":\"cat\"}\n[\"q2\",\"dogs\"]\n",
    )
    .unwrap();
    for (topics, qrels, says) in [
        (
            "topics.tsv",
            "bom.txt",
            "bom.txt: line 1: a byte-order mark (U+FEFF)",
        ),
        (
            "blank.tsv",
            "qrels.txt",
            "blank.tsv: line 1: expected `QUERY_ID<TAB>TEXT`, neither blank",
        ),
        (
            "array.jsonl",
            "qrels.txt",
            "array.jsonl: line 2: expected a query",
        ),
    ] {
        let args = collection(topics, qrels);
        refused(&args.iter().map(String::as_str).collect::<Vec<_>>(), says);
    }
}

/// LongMemEval: a turn of another role vanished from the corpus, an answer session the
/// haystack lacks was left out of the gold, and a blank question was a case scored 0.
#[test]
fn longmemeval_roles_answer_sessions_and_blank_questions() {
    let dir = tempfile::tempdir().unwrap();
    let file = longmemeval(dir.path(), "role.json", |d| {
        d[1]["haystack_sessions"][1][0]["role"] = "User".into();
    });
    refused(
        &["longmemeval", "--data", &file],
        "$[1].haystack_sessions[1][0].role: \"User\"; expected user or assistant",
    );
    let file = longmemeval(dir.path(), "said.json", |d| {
        d[1]["answer_session_ids"]
            .as_array_mut()
            .unwrap()
            .push("answer_q2_typo".into());
        d[0]["question"] = " ".into();
    });
    let (code, stderr) = validate(&["longmemeval", "--data", &file]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("\"answer_q2_typo\" answer session not in the haystack: not gold"),
        "{stderr}"
    );
    let q0 = json(Path::new(&file))[0]["question_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        stderr.contains(&format!("{q0}: a blank question: nothing to retrieve with")),
        "{stderr}"
    );
}

/// LoCoMo's conversations: a session under a key the release never writes was skipped with
/// its turns, and a dialog id of another shape loaded (the evidence naming the turn then "named
/// no turn"); the audit's `.JSON` file was left out of the corrections.
#[test]
fn locomos_keys_and_dialog_ids_are_the_releases() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let edited = |name: &str, edit: &dyn Fn(&mut Value)| {
        let mut d = json(&locomo_file());
        edit(&mut d);
        let path = dir.path().join(name);
        write(&path, &d);
        path.to_str().unwrap().to_string()
    };
    let file = edited("key.json", &|d| {
        let c = d[0]["conversation"].as_object_mut().unwrap();
        let turns = c.shift_remove("session_2").unwrap();
        c.insert("Session_2".into(), turns);
    });
    refused(
        &["locomo", "--data", &file],
        "$[0].conversation.Session_2: expected speaker_a, speaker_b, session_N",
    );
    let file = edited("dia.json", &|d| {
        d[0]["conversation"]["session_1"][2]["dia_id"] = "D1:3 ".into();
    });
    refused(
        &["locomo", "--data", &file],
        "$[0].conversation.session_1[2].dia_id: \"D1:3 \"; expected D1:N",
    );
    if !needs(&[Need::LocomoAudit]) {
        return;
    }
    let audit = dir.path().join("audit");
    std::fs::create_dir(&audit).unwrap();
    for entry in std::fs::read_dir(data_file("locomo-audit")).unwrap() {
        let path = entry.unwrap().path();
        let name = path
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .replace("conv_1.json", "conv_1.JSON");
        std::fs::copy(&path, audit.join(name)).unwrap();
    }
    let (code, stderr) = validate(&[
        "locomo",
        "--data",
        locomo_file().to_str().unwrap(),
        "--corrections",
        audit.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("57 questions' evidence replaced"),
        "{stderr}"
    );
}

/// The Temporal Memory Dataset: a test file's key other than file_N and a log file other than
/// N.json were skipped with their questions; two content-time files gave every case id twice,
/// and `verify` refused the report a run wrote on them.
#[test]
fn temporal_memory_keys_files_and_case_ids() {
    if !needs(&[Need::TemporalMemory]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let copy = |name: &str, extra: &[(&str, &str)]| {
        let root = dir.path().join(name);
        let logs = root.join("ConversationData");
        std::fs::create_dir_all(&logs).unwrap();
        for log in std::fs::read_dir(data_file("zyphra-temporal/ConversationData")).unwrap() {
            let log = log.unwrap().path();
            std::fs::copy(&log, logs.join(log.file_name().unwrap())).unwrap();
        }
        let tests = root.join("TestData/content_time_qs");
        std::fs::create_dir_all(&tests).unwrap();
        let content = data_file("zyphra-temporal/TestData/content_time_qs/content_time_qs.json");
        std::fs::copy(&content, tests.join("content_time_qs.json")).unwrap();
        for (from, to) in extra {
            std::fs::copy(root.join(from), root.join(to)).unwrap();
        }
        root.to_str().unwrap().to_string()
    };
    let ok = copy("ok", &[]);
    let (code, stderr) = validate(&["temporal-memory", "--data", &ok]);
    assert_eq!(code, Some(0), "{stderr}");
    let twice = copy(
        "twice",
        &[(
            "TestData/content_time_qs/content_time_qs.json",
            "TestData/content_time_qs/part2.json",
        )],
    );
    refused(&["temporal-memory", "--data", &twice], "twice (from");
    let log = copy(
        "log",
        &[("ConversationData/26.json", "ConversationData/26b.json")],
    );
    refused(
        &["temporal-memory", "--data", &log],
        "26b.json: file name: expected the conversation logs only",
    );
    let key = copy("key", &[]);
    let file = Path::new(&key).join("TestData/content_time_qs/content_time_qs.json");
    let mut questions = json(&file);
    let list = questions
        .as_object_mut()
        .unwrap()
        .shift_remove("file_26")
        .unwrap();
    questions["File_26"] = list;
    write(&file, &questions);
    refused(
        &["temporal-memory", "--data", &key],
        "$.File_26: expected file_N keys",
    );
}

/// LoCoMo-Plus: a gap past any date wrapped around and dated the cue 843,000 years after the
/// trigger, where it ranked first for `recent`.
#[test]
fn a_locomo_plus_gap_past_any_date_is_refused() {
    if !needs(&[Need::LocomoPlus, Need::Locomo]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut items = json(&data_file("locomo-plus/locomo_plus.json"));
    items[0]["time_gap"] = "99999999999999 years later".into();
    let path = dir.path().join("plus.json");
    write(&path, &items);
    refused(
        &[
            "locomo-plus",
            "--data",
            path.to_str().unwrap(),
            "--locomo",
            locomo_file().to_str().unwrap(),
        ],
        "$[0].time_gap: \"99999999999999 years later\"",
    );
}

/// BEAM: a folder beside the numbered chats (`21b/`) was left unread, and the run still
/// presented as the release's.
#[test]
fn a_folder_that_is_no_beam_chat_is_refused() {
    if !needs(&[Need::Beam]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for chat in ["1", "21b"] {
        let chat = dir.path().join("100K").join(chat);
        std::fs::create_dir_all(&chat).unwrap();
        std::fs::copy(data_file("beam/100K/1/chat.json"), chat.join("chat.json")).unwrap();
    }
    refused(
        &["beam", "--data", dir.path().to_str().unwrap()],
        "\"21b\" in a tier's folder; expected its numbered chats only",
    );
}
