//! LoCoMo's released file (`locomo10.json`, snap-research/LoCoMo `data/`), read typed: ten
//! samples, each a two-speaker conversation in numbered sessions (`session_N`, said at
//! `session_N_date_time`), its questions (`qa`), and its other two databases: the facts an LLM
//! extracted per session (`observation`) and the sessions' summaries (`session_summary`). Keys
//! the importer does not use (`event_summary`, a turn's `img_url`) are read past; a part of the
//! wrong shape is an input error naming its JSON path.

use crate::error::{Error, Result};
use crate::io::parse_value;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::path::Path;

/// One sample as the file has it.
#[derive(Debug, Deserialize)]
pub(crate) struct RawSample {
    /// `conv-26`, ...
    pub sample_id: String,
    /// Speakers, sessions and their dates, by key.
    pub conversation: Map<String, Value>,
    /// The questions.
    pub qa: Vec<RawQuestion>,
    /// `session_N_observation`: per speaker, `[fact, dia_id]` pairs.
    #[serde(default)]
    pub observation: Option<Map<String, Value>>,
    /// `session_N_summary`: a string each.
    #[serde(default)]
    pub session_summary: Option<Map<String, Value>>,
}

/// One observation as the file has it: a fact and the dialog id(s) it was drawn from, as
/// written (`"D1:3"`, `"D22:21, D22:23"` or `["D4:5", "D4:7"]`).
#[derive(Debug, Deserialize)]
pub(crate) struct RawObservation(pub String, pub Cited);

/// The dialog ids an observation cites, as written.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum Cited {
    /// One id, or several joined by commas.
    One(String),
    /// A list of ids.
    Many(Vec<String>),
}

impl Cited {
    /// The ids, split as LoCoMo's retrieval code splits them (task_eval/gpt_utils.py: a string
    /// with a comma is split on it and each part stripped; a list is taken as it is).
    pub(crate) fn ids(&self) -> Vec<String> {
        match self {
            Cited::One(s) if s.contains(',') => {
                s.split(',').map(|p| p.trim().to_string()).collect()
            }
            Cited::One(s) => vec![s.clone()],
            Cited::Many(list) => list.clone(),
        }
    }
}

/// One question as the file has it.
#[derive(Debug, Deserialize)]
pub(crate) struct RawQuestion {
    /// The question.
    pub question: String,
    /// The dialog ids that hold the answer, as written (some hold several, some are mistyped).
    #[serde(default)]
    pub evidence: Vec<String>,
    /// 1-5 (see [`super::category_name`]).
    pub category: u8,
}

/// One dialog turn.
#[derive(Debug, Deserialize)]
pub(crate) struct RawTurn {
    /// Who said it.
    pub speaker: String,
    /// `D<session>:<turn>`.
    pub dia_id: String,
    /// What was said.
    pub text: String,
    /// The caption of the image the turn shares, if it shares one.
    #[serde(default)]
    pub blip_caption: Option<String>,
}

/// One session of a sample: its number, its date as written, and its turns.
#[derive(Debug)]
pub(crate) struct Session {
    /// N of `session_N`.
    pub number: u32,
    /// `1:56 pm on 8 May, 2023`.
    pub date_time: String,
    /// In file order.
    pub turns: Vec<RawTurn>,
}

/// The samples of `bytes` (the file at `path`).
pub(crate) fn samples(path: &Path, bytes: &[u8]) -> Result<Vec<RawSample>> {
    let value = crate::io::parse_json_tree(path, bytes)?;
    if !value.is_array() {
        return Err(Error::input(
            path,
            "$",
            "expected LoCoMo's array of samples (locomo10.json)",
        ));
    }
    let samples: Vec<RawSample> = parse_value(path, "$", value)?;
    if samples.is_empty() {
        return Err(Error::input(path, "$", "no samples; expected at least one"));
    }
    Ok(samples)
}

/// The sessions of sample `i`, in session order; a session without its date, or a key that is
/// none of a conversation's ([`crate::suite::benchmark::session_key`]), is an input error.
pub(crate) fn sessions(path: &Path, i: usize, sample: &RawSample) -> Result<Vec<Session>> {
    let mut out = Vec::new();
    for (key, value) in &sample.conversation {
        let at = format!("$[{i}].conversation.{key}");
        let Some(number) = crate::suite::benchmark::session_key(path, &at, key)? else {
            continue;
        };
        let turns: Vec<RawTurn> = parse_value(path, &at, value.clone())?;
        let date_key = format!("session_{number}_date_time");
        let date_time = match sample.conversation.get(&date_key) {
            Some(Value::String(s)) => s.clone(),
            _ => {
                return Err(Error::input(
                    path,
                    format!("$[{i}].conversation.{date_key}"),
                    format!("expected the date of session {number} as a string"),
                ))
            }
        };
        out.push(Session {
            number,
            date_time,
            turns,
        });
    }
    if out.is_empty() {
        return Err(Error::input(
            path,
            format!("$[{i}].conversation"),
            "no sessions (session_1, session_2, ...); expected LoCoMo's conversation",
        ));
    }
    out.sort_by_key(|s| s.number);
    Ok(out)
}

/// The observations of session `number` of sample `i`: per speaker in file order, each
/// speaker's in order; `None` when the sample has no observation for that session.
pub(crate) fn observations(
    path: &Path,
    i: usize,
    sample: &RawSample,
    number: u32,
) -> Result<Option<Vec<RawObservation>>> {
    let Some(all) = &sample.observation else {
        return Err(Error::input(
            path,
            format!("$[{i}].observation"),
            "absent; expected LoCoMo's observations (--unit observations reads them)",
        ));
    };
    let key = format!("session_{number}_observation");
    let Some(by_speaker) = all.get(&key) else {
        return Ok(None);
    };
    let at = format!("$[{i}].observation.{key}");
    let by_speaker: Map<String, Value> = parse_value(path, &at, by_speaker.clone())?;
    let mut out = Vec::new();
    for (speaker, list) in by_speaker {
        out.extend(parse_value::<Vec<RawObservation>>(
            path,
            &format!("{at}.{speaker}"),
            list,
        )?);
    }
    Ok(Some(out))
}

/// The summary of session `number` of sample `i`.
pub(crate) fn summary(path: &Path, i: usize, sample: &RawSample, number: u32) -> Result<String> {
    let key = format!("session_{number}_summary");
    let at = format!("$[{i}].session_summary.{key}");
    match sample
        .session_summary
        .as_ref()
        .and_then(|all| all.get(&key))
    {
        Some(Value::String(s)) => Ok(s.clone()),
        _ => Err(Error::input(
            path,
            at,
            "expected the session's summary as a string (--unit summaries reads them)",
        )),
    }
}

/// A session date as LoCoMo writes it (`1:56 pm on 8 May, 2023`) as Unix milliseconds (UTC:
/// the file gives no zone); an impossible date (31 February) is `None`.
pub(crate) fn parse_date(text: &str) -> Option<i64> {
    let at = chrono::NaiveDateTime::parse_from_str(text.trim(), "%I:%M %p on %d %B, %Y").ok()?;
    Some(at.and_utc().timestamp_millis())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locomo_dates_are_read_as_written() {
        // 2023-05-08T13:56:00Z
        assert_eq!(
            parse_date("1:56 pm on 8 May, 2023"),
            Some(1_683_554_160_000)
        );
        assert_eq!(
            parse_date("12:09 am on 1 January, 2024"),
            Some(1_704_067_740_000)
        );
        assert_eq!(
            parse_date("12:00 pm on 29 February, 2024"),
            Some(1_709_208_000_000)
        );
        assert_eq!(parse_date("8 May 2023"), None);
        assert_eq!(parse_date("1:56 pm on 31 February, 2023"), None);
        assert_eq!(parse_date("1:56 xm on 8 May, 2023"), None);
    }
}
