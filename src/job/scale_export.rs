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

use super::scale::Probe;
use crate::backend::Hit;
use crate::error::Result;
use crate::io::write_atomic_with;
use crate::suite::Belief;
use std::path::Path;

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
pub fn corpus_line(b: &Belief) -> String {
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
pub fn query_line(probe: &Probe, answer: &[Hit]) -> String {
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

/// Write `corpus.tsv` and `queries.tsv` into `dir`.
pub fn write(dir: &Path, corpus: &[Belief], probes: &[Probe], answers: &[Vec<Hit>]) -> Result<()> {
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
