//! The Temporal Memory Dataset (Alonso et al., 2024, "Toward Conversational Agents with
//! Context and Time Sensitive Long-term Memory") as a suite: `--suite temporal-memory --data
//! DIR`, DIR its repository's folder (`ConversationData/N.json`, `TestData/*_qs/*.json`),
//! questions about when: "what did we discuss 167 days ago", "our Tuesday conversation".
//!
//! The mapping (docs/temporal-memory.md says why):
//! - each conversation log is one user, `log-26` (its file number);
//! - each response is one item, `log-26/r17` (its `response_number`, which runs over the whole
//!   log), its text `Speaker said, "text"` (and ` and shared CAPTION`) as LoCoMo's turns, its
//!   time its own `date_time` (`01:56:04 AM on Monday 08 May, 2023`; the weekday must agree
//!   with the date). The date is the item's time, not part of its text: a question about a
//!   date is answered from the time, or not at all;
//! - each paraphrase of a question is one case, `log-26/time/rel_day/4/2` (test type, test file
//!   without `test_`, the question's place in the file's list for the log, the paraphrase's
//!   place), its category the test type (`time`, `ambiguous-time`, `time-content`), its gold
//!   the responses of `relevant_docs`. An ambiguous question is a short exchange: its lines'
//!   texts, joined by newlines, are the query. A paraphrase that repeats an earlier one of the
//!   same question word for word is not a case of its own (an anomaly);
//! - time questions name whole sessions (20 and more responses), so the context holds at least
//!   50 results and as many as the gold, and a case passes when all its gold is within the
//!   first max(10, gold) results (R-precision 1).

mod released;

use super::benchmark::{check_user, item, Asked};
use super::{Anomaly, Excluded, InputFile, Suite};
use crate::error::{Error, Result};
use crate::io::{parse_json_tree, parse_value, read_bytes, sha256_hex};
use crate::profile::Profile;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// The rank measures a run reports unless `--metrics` says otherwise (AP, as time questions
/// have many relevant responses).
pub(crate) const MEASURES: &str = "R@10,R@50,nDCG@10,RR,AP";

/// The test types: folder under `TestData/` and category.
const TESTS: [(&str, &str); 3] = [
    ("time_qs", "time"),
    ("ambiguous_time_qs", "ambiguous-time"),
    ("content_time_qs", "time-content"),
];

/// Where a Temporal Memory Dataset suite comes from.
#[derive(Debug, Clone)]
pub struct TemporalMemorySource {
    /// The repository's folder.
    pub data: PathBuf,
}

impl super::Source for TemporalMemorySource {
    fn load(&self) -> Result<Suite> {
        load(&self.data)
    }
}

/// One response as a log has it.
#[derive(Debug, Deserialize)]
struct Response {
    speaker: String,
    text: String,
    date_time: String,
    response_number: String,
    #[serde(default)]
    blip_caption: Option<String>,
}

/// One question: its paraphrases (strings, or short exchanges) and the responses it is about.
#[derive(Debug, Deserialize)]
struct Question {
    questions: Vec<Paraphrase>,
    relevant_docs: Vec<u64>,
}

/// A paraphrase as written.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Paraphrase {
    Text(String),
    Exchange(Vec<Line>),
}

/// A line of an ambiguous question's exchange.
#[derive(Debug, Deserialize)]
struct Line {
    text: String,
}

impl Paraphrase {
    fn query(&self) -> String {
        match self {
            Paraphrase::Text(t) => t.clone(),
            Paraphrase::Exchange(lines) => {
                let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
                texts.join("\n")
            }
        }
    }
}

/// A response's time as the logs write it, as Unix milliseconds (UTC).
pub(crate) fn parse_time(text: &str) -> Option<i64> {
    let at = chrono::NaiveDateTime::parse_from_str(text.trim(), "%I:%M:%S %p on %A %d %B, %Y");
    Some(at.ok()?.and_utc().timestamp_millis())
}

/// The `.json` files of `dir` in name order.
fn json_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Error::input(
            dir,
            "folder",
            format!(
                "{e}; expected the Temporal Memory Dataset's folder (ConversationData/, TestData/)"
            ),
        )
    })?;
    let mut files: Vec<PathBuf> = (entries.flatten())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

/// Load the dataset in `data` as a suite.
pub(crate) fn load(data: &Path) -> Result<Suite> {
    let mut inputs = Vec::new();
    let mut read = |path: &Path, role: &'static str| -> Result<Vec<u8>> {
        let bytes = read_bytes(path)?;
        let relative = path.strip_prefix(data).unwrap_or(path);
        inputs.push(InputFile {
            role,
            path: relative.display().to_string(),
            sha256: sha256_hex(&bytes),
            read_from: Some(path.to_path_buf()),
        });
        Ok(bytes)
    };
    let mut corpus = Vec::new();
    let mut logs: BTreeMap<u64, HashSet<u64>> = BTreeMap::new();
    let mut files = json_files(&data.join("ConversationData"))?;
    files.sort_by_key(|p| log_number(p).unwrap_or(u64::MAX));
    let mut seen = HashSet::new();
    for path in files {
        // A `.json` that is no log N.json was left unread in silence (a seventeenth audit).
        let Some(number) = log_number(&path) else {
            return Err(Error::input(
                &path,
                "file name",
                "expected the conversation logs only, each N.json (N a whole number)",
            ));
        };
        let user = format!("log-{number}");
        check_user(&path, "file name", &user, &mut seen)?;
        let Value::Object(log) = parse_json_tree(&path, &read(&path, "log")?)? else {
            return Err(Error::input(
                &path,
                "$",
                "expected a log: an object of sessions",
            ));
        };
        let mut sessions: Vec<(u64, &Value)> = Vec::new();
        for (key, value) in &log {
            let found = super::benchmark::session_key(&path, &format!("$.{key}"), key)?;
            if let Some(n) = found {
                sessions.push((u64::from(n), value));
            }
        }
        sessions.sort_by_key(|(n, _)| *n);
        let responses = logs.entry(number).or_default();
        for (n, value) in sessions {
            let at = format!("$.session_{n}");
            let list: Vec<Response> = parse_value(&path, &at, value.clone())?;
            for (k, r) in list.iter().enumerate() {
                let place = |field: &str| format!("{at}[{k}].{field}");
                let id: u64 = r.response_number.trim().parse().map_err(|_| {
                    Error::input(&path, place("response_number"), "expected a number")
                })?;
                if !responses.insert(id) {
                    return Err(Error::input(
                        &path,
                        place("response_number"),
                        format!("response {id} twice; expected unique numbers"),
                    ));
                }
                let time = parse_time(&r.date_time).ok_or_else(|| {
                    Error::input(
                        &path,
                        place("date_time"),
                        format!(
                            "{:?}: expected a time as the logs write them (01:56:04 AM on Monday \
                             08 May, 2023), its weekday the date's",
                            r.date_time
                        ),
                    )
                })?;
                let mut text = format!("{} said, \"{}\"", r.speaker, r.text);
                if let Some(caption) = &r.blip_caption {
                    text.push_str(&format!(" and shared {caption}"));
                }
                corpus.push(item(format!("{user}/r{id}"), &user, text, time));
            }
        }
    }
    if logs.is_empty() {
        return Err(Error::input(
            &data.join("ConversationData"),
            "folder",
            "no conversation logs (N.json); expected the Temporal Memory Dataset's",
        ));
    }
    let (mut cases, mut anomalies, mut excluded) = (Vec::new(), Vec::new(), Vec::new());
    let mut warnings = Vec::new();
    for (folder, category) in TESTS {
        let tests = data.join("TestData").join(folder);
        if !tests.is_dir() {
            warnings.push(format!(
                "{}: absent; its {category} questions are not run",
                tests.display()
            ));
            continue;
        }
        for path in json_files(&tests)? {
            let stem = path
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let kind = stem.strip_prefix("test_").unwrap_or(&stem).to_string();
            let Value::Object(file) = parse_json_tree(&path, &read(&path, "questions")?)? else {
                return Err(Error::input(
                    &path,
                    "$",
                    "expected an object of file_N question lists",
                ));
            };
            for (key, list) in &file {
                // The release's index of the logs a file asks about.
                if key == "file_indexes" {
                    continue;
                }
                // A key other than file_N was skipped with its questions (a seventeenth audit).
                let Some(number) = key.strip_prefix("file_").and_then(|n| n.parse().ok()) else {
                    return Err(Error::input(
                        &path,
                        format!("$.{key}"),
                        "expected file_N keys (N the number of a log in ConversationData/) and \
                         file_indexes",
                    ));
                };
                let Some(responses) = logs.get(&number) else {
                    return Err(Error::input(
                        &path,
                        format!("$.{key}"),
                        format!("log {number} is not in ConversationData/"),
                    ));
                };
                let questions: Vec<Question> =
                    parse_value(&path, &format!("$.{key}"), list.clone())?;
                let user = format!("log-{number}");
                let prefix = match category {
                    "time-content" => format!("{user}/{category}"),
                    _ => format!("{user}/{category}/{kind}"),
                };
                for (q, question) in questions.iter().enumerate() {
                    let mut gold = Vec::new();
                    for id in &question.relevant_docs {
                        if responses.contains(id) {
                            gold.push(format!("{user}/r{id}"));
                        } else {
                            anomalies.push(Anomaly {
                                case: format!("{prefix}/{q}"),
                                raw: id.to_string(),
                                outcome: "dropped: names no response of the log".into(),
                            });
                        }
                    }
                    let mut asked: Vec<String> = Vec::new();
                    for (p, paraphrase) in question.questions.iter().enumerate() {
                        let case_id = format!("{prefix}/{q}/{p}");
                        let query = paraphrase.query();
                        if let Some(first) = asked.iter().position(|a| *a == query) {
                            anomalies.push(Anomaly {
                                case: case_id,
                                raw: query,
                                outcome: format!("repeats paraphrase {first} word for word: not a case of its own"),
                            });
                            continue;
                        }
                        asked.push(query.clone());
                        if gold.is_empty() {
                            excluded.push(Excluded {
                                case: case_id,
                                reason: "no relevant_docs names a response of the log".into(),
                            });
                            continue;
                        }
                        cases.push(
                            Asked {
                                case_id,
                                user: &user,
                                category,
                                query: &query,
                                gold: gold.clone(),
                                depth: gold.len().max(50),
                                pass_depth: gold.len().max(10),
                            }
                            .case(),
                        );
                    }
                }
            }
        }
    }
    if cases.is_empty() {
        return Err(Error::input(
            &data.join("TestData"),
            "folder",
            "no question with relevant responses; expected time_qs/, ambiguous_time_qs/, content_time_qs/",
        ));
    }
    let unreleased = released::unreleased(&inputs);
    let absent = released::absent(&inputs);
    if let Some(first) = absent.first() {
        warnings.push(format!(
            "{} of the dataset's released files are absent, first {first}: a part of the \
             release runs, and reports say so",
            absent.len()
        ));
    }
    if !unreleased.is_empty() {
        warnings.push(format!(
            "{} of the {} files read are not the dataset's released files (Zyphra/\
             TemporalMemoryDataset 2471511), first {}; it runs, and reports say so",
            unreleased.len(),
            inputs.len(),
            unreleased[0]
        ));
    }
    Ok(Suite {
        name: "temporal-memory".into(),
        unit: None,
        view: None,
        profile: Profile::Head,
        corpus,
        cases,
        sessions: Vec::new(),
        inputs,
        warnings,
        copy: None,
        anomalies,
        excluded,
        released: Some(unreleased.is_empty() && absent.is_empty()),
        default_measures: Some(MEASURES),
        corrections: None,
        selection: None,
    })
}

/// `26` of `ConversationData/26.json`.
fn log_number(path: &Path) -> Option<u64> {
    path.file_stem()?.to_str()?.parse().ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn response_times_are_read_as_the_logs_write_them() {
        // 2023-05-08T01:56:04Z, a Monday.
        assert_eq!(
            super::parse_time("01:56:04 AM on Monday 08 May, 2023"),
            Some(1_683_510_964_000)
        );
        assert_eq!(
            super::parse_time("01:56:04 AM on Tuesday 08 May, 2023"),
            None
        );
        assert_eq!(
            super::parse_time("01:56:04 AM on Friday 31 February, 2023"),
            None
        );
    }
}
