//! LoCoMo's released file (`locomo10.json`, snap-research/LoCoMo `data/`), read typed: ten
//! samples, each a two-speaker conversation in numbered sessions (`session_N`, said at
//! `session_N_date_time`) and its questions (`qa`). Keys the importer does not use
//! (`event_summary`, `observation`, `session_summary`, a turn's `img_url`) are read past; a
//! part of the wrong shape is an input error naming its JSON path.

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
pub struct Session {
    /// N of `session_N`.
    pub number: u32,
    /// `1:56 pm on 8 May, 2023`.
    pub date_time: String,
    /// In file order.
    pub turns: Vec<RawTurn>,
}

/// The samples of `bytes` (the file at `path`).
pub fn samples(path: &Path, bytes: &[u8]) -> Result<Vec<RawSample>> {
    let value: Value = crate::io::parse_json(path, bytes)?;
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

/// The sessions of sample `i`, in session order; a session without its date, or a date without
/// its session, is an input error.
pub fn sessions(path: &Path, i: usize, sample: &RawSample) -> Result<Vec<Session>> {
    let mut out = Vec::new();
    for (key, value) in &sample.conversation {
        let Some(n) = key.strip_prefix("session_") else {
            continue;
        };
        let Ok(number) = n.parse::<u32>() else {
            continue;
        };
        let at = format!("$[{i}].conversation.{key}");
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

/// A session date as LoCoMo writes it (`1:56 pm on 8 May, 2023`) as Unix milliseconds (UTC:
/// the file gives no zone).
pub fn parse_date(text: &str) -> Option<i64> {
    let (time, date) = text.split_once(" on ")?;
    let (clock, half) = time.trim().split_once(' ')?;
    let (h, m) = clock.split_once(':')?;
    let (mut hour, minute): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
    match half.to_ascii_lowercase().as_str() {
        "am" if hour == 12 => hour = 0,
        "am" => {}
        "pm" if hour != 12 => hour += 12,
        "pm" => {}
        _ => return None,
    }
    let mut parts = date.split_whitespace();
    let day: i64 = parts.next()?.parse().ok()?;
    let month = parts.next()?.trim_end_matches(',');
    let year: i64 = parts.next()?.parse().ok()?;
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let month = MONTHS.iter().position(|m| m.eq_ignore_ascii_case(month))? as i64 + 1;
    if !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return None;
    }
    Some(((crate::suite::days_from_civil(year, month, day) * 24 + hour) * 60 + minute) * 60_000)
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
        assert_eq!(parse_date("1:56 xm on 8 May, 2023"), None);
    }
}
