//! LongMemEval's released files, read typed (the format of its README, "Dataset Format"): an
//! array of instances, each a question over its own haystack of dated chat sessions. Keys the
//! importer does not use (`answer`, `question_date`) are read past; the three haystack lists
//! must be as long as each other; anything of the wrong shape is an input error naming its JSON
//! path.

use crate::error::{Error, Result};
use crate::io::parse_value;
use serde::Deserialize;
use std::path::Path;

/// One evaluation instance.
#[derive(Debug, Deserialize)]
pub(crate) struct Instance {
    /// Unique; `_abs` at the end marks an abstention question.
    pub question_id: String,
    /// `single-session-user`, `temporal-reasoning`, `knowledge-update`, `multi-session`, ...
    pub question_type: String,
    /// The question.
    pub question: String,
    /// The haystack's session ids, in order.
    pub haystack_session_ids: Vec<String>,
    /// Each session's date.
    pub haystack_dates: Vec<String>,
    /// Each session's turns.
    pub haystack_sessions: Vec<Vec<Turn>>,
    /// The evidence sessions.
    pub answer_session_ids: Vec<String>,
}

/// One turn of a session.
#[derive(Debug, Deserialize)]
pub(crate) struct Turn {
    /// `user` or `assistant`.
    pub role: String,
    /// What was said.
    pub content: String,
    /// The turn holds evidence (turn-level recall).
    #[serde(default)]
    pub has_answer: bool,
}

/// The instances of `bytes` (the file at `path`).
pub(crate) fn instances(path: &Path, bytes: &[u8]) -> Result<Vec<Instance>> {
    let value = crate::io::parse_json_tree(path, bytes)?;
    if !value.is_array() {
        return Err(Error::input(
            path,
            "$",
            "expected LongMemEval's array of instances (longmemeval_s.json, _m, _oracle)",
        ));
    }
    let instances: Vec<Instance> = parse_value(path, "$", value)?;
    for (i, q) in instances.iter().enumerate() {
        let n = q.haystack_session_ids.len();
        for (key, len) in [
            ("haystack_dates", q.haystack_dates.len()),
            ("haystack_sessions", q.haystack_sessions.len()),
        ] {
            if len != n {
                return Err(Error::input(
                    path,
                    format!("$[{i}].{key}"),
                    format!("{len} entries; expected one per haystack session id ({n})"),
                ));
            }
        }
        // Only `user` turns are indexed: a `User` turn vanished from the corpus, and its
        // session was then said to have no marked user turn (a seventeenth audit).
        for (s, session) in q.haystack_sessions.iter().enumerate() {
            if let Some((t, turn)) = (session.iter().enumerate())
                .find(|(_, t)| !matches!(t.role.as_str(), "user" | "assistant"))
            {
                return Err(Error::input(
                    path,
                    format!("$[{i}].haystack_sessions[{s}][{t}].role"),
                    format!("{:?}; expected user or assistant", turn.role),
                ));
            }
        }
    }
    Ok(instances)
}

/// A session date as LongMemEval writes it (`2023/05/20 (Sat) 02:21`) as Unix milliseconds
/// (UTC: the files give no zone). The weekday in parentheses is required but not checked
/// against the date (its retrieval code never reads it); an impossible date (31 February) is
/// `None`.
pub(crate) fn parse_date(text: &str) -> Option<i64> {
    let mut parts = text.split_whitespace();
    let (date, weekday, clock) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || !(weekday.starts_with('(') && weekday.ends_with(')')) {
        return None;
    }
    let at = chrono::NaiveDateTime::parse_from_str(&format!("{date} {clock}"), "%Y/%m/%d %H:%M");
    Some(at.ok()?.and_utc().timestamp_millis())
}

#[cfg(test)]
mod tests {
    #[test]
    fn longmemeval_dates_are_read_as_written() {
        // 2023-05-20T02:21:00Z
        assert_eq!(
            super::parse_date("2023/05/20 (Sat) 02:21"),
            Some(1_684_549_260_000)
        );
        assert_eq!(super::parse_date("2023/05/20 02:21"), None);
        assert_eq!(super::parse_date("2023/13/20 (Sat) 02:21"), None);
        assert_eq!(super::parse_date("2023/02/31 (Fri) 02:21"), None);
    }
}
