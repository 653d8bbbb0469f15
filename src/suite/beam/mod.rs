//! BEAM (Tavakoli et al., ICLR 2026, "Beyond a Million Tokens") as a suite: `--suite beam
//! --data DIR`, DIR laid out as the repository's `chats/` (`100K/1/chat.json`,
//! `100K/1/probing_questions/probing_questions.json`); every tier found, or `--tier`.
//!
//! The mapping (docs/beam.md says why):
//! - each chat is one user's memory: user id `100K-1` (tier, `-`, the chat's folder), so a
//!   question about one chat only searches that chat (the user filter);
//! - each message, user's and assistant's, is one item, id `100K-1/m28` (its `id`), its role
//!   the belief's `subtype`. BEAM's evidence names assistant messages too (information
//!   extraction, multi-session reasoning, summarization), so both are indexed;
//! - the text is the message's content without the ` ->-> 1,1` marker BEAM's generator left
//!   at the end of user messages (batch and plan bullet, which the message's `index` keeps; 44
//!   assistant replies echo it): a token no user wrote, which would match every question
//!   asked with one;
//! - its time is its batch's `time_anchor` (written on the batch's first message, the batch's
//!   own field being null) plus its id in milliseconds, so messages of a batch keep their
//!   order on the anchor's day; a batch without an anchor takes the previous batch's (the
//!   next one's for leading batches), said as an anomaly;
//! - each probing question is one case, id `100K-1/knowledge_update/0` (its ability, its 0-based
//!   place in that ability's list), its category the ability, its gold the messages of
//!   `source_chat_ids` (`evidence` reads every shape) graded for nDCG: knowledge_update's
//!   `updated_info` 2, everything else 1. Abstention questions have no evidence by design and
//!   are excluded with that reason, as is any question whose evidence names no message;
//! - a case passes when all its gold is in the first `PASS_DEPTH` results; the context holds
//!   `DEPTH`, for R@50.

mod evidence;
mod file;
mod layout;
mod released;

pub(crate) use evidence::KNOWLEDGE_UPDATE;
pub(crate) use file::parse_anchor;

use super::benchmark::{item, Asked};
use super::{Anomaly, Excluded, InputFile, Suite};
use crate::error::{Error, Result};
use crate::io::{read_bytes, sha256_hex};
use crate::profile::Profile;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Results a case's context holds: enough for R@50.
pub(crate) const DEPTH: usize = 50;

/// A case passes when all its gold is within this many results (R@10 = 1).
pub(crate) const PASS_DEPTH: usize = 10;

/// The rank measures a BEAM run reports unless `--metrics` says otherwise.
pub(crate) const MEASURES: &str = "R@1,R@5,R@10,R@50,nDCG@10,RR";

/// The ability whose questions have no evidence by design.
const ABSTENTION: &str = "abstention";

/// The marker BEAM's generator appended to user messages (`... ->-> 1,1`).
const MARKER: &str = "->->";

/// Where a BEAM suite comes from.
#[derive(Debug, Clone)]
pub struct BeamSource {
    /// The folder of tiers (BEAM's `chats/`).
    pub data: PathBuf,
    /// The tiers to run (`100K`); empty: every tier found.
    pub tiers: Vec<String>,
}

impl super::Source for BeamSource {
    fn load(&self) -> Result<Suite> {
        load(&self.data, &self.tiers)
    }
}

/// The knowledge-update evidence of one case: which messages BEAM says hold the superseded
/// fact and which the update (what `tenure-eval beam` orders).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Update {
    /// `100K-1/knowledge_update/0`.
    pub case_id: String,
    /// Item ids of the original fact.
    pub original: Vec<String>,
    /// Item ids of the update.
    pub updated: Vec<String>,
}

/// Load the tiers `wanted` (all when empty) of `data` as a suite.
pub(crate) fn load(data: &Path, wanted: &[String]) -> Result<Suite> {
    let mut load = Loading::default();
    for (tier, tier_dir) in layout::tiers(data, wanted)? {
        for (chat, chat_dir) in layout::chats(&tier_dir)? {
            load.chat(data, &format!("{tier}-{chat}"), &chat_dir)?;
        }
    }
    let Loading {
        corpus,
        cases,
        inputs,
        anomalies,
        excluded,
        stripped,
        ..
    } = load;
    if cases.is_empty() {
        return Err(Error::input(
            data,
            "folder",
            "no probing question with evidence to score; expected BEAM's chats",
        ));
    }
    let mut warnings = Vec::new();
    if stripped > 0 {
        warnings.push(format!(
            "{stripped} messages ended with BEAM's generator marker ` ->-> BATCH,BULLET`: \
             left out of their text (docs/beam.md)"
        ));
    }
    let unreleased = released::unreleased(&inputs);
    let absent = released::absent(&inputs);
    let released = unreleased.is_empty() && absent.is_empty();
    if let Some(first) = absent.first() {
        warnings.push(format!(
            "{} of BEAM's released files of the tiers read are absent, first {first}: a part \
             of the release runs, and reports say so",
            absent.len()
        ));
    }
    if !unreleased.is_empty() {
        warnings.push(format!(
            "{} of the {} files read are not BEAM's released files (mohammadtavakoli78/BEAM \
             b2a3ee8), first {}; it runs, and reports say so",
            unreleased.len(),
            inputs.len(),
            unreleased[0]
        ));
    }
    Ok(Suite {
        name: "beam".into(),
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
        released: Some(released),
        default_measures: Some(MEASURES),
        corrections: None,
        selection: None,
    })
}

/// What loading gathers, chat by chat.
#[derive(Default)]
struct Loading {
    corpus: Vec<crate::suite::Belief>,
    cases: Vec<crate::suite::StaticCase>,
    inputs: Vec<InputFile>,
    anomalies: Vec<Anomaly>,
    excluded: Vec<Excluded>,
    /// Messages whose generator marker was cut.
    stripped: usize,
}

impl Loading {
    /// One chat (`user`, in `dir`): its messages as items, its questions as cases.
    fn chat(&mut self, data: &Path, user: &str, dir: &Path) -> Result<()> {
        let chat_path = dir.join("chat.json");
        let bytes = read_bytes(&chat_path)?;
        self.input(data, "chat", &chat_path, &bytes);
        let batches = file::batches(&chat_path, &bytes)?;
        let anchors = self.anchors(user, &chat_path, &batches)?;
        let mut ids = HashSet::new();
        for (b, batch) in batches.iter().enumerate() {
            for (t, turn) in batch.turns.iter().enumerate() {
                for (m, message) in turn.iter().enumerate() {
                    if !ids.insert(message.id) {
                        return Err(Error::input(
                            &chat_path,
                            format!("$[{b}].turns[{t}][{m}].id"),
                            format!("message id {} twice; expected unique ids", message.id),
                        ));
                    }
                    let text = self.text(&message.content);
                    let time = anchors[b] + message.id as i64;
                    let mut belief = item(format!("{user}/m{}", message.id), user, text, time);
                    belief.subtype = Some(message.role.clone());
                    self.corpus.push(belief);
                }
            }
        }
        let questions_path = dir.join("probing_questions/probing_questions.json");
        let bytes = read_bytes(&questions_path)?;
        self.input(data, "questions", &questions_path, &bytes);
        for (ability, list) in file::questions(&questions_path, &bytes)? {
            for (j, question) in list.iter().enumerate() {
                self.question(user, &ability, j, question, &ids);
            }
        }
        Ok(())
    }

    /// One probing question: a case, or excluded with its reason.
    fn question(
        &mut self,
        user: &str,
        ability: &str,
        j: usize,
        question: &file::RawQuestion,
        messages: &HashSet<u64>,
    ) {
        let case_id = format!("{user}/{ability}/{j}");
        let noted = self.anomalies.len();
        let resolved = question
            .source_chat_ids
            .as_ref()
            .map(|raw| evidence::resolve(&case_id, ability, raw, messages, &mut self.anomalies));
        let reason = match &resolved {
            _ if ability == ABSTENTION => {
                Some("abstention question: BEAM gives it no evidence by design")
            }
            None => Some("no source_chat_ids"),
            Some(r) if r.ids.is_empty() && self.anomalies.len() == noted => {
                Some("source_chat_ids is empty")
            }
            Some(r) if r.ids.is_empty() => Some("no source_chat_ids names a message of the chat"),
            Some(_) => None,
        };
        if let Some(reason) = reason {
            self.excluded.push(Excluded {
                case: case_id,
                reason: reason.into(),
            });
            return;
        }
        let resolved = resolved.expect("a case has evidence");
        let grades: Vec<(String, u32)> = resolved
            .ids
            .iter()
            .map(|(id, grade)| (format!("{user}/m{id}"), *grade))
            .collect();
        let mut case = Asked {
            case_id,
            user,
            category: ability,
            query: &question.question,
            gold: grades.iter().map(|(id, _)| id.clone()).collect(),
            depth: DEPTH,
            pass_depth: PASS_DEPTH,
        }
        .case();
        case.grades = grades;
        self.cases.push(case);
    }

    /// Each batch's anchor (Unix ms at midnight), carried over batches that lack one.
    fn anchors(&mut self, user: &str, path: &Path, batches: &[file::RawBatch]) -> Result<Vec<i64>> {
        let mut own: Vec<Option<i64>> = Vec::new();
        for (b, batch) in batches.iter().enumerate() {
            let written = batch
                .time_anchor
                .as_deref()
                .map(|a| (format!("$[{b}].time_anchor"), a));
            let on_message = batch.turns.iter().enumerate().find_map(|(t, turn)| {
                turn.iter().enumerate().find_map(|(m, msg)| {
                    let a = msg.time_anchor.as_deref()?;
                    Some((format!("$[{b}].turns[{t}][{m}].time_anchor"), a))
                })
            });
            own.push(match written.or(on_message) {
                Some((at, text)) => Some(parse_anchor(text).ok_or_else(|| {
                    Error::input(
                        path,
                        at,
                        format!("{text:?}: expected a date as BEAM writes them (March-15-2024)"),
                    )
                })?),
                None => None,
            });
        }
        let first = own.iter().flatten().next().copied();
        let mut out = Vec::with_capacity(own.len());
        let mut last = first;
        for (b, anchor) in own.iter().enumerate() {
            if anchor.is_none() {
                self.anomalies.push(Anomaly {
                    case: user.to_string(),
                    raw: format!("batch {b}"),
                    outcome: match first {
                        Some(_) => "no time_anchor: dated by the nearest batch before it (or \
                                    after it, for leading batches)"
                            .into(),
                        None => "no time_anchor in the whole chat: messages dated by their ids \
                                 alone, from 1970-01-01"
                            .into(),
                    },
                });
            }
            last = anchor.or(last);
            out.push(last.unwrap_or(0));
        }
        Ok(out)
    }

    /// A message's text: its content without the generator's marker on its last line.
    fn text(&mut self, content: &str) -> String {
        let trimmed = content.trim_end();
        let last_line = trimmed.rfind('\n').map_or(0, |i| i + 1);
        match trimmed[last_line..].rfind(MARKER) {
            Some(at) => {
                self.stripped += 1;
                trimmed[..last_line + at].trim_end().to_string()
            }
            None => content.to_string(),
        }
    }

    /// Record an input file: its path relative to the data folder, and its sha256.
    fn input(&mut self, data: &Path, role: &'static str, path: &Path, bytes: &[u8]) {
        let relative = path.strip_prefix(data).unwrap_or(path);
        self.inputs.push(InputFile {
            role,
            path: relative.display().to_string(),
            sha256: sha256_hex(bytes),
            read_from: Some(path.to_path_buf()),
        });
    }
}

/// The knowledge-update evidence of every scored knowledge_update question of `suite` that
/// names an update and an original in another message: its original (grade 1) and updated
/// (grade 2) item ids. Where BEAM names one message as both (six questions of the 100K and 500K
/// tiers), the message keeps the update's grade and no original is left: there is no order to
/// judge, and an audit found each such question counted as "updated first" whenever the
/// message was retrieved at all.
pub(crate) fn updates(suite: &Suite) -> Vec<Update> {
    suite
        .cases
        .iter()
        .filter(|c| c.category.as_deref() == Some(KNOWLEDGE_UPDATE))
        .map(|c| Update {
            case_id: c.case_id.clone(),
            original: grade_ids(&c.grades, 1),
            updated: grade_ids(&c.grades, 2),
        })
        .filter(|u| !u.updated.is_empty() && !u.original.is_empty())
        .collect()
}

fn grade_ids(grades: &[(String, u32)], grade: u32) -> Vec<String> {
    grades
        .iter()
        .filter(|(_, g)| *g == grade)
        .map(|(id, _)| id.clone())
        .collect()
}
