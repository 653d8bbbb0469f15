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

use super::benchmark::{check_user, item, Asked};
use super::{Anomaly, Excluded, InputFile, Suite};
use crate::error::{Error, Result};
use crate::io::{parse_json, parse_value, read_bytes, sha256_hex};
use crate::profile::Profile;
use serde::Deserialize;
use serde_json::{Map, Value};
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
        let Some(number) = log_number(&path) else {
            continue;
        };
        let user = format!("log-{number}");
        check_user(&path, "file name", &user, &mut seen)?;
        let log: Map<String, Value> = parse_json(&path, &read(&path, "log")?)?;
        let mut sessions: Vec<(u64, &Value)> = (log.iter())
            .filter_map(|(k, v)| Some((k.strip_prefix("session_")?.parse().ok()?, v)))
            .collect();
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
            let file: Map<String, Value> = parse_json(&path, &read(&path, "questions")?)?;
            for (key, list) in &file {
                let Some(number) = key.strip_prefix("file_").and_then(|n| n.parse().ok()) else {
                    continue;
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
    let unreleased = unreleased(&inputs);
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
        released: Some(unreleased.is_empty()),
        default_measures: Some(MEASURES),
        corrections: None,
        selection: None,
    })
}

/// `26` of `ConversationData/26.json`.
fn log_number(path: &Path) -> Option<u64> {
    path.file_stem()?.to_str()?.parse().ok()
}

/// The sha256 of the released files (Zyphra/TemporalMemoryDataset 24715112), by path: hashes
/// only, the files are the user's to download.
const RELEASED: &str = "\
ff1d447914444c59231c0c3d384e38ab41b08d3170a6b4a7656da2bbf6124cb3  ConversationData/26.json\n\
1305f67ae0da9aef151c57c3ec5265b11c1b6582757a10ebeab07dedec0e6063  ConversationData/28.json\n\
b810c898815e6df491479ea056dca894bd1dbd590a1fbccd6d8bb44d0bacc9f6  ConversationData/31.json\n\
57ea4a7f0621b05cab2773719c09e9416891911c14838320f90f21309caad7d8  ConversationData/41.json\n\
bfa9dd693c0fccebfe3da8a293f2e7edf83176811728709e1ae1d1898709041c  ConversationData/42.json\n\
7c1c90d35cc290b924693a03ef27f35c8fa8a976bcd6c826b61e8de831da56b8  ConversationData/43.json\n\
bf9aa90c78c112a8ee20dc808297f790dd215e0656d7980cda0ad75c479ad9c2  ConversationData/44.json\n\
a7bbefb14a7b8d8f24b7b9581acbc0e572c45f3ea850453ee3408bb49705e2e0  ConversationData/45.json\n\
05811d49b39df7d738565029dc1c38157ee8207336d2b34e0c1b186316c344d1  ConversationData/46.json\n\
99954684c3d73d84505158ffbdda07af4301526210ef09695d9f38541c5d5c17  ConversationData/47.json\n\
4a58d53778a34a89e835d6acbfc313856ade2856f0b989c3ce3eab3727d7ffe0  ConversationData/48.json\n\
3da7b2aa7434b9354d745bd3d4b3f2a9b6c63acb746f2255913433c7570fcae6  ConversationData/49.json\n\
f40b7c65664a820ebf567f095a9e08d5163a2077d17f3538350cfae2d6c21ee3  TestData/ambiguous_time_qs/test_date_span.json\n\
d58b5a3d61404d8ee2c180c39f8ec9f04afb8b42a5a918dc19b84c33dea0fd2a  TestData/ambiguous_time_qs/test_dates.json\n\
b9cc5b0d9633c1e1338c966d7aec8d8a9ce36567447167ffd038145265044962  TestData/ambiguous_time_qs/test_day_span.json\n\
a94d89e0ca4898190962bd6ab0cf306922b7b35d68403af68e86cf2a8a83523a  TestData/ambiguous_time_qs/test_earlier_today.json\n\
65bc84e2ac3d115eff099ff8e656936ca7abedd7198e32257c1b909efc6febdf  TestData/ambiguous_time_qs/test_last_named_day.json\n\
62aa3dffc7456ad83c6a02d78faed181da8aee3d1ebfb60f6b57af859fb8d8fa  TestData/ambiguous_time_qs/test_month.json\n\
978bc86c4ad2f6e5283ca6430431d39ecc5982264d4a08df22f9517f67081ea0  TestData/ambiguous_time_qs/test_rel_day.json\n\
c080f505976839f478c9f574025c08cbdcb23f773f54e22b2725200d929d2e19  TestData/ambiguous_time_qs/test_rel_month.json\n\
3bd35d4954a8907563be9c348bab42afc0e5876c2f42a674f2549cc2d6c9db88  TestData/ambiguous_time_qs/test_rel_session.json\n\
9b61538c28aae88869efad3470a07f0c6b0cd8e2ad0c44328777cd402d36c91d  TestData/ambiguous_time_qs/test_session.json\n\
891ce846fa61a0bb683ec4ac3537e5c411a620c3d7da77fa0fd2220713db5561  TestData/ambiguous_time_qs/test_session_span.json\n\
e9a848515c93132c2b59aaa96a8dbb89a706c2336fa1aceca8d6ab95ef51ca99  TestData/content_time_qs/content_time_qs.json\n\
d169233c8b10592a2cf7dc317369c0df8961d6813c7ea8dc28164229eb0bce6a  TestData/time_qs/test_date_span.json\n\
1338690b47b6020896ee1fe33d9c90d7caa4dc077f41535c521f34144950f41e  TestData/time_qs/test_dates.json\n\
78a9162bc0f6ab703c8bdebd779da9bb37fac1eb50cae07535b176665032570b  TestData/time_qs/test_day_span.json\n\
caf67340e86abbf9a9dd7143c9313e0401d9c5a5545a693f2f46ee04b3bce9de  TestData/time_qs/test_earlier_today.json\n\
37acb0684ddd9fce498c66b4a7070aa7f520fc63ee6923cd8d1c86d54a076c5b  TestData/time_qs/test_last_named_day.json\n\
4d3c3d39505967b9926fd0a302458ced49b8d8e312c5c4ca4256eb8c75353752  TestData/time_qs/test_month.json\n\
c9490c6549f439108fe1b4e244b455d0fa0dab57835e4e62c6c136bc8b89a360  TestData/time_qs/test_rel_day.json\n\
a2670f348367610d4f6714c2cfdb634c4d8351ec372b6ebf723a183006821d09  TestData/time_qs/test_rel_month.json\n\
181c425561a78c8eb3a71dd248944c63b3018019bc6bfb51db3336b3cbb35cf3  TestData/time_qs/test_rel_session.json\n\
4dc841907498dc4291539714616993c8eee09577e58ffc429c84762ab65b890f  TestData/time_qs/test_session.json\n\
44a9b40137752ca98a83682653503f300308306a45bddbb020f3039143f129c7  TestData/time_qs/test_session_span.json\n\
";

/// The paths of `inputs` that are not the released file of that path.
fn unreleased(inputs: &[InputFile]) -> Vec<String> {
    (inputs.iter())
        .filter(|i| {
            !RELEASED.lines().any(|l| {
                l.split_once("  ")
                    .is_some_and(|(sha, path)| sha == i.sha256 && path == i.path)
            })
        })
        .map(|i| i.path.clone())
        .collect()
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
