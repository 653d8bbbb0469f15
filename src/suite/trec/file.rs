//! The files of a test collection, as ir_datasets, BEIR and trec_eval write them: documents
//! (BEIR's `corpus.jsonl`: `{"_id", "title", "text"}` per line), topics (BEIR's
//! `queries.jsonl`, `{"_id", "text"}`, or a TSV of `qid<TAB>text`) and qrels (TREC's
//! `qid iter docno rel`, whitespace-separated, or BEIR's `qrels/SPLIT.tsv` with its
//! `query-id corpus-id score` header). Every error names the file and the line.

use crate::error::{Error, Result};
use serde::Deserialize;
use std::path::Path;

/// One document.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Doc {
    /// Its id.
    #[serde(rename = "_id")]
    pub id: String,
    /// Its title (BEIR: empty for most collections).
    #[serde(default)]
    pub title: String,
    /// Its text.
    pub text: String,
}

/// One topic (query).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Topic {
    /// Its id.
    #[serde(rename = "_id")]
    pub id: String,
    /// Its text.
    pub text: String,
}

/// One judgment: `grade` of `doc` for `query` (0: judged not relevant).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Judgment {
    /// Query id.
    pub query: String,
    /// Document id.
    pub doc: String,
    /// Graded relevance.
    pub grade: u32,
}

/// The text of `path` (a collection's file: qrels, queries, a corpus), or an input error.
fn text(path: &Path) -> Result<String> {
    let text = String::from_utf8(crate::io::read_bytes(path)?)
        .map_err(|_| Error::input(path, "file", "not UTF-8 text"))?;
    // A byte-order mark became part of the first id (`\u{feff}q1`), whose judgments then
    // matched no topic (a seventeenth audit).
    if text.starts_with('\u{feff}') {
        return Err(Error::input(
            path,
            "line 1",
            "a byte-order mark (U+FEFF) before the first id; expected UTF-8 text without one",
        ));
    }
    Ok(text)
}

/// JSON lines of `T`.
fn json_lines<T: for<'de> Deserialize<'de>>(path: &Path, what: &str) -> Result<Vec<T>> {
    crate::io::json_lines(path, &text(path)?, what)
}

/// The documents of `path` (JSON lines).
pub(crate) fn docs(path: &Path) -> Result<Vec<Doc>> {
    json_lines(path, r#"a document {"_id", "title", "text"}"#)
}

/// The topics of `path`: JSON lines when it ends in `.jsonl`, else `qid<TAB>text` lines.
pub(crate) fn topics(path: &Path) -> Result<Vec<Topic>> {
    if path.extension().is_some_and(|e| e == "jsonl") {
        return json_lines(path, r#"a query {"_id", "text"}"#);
    }
    let text = text(path)?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| match l.split_once('\t') {
            Some((id, text)) if !id.trim().is_empty() && !text.trim().is_empty() => Ok(Topic {
                id: id.trim().to_string(),
                text: text.trim().to_string(),
            }),
            _ => Err(Error::input(
                path,
                format!("line {}", n + 1),
                "expected `QUERY_ID<TAB>TEXT`, neither blank",
            )),
        })
        .collect()
}

/// The judgments of `path`: TREC's four columns (`qid iter docno rel`), or BEIR's three
/// (`query-id corpus-id score`, tab-separated, after its header line).
pub(crate) fn qrels(path: &Path) -> Result<Vec<Judgment>> {
    let text = text(path)?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let at = || format!("line {}", n + 1);
        let (query, doc, grade) = match fields.as_slice() {
            [] => continue,
            ["query-id", "corpus-id", "score"] if n == 0 => continue,
            [q, _, d, g] | [q, d, g] => (*q, *d, *g),
            _ => {
                return Err(Error::input(
                    path,
                    at(),
                    "expected `QID ITER DOCNO REL` (TREC) or `QUERY_ID CORPUS_ID SCORE` (BEIR)",
                ))
            }
        };
        let grade: u32 = grade.parse().map_err(|_| {
            Error::input(
                path,
                at(),
                format!("relevance {grade:?}: expected a whole number ≥ 0"),
            )
        })?;
        out.push(Judgment {
            query: query.to_string(),
            doc: doc.to_string(),
            grade,
        });
    }
    Ok(out)
}
