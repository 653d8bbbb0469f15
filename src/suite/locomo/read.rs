//! The LoCoMo file read for what is not a suite: its questions as written (LoCoMo's own recall
//! reads them unresolved, `study::locomo`), its turns (the temporal study draws statements from
//! them), its conversations as items (LoCoMo-Plus splices into them), and what each
//! observation stands for (LoCoMo's recall over observations).

use super::{category_name, corrections, dated_sessions, file, items, RELEASED_SHA256};
use crate::error::{Error, Result};
use crate::io::{read_bytes, sha256_hex};
use crate::suite::{InputFile, Unit};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

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

/// Every question of `data`, in file order, excluded ones included, its evidence as the file
/// writes it or, where the overlay `corrections` replaces it, as the overlay does.
pub fn questions(data: &Path, corrections: &[PathBuf]) -> Result<Vec<Question>> {
    let bytes = read_bytes(data)?;
    let samples = file::samples(data, &bytes)?;
    let overlay = corrections::read(corrections, &samples)?;
    let mut out = Vec::new();
    for (i, sample) in samples.into_iter().enumerate() {
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
                evidence: (overlay.evidence.get(&(i, q)).cloned()).unwrap_or(question.evidence),
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

/// Every dialog turn of `data`: samples in file order, sessions in number order, turns in
/// order; and whether the file is the released `locomo10.json` (by sha256, of the bytes read
/// once), for the commands that read its turns without loading the suite (`temporal`).
pub fn turns(data: &Path) -> Result<(Vec<Turn>, bool)> {
    let bytes = read_bytes(data)?;
    let released = sha256_hex(&bytes) == RELEASED_SHA256;
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
    Ok((out, released))
}

/// A conversation of the file as `--unit turns` items, session by session, for suites built on
/// LoCoMo's conversations (LoCoMo-Plus).
pub struct Conversation {
    /// `speaker_a`'s name.
    pub speaker_a: String,
    /// `speaker_b`'s name.
    pub speaker_b: String,
    /// Each session's date (Unix ms) and its turns as items (`conv-26/D1:3`), in session order.
    pub sessions: Vec<(i64, Vec<crate::suite::Belief>)>,
}

/// Every conversation of `data`, the file as an input, and whether it is the released file.
pub fn conversations(data: &Path) -> Result<(Vec<Conversation>, InputFile, bool)> {
    let bytes = read_bytes(data)?;
    let sha256 = sha256_hex(&bytes);
    let mut out = Vec::new();
    let mut ignored = Vec::new();
    for (i, sample) in file::samples(data, &bytes)?.iter().enumerate() {
        let speaker = |key: &str| match sample.conversation.get(key) {
            Some(serde_json::Value::String(s)) => Ok(s.clone()),
            _ => Err(Error::input(
                data,
                format!("$[{i}].conversation.{key}"),
                "expected the speaker's name as a string",
            )),
        };
        let (speaker_a, speaker_b) = (speaker("speaker_a")?, speaker("speaker_b")?);
        let mut sessions = Vec::new();
        for dated in dated_sessions(data, i, sample)? {
            let time = dated.1;
            let turns = items::items(data, (i, sample), &[dated], Unit::Turns, &mut ignored)?;
            sessions.push((time, turns.into_iter().map(|t| t.belief).collect()));
        }
        out.push(Conversation {
            speaker_a,
            speaker_b,
            sessions,
        });
    }
    let released = sha256 == RELEASED_SHA256;
    let input = InputFile {
        role: "data",
        path: data.display().to_string(),
        sha256,
        read_from: None,
    };
    Ok((out, input, released))
}

/// The dialog ids each observation of `data` stands for, by item id (`conv-26/O0`).
pub fn observation_covers(data: &Path) -> Result<HashMap<String, Vec<String>>> {
    let bytes = read_bytes(data)?;
    let mut out = HashMap::new();
    let mut ignored = Vec::new();
    for (i, sample) in file::samples(data, &bytes)?.iter().enumerate() {
        let sessions = dated_sessions(data, i, sample)?;
        for it in items::items(
            data,
            (i, sample),
            &sessions,
            Unit::Observations,
            &mut ignored,
        )? {
            out.insert(it.belief.id, it.covers);
        }
    }
    Ok(out)
}
