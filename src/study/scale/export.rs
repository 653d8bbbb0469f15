//! The scale study's corpus, queries and answers, written for another engine to index, run and
//! check (`scripts/lucene/ScaleLucene.java`, driven by `scripts/lucene-side-by-side.sh`): the
//! side-by-side measurement against Lucene uses the very beliefs and queries `scale` measured,
//! and Lucene's answers are compared with ours, id for id and score for score.
//!
//! Tab-separated text, one record a line, because the driver is plain Java with no JSON
//! library. In a field, `\` `TAB` `LF` `CR` and the list separator `U+001F` are escaped as
//! `\\` `\t` `\n` `\r` `\u`; a list is its escaped items joined by `U+001F`.
//!
//! * `corpus.tsv`: id, user, type, subtype (or empty), active (`1`/`0`), scopes (list),
//!   canonical name, aliases (list); in corpus order (Lucene's doc ids follow it).
//! * `queries.tsv`: user, query text, our answer: a list of `id score` pairs, the score the
//!   float32 in its shortest decimal (`Float.parseFloat` reads back the same float).
//! * `cases.tsv`: every search the suite's static cases made in the grown store (recorded as
//!   the context builder sent it): the same three columns, then the scope filter (list), the
//!   excluded ids (list) and the limit.

use super::Probe;
use crate::backend::{Backend, BackendError, BackendInfo, Hit, RetryPolicy, SearchRequest};
use crate::error::Result;
use crate::io::write_atomic_with;
use crate::suite::Belief;
use std::path::Path;
use std::sync::{Arc, Mutex};

const LIST: char = '\u{1f}';

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            LIST => out.push_str("\\u"),
            c => out.push(c),
        }
    }
    out
}

fn list<'s>(items: impl IntoIterator<Item = &'s str>) -> String {
    items
        .into_iter()
        .map(escape)
        .collect::<Vec<_>>()
        .join(&LIST.to_string())
}

/// One belief's line.
pub(crate) fn corpus_line(b: &Belief) -> String {
    let kind = serde_json::to_value(b.kind)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    [
        escape(&b.id),
        escape(&b.user_id),
        kind,
        escape(b.subtype.as_deref().unwrap_or("")),
        if b.is_active() { "1" } else { "0" }.to_string(),
        list(b.scope.iter().map(String::as_str)),
        escape(&b.canonical_name),
        list(b.aliases.iter().map(String::as_str)),
    ]
    .join("\t")
}

/// One query's line, with our answer.
pub(crate) fn query_line(probe: &Probe, answer: &[Hit]) -> String {
    let pairs: Vec<String> = answer
        .iter()
        .map(|h| format!("{} {}", h.id, h.score.unwrap_or(f32::NAN)))
        .collect();
    [
        escape(probe.user_id),
        escape(probe.text),
        list(pairs.iter().map(String::as_str)),
    ]
    .join("\t")
}

/// One search as a backend received and answered it.
#[derive(Debug, Clone)]
pub(crate) struct Searched {
    user_id: String,
    text: String,
    scope: Vec<String>,
    exclude_ids: Vec<String>,
    limit: usize,
    answer: Vec<Hit>,
}

/// The searches a [`Recording`] saw, in the order it saw them.
pub(crate) type SearchLog = Arc<Mutex<Vec<Searched>>>;

/// A backend that answers as `inner` does and records every search (without explanations).
pub(crate) struct Recording {
    inner: Box<dyn Backend>,
    log: SearchLog,
}

impl Recording {
    /// Record `inner`'s searches into `log`.
    pub(crate) fn new(inner: Box<dyn Backend>, log: SearchLog) -> Recording {
        Recording { inner, log }
    }
}

impl Backend for Recording {
    fn info(&self) -> &BackendInfo {
        self.inner.info()
    }
    fn settings(&self) -> serde_json::Value {
        self.inner.settings()
    }
    fn search(&self, request: &SearchRequest<'_>) -> std::result::Result<Vec<Hit>, BackendError> {
        let answer = self.inner.search(request)?;
        if let Ok(mut log) = self.log.lock() {
            log.push(Searched {
                user_id: request.filter.user_id.to_string(),
                text: request.text.to_string(),
                scope: request.filter.scope.to_vec(),
                exclude_ids: request.filter.exclude_ids.to_vec(),
                limit: request.limit,
                answer: answer
                    .iter()
                    .map(|h| Hit {
                        explanation: None,
                        ..h.clone()
                    })
                    .collect(),
            });
        }
        Ok(answer)
    }
    fn insert(&mut self, belief: &Belief) -> std::result::Result<(), BackendError> {
        self.inner.insert(belief)
    }
    fn replace(&mut self, belief: &Belief) -> std::result::Result<(), BackendError> {
        self.inner.replace(belief)
    }
    fn retry_policy(&self) -> RetryPolicy {
        self.inner.retry_policy()
    }
    fn stats(&self) -> Option<serde_json::Value> {
        self.inner.stats()
    }
}

/// One recorded search's line.
fn case_line(s: &Searched) -> String {
    let probe = Probe {
        user_id: &s.user_id,
        text: &s.text,
    };
    [
        query_line(&probe, &s.answer),
        list(s.scope.iter().map(String::as_str)),
        list(s.exclude_ids.iter().map(String::as_str)),
        s.limit.to_string(),
    ]
    .join("\t")
}

/// Write the recorded searches of the suite's cases to `cases.tsv` in `dir`.
pub(crate) fn write_cases(dir: &Path, log: &SearchLog) -> Result<()> {
    let searches = log.lock().map(|l| l.clone()).unwrap_or_default();
    write_atomic_with(&dir.join("cases.tsv"), |out| {
        searches
            .iter()
            .try_for_each(|s| writeln!(out, "{}", case_line(s)))
    })
}

/// Write `corpus.tsv` and `queries.tsv` into `dir`.
pub(crate) fn write(
    dir: &Path,
    corpus: &[Belief],
    probes: &[Probe],
    answers: &[Vec<Hit>],
) -> Result<()> {
    write_atomic_with(&dir.join("corpus.tsv"), |out| {
        corpus
            .iter()
            .try_for_each(|b| writeln!(out, "{}", corpus_line(b)))
    })?;
    write_atomic_with(&dir.join("queries.tsv"), |out| {
        probes
            .iter()
            .zip(answers)
            .try_for_each(|(p, a)| writeln!(out, "{}", query_line(p, a)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_lists_escape_what_would_split_them() {
        assert_eq!(escape("a\tb\\c\nd\u{1f}e"), "a\\tb\\\\c\\nd\\ue");
        assert_eq!(list(["x,y", "z\tw"]), "x,y\u{1f}z\\tw");
        let hits = [Hit {
            id: "b-1".into(),
            score: Some(0.1 + 0.2),
            explanation: None,
        }];
        let probe = Probe {
            user_id: "u",
            text: "mongo db",
        };
        assert_eq!(query_line(&probe, &hits), "u\tmongo db\tb-1 0.3");
    }
}
