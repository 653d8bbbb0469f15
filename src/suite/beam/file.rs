//! BEAM's files read typed: a chat (`chat.json`: batches of turns, each turn a list of
//! messages) and its probing questions (`probing_questions/probing_questions.json`: a list of
//! questions per ability). Keys the importer does not use (`index`, `question_type`, the
//! rubrics and ideal answers) are read past; a part of the wrong shape is an input error naming
//! its JSON path.

use crate::error::{Error, Result};
use crate::io::parse_value;
use chrono::NaiveDate;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::path::Path;

/// One batch of a chat: the turns generated from one part of the chat's plan.
#[derive(Debug, Deserialize)]
pub(crate) struct RawBatch {
    /// Each turn is a user message and the replies and follow-ups that came with it.
    pub turns: Vec<Vec<RawMessage>>,
    /// The batch's date; BEAM's own conversion writes it null and keeps the date on the
    /// batch's first message instead (`RawMessage::time_anchor`).
    #[serde(default)]
    pub time_anchor: Option<String>,
}

/// One message.
#[derive(Debug, Deserialize)]
pub(crate) struct RawMessage {
    /// `user` or `assistant`.
    pub role: String,
    /// Unique in its chat; the probing questions' evidence names these.
    pub id: u64,
    /// What was said.
    pub content: String,
    /// `March-15-2024`, on the first user message of each batch.
    #[serde(default)]
    pub time_anchor: Option<String>,
}

/// One probing question as the file has it: the question, and the evidence as written
/// (`source_chat_ids`, in any of the shapes `evidence` reads).
#[derive(Debug, Deserialize)]
pub(crate) struct RawQuestion {
    /// The question.
    pub question: String,
    /// Evidence as written; absent for abstention questions (and one knowledge update).
    #[serde(default)]
    pub source_chat_ids: Option<Value>,
}

/// The batches of a chat file.
pub(crate) fn batches(path: &Path, bytes: &[u8]) -> Result<Vec<RawBatch>> {
    let value = crate::io::parse_json_tree(path, bytes)?;
    if !value.is_array() {
        return Err(Error::input(
            path,
            "$",
            "expected BEAM's chat: an array of batches ({\"batch_number\", \"turns\", ...})",
        ));
    }
    parse_value(path, "$", value)
}

/// The questions of a probing-questions file, ability by ability in file order.
pub(crate) fn questions(path: &Path, bytes: &[u8]) -> Result<Vec<(String, Vec<RawQuestion>)>> {
    let value = crate::io::parse_json_tree(path, bytes)?;
    let Value::Object(map) = value else {
        return Err(Error::input(
            path,
            "$",
            "expected BEAM's probing questions: an object of abilities, each a list of questions",
        ));
    };
    by_ability(path, map)
}

fn by_ability(path: &Path, map: Map<String, Value>) -> Result<Vec<(String, Vec<RawQuestion>)>> {
    map.into_iter()
        .map(|(ability, list)| {
            if ability.is_empty() || ability.contains('/') {
                return Err(Error::input(
                    path,
                    "$",
                    format!("ability {ability:?}: expected a name without '/'"),
                ));
            }
            let at = format!("$.{ability}");
            let list: Vec<RawQuestion> = parse_value(path, &at, list)?;
            Ok((ability, list))
        })
        .collect()
}

/// A time anchor as BEAM writes them (`March-15-2024`, chrono's `%B-%d-%Y`) as Unix
/// milliseconds at midnight UTC; `None` for anything else, 31 February included.
pub(crate) fn parse_anchor(text: &str) -> Option<i64> {
    let date = NaiveDate::parse_from_str(text.trim(), "%B-%d-%Y").ok()?;
    Some(date.and_hms_opt(0, 0, 0)?.and_utc().timestamp_millis())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_read_as_beam_writes_them() {
        // 2024-03-15T00:00:00Z
        assert_eq!(parse_anchor("March-15-2024"), Some(1_710_460_800_000));
        assert_eq!(parse_anchor("February-29-2024"), Some(1_709_164_800_000));
        assert_eq!(parse_anchor("February-31-2024"), None);
        assert_eq!(parse_anchor("2024-03-15"), None);
    }
}
