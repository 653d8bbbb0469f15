//! A journal read back (`Recorded`): its header, the latest `built` line, the last word on each
//! case, and whether the run stopped or ended; and how two runs' journals are told apart.

use super::{Built, End, Entry, Header, Line, Stopped, DRIVING, FORMAT, WHEN};
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A journal as read back: the last word on each case wins (a rerun case replaces its error).
#[derive(Debug, Clone)]
pub struct Recorded {
    /// Where it was read from.
    pub path: PathBuf,
    /// What ran.
    pub header: Header,
    /// The latest `built` line.
    pub built: Option<Built>,
    /// Finished cases by position.
    pub entries: BTreeMap<usize, Entry>,
    /// The latest stop, unless the run ended after it.
    pub stopped: Option<Stopped>,
    /// The run finished.
    pub end: Option<End>,
    /// Since the last `--rerun-failed` began, the cases it wrote (each a second try); `None`
    /// when no second look is in the journal.
    pub second_tries: Option<std::collections::BTreeSet<usize>>,
}

impl Recorded {
    /// Read `path`. A torn last line (a kill mid-write) is ignored; any other line that is
    /// not a journal line is an input error naming the line.
    pub(crate) fn read(path: &Path) -> Result<Recorded> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::input(path, "file", format!("cannot read the journal: {e}")))?;
        let bad = |n: usize, what: String| Error::input(path, format!("line {}", n + 1), what);
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let parsed: Vec<_> = lines
            .iter()
            .map(|l| serde_json::from_str::<Line>(l.trim_end()))
            .collect();
        let mut recorded: Option<Recorded> = None;
        for (n, line) in parsed.into_iter().enumerate() {
            if lines[n].trim().is_empty() {
                continue;
            }
            // A line torn by a kill mid-write: the last, or followed only by the stop the
            // Ctrl-C handler wrote after it.
            let torn = |rest: &[&str]| {
                rest.iter().all(|l| {
                    l.trim().is_empty()
                        || matches!(serde_json::from_str(l.trim_end()), Ok(Line::Stopped(_)))
                })
            };
            let line = match line {
                Ok(line) if lines[n].ends_with('\n') => line,
                Ok(_) => break,
                Err(_) if torn(&lines[n + 1..]) => continue,
                Err(e) => return Err(bad(n, format!("not a journal line ({e})"))),
            };
            match (&mut recorded, line) {
                (None, Line::Header(header)) => {
                    if header.format != FORMAT {
                        return Err(bad(
                            n,
                            format!(
                                "journal format {} (this tenure-eval reads format {FORMAT})",
                                header.format
                            ),
                        ));
                    }
                    recorded = Some(Recorded {
                        path: path.to_path_buf(),
                        header,
                        built: None,
                        entries: BTreeMap::new(),
                        stopped: None,
                        end: None,
                        second_tries: None,
                    })
                }
                (None, _) => return Err(bad(n, "expected the journal's header first".into())),
                (Some(_), Line::Header(_)) => return Err(bad(n, "a second header".into())),
                (Some(r), Line::Built(built)) => {
                    if built.second_look {
                        r.second_tries = Some(Default::default());
                    }
                    r.built = Some(built);
                    r.end = None;
                }
                (Some(r), Line::Case(entry)) => {
                    if let Some(tries) = &mut r.second_tries {
                        tries.insert(entry.i);
                    }
                    r.entries.insert(entry.i, entry);
                }
                (Some(r), Line::Stopped(stopped)) => r.stopped = Some(stopped),
                (Some(r), Line::End(end)) => {
                    r.end = Some(end);
                    r.stopped = None;
                }
            }
        }
        recorded.ok_or_else(|| Error::input(path, "line 1", "an empty journal (no header)"))
    }

    /// Cases (or turns) recorded with an error.
    #[cfg(test)]
    pub(crate) fn errored(&self) -> usize {
        self.entries.values().filter(|e| e.errored()).count()
    }

    /// The first difference between this journal's run and `header`, `built` (a run about to
    /// continue it), as `what: journal X, now Y`; `None` when they are the same run.
    pub(crate) fn differs(&self, header: &Header, built: &Built) -> Option<String> {
        let ours = serde_json::to_value(&self.header).ok()?;
        let theirs = serde_json::to_value(header).ok()?;
        if let Some(d) = first_difference("", &ours, &theirs) {
            return Some(d);
        }
        // Settings first: a backend's label and tag follow from them.
        let recorded = self.built.as_ref()?;
        let ours = serde_json::to_value(&recorded.backend).ok()?;
        let theirs = serde_json::to_value(&built.backend).ok()?;
        first_difference("settings", &recorded.settings, &built.settings)
            .or_else(|| first_difference("backend", &ours, &theirs))
    }
}

/// The first JSON path where `a` and `b` differ, keys of [`DRIVING`] and [`WHEN`] aside.
fn first_difference(path: &str, a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter()
                .filter(|k| !DRIVING.contains(&k.as_str()) && !WHEN.contains(&k.as_str()))
                .find_map(|k| {
                    first_difference(
                        &join(k),
                        x.get(k).unwrap_or(&Value::Null),
                        y.get(k).unwrap_or(&Value::Null),
                    )
                })
        }
        _ if a == b => None,
        _ => Some(format!("{path}: journal {a}, now {b}")),
    }
}
