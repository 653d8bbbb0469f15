//! Any test collection as a suite: TREC-style files (`--suite trec --corpus DOCS.jsonl --topics
//! FILE --qrels FILE`) or a BEIR folder (`--suite beir --data DIR [--split test]`: its
//! `corpus.jsonl`, `queries.jsonl` and `qrels/SPLIT.tsv`), the formats ir_datasets, BEIR and
//! MTEB users have (docs/qrels.md).
//!
//! The mapping:
//! - every document is one item of one user ([`USER`]), seeded as a memory system's memories:
//!   its text is the title and the text joined by a blank (BEIR's convention);
//! - every topic with at least one judged relevant document (grade ≥ 1) is a case; its gold is
//!   those documents, with their grades kept for nDCG (gain = grade, as trec_eval and
//!   ir_measures compute it), and grade 0 judged not relevant. A topic without one is excluded
//!   with its reason, as trec_eval leaves out queries without relevant documents;
//! - a judged document the corpus lacks stays in the gold (it counts in R, as for trec_eval),
//!   and is said once as an anomaly;
//! - a case's context holds [`DEPTH`] results, and it passes when its gold is in the first 10.

mod file;

use super::benchmark::{item, Asked};
use super::{Anomaly, Excluded, InputFile, Suite};
use crate::error::{Error, Result};
use crate::io::{read_bytes, sha256_hex};
use crate::profile::Profile;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// The one user every document belongs to.
pub(crate) const USER: &str = "collection";

/// Results a case's context holds: enough for R@100 and AP@100.
pub(crate) const DEPTH: usize = 100;

/// A case passes when all its gold is within this many results.
const PASS_DEPTH: usize = 10;

/// The rank measures a collection's run reports unless `--metrics` says otherwise (BEIR and
/// MTEB rank by nDCG@10).
pub(crate) const MEASURES: &str = "nDCG@10,R@10,R@100,RR,AP";

/// Where a collection comes from.
#[derive(Debug, Clone)]
pub enum CollectionSource {
    /// TREC-style files.
    Trec {
        /// Documents, JSON lines.
        corpus: PathBuf,
        /// Topics, JSON lines or TSV.
        topics: PathBuf,
        /// Qrels, TREC or BEIR columns.
        qrels: PathBuf,
    },
    /// A BEIR folder and the split of its qrels.
    Beir {
        /// The folder.
        dir: PathBuf,
        /// `test`, `dev` or `train`.
        split: String,
    },
}

impl super::Source for CollectionSource {
    fn load(&self) -> Result<Suite> {
        match self {
            CollectionSource::Trec {
                corpus,
                topics,
                qrels,
            } => load("trec", corpus, topics, qrels),
            CollectionSource::Beir { dir, split } => {
                if !dir.is_dir() {
                    return Err(Error::input(dir, "folder", "expected a BEIR folder"));
                }
                let qrels = dir.join("qrels").join(format!("{split}.tsv"));
                if !qrels.exists() {
                    return Err(missing_split(&qrels, split));
                }
                load(
                    "beir",
                    &dir.join("corpus.jsonl"),
                    &dir.join("queries.jsonl"),
                    &qrels,
                )
            }
        }
    }
}

/// A BEIR split with no qrels file: which splits the folder has, and the flag that picks one.
fn missing_split(qrels: &Path, split: &str) -> Error {
    let mut splits: Vec<String> = std::fs::read_dir(qrels.parent().unwrap_or(qrels))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".tsv").map(String::from)
        })
        .collect();
    splits.sort();
    let advice = match splits.first() {
        Some(first) => format!(
            "this folder's qrels are for {}: choose one with --split {first}",
            splits.join(", ")
        ),
        None => "this folder has no qrels/*.tsv".to_string(),
    };
    Error::input(
        qrels,
        "file",
        format!("no qrels TSV for the split {split:?}; {advice}"),
    )
}

/// The suite `name` of the three files.
fn load(name: &str, corpus: &Path, topics: &Path, qrels: &Path) -> Result<Suite> {
    let docs = file::docs(corpus)?;
    let topics_read = file::topics(topics)?;
    let judged = file::qrels(qrels)?;
    let mut items = Vec::with_capacity(docs.len());
    let mut ids = HashSet::new();
    for (n, d) in docs.iter().enumerate() {
        if !ids.insert(d.id.as_str()) {
            return Err(Error::input(
                corpus,
                format!("line {}", n + 1),
                format!("document {:?} again: expected unique ids", d.id),
            ));
        }
        let text = match d.title.trim() {
            "" => d.text.clone(),
            title => format!("{title} {}", d.text),
        };
        items.push(item(d.id.clone(), USER, text, 0));
    }
    // Judgments per query, in qrels order; a later line for the same pair wins, as trec_eval.
    let mut by_query: BTreeMap<&str, Vec<(String, u32)>> = BTreeMap::new();
    let mut anomalies = Vec::new();
    for j in &judged {
        let list = by_query.entry(j.query.as_str()).or_default();
        list.retain(|(d, _)| *d != j.doc);
        list.push((j.doc.clone(), j.grade));
        if j.grade > 0 && !ids.contains(j.doc.as_str()) {
            anomalies.push(Anomaly {
                case: j.query.clone(),
                raw: j.doc.clone(),
                outcome: "judged relevant but not in the corpus: kept in the gold (counts in R, \
                          as trec_eval counts it)"
                    .into(),
            });
        }
    }
    let mut cases = Vec::new();
    let mut excluded = Vec::new();
    let mut seen = HashSet::new();
    for (n, t) in topics_read.iter().enumerate() {
        if !seen.insert(t.id.as_str()) {
            return Err(Error::input(
                topics,
                format!("line {}", n + 1),
                format!("topic {:?} again: expected unique ids", t.id),
            ));
        }
        // A blank query retrieves nothing and was scored a failure of the system.
        if t.text.trim().is_empty() {
            return Err(Error::input(
                topics,
                format!("line {}", n + 1),
                format!("topic {:?} has no text; expected its query", t.id),
            ));
        }
        let judgments = by_query.get(t.id.as_str()).cloned().unwrap_or_default();
        let grades: Vec<(String, u32)> =
            judgments.iter().filter(|(_, g)| *g > 0).cloned().collect();
        if grades.is_empty() {
            excluded.push(Excluded {
                case: t.id.clone(),
                reason: "no judged relevant document".into(),
            });
            continue;
        }
        let mut case = Asked {
            case_id: t.id.clone(),
            user: USER,
            category: name,
            query: &t.text,
            gold: grades.iter().map(|(d, _)| d.clone()).collect(),
            depth: DEPTH,
            pass_depth: PASS_DEPTH,
        }
        .case();
        // Every judgment, grade 0 included: the qrels a rank measure reads (a judged
        // non-relevant document retrieved is no assertion's failure).
        case.grades = judgments;
        cases.push(case);
    }
    // Judgments of a topic the topics file lacks were read by none, in silence (a
    // seventeenth audit): said, once per topic, as a judged document the corpus lacks is.
    for (query, list) in &by_query {
        if !seen.contains(query) {
            anomalies.push(Anomaly {
                case: query.to_string(),
                raw: format!("{} judgment(s)", list.len()),
                outcome: "judged in the qrels but no topic of the topics file: not read".into(),
            });
        }
    }
    if cases.is_empty() {
        return Err(Error::input(
            qrels,
            "file",
            "no topic has a judged relevant document; expected qrels of these topics",
        ));
    }
    let input = |role: &'static str, path: &Path| -> Result<InputFile> {
        Ok(InputFile {
            role,
            path: path.display().to_string(),
            sha256: sha256_hex(&read_bytes(path)?),
            read_from: None,
        })
    };
    Ok(Suite {
        name: name.to_string(),
        unit: None,
        view: None,
        profile: Profile::Head,
        corpus: items,
        cases,
        sessions: Vec::new(),
        inputs: vec![
            input("corpus", corpus)?,
            input("topics", topics)?,
            input("qrels", qrels)?,
        ],
        warnings: Vec::new(),
        copy: None,
        anomalies,
        excluded,
        released: None,
        default_measures: Some(MEASURES),
        corrections: None,
        selection: None,
    })
}
