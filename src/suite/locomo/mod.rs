//! LoCoMo (Maharana et al., ACL 2024) as a suite: `--suite locomo --data locomo10.json`.
//!
//! The mapping (docs/locomo.md says why):
//! - each conversation is one user's memory: user id = its `sample_id` (`conv-26`), so a
//!   question about conv-26 only ever searches conv-26's items (the user filter);
//! - each dialog turn is one item, id `conv-26/D1:3`; its text is what LoCoMo's own dialog
//!   retriever embeds (task_eval/gpt_utils.py, `rag_mode == 'dialog'`): `Speaker said, "text"`,
//!   and ` and shared CAPTION` when the turn shares an image; its time is its session's date.
//!   With `--unit sessions` each session is one item, `conv-26/S1`, its turns' texts joined;
//! - the text is the item's canonical name and it has no aliases: alias-BM25 searches it with
//!   its name clauses (fuzzy terms and exact bigrams), the alias clauses never match;
//! - each question is one case, `conv-26/q0` (its 0-based place in the sample's `qa`), its
//!   category by LoCoMo's name (`category_name`), its gold the turns (or sessions) its
//!   evidence resolves to (`evidence`). A question with no evidence, or none that resolves,
//!   is excluded and counted with its reason (the manifest's `excluded`).
//! - a case passes when every gold item is in the first `PASS_DEPTH` results; the context
//!   holds the first `DEPTH`, for R@50.

mod evidence;
mod file;

pub use evidence::dialog_numbers;

use super::benchmark::{check_user, item, Asked};
use super::{Excluded, InputFile, Suite};
use crate::error::{Error, Result};
use crate::io::{read_bytes, sha256_hex};
use crate::profile::Profile;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The released `locomo10.json` (snap-research/LoCoMo 3eb6f2c, `data/locomo10.json`). Another
/// file runs, flagged in a warning and the manifest.
pub(crate) const RELEASED_SHA256: &str =
    "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4";

/// Results a case's context holds: enough for R@50.
pub(crate) const DEPTH: usize = 50;

/// A case passes when all its gold is within this many results (R@10 = 1).
pub(crate) const PASS_DEPTH: usize = 10;

/// The rank measures a LoCoMo run reports unless `--metrics` says otherwise.
pub const MEASURES: &str = "R@1,R@5,R@10,R@25,R@50,nDCG@10,RR";

pub use super::Unit;

/// LoCoMo's category names by number. The repository names three in its code: 1 multi-hop
/// (task_eval/evaluation.py, "multi-hop eval" for category 1), 2 temporal and 5 adversarial
/// (task_eval/hf_llm_utils.py, "Temporal (2) and Adversarial (5)"). It does not name 3 and 4;
/// they are open-domain (3: answers that need knowledge beyond the conversation, as "What
/// fields would Caroline be likely to pursue") and single-hop (4), as the evaluations of
/// memory systems that report LoCoMo by category name them. docs/locomo.md.
pub(crate) fn category_name(category: u8) -> Option<&'static str> {
    Some(match category {
        1 => "multi-hop",
        2 => "temporal",
        3 => "open-domain",
        4 => "single-hop",
        5 => "adversarial",
        _ => return None,
    })
}

/// Load `data` as a suite of `unit` items.
pub fn load(data: &Path, unit: Unit) -> Result<Suite> {
    let bytes = read_bytes(data)?;
    let sha256 = sha256_hex(&bytes);
    let samples = file::samples(data, &bytes)?;
    let mut corpus = Vec::new();
    let mut cases = Vec::new();
    let mut anomalies = Vec::new();
    let mut excluded = Vec::new();
    let mut seen_samples = HashSet::new();
    for (i, sample) in samples.iter().enumerate() {
        let user = &sample.sample_id;
        check_user(data, &format!("$[{i}].sample_id"), user, &mut seen_samples)?;
        let sessions = file::sessions(data, i, sample)?;
        let mut turns = HashSet::new();
        for session in &sessions {
            let time = file::parse_date(&session.date_time).ok_or_else(|| {
                Error::input(
                    data,
                    format!("$[{i}].conversation.session_{}_date_time", session.number),
                    format!(
                        "{:?}: expected a date as LoCoMo writes them (1:56 pm on 8 May, 2023)",
                        session.date_time
                    ),
                )
            })?;
            let mut joined = Vec::new();
            for turn in &session.turns {
                if !turns.insert(turn.dia_id.clone()) {
                    return Err(Error::input(
                        data,
                        format!("$[{i}].conversation.session_{}", session.number),
                        format!("dialog id {} twice; expected unique ids", turn.dia_id),
                    ));
                }
                let mut text = format!("{} said, \"{}\"", turn.speaker, turn.text);
                if let Some(caption) = &turn.blip_caption {
                    text.push_str(&format!(" and shared {caption}"));
                }
                if unit == Unit::Turns {
                    corpus.push(item(format!("{user}/{}", turn.dia_id), user, text, time));
                } else {
                    joined.push(text);
                }
            }
            if unit == Unit::Sessions {
                let id = format!("{user}/S{}", session.number);
                corpus.push(item(id, user, joined.join("\n"), time));
            }
        }
        for (q, question) in sample.qa.iter().enumerate() {
            let case_id = format!("{user}/q{q}");
            let category = category_name(question.category).ok_or_else(|| {
                Error::input(
                    data,
                    format!("$[{i}].qa[{q}].category"),
                    format!("{}: expected a category from 1 to 5", question.category),
                )
            })?;
            let resolved = evidence::resolve(&case_id, &question.evidence, &turns, &mut anomalies);
            let reason = if question.evidence.is_empty() {
                Some("no evidence")
            } else if resolved.ids.is_empty() {
                Some("no evidence names a turn of the conversation")
            } else {
                None
            };
            if let Some(reason) = reason {
                excluded.push(Excluded {
                    case: case_id,
                    reason: reason.to_string(),
                });
                continue;
            }
            let mut gold: Vec<String> = Vec::new();
            for id in resolved.ids {
                let gold_id = match unit {
                    Unit::Turns => format!("{user}/{id}"),
                    Unit::Sessions => {
                        let (session, _) = dialog_numbers(&id).expect("resolved ids parse");
                        format!("{user}/S{session}")
                    }
                };
                if !gold.contains(&gold_id) {
                    gold.push(gold_id);
                }
            }
            let question = Asked {
                case_id,
                user,
                category,
                query: &question.question,
                gold,
                depth: DEPTH,
                pass_depth: PASS_DEPTH,
            };
            cases.push(question.case());
        }
    }
    let mut warnings = Vec::new();
    let released = sha256 == RELEASED_SHA256;
    if !released {
        warnings.push(format!(
            "{}: sha256 {sha256} is not the released locomo10.json's ({RELEASED_SHA256}); it \
             runs, and reports say so",
            data.display()
        ));
    }
    Ok(Suite {
        name: match unit {
            Unit::Turns => "locomo".into(),
            Unit::Sessions => "locomo-sessions".into(),
        },
        profile: Profile::Head,
        corpus,
        cases,
        sessions: Vec::new(),
        inputs: vec![InputFile {
            role: "data",
            path: data.display().to_string(),
            sha256: sha256.clone(),
        }],
        warnings,
        copy: None,
        anomalies,
        excluded,
        released: Some(released),
        default_measures: Some(MEASURES),
    })
}

/// A question of the file as written: LoCoMo's own recall accuracy reads its evidence strings
/// unresolved (`study::locomo`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// `conv-26/q0`.
    pub case_id: String,
    /// Its category's name.
    pub category: &'static str,
    /// Its evidence strings, as written.
    pub evidence: Vec<String>,
}

/// Every question of `data`, in file order, excluded ones included.
pub fn questions(data: &Path) -> Result<Vec<Question>> {
    let bytes = read_bytes(data)?;
    let mut out = Vec::new();
    for (i, sample) in file::samples(data, &bytes)?.into_iter().enumerate() {
        for (q, question) in sample.qa.into_iter().enumerate() {
            let category = category_name(question.category).ok_or_else(|| {
                Error::input(
                    data,
                    format!("$[{i}].qa[{q}].category"),
                    format!("{}: expected a category from 1 to 5", question.category),
                )
            })?;
            out.push(Question {
                case_id: format!("{}/q{q}", sample.sample_id),
                category,
                evidence: question.evidence,
            });
        }
    }
    Ok(out)
}

/// One dialog turn of the file, as said (the temporal study draws statements from these).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// `conv-26`.
    pub sample_id: String,
    /// `D1:3`.
    pub dia_id: String,
    /// Who said it.
    pub speaker: String,
    /// What was said, as written (no image caption).
    pub text: String,
}

/// Every dialog turn of `data`: samples in file order, sessions in number order, turns in order.
pub fn turns(data: &Path) -> Result<Vec<Turn>> {
    let bytes = read_bytes(data)?;
    let mut out = Vec::new();
    for (i, sample) in file::samples(data, &bytes)?.iter().enumerate() {
        for session in file::sessions(data, i, sample)? {
            out.extend(session.turns.into_iter().map(|t| Turn {
                sample_id: sample.sample_id.clone(),
                dia_id: t.dia_id,
                speaker: t.speaker,
                text: t.text,
            }));
        }
    }
    Ok(out)
}

/// Where a LoCoMo suite comes from.
#[derive(Debug, Clone)]
pub struct LocomoSource {
    /// The user's `locomo10.json`.
    pub data: PathBuf,
    /// Turns or sessions.
    pub unit: Unit,
}

impl super::Source for LocomoSource {
    fn load(&self) -> Result<Suite> {
        load(&self.data, self.unit)
    }
}
